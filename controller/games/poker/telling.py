"""A poker hand in words, for `tablectl rounds show` (issue 30): a reader who never saw the table
reads who sat where, what each seat did and who took each pot, never PHH's p1..pn.

The words come from the hand replayed from its PHH record by the same engine that played it
(controller/poker), so a check is told from a call and a bet from a raise by the chips in front
of each player at that moment, not guessed from the notation. The record's `seats` (or PHH's own
`seats` field) says which seat each player sat at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.journal.readback import money
from controller.poker.actions import (BET_RAISE, BRING_IN, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, DISCARD, DRAW, FOLD,
                                      SHOW, SHOW_KNOWN, Action, cards_text)
from controller.poker.hand import Hand
from controller.poker.phh import loads


def _cards(cards: Any) -> str:
    text = cards_text(cards)
    return " ".join(text[i:i + 2] for i in range(0, len(text), 2))


def seats_of(record: Mapping[str, Any], players: int) -> list[int]:
    """The seat of each player, p1 first: the record's, else the PHH's, else 1..n."""
    seats = record.get("seats")
    if isinstance(seats, list) and len(seats) == players and all(isinstance(s, int) for s in seats):
        return list(seats)
    return list(range(1, players + 1))


def action_words(hand: Hand, action: Action, seat: Sequence[int]) -> str:
    """One action in words, told from the hand as it stood just before it."""
    kind, player = action.kind, action.player
    who = f"Seat {seat[player]}" if isinstance(player, int) and 0 <= player < len(seat) else "The dealer"
    if kind == DEAL_HOLE:
        return f"The dealer deals seat {seat[player]} {_cards(action.cards)}" if isinstance(player, int) \
            else f"The dealer deals {_cards(action.cards)}"
    if kind == DEAL_BOARD:
        return f"The dealer deals the board {_cards(action.cards)}"
    if kind == FOLD:
        return f"{who} folds"
    if kind == CHECK_CALL:
        assert isinstance(player, int)
        owed = max(hand.bets) - hand.bets[player]
        if owed <= 0:
            return f"{who} checks"
        paid = min(owed, hand.stacks[player])
        return f"{who} calls {money(paid)}" + (" (all-in)" if paid == hand.stacks[player] else "")
    if kind == BET_RAISE:
        assert isinstance(player, int) and action.amount is not None
        verb = "raises to" if max(hand.bets) > 0 else "bets"
        all_in = action.amount - hand.bets[player] >= hand.stacks[player]
        return f"{who} {verb} {money(action.amount)}" + (" (all-in)" if all_in else "")
    if kind == BRING_IN:
        return f"{who} brings it in for {money(hand.setup.bring_in)}"
    if kind == DRAW:
        n = len(action.cards) if isinstance(action.cards, tuple) else 0
        return f"{who} discards {n} and draws" if n else f"{who} stands pat"
    if kind == DISCARD:
        return f"{who} discards {_cards(action.cards)}"
    if kind == SHOW:
        if action.cards is None:
            return f"{who} mucks"
        return f"{who} shows" + ("" if action.cards == SHOW_KNOWN else f" {_cards(action.cards)}")
    return f"{who}: {action.notation()}"   # an irregularity of 5324.42(p), in the hand's own notation


def record_words(record: Mapping[str, Any]) -> list[str]:
    """The lines of a settled hand: the seats, every action, the pots and the stacks after."""
    phh = loads(str(record["phh"]))
    setup = phh.setup
    seat = seats_of(record, setup.players) if "seats" in record else seats_of(phh.fields, setup.players)
    lines = [f"{setup.variant.name}: seats " + ", ".join(
        f"{s} ({money(stack)})" for s, stack in zip(seat, setup.starting_stacks, strict=True))]
    forced = [f"seat {s} {money(b)}" for s, b in zip(seat, setup.blinds, strict=True) if b]
    antes = [f"seat {s} {money(a)}" for s, a in zip(seat, setup.antes, strict=True) if a]
    if forced:
        lines.append("Blinds: " + ", ".join(forced))
    if antes:
        lines.append("Antes: " + ", ".join(antes))
    hand = Hand(setup)
    for action in phh.actions:
        if action is None:
            continue
        lines.append("  " + action_words(hand, action, seat))
        hand.apply(action)
    if not hand.finished:
        hand.finish()
    result = hand.result
    if result is None:
        return lines + ["The hand did not end."]
    if result.void:
        lines.append(f"The hand was void ({result.void}): every chip went back.")
    for i, pot in enumerate(result.pots):
        name = "Main pot" if i == 0 else f"Side pot {i}"
        takers = ", ".join(f"seat {seat[p]} takes {money(c)}" for p, c in sorted(pot.awards.items()) if c)
        eligible = ", ".join(str(seat[p]) for p in pot.eligible)
        taken = f", rake {money(pot.rake)}" + (f", jackpot drop {money(pot.jackpot)}" if pot.jackpot else "")
        lines.append(f"{name} {money(pot.amount)} (seats {eligible}{taken}): {takers or 'nobody takes it'}")
    lines.append(f"Rake {money(result.rake)}; jackpot drop {money(result.jackpot_drop)}")
    lines.append("Stacks after: " + ", ".join(
        f"seat {s} {money(stack)}" for s, stack in zip(seat, result.finishing_stacks, strict=True)))
    return lines


def event_words(opening: Mapping[str, Any] | None, event: Mapping[str, Any]) -> str | None:
    """A journaled hand event in words, by seat (the opening's `order` maps p1..pn to seats);
    None for an event the hand's record does not tell (the journal line says it as it is)."""
    text = event.get("action")
    if event.get("type") != "action" or not isinstance(text, str):
        return _dealer_words(event)
    order = (opening or {}).get("order")
    seats = list(order) if isinstance(order, list) else []

    def seat(m: Any) -> str:
        i = int(m.group(1)) - 1
        return f"seat {seats[i]}" if 0 <= i < len(seats) else m.group(0)

    import re
    words = {"f": "folds", "cc": "checks or calls", "pb": "brings it in", "sm -": "shows", "sm": "mucks",
             "sd": "stands pat"}
    m = re.fullmatch(r"p(\d+) (\S+)(?: (\S+))?", text)
    if m:
        kind, arg = m.group(2), m.group(3)
        if kind == "cbr" and arg is not None and arg.isdigit():
            said = f"bets or raises to {money(int(arg))}"
        elif kind == "sm" and arg not in (None, "-"):
            said = f"shows {_cards_str(arg)}"
        elif kind == "sd" and arg is not None:
            said = f"discards {_cards_str(arg)} and draws"
        else:
            said = words.get(kind if arg is None else f"{kind} {arg}") or m.group(0)[len(m.group(1)) + 2:]
        return f"{seat(m).capitalize()} {said}"
    m = re.fullmatch(r"d dh p(\d+) (\S+)", text)
    if m:
        return f"the dealer deals {seat(m)} {_cards_str(m.group(2))}"
    m = re.fullmatch(r"d db (\S+)", text)
    if m:
        return f"the dealer deals the board {_cards_str(m.group(1))}"
    return re.sub(r"p(\d+)", seat, text)


def _cards_str(text: str) -> str:
    return " ".join(text[i:i + 2] for i in range(0, len(text), 2))


def _dealer_words(event: Mapping[str, Any]) -> str | None:
    """An event of the dealer's console (controller/games/poker/contract.py) in words."""
    kind, seat, amount = event.get("type"), event.get("seat"), event.get("amount")
    who = f"Seat {seat}" if isinstance(seat, int) else None
    cents = money(amount) if isinstance(amount, int) and not isinstance(amount, bool) else None
    cards = event.get("cards")
    shown = " ".join(str(c) for c in cards) if isinstance(cards, list) else ""
    said = {
        "sit": f"sits down with {money(event['stack'])}" if isinstance(event.get("stack"), int) else None,
        "top_up": f"adds {cents}" if cents else None, "sit_out": "sits out", "sit_in": "sits in again",
        "leave": "leaves the table", "straddle": "straddles", "fold": "folds", "check_call": "checks or calls",
        "bring_in": "brings it in", "bet_raise": f"bets or raises to {cents}" if cents else None,
        "draw": (f"discards {event.get('count')} and draws" if event.get("count") else "stands pat"),
        "discard": f"discards {event.get('count')}", "show": f"shows {shown}".rstrip(), "muck": "mucks",
    }.get(str(kind))
    if who is not None and said is not None:
        return f"{who} {said}"
    if kind == "deal_hole":
        up = event.get("up") or {}
        face = "; ".join(f"seat {s} up {' '.join(map(str, c))}" for s, c in up.items()) if isinstance(up, dict) else ""
        return "The dealer deals the hole cards" + (f" ({face})" if face else "")
    if kind == "deal_board":
        return f"The dealer deals the board {shown}"
    return None
