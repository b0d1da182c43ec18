"""The command line as the ecosystem's tools are (issue 32, 5), through the installed command: --json on
every command that reads, one error prefix, one table of exit codes, bare `tablectl`, PINs of 6 digits,
and `sh scripts/table` speaking to a person at a terminal and to a program through a pipe.

One table's journal for the module: two rounds played by `tablectl run --autoplay` on a profile of its own
ports (a module-scoped fixture)."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import threading
from pathlib import Path

import pytest

from controller.cli import EXIT_CODES
from tests.appliance.test_wheel import ROOT, free_port

TABLECTL = ROOT / ".venv" / "bin" / "tablectl"


def tablectl(*args, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(TABLECTL), *map(str, args)], capture_output=True, text=True, timeout=120,
                          input=input, env={**os.environ, **(env or {})})


def own_ports(path: Path) -> Path:
    text = (ROOT / "config/caribbean-stud.toml").read_text()
    path.write_text(text.replace("port = 8080", f"port = {free_port()}", 1)
                    .replace("kiosk_port = 8081", f"kiosk_port = {free_port()}", 1))
    return path


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    work = tmp_path_factory.mktemp("interfaces")
    profile = own_ports(work / "table.toml")
    played = tablectl("run", "--config", profile, "--data-dir", work / "data", "--autoplay", "--rounds", 2,
                      "--seed", 5)
    assert played.returncode == 0, played.stderr[-2000:]
    return {"work": work, "profile": profile, "data": work / "data"}


READINGS = {
    "rounds list": lambda t: ["rounds", "list", "--data-dir", t["data"]],
    "rounds show": lambda t: ["rounds", "show", "CS-01-000002", "--data-dir", t["data"]],
    "meters": lambda t: ["meters", "--data-dir", t["data"]],
    "journal verify": lambda t: ["journal", "verify", "--data-dir", t["data"]],
    "fault status": lambda t: ["fault", "status", "--data-dir", t["data"]],
    "events": lambda t: ["events", "--data-dir", t["data"]],
    "software history": lambda t: ["software", "history", "--data-dir", t["data"]],
    "config check": lambda t: ["config", "check", t["profile"]],
    "report": lambda t: ["report", "--demo", "--config", t["profile"], "--data-dir", t["data"]],
}


@pytest.mark.parametrize("command", sorted(READINGS))
def test_every_reading_command_says_json(table, command):
    done = tablectl(*READINGS[command](table), "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)   # one document, nothing else on stdout
    assert document
    if command == "rounds list":
        assert [r["round"] for r in document["rounds"]] == ["CS-01-000001", "CS-01-000002"]
        assert all(r["entries"] > 0 and r["status"] for r in document["rounds"])
    elif command == "rounds show":
        assert document["round"] == "CS-01-000002" and document["problems"] == []
        assert document["entries"][0]["kind"] == "round-opened" and document["record"]["payload"]
    elif command == "journal verify":
        assert document["sound"] is True and document["status"] == 0 and document["problems"] == []
        assert re.fullmatch(r"[0-9a-f]{64}", document["head"]) and document["entries"] > 0
    elif command == "fault status":
        assert document["fault"] is False and document["faults"] == []
    elif command == "config check":
        assert document["profiles"][0]["ok"] is True and document["profiles"][0]["table"] == "CS-01"


def test_json_keeps_the_exit_status_of_the_words(table, tmp_path):
    missing = tablectl("rounds", "show", "CS-01-999999", "--data-dir", table["data"], "--json")
    assert missing.returncode == 1 and missing.stdout == ""
    bad = tmp_path / "bad.toml"
    bad.write_text(table["profile"].read_text().replace('timezone = "America/New_York"', 'timezone = "Mars/Base"'))
    checked = tablectl("config", "check", bad, "--json")
    assert checked.returncode == 2
    profile = json.loads(checked.stdout)["profiles"][0]
    assert profile["ok"] is False and [i["key"] for i in profile["issues"]] == ["table.timezone"]
    assert profile["issues"][0]["line"] is not None
    none = tablectl("journal", "verify", "--data-dir", tmp_path / "nothing", "--json")
    assert none.returncode == 2 and none.stderr.startswith("tablectl journal verify: ")


def test_every_error_has_the_one_prefix(table, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(table["profile"].read_text().replace("seats = 7", "seats = 70"))
    cases = [
        (("rounds", "list"), ["--data-dir", tmp_path / "none"], 2),
        (("rounds", "show"), ["CS-01-999999", "--data-dir", table["data"]], 1),
        (("meters",), ["--data-dir", tmp_path / "none"], 2),
        (("config", "check"), [bad], 2),
        (("config", "show"), ["blackjack"], 2),
        (("run",), ["--config", bad], 2),
        (("journal", "verify"), ["--anchor", "ab" * 32, "--data-dir", table["data"]], 2),
        (("supervisor", "add"), ["S1", "--secrets", tmp_path / "s.toml", "--pin-stdin"], 2),
        (("fault", "clear"), ["--data-dir", table["data"]], 2),
    ]
    for command, args, code in cases:
        done = tablectl(*command, *args, input="12345\n")
        lines = [x for x in done.stderr.splitlines() if x.strip()]
        assert done.returncode == code, (command, done.returncode, done.stderr)
        assert lines and all(x.startswith(f"tablectl {' '.join(command)}: ") for x in lines), (command, lines)


def test_bare_tablectl_lists_its_commands_and_help_lists_the_exit_codes():
    bare = tablectl()
    assert bare.returncode == 0 and bare.stderr == ""
    for command in ("run", "rounds", "journal", "meters", "fault", "supervisor", "system", "report", "events"):
        assert re.search(rf"^\s+{command}\s", bare.stdout, re.M), command
    helped = tablectl("--help")
    assert helped.returncode == 0 and EXIT_CODES in helped.stdout
    # the same codes in the install guide's table, every one the help names
    guide = (ROOT / "docs/INSTALL.md").read_text().split("## Exit codes", 1)[1]
    in_guide = set(re.findall(r"^\| (\d+) \|", guide, re.M))
    in_help = set(re.findall(r"^\s+(\d+)\s{2}", EXIT_CODES, re.M)) | set(re.findall(r";\s+(\d+)\s{2}", EXIT_CODES))
    assert in_guide == in_help == {"0", "1", "2", "3", "130", "141"}


def test_a_pin_has_6_digits_at_least(tmp_path):
    secrets = tmp_path / "s.toml"
    short = tablectl("supervisor", "add", "S1", "--secrets", secrets, "--pin-stdin", input="12345\n")
    assert short.returncode == 2 and "6 to 12 digits" in short.stderr and not secrets.exists()
    good = tablectl("supervisor", "add", "S1", "--secrets", secrets, "--pin-stdin", input="123456\n")
    assert good.returncode == 0 and secrets.stat().st_mode & 0o777 == 0o640


def _table_script(tmp_path: Path, *args: str, terminal: bool) -> tuple[int, str, str]:
    """`sh scripts/table` with stdout on a terminal (a pseudo-terminal) or a pipe; (status, stdout, stderr)."""
    env = {**os.environ, "ROUNDS": "2", "TABLECTL_CONFIG": str(own_ports(tmp_path / "table.toml")),
           "TABLECTL_DATA_DIR": str(tmp_path / "data")}
    if not terminal:
        done = subprocess.run(["sh", "scripts/table", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=300, env=env)
        return done.returncode, done.stdout, done.stderr
    master, slave = pty.openpty()
    out: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            out.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    proc = subprocess.Popen(["sh", "scripts/table", *args], cwd=ROOT, stdout=slave, stderr=subprocess.PIPE,
                            env=env)
    os.close(slave)
    _, err = proc.communicate(timeout=300)
    reader.join(30)
    os.close(master)
    return proc.returncode, b"".join(out).decode().replace("\r\n", "\n"), err.decode()


@pytest.mark.slow
def test_the_demo_on_a_terminal_says_where_the_screens_are_and_a_line_a_round(tmp_path):
    status, out, err = _table_script(tmp_path, terminal=True)
    assert status == 0, err
    first = err.splitlines()[0]
    port = re.search(r"^port = (\d+)", (tmp_path / "table.toml").read_text(), re.M).group(1)
    assert first.startswith("== the screens: ") and f"http://127.0.0.1:{port}/" in first
    rounds = [x for x in out.splitlines() if x.startswith("CS-01-00000")]
    assert [x.split()[0] for x in rounds[:2]] == ["CS-01-000001", "CS-01-000002"]
    assert all("caribbean-stud" in x and "players " in x and not x.startswith("{") for x in rounds[:2])


@pytest.mark.slow
@pytest.mark.parametrize("how", ["piped", "--json"])
def test_the_demo_piped_or_with_json_prints_the_settlements_as_json_lines(tmp_path, how):
    status, out, err = _table_script(tmp_path, *(["--json"] if how == "--json" else []),
                                     terminal=how == "--json")
    assert status == 0, err
    assert err.splitlines()[0].startswith("== the screens: http://127.0.0.1:")
    settled = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    assert [s["round"] for s in settled] == ["CS-01-000001", "CS-01-000002"]
    assert all("settlement" in s for s in settled)
