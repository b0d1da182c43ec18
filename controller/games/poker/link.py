"""A live poker table on the room's pooled jackpot (issue 10; 9 NYCRR 5324.42(r)(3)-(7)).

`JackpotTableLink` follows the journaled hand like `StudLink` follows the round
(controller/runtime/linked.py: one worker, every operation journaled as
`link-op` when asked and `link-confirm` when the pool answers, resent at a
restart from the latest snapshot). It asks the pool, each once and keyed by the hand:
- once a hand's record is in the journal, its jackpot contribution, the drop
  taken after the rake ((r)(3), the record's `jackpot_drop`), when it is more
  than nothing; ident: the hand id;
- once the floorperson has verified a qualifying hand on the tracking form
  ((r)(4): the table's `jackpot-hand` entry, controller/runtime/tablestate.py),
  that hand, with the seat, the five cards that make it, the player's name from
  the form and the rest of the form's line (`verification`: the floorperson's id
  and license, the dealer's name and license, the player's phone), journaled with
  the value the pool ranks it by (controller.hands.high); ident: "<hand id>#<seat>".
  A qualifying hand the floorperson has not verified is not the pool's: it waits on
  the supervisor's screen, and nothing of it is sent.
What is asked is a function of the journal alone: the same hand or verification
asks the same operation with the same key, so one asked again (a restart, a second
look) is never counted twice. A hand the table closed and left before it was
shown to the link (closed and the next opened in one batch) is read back from
its journaled record. A verification journaled before the latest snapshot was
asked before it (its `link-op` follows its batch at once, and the snapshot carries
it while unconfirmed); one after it is asked at start unless the journal already
asked it (a table stopped between the two).

The player: the table knows a player only by the seat (a `sit` carries a seat and
a stack, no name); the name and phone ((r)(4)(i)) are the floorperson's to take
on the form, so the pool gets them with the verified hand and keeps table, hand
and seat beside them, which is what ties the form's line to this hand.

While the link is down (9 NYCRR 5321.18(c)). 5321.18(c) takes the linked wager
out of play so that nothing is staked against a meter nobody can vouch for. A
pooled poker jackpot stakes nothing: no player wagers on it, the contribution
is taken from each pot whatever the link does ((r)(3): collected, segregated and
deposited in the jackpot payout box at the table), and a qualifying hand is a
fact of the hand the floorperson verifies on the tracking form ((r)(4)). So:
- hands go on, and each still drops its contribution into the box;
- each contribution and verified qualifying hand is journaled as asked and waits in
  the outbox; when the link is back they are sent in the order they were
  asked, each with its key, so the pool counts each once (a late answer to an
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
from controller.runtime.linked import PROVISION, LinkedTable, OpArgs

log = structlog.get_logger("controller.link.table")

UNAVAILABLE = ("jackpot link down: hands go on and still drop the jackpot contribution; contributions and "
               "qualifying hands wait for the pool, the pooled amount is not shown")
CONTRIBUTION, QUALIFY = "jackpot-contribution", "qualify"   # the kinds of JackpotLink's operations


def hand_asks(hand_id: str, record: Mapping[str, Any]) -> list[tuple[str, str, OpArgs]]:
    """What a recorded hand asks of the pool at once: (kind, ident, args), its contribution if any.

    `record` is the hand's journaled round record (its `jackpot_drop`); its qualifying
    hands wait for the floorperson (`verified_ask`).
    """
    drop = record.get("jackpot_drop") or 0
    if drop > 0:   # the contribution after the rake, 5324.42(r)(3)
        return [(CONTRIBUTION, hand_id, {"round": hand_id, "amount": drop})]
    return []


FORM_TO_POOL = ("floorperson", "floor_license", "dealer", "dealer_license", "phone")   # beside name, seat, table


def verified_ask(line: Mapping[str, Any]) -> tuple[str, str, OpArgs]:
    """What a qualifying hand the floorperson verified asks of the pool: (kind, ident, args).

    `line` is the journaled `jackpot-hand` entry (the tracking form's line, 5324.42(r)(4)):
    its `cards` the five that make the hand, two characters each.
    """
    from controller.cards import parse_cards
    from controller.hands import high
    hid, seat, text = line["hand"], int(line["seat"]), line["cards"]
    cards = [text[i:i + 2] for i in range(0, len(text), 2)]
    return QUALIFY, f"{hid}#{seat}", {
        "round": hid, "seat": seat, "cards": cards, "player": line["player"],
        "value": high.value(parse_cards(cards)), "hand_name": line["hand_name"], "kind": line["kind"],
        "verification": {k: line.get(k, "") for k in FORM_TO_POOL}}


class JackpotTableLink(LinkedTable):
    """A poker table's contributions and qualifying hands, sent to the room's jackpot pool."""

    unavailable = UNAVAILABLE
    alarm_kind = "jackpot_unavailable"
    client: JackpotLink   # the client __init__ makes

    def __init__(self, table: Any, config: Any) -> None:
        client = JackpotLink(config, config.outbox_path(table.data_dir), on_status=self._on_status)
        super().__init__(table, config, client)
        self.done: set[str] = set()        # hands whose operations were asked (this run)
        self.last: str | None = None       # the hand the link was last shown

    async def start(self) -> None:
        await super().start()
        self._verified_before_snapshot()
        self._compare_rules()

    def _verified_before_snapshot(self) -> None:
        """Verifications journaled before the latest snapshot were asked then: not asked again."""
        jackpot = getattr(getattr(self.table, "state", None), "jackpot", None)
        j = self.table.journal
        if not jackpot or j is None:
            return
        _, entries = j.recovery()
        recent = {(e.payload["hand"], e.payload["seat"]) for e in entries
                  if e.kind == "jackpot-hand" and isinstance(e.payload, dict)}
        for line in jackpot["verified"]:
            if (line["hand"], line["seat"]) not in recent:
                self.asked.add((QUALIFY, f"{line['hand']}#{line['seat']}"))

    def _compare_rules(self) -> None:
        """The table's posted rule against the pool's (the pool refuses what its own rule refuses)."""
        from controller.poker.jackpot import rule_from_config
        params = self.status.params
        jackpot = getattr(getattr(self.table.profile, "poker", None), "jackpot", None)   # a poker profile's rules
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

    def view(self) -> dict[str, Any]:
        s = self.status
        shown = super().view()
        shown.update({"kind": "jackpot", "period": s.period, "leading": dict(s.leading) if s.leading else None,
                      "last_period": dict(s.last_period) if s.last_period else None})
        if not s.playable:
            shown["meter"] = None   # the pooled amount (r)(2) is the pool's: none rather than a stale one
        return shown

    # -- asking the pool -------------------------------------------------------------------
    def after_batch(self, r: Any) -> None:
        self._ask_verified()
        if r is None:
            return
        hid = r.round_id
        if self.last is not None and self.last != hid and self.last not in self.done:
            self._from_journal(self.last)
        self.last = hid
        if hid in self.done or not r.closed or r.record is None:
            return
        self.done.add(hid)
        for kind, ident, args in hand_asks(hid, r.record):
            self._ask(kind, ident, args)

    def _ask_verified(self) -> None:
        """Each qualifying hand the floorperson verified (the table's `jackpot-hand` entries), once."""
        jackpot = getattr(getattr(self.table, "state", None), "jackpot", None)
        for line in (jackpot or {}).get("verified", []):
            self._ask(*verified_ask(line))

    def _from_journal(self, hid: str) -> None:
        """A hand that closed and was left before the link saw it closed: its journaled record."""
        j = self.table.journal
        entry = j.round_record(hid) if j is not None else None
        if entry is None:
            return   # it never closed (the table cannot open a hand over one in progress)
        self.done.add(hid)
        log.info("link_hand_from_journal", hand=hid)
        for kind, ident, args in hand_asks(hid, entry.payload):
            self._ask(kind, ident, args)

    async def operation(self, kind: str, args: OpArgs, *, send: bool = True) -> Sent:
        c, hid = self.client, args["round"]
        if kind == CONTRIBUTION:
            return await c.contribute(hid, args["amount"], send=send)
        return await c.qualify(hid, args["seat"], args["cards"], args["player"],
                               verification=args.get("verification"), send=send)

    def confirmed(self, kind: str, entry: OpArgs, *, from_journal: bool = False) -> None:
        # confirmed before a restart: not asked again when the recovered hand is shown again
        self.asked.add((kind, entry["ident"]))
        if from_journal:
            log.debug("link_op_confirmed_before", op=kind, ident=entry["ident"])
