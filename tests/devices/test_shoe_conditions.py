"""The shoe's own numbers and conditions, through the driver (issue 15).

Cards checked, not trusted: a replayed or reordered card frame (the emulator's
firmware faults) is refused in the card's place; a power-cycled shoe's first
event is taken; an empty or jammed shoe raises the dealer's alarm at once, even
when only a NAK or the STATUS shows it, mid-deal at a live table too, and the
alarm goes when the shoe reports the condition gone.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.cards import CARDS, parse_cards
from drivers.events import LinkState
from drivers.errors import CommandRefused
from drivers.manual_shoe import protocol as mp
from drivers.manual_shoe.device import ManualShoeDevice
from drivers.serial_link.device import LinkTiming
from drivers.shoe import protocol as p
from drivers.shoe.device import ShoeDevice
from drivers.sim.manual_shoe import ManualShoeEmulator
from drivers.sim.shoe import ShoeEmulator

from .helpers import expect, expect_status, quiet, until
from tests.table.table_helpers import deck_ready

TIMING = LinkTiming(backoff_initial=0.02, backoff_max=0.2)
STUD = Path(__file__).resolve().parents[1] / "crash" / "stud.toml"


async def connected(port: str, driver=ShoeDevice, timing: LinkTiming = TIMING):
    queue: asyncio.Queue = asyncio.Queue()
    dev = driver(port, queue, timing=timing)
    assert await dev.start()
    await expect_status(queue, LinkState.CONNECTED)
    return dev, queue


class TestCardsCheckedNotTrusted:
    def test_a_replayed_card_frame_is_refused_and_the_cards_after_it_are_taken(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                dev, queue = await connected(emu.port)
                emu.outgoing.replay(1, types={p.CARD_DISPENSED}, back=2, after=3)
                await dev.dispense_stack(5)
                got = [await expect(queue, p.CardDispensed) for _ in range(3)]
                refused = await expect(queue, p.CardOutOfStep)
                assert (refused.why, refused.reported, refused.expected) == (p.REPLAYED, 2, 4)
                got += [await expect(queue, p.CardDispensed) for _ in range(2)]
                assert [c.card for c in got] == list(CARDS[:5]) and [c.dispensed for c in got] == [1, 2, 3, 4, 5]
                assert dev.refused == 1 and await quiet(queue) == []
                await dev.close()
        arun(scenario())

    def test_a_card_of_an_earlier_deck_is_refused_whatever_its_count(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                dev, queue = await connected(emu.port)
                await dev.dispense_stack(5)
                [await expect(queue, p.CardDispensed) for _ in range(5)]
                emu.load(list(reversed(CARDS)))
                await expect(queue, p.ShoeLoaded)
                # the first deck's fifth card, sent again after one card of the new deck: count 5, load 0
                emu.outgoing.replay(1, types={p.CARD_DISPENSED}, back=2, after=1)
                await dev.dispense_stack(2)
                assert (await expect(queue, p.CardDispensed)).card == CARDS[51]
                refused = await expect(queue, p.CardOutOfStep)
                assert refused.why == p.REPLAYED and refused.card == CARDS[4]
                assert (await expect(queue, p.CardDispensed)).card == CARDS[50]
                await dev.close()
        arun(scenario())

    def test_reordered_cards_are_refused_and_stop_the_deck(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                dev, queue = await connected(emu.port)
                emu.outgoing.reorder(1, types={p.CARD_DISPENSED}, after=1)
                await dev.dispense_stack(5)
                assert (await expect(queue, p.CardDispensed)).dispensed == 1
                skipped = await expect(queue, p.CardOutOfStep)     # card 3 came before card 2
                assert (skipped.why, skipped.reported, skipped.expected) == (p.SKIPPED, 3, 2)
                assert skipped.stops_the_deal
                later = [await expect(queue, p.CardOutOfStep) for _ in range(3)]   # 2, 4, 5: none taken
                assert all(r.stops_the_deal for r in later)
                emu.load()
                await expect(queue, p.ShoeLoaded)                   # a new deck: taken afresh
                await dev.dispense_one()
                assert (await expect(queue, p.CardDispensed)).dispensed == 1
                await dev.close()
        arun(scenario())

    def test_a_power_cycled_shoe_is_recognised_and_its_first_event_taken(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                dev, queue = await connected(emu.port)
                await dev.dispense_one()
                first = await expect(queue, p.CardDispensed)
                last_seq = emu.call(lambda: emu._tx_seq)
                emu.unplug()
                await expect_status(queue, LinkState.DISCONNECTED)
                emu.restart(next_seq=last_seq)       # its first event reuses the SEQ the host saw last
                emu.replug()
                await expect_status(queue, LinkState.CONNECTED)
                await dev.dispense_one()
                second = await expect(queue, p.CardDispensed)
                assert second.dispensed == first.dispensed + 1
                await dev.close()
        arun(scenario())

    def test_a_manual_shoe_keeps_its_count_across_a_restart(self, arun):
        async def scenario():
            with ManualShoeEmulator(list(CARDS)) as emu:
                dev, queue = await connected(emu.port, ManualShoeDevice)
                emu.draw(), emu.draw()
                await expect(queue, mp.CardDrawn), await expect(queue, mp.CardDrawn)
                emu.unplug()
                await expect_status(queue, LinkState.DISCONNECTED)
                emu.restart()
                emu.replug()
                await expect_status(queue, LinkState.CONNECTED)
                emu.outgoing.replay(1, types={mp.CARD_DRAWN}, back=2)   # card 1 again, under the new boot
                emu.draw()
                refused = await expect(queue, mp.DrawOutOfStep)
                assert refused.replayed and refused.reported == 1
                assert (await expect(queue, mp.CardDrawn)).drawn == 3
                await dev.close()
        arun(scenario())


class TestConditions:
    def test_a_shoe_that_ran_out_at_the_end_of_a_stack_is_reported_empty_when_it_refuses(self, arun):
        async def scenario():
            with ShoeEmulator(parse_cards("As Kd Qh Jc Ts".split())) as emu:
                dev, queue = await connected(emu.port)
                await dev.dispense_stack(5)
                [await expect(queue, p.CardDispensed) for _ in range(5)]   # the last card ends the stack
                try:
                    await dev.dispense_stack(5)
                except CommandRefused:
                    pass
                assert (await expect(queue, p.ShoeEmpty)).dispensed == 5
                try:
                    await dev.dispense_one()
                except CommandRefused:
                    pass
                assert await quiet(queue) == []                             # once, not per refusal
                await dev.close()
        arun(scenario())

    def test_a_jam_seen_only_in_the_status_is_reported_and_so_is_its_end(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                dev, queue = await connected(emu.port, timing=LinkTiming(heartbeat=0.2, backoff_initial=0.02,
                                                                         backoff_max=0.2))
                emu.call(lambda: setattr(emu, "jammed", p.JamCode.DOOR_OPEN))   # no SHOE_JAMMED sent
                await expect(queue, p.ShoeJammed)
                emu.call(lambda: setattr(emu, "jammed", None))
                await expect(queue, p.JamCleared)
                await dev.close()
        arun(scenario())


async def _dealing_table(tmp_path, monkeypatch, deck: list[int]):
    from controller.config import load_profile
    from controller.runtime.world import World
    from controller.table import Table
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(deck))
    table = Table(load_profile(STUD), data_dir=tmp_path, screen=False)
    await table.start()
    await until(lambda: deck_ready(table.published())
                and table.published()["round"]["state"] == "open", "a counted deck in the shoe", 20)
    assert (await table.submit({"type": "ante", "seat": 1, "amount": 500}, source="panel"))["ok"]
    await asyncio.to_thread(table.devices.world.progressive.press_and_release_lockout)
    await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out", 20)
    return table


def _alarm(table, condition: str) -> dict | None:
    return next((a for a in table.published()["alarms"] if a.get("condition") == condition), None)


def test_an_empty_shoe_mid_deal_raises_the_alarm_and_loading_clears_it(tmp_path, monkeypatch, arun):
    """Issue 15: the shoe ran out at the end of seat 1's stack; its refusal of the dealer's stack raised
    no alarm and the screen said "Dealing" for ever."""
    async def scenario():
        table = await _dealing_table(tmp_path, monkeypatch, [int(c) for c in parse_cards("2c 7d 9h 4s 3c".split())])
        try:
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: _alarm(table, "shoe_empty") is not None, "the empty shoe's alarm", 20)
            view = table.published()
            assert view["round"]["next_step"] == _alarm(table, "shoe_empty")["message"]
            await asyncio.to_thread(table.devices.world.shoe.load, list(CARDS))
            await until(lambda: _alarm(table, "shoe_empty") is None, "the alarm to clear", 20)
        finally:
            await table.close()
    arun(scenario(), timeout=60)


def test_a_jam_mid_deal_raises_the_alarm_and_its_clearing_ends_it(tmp_path, monkeypatch, arun):
    async def scenario():
        table = await _dealing_table(tmp_path, monkeypatch, [int(c) for c in CARDS])
        try:
            await asyncio.to_thread(table.devices.world.shoe.jam, p.JamCode.CARD_FEED, 2)
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: _alarm(table, "shoe_jammed") is not None, "the jam's alarm", 20)
            assert table.published()["round"]["next_step"].startswith("The shoe is jammed")
            await asyncio.to_thread(table.devices.world.shoe.clear_jam)
            await until(lambda: _alarm(table, "shoe_jammed") is None, "the alarm to clear", 20)
        finally:
            await table.close()
    arun(scenario(), timeout=60)
