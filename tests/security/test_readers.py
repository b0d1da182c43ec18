"""Reading a live table's journal never harms the table (issue 15, item 5).

The break: the table opened and closed its own extra descriptors of
journal.db-shm (and journal.db), which drops every POSIX lock the process
holds on the file, SQLite's wal-index lock included; a read-only tool then
took itself for the first connection, truncated -shm and the table died of
SIGBUS within a few reads. Here the project's own read-only commands run in
a loop, as separate processes of the installed CLI, against a table under
autoplay, and the table must keep closing rounds and exit cleanly.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time

from tests.security.anchor_helpers import TABLECTL, WAR, env_for, make_key


def _rounds(out_path) -> list[dict]:
    try:
        text = out_path.read_text()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in text.splitlines() if line.startswith("{") and line.endswith("}")]


def test_read_only_tools_beside_a_playing_table(tmp_path):
    data = tmp_path / "data"
    env = env_for(make_key(tmp_path / "keys"))
    out_path, err_path = tmp_path / "table.out", tmp_path / "table.err"
    with open(out_path, "w") as out, open(err_path, "w") as err:
        table = subprocess.Popen([TABLECTL, "run", "--config", WAR, "--data-dir", str(data),
                                  "--autoplay", "--seed", "7"], stdout=out, stderr=err, env=env)
    try:
        deadline = time.monotonic() + 60
        while len(_rounds(out_path)) < 2:
            assert table.poll() is None, err_path.read_text()[-2000:]
            assert time.monotonic() < deadline, "the table closed no rounds"
            time.sleep(0.1)
        reads = 0
        before = len(_rounds(out_path))
        deadline = time.monotonic() + 60
        # at least six passes of every tool (main died within three), and until more rounds closed meanwhile
        while reads < 6 or len(_rounds(out_path)) < before + 2:
            assert time.monotonic() < deadline, f"the table stopped closing rounds after {reads} passes"
            rid = _rounds(out_path)[-1]["round"]
            for args in (["journal", "verify"], ["rounds", "list"], ["rounds", "show", rid], ["meters"]):
                argv = [TABLECTL, *args[:2], "--data-dir", str(data), *args[2:]] if args[0] == "rounds" \
                    else [TABLECTL, *args, "--data-dir", str(data)]
                subprocess.run(argv, capture_output=True, env=env, timeout=60)
                assert table.poll() is None, (f"the table died ({table.returncode}) after {reads} passes: "
                                              + err_path.read_text()[-2000:])
            reads += 1
        table.send_signal(signal.SIGTERM)
        assert table.wait(timeout=30) == 0, err_path.read_text()[-2000:]
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()
    # what the readers read was the table's journal, whole and sound
    check = subprocess.run([TABLECTL, "journal", "verify", "--data-dir", str(data)], capture_output=True,
                           text=True, env=env, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "MACs: every entry and the seal checked" in check.stdout
    # a casino war table has no progressive controller to hold its anchor: it says so
    assert "anchor: NONE" in check.stdout, check.stdout
