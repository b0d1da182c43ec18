"""A new progressive controller is put into service by two supervisors on the running table's screen (issue 26).

The breaks: a controller that had lost its memory (swapped, wiped, its battery
gone) was taken as a new one and the table played on, and a fault cleared on the
screen did not anchor the journal until the next start (docs/SECURITY.md, "Not
done"). Now the empty controller under a journal that says it was anchored is an
integrity fault, and the clearing that two supervisors sign on the screen writes
the anchor at once, journaled as "anchor-commissioned" with both of them, before
the table plays on.

The installed `tablectl run` on emulated devices, its screens on a port of its
own (tests/security/security_helpers.py LiveTable), reached as the supervisors
reach it; the emulated controller's memory is the data directory's
sim/progressive-nvram.json (controller/runtime/world.py), removed to wipe it.
"""

from __future__ import annotations

import json

from controller.journal.store import Journal
from tests.security.security_helpers import LiveTable, supervisors, tablectl

PINS = {"S1": "135713", "S2": "246824"}


def _clear(live: LiveTable, who: str) -> dict:
    with live.client() as c:
        assert c.post("/api/supervisor/signin", json={"id": who, "pin": PINS[who]}).status_code == 200
        return c.post("/api/supervisor/action",
                      json={"event": {"type": "clear_fault", "reason": "new controller fitted"}}).json()


def test_two_supervisors_put_a_new_controller_into_service_on_the_screen(tmp_path):
    live = LiveTable(tmp_path)
    supervisors(live.secrets, PINS)
    played = tablectl("run", "--config", live.profile, "--data-dir", live.data, "--autoplay", "--rounds", "1",
                      timeout=300)
    assert played.returncode == 0, played.stderr[-2000:]
    memory = live.data / "sim" / "progressive-nvram.json"
    memory.unlink()                                   # the controller swapped for one that holds nothing
    live.start()
    try:
        fault = live.wait_until(lambda s: s["fault"] is not None, "the fault")["fault"]
        assert "the progressive controller holds no anchor; the journal was anchored at entry" in fault["reason"]
        first = _clear(live, "S1")                    # an integrity fault: one supervisor is not enough
        assert first["ok"] and live.state()["fault"] is not None and not memory.exists()
        second = _clear(live, "S2")
        assert second["ok"], second
        live.wait_until(lambda s: s["fault"] is None and s["round"]["state"] == "closed", "the last round shown")
        assert live.panel({"type": "next_round"}).json()["ok"]
        live.wait_until(lambda s: s["round"]["state"] == "open", "the table playing on")
    finally:
        live.stop()
    with Journal.open(live.data, readonly=True) as j:
        entries = list(j.entries_since(0))
        jid = j.journal_id
    cleared = next(e for e in reversed(entries) if e.kind == "fault-cleared")
    (put,) = [e for e in entries if e.kind == "anchor-commissioned"]
    assert {put.payload["by"], put.payload["second"]} == {"S1", "S2"} and put.payload["cleared"] == cleared.seq
    assert [p["code"] for p in put.payload["found"]] == ["anchor-missing"]
    opened = [e.seq for e in entries if e.kind == "round-opened" and e.seq > cleared.seq]
    assert put.seq < min(opened)                      # in service before the table played on
    held = bytes.fromhex(json.loads(memory.read_text())["anchor"])
    assert held[:16].hex() == jid and int.from_bytes(held[16:24], "big") >= put.payload["seq"]
