"""The floor view's rows (controller/floor/view.py) and a table's status (controller/floor/status.py),
as pure functions: what a fresh and a stale status show, and what a status may carry."""

from __future__ import annotations

from controller.floor.status import MAX_LISTED, MAX_TEXT, status_of
from controller.floor.view import STALE_SECONDS, open_faults, row

REPORT = {"table": "CW-01", "game": "casino-war", "rounds": 3, "handle": 4500, "house_win": 500,
          "hold_bp": 1111, "pit": None, "par": None,
          "events": [{"kind": "fault", "detail": "first"}, {"kind": "fault-cleared", "detail": "ok"},
                     {"kind": "fault", "detail": "the journal does not read"}]}


def test_the_facts_leave_open_only_the_faults_after_the_last_clearing():
    assert open_faults(REPORT["events"]) == ["the journal does not read"]
    assert open_faults(REPORT["events"] + [{"kind": "fault-cleared"}]) == []


def test_a_fresh_status_says_the_fault_and_a_stale_one_leaves_it_to_the_facts():
    fresh = row(REPORT, {"state": "open", "fault": None, "alarms": [], "validations": []}, 1.0)
    assert fresh["faults"] == [] and not fresh["stale"]   # the table, reporting, is out of the fault
    stale = row(REPORT, {"state": "open", "fault": None}, STALE_SECONDS + 1)
    assert stale["stale"] and stale["faults"] == ["the journal does not read"]
    never = row(REPORT, None, None)
    assert never["stale"] and never["status"] is None and never["faults"] == ["the journal does not read"]
    assert (fresh["rounds"], fresh["handle"], fresh["house_win"]) == (3, 4500, 500)


def test_a_status_is_bounded_and_says_no_more_than_the_view():
    view = {"round": {"id": "CS-01-000007", "state": "validation"}, "dealer_on_duty": "D-1", "dealer_name": "Ann",
            "meter": {"amount": 1_000_050}, "fault": None, "test_mode": True,
            "validations": [{"seat": s, "hand": "royal-flush", "award": 100, "cards": ["Ah"]} for s in range(40)],
            "alarms": [{"kind": "shoe", "message": "x" * 1000}, {"kind": "fault", "message": "said as the fault"}]}
    s = status_of(view)
    assert (s["state"], s["round"], s["dealer"], s["meter"]) == ("validation", "CS-01-000007", "D-1", 1_000_050)
    assert len(s["validations"]) == MAX_LISTED and set(s["validations"][0]) == {"seat", "hand", "award"}
    assert s["alarms"] == [("shoe: " + "x" * 1000)[:MAX_TEXT]] and s["test_mode"] and s["par"] is None
    assert status_of({"round": None, "meter": {"amount": 1.5}})["meter"] is None   # cents are whole, or nothing


def test_the_floor_view_without_its_supervisors_file_does_not_start(tmp_path):
    """Nobody could sign in: the installed command refuses on one line, exit 2, before it binds."""
    import subprocess

    from tests.report.report_helpers import TABLECTL
    done = subprocess.run([TABLECTL, "floor", "serve", "--url", "postgresql://reader@127.0.0.1/floor",
                           "--secrets", str(tmp_path / "none.toml"), "--state-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("tablectl floor serve: --secrets") and done.stderr.count("\n") == 1


def test_the_par_a_table_sends_is_read_back_exactly_and_its_flag_reaches_the_row():
    """The floor holds a table against the exact par its paytable gives (sent as fractions, read back
    as the same fractions), and a result beyond the band is flagged on the pit's row."""
    from fractions import Fraction

    from controller.par.hold import HoldTally, Unit, units_json, units_read
    units = {"ante": Unit(Fraction(522, 10_000), Fraction(38_753, 10_000), ("ante", "bet"))}
    assert units_read(units_json(units)) == units
    held = HoldTally(units_read(units_json(units)))
    for _ in range(50):   # fifty $10 antes the players won at 3 to 1: far beyond three standard deviations
        held.take({"risked": {"ante": [1000, 1000 * 1000]},
                   "wagers": {"ante": {"handle": 1000, "house_win": -3000}, "bet": {"handle": 2000, "house_win": -6000}}})
    par = held.block()
    flagged = row({**REPORT, "par": par}, {"state": "open"}, 1.0)
    assert flagged["beyond_band"] and flagged["theoretical_win"] == par["theoretical_win"]
    assert not row(REPORT, {"state": "open"}, 1.0)["beyond_band"]

