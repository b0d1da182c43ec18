"""Casino war's manual dealing shoe at the table (5324.22(d)): its reports become the round's events,
its troubles the dealer's alarms, and the table never asks it to dispense."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.cards import parse_card
from controller.config import load_profile
from controller.runtime.devices import DeviceSet, alarm_for, cleared_by, table_events
from drivers.manual_shoe import protocol as ms
from drivers.manual_shoe.device import ManualShoeDevice

ROOT = Path(__file__).resolve().parents[2]


def test_the_manual_shoes_reports_are_the_rounds_events():
    drawn = ms.CardDrawn(parse_card("Qh"), 4, 3)
    assert table_events(drawn, None) == [{"type": "shoe_card", "card": drawn.card}]   # the Card as the driver read it
    assert table_events(ms.CoverCardReached(5, 4), None) == [{"type": "cover_reached"}]
    assert table_events(ms.ShoeLoaded(312), None) == [{"type": "shoe_loaded", "cards": 312}]


def test_a_card_out_of_step_is_an_alarm_until_a_fresh_shoe_an_unread_one_a_touch_in():
    replay = alarm_for(ms.DrawOutOfStep(reported=3, expected=4))
    skip = alarm_for(ms.DrawOutOfStep(reported=6, expected=4))
    assert "not dealt twice" in replay["message"] and "2 card(s)" in skip["message"]
    # an unread card is no device alarm: the round keeps its place due and asks for the touch-in
    assert alarm_for(ms.CardUnread(7, 7)) is None
    assert table_events(ms.CardUnread(7, 7), None) == [{"type": "shoe_unread", "drawn": 7}]
    assert {"card_unread", "draw_out_of_step", "shoe_empty"} <= cleared_by(ms.ShoeLoaded(312))


def test_5324_22_d_the_war_table_reads_a_manual_shoe_and_never_asks_it_to_dispense(tmp_path):
    profile = load_profile(ROOT / "config" / "casino-war.toml")
    devices = DeviceSet(profile, asyncio.Queue(), data_dir=tmp_path, seed=1)
    assert isinstance(devices.shoe, ManualShoeDevice) and not devices.dispenses
    with pytest.raises(RuntimeError, match="never asked to dispense"):
        asyncio.run(devices.dispense(1))


def test_at_an_emulated_table_played_from_the_screens_the_emulated_hand_draws_each_card_named(tmp_path):
    """A person at the screens of an emulated table has no shoe in reach: the emulated dealer's hand
    draws each card the step names (5324.22(h)(2)); the person only clicks."""
    from controller.table import Table

    async def scenario():
        table = Table(load_profile(ROOT / "config" / "casino-war.toml"), data_dir=tmp_path / "d", seed=5,
                      screen=False, hand=True)
        await table.start()
        try:
            async def until(pred, what):
                for _ in range(400):
                    if pred(table.published()):
                        return
                    await asyncio.sleep(0.025)
                raise AssertionError(f"gave up waiting for {what}")
            await until(lambda s: s["round"]["state"] == "wagers", "the first round open")
            for event in ({"type": "wager", "seat": 1, "wager": "initial", "stake": 1000},
                          {"type": "no_more_bets"}, {"type": "deal"}):
                assert (await table.submit(event, source="panel"))["ok"]
            await until(lambda s: s["round"]["state"] in ("first_settle", "decisions"), "the deal drawn")
            view = table.published()
            assert len(view["seats"][0]["cards"]) == 1 and len(view["dealer"]["cards"]) == 1
            assert view["shoe"]["dispensed"] == 3       # the burn, seat 1, the dealer: each drawn once
        finally:
            await table.close()
    asyncio.run(scenario())


def test_a_card_the_shoe_could_not_read_is_touched_in_by_the_dealer_in_the_place_still_due(tmp_path):
    """The reader fails on seat 1's card: the place stays due, the console offers the touch-in for
    that card, the emulated hand draws no other; the card the dealer touches in goes to seat 1,
    journaled as touched in (the dealer's "card"), not read; the alarm goes with it."""
    from controller.table import Table

    async def scenario():
        table = Table(load_profile(ROOT / "config" / "casino-war.toml"), data_dir=tmp_path / "d", seed=5,
                      screen=False, hand=True)
        await table.start()
        try:
            async def until(pred, what):
                for _ in range(400):
                    if pred(table.published()):
                        return
                    await asyncio.sleep(0.025)
                raise AssertionError(f"gave up waiting for {what}")
            await until(lambda s: s["round"]["state"] == "wagers", "the first round open")
            shoe = table.devices.world.shoe
            burn = table.published()["shoe"]["burn"]
            for event in ({"type": "wager", "seat": 1, "wager": "initial", "stake": 1000},
                          {"type": "no_more_bets"}):
                assert (await table.submit(event, source="panel"))["ok"]
            shoe.unreadable(1 + burn)         # the burn card (if due) and seat 1's card: not read
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            for k in range(1 + burn):
                await until(lambda s: s["round"]["touch_in"], "the touch-in offered for the unread card")
                view = table.published()
                place = "burn" if k < burn else "seat"
                assert view["round"]["draw"]["to"] == place
                assert [a["kind"] for a in view["alarms"]] == ["card_unread"]
                assert "touch it in" in view["round"]["next_step"]
                drawn = view["shoe"]["dispensed"]
                await asyncio.sleep(0.1)          # the emulated hand draws no card while the place is due
                assert table.published()["shoe"]["dispensed"] == drawn
                card = str(shoe._cards[drawn - 1])
                refused = await table.submit({"type": "shoe_card", "card": "2s"}, source="device")
                assert not refused["ok"]          # no read card takes the unread card's place
                assert (await table.submit({"type": "card", "card": card}, source="panel"))["ok"]
                view = table.published()
                assert not view["alarms"]
                if place == "seat":
                    assert view["seats"][0]["cards"] == [card]
            await until(lambda s: s["round"]["state"] in ("first_settle", "decisions"), "the deal drawn")
            view = table.published()
            assert view["shoe"]["dispensed"] == 2 + burn and len(view["dealer"]["cards"]) == 1
            entries = table.journal.round_entries(view["round"]["id"])
            events = [(e.payload["event"]["type"], e.payload["source"]) for e in entries if e.kind == "event"]
            assert events.count(("shoe_unread", "device")) == 1 + burn
            assert events.count(("card", "panel")) == 1 + burn
            assert events.count(("shoe_card", "device")) == 1       # the dealer's card, read
        finally:
            await table.close()
    asyncio.run(scenario())
