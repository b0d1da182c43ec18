"""The manual dealing shoe's driver against the shoe: the emulator over a real pseudo-terminal, or the hardware.

Casino war is dealt from a manual dealing shoe (9 NYCRR 5324.22(d)), each card
taken out by the dealer's hand (h)(2): the shoe reports what was drawn and has
no command to dispense. TestManualShoe runs against a real shoe when
TABLECTL_MANUAL_SHOE_PORT names its port; the rest need the emulator's hand.
"""

from __future__ import annotations

import asyncio

import pytest

from controller.cards import CARDS, parse_cards
from drivers.errors import CommandRefused
from drivers.events import LinkState
from drivers.serial_link import messages as m
from drivers.serial_link.device import LinkTiming
from drivers.manual_shoe import protocol as p
from drivers.manual_shoe.device import ManualShoeDevice
from drivers.shoe import protocol as automated
from drivers.sim.manual_shoe import ManualShoeEmulator
from drivers.sim.shoe import ShoeEmulator

from .helpers import expect, expect_status, named_driver, quiet, status_of

FAST_RECONNECT = LinkTiming(backoff_initial=0.02, backoff_max=0.2)


async def connected(port: str) -> tuple[ManualShoeDevice, asyncio.Queue]:
    queue: asyncio.Queue = asyncio.Queue()
    dev = named_driver("manual_shoe", ManualShoeDevice)(port, queue, timing=FAST_RECONNECT)
    assert await dev.start()
    await expect_status(queue, LinkState.CONNECTED)
    return dev, queue


class TestManualShoe:
    """What any card-reading manual shoe must do for the driver; runs on hardware too."""

    def test_connects_as_a_manual_shoe_and_reports_its_count(self, manual_shoe_rig, arun):
        async def scenario():
            dev, _ = await connected(manual_shoe_rig.port)
            try:
                assert dev.ident.kind == m.DeviceKind.MANUAL_SHOE
                status = await status_of(dev)
                assert isinstance(status, p.ManualShoeStatus)
                if manual_shoe_rig.emulator:
                    assert (status.drawn, status.remaining, status.empty) == (0, 52, False)
            finally:
                await dev.close()
        arun(scenario())

    def test_5324_22_d_the_shoe_has_no_dispense_command(self, manual_shoe_rig, arun):
        """5324.22(d), (h)(2): the dealer draws; a dispense command is refused as unknown to the shoe."""
        async def scenario():
            dev, queue = await connected(manual_shoe_rig.port)
            try:
                assert not hasattr(dev, "dispense_one") and not hasattr(dev, "dispense_stack")
                with pytest.raises(CommandRefused) as refused:
                    await dev._command(automated.DISPENSE_ONE)
                assert refused.value.reason == m.NakReason.UNKNOWN_TYPE
                assert await quiet(queue) == []
            finally:
                await dev.close()
        arun(scenario())


def emulated(deck=None, **kwargs) -> ManualShoeEmulator:
    return ManualShoeEmulator(list(CARDS) if deck is None else deck, **kwargs)


class TestManualShoeDrawn:
    """Each card as the dealer draws it, through the emulator's hand."""

    def test_5324_22_h_2_each_card_drawn_by_hand_is_reported_once_in_order(self, arun):
        async def scenario():
            with emulated() as emu:
                dev, queue = await connected(emu.port)
                assert await quiet(queue, 0.2) == []   # nothing comes out by itself
                for _ in range(3):
                    emu.draw()
                got = [await expect(queue, p.CardDrawn) for _ in range(3)]
                assert [c.card for c in got] == list(CARDS[:3])
                assert [(c.place, c.drawn) for c in got] == [(1, 1), (2, 2), (3, 3)]
                assert (await status_of(dev)).drawn == 3
                await dev.close()
        arun(scenario())

    def test_5324_22_h_4_the_cover_card_comes_before_the_card_behind_it_and_takes_a_place(self, arun):
        async def scenario():
            with emulated(cover_at=2) as emu:
                dev, queue = await connected(emu.port)
                for _ in range(3):
                    emu.draw()
                assert [c.card for c in (await expect(queue, p.CardDrawn), await expect(queue, p.CardDrawn))] \
                    == list(CARDS[:2])
                cover = await expect(queue, p.CoverCardReached)
                assert (cover.place, cover.drawn) == (3, 2)
                third = await expect(queue, p.CardDrawn)
                assert (third.card, third.place, third.drawn) == (CARDS[2], 4, 3)
                assert (await status_of(dev)).cover_reached
                await dev.close()
        arun(scenario())

    def test_an_unread_face_is_reported_as_drawn_without_a_card(self, arun):
        async def scenario():
            with emulated() as emu:
                dev, queue = await connected(emu.port)
                emu.unreadable()
                emu.draw()
                emu.draw()
                unread = await expect(queue, p.CardUnread)
                assert (unread.place, unread.drawn) == (1, 1)
                assert (await expect(queue, p.CardDrawn)).card == CARDS[1]
                await dev.close()
        arun(scenario())

    def test_empty_then_loaded_starts_the_count_again(self, arun):
        async def scenario():
            with emulated(parse_cards(["As", "Kd"])) as emu:
                dev, queue = await connected(emu.port)
                emu.draw(), emu.draw()
                assert emu.draw() is None
                await expect(queue, p.CardDrawn), await expect(queue, p.CardDrawn)
                assert (await expect(queue, p.ShoeEmpty)).drawn == 2
                emu.load(parse_cards(["2c", "3c", "4c"]))
                assert (await expect(queue, p.ShoeLoaded)).cards == 3
                emu.draw()
                card = await expect(queue, p.CardDrawn)
                assert (str(card.card), card.drawn) == ("2c", 1)
                await dev.close()
        arun(scenario())

    def test_a_replayed_report_is_refused_not_dealt_twice(self, arun):
        async def scenario():
            with emulated() as emu:
                dev, queue = await connected(emu.port)
                emu.draw(), emu.draw()
                await expect(queue, p.CardDrawn), await expect(queue, p.CardDrawn)
                # the same card again under a new link SEQ: the link cannot tell; the count can
                emu.call(lambda: emu.emit(p.CARD_DRAWN, p.CardDrawn(CARDS[1], 2, 2).payload()))
                refused = await expect(queue, p.DrawOutOfStep)
                assert refused.replayed and (refused.reported, refused.expected) == (2, 3)
                emu.draw()
                assert (await expect(queue, p.CardDrawn)).drawn == 3
                assert dev.refused == 1
                await dev.close()
        arun(scenario())

    def test_a_skipped_report_is_refused_and_says_how_many_were_missed(self, arun):
        async def scenario():
            with emulated() as emu:
                dev, queue = await connected(emu.port)
                emu.draw()
                await expect(queue, p.CardDrawn)
                # card 3 reported with card 2's report never sent (a shoe restarted mid-report, say)
                emu.call(lambda: emu.emit(p.CARD_DRAWN, p.CardDrawn(CARDS[2], 3, 3).payload()))
                refused = await expect(queue, p.DrawOutOfStep)
                assert (refused.replayed, refused.missed) == (False, 1)
                emu.call(lambda: emu.emit(p.CARD_DRAWN, p.CardDrawn(CARDS[3], 4, 4).payload()))
                assert (await expect(queue, p.CardDrawn)).drawn == 4
                await dev.close()
        arun(scenario())

    @pytest.mark.parametrize("knob", ["drop", "garble"])
    def test_a_lost_or_damaged_card_frame_still_arrives_exactly_once(self, knob, arun):
        async def scenario():
            with emulated() as emu:
                dev, queue = await connected(emu.port)
                getattr(emu.outgoing, knob)(1, types={p.CARD_DRAWN})
                for _ in range(3):
                    emu.draw()
                assert [(await expect(queue, p.CardDrawn)).card for _ in range(3)] == list(CARDS[:3])
                assert await quiet(queue) == []
                await dev.close()
        arun(scenario())

    def test_an_automated_shoe_on_the_port_is_incompatible(self, arun):
        async def scenario():
            with ShoeEmulator(list(CARDS)) as emu:
                queue: asyncio.Queue = asyncio.Queue()
                dev = ManualShoeDevice(emu.port, queue, timing=FAST_RECONNECT)
                await dev.start()
                status = await expect_status(queue, LinkState.INCOMPATIBLE)
                assert "dealing shoe" in status.detail and "not a manual shoe" in status.detail
                await dev.close()
        arun(scenario())
