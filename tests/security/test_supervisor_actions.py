"""Supervisor actions need a supervisor (issue 15, Deliver 4).

Against the installed `tablectl` and one live table (`tablectl run` on emulated
devices, its screens on a port of its own), as an outsider or a supervisor
would reach them:

- `tablectl fault clear` takes each PIN from the terminal or stdin and checks it;
  an integrity fault takes two different supervisors;
- a session ends when its supervisor leaves the secrets file or the PIN changes;
- the sign-in lock-out holds under parallel requests and across a restart;
- no PIN typed into the id field reaches the log;
- a misdeal with cards out waits for a signed-in supervisor.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import httpx
import pytest

from controller.journal.store import Journal
from controller.journal.sealing import Problem
from controller.journal.selfcheck import power_up, raise_fault
from controller.credentials import Supervisor, hash_pin, load_secrets, write_secrets
from controller.ui.auth import MAX_FAILURES

from tests.security.anchor_helpers import STUD, env_for, make_key
from tests.security.edit_helpers import ante_times_ten
from tests.security.security_helpers import HEADERS, TABLECTL, WAIT, LiveTable, supervisors, tablectl
from tests.table.table_helpers import deck_ready

PINS = {"S1": "135713", "S2": "246824", "S3": "357935", "S4": "468046"}


# -- tablectl fault clear --------------------------------------------------------------------

@pytest.fixture
def faulted(tmp_path):
    """A stopped table's data directory with one fault of the given source (its problem as the
    running table raises it: runtime/faults.py), and the secrets file."""
    secrets = tmp_path / "supervisors.toml"
    supervisors(secrets, {"S1": PINS["S1"], "S2": PINS["S2"]})
    data = tmp_path / "data"

    def make(source: str) -> str:
        check = power_up(data)
        raise_fault(data, check.journal, source, [Problem(source, "table", f"a {source} fault (raised by the test)")])
        check.journal.close()
        return str(data)
    return make, secrets


def open_faults(data: str) -> int:
    return tablectl("fault", "status", "--data-dir", data).returncode


def test_fault_clear_without_a_pin_clears_nothing(faulted):
    make, secrets = faulted
    data = make("internal")
    anyone = tablectl("fault", "clear", "--data-dir", data, "--supervisor", "ANY-NAME", input="")
    assert anyone.returncode == 2 and "Traceback" not in anyone.stderr, anyone.stderr
    named = tablectl("fault", "clear", "--data-dir", data, "--secrets", secrets, "--supervisor", "ANY-NAME",
                     input="135713\n")
    assert named.returncode == 2 and "PIN is not right" in named.stderr, named.stderr
    wrong = tablectl("fault", "clear", "--data-dir", data, "--secrets", secrets, "--supervisor", "S1",
                     input="999999\n")
    assert wrong.returncode == 2 and "PIN is not right" in wrong.stderr, wrong.stderr
    assert open_faults(data) == 1                                   # nothing was cleared
    assert tablectl("fault", "clear", "--data-dir", data, "--secrets", secrets, "--pin", "135713").returncode == 2
    one = tablectl("fault", "clear", "--data-dir", data, "--secrets", secrets, "--supervisor", "S1",
                   "--note", "checked", input="135713\n")
    assert one.returncode == 0 and "fault cleared by S1" in one.stdout, one.stderr
    assert open_faults(data) == 0


def test_an_integrity_fault_is_cleared_by_two_different_supervisors(faulted):
    make, secrets = faulted
    data = make("journal")          # as the self-check raises it for a damaged journal
    one = tablectl("fault", "clear", "--data-dir", data, "--secrets", secrets, "--supervisor", "S1", input="135713\n")
    assert one.returncode == 2 and "second supervisor" in one.stderr, one.stderr
    same = tablectl("fault", "clear", "--data-dir", data, "--secrets", secrets, "--supervisor", "S1",
                    "--second-supervisor", "S1", input="135713\n135713\n")
    assert same.returncode == 2 and "two different supervisors" in same.stderr, same.stderr
    assert open_faults(data) == 1
    # from a pipe: each id, then its PIN, a line each
    two = tablectl("fault", "clear", "--data-dir", data, "--secrets", secrets, input="S1\n135713\nS2\n246824\n")
    assert two.returncode == 0 and "fault cleared by S1 and S2" in two.stdout, two.stderr
    assert open_faults(data) == 0
    with Journal.open(data, readonly=True) as j:
        cleared = j.latest("fault-cleared").payload
    assert (cleared["by"], cleared["second"]) == ("S1", "S2")


# -- tablectl fault clear against an edited keyed journal (issue 26) ---------------------------
#
# The break: an ante of a stopped, keyed table's journal multiplied by ten, then `fault clear
# --supervisor S1` before any start: exit 0, "fault cleared", nothing named; the command counted
# the signatures it needed from faults already journaled (none yet) and accepted every problem.


def keyed_tablectl(env: dict, *args, input: str = "") -> subprocess.CompletedProcess:
    """The installed command with the journal key in its environment (as the service has it)."""
    return subprocess.run([str(TABLECTL), *map(str, args)], input=input, capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.fixture(scope="module")
def keyed_played(tmp_path_factory):
    """A keyed Caribbean stud table that played a round, stopped; its controller holds no anchor
    (the emulator's memory is not kept), so nothing off the box would notice an edit."""
    root = tmp_path_factory.mktemp("keyed")
    key = make_key(root / "keys")
    env = env_for(key)
    ran = keyed_tablectl(env, "run", "--config", STUD, "--data-dir", root / "data", "--autoplay", "--seed", "3",
                         "--rounds", "1")
    assert ran.returncode == 0, ran.stderr[-2000:]
    return root


@pytest.fixture
def edited(keyed_played, tmp_path):
    """edit(rechain) -> (data directory, environment, entry edited) of this test's own copy."""
    shutil.copytree(keyed_played / "data", tmp_path / "data")
    shutil.copytree(keyed_played / "keys", tmp_path / "keys")
    secrets = tmp_path / "supervisors.toml"
    supervisors(secrets, PINS)

    def edit(rechain: str) -> tuple[Path, dict, int, Path]:
        seq = ante_times_ten(tmp_path / "data", rechain)
        return tmp_path / "data", env_for(tmp_path / "keys" / "journal.key"), seq, secrets
    return edit


def test_an_edited_ante_is_accepted_only_by_two_supervisors_who_see_it(edited):
    data, env, seq, secrets = edited("no")
    one = keyed_tablectl(env, "fault", "clear", "--data-dir", data, "--secrets", secrets, "--supervisor", "S1",
                         input=f"{PINS['S1']}\n")
    assert one.returncode == 2, one.stdout + one.stderr
    assert "fault cleared" not in one.stdout and "two different supervisors" in one.stderr, one.stderr
    listed = one.stdout.splitlines()
    assert listed[0] == "to accept, worst first:", one.stdout
    # worst first: the edited entry before the file's bytes and the schema (the guard trigger dropped)
    assert listed[1] == f"  entry {seq}: its contents do not match its hash", one.stdout
    named = [line.strip().split(": ", 1)[0].split(", ") for line in listed[2::2]]   # code, who may accept it
    codes = [code for code, _ in named]
    assert codes.index("chain-hash") < codes.index("seal-mismatch") < codes.index("schema"), codes
    assert {who for _, who in named} == {"two supervisors"}, one.stdout
    two = keyed_tablectl(env, "fault", "clear", "--data-dir", data, "--secrets", secrets, "--note", "incident 7",
                         input=f"S1\n{PINS['S1']}\nS2\n{PINS['S2']}\n")
    assert two.returncode == 0 and "fault cleared by S1 and S2" in two.stdout, two.stdout + two.stderr
    assert two.stdout.splitlines()[1] == listed[1]                    # what they saw is what they accepted
    with Journal.open(data, readonly=True) as j:
        cleared = j.latest("fault-cleared").payload
    assert (cleared["by"], cleared["second"], cleared["supervisors"]) == ("S1", "S2", 2)
    assert (cleared["accepted"][0]["code"], cleared["accepted"][0]["where"]) == ("chain-hash", f"entry {seq}")
    verify = keyed_tablectl(env, "journal", "verify", "--data-dir", data)
    assert f"acknowledged: entry {seq}: its contents do not match its hash (cleared by S1 and S2" in verify.stdout


@pytest.mark.parametrize("rechain", ["keep", "strip"])
def test_an_edited_ante_the_key_did_not_write_is_refused_whatever_is_signed(edited, rechain):
    data, env, seq, secrets = edited(rechain)
    refused = keyed_tablectl(env, "fault", "clear", "--data-dir", data, "--secrets", secrets,
                             input=f"S1\n{PINS['S1']}\nS2\n{PINS['S2']}\n")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "fault cleared" not in refused.stdout
    worst = "entry-forged" if rechain == "keep" else "entry-unauthenticated"
    assert refused.stdout.splitlines()[2].startswith(f"      {worst}, nobody may accept it: "), refused.stdout
    said = refused.stderr.strip().splitlines()
    assert len(said) == 1 and "restore an authentic copy of the journal" in said[0], refused.stderr
    with Journal.open(data, readonly=True) as j:
        assert j.latest("fault-cleared") is None
    # the table stays out of play (an autoplayed table that faults prints it and exits 3)
    run = keyed_tablectl(env, "run", "--config", STUD, "--data-dir", data, "--autoplay", "--seed", "3",
                         "--rounds", "1")
    assert run.returncode == 3 and '{"fault"' in run.stdout, (run.returncode, run.stdout[-600:])
    again = keyed_tablectl(env, "fault", "clear", "--data-dir", data, "--secrets", secrets,
                           input=f"S1\n{PINS['S1']}\nS2\n{PINS['S2']}\n")
    assert again.returncode == 2 and "restore an authentic copy" in again.stderr
    verify = keyed_tablectl(env, "journal", "verify", "--data-dir", data)
    assert verify.returncode == 1 and "acknowledged" not in verify.stdout, verify.stdout


# -- the live table --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def table(tmp_path_factory):
    live = LiveTable(tmp_path_factory.mktemp("security-table"))
    supervisors(live.secrets, PINS)
    live.start()
    yield live
    live.stop()


def sign_in(client: httpx.Client, who: str, pin: str) -> httpx.Response:
    return client.post("/api/supervisor/signin", json={"id": who, "pin": pin})


def test_a_removed_supervisor_or_a_changed_pin_ends_the_session(table):
    with table.client() as removed, table.client() as changed, table.client() as stays:
        for client, who in ((removed, "S1"), (changed, "S2"), (stays, "S3")):
            assert sign_in(client, who, PINS[who]).status_code == 200
            assert client.get("/api/supervisor/me").status_code == 200
        kept = load_secrets(table.secrets)                            # as `tablectl supervisor add` rewrites it
        del kept["S1"]                                                # S1 out
        kept["S2"] = Supervisor("S2", "Supervisor S2", hash_pin("864286"))   # S2 a new PIN
        write_secrets(table.secrets, kept)
        assert removed.get("/api/supervisor/me").status_code == 401
        refused = removed.post("/api/supervisor/action", json={"event": {"type": "void_round", "reason": "x"}})
        assert refused.status_code == 401
        assert changed.get("/api/supervisor/me").status_code == 401
        assert stays.get("/api/supervisor/me").status_code == 200      # the others stay signed in
        assert sign_in(removed, "S1", PINS["S1"]).status_code == 401
    supervisors(table.secrets, PINS)


def test_a_pin_typed_into_the_id_field_is_not_logged(table):
    typed = "97531864"                                             # a PIN in the id field
    with table.client() as c:
        assert sign_in(c, typed, "111111").status_code == 401
    line = table.wait_for_log(lambda x: x.get("event") == "supervisor_sign_in_failed", "the failed sign-in")
    assert line.get("known_id") is False
    assert typed not in table.log_path.read_text()


async def burst(url: str, who: str, first: list[str], right: str, then: list[str]) -> list[int]:
    """Wrong PINs, the right one among them, all at once; the status of each."""
    async with httpx.AsyncClient(base_url=url, headers=HEADERS, timeout=WAIT) as c:
        sent = [c.post("/api/supervisor/signin", json={"id": who, "pin": pin}) for pin in [*first, right, *then]]
        return [r.status_code for r in await asyncio.gather(*sent)]


def test_parallel_sign_ins_do_not_pass_the_lock_out_and_a_restart_keeps_it(table):
    who = "S4"
    with table.client() as c:
        for n in range(MAX_FAILURES - 1):                          # one try left
            assert sign_in(c, who, f"000{n}").status_code == 401
    before = len(table.log_lines())
    wrong = [f"11{n:02d}" for n in range(8)]
    codes = Counter(asyncio.run(burst(table.url, who, wrong[:2], PINS[who], wrong[2:])))
    # Taken one at a time: either a wrong PIN came first and locked the id (nothing signs in), or the
    # right one came first, signed in and reset the count, and five of the wrong ones locked it again.
    assert codes in (Counter({423: 9}), Counter({200: 1, 401: MAX_FAILURES - 1, 423: 9 - MAX_FAILURES})), codes
    table.wait_for_log(lambda x: x.get("event") == "supervisor_sign_in_locked" and x.get("supervisor") == who,
                       "the id locked")
    said = [x["event"] for x in table.log_lines()[before:] if x.get("supervisor") == who
            and x.get("event") in ("supervisor_signed_in", "supervisor_sign_in_locked")]
    assert said[0] == "supervisor_sign_in_locked" or said[:2] == ["supervisor_signed_in", "supervisor_sign_in_locked"]
    assert said.count("supervisor_signed_in") <= 1 and said[-1] == "supervisor_sign_in_locked", said
    with table.client() as c:
        assert sign_in(c, who, PINS[who]).status_code == 423         # locked, even with the right PIN
    table.stop()
    table.start()
    with table.client() as c:
        again = sign_in(c, who, PINS[who])
        assert again.status_code == 423, again.text                  # the restart did not unlock it
        assert sign_in(c, "S3", PINS["S3"]).status_code == 200       # another supervisor still signs in


def test_a_misdeal_with_cards_out_waits_for_a_supervisor(table):
    table.wait_until(lambda s: s["round"]["state"] == "open" and deck_ready(s),
                     "a round open with a counted deck in the shoe")
    for seat in (1, 2):
        assert table.panel({"type": "ante", "seat": seat, "amount": 500}).status_code == 200
    assert table.panel({"type": "no_more_bets"}).status_code == 200
    assert table.panel({"type": "deal"}).status_code == 200
    s = table.wait_until(lambda s: s["round"]["state"] == "decisions", "the cards out")
    round_id = s["round"]["id"]
    # the dealer's own void is refused outright, and a misdeal only asks
    assert table.panel({"type": "void_round", "reason": "misdeal"}).status_code == 403
    asked = table.panel({"type": "dealer_misdeal", "reason": "a card flashed"})
    assert asked.status_code == 200, asked.text
    s = table.state()
    assert s["round"]["id"] == round_id and s["round"]["state"] == "decisions"
    shown = [a for a in s["alarms"] if a["kind"] == "void_pending"]
    assert shown and "void awaits supervisor" in shown[0]["message"]
    # no supervisor signed in: no void
    with table.client() as nobody:
        assert nobody.post("/api/supervisor/action",
                           json={"event": {"type": "void_round", "reason": "a card flashed"}}).status_code == 401
    assert table.state()["round"]["state"] == "decisions"
    with table.client() as sup:
        assert sign_in(sup, "S3", PINS["S3"]).status_code == 200
        done = sup.post("/api/supervisor/action", json={"event": {"type": "void_round", "reason": "a card flashed"}})
        assert done.status_code == 200, done.text
    s = table.wait_until(lambda s: s["round"]["id"] == round_id and s["round"]["state"] == "void", "the round void")
    assert not [a for a in s["alarms"] if a["kind"] == "void_pending"]
