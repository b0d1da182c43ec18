"""`tablectl run` as systemd starts it: READY=1 only once the screens answer, logs an operator can
follow (round_opened/round_closed, the round on every line between), an archive made beside the
running table, and STOPPING=1 with exit 0 on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = Path(sys.executable).with_name("tablectl")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ready_after_the_screens_then_archive_beside_the_running_table(tmp_path):
    port = free_port()
    profile = tmp_path / "table.toml"
    profile.write_text((ROOT / "config/caribbean-stud.toml").read_text().replace("port = 8080", f"port = {port}")
                       .replace("kiosk_port = 8081", f"kiosk_port = {free_port()}"))
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(30)
    data = tmp_path / "data"
    with open(tmp_path / "table.log", "w") as log:   # the child holds its own copy
        proc = subprocess.Popen([str(TABLECTL), "run", "--config", str(profile), "--data-dir", str(data),
                                 "--emulate"],
                                stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
                                env={**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify")})
    try:
        first = notify.recv(4096)
        assert first.startswith(b"READY=1"), first
        # READY means served: the dealer's page answers at once, no retry
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert page.status == 200
        # an archive made while the table holds its journal open
        archive = tmp_path / "now.tar.gz"
        subprocess.run([str(TABLECTL), "journal", "export", "--data-dir", str(data), "--to", str(archive)],
                       check=True, capture_output=True, timeout=60)
        checked = subprocess.run([str(TABLECTL), "journal", "verify", "--archive", str(archive)],
                                 capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert notify.recv(4096) == b"STOPPING=1"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        notify.close()
    lines = [json.loads(x) for x in (tmp_path / "table.log").read_text().splitlines() if x.startswith("{")]
    assert [x["round"] for x in lines if x["event"] == "round_opened"] == ["CS-01-000001"]


def test_the_round_is_on_every_line_from_opened_to_closed(tmp_path):
    profile = tmp_path / "table.toml"   # the default profile without its screen
    profile.write_text((ROOT / "config/caribbean-stud.toml").read_text().split("[screen]")[0])
    done = subprocess.run([str(TABLECTL), "run", "--config", str(profile), "--data-dir",
                           str(tmp_path / "d"), "--autoplay", "--rounds", "3", "--seed", "5"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(x) for x in done.stderr.splitlines() if x.startswith("{")]
    events = [x["event"] for x in lines]
    assert events.count("round_opened") == 3 and events.count("round_closed") == 3
    current = None
    for x in lines:
        if x["event"] == "round_opened":
            current = x["round"]
        assert x.get("round") == current, x
        if x["event"] == "round_closed":
            current = None
