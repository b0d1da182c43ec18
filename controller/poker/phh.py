"""Reading and writing hands in PHH, the poker hand history format (phh-std; docs/PHH.md).

Reading is strict: a field missing for the game, a field of another game, an amount
that is not a whole number of chips or cents, an action that is not PHH notation
are each refused by name (`small_bet: is required for FT`, `actions[3]: ...`).
The optional fields of phh-std are accepted and kept; user-defined fields start with
an underscore; this project's are `_raise_cap` (the table's cap on bets and raises a
round in fixed limit; none when absent or 0, as PHH has no cap), `_rake` (the table's rake, 5324.42(o), a
table such as `{method = "percentage", rate_bp = 1000, cap = 500}`), `_jackpot` (its jackpot,
5324.42(r)), `_kill_blind` (the player, numbered from 1, who posts the kill blind, (j)(9))
and `_chip` (the table's smallest chip, in which pots are split, (h)(9), (j)(6)(ii); 1 when absent).

`seats` (phh-std's optional field, written by the table) is the seat of each player, p1 first:
a list of distinct whole numbers from 1, one per player; the replay then answers by seat.

Amounts: whole numbers of chips or cents; a whole number written as a float (10000.0)
is that number. A file whose amounts are written in dollars and cents (581.70, as real
hand histories in dollars are) is read in whole cents (58170): every amount of the file,
its actions' included, times 100, and the replay says so (`"amounts": "cents"`).
Anything finer than a cent is refused.

Writing gives the fields in phh-std's order, the actions as the hand took them
except that the discards of a draw are written before the cards dealt for them, the
order PHH tools replay (the hand itself accepts either order).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from controller.poker.actions import DEAL_HOLE, DRAW, Action, ActionSyntaxError, format_action, parse_action
from controller.poker.errors import SetupError
from controller.poker.hand import Hand, HandSetup
from controller.poker.variants import VARIANTS, variant as find_variant

OPTIONAL_FIELDS = frozenset({
    "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time",
    "time_zone", "time_zone_abbreviation", "day", "month", "year", "hand", "level", "seats", "seat_count",
    "table", "players", "finishing_stacks", "winnings", "currency", "currency_symbol",
    "ante_trimming_status", "time_limit", "time_banks",
})
BET_FIELDS = ("bring_in", "small_bet", "big_bet", "min_bet")


@dataclass
class PHHHand:
    """A hand read from a PHH file: its set-up, its actions, and the file's other fields."""

    setup: HandSetup
    actions: list[Action | None]            # None for a no-op entry; indexes match the file's
    finishing_stacks: list[int] | None = None
    fields: dict[str, Any] = field(default_factory=dict)


def _whole(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, Decimal):
            return _whole_decimal(value, name, minimum)
        raise SetupError(name, f"must be a whole number of chips or cents, not {_show(value)}")
    if value < minimum:
        raise SetupError(name, f"{value} is below {minimum}")
    return value


def _whole_decimal(value: Decimal, name: str, minimum: int) -> int:
    raise SetupError(name, f"{value} is not a whole number of chips or cents "
                           "(the replay never makes fractions; write amounts in cents)")


def _show(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, str):
        return repr(value)
    return json.dumps(value, default=str)


def _int_list(value: Any, name: str, minimum: int, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise SetupError(name, f"must be a list of whole numbers, not {_show(value)}")
    if length is not None and len(value) != length:
        raise SetupError(name, f"has {len(value)} entries for {length} players")
    if all(type(v) is int and v >= minimum for v in value):   # the usual list: no entry to name
        return tuple(value)
    return tuple(_whole(v, f"{name}[{i}]", minimum) for i, v in enumerate(value))


def loads(text: str) -> PHHHand:
    """Read one hand from PHH text; SetupError names the field at fault."""
    raw = _simple_toml(text)
    if raw is None:
        try:
            raw = tomllib.loads(text, parse_float=Decimal)
        except tomllib.TOMLDecodeError as exc:
            raise SetupError("", f"not a PHH file (TOML): {exc}") from None
    return from_fields(_in_cents(raw))


# --- amounts written with cents -----------------------------------------------------------

MONEY_FIELDS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet", "starting_stacks",
                "finishing_stacks", "winnings", "_chip")
MONEY_KEYS = ("cap", "minimum_pot", "contribution", "pot", "amount", "hourly")   # of _rake and _jackpot
_CBR = re.compile(r"^(\s*p\d+\s+cbr\s+)([0-9]+(?:\.[0-9]*)?)(.*)$", re.S)


def _amounts(raw: dict[str, Any]) -> list[tuple[str, Any]]:
    """(where, value) of every amount in the file."""
    out = []
    for key in MONEY_FIELDS:
        value = raw.get(key)
        for i, v in enumerate(value if isinstance(value, list) else [value]):
            if isinstance(v, Decimal):
                out.append((f"{key}[{i}]" if isinstance(value, list) else key, v))
    for key in ("_rake", "_jackpot"):
        stack = [raw.get(key)]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                out += [(f"{key}.{k}", x) for k, x in v.items() if k in MONEY_KEYS and isinstance(x, Decimal)]
                stack += [x for x in v.values() if isinstance(x, (dict, list))]
            elif isinstance(v, list):
                stack += v
    for i, text in enumerate(raw.get("actions") or []):
        m = _CBR.match(text) if isinstance(text, str) else None
        if m and "." in m.group(2):
            out.append((f"actions[{i}]", Decimal(m.group(2))))
    return out


def _in_cents(raw: dict[str, Any]) -> dict[str, Any]:
    """The file's amounts as whole numbers: in cents if any is written with cents."""
    amounts = _amounts(raw)
    for where, v in amounts:
        if v != v.quantize(Decimal("0.01")):
            raise SetupError(where, f"{v} is finer than a cent: amounts are whole chips, or dollars and cents")
    scale = 100 if any(v != v.to_integral_value() for _, v in amounts) else 1
    if not amounts:
        return raw

    def whole(v: Any) -> Any:
        if isinstance(v, bool):
            return v
        if isinstance(v, (int, Decimal)):
            return int(Decimal(v) * scale)
        return v

    out = dict(raw)
    for key in MONEY_FIELDS:
        if key in out:
            out[key] = [whole(v) for v in out[key]] if isinstance(out[key], list) else whole(out[key])

    def scaled(v: Any, key: str | None = None) -> Any:
        if isinstance(v, dict):
            return {k: scaled(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [scaled(x, key) for x in v]
        return whole(v) if key in MONEY_KEYS else v

    for key in ("_rake", "_jackpot"):
        if key in out:
            out[key] = scaled(out[key])
    if scale != 1 and isinstance(out.get("actions"), list):
        acts = []
        for text in out["actions"]:
            m = _CBR.match(text) if isinstance(text, str) else None
            acts.append(f"{m.group(1)}{int(Decimal(m.group(2)) * scale)}{m.group(3)}" if m else text)
        out["actions"] = acts
    if scale != 1:
        out["_amounts_in_cents"] = True
    return out


# --- the common shape of a PHH file, read without tomllib ------------------------------
# Replaying a hand costs less than tomllib's reading of it (measured: tomllib reads 3,400 to
# 8,100 files a second, this 21,000 to 35,000, benchmarks/poker.py's real and generated
# hands), so the usual file (one `key = value` a line: a bare key; a string without escapes,
# a whole number, an amount in dollars and cents, a boolean, a local time of day, or a
# one-line array of one kind of those) is read here, and anything else (exponents, escapes,
# tables, multi-line arrays, a key given twice, a malformed line) goes to tomllib, which
# stays the reference: test_poker_phh.py checks the two agree.

_CHARS = r"[^\x00-\x08\x0a-\x1f\x7f"
_LITERAL = "'" + _CHARS + "']*'"
_BASIC = '"' + _CHARS + r'"\\]*"'
_INT = r"[+-]?(?:0|[1-9][0-9]*)"
_DECIMAL = r"[+-]?(?:0|[1-9][0-9]*)\.[0-9]+"
_TIME = r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
_ITEM = f"(?:{_LITERAL}|{_BASIC}|{_DECIMAL}|{_INT}|true|false)"
_LINE = re.compile(
    r"[ \t]*(?:([A-Za-z0-9_-]+)[ \t]*=[ \t]*"
    rf"({_TIME}|{_ITEM}|\[[ \t]*(?:{_ITEM}[ \t]*,[ \t]*)*(?:{_ITEM}[ \t]*,?[ \t]*)?\])[ \t]*)?"
    r"(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?\r?"
)
_ITEMS = re.compile(f"'({_CHARS}']*)'|\"({_CHARS}\"\\\\]*)\"|({_DECIMAL})|({_INT})|(true|false)")


def _item(literal: str, basic: str, decimal: str, integer: str, boolean: str) -> Any:
    if integer:
        return int(integer)
    if decimal:
        return Decimal(decimal)
    if boolean:
        return boolean == "true"
    return literal if literal or not basic else basic


def _simple_toml(text: str) -> dict[str, Any] | None:
    """The fields of a PHH file of the usual shape, or None to leave it to tomllib."""
    out: dict[str, Any] = {}
    match = _LINE.fullmatch
    for line in text.split("\n"):
        m = match(line)
        if m is None:
            return None
        key, value = m.group(1), m.group(2)
        if key is None:
            continue
        if key in out:
            return None
        first = value[0]
        if first == "[":
            items = [_item(*found) for found in _ITEMS.findall(value)]
            if len({type(v) for v in items}) > 1:
                return None   # TOML 1.0 allows mixed arrays; let tomllib read them
            out[key] = items
        elif first == "'":
            out[key] = value[1:-1]
        elif first == '"':
            out[key] = value[1:-1]
        elif first == "t" or first == "f":
            out[key] = value == "true"
        elif "." in value:
            out[key] = Decimal(value)
        elif ":" in value:
            out[key] = _time(value)
        else:
            out[key] = int(value)
    return out


def _time(value: str) -> Any:
    from datetime import time
    return time(int(value[:2]), int(value[3:5]), int(value[6:8]))


def _plain(value: Any) -> Any:
    """A TOML value with its tables as plain dicts (tomllib's are dicts already)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def from_fields(raw: dict[str, Any]) -> PHHHand:
    """Read a hand from PHH fields already parsed from TOML."""
    if "variant" not in raw:
        raise SetupError("variant", "is required")
    code = raw["variant"]
    if not isinstance(code, str):
        raise SetupError("variant", f"must be a string, not {_show(code)}")
    try:
        v = find_variant(code)
    except KeyError:
        raise SetupError("variant", f"{code!r} is not a game of 5324.42(g) here "
                                    f"(codes: {', '.join(VARIANTS)})") from None
    required = ["antes", "starting_stacks", "actions", *v.bet_fields]
    required.append("blinds_or_straddles" if v.button else "bring_in")
    for name in required:
        if name not in raw:
            raise SetupError(name, f"is required for {code}")
    for key in raw:
        if key in required or key in OPTIONAL_FIELDS or key.startswith("_") or key == "variant":
            continue
        if key in BET_FIELDS or key == "blinds_or_straddles":
            value = raw[key]
            if value == 0 or (isinstance(value, list) and not any(value)):
                continue   # a zero field of another game changes nothing
            raise SetupError(key, f"is not a field of {code} ({v.name})")
        if isinstance(raw[key], dict):
            raise SetupError(key, "a PHH file here holds one hand, not a table of hands")
        raise SetupError(key, "unknown field (user-defined fields start with an underscore)")

    stacks = _int_list(raw["starting_stacks"], "starting_stacks", 1)
    n = len(stacks)
    antes = _int_list(raw["antes"], "antes", 0, n)
    blinds = _int_list(raw["blinds_or_straddles"], "blinds_or_straddles", 0, n) if v.button else (0,) * n
    bring_in = _whole(raw["bring_in"], "bring_in", 1) if not v.button else 0
    if v.fixed_limit:
        small = _whole(raw["small_bet"], "small_bet", 1)
        big = _whole(raw["big_bet"], "big_bet", 1)
    else:
        small = big = _whole(raw["min_bet"], "min_bet", 1)
    trimming = raw.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise SetupError("ante_trimming_status", f"must be true or false, not {_show(trimming)}")
    cap = _whole(raw.get("_raise_cap", 0), "_raise_cap", 0) or None   # PHH has no cap: none unless given
    rake = jackpot = None
    if "_rake" in raw:
        from controller.poker.rake import rule_from_fields
        rake = rule_from_fields(_plain(raw["_rake"]), "_rake")
    if "_jackpot" in raw:
        from controller.poker.jackpot import rule_from_fields as jackpot_from_fields
        jackpot = jackpot_from_fields(_plain(raw["_jackpot"]), "_jackpot")
    chip = _whole(raw.get("_chip", 1), "_chip", 1)   # the table's smallest chip, (h)(9), (j)(6)(ii)
    kill = None
    if "_kill_blind" in raw:
        kill = _whole(raw["_kill_blind"], "_kill_blind", 1) - 1   # a PHH player number, from 1
    setup = HandSetup(v, stacks, antes, blinds, bring_in, small, big, cap, trimming, rake, jackpot, kill, chip)

    actions_raw = raw["actions"]
    if not isinstance(actions_raw, list):
        raise SetupError("actions", f"must be a list of strings, not {_show(actions_raw)}")
    actions: list[Action | None] = []
    for i, text in enumerate(actions_raw):
        try:
            actions.append(parse_action(text))
        except ActionSyntaxError as exc:
            raise SetupError(f"actions[{i}]", f"{_show(text)}: {exc}") from None
    finishing = raw.get("finishing_stacks")
    if finishing is not None:
        finishing = list(_int_list(finishing, "finishing_stacks", 0, n))
    fields = {k: val for k, val in raw.items() if k not in required and k != "variant"}
    if "seats" in fields:   # phh-std's optional field: the seat of each player, p1 first
        seats = list(_int_list(fields["seats"], "seats", 1, n))
        if len(set(seats)) != n:
            raise SetupError("seats", f"names a seat twice: {seats}")
        fields["seats"] = seats
    return PHHHand(setup, actions, finishing, fields)


# --- writing -----------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} as a PHH value")


def phh_actions(hand: Hand) -> list[str]:
    """The hand's actions in PHH order: in each draw, every discard before the cards dealt for them."""
    out: list[str] = []
    log, streets = hand.log, hand.log_streets
    draw_streets = {i for i, s in enumerate(hand.variant.streets) if s.draw}
    k = 0
    while k < len(log):
        street = streets[k]
        if street in draw_streets and log[k].kind in (DRAW, DEAL_HOLE):
            j = k
            while j < len(log) and streets[j] == street and log[j].kind in (DRAW, DEAL_HOLE):
                j += 1
            block = log[k:j]
            out += [format_action(a) for a in block if a.kind == DRAW]
            out += [format_action(a) for a in block if a.kind == DEAL_HOLE]
            k = j
        else:
            out.append(format_action(log[k]))
            k += 1
    return out


def dumps(setup: HandSetup, actions: list[str], *, finishing_stacks: list[int] | None = None,
          fields: dict[str, Any] | None = None, comment: str | None = None) -> str:
    """PHH text for a hand: the required fields of its game, then the others given."""
    v = setup.variant
    lines = []
    if comment:
        lines += [f"# {line}" for line in comment.splitlines()]
    lines.append(f"variant = {_toml_value(v.code)}")
    lines.append(f"ante_trimming_status = {_toml_value(setup.ante_trimming)}")
    lines.append(f"antes = {_toml_value(list(setup.antes))}")
    if v.button:
        lines.append(f"blinds_or_straddles = {_toml_value(list(setup.blinds))}")
    else:
        lines.append(f"bring_in = {setup.bring_in}")
    if v.fixed_limit:
        lines.append(f"small_bet = {setup.small_bet}")
        lines.append(f"big_bet = {setup.big_bet}")
    else:
        lines.append(f"min_bet = {setup.small_bet}")
    lines.append(f"starting_stacks = {_toml_value(list(setup.starting_stacks))}")
    lines.append(f"actions = {_toml_value(list(actions))}")
    if finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_toml_value(list(finishing_stacks))}")
    if setup.raise_cap is not None and v.fixed_limit:
        lines.append(f"_raise_cap = {setup.raise_cap}")
    if setup.kill_blind is not None:
        lines.append(f"_kill_blind = {setup.kill_blind + 1}")
    if setup.chip != 1:
        lines.append(f"_chip = {setup.chip}")
    if setup.rake is not None:
        from controller.poker.rake import rule_fields
        lines.append(f"_rake = {_toml_value(rule_fields(setup.rake))}")
    if setup.jackpot is not None:
        from controller.poker.jackpot import rule_fields as jackpot_fields
        lines.append(f"_jackpot = {_toml_value(jackpot_fields(setup.jackpot))}")
    for key, value in (fields or {}).items():
        if key in ("finishing_stacks", "ante_trimming_status", "_raise_cap", "_kill_blind", "_rake", "_jackpot",
                   "_chip"):
            continue
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def hand_to_phh(hand: Hand, *, fields: dict[str, Any] | None = None, comment: str | None = None) -> str:
    """A hand the engine played, as PHH (with its finishing stacks once it is over)."""
    finishing = list(hand.result.finishing_stacks) if hand.result else None
    return dumps(hand.setup, phh_actions(hand), finishing_stacks=finishing, fields=fields, comment=comment)


def hand_from_phh(text: str) -> Hand:
    """The hand a PHH text records, rebuilt action by action (settled only if the record ends it).

    With `hand_to_phh` this is how a hand in progress is written down and restored.
    """
    phh = loads(text)
    return Hand.replay(phh.setup, [a for a in phh.actions if a is not None])


__all__ = [
    "OPTIONAL_FIELDS", "PHHHand", "dumps", "from_fields", "hand_from_phh", "hand_to_phh", "loads", "phh_actions",
]
