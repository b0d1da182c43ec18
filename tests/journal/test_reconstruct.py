"""`tablectl rounds list|show`, `tablectl journal verify`, `tablectl meters`, and where the data lives."""

from __future__ import annotations

from pathlib import Path

from controller import paths
from controller.cli import main
from controller.journal.store import Journal
from tests.journal.journal_helpers import Clock, flip, play_round


def journal_with_rounds(d: Path) -> None:
    meter = [2_500_000]
    with Journal.open(d, clock=Clock()) as j:
        for n in range(3):
            play_round(j, n, meter=meter)
        play_round(j, 3, finish=False)
        j.append("round-voided", {"reason": "dealer dealt four cards, 5324.37(h)"}, round_id="R000003")
        j.append("round-record", {"phh": "variant = 'NT'\nactions = ['d dh p1 AsKs']\n"}, round_id="P000001")


def test_rounds_list(tmp_path, capsys):
    d = tmp_path / "s"
    journal_with_rounds(d)
    assert main(["rounds", "list", "--data-dir", str(d)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ROUND", "OPENED", "(UTC)", "ENTRIES", "STATUS"]
    assert [line.split()[0] for line in lines[1:]] == ["R000000", "R000001", "R000002", "R000003", "P000001"]
    assert lines[1].split()[1:] == ["2026-05-09T12:00:00.002000Z", "11", "recorded", "(caribbean-stud)"]
    assert lines[4].split()[-1] == "voided"
    assert lines[5].split()[-2:] == ["recorded", "phh"]


def test_rounds_show_every_event_in_order_then_the_record(tmp_path, capsys):
    d = tmp_path / "s"
    journal_with_rounds(d)
    assert main(["rounds", "show", "R000001", "--data-dir", str(d)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("round R000001: 11 entries")
    kinds = [line.split()[2] for line in out[1:11]]
    assert kinds == ["round-opened", "wager", "wager", "wager", "lockout",
                     "stack", "stack", "stack", "stack", "meter"]
    assert '{"ante":500,"progressive":true,"seat":1}' in out[2]
    assert any(line.startswith("round record (entry ") for line in out)
    assert main(["rounds", "show", "P000001", "--data-dir", str(d)]) == 0
    assert "variant = 'NT'" in capsys.readouterr().out


def test_rounds_show_unknown_round(tmp_path, capsys):
    d = tmp_path / "s"
    journal_with_rounds(d)
    assert main(["rounds", "show", "R999", "--data-dir", str(d)]) == 1
    assert "no round R999" in capsys.readouterr().err


def test_meters_from_the_latest_snapshot_and_the_entries_since(tmp_path, capsys):
    d = tmp_path / "s"
    journal_with_rounds(d)
    assert main(["meters", "--data-dir", str(d)]) == 0
    assert capsys.readouterr().out.split()[:2] == ["progressive", "$25,002.10"]
    with Journal.open(d, clock=Clock()) as j:
        j.append("meter", {"meter": "progressive", "before": 2_500_210, "after": 1_000_000, "reason": "award"},
                 round_id="R000004")
    assert main(["meters", "--data-dir", str(d)]) == 0
    assert capsys.readouterr().out.split()[:2] == ["progressive", "$10,000.00"]


def test_journal_verify_exit_status(tmp_path, capsys):
    d = tmp_path / "s"
    journal_with_rounds(d)
    assert main(["journal", "verify", "--data-dir", str(d)]) == 0
    out = capsys.readouterr().out
    assert "entries: 48;" in out and "chain, seal and file verified" in out
    flip(d / "journal.db", 5000)
    assert main(["journal", "verify", "--data-dir", str(d)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM: journal.db bytes 0-" in out and ": differs from the seal" in out


def test_commands_without_a_journal(tmp_path, capsys):
    assert main(["journal", "verify", "--data-dir", str(tmp_path / "none")]) == 2
    assert "holds no journal" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()   # reading never creates


def test_data_dir_defaults():
    assert paths.default_data_dir({"STATE_DIRECTORY": "/var/lib/tablectl:/var/lib/other",
                                   "XDG_STATE_HOME": "/x"}) == Path("/var/lib/tablectl")
    assert paths.default_data_dir({"XDG_STATE_HOME": "/home/d/.state", "HOME": "/home/d"}) == \
        Path("/home/d/.state/tablectl")
    assert paths.default_data_dir({"XDG_STATE_HOME": "relative", "HOME": "/home/d"}) == \
        Path("/home/d/.local/state/tablectl")
    assert paths.default_data_dir({"HOME": "/home/d"}) == Path("/home/d/.local/state/tablectl")


def test_data_dir_is_made_private(tmp_path):
    d = paths.data_dir(tmp_path / "a" / "b")
    assert d.is_dir() and (d.stat().st_mode & 0o777) == 0o700
