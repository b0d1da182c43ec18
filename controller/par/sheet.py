"""A table profile's par sheet: the exact figures of its game, as JSON-ready data.

Every exact figure is `{"numerator": N, "denominator": D, "percent": P}` (P rounded
to four places for reading; the fraction is the figure). A sheet is cached under
the rules that determine it (cache.py), so the screens and `config check` can
show it without computing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from controller.games import registry
from controller.par import cache

if TYPE_CHECKING:
    from controller.config.profiles import GameProfile
    from controller.games.game import Json
    from controller.par.hold import Unit


def exact(value: Fraction) -> dict:
    value = Fraction(value)
    return {"numerator": value.numerator, "denominator": value.denominator,
            "percent": round(float(value * 100), 4)}


def fraction(figure: dict) -> Fraction:
    return Fraction(figure["numerator"], figure["denominator"])


def pct(figure: dict) -> str:
    """An exact figure as `tablectl par` prints it: a percent to four places."""
    return f"{figure['percent']:.4f}%"


def dollars(cents: int | None) -> str:
    """Cents as `tablectl par` prints them; None (no limit) as "none"."""
    if cents is None:
        return "none"
    return f"${cents // 100:,}.{cents % 100:02d}"


def rules_of(profile) -> dict:
    """What determines the sheet of this profile (and nothing that names the table)."""
    return {"game": profile.game, **sheet_of(profile.game).rules(profile)}


def cached(profile) -> dict | None:
    """The profile's sheet if it is in the cache; never computes."""
    return cache.load_json(cache.key("sheet", rules_of(profile)))


def compute(profile) -> dict:
    """The profile's sheet, from the cache or computed (and then cached)."""
    return compute_rules(rules_of(profile))


def compute_rules(rules: dict) -> dict:
    """The sheet of these rules (`rules_of`), from the cache or computed (and then cached)."""
    stem = cache.key("sheet", rules)
    found = cache.load_json(stem)
    if found is not None:
        return found
    out = sheet_of(rules["game"]).compute(rules)
    cache.store_json(stem, out)
    return out


def check_line(profile) -> str | None:
    """What `tablectl config check` says of a profile whose sheet is cached: its edge beside the floor's."""
    s = cached(profile)
    if s is None:
        return None
    return sheet_of(s["game"]).check(s)


# --- how each game's sheet is made: its books' `par` (controller/games/game.py BooksPart) ------

@dataclass(frozen=True)
class GameSheet:
    """How a game's par sheet is made: the rules that determine it, the sheet, its line for `config check`,
    how `tablectl par` prints it and the supervisor's screen shows it, and (a long first count) whether that count is cached yet and what
    `tablectl par` says while it counts. Each game's books give theirs (games/<game>/par_sheet.py)."""

    rules: Callable[[GameProfile], dict[str, Json]]
    compute: Callable[[dict[str, Json]], dict[str, Json]]
    check: Callable[[dict[str, Json]], str]
    render: Callable[[dict[str, Json]], list[str]]   # the lines `tablectl par` prints
    # the supervisor's screen of it (controller/ui/static/par.js draws each block as it comes): a block
    # is {"rows": [[label, exact figure, test id], ...]}, {"text": ..., "test": id or None} or
    # {"head": [...], "cells": [[...], ...]}
    screen: Callable[[dict[str, Json]], list[dict[str, Json]]]
    counted: Callable[[], bool] | None = None
    counting: str = ""                               # what `tablectl par` says before that long count
    # a table the package ships, counted again (`tablectl par --recount`): the recounted bytes and the
    # shipped ones; None: the game ships no counted table
    recount: Callable[[], tuple[bytes, bytes]] | None = None
    # the wagers the sheet prices for holding a period against par (controller/par/hold.py), by the
    # wager a round's fact names; None: the game has no banked wager to hold (poker's house takes a rake)
    units: Callable[[dict[str, Json]], Mapping[str, Unit]] | None = None


def sheet_of(game: str) -> GameSheet:
    """The sheet of a profile's (or a sheet's) `game`: its game's books' `par`."""
    return registry.game(game).books.par
