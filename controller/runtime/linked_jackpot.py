"""A live poker table on the room's pooled jackpot (issue 10; 9 NYCRR 5324.42(r)(3)-(7)).

`JackpotTableLink` follows the journaled hand like `StudLink` follows the round
(controller/runtime/linked.py: one worker, every operation journaled as
`link-op` when asked and `link-confirm` when the pool answers, resent at a
restart from the latest snapshot). Once a hand's record is in the journal it
asks the pool, each once and keyed by the hand:
- the hand's jackpot contribution, the drop taken after the rake
  ((r)(3), the record's `jackpot_drop`), when it is more than nothing;
  ident: the hand id;
- each qualifying hand of the hand under the table's posted jackpot rule
  ((r)(4), controller.poker.jackpot.candidates over the hand the record was
  written from), with the seat, the five cards that make it and the player's
  reference (journaled with the value the pool ranks it by, controller.hands.high);
  ident: "<hand id>#<seat>".
What is asked is a function of the journaled hand alone: the same hand asks the
same operations with the same keys, so a hand asked again (a restart, a second
look) is never counted twice. A hand the table closed and left before it was
shown to the link (closed and the next opened in one batch) is read back from
its journaled record (the PHH replayed).

The player's reference: the table knows a player only by the seat (a `sit`
carries a seat and a stack, no name), so the reference is "<table> seat <n>".
The tracking form's name and phone ((r)(4)(i)) are the floorperson's to take
when verifying the hand; the pool keeps table, hand and seat beside it, which
is what ties the form's line to this hand.

While the link is down (9 NYCRR 5321.18(c)). 5321.18(c) takes the linked wager
out of play so that nothing is staked against a meter nobody can vouch for. A
pooled poker jackpot stakes nothing: no player wagers on it, the contribution
is taken from each pot whatever the link does ((r)(3): collected, segregated and
deposited in the jackpot payout box at the table), and a qualifying hand is a
fact of the hand the floorperson verifies on the tracking form ((r)(4)). So:
- hands go on, and each still drops its contribution into the box;
- each contribution and qualifying hand is journaled as asked and waits in the
  outbox; when the link is back they are sent in the order the hands were
  played, each with its key, so the pool counts each once (a late answer to an
  operation it had already committed is recognized, not added again);
- the screens say the jackpot link is down and show no pooled amount: the
  amount displayed under (r)(2) is the pool's, and a stale one is not shown
  (`view`: available false, meter blank, the jackpot wording below);
- the pool's period is not to be closed ((r)(5)) while a table of it has
  operations waiting: a hand made in the period would reach the pool after
  its close. The pool refuses the close while a live table has not been heard
  from for 30 s or disagrees (link.close_period); `tablectl link check` shows
  such a table as not agreeing.
The pool orders qualifying hands by when it receives them, so a hand sent late
may be "announced" as leading later than it was made; the period's award goes
to the best value whatever the order (ties share, (r)(6)).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import structlog

from controller.link.jackpot import JackpotLink
from controller.link.pool import Sent
from controller.runtime.linked import PROVISION, LinkedTable

log = structlog.get_logger("controller.link.table")

UNAVAILABLE = ("jackpot link down: hands go on and still drop the jackpot contribution; contributions and "
               "qualifying hands wait for the pool, the pooled amount is not shown")
CONTRIBUTION, QUALIFY = "jackpot-contribution", "qualify"   # the kinds of JackpotLink's operations


def player_reference(table_id: str, seat: int) -> str:
    """What the table knows of the player at a seat: the seat (see the module docstring)."""
    return f"{table_id} seat {seat}"


def hand_asks(hand_id: str, record: Mapping[str, Any], hand: Any, table_id: str) -> list[tuple[str, str, dict]]:
    """What a recorded hand asks of the pool: (kind, ident, args), contribution first, seats in hand order.

    `record` is the hand's journaled round record (its `jackpot_drop` and `seats`),
    `hand` the engine's hand it was written from (controller.poker.hand.Hand), whose
    setup carries the table's posted jackpot rule (PHH `_jackpot`).
    """
    from controller.cards import CARDS
    from controller.poker.jackpot import candidates
    asks: list[tuple[str, str, dict]] = []
    drop = record.get("jackpot_drop") or 0
    if drop > 0:   # the contribution after the rake, 5324.42(r)(3)
        asks.append((CONTRIBUTION, hand_id, {"round": hand_id, "amount": drop}))
    rule = hand.setup.jackpot
    if rule is None:
        return asks
    seats = list(record["seats"])
    for c in candidates(hand, rule):   # 5324.42(r)(4)
        seat = seats[c.player]
        asks.append((QUALIFY, f"{hand_id}#{seat}", {
            "round": hand_id, "seat": seat, "cards": [str(CARDS[x]) for x in c.cards],
            "player": player_reference(table_id, seat), "value": c.value, "hand_name": c.hand_name,
            "kind": c.kind}))
    return asks


def record_asks(hand_id: str, record: Mapping[str, Any], table_id: str) -> list[tuple[str, str, dict]]:
    """`hand_asks` of a hand known only by its journaled record: the PHH is replayed."""
    from controller.poker.phh import hand_from_phh
    return hand_asks(hand_id, record, hand_from_phh(record["phh"]), table_id)


class JackpotTableLink(LinkedTable):
    """A poker table's contributions and qualifying hands, sent to the room's jackpot pool."""

    unavailable = UNAVAILABLE
    alarm_kind = "jackpot_unavailable"

    def __init__(self, table: Any, config: Any) -> None:
        client = JackpotLink(config, config.outbox_path(table.data_dir), on_status=self._on_status)
        super().__init__(table, config, client)
        self.table_id: str = table.profile.table.id
        self.done: set[str] = set()        # hands whose operations were asked (this run)
        self.last: str | None = None       # the hand the link was last shown

    async def start(self) -> None:
        await super().start()
        self._compare_rules()

    def _compare_rules(self) -> None:
        """The table's posted rule against the pool's (the pool refuses what its own rule refuses)."""
        from controller.poker.jackpot import rule_from_config
        params = self.status.params
        jackpot = getattr(self.table.profile.poker, "jackpot", None)
        if not params or jackpot is None:
            return
        rule = rule_from_config(jackpot)
        differ = {}
        if params.get("qualifying_hand") != rule.qualifying_hand:
            differ["qualifying_hand"] = {"table": rule.qualifying_hand, "pool": params.get("qualifying_hand")}
        if isinstance(params.get("contribution"), int) and rule.contribution > params["contribution"]:
            differ["contribution"] = {"table": rule.contribution, "pool": params["contribution"]}
        if differ:
            log.error("jackpot_rules_differ", pool=self.config.pool, differ=differ)
            self._journal("link-params", {"pool": self.config.pool, "differ": differ,
                                          "note": "the pool refuses what its rule refuses (5324.42(r)(2))"}, None)

    # -- what the screens show ------------------------------------------------------------
    def refusal(self) -> str:
        return f"{self.unavailable} ({self.status.reason}; {PROVISION})"

    def view(self) -> dict:
        s = self.status
        shown = super().view()
        shown.update({"kind": "jackpot", "period": s.period, "leading": dict(s.leading) if s.leading else None,
                      "last_period": dict(s.last_period) if s.last_period else None})
        if not s.playable:
            shown["meter"] = None   # the pooled amount (r)(2) is the pool's: none rather than a stale one
        return shown

    # -- asking the pool -------------------------------------------------------------------
    def after_batch(self, r: Any) -> None:
        if r is None:
            return
        hid = r.round_id
        if self.last is not None and self.last != hid and self.last not in self.done:
            self._from_journal(self.last)
        self.last = hid
        if hid in self.done or not r.closed or r.record is None:
            return
        self.done.add(hid)
        for kind, ident, args in hand_asks(hid, r.record, r.hand, self.table_id):
            self._ask(kind, ident, args)

    def _from_journal(self, hid: str) -> None:
        """A hand that closed and was left before the link saw it closed: its journaled record."""
        j = self.table.journal
        entry = j.round_record(hid) if j is not None else None
        if entry is None:
            return   # it never closed (the table cannot open a hand over one in progress)
        self.done.add(hid)
        log.info("link_hand_from_journal", hand=hid)
        for kind, ident, args in record_asks(hid, entry.payload, self.table_id):
            self._ask(kind, ident, args)

    async def operation(self, kind: str, args: dict, *, send: bool = True) -> Sent:
        c, hid = self.client, args["round"]
        if kind == CONTRIBUTION:
            return await c.contribute(hid, args["amount"], send=send)
        return await c.qualify(hid, args["seat"], args["cards"], args["player"], send=send)

    def confirmed(self, kind: str, entry: dict, *, from_journal: bool = False) -> None:
        # confirmed before a restart: not asked again when the recovered hand is shown again
        self.asked.add((kind, entry["ident"]))
        if from_journal:
            log.debug("link_op_confirmed_before", op=kind, ident=entry["ident"])
