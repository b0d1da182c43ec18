"""Shared by the table tests: openings, decks stacked to deal chosen hands, a running table."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from controller.cards import CARDS, parse_card, parse_cards
from controller.config import load_profile
from controller.games.caribbean_stud.machine import new_meter
from controller.games.caribbean_stud.record import read_rules
from tests.software_hashes import seed_software_hashes
from tests.rounds import apply

HERE = Path(__file__).resolve().parent
STUD = HERE.parent / "crash" / "stud.toml"
WAR = HERE.parent / "crash" / "war.toml"


def stud_profile():
    return load_profile(STUD)


def war_profile():
    return load_profile(WAR)


def stud_opening(round_id: str = "T-000001", meter: int = 2_500_000, carry: int = 0, dealing: str = "automated",
                 seats: int = 7) -> dict:
    p = stud_profile()
    rules_record = p.record_rules(meter)
    rules, _ = read_rules(rules_record)
    return {"round": round_id, "number": 1, "game": "caribbean-stud", "seats": seats, "rules": rules_record,
            "meter": new_meter(rules, meter, carry).to_dict(), "dealing": dealing, "ante_limits": [500, 50000]}


def war_opening(round_id: str = "W-000001", dispensed: int = 0, burn_due: bool = True,
                cover_out: bool = False) -> dict:
    return {"round": round_id, "number": 1, "game": "casino-war", "seats": 7,
            "rules": {"decks": 6, "tie_odds": 10, "war_odds": 2, "war_tie_odds": 3},
            "shoe": {"dispensed": dispensed, "burn_due": burn_due, "cover_out": cover_out},
            "wager_limits": [500, 100000]}


def stacked_deck(*hands: str) -> list[int]:
    """A deck whose first cards are `hands` (space-separated), in order, then the rest."""
    first = parse_cards(" ".join(hands).split())
    return [int(c) for c in first] + [int(c) for c in CARDS if c not in first]


def deal_stacks(r, *hands: str) -> list[dict]:
    """Feed the automated shoe's cards of `hands` (one per recipient, in dealing order) to round `r`."""
    effects = []
    for hand in hands:
        for card in hand.split():
            effects += apply(r, {"type": "shoe_card", "card": parse_card(card)})   # as the shoe's driver reads it
    return effects


@contextlib.asynccontextmanager
async def running(profile, data_dir: Path, **options):
    from controller.table import Table
    seed_software_hashes(Path(data_dir))   # the installed files hashed once a session, not once a start
    table = Table(profile, data_dir=data_dir, screen=False, **options)
    await table.start()
    try:
        yield table
    finally:
        await table.close()


async def until(predicate, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.01)


def deck_ready(view: dict) -> bool:
    """The round's deck counted 52 and in the shoe, so no shuffle of it is still on its way.

    The shoe's load can come before the shuffler's count: a test that goes on at "loaded" alone
    deals before the count (the deal is refused) or asks for a reshuffle that the old shuffle's
    count then answers (the new deck is never asked for). Both happened on a busy 2-core box."""
    deck = view.get("deck") or {}
    return bool(deck.get("loaded") and (deck.get("count") or {}).get("ok"))
