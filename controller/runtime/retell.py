"""`tablectl rounds show` for a round the live table played: the round told again, event by event.

The round is replayed from its journaled events into a fresh round (the same code
that played it, controller/games/caribbean_stud/at_table.py and war.py), so each card can be said
where it went: the seat or the dealer and the place in the stack, or the burn
(5324.22(i)(4), 5324.37(e)(6): a hand can be laid out again in a dispute). Each
line says who did it (the device, the dealer's panel, a player, the supervisor),
each meter movement says the meter before and after, and the round ends with its
settlement and the record `tablectl settle` re-settles.

A round on a linked progressive (issue 16) is told with its pool: the meter is
the pool's, not the table's, so the round says what it asked of the pool (the
contribution at the lock-out, the claim of its hits, each settlement with the
journal entry of the supervisor's validation) and what the pool answered (its
sequence number, the meter it paid each award from), and the settlement names
each award's validation or refusal and what the pool made of it.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from controller import boundary
from controller.games.base import EventRefused

from controller.games import registry
from controller.games.game import Game

from controller.games.casino_war.at_table import WarRound

def _retold(name: object) -> Game | None:
    """The game of a round retold here: one with a `books.retell` (controller/games/game.py)."""
    g = registry.find(name)
    return g if g is not None and g.books.retell is not None else None


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def is_table_round(entries: list) -> bool:
    if not entries or entries[0].kind != "round-opened" or not isinstance(entries[0].payload, dict):
        return False
    p = entries[0].payload
    return _retold(p.get("game")) is not None and "rules" in p and "round" in p


def render(entries: list, out: TextIO) -> list[str]:
    """Write the round; returns the problems met replaying it (none for a sound journal)."""
    opening = entries[0].payload
    g = _retold(opening["game"])
    assert g is not None   # is_table_round said so
    r = g.table.round({k: v for k, v in opening.items() if k != "by"})
    by = opening.get("by") or {}
    out.write(f"round {opening['round']}: {opening['game']}, opened {entries[0].at} by "
              f"{_who(by.get('source'), by.get('who'))}\n")
    out.write(_rules_line(opening) + "\n")
    pool = (opening.get("link") or {}).get("pool")
    if pool:
        out.write(f"linked progressive: pool {pool} (table {(opening.get('link') or {}).get('table')}); the "
                  "meter is the pool's, the table's own meter does not move\n")
    out.write("\n")
    problems: list[str] = []
    record = None
    settled: dict[int, str] = {}   # seat -> what the pool made of its settlement
    for e in entries[1:]:
        p = e.payload if isinstance(e.payload, dict) else {}
        who = ""
        if e.kind == "event":
            ev = p.get("event", {})
            who = _who(p.get("source"), p.get("who"))
            where = _destination(r, ev)
            try:
                effects = r.apply(boundary.read_cards(ev))   # the journal's text: its cards read again
            except EventRefused as exc:
                problems.append(f"entry {e.seq} does not replay: {exc}")
                effects = []
            text = _describe(r, ev, where, effects)
        elif e.kind == "refused":
            who = _who(p.get("source"), p.get("who"))
            text = f"REFUSED {json.dumps(p.get('event'), sort_keys=True)}: {p.get('error')}"
        elif e.kind == "meter":
            text = _meter_line(p)
        elif e.kind == "round-record":
            record = e
            text = "round recorded" + (" (void)" if "void" in p else "")
        elif e.kind in ("link-op", "link-confirm"):
            who = "link"
            text = _link_line(e.kind, p, settled)
        else:
            text = f"{e.kind} {json.dumps(p, sort_keys=True)}"
        out.write(f"{e.seq:>9}  {e.at[11:23]}  {who:<30} {text}\n")
    if record is not None:
        out.write("\n" + _settlement(record.payload, settled) + "\n")
        out.write(f"\nround record (entry {record.seq}, {record.at}):\n")
        out.write(json.dumps(record.payload, indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(f"\nthe round is in progress ({r.state})\n")
    return problems


def _who(source: Any, who: Any) -> str:
    if source is None:
        return "?"
    return f"{source}/{who}" if who else str(source)


def _rules_line(o: dict) -> str:
    g = _retold(o["game"])
    line = g.books.retell if g is not None else None
    assert line is not None   # a round retold is of a game that retells
    return line(o)


def stud_rules_line(o: dict) -> str:
    """A Caribbean stud round's rules, meter and dealing mode, as the opening recorded them."""
    rules = o["rules"]
    p = rules["progressive"]
    limit = rules.get("bet_payout_limit")
    meter = o["meter"]
    return (f"rules: bet = {rules['bet_multiple']} x ante, bet payout limit "
            f"{money(limit) if limit else 'none'}; progressive wager {money(p['wager'])} at "
            f"{p['contribution_bp'] / 100:.2f}% to the meter; dealing {o['dealing']}; meter before the "
            f"round {money(meter['amount'])} (carry {meter['carry'] / 10_000:.4f} cent)")


def war_rules_line(o: dict) -> str:
    """A casino war round's rules and where the shoe stood, as the opening recorded them."""
    rules, shoe = o["rules"], o["shoe"]
    return (f"rules: {rules['decks']} decks, tie {rules['tie_odds']}:1, war {rules['war_odds']}:1 "
            f"({rules['war_tie_odds']}:1 on a tied war); shoe at card {shoe['dispensed']}, "
            f"burn card due: {'yes' if shoe['burn_due'] else 'no'}")


def _destination(r: Any, ev: dict) -> str | None:
    """Where the next card out of the shoe goes, asked of the round before it takes the card."""
    if ev.get("type") not in ("shoe_card", "card"):
        return None
    if isinstance(r, WarRound):
        if not r.m.wants_card():
            return None
        kind, seat = r.m.next_slot()
        return {"burn": "burn card (to the discard rack)", "seat": f"seat {seat}",
                "dealer": "dealer"}[kind]
    d = r.m.d
    if r.m.state.value == "dealer_fifth":
        return "dealer (fifth card, 5324.37(h))"
    if ev.get("to") is not None:
        return str(ev["to"])
    if d.order and d.next < len(d.order):
        to = d.order[d.next]
        label = "dealer" if to == "dealer" else f"seat {to}"
        if r.mode == "automated":
            return f"{label}, stack card {len(r.buffer) + 1} of 5"
        return label
    if not d.order:
        seats = sorted(d.antes)
        return f"seat {seats[0]}" if seats else None
    return None


def _describe(r: Any, ev: dict, where: str | None, effects: list[dict]) -> str:
    t = ev.get("type")
    seat = ev.get("seat")
    kinds = {e["type"]: e for e in effects}
    if t == "ante":
        return f"ante seat {seat} {money(ev['amount'])}"
    if t == "progressive":
        light = next((e["light"] for e in effects if e["type"] == "light"), None)
        return (f"progressive wager seat {seat} recognized (acceptor light on)" if light == "on" else
                f"progressive wager seat {seat} after the lock-out: not recognized (light flashing, "
                "5324.37(a)(3)(ii))")
    if t == "remove":
        return f"{ev.get('wager')} wager of seat {seat} taken back"
    if t == "wager":
        return f"{ev['wager']} wager seat {seat} {money(ev['stake'])}"
    if t == "no_more_bets":
        return "no more bets: lock-out"
    if t == "deck_count":
        bad = "" if ev.get("total") == 52 and not ev.get("anomalies") else " - ALARM: not a full deck"
        extra = f" ({', '.join(ev['anomalies'])})" if ev.get("anomalies") else ""
        return f"the shuffler counted {ev.get('total')} cards{extra}{bad}"
    if t == "shoe_loaded":
        return f"{ev.get('cards')} cards loaded into the shoe"
    if t == "deal":
        return "deal"
    if t == "war":
        return "war deal: three burn cards, then one card to each seat at war and the dealer"
    if t in ("shoe_card", "card"):
        how = "out of the shoe" if t == "shoe_card" else "touched in by the dealer (not read by the shoe)"
        face = ""
        dealt = kinds.get("dealt")
        if dealt is not None and dealt.get("face") == "up":
            face = ", face up"
        return f"card {ev['card']} {how} -> {where or '?'}{face}"
    if t == "shoe_unread":
        return f"card {ev.get('drawn')} out of the shoe, its face not read: the dealer touches it in"
    if t == "cover_reached":
        return "cover card out: this round is finished, then the shoe reshuffled (5324.22(h)(4))"
    if t == "decision":
        if isinstance(r, WarRound):
            extra = f", tie wager {money(ev['war_tie'])}" if "war_tie" in ev else ""
            return f"seat {seat} {'goes to war' if ev['decision'] == 'war' else 'surrenders'}{extra}"
        if ev["decision"] == "bet":
            return f"seat {seat} bets {money(kinds['bet_placed']['amount'])}" if "bet_placed" in kinds \
                else f"seat {seat} bets"
        return f"seat {seat} folds: ante collected"
    if t == "reveal":
        rv = kinds.get("reveal", {})
        return (f"dealer reveals {' '.join(rv.get('cards', []))}: {rv.get('hand')}, "
                f"{'qualifies' if rv.get('qualifies') else 'does not qualify (no hand)'}")
    if t == "settle":
        return "settle"
    if t == "validate":
        return f"progressive win of seat {seat} validated by supervisor {ev.get('supervisor')} (5324.37(f)(2))"
    if t == "refuse":
        return (f"progressive win of seat {seat} REFUSED by supervisor {ev.get('supervisor')}: "
                f"{ev.get('reason')} (5324.37(f)(2)); not paid")
    if t == "shoe_check":
        outcome = ("resumed" if "resumed" in kinds else
                   "round void: misdeal (5324.37(h))" if "void_round" in kinds or "settlement" in kinds else
                   "the deck is counted and loaded again" if not effects or "alarm" not in kinds else
                   kinds["alarm"]["message"])
        return f"after a restart the shoe reports {ev.get('dispensed')} card(s) dealt: {outcome}"
    if t == "pool_awards":
        if "refused" in ev:
            return f"the pool refused the round's claim: {ev['refused']}"
        return "the pool's awards taken into the round: " + (", ".join(
            f"seat {a['seat']} {a['hand']} {money(a['amount'])}" for a in ev.get("awards") or []) or "none")
    if t == "void_round":
        return f"round voided: {ev.get('reason')}"
    if t == "dealer_misdeal":
        return f"misdeal to the dealer: {ev.get('reason')} (5324.37(h))"
    if t == "no_card":
        return f"seat {seat} dealt no card: its wagers void (5324.22(h)(3)(iii))"
    return json.dumps(ev, sort_keys=True)


def _meter_line(p: dict) -> str:
    before, after = p.get("before"), p.get("after")
    head = f"meter {money(before)} -> {money(after)}" if type(before) is int and type(after) is int else "meter"
    reason = p.get("reason")
    if reason == "contribution":
        return (f"{head}: contribution {money(p['amount'])} from {p.get('wagers')} progressive wager(s) of "
                f"{money(p.get('wagered', 0))} at {p.get('rate_bp', 0) / 100:.2f}% (carry "
                f"{p.get('carry_before', 0) / 10_000:.4f} -> {p.get('carry_after', 0) / 10_000:.4f} cent)")
    if reason == "award":
        payer = "from the meter" if p.get("from_meter") else "by the house"
        seeded = f"; the meter restarts at {money(p['seeded'])}" if p.get("seeded") else ""
        return f"{head}: award seat {p.get('seat')} {p.get('hand')} {money(p['amount'])} paid {payer}{seeded}"
    if reason == "correction":
        return f"{head}: corrected by {p.get('by')}: {p.get('note')}"
    return f"{head}: {reason}"


def _link_line(kind: str, p: dict, settled: dict[int, str]) -> str:
    """A linked round's operation on its pool, or the pool's answer (controller/runtime/linked.py)."""
    op, pool = p.get("op"), p.get("pool")
    if kind == "link-op":
        if op == "contribution":
            return f"contribution to the pool {pool}: seat(s) {p.get('seats')} (their progressive wagers)"
        if op == "claim":
            return f"claim to the pool {pool}: " + ", ".join(f"seat {s} {h} {c}" for s, h, c in p.get("hits") or [])
        if op == "settle":
            v = p.get("validation") or {}
            how = "paid" if p.get("status") == "paid" else f"voided ({p.get('reason')})"
            return (f"settlement to the pool {pool}: seat {p.get('seat')} {how} on {p.get('supervisor')}'s "
                    f"validation (journal entry {v.get('entry', '?')}, {v.get('source', '?')}/{v.get('who', '?')})")
        if op == "close":   # issue 26: no claim for the round from now on
            return f"the round closed with the pool {pool}"
        return f"{op} to the pool {pool}: {json.dumps(p, sort_keys=True)}"
    if not p.get("confirmed"):
        return f"the pool has not confirmed the {op} yet: {p.get('queued') or p.get('error')}"
    r = p.get("result") or {}
    if op == "contribution":
        units = r.get("meter_units_after")
        after = f", the pool's meter after it {money(units // 10_000)}" if isinstance(units, int) else ""
        return f"the pool confirmed the contribution: {r.get('units')} units of 1/10000 cent (pool seq {r.get('seq')}){after}"
    if op == "claim":
        lines = [f"pool award seat {a['seat']} {a['hand']} {money(a['amount_cents'])} "
                 f"({'from the meter' if a['from_meter'] else 'by the house'}, meter "
                 f"{money(a['meter_before_cents'])} -> {money(a['meter_after_cents'])}"
                 + (f", shared by {a['shared_by']}" if a.get("shared_by", 1) > 1 else "") + f"; pool seq {a['seq']})"
                 for a in r.get("awards") or []]
        return "the pool answered the claim: " + ("; ".join(lines) or "no award")
    if op == "settle":
        if "seat" in r:
            settled[int(r["seat"])] = r.get("status", "?")
        return f"the pool settled seat {r.get('seat')}: {r.get('status')}"
    return f"the pool confirmed {op}"


def _settlement(payload: dict, settled: dict[int, str] | None = None) -> str:
    if "void" in payload:
        v = payload["void"]
        lines = [f"VOID: {v['reason']}"]
        for w in v["wagers"]:
            stakes = ", ".join(f"{k} {money(a)}" for k, a in w.items() if k != "seat")
            lines.append(f"  seat {w['seat']}: returned {stakes}")
        return "\n".join(lines)
    s = payload.get("settlement") or {}
    lines = []
    if payload.get("misdeal"):
        lines.append(f"MISDEAL: {payload['misdeal']}: every hand void (5324.37(h))")
    dealer = s.get("dealer", {})
    if "cards" in dealer:
        lines.append(f"dealer: {' '.join(dealer['cards'])} {dealer.get('hand', '')}".rstrip())
    elif "card" in dealer:
        lines.append(f"dealer: {dealer['card']}" + (f", war {dealer['war_card']}" if "war_card" in dealer else ""))
    for seat in s.get("seats", []):
        cards = " ".join(seat["cards"]) if "cards" in seat else seat.get("card", "")
        if "war_card" in seat:
            cards += f", war {seat['war_card']}"
        wagers = "; ".join(f"{name} {money(w['stake'])} {w['outcome']} {money(w['net'])}"
                           for name, w in seat.items() if isinstance(w, dict) and "outcome" in w)
        lines.append(f"  seat {seat['seat']}: {cards} {seat.get('hand', '')}  {wagers}")
    prog = s.get("progressive")
    if prog and prog.get("pool"):   # linked: the pool's meter paid each award at its turn
        validated, refused = payload.get("validated") or {}, payload.get("refused") or {}
        lines.append(f"progressive: paid by the pool {prog['pool']}; claimed "
                     + (", ".join(f"seat {c['seat']} {c['hand']}" for c in prog.get("claimed") or []) or "nothing"))
        for a in prog.get("awards") or []:
            seat = str(a["seat"])
            who = (f"validated by {validated[seat]}" if seat in validated else
                   f"refused by {refused[seat].get('supervisor')}: {refused[seat].get('reason')}"
                   if seat in refused else "not validated")
            at_pool = (settled or {}).get(a["seat"])
            lines.append(f"  pool award seat {a['seat']} {a['hand']} {money(a['amount'])} (meter "
                         f"{money(a['meter_before'])} -> {money(a['meter_after'])}): {who}"
                         + (f", {at_pool} at the pool" if at_pool else ", not yet settled at the pool"))
    elif prog:
        lines.append(f"progressive: meter {money(prog['meter_before'])} + contributions "
                     f"{money(prog['contributions'])} -> {money(prog['meter_after'])}; awards "
                     + (", ".join(f"seat {a['seat']} {a['hand']} {money(a['amount'])}" for a in prog["awards"])
                        or "none"))
    net = sum(w["net"] for seat in s.get("seats", []) for w in seat.values() if isinstance(w, dict) and "net" in w)
    lines.append(f"players' net {money(net)}")
    return "\n".join(lines)
