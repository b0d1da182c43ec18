"""A Caribbean stud table on a linked progressive:
- the round's progressive wagers at the lock-out (5324.37(a)(3)(ii));
- the round's winning progressive hands at settlement, seat 7 down to 1
  (5324.37(e)(4)); the pool pays them from its meter in the order the database
  commits them (5321.18(b)(3)(iii)) and the table takes the pool's awards into
  the round (`pool_awards`), so the round record pays what the pool paid;
- each supervisor's validation or refusal of an award (5324.37(f)(2));
- the round's close, once it is recorded (settled or voided) after all of that: the
  pool takes a claim only for the table's latest contribution not closed (issue 26).
While the link client says unplayable the table recognizes no progressive wager
and the base game goes on.
"""

from __future__ import annotations

from typing import Any

import structlog

from controller.games.game import Json
from controller.link.pool import ProgressiveLink, Sent
from controller.runtime.linked import LinkedTable, OpArgs

log = structlog.get_logger("controller.link.table")


class StudLink(LinkedTable):
    """A Caribbean stud table on a linked progressive (5324.37(f), (g)(4)-(6); 5321.18)."""

    client: ProgressiveLink   # the client __init__ makes

    def __init__(self, table: Any, config: Any) -> None:
        client = ProgressiveLink(config, config.outbox_path(table.data_dir), on_status=self._on_status)
        super().__init__(table, config, client)
        self.awards: dict[str, list[Json]] = {}     # round -> the pool's awards, as the round takes them
        self.given: set[str] = set()              # rounds whose awards were handed to the table this run
        self.contributed: str | None = None       # the round of this run's latest contribution not closed

    def after_batch(self, r: Any) -> None:
        if r is None or not getattr(r, "pool", None):
            return
        rid = r.round_id
        if self.contributed not in (None, rid):
            self._close(self.contributed)   # recorded and left in one batch with the next round's opening
        if getattr(r, "void", None):   # voided before a card: a contribution of its lock-out stays, closed
            if ("contribution", rid) in self.asked:
                self._close(rid)
            return
        d = r.m.d
        if r.state != "open" and d.progressive:
            self._ask("contribution", rid, {"round": rid, "seats": sorted(d.progressive)})
            if ("close", rid) not in self.asked:
                self.contributed = rid
        if d.pending:
            hits = [(s, a["hand"], "".join(a["cards"])) for s, a in sorted(d.pending.items(), reverse=True)]
            self._ask("claim", rid, {"round": rid, "hits": hits})
        if r.state == "validation" and r.m.awaiting_pool() and rid in self.awards:   # confirmed before a restart
            self._hand_in_once(rid, self._awards_event(rid))
        for seat, who in sorted(d.validated.items()):
            if ("settle", f"{rid}#{seat}") not in self.asked:
                self._ask("settle", f"{rid}#{seat}", {"round": rid, "seat": seat, "supervisor": who, "status": "paid",
                                                      "validation": self._validation(rid, seat, "validate")})
        for seat, why in sorted(d.refused.items()):   # the supervisor refused the win
            if "pool_refused" in d.pending[seat] or ("settle", f"{rid}#{seat}") in self.asked:
                continue   # the pool refused the claim: it holds no award to void
            self._ask("settle", f"{rid}#{seat}", {"round": rid, "seat": seat, "supervisor": why["supervisor"],
                                                  "status": "voided", "reason": why.get("reason"),
                                                  "validation": self._validation(rid, seat, "refuse")})
        if r.closed and ("contribution", rid) in self.asked:
            self._close(rid)   # after its claim and settlements, in the order the worker sends them

    def _close(self, rid: str) -> None:
        """The round is over: the pool takes no claim for it from now on (issue 26)."""
        self._ask("close", rid, {"round": rid})
        if self.contributed == rid:
            self.contributed = None

    def _validation(self, rid: str, seat: int, kind: str) -> dict[str, Json] | None:
        """The journal entry in which the supervisor signed in at a screen validated (or refused)
        the seat's award: it travels to the pool with the settlement (issue 16)."""
        from controller.link.pool import validation_record
        j = self.table.journal
        found = None
        for e in (j.round_entries(rid) if j is not None else []):
            ev = (e.payload or {}).get("event") if e.kind == "event" and isinstance(e.payload, dict) else None
            if ev and ev.get("type") == kind and ev.get("seat") == seat:
                found = e
        return validation_record(found, seat) if found is not None else None

    async def operation(self, kind: str, args: OpArgs, *, send: bool = True) -> Sent:
        c, rid = self.client, args["round"]
        if kind == "contribution":
            return await c.contribute(rid, args["seats"], send=send)
        if kind == "claim":
            return await c.claim(rid, [tuple(h) for h in args["hits"]], send=send)
        if kind == "close":
            return await c.close_round(rid, send=send)
        return await c.settle(rid, args["seat"], status=args["status"], supervisor=args["supervisor"],
                              reason=args.get("reason"), validation=args.get("validation") or {}, send=send)

    def confirmed(self, kind: str, entry: OpArgs, *, from_journal: bool = False) -> None:
        if kind != "claim" or not entry.get("result"):
            return
        rid = entry["round"]
        self.awards[rid] = [
            {"seat": a["seat"], "hand": a["hand"], "amount": a["amount_cents"], "seq": a["seq"],
             "meter_before": a["meter_before_cents"], "meter_after": a["meter_after_cents"],
             "shared_by": a["shared_by"], "from_meter": a["from_meter"]}
            for a in entry["result"].get("awards") or []]
        if not from_journal:
            self._hand_in_once(rid, self._awards_event(rid))

    def refused(self, kind: str, ident: str, args: OpArgs, reason: str) -> None:
        if kind == "claim":
            self._hand_in_once(args["round"], {"type": "pool_awards", "refused": reason})

    def _awards_event(self, rid: str) -> dict[str, Json]:
        return {"type": "pool_awards", "claim": rid, "awards": self.awards[rid]}

    def _hand_in_once(self, rid: str, event: dict[str, Json]) -> None:
        """The pool's answer to a round's claim goes to the table once in a run."""
        if rid not in self.given:
            self.given.add(rid)
            self.table.spawn(self._hand_in(rid, event), "link-awards")

    async def _hand_in(self, rid: str, event: dict[str, Json]) -> None:
        """The pool's answer goes to the round through the table's one queue, journaled like any event."""
        r = self.table.state.round if self.table.state else None
        if r is None or r.round_id != rid or r.state != "validation":
            log.error("link_awards_unused", round=rid, state=r.state if r else None)
            return
        answer = await self.table.submit(event, source="link")
        if not answer["ok"]:
            log.error("link_awards_refused", round=rid, error=answer["error"])
