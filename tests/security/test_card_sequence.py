"""Cards checked, not trusted (issue 15): a live Table on emulated devices, through the real drivers.

The break: a faulty shoe that replays an old card frame under a new SEQ had it
taken as a new card; the cards after it shifted seats and the round settled on
the wrong hands, with a journal that verified. Here the emulated shoe replays,
in the second round, a card of the first round's deck (the `replay` fault
knob of drivers/sim/faults.py): the round must refuse it, the dealer must see
the alarm, and every hand must be the cards the shoe really dealt to it.
"""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

from controller.config import load_profile
from controller.games.caribbean_stud.deal import DEALER as DEALER_SEAT
from controller.journal.store import Journal
from controller.runtime.world import World
from drivers.shoe import protocol as sp
from tests.table import table_helpers
from tests.table.table_helpers import deck_ready, stacked_deck

STUD = Path(__file__).resolve().parents[1] / "crash" / "stud.toml"
SEAT_1, SEAT_3, DEALER = "2c 2d 5h 9s Kc", "Ah Ad 4c 7s 8d", "Ac Kd 8c 5d 3h"
until = partial(table_helpers.until, timeout=20.0)


def hands(table) -> dict:
    """Each hand as the round holds it (the dealer's too, face down on the screen until revealed)."""
    held = table.state.round.m.d.hands
    return {("dealer" if seat == DEALER_SEAT else seat): " ".join(str(c) for c in cards)
            for seat, cards in held.items()}


async def play_to_the_deal(table) -> None:
    await until(lambda: deck_ready(table.published())
                and table.published()["round"]["state"] == "open", "a counted deck in the shoe")
    for seat in (1, 3):
        assert (await table.submit({"type": "ante", "seat": seat, "amount": 500}, source="panel"))["ok"]
    await asyncio.to_thread(table.devices.world.progressive.press_and_release_lockout)
    await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
    assert (await table.submit({"type": "deal"}, source="panel"))["ok"]


def test_a_replayed_old_card_is_refused_the_alarm_shows_and_the_hands_are_right(tmp_path, monkeypatch):
    deck = stacked_deck(SEAT_1, SEAT_3, DEALER)
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(deck))

    async def scenario():
        from controller.table import Table
        table = Table(load_profile(STUD), data_dir=tmp_path, screen=False)
        await table.start()
        try:
            await play_to_the_deal(table)
            await until(lambda: table.published()["round"]["state"] == "decisions", "the first deal")
            first = hands(table)
            for step in ({"type": "decision", "seat": 1, "decision": "bet"},
                         {"type": "decision", "seat": 3, "decision": "bet"}, {"type": "reveal"}, {"type": "settle"}):
                assert (await table.submit(step, source="panel"))["ok"], step
            await until(lambda: table.published()["round"]["state"] == "closed", "the first round closed")
            assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]

            # Round two: after three of its cards, the shoe sends the first round's 13th card again
            # (the dealer's third card, 8c) as if it were new: an old frame under a new SEQ.
            shoe = table.devices.world.shoe
            shoe.outgoing.replay(1, types={sp.CARD_DISPENSED}, back=6, after=3)
            await play_to_the_deal(table)
            await until(lambda: table.published()["round"]["state"] == "decisions", "the second deal")
            await until(lambda: shoe.outgoing.replayed == 1, "the replay")
            return first, hands(table), table.published(), shoe.dealt(), getattr(table.devices.shoe, "refused", None)
        finally:
            await table.close()

    first, second, view, dealt, refused = asyncio.run(asyncio.wait_for(scenario(), 90))
    expected = {1: SEAT_1, 3: SEAT_3, "dealer": DEALER}
    assert first == expected
    assert second == expected                         # the cards the shoe dealt to each, no shift
    assert dealt == SEAT_1.split() + SEAT_3.split() + DEALER.split()
    assert refused == 1
    alarms = [a for a in view["alarms"] if a.get("condition") == "card_replayed"]
    assert alarms and "not dealt again" in alarms[0]["message"]
    with Journal.open(tmp_path, readonly=True) as j:
        entries = list(j.entries_since(0))
    shoe_cards = [e.payload["event"]["card"] for e in entries
                  if e.kind == "event" and e.payload["event"]["type"] == "shoe_card"]
    assert shoe_cards == dealt * 2                          # the replayed card was never journaled as dealt
    assert any(e.kind == "alarm" and e.payload.get("condition") == "card_replayed" for e in entries)


def test_cards_out_of_step_stop_the_deal_until_the_round_is_voided(tmp_path, monkeypatch):
    """A shoe whose cards come out of order (a card's place skipped): the box takes no more of
    its cards for the round, as the dealer's alarm says, rather than asking the shoe for the
    round's cards again every few seconds (each one pushed onto the layout and refused). The
    supervisor voids the round; the next counted deck deals as before."""
    import controller.runtime.workers as workers
    monkeypatch.setattr(workers, "STALL", 0.05)   # a stalled request would be asked again at once
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(stacked_deck(SEAT_1, SEAT_3, DEALER)))

    def missed(table) -> bool:
        return any(a.get("condition") == "cards_missed" for a in table.published()["alarms"])

    async def scenario():
        from controller.table import Table
        table = Table(load_profile(STUD), data_dir=tmp_path, screen=False)
        await table.start()
        try:
            shoe = table.devices.world.shoe
            shoe.outgoing.reorder(1, types={sp.CARD_DISPENSED}, after=3)   # the 5th card before the 4th
            await play_to_the_deal(table)
            await until(lambda: missed(table), "the cards-missed alarm")
            await until(lambda: len(shoe.dealt()) % 5 == 0, "the stack of five the table asked for")
            stopped, before_wait = table.published(), len(shoe.dealt())
            # the dealer's worker runs at least once a second: give it several turns to ask again
            for _ in range(3):
                table.workers.wake()
                await asyncio.sleep(1.0)
            after_wait = len(shoe.dealt())
            void = await table.submit({"type": "void_round", "reason": "cards out of step"},
                                      source="supervisor", who="S-3")
            assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]
            await play_to_the_deal(table)
            await until(lambda: table.published()["round"]["state"] == "decisions", "the next round's deal")
            return stopped, before_wait, after_wait, void, hands(table), table.published()
        finally:
            await table.close()

    stopped, before_wait, after_wait, void, dealt_hands, view = asyncio.run(asyncio.wait_for(scenario(), 120))
    assert stopped["round"]["state"] == "no_more_bets"        # dealing, and stopped: not settled on a guess
    assert 0 < before_wait == after_wait < 15                 # no card asked of the shoe after the alarm
    assert void["ok"], void
    assert dealt_hands == {1: SEAT_1, 3: SEAT_3, "dealer": DEALER}   # a counted deck deals again
    assert not any(a.get("condition") == "cards_missed" for a in view["alarms"])
