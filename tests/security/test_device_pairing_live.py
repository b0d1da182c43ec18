"""Device links paired by a supervised step (5319.60(a)), and the doors and batteries the devices report
(5317.26), at a live table: the installed `tablectl run` with a real pseudo-terminal shoe (its emulator
in this process, as a device on a cable) and its other devices emulated; `tablectl device pair`,
`tablectl events` and `tablectl sim --table` through the installed command.

A shoe under a key that is not the table's is refused as unpaired and its alarm raised; a supervisor
pairs the shoe (the table stopped), the shoe is given the new key, and the table plays with it. The
pairing is journaled with who and the key's fingerprint, never the key; the key is kept beside the
journal key, readable by its owner alone, and never logged.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess

import pytest

from controller.cards import CARDS
from controller.pairing import fingerprint, read_key
from drivers.pairing import new_key
from drivers.sim.shoe import ShoeEmulator
from tests.security.security_helpers import TABLECTL, WAIT, LiveTable, supervisors

pytestmark = pytest.mark.slow   # the installed table started three times, about a minute
SUPERVISOR, PIN = "S7", "731904"


def tablectl(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(TABLECTL), *args], input=stdin, capture_output=True, text=True, timeout=WAIT)


def events(table: LiveTable, kind: str) -> list[dict]:
    done = tablectl("events", "--json", "--data-dir", str(table.data), "--kind", kind)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["events"]


def shoe_of(state: dict) -> dict:
    return next(d for d in state["devices"] if d["name"] == "shoe")


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pairing")
    keys = tmp / "keys"
    keys.mkdir(mode=0o700)
    journal_key = keys / "journal.key"
    journal_key.write_text(os.urandom(32).hex() + "\n")
    journal_key.chmod(0o400)
    saved = os.environ.get("TABLECTL_JOURNAL_KEY")
    os.environ["TABLECTL_JOURNAL_KEY"] = str(journal_key)   # the table's, the pairing's and the readers'
    shoe = ShoeEmulator(list(CARDS), key=new_key())   # a shoe paired with some other table
    shoe.start()
    table = LiveTable(tmp)
    table.profile.write_text(table.profile.read_text().replace("[devices]\n", f'[devices]\nshoe = "{shoe.port}"\n', 1))
    supervisors(table.secrets, {SUPERVISOR: PIN})
    try:
        yield table, shoe, keys
    finally:
        table.stop()
        shoe.stop()
        if saved is None:
            os.environ.pop("TABLECTL_JOURNAL_KEY", None)
        else:
            os.environ["TABLECTL_JOURNAL_KEY"] = saved


def test_a_shoe_under_another_key_is_refused_then_paired_by_a_supervisor_and_plays(rig):
    table, shoe, keys = rig
    table.start()
    s = table.wait_until(lambda s: shoe_of(s)["status"] == "unpaired", "the shoe refused as unpaired")
    assert "not paired with this table" in shoe_of(s)["advice"] and "tablectl device pair shoe" in shoe_of(s)["advice"]
    assert [a for a in s["alarms"] if a.get("condition") == "unpaired_shoe"], s["alarms"]
    assert shoe.dispensed == 0   # nothing it was sent was carried out
    table.stop()
    lost = [e for e in events(table, "device-lost") if e["source"] == "shoe"]
    assert lost and lost[-1]["detail"].startswith("unpaired:")

    # a wrong PIN pairs nothing
    refused = tablectl("device", "pair", "shoe", "--config", str(table.profile), "--data-dir", str(table.data),
                       stdin=f"{SUPERVISOR}\n000000\n")
    assert refused.returncode == 2 and "nothing was changed" in refused.stderr
    assert not (keys / "device-shoe.key").exists() and events(table, "device-paired")[-1]["device"] != "shoe"

    done = tablectl("device", "pair", "shoe", "--config", str(table.profile), "--data-dir", str(table.data),
                    stdin=f"{SUPERVISOR}\n{PIN}\n")
    assert done.returncode == 0, done.stderr
    path = keys / "device-shoe.key"   # beside the journal key, its owner's alone
    assert stat.S_IMODE(path.stat().st_mode) == 0o400
    key = read_key(path)
    assert key is not None and key.hex() not in done.stdout + done.stderr
    paired = [e for e in events(table, "device-paired") if e["device"] == "shoe"]
    assert paired[-1]["who"] == SUPERVISOR and paired[-1]["fingerprint"] == fingerprint(key)
    assert key.hex() not in json.dumps(paired)

    shoe.pair(key)   # the shoe given its new key (its vendor's pairing mode)
    table.start()
    table.wait_until(lambda s: shoe_of(s)["status"] == "connected", "the paired shoe connected")
    shoe.load(list(CARDS))
    s = table.wait_until(lambda s: (s.get("deck") or {}).get("loaded") and s["round"]["state"] == "open"
                         and not [a for a in s["alarms"] if a.get("condition") == "unpaired_shoe"],
                         "the paired shoe's load taken, its alarm over")
    for seat in (1, 2):
        assert table.panel({"type": "ante", "seat": seat, "amount": 500}).status_code == 200
    assert table.panel({"type": "no_more_bets"}).status_code == 200
    assert table.panel({"type": "deal"}).status_code == 200
    table.wait_until(lambda s: s["round"]["state"] == "decisions", "the cards dealt from the paired shoe")
    assert shoe.dispensed >= 15   # three stacks of five: two players and the dealer
    assert key.hex() not in table.log_path.read_text(errors="replace")


def test_doors_and_batteries_are_journaled_with_their_device(rig):
    table, shoe, _ = rig
    if table.proc is None:
        pytest.fail("the table of the first test is not running")
    console = [str(TABLECTL), "sim", "progressive", "--table", str(table.data)]
    done = subprocess.run(console, input="door open\nbattery low\ndoor close\n", capture_output=True, text=True,
                          timeout=WAIT)
    assert done.returncode == 0 and "door open" in done.stdout, done.stderr
    shoe.set_condition(door_open=True)   # the shoe's STATUS says so at the table's next heartbeat
    table.wait_until(lambda s: [a for a in s["alarms"] if a.get("condition") == "door_open_shoe"],
                     "the shoe's door alarm")
    shoe.set_condition(door_open=False)
    table.wait_until(lambda s: not [a for a in s["alarms"] if a.get("condition") == "door_open_shoe"],
                     "the shoe's door closed")
    s = table.wait_until(lambda s: [a for a in s["alarms"] if a.get("condition") == "battery_low_progressive"],
                         "the controller's battery alarm")
    assert not [a for a in s["alarms"] if a.get("condition") == "door_open_progressive"]   # opened, then closed
    table.stop()
    opened = [(e["source"], e["detail"]) for e in events(table, "door-open")]
    closed = [e["source"] for e in events(table, "door-closed")]
    assert ("progressive", "the progressive controller's door opened") in opened
    assert ("shoe", "the dealing shoe's door opened") in opened
    assert closed.count("progressive") == 1 and closed.count("shoe") == 1
    low = events(table, "battery-low")
    assert [e["source"] for e in low] == ["progressive"] and "low" in low[0]["detail"]
