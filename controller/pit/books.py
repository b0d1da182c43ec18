"""The table's books as every casino's internal controls keep them, read and checked: pure.

A chip tray is counted in (the opener) and out (the closer) by denomination; chips come from the cage in
a fill and go back in a credit, each signed by the supervisor and by the person who carries it (the
runner, or the cage cashier) — two different people; the cash a player changes for chips at the table goes
into the drop box (a buy-in, keyed by the dealer), and the count room counts the box afterwards (the drop,
two signers). From them the count room computes the table's win,

    win = closer - opener + credits - fills + drop,

and its hold, win / drop. The box already knows the win another way, from every settlement it paid (the
measured win): the two are held side by side so that a fill not recorded, chips walked or a count
mistaken shows as their difference.

Each act is one journal entry of kind `pit` (the table's own, or `tablectl pit` on a stopped table);
its payload is what `act` returns here, so the screen, the command and the readers take one shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# The chips a tray holds, in cents: what an inventory, a fill or a credit may count.
DENOMINATIONS = (25, 50, 100, 250, 500, 2_500, 10_000, 50_000, 100_000, 500_000, 1_000_000)
INVENTORIES = ("opener", "closer")
TRANSFERS = ("fill", "credit")
ACTS = (*INVENTORIES, *TRANSFERS, "buy-in", "drop")
MAX_CHIPS = 10_000           # chips of one denomination in one count (the boundary's Count): more is a slip
MAX_CENTS = 10**11
MAX_TEXT = 200


class BooksRefused(ValueError):
    """An act the books do not take, and why (the screen and the command say it as it is)."""


def chips_of(chips: Any) -> dict[str, int]:
    """A count by denomination ({"2500": 40} is forty $25 chips), every key a denomination, every count
    whole, at least one chip; keys in order of value."""
    if not isinstance(chips, Mapping) or not chips:
        raise BooksRefused("chips: a count by denomination in cents, e.g. {\"2500\": 40}")
    out: dict[int, int] = {}
    for key, count in chips.items():
        try:
            denom = int(str(key))
        except ValueError:
            raise BooksRefused(f"chips: {key!r} is not a denomination in cents") from None
        if denom not in DENOMINATIONS:
            raise BooksRefused(f"chips: {denom} cents is no chip this tray holds "
                               f"({', '.join(str(d) for d in DENOMINATIONS)})")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_CHIPS:
            raise BooksRefused(f"chips: {denom}: a count of 0 to {MAX_CHIPS} chips")
        if count:
            out[denom] = out.get(denom, 0) + count
    if not out:
        raise BooksRefused("chips: at least one chip")
    return {str(d): out[d] for d in sorted(out)}


def value(chips: Mapping[str, int]) -> int:
    """The cents a count of chips is worth."""
    return sum(int(d) * n for d, n in chips.items())


def _text(name: str, text: Any, *, required: bool = True) -> str:
    if text is None and not required:
        return ""
    if not isinstance(text, str) or (required and not text.strip()) or len(text) > MAX_TEXT:
        raise BooksRefused(f"{name}: {'required, ' if required else ''}at most {MAX_TEXT} characters")
    return text.strip()


def _cents(name: str, amount: Any) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < amount <= MAX_CENTS:
        raise BooksRefused(f"{name}: whole cents, more than 0")
    return amount


def act(kind: str, fields: Mapping[str, Any], by: str, *, source: str) -> dict[str, Any]:
    """The journaled payload of one act of the books, or BooksRefused saying what is wrong.

    `by` is the signed-in supervisor (the dealer on duty for a buy-in); a fill's or a credit's
    `carrier` is the runner's or cashier's badge, a drop's `second` the second supervisor: each
    someone other than `by`."""
    if kind not in ACTS:
        raise BooksRefused(f"{kind}: one of {', '.join(ACTS)}")
    out: dict[str, Any] = {"act": kind, "by": by, "source": source}
    if kind in INVENTORIES or kind in TRANSFERS:
        chips = chips_of(fields.get("chips"))
        out.update(chips=chips, amount=value(chips))
    if kind in TRANSFERS:
        carrier = _text("carrier", fields.get("carrier"))
        if carrier == by:
            raise BooksRefused(f"carrier: a {kind} is signed by two people: the one who carries it is not {by}")
        out.update(carrier=carrier, slip=_text("slip", fields.get("slip")))
    if kind == "buy-in":
        seat = fields.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 11:
            raise BooksRefused("seat: the seat whose cash was changed")
        out.update(seat=seat, amount=_cents("amount", fields.get("amount")))
    if kind == "drop":
        second = _text("second", fields.get("second"))
        if second == by:
            raise BooksRefused(f"second: the drop is signed by two supervisors: the second is not {by}")
        out.update(amount=_cents("amount", fields.get("amount")), second=second)
    note = _text("note", fields.get("note"), required=False)
    if note:
        out["note"] = note
    return out


def tally(acts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """A period's books from its acts in journal order: the first opener and the last closer (a shift
    counted more than once keeps its first count in and its last count out), fills, credits, the
    count room's drop, the buy-ins (the estimated drop), and the win and hold they give (None where a
    figure the formula needs is missing)."""
    opener = closer = None
    fills = credits = drop = estimated = 0
    counted = False
    for a in acts:
        kind, amount = a.get("act"), int(a.get("amount") or 0)
        if kind == "opener" and opener is None:
            opener = amount
        elif kind == "closer":
            closer = amount
        elif kind == "fill":
            fills += amount
        elif kind == "credit":
            credits += amount
        elif kind == "drop":
            drop += amount
            counted = True
        elif kind == "buy-in":
            estimated += amount
    win = None if opener is None or closer is None or not counted else closer - opener + credits - fills + drop
    hold = None if win is None or drop == 0 else (abs(win) * 10_000 // drop) * (-1 if win < 0 else 1)
    return {"opener": opener, "closer": closer, "fills": fills, "credits": credits, "drop": drop if counted else None,
            "estimated_drop": estimated, "win": win, "hold_bp": hold}
