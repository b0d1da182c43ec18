"""Every chip the acceptors feel is a wager or an alarm (issue 30): a chip already standing when the
ante is keyed counts, and one left from the last round counts or names its seat at "no more bets".

A live table on its emulated devices through the real drivers; the chips are put on the emulated
progressive controller's acceptors, which report them over its USB backend.
"""

from __future__ import annotations

import asyncio

from controller.runtime.world import World
from drivers.progressive import protocol as pp
from tests.table.table_helpers import running, stacked_deck, stud_profile, until
from tests.table.test_table import journal_events, ready_to_deal, run, seat

# seat 3, seat 6, the dealer: no progressive hand among them, so no round waits for a supervisor
DECK = stacked_deck("2c 5d 9h Jc Ks", "3d 6h 8s Tc Qh", "4s 7c 9d Jh Ad")


def strays(view: dict) -> list[int]:
    return sorted(a["seat"] for a in view["alarms"] if str(a.get("condition", "")).startswith("stray_chip_"))


async def lock_out_and_finish(table, emu, deciding: list[int]) -> None:
    await asyncio.to_thread(emu.press_and_release_lockout)
    await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
    assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
    await until(lambda: table.published()["round"]["state"] == "decisions", "the deal")
    for n in deciding:
        assert (await table.submit({"type": "decision", "seat": n, "decision": "fold"}, source="panel"))["ok"]
    for step in ({"type": "reveal"}, {"type": "settle"}):
        assert (await table.submit(step, source="panel"))["ok"], step
    await until(lambda: table.published()["round"]["state"] == "closed", "the round closed")


def test_standing_chips_count_at_the_ante_and_a_chip_left_without_an_ante_names_its_seat(tmp_path, monkeypatch):
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(DECK))

    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            emu = table.devices.world.progressive
            await ready_to_deal(table)
            first = table.published()["round"]["id"]
            # round 1: seat 3's chip goes on before its ante, seat 6's with no ante at all
            await asyncio.to_thread(emu.place_wager, 3)
            await asyncio.to_thread(emu.place_wager, 6)
            await until(lambda: table.devices.acceptors.chips == {3, 6}, "the table hears both chips")
            before_ante = seat(table.published(), 3)["wagers"]
            assert (await table.submit({"type": "ante", "seat": 3, "amount": 1000}, source="panel"))["ok"]
            await until(lambda: emu.lights[2] == pp.Light.ON, "seat 3's light, lit without lifting the chip")
            counted = dict(seat(table.published(), 3)["wagers"])
            await asyncio.to_thread(emu.press_and_release_lockout)
            await until(lambda: strays(table.published()) == [6], "the alarm naming seat 6")
            one = table.published()
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["state"] == "decisions", "the deal")
            for step in ({"type": "decision", "seat": 3, "decision": "fold"}, {"type": "reveal"}, {"type": "settle"}):
                assert (await table.submit(step, source="panel"))["ok"], step
            await until(lambda: table.published()["round"]["state"] == "closed", "round 1 closed")
            # round 2: both chips were left on the acceptors; only seat 6 antes
            assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]
            await ready_to_deal(table)
            opened = table.published()
            assert (await table.submit({"type": "ante", "seat": 6, "amount": 1000}, source="panel"))["ok"]
            await until(lambda: "progressive" in seat(table.published(), 6)["wagers"], "seat 6's chip counted")
            await lock_out_and_finish(table, emu, [6])
            closed = table.published()
            await asyncio.to_thread(emu.remove_wager, 3)
            await until(lambda: strays(table.published()) == [], "the alarm ended with the chip taken off")
            return first, before_ante, counted, one, opened, closed
    first, before_ante, counted, one, opened, closed = run(scenario(), timeout=120)
    assert "progressive" not in before_ante and counted == {"ante": 1000, "progressive": counted["progressive"]}
    assert "progressive" not in seat(one, 6)["wagers"] and seat(one, 6)["light"] == "off"
    assert "seat 6" in next(a["message"] for a in one["alarms"] if a.get("seat") == 6)
    assert strays(opened) == []   # a new round asks again at its own "no more bets"
    assert strays(closed) == [3]   # seat 3's chip was left without an ante: named, not counted
    assert "progressive" not in seat(closed, 3)["wagers"]
    events = [e.payload for e in journal_events(tmp_path)]
    counted_chips = [(e["event"]["seat"], e["source"]) for e in events if e["event"]["type"] == "progressive"]
    assert counted_chips == [(3, "device"), (6, "device")]   # each counted once, from the acceptor
    alarms = [e.payload for e in journal_events(tmp_path, "alarm")]
    assert [a["seat"] for a in alarms if a.get("condition", "").startswith("stray_chip_")] == [6, 3]
    assert first is not None
