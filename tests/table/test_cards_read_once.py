"""A card is read once, where it enters the table, and reaches the round machine as that `Card`.

Issue 27: a dealt card was parsed from text three times between the driver and the machine (the
boundary's pattern, the round at the table, the machine) and formatted back twice (devices.py, the
round at the table). Now the shoe's driver reads it from its frame, and the Card goes through
controller/runtime/devices.py, the boundary, the round at the table and the machine untouched; a
screen's card is read once, by the boundary. It is written as text only for the journal (whose bytes
are as before: "Qh") and the view.
"""

from __future__ import annotations

import asyncio
import sys

from controller import boundary, cards
from controller.games.caribbean_stud import events as stud_events
from controller.games.caribbean_stud.at_table import StudRound
from controller.games.caribbean_stud.machine import CaribbeanStudRound
from controller.journal.store import Journal
from controller.runtime.world import World
from drivers.shoe import protocol as sp
from tests.table.table_helpers import running, stacked_deck, stud_opening, stud_profile, until
from tests.rounds import apply

SEAT1, DEALER = "As Ks Qs Js Ts", "2c 7d 9h 4s 3c"


def _count_parses(monkeypatch) -> list[object]:
    """Every call of parse_card, wherever a module holds it (by the module's name or its own import)."""
    calls: list[object] = []
    original = cards.parse_card

    def counted(token: object) -> cards.Card:
        calls.append(token)
        return original(token)
    for module in list(sys.modules.values()):
        if getattr(module, "parse_card", None) is original:
            monkeypatch.setattr(module, "parse_card", counted)
    return calls


def test_a_card_out_of_the_shoe_reaches_the_machine_as_the_drivers_card_unparsed(tmp_path, monkeypatch):
    deck = stacked_deck(SEAT1, DEALER)
    monkeypatch.setattr(World, "_deck_to_shoe", lambda self, _: self.shoe.load(deck))
    read: list[cards.Card] = []             # the cards the shoe's driver read from its frames
    parse_event = sp.parse_event

    def reading(frame):
        message = parse_event(frame)
        if isinstance(message, sp.CardDispensed):
            read.append(message.card)
        return message
    monkeypatch.setattr(sp, "parse_event", reading)
    stacks: list[list[object]] = []          # what the machine was handed, stack by stack
    do_stack = CaribbeanStudRound._do_stack

    def handed(self, plan):
        stacks.append(list(plan))
        return do_stack(self, plan)
    monkeypatch.setattr(CaribbeanStudRound, "_do_stack", handed)

    async def scenario():
        async with running(stud_profile(), tmp_path) as table:
            await until(lambda: table.published()["round"]["id"] is not None, "the first round")
            await until(lambda: (table.published().get("deck") or {}).get("loaded")
                        and ((table.published()["deck"].get("count")) or {}).get("ok"), "the deck counted and loaded")
            assert (await table.submit({"type": "ante", "seat": 1, "amount": 1000}, source="panel"))["ok"]
            await asyncio.to_thread(table.devices.world.progressive.press_and_release_lockout)
            await until(lambda: table.published()["round"]["state"] == "no_more_bets", "the lock-out")
            parses = _count_parses(monkeypatch)
            assert (await table.submit({"type": "deal"}, source="panel"))["ok"]
            await until(lambda: table.published()["round"]["state"] == "decisions", "the deal", timeout=30)
            return parses, table.published()
    parses, view = asyncio.run(asyncio.wait_for(scenario(), 90))

    assert parses == []                                           # ten cards dealt, none parsed
    assert [str(c) for c in read] == (SEAT1 + " " + DEALER).split()
    assert [type(c) for stack in stacks for c in stack] == [cards.Card] * 10
    assert [c for stack in stacks for c in stack] == read          # the driver's cards, in its order
    assert all(a is b for a, b in zip([c for stack in stacks for c in stack], read, strict=True))
    assert view["seats"][0]["cards"] == SEAT1.split()              # text for the view
    with Journal.open(tmp_path, readonly=True) as j:
        journaled = [e.payload["event"]["card"] for e in j.entries_since(0)
                     if e.kind == "event" and e.payload["event"]["type"] == "shoe_card"]
    assert journaled == (SEAT1 + " " + DEALER).split()            # text for the journal, as before


def test_a_card_keyed_on_the_screen_is_read_once_by_the_boundary(monkeypatch):
    r = StudRound(stud_opening(dealing="manual"))
    for e in ({"type": "ante", "seat": 1, "amount": 1000}, {"type": "no_more_bets"}):
        apply(r, e)
    parses = _count_parses(monkeypatch)
    got: list[object] = []
    check_card = CaribbeanStudRound._check_card

    def checked(self, e):
        got.append(e.card)
        return check_card(self, e)
    monkeypatch.setattr(CaribbeanStudRound, "_check_card", checked)
    keyed = {"type": "card", "card": "Qh"}                         # as the dealer's screen posts it
    event = boundary.admitted(keyed, boundary.PANEL, "dealer", lambda source: stud_events.EVENTS.get(source, {}))
    assert isinstance(event, stud_events.DealtCard) and type(event.card) is cards.Card   # the boundary's model
    r.apply(event)                                                 # as the table hands it
    assert parses == ["Qh"]                                        # once, by the boundary
    assert got == [event.card] and got[0] is event.card            # the machine has the boundary's Card
    assert boundary.as_text(event) == keyed                        # and the journal the text as typed
