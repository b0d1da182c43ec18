"""A Caribbean stud round told again by `tablectl rounds show` (controller/runtime/retell.py): the game's words.

The shared retelling replays the round and writes each entry; it asks the game
for its rules line, where a card out of the shoe goes, the words of the game's own
events (the ante, the progressive's light, the decision, the reveal, the
supervisor's validation, the pool's awards, a misdeal to the dealer, 5324.37), and
the game's part of the settlement (the dealer's hand, the seats' hands, the meter
or the pool's awards).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.runtime.retell import money, wager_words


class StudRetelling:
    def rules(self, o: Mapping[str, Any]) -> str:
        """A Caribbean stud round's rules, meter and dealing mode, as the opening recorded them."""
        rules = o["rules"]
        p = rules["progressive"]
        limit = rules.get("bet_payout_limit")
        meter = o["meter"]
        return (f"rules: bet = {rules['bet_multiple']} x ante, bet payout limit "
                f"{money(limit) if limit else 'none'}; progressive wager {money(p['wager'])} at "
                f"{p['contribution_bp'] / 100:.2f}% to the meter; dealing {o['dealing']}; meter before the "
                f"round {money(meter['amount'])} (carry {meter['carry'] / 10_000:.4f} cent)")

    def destination(self, r: Any, ev: Mapping[str, Any]) -> str | None:
        """Where the next card goes: the seat or the dealer, in automated dealing the place in the stack."""
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

    def describe(self, r: Any, ev: Mapping[str, Any], where: str | None,
                 effects: Sequence[Mapping[str, Any]]) -> str | None:
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
        if t == "decision":
            if ev["decision"] == "bet":
                return f"seat {seat} bets {money(kinds['bet_placed']['amount'])}" if "bet_placed" in kinds \
                    else f"seat {seat} bets"
            return f"seat {seat} folds: ante collected"
        if t == "reveal":
            rv = kinds.get("reveal", {})
            return (f"dealer reveals {' '.join(rv.get('cards', []))}: {rv.get('hand')}, "
                    f"{'qualifies' if rv.get('qualifies') else 'does not qualify (no hand)'}")
        if t == "validate":
            return f"progressive win of seat {seat} validated by {_signers(ev)} (5324.37(f)(2))"
        if t == "refuse":
            return (f"progressive win of seat {seat} REFUSED by {_signers(ev)}: "
                    f"{ev.get('reason')} (5324.37(f)(2)); not paid, not a hit")
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
        if t == "dealer_misdeal":
            return f"misdeal to the dealer: {ev.get('reason')} (5324.37(h))"
        return None

    def settlement(self, payload: Mapping[str, Any], settled: Mapping[int, str]) -> list[str]:
        """The misdeal, the dealer's and the seats' hands, and the progressive: the meter's, or the pool's."""
        s = payload.get("settlement") or {}
        lines = []
        if payload.get("misdeal"):
            lines.append(f"MISDEAL: {payload['misdeal']}: every hand void (5324.37(h))")
        dealer = s.get("dealer", {})
        if "cards" in dealer:
            lines.append(f"dealer: {' '.join(dealer['cards'])} {dealer.get('hand', '')}".rstrip())
        for seat in s.get("seats", []):
            cards = " ".join(seat["cards"]) if "cards" in seat else ""
            bet = seat.get("bet") or {}
            capped = (f" (bet capped at the payout limit: {money(bet['uncapped'])} by the paytable)"
                      if bet.get("capped") else "")
            lines.append(f"  seat {seat['seat']}: {cards} {seat.get('hand', '')}  {wager_words(seat)}{capped}")
        prog = s.get("progressive")
        if prog and prog.get("pool"):   # linked: the pool's meter paid each award at its turn
            validated, refused = payload.get("validated") or {}, payload.get("refused") or {}
            lines.append(f"progressive: paid by the pool {prog['pool']}; claimed "
                         + (", ".join(f"seat {c['seat']} {c['hand']}" for c in prog.get("claimed") or [])
                            or "nothing"))
            for a in prog.get("awards") or []:
                seat = str(a["seat"])
                who = (f"validated by {validated[seat]}" if seat in validated else
                       f"refused by {refused[seat].get('supervisor')}: {refused[seat].get('reason')}"
                       if seat in refused else "not validated")
                at_pool = settled.get(a["seat"])
                lines.append(f"  pool award seat {a['seat']} {a['hand']} {money(a['amount'])} (meter "
                             f"{money(a['meter_before'])} -> {money(a['meter_after'])}): {who}"
                             + (f", {at_pool} at the pool" if at_pool else ", not yet settled at the pool"))
        elif prog:
            lines += _own_meter(prog, payload)
        return lines


def _signers(ev: Mapping[str, Any]) -> str:
    second = ev.get("second_signer")
    return f"supervisor {ev.get('supervisor')}" + (f" and second signer {second}" if second else "")


def _own_meter(prog: Mapping[str, Any], payload: Mapping[str, Any]) -> list[str]:
    """The table's meter in the round: its contributions (and what the limit sent to the overflow), each
    award as the supervisors decided it (both signers), a refused one not paid and what went back."""
    validated, countersigned = payload.get("validated") or {}, payload.get("countersigned") or {}
    refused = {r["seat"]: r for r in prog.get("refused") or []}
    overflow = (f" ({money(prog['to_overflow'])} of them past the limit {money(prog['limit'])} into the overflow, "
                f"now {money(prog['overflow_after'])})" if prog.get("to_overflow") else "")
    lines = [f"progressive: meter {money(prog['meter_before'])} + contributions {money(prog['contributions'])}"
             f"{overflow} -> {money(prog['meter_after'])} at the settlement"]
    paid = []
    for a in prog["awards"]:
        seat = str(a["seat"])
        who = validated.get(seat) or (payload.get("refused") or {}).get(seat, {}).get("supervisor")
        who_text = f"{who}" + (f" and {countersigned[seat]}" if seat in countersigned else "")
        if a["seat"] in refused:
            r = refused[a["seat"]]
            lines.append(f"  REFUSED seat {a['seat']} {a['hand']} {money(a['amount'])} by {who_text}: {r['reason']}: "
                         f"not paid, not a hit; {money(r['returned'])} back into the meter "
                         f"({money(r['meter_before'])} -> {money(r['meter_after'])})")
        elif seat in validated:
            paid.append(a)
            lines.append(f"  paid seat {a['seat']} {a['hand']} {money(a['amount'])}, validated by {who_text}")
        else:
            lines.append(f"  PENDING seat {a['seat']} {a['hand']} {money(a['amount'])}: not validated, not paid")
    if not prog["awards"]:
        lines.append("  awards none")
    if refused:
        lines.append(f"  meter after the refusals {money(prog['meter_after_refusals'])}")
    return lines


RETELLING = StudRetelling()
