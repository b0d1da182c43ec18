"""Shared helpers of the casino war tests (tests.war.war_helpers)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

from controller.cards import CARDS, parse_card
from controller.games.casino_war.shoe import WarShoe

DATA = Path(__file__).resolve().parents[1] / "data" / "settle"

# The spec's own example (shared/spec/rounds.md, casino war: Input and Output).
SPEC_RECORD = {
    "game": "casino-war",
    "rules": {"decks": 6, "tie_odds": 10, "war_odds": 2, "war_tie_odds": 3},
    "dealer": {"card": "Qh", "war_card": "5c"},
    "seats": [
        {"seat": 1, "initial": 1000, "tie": 100, "card": "Qs",
         "decision": "war", "war_tie": 100, "war_card": "Kd"},
        {"seat": 2, "initial": 500, "card": "9c"},
        {"seat": 3, "initial": 1000, "card": "Qd", "decision": "surrender"},
    ],
}
SPEC_OUTPUT = {
    "game": "casino-war",
    "dealer": {"card": "Qh", "war_card": "5c"},
    "seats": [
        {"seat": 1, "card": "Qs", "war_card": "Kd",
         "initial": {"stake": 1000, "outcome": "lose", "net": -1000},
         "tie": {"stake": 100, "outcome": "win", "net": 1000},
         "war": {"stake": 1000, "outcome": "win", "net": 2000},
         "war_tie": {"stake": 100, "outcome": "lose", "net": -100}},
        {"seat": 2, "card": "9c",
         "initial": {"stake": 500, "outcome": "lose", "net": -500}},
        {"seat": 3, "card": "Qd",
         "initial": {"stake": 1000, "outcome": "surrender", "net": -500}},
    ],
    "burned": [],
}


def war_cases() -> list[Path]:
    """The shared casino war cases (tests/data/settle is a copy of shared/cases/settle)."""
    out = []
    for path in sorted(DATA.glob("*.json")):
        if json.loads(path.read_text())["record"].get("game") == "casino-war":
            out.append(path)
    return out


def spec_record() -> dict:
    return copy.deepcopy(SPEC_RECORD)


def stacked_shoe(top: list[str], decks: int = 6, cover_at: int | None = None) -> WarShoe:
    """A full shoe whose first cards are `top` (the rest in a fixed order)."""
    wanted = [parse_card(c) for c in top]
    rest = Counter({c: decks for c in CARDS})
    rest.subtract(wanted)
    assert min(rest.values()) >= 0, "more copies of a card than the shoe holds"
    cards = wanted + [c for c in CARDS for _ in range(rest[c])]
    return WarShoe(cards, len(cards) - 1 if cover_at is None else cover_at, decks)
