"""The running table in this process, on its emulated devices through the real drivers."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller.journal.store import Journal
from controller.runtime.world import World
from drivers.progressive import protocol as pp
from tests.software_hashes import seed_software_hashes
from tests.table.table_helpers import STUD, running, stacked_deck, stud_profile, until, war_profile


def run(coro, timeout: float = 60):
    async def main():
        return await asyncio.wait_for(coro, timeout)
    return asyncio.run(main())


def seat(view: dict, n: int) -> dict:
    return next(s for s in view["seats"] if s["seat"] == n)


def journal_events(data_dir, kind: str = "event") -> list:
    with Journal.open(data_dir, readonly=True) as j:
        return [e for e in j.entries_since(0) if e.kind == kind]


async def ready_to_deal(table) -> None:
    await until(lambda: (table.published().get("deck") or {}).get("count") is not None
                and table.published()["deck"]["loaded"], "the deck counted and loaded")


def test_events_are_journaled_before_the_lights_change(tmp_path):
    """A lock-out is on disk before the indicator changes; a recognized wager before its light."""
    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            seen = []
            set_outputs = table.devices.set_outputs

            async def spy(lights, lockout, meter, flash):
                seen.append((table.journal.head_seq, dict(lights), lockout))
                await set_outputs(lights, lockout, meter, flash)
            table.devices.set_outputs = spy
            emu = table.devices.world.progressive
            await until(lambda: table.published()["round"]["id"] is not None, "the first round")
            assert (await table.submit({"type": "ante", "seat": 2, "amount": 1000}, source="panel"))["ok"]
            await asyncio.to_thread(emu.place_wager, 2)
            await until(lambda: emu.lights[1] == pp.Light.ON, "seat 2's light")
            await asyncio.to_thread(emu.press_and_release_lockout)
            await until(lambda: emu.lockout_indicator, "the lock-out indicator")
            await asyncio.to_thread(emu.place_wager, 5)   # after the lock-out: a late wager, not recognized
            await until(lambda: emu.lights[4] == pp.Light.FLASHING_LATE, "seat 5's late light")
            assert "progressive" not in seat(table.published(), 5)["wagers"]
            return seen
    seen = run(scenario())
    events = journal_events(tmp_path)
    seq_of = {e.payload["event"]["type"] + str(e.payload["event"].get("seat", "")): e.seq for e in events}
    first_on = next(head for head, lights, _ in seen if lights.get(2) == "on")
    first_lockout = next(head for head, _, lockout in seen if lockout)
    assert seq_of["progressive2"] <= first_on
    assert seq_of["no_more_bets"] <= first_lockout
    assert any(e.payload["source"] == "device" and e.payload["who"] == "progressive" for e in events)


def test_submit_refusals_are_journaled_and_change_nothing(tmp_path):
    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            await ready_to_deal(table)
            await asyncio.sleep(0.2)     # the devices have said their piece
            before = json.dumps(table.published(), sort_keys=True)
            results = [await table.submit({"type": "validate", "seat": 1}, source="panel"),
                       await table.submit({"type": "void_round", "reason": "x"}, source="supervisor"),
                       await table.submit({"type": "ante", "seat": 1, "amount": 12.5}, source="panel"),
                       await table.submit({"type": "reveal"}, source="panel"),
                       await table.submit({"type": "ante", "seat": 1, "amount": 500}, source="robot")]
            after = json.dumps(table.published(), sort_keys=True)
            return results, before == after
    results, unchanged = run(scenario())
    assert not any(r["ok"] for r in results) and unchanged
    assert "supervisor" in results[0]["error"] and "supervisor" in results[1]["error"]
    assert "float" in results[2]["error"] and "source" in results[4]["error"]
    refused = journal_events(tmp_path, "refused")
    assert len(refused) == 5
    assert refused[2].payload["event"] == {"unreadable": "{'type': 'ante', 'seat': 1, 'amount': 12.5}"}


def test_a_miscounted_deck_stops_the_round(tmp_path):
    """The single deck must count 52 before it is dealt (5324.42(f)(6)(iv), applied to Caribbean stud)."""
    sim = tmp_path / "sim"
    sim.mkdir()
    (sim / "shuffler.json").write_text(json.dumps({"deck": list(range(51)), "foreign": []}))

    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            await ready_to_deal(table)
            view = table.published()
            assert view["deck"]["count"]["total"] == 51
            assert any(a["kind"] == "deck_count" and "51" in a["message"] for a in view["alarms"])
            await table.submit({"type": "ante", "seat": 1, "amount": 500}, source="panel")
            await asyncio.to_thread(table.devices.world.progressive.press_and_release_lockout)
            await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
            result = await table.submit({"type": "deal"}, source="panel")
            await asyncio.sleep(0.3)
            return result, table.published(), table.devices.world.shoe.dealt()
    result, view, dealt = run(scenario())
    assert not result["ok"] and "counted 51" in result["error"]
    assert view["round"]["state"] == "no_more_bets" and dealt == []
    assert "supervisor" in view["round"]["next_step"]


def test_a_progressive_win_waits_for_a_supervisor_who_is_journaled(tmp_path, monkeypatch):
    """5324.37(f)(2)(iii): the win is validated by a supervisor; the meter restarts after a royal flush."""
    deck = stacked_deck("As Ks Qs Js Ts", "2c 7d 9h 4s 3c")   # seat 1, then the dealer
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(deck))

    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            emu = table.devices.world.progressive
            await ready_to_deal(table)
            await table.submit({"type": "ante", "seat": 1, "amount": 1000}, source="panel")
            await asyncio.to_thread(emu.place_wager, 1)
            await until(lambda: "progressive" in seat(table.published(), 1)["wagers"], "the progressive wager")
            await asyncio.to_thread(emu.press_and_release_lockout)
            await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["state"] == "decisions", "the deal")
            for step in ({"type": "decision", "seat": 1, "decision": "bet"}, {"type": "reveal"}, {"type": "settle"}):
                assert (await table.submit(step, source="panel"))["ok"], step
            waiting = table.published()["validations"]
            await until(lambda: emu.meter is not None and emu.meter.mode == pp.MeterMode.FLASH, "the flashing meter")
            refused = await table.submit({"type": "validate", "seat": 1}, source="panel")
            done = await table.submit({"type": "validate", "seat": 1}, source="supervisor", who="S-17")
            # the royal is past the hand-pay threshold (issue 29): its tax form, then it is paid
            assert (await table.submit({"type": "hand_pay", "seat": 1, "player_id": "D-0001-2222", "form": "W2G-17"},
                                       source="supervisor", who="S-17"))["ok"]
            return waiting, refused, done, table.published()
    waiting, refused, done, view = run(scenario())
    assert waiting[0]["hand"] == "royal-flush" and waiting[0]["award"] > 2_500_000
    assert not refused["ok"] and done["ok"]
    assert view["round"]["state"] == "closed" and view["meter"]["amount"] == 1_000_000
    validated = [e for e in journal_events(tmp_path) if e.payload["event"]["type"] == "validate"]
    assert validated[0].payload["who"] == "S-17" and validated[0].payload["event"]["supervisor"] == "S-17"


def test_a_journal_that_breaks_when_read_is_a_fault_not_a_crash(tmp_path):
    async def first():
        async with running(war_profile(), tmp_path) as table:
            await until(lambda: table.published()["round"]["id"] is not None, "the first round")
    run(first())
    db = tmp_path / "journal.db"
    data = bytearray(db.read_bytes())
    data[len(data) // 2] ^= 0x10
    db.write_bytes(bytes(data))

    async def faulted():
        async with running(war_profile(), tmp_path) as table:
            return table.fault, await table.submit({"type": "next_round"}, source="panel")
    fault, refused = run(faulted())
    assert fault["reason"] and "fault" in refused["error"]


def test_a_fault_refuses_play_until_a_supervisor_clears_it(tmp_path):
    async def first():
        async with running(war_profile(), tmp_path) as table:
            await until(lambda: table.published()["round"]["id"] is not None, "the first round")
    run(first())
    with Journal.open(tmp_path, readonly=True) as j:
        assert not j.verify()
    seal = tmp_path / "journal.seal"   # a damaged seal: the journal itself stays readable, so it can be cleared
    data = bytearray(seal.read_bytes())
    data[len(data) // 2] ^= 0x10
    seal.write_bytes(bytes(data))

    async def faulted():
        async with running(war_profile(), tmp_path) as table:
            assert table.fault is not None and table.published()["fault"] == table.fault
            refused = await table.submit({"type": "wager", "seat": 1, "wager": "initial", "stake": 500},
                                         source="panel")
            by_panel = await table.submit({"type": "clear_fault", "reason": "checked"}, source="panel")
            no_reason = await table.submit({"type": "clear_fault"}, source="supervisor", who="S-2")
            first = await table.submit({"type": "clear_fault", "reason": "disk replaced, journal checked"},
                                       source="supervisor", who="S-2")
            # a journal fault is an integrity fault: a second, different supervisor clears it (issue 15)
            assert first["ok"] and table.fault is not None and table.fault["approved_by"] == "S-2"
            again_s2 = await table.submit({"type": "clear_fault", "reason": "again"}, source="supervisor", who="S-2")
            assert table.fault is not None, again_s2
            cleared = await table.submit({"type": "clear_fault", "reason": "disk replaced, journal checked"},
                                         source="supervisor", who="S-3")
            await until(lambda: table.published()["round"]["state"] == "wagers", "play again")
            again = await table.submit({"type": "wager", "seat": 1, "wager": "initial", "stake": 500}, source="panel")
            return refused, by_panel, no_reason, cleared, again
    refused, by_panel, no_reason, cleared, again = run(faulted())
    assert "fault" in refused["error"] and not by_panel["ok"] and not no_reason["ok"]
    assert cleared["ok"] and again["ok"]
    with Journal.open(tmp_path, readonly=True) as j:
        clear = j.latest("fault-cleared")
    assert (clear.payload["by"], clear.payload["second"]) == ("S-3", "S-2")


def test_systemd_hears_ready_and_the_watchdog_from_the_event_loop(tmp_path, monkeypatch):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)

    async def scenario():
        async with running(war_profile(), tmp_path / "data"):
            messages = []
            while not any("WATCHDOG=1" in m for m in messages):
                messages.append((await asyncio.to_thread(sock.recv, 4096)).decode())
            return messages
    try:
        messages = run(scenario())
    finally:
        sock.close()
    assert messages[0].startswith("READY=1")      # after the self-check, with the devices started
    assert any(m == "WATCHDOG=1" for m in messages)


@pytest.mark.parametrize("config", ["config/caribbean-stud.toml", "config/casino-war.toml",
                                    "config/texas-holdem.toml", "config/seven-card-stud.toml"])
def test_the_readme_command_plays_rounds_and_prints_each_settlement(tmp_path, config):
    """`tablectl run --config ... --autoplay`: the embedded default, every device emulated."""
    profile = tmp_path / "profile.toml"
    text = Path(config).read_text().split("[screen]")[0]   # the screen is another helper's test
    profile.write_text(text)
    seed_software_hashes(tmp_path / "d")   # the installed files hashed once a session, not once a run
    result = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(profile),
                             "--data-dir", str(tmp_path / "d"), "--autoplay", "--rounds", "4", "--seed", "9"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 4 and all(line["settlement"] or line["void"] for line in lines)
    if "[poker]" in Path(config).read_text():   # a poker hand makes and loses no chip
        assert all(sum(x["settlement"]["stacks_before"]) == sum(x["settlement"]["stacks_after"])
                   + x["settlement"]["rake"] + x["settlement"]["jackpot_drop"] for x in lines)
    listed = subprocess.run([sys.executable, "-m", "controller.cli", "rounds", "list", "--data-dir",
                             str(tmp_path / "d")], capture_output=True, text=True, timeout=60)
    assert listed.stdout.count("recorded") == 4
    verify = subprocess.run([sys.executable, "-m", "controller.cli", "journal", "verify", "--data-dir",
                             str(tmp_path / "d")], capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0 and "ledger balances" in verify.stdout, verify.stdout


def test_the_screen_is_served_when_the_profile_asks(tmp_path):
    import httpx
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    profile = tmp_path / "p.toml"
    profile.write_text(STUD.read_text() + f"\n[screen]\nport = {port}\n")
    from controller.config import load_profile
    from controller.table import Table

    async def scenario():
        table = Table(load_profile(profile), data_dir=tmp_path / "d")
        await table.start()
        try:
            async with httpx.AsyncClient() as client:
                for _ in range(100):
                    try:
                        response = await client.get(f"http://127.0.0.1:{port}/api/state")
                        break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.05)
            return response.json(), table.published()
        finally:
            await table.close()
    served, published = run(scenario())
    profile_table = load_profile(profile).table
    assert served["table"] == published["table"] == {
        "id": "CS-CRASH", "name": "Caribbean Stud (crash tests)", "game": "caribbean-stud",
        "minimum_wager": profile_table.minimum_wager, "maximum_wager": profile_table.maximum_wager,
        "seats": load_profile(profile).seats}
    assert served["table"]["minimum_wager"] <= served["table"]["maximum_wager"] and served["table"]["seats"] >= 1


def test_a_supervisor_corrects_the_meter_between_rounds_and_the_ledger_says_so(tmp_path):
    from controller.runtime.ledger import of_journal

    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            await ready_to_deal(table)
            during = await table.submit({"type": "correct_meter", "amount": 2_600_000, "reason": "audit"},
                                        source="supervisor", who="S-3")
            void = await table.submit({"type": "void_round", "reason": "table closing"}, source="supervisor",
                                      who="S-3")
            asked = await table.submit({"type": "correct_meter", "amount": 2_600_000, "reason": "meter reading"},
                                       source="supervisor", who="S-4")
            still = table.published()["meter"]["amount"]
            fix = await table.submit({"type": "correct_meter", "amount": 2_600_000, "reason": "meter reading"},
                                     source="supervisor", who="S-3")   # two supervisors, like an integrity clearing
            return during, void, asked, still, fix, table.published()["meter"]["amount"]
    during, void, asked, still, fix, meter = run(scenario())
    assert not during["ok"] and "between rounds" in during["error"]
    assert asked["ok"] and "second" in asked["awaits"] and still != 2_600_000
    assert void["ok"] and fix["ok"] and meter == 2_600_000
    with Journal.open(tmp_path, readonly=True) as j:
        led = of_journal(j)
        corrected = [e for e in j.entries_since(0) if e.kind == "meter"]
    assert corrected[-1].payload["by"] == "S-3" and corrected[-1].payload["reason"] == "correction"
    assert corrected[-1].payload["approved_by"] == "S-4"
    assert led.problems == [] and led.meter["corrections"] == 100_000 and led.voided == 1


def test_autoplay_validates_a_progressive_win_as_the_autoplay_supervisor(tmp_path, monkeypatch):
    from controller.runtime.autoplay import SUPERVISOR, make_plan
    profile = stud_profile()
    rid = f"{profile.table.id}-000001"
    seed = next(s for s in range(1000)
                if (p := make_plan(profile.game, rid, s, profile.seats, 500, 50000)).progressive
                and min(p.wagers) in p.progressive)
    deck = stacked_deck("As Ks Qs Js Ts")                   # the first stack: the first seat's
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(deck))

    async def scenario():
        async with running(profile, tmp_path, autoplay=True, rounds=1, seed=seed) as table:
            await table.wait()
    run(scenario())
    validated = [e for e in journal_events(tmp_path) if e.payload["event"]["type"] == "validate"]
    assert len(validated) == 1
    assert validated[0].payload["source"] == "supervisor" and validated[0].payload["who"] == SUPERVISOR
    with Journal.open(tmp_path, readonly=True) as j:
        record = j.round_record(rid).payload
    assert record["settlement"]["progressive"]["awards"][0]["hand"] == "royal-flush"
    assert record["validated"] == {str(min(make_plan(profile.game, rid, seed, profile.seats, 500, 50000).wagers)):
                                   SUPERVISOR}


def test_a_supervisor_refuses_one_of_two_progressive_wins_and_the_ledger_balances(tmp_path, monkeypatch):
    """5324.37(f)(2): a supervisor may refuse a win (e.g. the light was not lit): it is not paid, its
    award goes back into the meter by a correction naming the supervisor, and the ledger balances."""
    from controller.runtime.ledger import compute, of_journal
    deck = stacked_deck("As Ks Qs Js Ts", "2h 6h 9h Jh Kh", "2c 7d 9s 4s 3c")   # seat 1, seat 3, the dealer
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(deck))

    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            emu = table.devices.world.progressive
            await ready_to_deal(table)
            for n in (1, 3):
                await table.submit({"type": "ante", "seat": n, "amount": 1000}, source="panel")
                await asyncio.to_thread(emu.place_wager, n)
                await until(lambda n=n: "progressive" in seat(table.published(), n)["wagers"], "the progressive wager")
            await asyncio.to_thread(emu.press_and_release_lockout)
            await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["state"] == "decisions", "the deal")
            for step in ({"type": "decision", "seat": 3, "decision": "bet"},
                         {"type": "decision", "seat": 1, "decision": "bet"}, {"type": "reveal"}, {"type": "settle"}):
                assert (await table.submit(step, source="panel"))["ok"], step
            waiting = table.published()["validations"]
            tries = [await table.submit({"type": "refuse", "seat": 1, "reason": "no light"}, source="panel"),
                     await table.submit({"type": "refuse", "seat": 1, "reason": " "}, source="supervisor", who="S-9"),
                     await table.submit({"type": "refuse", "seat": 2, "reason": "no light"}, source="supervisor",
                                        who="S-9")]
            done = await table.submit({"type": "refuse", "seat": 1, "reason": "the acceptor light was not lit"},
                                      source="supervisor", who="S-9")
            after = table.published()
            paid = await table.submit({"type": "validate", "seat": 3}, source="supervisor", who="S-9")
            return waiting, tries, done, after, paid, table.published()
    waiting, tries, done, after, paid, view = run(scenario())
    royal = next(v for v in waiting if v["seat"] == 1)
    # the meter the royal flush came from, not the reset after it (issue 9)
    assert royal["hand"] == "royal-flush" and royal["meter"] == royal["award"] > 2_500_000
    assert not any(t["ok"] for t in tries) and done["ok"] and paid["ok"]
    assert "supervisor" in tries[0]["error"] and "reason" in tries[1]["error"] and "no progressive" in tries[2]["error"]
    assert [v["seat"] for v in after["validations"]] == [3] and after["round"]["state"] == "validation"
    assert after["meter"]["amount"] == 1_000_000 + royal["award"]
    assert view["round"]["state"] == "closed" and view["meter"]["amount"] == 1_000_000 + royal["award"]
    refusal = [e for e in journal_events(tmp_path) if e.payload["event"]["type"] == "refuse"]
    assert len(refusal) == 1 and refusal[0].payload["who"] == "S-9"
    assert refusal[0].payload["event"] == {"type": "refuse", "seat": 1, "supervisor": "S-9",
                                           "reason": "the acceptor light was not lit"}
    correction = journal_events(tmp_path, "meter")[-1].payload
    assert (correction["reason"], correction["by"], correction["amount"]) == ("correction", "S-9", royal["award"])
    record = journal_events(tmp_path, "round-record")[-1].payload
    assert record["validated"] == {"3": "S-9"} and record["refused"]["1"]["returned"] == royal["award"]
    with Journal.open(tmp_path, readonly=True) as j:
        led = of_journal(j)
    assert led.problems == [] and led.meter["corrections"] == royal["award"]
    # the record says what was paid (issue 29): seat 1's royal is no win, its stake lost, no award
    seat_1 = next(s for s in record["settlement"]["seats"] if s["seat"] == 1)["progressive"]
    assert (seat_1["outcome"], seat_1["net"], seat_1["refused_award"]) == ("refused", -seat_1["stake"], royal["award"])
    settled = sum(s["progressive"]["net"] for s in record["settlement"]["seats"] if "progressive" in s)
    assert led.nets["progressive"] == settled   # the refused award was never paid
    assert led.refused == [{"round": record["round"], "seat": 1, "hand": "royal-flush", "award": royal["award"],
                            "returned": royal["award"], "supervisor": "S-9",
                            "reason": "the acceptor light was not lit"}]
    verify = subprocess.run([sys.executable, "-m", "controller.cli", "journal", "verify", "--data-dir",
                             str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0 and "ledger balances" in verify.stdout, verify.stdout
    # A meter entry missing a figure, or with one that is not a whole number, is a problem the
    # audit lists by its entry, and the audit goes on: never a TypeError out of the ledger.
    with Journal.open(tmp_path, readonly=True) as j:
        entries = list(j.entries_since(0))
    meters = [e for e in entries if e.kind == "meter"]
    assert {e.payload["reason"] for e in meters} == {"contribution", "award", "correction"}
    for target in meters:
        for key, value in (("after", None), ("amount", "12"), ("before", 1.5), ("before", True)):
            payload = {**target.payload, key: value}
            changed = [dataclasses.replace(e, payload=payload) if e is target else e for e in entries]
            led = compute(changed)
            named = [p for p in led.problems if p.startswith(f"entry {target.seq}: ")]
            assert any(key in p and "whole-number" in p for p in named), (target.payload["reason"], key, led.problems)


def test_events_queued_before_a_clearing_are_answered_and_carried_out(tmp_path):
    """A wager and a supervisor's clear_fault in one batch of the queue: the wager is journaled,
    takes effect and is answered before the clearing is judged (it used to be journaled and
    then dropped, its submitter waiting forever)."""
    async def play():
        async with running(war_profile(), tmp_path) as table:
            await until(lambda: table.published()["round"]["state"] == "wagers", "the first round's wagers")
            wager = {"type": "wager", "seat": 1, "wager": "initial", "stake": 500}
            clear = {"type": "clear_fault", "reason": "nothing to clear"}
            # both queued before the consumer runs again: one batch
            answers = await asyncio.wait_for(asyncio.gather(
                table.submit(wager, source="panel"),
                table.submit(clear, source="supervisor", who="S-2")), 10)
            return answers, seat(table.published(), 1)
    (placed, cleared), seat_one = run(play())
    assert placed["ok"], placed
    assert "ok" in cleared
    assert seat_one["wagers"]["initial"] == 500, seat_one
    wagers = [e for e in journal_events(tmp_path) if e.payload.get("event", {}).get("type") == "wager"]
    assert len(wagers) == 1
