"""Random events for the trust-boundary state machines and the fuzz benchmark.

An outsider who reaches a boundary sends whatever bytes they like; a faulty device
sends old frames, skipped ones and garbage. So the events here are of every kind
any game knows (and some none knows), each field either a value the rules might
take or junk of any JSON type, sometimes missing, sometimes with an extra field.
Random events alone seldom get a round past its first phase, so a pilot proposes
the lawful next steps too (an ante, the deck's count, the shoe's next card, a
decision...): the junk then lands in every phase of a round, not only the first.

The checks are what must hold whatever was sent: only EventRefused escapes a
round, a refused event changes nothing, no card comes out twice (more often than
the shoe holds it), every state has a name the round declares, and a closed
round accounts for every cent that was wagered. Shared by
tests/security/test_state_machines.py and benchmarks/fuzz.py.
"""

from __future__ import annotations

import copy
import enum
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from controller.cards import CARDS
from controller.config import load_profile

HERE = Path(__file__).resolve().parent
PROFILES = {"stud": HERE.parent / "crash" / "stud.toml", "war": HERE.parent / "crash" / "war.toml",
            "poker": HERE.parent / "crash" / "holdem.toml"}
CARD_TEXT = [str(c) for c in CARDS]


def profile(game: str):
    return load_profile(PROFILES[game])


# -- what a state is, for "a refusal changes nothing" ------------------------------------------

def plain_state(value: Any, _depth: int = 0) -> Any:
    """A comparable copy of everything an object holds: its attributes, recursively, without
    methods and without the `transitions` machinery (it holds the model, not state)."""
    if _depth > 40:
        raise AssertionError("state nested too deep to compare")
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, enum.Enum):
        return (type(value).__name__, value.value)
    if isinstance(value, dict):
        return {repr(k): plain_state(v, _depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_state(v, _depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(plain_state(v, _depth + 1)) for v in value)
    if callable(value) and not hasattr(value, "__dict__"):
        return None
    fields: dict[str, Any] = {}
    names = list(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        names += [n for n in getattr(cls, "__slots__", ()) if isinstance(n, str)]
    for name in names:
        if name in ("machine", "__weakref__", "__dict__") or not hasattr(value, name):
            continue
        v = getattr(value, name)
        if callable(v) and not isinstance(v, (enum.Enum, type)) and not hasattr(v, "__dataclass_fields__") \
                and not isinstance(v, (dict, list, tuple, set, frozenset)):
            continue   # a trigger `transitions` put on the model, a bound method
        fields[name] = plain_state(v, _depth + 1)
    return (type(value).__name__, fields)


# -- junk and values -----------------------------------------------------------------------

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["", "dealer", "As", "10h", "x" * 300, "\u0000", "1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6)
CARD = st.sampled_from(CARD_TEXT)
SEAT = st.integers(-1, 11)
CENTS = st.sampled_from([1, 100, 500, 1000, 5000, 50_000, 100_000, 0, -500, 10**12])
PHH = st.sampled_from(["p1 f", "p2 f", "p1 cc", "p2 cc", "p3 cc", "p1 cbr 600", "p2 cbr 100000",
                       "d dh p1 AsKs", "d dh p2 ????", "d db AhKhQh", "d db 2c", "p1 sm AsKs", "p2 sm -",
                       "p1 pb", "p1 sd", "", "  ", "p99 f", "d dh p1 AsAs", "p1 cbr -5", "p1 cbr 1.5"])
VALUES: dict[str, Any] = {
    "seat": SEAT, "amount": CENTS, "stake": CENTS, "war_tie": CENTS, "stack": CENTS,
    "card": CARD | st.sampled_from(["??", "1s", "Ax", "as"]),
    "cards": st.lists(CARD, min_size=0, max_size=6) | st.integers(0, 60),
    "to": SEAT | st.just("dealer"),
    "wager": st.sampled_from(["ante", "progressive", "initial", "tie", "war", "war_tie", "bet"]),
    "decision": st.sampled_from(["bet", "fold", "surrender", "war"]),
    "reason": st.sampled_from(["misdeal", "", "  ", "a reason"]),
    "supervisor": st.sampled_from(["SUP1", "", "SUP2"]), "second_signer": st.sampled_from(["SUP2", "SUP1", ""]),
    "total": st.sampled_from([52, 51, 53, 0]) | st.integers(-5, 400),
    "anomalies": st.just([]) | st.lists(CARD, max_size=2),
    "truncated": st.booleans(), "dispensed": st.integers(-1, 400), "cover_reached": st.booleans(),
    "drawn": st.integers(-1, 400), "count": st.integers(-1, 6), "verbal": st.booleans(),
    "up": st.dictionaries(st.sampled_from(["1", "2", "3", "4", "x", ""]), st.lists(CARD, max_size=2), max_size=2),
    "action": PHH, "awards": st.just([]), "refused": st.just("pool down"), "hand": st.text(max_size=8),
}
FIELDS: dict[str, tuple[str, ...]] = {
    # Caribbean stud (controller/games/caribbean_stud/machine.py, controller/games/caribbean_stud/at_table.py)
    "ante": ("seat", "amount"), "progressive": ("seat",), "remove": ("seat", "wager"), "no_more_bets": (),
    "card": ("card", "to"), "stack": ("cards",), "end_deal": (), "dealer_misdeal": ("reason",),
    "decision": ("seat", "decision", "war_tie"), "reveal": (), "settle": (),
    "validate": ("seat", "supervisor", "second_signer"), "refuse": ("seat", "supervisor", "reason", "second_signer"),
    "pool_awards": ("awards", "refused"), "deck_count": ("total", "anomalies", "truncated"),
    "shoe_loaded": ("cards",), "shoe_card": ("card",), "deal": (), "void_round": ("reason",),
    "shoe_check": ("dispensed", "cover_reached"), "reshuffle": (), "chip_removed": ("seat",),
    # casino war (controller/games/casino_war/machine.py, controller/games/casino_war/at_table.py)
    "wager": ("seat", "wager", "stake", "verbal"), "cover_card": (), "no_card": ("seat",),
    "shoe_unread": ("drawn",), "cover_reached": (), "war": (), "new_dealer": (),
    # poker (controller/games/poker/contract.py)
    "sit": ("seat", "stack"), "top_up": ("seat", "amount"), "sit_out": ("seat",), "sit_in": ("seat",),
    "leave": ("seat",), "button_card": ("cards",), "straddle": ("seat",), "deal_hole": ("up",),
    "deal_board": ("cards",), "fold": ("seat",), "check_call": ("seat",), "bring_in": ("seat",),
    "bet_raise": ("seat", "amount"), "draw": ("seat", "count"), "discard": ("seat", "count"),
    "show": ("seat", "cards"), "muck": ("seat",), "action": ("action",), "replace_deck": (),
    "expose": ("seat", "card"), "rake_taken": (),
    # the table's own
    "next_round": (), "clear_fault": ("reason",), "correct_meter": ("amount", "reason"),
    "accept_software": (), "verify_jackpot": ("hand", "seat"), "verify_time_charges": (),
}
EVENT_TYPES = sorted(FIELDS)


@st.composite
def events(draw, types: list[str] | None = None) -> Any:
    """One event as anyone might send it: mostly well-shaped, now and then anything at all."""
    shape = draw(st.integers(0, 19))
    if shape == 0:
        return draw(JUNK)   # not even an object with a type
    kind = draw(st.sampled_from(types or EVENT_TYPES)) if shape > 1 else draw(JUNK | st.text(max_size=10))
    event: dict = {"type": kind}
    for name in FIELDS.get(kind, ()) if isinstance(kind, str) else ():
        how = draw(st.integers(0, 9))
        if how == 0:
            continue                       # missing
        event[name] = draw(JUNK) if how == 1 else draw(VALUES[name])
    if draw(st.integers(0, 14)) == 0:
        event[draw(st.sampled_from(["extra", "seat", "who", "source", "type2"]))] = draw(JUNK)
    return event


# -- the lawful next steps of a round --------------------------------------------------------

def next_shoe_card(r, deck: list[str]) -> str:
    """The next card a one-deck shoe gives `r`: the first of `deck` not yet out this round."""
    out = {str(c) for c in r.m.d.dealt} | {str(c) for c in r.buffer}
    return next((c for c in deck if c not in out), deck[0])


def stud_steps(r, deck: list[str]) -> list[dict]:
    """Events the dealer, the devices and a supervisor could lawfully send now (Caribbean stud)."""
    d, st_ = r.m.d, r.m.state.value
    if r.closed:
        return []
    steps: list[dict] = []
    if st_ == "open":
        steps += [{"type": "ante", "seat": s, "amount": a} for s in (1, 3, 5, 7) for a in (500, 2500)]
        steps += [{"type": "progressive", "seat": s} for s in d.antes if s not in d.progressive]
        steps += [{"type": "remove", "seat": s, "wager": "ante"} for s in list(d.antes)[:1]]
        if d.antes:
            steps += [{"type": "no_more_bets"}] * 3
    if st_ == "no_more_bets" and not r.dealing:
        if r.count is None or not r.count["ok"]:
            steps.append({"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
        elif not r.loaded:
            steps.append({"type": "shoe_loaded", "cards": 52})
        else:
            steps.append({"type": "deal"})
    if r.cards_wanted():
        steps += [{"type": "shoe_card", "card": next_shoe_card(r, deck)}] * 4
    if st_ == "decisions":
        undecided = [s for s in sorted(d.antes) if s not in d.void and s not in d.decisions]
        steps += [{"type": "decision", "seat": s, "decision": c} for s in undecided[:1] for c in ("bet", "bet", "fold")]
        if not undecided:
            steps.append({"type": "reveal"})
    if st_ == "revealed":
        steps.append({"type": "settle"})
    if st_ == "validation":
        for s in d.pending:
            if s not in d.validated and s not in d.refused:
                steps += [{"type": "validate", "seat": s, "supervisor": "SUP1", "second_signer": "SUP2"},
                          {"type": "refuse", "seat": s, "supervisor": "SUP1", "reason": "light not lit"}]
    steps.append({"type": "void_round", "reason": "a supervisor voids it"})
    return steps


def war_steps(r, deck: list[str]) -> list[dict]:
    """Events the dealer and the manual shoe could lawfully send now (casino war)."""
    m, st_ = r.m, r.m.state.value
    if r.closed:
        return []
    steps: list[dict] = []
    if st_ == "wagers":
        steps += [{"type": "wager", "seat": s, "wager": w, "stake": a}
                  for s in (2, 4, 6) for w in ("initial", "initial", "tie") for a in (500, 1000)]
        if m.wagers:
            steps += [{"type": "no_more_bets"}] * 3
    if st_ in ("first_deal", "war_deal"):
        if (st_ == "first_deal" and not r.dealing) or (st_ == "war_deal" and not r.war_dealing):
            steps.append({"type": "deal" if st_ == "first_deal" else "war"})
        elif r.cards_wanted():
            steps += [{"type": "shoe_card", "card": deck[len(m.drawn) % len(deck)]}] * 4
    if st_ in ("first_settle", "war_settle"):
        steps.append({"type": "settle"})
    if st_ == "decisions":
        for s in m.tie_hands:
            if s not in m.decisions:
                steps += [{"type": "decision", "seat": s, "decision": "war"},
                          {"type": "decision", "seat": s, "decision": "surrender"}]
    if st_ in ("wagers", "first_deal"):
        steps.append({"type": "void_round", "reason": "a supervisor voids it"})
    return steps


def poker_steps(r, deck: list[str]) -> list[dict]:
    """Events the dealer's console and the shuffler could lawfully send now (a hold 'em hand)."""
    if r.closed:
        return []
    if r.count is None or not r.count["ok"]:
        if r.count is not None and not r.hand.log:
            return [{"type": "replace_deck"}]
        return [{"type": "deck_count", "total": 52, "anomalies": [], "truncated": False}]
    p = r.view()["poker"]
    owed = p["owed"]
    if p["rake_due"]:   # the round's rake into the rake area before the next card (5324.42(o)(2)(i)(b))
        return [{"type": "rake_taken"}]
    if owed["hole"]:
        return [{"type": "deal_hole", "up": {}}]
    if owed["board"]:
        used = set(p["board"]) | {c for pl in p["players"] for c in pl["cards"]}
        fresh = [c for c in deck if c not in used]
        return [{"type": "deal_board", "cards": fresh[:owed["board"]]}]
    seat = p["to_act"]
    if seat is None:
        return []
    if p["turn"] == "show":
        used = set(p["board"]) | {c for pl in p["players"] for c in pl["cards"]}
        mine = next(pl["cards"] for pl in p["players"] if pl["seat"] == seat)
        fresh = [c for c in deck if c not in used]
        shown = [c if c != "??" else fresh.pop(0) for c in mine]
        return [{"type": "show", "seat": seat, "cards": shown}, {"type": "muck", "seat": seat}]
    steps = [{"type": "check_call", "seat": seat}] * 4 + [{"type": "fold", "seat": seat}]
    for o in p["options"]:
        if o["action"] in ("bet", "raise", "complete") and o["min"] is not None:
            steps.append({"type": "bet_raise", "seat": seat, "amount": o["min"]})
    return steps


STEPS = {"stud": stud_steps, "war": war_steps, "poker": poker_steps}


# -- what must hold ----------------------------------------------------------------------------

STUD_STATES = {"open", "no_more_bets", "dealing", "dealer_fifth", "decisions", "revealed", "validation",
               "closed", "void"}
WAR_STATES = {"wagers", "first_deal", "first_settle", "decisions", "war_deal", "war_settle", "closed", "void"}
POKER_STATES = {"deal", "bet", "showdown", "complete", "closed"}
STATES = {"stud": STUD_STATES, "war": WAR_STATES, "poker": POKER_STATES}
OUTCOMES = {"win", "lose", "push", "void", "surrender"}


class Broken(AssertionError):
    """An invariant of the round does not hold (the message says which)."""


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Broken(what)


def cents(value: Any, what: str) -> int:
    check(type(value) is int, f"{what} is {value!r}, not whole cents")
    return value


def cards_out(game: str, r) -> list[str]:
    """Every card the round has taken, in the order it took them."""
    if game == "stud":
        return [str(c) for c in r.m.d.dealt] + [str(c) for c in r.buffer]
    if game == "war":
        return [str(c) for c in r.m.drawn]
    h = r.hand
    return [str(c) for c in h.board] + [str(c) for hole in h.hole for c in hole if c is not None]


def check_round(game: str, r, decks: int = 1) -> None:
    """The invariants of a round at any moment."""
    check(r.state in STATES[game], f"state {r.state!r} is not a state of {game}")
    out = Counter(cards_out(game, r))
    twice = sorted(c for c, n in out.items() if n > decks)
    check(not twice, f"card(s) {twice} dealt more often than the shoe holds them ({decks} deck(s))")


def _wager_ok(w: Any, what: str) -> tuple[int, int]:
    check(isinstance(w, dict), f"{what} is not a settled wager: {w!r}")
    stake, net = cents(w["stake"], f"{what}.stake"), cents(w["net"], f"{what}.net")
    check(stake > 0, f"{what}.stake {stake} is not above 0")
    check(w["outcome"] in OUTCOMES, f"{what}.outcome {w['outcome']!r}")
    if w["outcome"] == "lose":
        check(net == -stake, f"{what} lost {net}, not its stake {stake}")
    elif w["outcome"] == "void" or w["outcome"] == "push":
        check(net == 0, f"{what} is {w['outcome']} yet nets {net}")
    elif w["outcome"] == "win":
        check(net > 0, f"{what} won {net}")
    else:   # surrender: half the stake back
        check(-stake <= net < 0, f"{what} surrendered for {net}")
    return stake, net


def check_stud_money(r, placed: dict[int, int], meter_before: int) -> None:
    """Every ante that stands is settled or returned; the meter moves only by contributions and awards;
    paid + kept by the house + returned == wagered, in whole cents."""
    rec = r.record
    check(rec is not None, "a closed round has no record")
    if rec.get("void"):
        back = {w["seat"]: cents(w["ante"], "void ante") for w in rec["void"]["wagers"]}
        check(back == placed, f"a void round returned {back}, the antes standing were {placed}")
        # the record's meter, not the live one: a supervisor may correct the meter once the round is over
        check(rec.get("meter_after") == meter_before, "the meter moved in a round voided before any card")
        return
    result = rec["settlement"]
    seats = {s["seat"]: s for s in result["seats"]}
    check({s: seats[s]["ante"]["stake"] for s in seats} == placed,
          f"the settled antes {[(s, seats[s]['ante']['stake']) for s in seats]} are not the antes placed {placed}")
    wagered = paid = kept = returned = 0
    for n, s in seats.items():
        for kind in ("ante", "bet"):
            if kind in s:
                stake, net = _wager_ok(s[kind], f"seat {n} {kind}")
                wagered += stake
                if net > 0:
                    paid += net
                    returned += stake
                elif net < 0:
                    kept += -net
                else:
                    returned += stake
    check(wagered == kept + returned, f"wagered {wagered} != kept {kept} + returned {returned}")
    cents(paid, "paid")
    prog = result.get("progressive")
    if prog and not r.pool:
        check(prog["meter_before"] == meter_before, f"the round started at meter {prog['meter_before']}, "
                                                    f"the table had {meter_before}")
        p = r.rules.progressive
        awards = prog["awards"]
        fixed = {a["hand"] for a in awards if type(p.awards.get(a["hand"])).__name__ == "Fixed"}
        from_meter = sum(cents(a["amount"], "award") for a in awards if a["hand"] not in fixed)
        seeded = p.reset if any(a["hand"] == "royal-flush" for a in awards) else 0
        change = prog["meter_after"] - prog["meter_before"]
        check(change == prog["contributions"] - from_meter + seeded,
              f"the meter moved {change}: contributions {prog['contributions']}, awards {from_meter}, seed {seeded}")
        returned_refused = sum(v.get("returned", 0) for v in r.m.d.refused.values())
        check(rec["meter_after"] == prog["meter_after"] + returned_refused,
              f"the meter at the close {rec['meter_after']} is not the settled {prog['meter_after']} "
              f"+ refused {returned_refused}")


def check_war_money(r, placed: dict[tuple[int, str], int]) -> None:
    rec = r.record
    check(rec is not None, "a closed round has no record")
    if rec.get("void"):
        back = {(w["seat"], k): cents(w[k], f"void {k}") for w in rec["void"]["wagers"]
                for k in ("initial", "tie", "war", "war_tie") if k in w}
        check(back == placed, f"a void round returned {back}, the wagers placed were {placed}")
        return
    settled: dict[tuple[int, str], int] = {}
    wagered = kept = returned = 0
    for s in rec["settlement"]["seats"]:
        for k in ("initial", "tie", "war", "war_tie"):
            if k in s:
                stake, net = _wager_ok(s[k], f"seat {s['seat']} {k}")
                settled[(s["seat"], k)] = stake
                wagered += stake
                kept += -net if net < 0 else 0
                returned += stake + net if net < 0 else stake
    for v in rec.get("void_wagers") or []:
        for k in ("initial", "tie"):
            if k in v:
                settled[(v["seat"], k)] = cents(v[k]["stake"], "void wager")
    first = {key: v for key, v in settled.items() if key[1] in ("initial", "tie")}
    check(first == placed, f"the settled initial and tie wagers {first} are not those placed {placed}")
    check(wagered == kept + returned, f"wagered {wagered} != kept {kept} + returned {returned}")


def check_poker_money(r) -> None:
    rec = r.record
    check(rec is not None, "a finished hand has no record")
    before = sum(cents(x, "stack before") for x in rec["stacks_before"])
    after = sum(cents(x, "stack after") for x in rec["stacks_after"])
    rake, drop = cents(rec["rake"], "rake"), cents(rec["jackpot_drop"], "jackpot drop")
    check(before == after + rake + drop,
          f"stacks {before} before, {after} after + rake {rake} + jackpot drop {drop}")
    check(all(x >= 0 for x in rec["stacks_after"]), f"a stack went below 0: {rec['stacks_after']}")


def fresh_deck(rng_or_perm) -> list[str]:
    return [str(c) for c in rng_or_perm]


def deepcopy_event(event: Any) -> Any:
    try:
        return copy.deepcopy(event)
    except RecursionError:
        return event


# -- a live table in a thread of its own, for the boundary machine and the benchmarks ------------

class LiveTable:
    """A real `Table` (in-process, emulated devices, journal under `data_dir`) on an event loop in a
    thread of its own, so a synchronous caller (a hypothesis state machine) can submit to it.

    `timeout` bounds each submission; the start has its own, longer bound: a table's start hashes
    the installed software, which on a 2-core box busy with other work takes minutes, not seconds
    (the fuzz benchmark at nice 19 beside the suite timed out at 30 s)."""

    START_TIMEOUT = 300.0

    def __init__(self, game: str, data_dir: Path, timeout: float = 30.0) -> None:
        import asyncio
        import threading
        self.game, self.data_dir, self.timeout = game, Path(data_dir), timeout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=f"live-table-{game}", daemon=True)
        self.thread.start()
        self.table = None
        self.call(self._start(), timeout=max(timeout, self.START_TIMEOUT))

    def call(self, coro, timeout: float | None = None):
        import asyncio
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout or self.timeout)

    def on_loop(self, fn):
        """fn() run on the table's loop, between two batches: sees the table as the consumer left it."""
        async def run():
            return fn()
        return self.call(run())

    async def _start(self) -> None:
        from controller.table import Table
        self.table = Table(profile(self.game), data_dir=self.data_dir, screen=False)
        await self.table.start()

    def submit(self, event: Any, source: str, who: str | None = None) -> dict:
        return self.call(self.table.submit(event, source=source, who=who))

    def submit_many(self, items: list[tuple[Any, str, str | None]]) -> list[dict]:
        """Queue every submission at once (one batch for the consumer when it is free), then wait for all."""
        import asyncio

        async def run():
            return await asyncio.gather(*(self.table.submit(e, source=s, who=w) for e, s, w in items))
        return self.call(run())

    def close(self) -> None:
        try:
            if self.table is not None:
                self.call(self.table.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            if not self.thread.is_alive():
                self.loop.close()


SOURCE_OF = {"void_round": "supervisor", "validate": "supervisor", "refuse": "supervisor",
             "deck_count": "device", "shoe_loaded": "device", "shoe_card": "device", "shoe_unread": "device",
             "cover_reached": "device", "pool_awards": "link", "replace_deck": "supervisor"}


def lawful_submission(event: dict) -> tuple[dict, str, str | None]:
    source = SOURCE_OF.get(event["type"], "panel")
    return event, source, ("SUP1" if source == "supervisor" else "dealer" if source == "panel" else None)


def settle_down(live: LiveTable, deck: list[str], limit: int = 400) -> bool:
    """Bring the live table to a fresh round (the current one ended by its lawful steps or a void,
    then "next round"); a poker table gets two players first. True when a fresh round is open."""
    game = live.game
    t = live.table
    r = t.state.round if t.state else None
    if r is not None and not r.closed and r.events and game != "poker":   # the quick way: void, next round
        live.submit_many([({"type": "void_round", "reason": "fuzz: next sequence"}, "supervisor", "SUP1"),
                          ({"type": "next_round"}, "panel", "dealer")])
    if game == "poker" and (t.state.seats is None or len(live.on_loop(t.state.dealt_in)) < 3):
        live.submit_many([({"type": "sit", "seat": s, "stack": 20_000}, "panel", "dealer") for s in (2, 5, 8)])
        live.submit_many([({"type": "sit_in", "seat": s}, "panel", "dealer") for s in (2, 5, 8)])
        live.submit_many([({"type": "top_up", "seat": s, "amount": 20_000}, "panel", "dealer") for s in (2, 5, 8)])
    for _ in range(limit):
        if t.fault:
            return False
        r = t.state.round if t.state else None
        if r is not None and not r.closed and not r.events:
            return True
        if r is None or r.closed:
            why = live.on_loop(lambda: t.state.can_open())
            if why and "shoe" in why:
                live.submit({"type": "shoe_loaded", "cards": 312}, "device")
            res = live.submit({"type": "next_round"}, "panel", "dealer")
            if not res["ok"] and r is not None and r.closed and why is None:
                return False
            continue
        void = live.submit({"type": "void_round", "reason": "fuzz: next sequence"}, "supervisor", "SUP1")
        if void["ok"]:
            continue
        steps = live.on_loop(lambda: STEPS[game](t.state.round, deck))
        steps = [s for s in steps if s["type"] not in ("void_round", "ante", "wager", "remove", "progressive")]
        if game == "poker":   # a fold ends a hand soonest
            steps = [s for s in steps if s["type"] == "fold"] or steps[:1]
        if not steps:
            import time
            time.sleep(0.01)   # a device's answer is on its way
            continue
        step = steps[-1]
        world = t.devices.world if t.devices else None
        if step["type"] == "shoe_card" and game == "war" and world is not None and hasattr(world.shoe, "draw"):
            world.shoe.draw()   # the dealer draws from the emulated shoe: the card comes through the driver
            import time
            time.sleep(0.01)
            continue
        live.submit(*lawful_submission(step))
    return False
