"""The shuffler driver against the shuffler: the emulator over a pseudo-terminal, or the hardware.

TestShuffler runs against a real shuffler when TABLECTL_SHUFFLER_PORT names
its port (with a full deck in the tray); TestShufflerFaults needs the knobs.
The link itself (retries, duplicates, reconnection) is the shoe's, tested
there in full; here it is checked once on the shuffler's own messages.
"""

from __future__ import annotations

import asyncio

import pytest

from controller.cards import CARDS, parse_card
from drivers.errors import CommandRefused
from drivers.events import LinkState
from drivers.serial_link import messages as m
from drivers.serial_link.device import LinkTiming
from drivers.shuffler import protocol as p
from drivers.shuffler.device import ShufflerDevice
from drivers.sim.shuffler import ShufflerEmulator

from .helpers import expect, expect_status, quiet, status_of

FAST_RECONNECT = LinkTiming(backoff_initial=0.02, backoff_max=0.2)


async def connected_shuffler(port: str) -> tuple[ShufflerDevice, asyncio.Queue]:
    queue: asyncio.Queue = asyncio.Queue()
    dev = ShufflerDevice(port, queue, timing=FAST_RECONNECT)
    assert await dev.start()
    await expect_status(queue, LinkState.CONNECTED)
    return dev, queue


class TestShuffler:
    """What any shuffler must do for the driver; runs on hardware too."""

    def test_connects_and_identifies(self, shuffler_rig, arun):
        async def scenario():
            dev, _ = await connected_shuffler(shuffler_rig.port)
            try:
                assert dev.ident.kind == m.DeviceKind.SHUFFLER
                status = await status_of(dev)
                assert isinstance(status, p.ShufflerStatus) and status.deck_present
            finally:
                await dev.close()
        arun(scenario())

    def test_shuffle_starts_completes_and_counts_the_deck(self, shuffler_rig, arun):
        async def scenario():
            dev, queue = await connected_shuffler(shuffler_rig.port)
            try:
                await dev.shuffle()
                await expect(queue, p.ShuffleStarted, timeout=60)
                await expect(queue, p.ShuffleComplete, timeout=60)
                count = await expect(queue, p.DeckCount, timeout=60)
                assert count.from_shuffle and count.total == 52 and count.correct
            finally:
                await dev.close()
        arun(scenario(), timeout=120)

    def test_count_without_shuffling(self, shuffler_rig, arun):
        async def scenario():
            dev, queue = await connected_shuffler(shuffler_rig.port)
            try:
                await dev.count()
                count = await expect(queue, p.DeckCount, timeout=60)
                assert not count.from_shuffle and count.correct
                assert (await status_of(dev)).last_count == 52
            finally:
                await dev.close()
        arun(scenario(), timeout=120)


class TestShufflerFaults:
    def test_a_short_deck_names_the_missing_card(self, arun):
        async def scenario():
            with ShufflerEmulator() as emu:
                dev, queue = await connected_shuffler(emu.port)
                emu.insert_deck([c for c in CARDS if str(c) != "Jd"])
                await expect(queue, p.DeckInserted)
                await dev.shuffle()
                await expect(queue, p.ShuffleStarted)
                await expect(queue, p.ShuffleComplete)
                count = await expect(queue, p.DeckCount)
                assert count.total == 51 and not count.correct
                assert count.cards(p.AnomalyKind.MISSING) == (parse_card("Jd"),)
                await dev.close()
        arun(scenario())

    def test_a_card_from_another_deck_is_found_even_when_the_count_is_52(self, arun):
        async def scenario():
            with ShufflerEmulator() as emu:
                dev, queue = await connected_shuffler(emu.port)
                emu.insert_deck([c for c in CARDS if str(c) != "Jd"], foreign=[parse_card("As")])
                await expect(queue, p.DeckInserted)
                await dev.count()
                count = await expect(queue, p.DeckCount)
                assert count.total == 52 and not count.correct
                assert count.cards(p.AnomalyKind.FOREIGN) == (parse_card("As"),)
                assert count.cards(p.AnomalyKind.MISSING) == (parse_card("Jd"),)
                await dev.close()
        arun(scenario())

    def test_a_doubled_card_and_an_unreadable_one(self, arun):
        async def scenario():
            with ShufflerEmulator() as emu:
                dev, queue = await connected_shuffler(emu.port)
                emu.insert_deck(list(CARDS) + [parse_card("2c")])
                await expect(queue, p.DeckInserted)
                await dev.count()
                count = await expect(queue, p.DeckCount)
                assert count.total == 53 and count.cards(p.AnomalyKind.EXTRA) == (parse_card("2c"),)
                emu.insert_deck([c for c in CARDS if str(c) != "Jd"], unreadable=[0])
                await expect(queue, p.DeckInserted)
                await dev.count()
                count = await expect(queue, p.DeckCount)
                assert count.total == 51
                assert count.cards(p.AnomalyKind.MISSING) == (None,)   # the reader cannot tell which
                await dev.close()
        arun(scenario())

    def test_no_deck_is_refused_and_insert_remove_are_reported(self, arun):
        async def scenario():
            with ShufflerEmulator(deck_present=False) as emu:
                dev, queue = await connected_shuffler(emu.port)
                with pytest.raises(CommandRefused, match="no deck"):
                    await dev.shuffle()
                emu.insert_deck()
                await expect(queue, p.DeckInserted)
                emu.remove_deck()
                await expect(queue, p.DeckRemoved)
                assert not (await status_of(dev)).deck_present
                await dev.close()
        arun(scenario())

    def test_busy_while_shuffling(self, arun):
        async def scenario():
            with ShufflerEmulator(shuffle_time=0.2) as emu:
                dev, queue = await connected_shuffler(emu.port)
                await dev.shuffle()
                with pytest.raises(CommandRefused, match="busy"):
                    await dev.count()
                assert (await status_of(dev)).shuffling
                await expect(queue, p.ShuffleStarted)
                await expect(queue, p.ShuffleComplete)
                await expect(queue, p.DeckCount)
                await dev.close()
        arun(scenario())

    def test_a_fault_abandons_the_shuffle_and_refuses_until_cleared(self, arun):
        async def scenario():
            with ShufflerEmulator(shuffle_time=0.2) as emu:
                dev, queue = await connected_shuffler(emu.port)
                await dev.shuffle()
                await expect(queue, p.ShuffleStarted)
                emu.fault(p.FaultCode.DOOR_OPEN)
                assert (await expect(queue, p.ShufflerFault)).code == p.FaultCode.DOOR_OPEN
                assert await quiet(queue, 0.4) == []   # no completion for an abandoned shuffle
                with pytest.raises(CommandRefused, match="jammed"):
                    await dev.shuffle()
                emu.clear_fault()
                await expect(queue, p.FaultCleared)
                await dev.count()
                assert (await expect(queue, p.DeckCount)).correct
                await dev.close()
        arun(scenario())

    def test_a_garbled_count_is_sent_again_and_delivered_once(self, arun):
        async def scenario():
            with ShufflerEmulator() as emu:
                dev, queue = await connected_shuffler(emu.port)
                emu.outgoing.garble(1, types={p.COUNT_RESULT})
                await dev.count()
                assert (await expect(queue, p.DeckCount)).correct
                assert dev.bad_frames >= 1
                assert await quiet(queue) == []
                await dev.close()
        arun(scenario())

    def test_unplug_and_replug(self, arun):
        async def scenario():
            with ShufflerEmulator() as emu:
                dev, queue = await connected_shuffler(emu.port)
                emu.unplug()
                await expect_status(queue, LinkState.DISCONNECTED)
                emu.replug()
                await expect_status(queue, LinkState.CONNECTED)
                await dev.count()
                assert (await expect(queue, p.DeckCount)).correct
                await dev.close()
        arun(scenario())
