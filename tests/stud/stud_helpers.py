"""Helpers of the Caribbean stud tests: the shared cases, records and cards written briefly."""

from __future__ import annotations

import json
from pathlib import Path

from controller.cards import parse_cards

DATA = Path(__file__).resolve().parents[1] / "data" / "settle"


def stud_cases() -> list[Path]:
    """The shared example cases of this game (tests/data is a copy of shared/cases)."""
    paths = []
    for path in sorted(DATA.glob("*.json")):
        if json.loads(path.read_text())["record"].get("game") == "caribbean-stud":
            paths.append(path)
    return paths


def cards(text: str):
    return parse_cards(text.split())


def seat(number: int, ante: int, hand: str, decision: str | None = "bet", progressive: bool = False) -> dict:
    s: dict = {"seat": number, "ante": ante, "cards": hand.split()}
    if decision is not None:
        s["decision"] = decision
    if progressive:
        s["progressive"] = True
    return s


def record(dealer: str, *seats: dict, **rules) -> dict:
    r: dict = {"game": "caribbean-stud", "dealer": dealer.split(), "seats": list(seats)}
    if rules:
        r["rules"] = rules
    return r


def by_seat(output: dict) -> dict[int, dict]:
    return {s["seat"]: s for s in output["seats"]}
