"""A pending change of the progressive's parameters applied at once by two supervisors (issue 29 item 3),
the meter's value carried over: at a live table (controller/table.py on emulated devices, its journal on
disk) through the supervisor's event, and with the table stopped through the installed
`tablectl meters apply-pending` (PINs on stdin). Either is journaled (`meter-pending`), read back by
`tablectl meters --json`, replayed at the next start, and the journal's ledger still balances."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from controller.config import load_profile
from controller.credentials import Supervisor, hash_pin, write_secrets
from controller.journal.store import Journal
from tests.table.table_helpers import running, until

TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")
RESET = 1_000_000


def profile_file(tmp: Path, rate: int, secrets: Path, limit: int | None = None, initial: int = RESET + 4321) -> Path:
    path = tmp / f"profile-{rate}-{limit}.toml"
    path.write_text(f"""game = "caribbean-stud"

[table]
id = "CS-29A"
name = "Caribbean Stud (issue 29, a change applied at once)"
minimum_wager = 500
maximum_wager = 50000

[caribbean_stud]
dealing = "automated"

[caribbean_stud.progressive]
wager = 100
initial = {initial}
reset = {RESET}
contribution_bp = {rate}
{f"limit = {limit}" if limit is not None else ""}

[screen]
secrets = "{secrets}"

[logging]
level = "warning"
format = "json"
""")
    return path


def tablectl(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([TABLECTL, *args], input=stdin, capture_output=True, text=True, timeout=120)


def meters(data: Path) -> dict:
    done = tablectl("meters", "--json", "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    (m,) = json.loads(done.stdout)["meters"]
    return m


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


async def opened_then_voided(table) -> None:
    """The table's round open (the next one asked for when the table started between rounds), voided by
    a supervisor before any wager: between rounds."""
    await until(lambda: table.published()["round"]["state"] in ("open", "closed", "void"),
                f"the table started: {table.published()['round']}", 60)
    if table.published()["round"]["state"] != "open":
        assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]
    await until(lambda: table.published()["round"]["state"] == "open", f"the round open: {table.published()['round']}", 60)
    assert (await table.submit({"type": "void_round", "reason": "closing to change the meter"},
                               source="supervisor", who="S-9"))["ok"]
    await until(lambda: table.published()["round"]["state"] in ("closed", "void"), "the round voided")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("apply29")
    secrets = tmp / "secrets.toml"
    write_secrets(secrets, {"S-9": Supervisor("S-9", "Ann Lee", hash_pin("135790")),
                            "S-7": Supervisor("S-7", "Bob Roy", hash_pin("246802"))})
    return tmp, secrets


def started_with_a_changed_rate(tmp: Path, secrets: Path, data: Path) -> None:
    async def first():
        async with running(load_profile(profile_file(tmp, 7000, secrets)), data) as table:
            await opened_then_voided(table)
    run(first())


def test_two_supervisors_apply_a_pending_rate_at_once_at_a_live_table(tables):
    tmp, secrets = tables
    data = tmp / "live"
    started_with_a_changed_rate(tmp, secrets, data)
    seen: dict = {}

    async def second():
        async with running(load_profile(profile_file(tmp, 8000, secrets)), data) as table:
            await opened_then_voided(table)
            assert "apply_pending" in table.published()["round"]["allowed"]
            first = await table.submit({"type": "apply_pending"}, source="supervisor", who="S-9")
            assert first["ok"], first
            again = await table.submit({"type": "apply_pending"}, source="supervisor", who="S-9")
            assert again["ok"], again   # the same supervisor twice: still the first signature
            seen["asked"] = meters(data)
            done = await table.submit({"type": "apply_pending"}, source="supervisor", who="S-7")
            assert done["ok"], done
            seen["applied"] = meters(data)
            refused = await table.submit({"type": "apply_pending"}, source="supervisor", who="S-7")
            assert not refused["ok"]   # nothing pending any more
            voided = table.published()["round"]["id"]
            assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["id"] != voided,
                        f"the next round open: {table.published()['round']}", 60)

    run(second())
    asked, applied = seen["asked"], seen["applied"]
    assert asked["rate_bp"] == 7000 and asked["pending_change"]["approved_by"] == "S-9"
    assert applied["rate_bp"] == 8000 and applied["pending_change"] is None
    assert (applied["current"], applied["overflow"]) == (asked["current"], asked["overflow"]) == (RESET + 4321, 0)
    with Journal.open(data, readonly=True) as j:
        said = [e.payload for e in j.entries_since(0) if e.kind == "meter-pending"]
        opened = [e.payload for e in j.entries_since(0) if e.kind == "round-opened"]
    done = said[-1]
    assert (done["by"], done["second_signer"]) == ("S-9", "S-7") and "carried over" in done["applied"]
    assert done["before"]["contribution_bp"] == 7000 and done["after"]["contribution_bp"] == 8000
    assert opened[-1]["rules"]["progressive"]["contribution_bp"] == 8000
    assert opened[-1]["meter"]["amount"] == RESET + 4321 and "pending" not in opened[-1]["meter"]
    verify = tablectl("journal", "verify", "--data-dir", str(data))
    assert verify.returncode == 0 and "ledger balances" in verify.stdout, verify.stdout


def test_the_installed_command_applies_it_with_two_pins_the_table_stopped(tables):
    tmp, secrets = tables
    data = tmp / "stopped"
    started_with_a_changed_rate(tmp, secrets, data)

    async def noted():   # the changed profile's start notes the change as pending; the round voided
        async with running(load_profile(profile_file(tmp, 8000, secrets)), data) as table:
            await opened_then_voided(table)
    run(noted())
    assert meters(data)["pending_change"]["contribution_bp"] == 8000
    profile = str(profile_file(tmp, 8000, secrets))
    same = tablectl("meters", "apply-pending", "--config", profile, "--data-dir", str(data),
                    stdin="S-9\n135790\nS-9\n135790\n")
    assert same.returncode == 2 and meters(data)["rate_bp"] == 7000, same.stderr
    wrong = tablectl("meters", "apply-pending", "--config", profile, "--data-dir", str(data),
                     stdin="S-9\n135790\nS-7\n000000\n")
    assert wrong.returncode == 2 and meters(data)["rate_bp"] == 7000, wrong.stderr
    done = tablectl("meters", "apply-pending", "--config", profile, "--data-dir", str(data),
                    stdin="S-9\n135790\nS-7\n246802\n")
    assert done.returncode == 0 and "signed by S-9 and S-7" in done.stdout, done.stderr + done.stdout
    now = meters(data)
    assert now["rate_bp"] == 8000 and now["pending_change"] is None and now["current"] == RESET + 4321
    nothing = tablectl("meters", "apply-pending", "--config", profile, "--data-dir", str(data),
                       stdin="S-9\n135790\nS-7\n246802\n")
    assert nothing.returncode == 1 and "no change" in nothing.stderr

    async def replayed():   # the next start replays both signatures: the new rate, nothing pending
        async with running(load_profile(profile_file(tmp, 8000, secrets)), data) as table:
            await until(lambda: table.published()["round"]["state"] in ("closed", "void"),
                        f"the table rebuilt between rounds: {table.published()['round']}", 60)
            assert table.fault is None
            assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["state"] == "open", "the round open", 60)
    run(replayed())
    with Journal.open(data, readonly=True) as j:
        opened = [e.payload for e in j.entries_since(0) if e.kind == "round-opened"]
    assert opened[-1]["rules"]["progressive"]["contribution_bp"] == 8000
    assert opened[-1]["meter"]["amount"] == RESET + 4321
    verify = tablectl("journal", "verify", "--data-dir", str(data))
    assert verify.returncode == 0 and "ledger balances" in verify.stdout, verify.stdout


def test_a_limit_below_the_standing_meter_is_not_applied_at_once(tables):
    """Carried over, the meter would stand above its own new limit: two supervisors cannot apply it at once
    (the refusal says why and changes nothing); it stays pending for the meter's next reset (NZ 1.28)."""
    tmp, secrets = tables
    data = tmp / "limit"
    started_with_a_changed_rate(tmp, secrets, data)   # the meter stands at RESET + 4321
    limit = RESET + 1000
    seen: dict = {}

    async def lower():
        async with running(load_profile(profile_file(tmp, 7000, secrets, limit=limit, initial=RESET)), data) as table:
            await opened_then_voided(table)
            seen["first"] = await table.submit({"type": "apply_pending"}, source="supervisor", who="S-9")
            seen["second"] = await table.submit({"type": "apply_pending"}, source="supervisor", who="S-7")
            seen["meters"] = meters(data)
    run(lower())
    for said in (seen["first"], seen["second"]):
        assert not said["ok"] and "cannot be carried over" in said["error"] and "next reset" in said["error"]
    m = seen["meters"]
    assert m["current"] == RESET + 4321 and m["limit"] is None and m["pending_change"]["limit"] == limit
    assert "approved_by" not in m["pending_change"]   # nobody's signature stands for a change that cannot apply
    with Journal.open(data, readonly=True) as j:
        refused = [e.payload for e in j.entries_since(0) if e.kind == "refused"
                   and (e.payload.get("event") or {}).get("type") == "apply_pending"]
    assert len(refused) == 2
