"""The published state of docs/RUNTIME-INTERFACE.md: what every screen shows, rebuilt after each batch.

The screens only read it (`published`) or are sent it (`subscribe`); it is built
from what the table holds, never the other way round. Its object is held by the
table and reads the table through `ViewSource`, the few things it shows.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from controller.games import registry
from controller.runtime.tablestate import JsonDict, TableState


class ViewSource(Protocol):
    """What the published state is built from (controller/table.py Table)."""

    profile: Any
    state: Any                  # controller/runtime/tablestate.py TableState, None in a fault at power-up
    devices: Any                # controller/runtime/devices.py DeviceSet, None before the start
    alarms: list[JsonDict]
    link: Any                   # controller/runtime/linked.py, None unless on a linked progressive
    check_round: str | None     # the round waiting for the shoe's count after a restart
    software: Any               # controller/runtime/software.py SoftwareAcceptance
    anchors: Any                # controller/journal/anchor.py Keeper, None before the start
    dealer: Any                 # controller/runtime/dealers.py DealerOnDuty: who deals now
    journal: Any                # controller/journal/store.py Journal, None in a fault at power-up
    test_mode: bool             # emulated devices or autoplay: every screen says TEST MODE (controller/testmode.py)

    def clock_hold(self) -> str | None: ...   # why no round opens for the clock (controller/clock.py), or None
    def meter_correction(self) -> JsonDict | None: ...   # a first supervisor's, awaiting a second's (or None)

    @property
    def fault(self) -> JsonDict | None: ...


class PublishedView:
    """The published state and the screens subscribed to it."""

    def __init__(self, host: ViewSource) -> None:
        self.host = host
        self.published: JsonDict = {}
        self.subscribers: set[asyncio.Queue[JsonDict]] = set()

    def _offer(self, round_view: JsonDict) -> None:
        """What the dealer may do while the next round cannot open (the table state's offer), if anything."""
        st = self.host.state
        offer = st.offered() if st is not None else None
        if offer is None:
            return
        step, buttons = offer
        round_view["next_step"] += step
        round_view["buttons"] = list(round_view["buttons"]) + buttons

    def publish(self) -> None:
        anchors = self.host.anchors
        if anchors is not None and anchors.holding:
            return   # a settlement is journaled but not yet anchored: shown once it is (controller/journal/anchor.py)
        self.published = self.build()
        for q in self.subscribers:
            q.put_nowait(self.published)

    def build(self) -> JsonDict:
        h = self.host
        t = h.profile.table
        # The limits and seats of the profile: the dealer's console offers chips within them.
        view: JsonDict = {"table": {"id": t.id, "name": t.name, "game": h.profile.game,
                                "minimum_wager": t.minimum_wager, "maximum_wager": t.maximum_wager,
                                "seats": h.profile.seats,
                                **({"chips": list(t.chips)} if t.chips else {})},
                      "round": None, "seats": [], "dealer": None, "settlement": None, "validations": [],
                      "devices": h.devices.published() if h.devices else [],
                      "alarms": list(h.alarms), "fault": h.fault, "dealer_on_duty": h.dealer.badge,
                      "dealer_name": h.dealer.name,
                      **({"test_mode": True, "mode": "TEST MODE"} if h.test_mode else {}),
                      **({"clock_hold": hold} if (hold := h.clock_hold()) else {})}
        st = h.state
        r = st.round if st else None
        if r is not None and not h.fault:
            rv = r.view()
            view["alarms"] += rv.pop("alarms")
            view.update(rv)
            lit = registry.game(r.game).devices.progressive   # the lights are the progressive controller's
            echoed = h.devices.echoed_lights() if h.devices and lit else None
            if echoed is not None:   # the lights the players see: as echoed, the round's wish beside it
                for seat in view["seats"]:
                    seat["light_wanted"] = seat.get("light", "off")
                    seat["light"] = echoed.get(seat["seat"], "off")
            if r.round_id == h.check_round and view["round"].get("draw") is not None:
                # After a restart mid-deal, cards may have been drawn that the journal does not hold:
                # no card is named (and none should be drawn) until the shoe's count is checked.
                view["round"]["draw"] = None
                view["round"]["next_step"] = ("Wait: the box is checking the shoe against its journal after "
                                              "a restart. Draw no card yet.")
            why = st.can_open() if r.closed else None
            if why:   # over, but the next cannot open yet (a casino war shoe to reshuffle)
                view["round"]["next_step"] = why[0].upper() + why[1:] + "."
                for b in view["round"]["buttons"]:
                    if b["event"] == "next_round":
                        b["enabled"] = False
                self._offer(view["round"])
            if r.closed:   # between rounds: what the table state takes
                view["round"]["allowed"] = st.allowed()
        else:
            why = st.can_open() if st else None
            step = ("The table is in a fault: a supervisor must clear it." if h.fault
                    else (why[0].upper() + why[1:] + "." if why else
                          st.BEFORE_FIRST))
            view["round"] = {"id": None, "state": "fault" if h.fault else "none", "next_step": step,
                             "buttons": [{"event": "next_round",
                                          "label": st.NEXT_ROUND if st else TableState.NEXT_ROUND,
                                          "enabled": not h.fault and why is None}],
                             "allowed": ["clear_fault"] if h.fault or st is None else st.allowed()}
            if why and not h.fault:
                self._offer(view["round"])
        # The next step agrees with the alarms: a jammed shoe or a stopped shuffler is what to do now.
        blocking = [a for a in h.alarms if a.get("condition")]
        if blocking and r is not None and not r.closed and not h.fault:
            view["round"]["next_step"] = blocking[-1]["message"]
        if h.fault:
            view["alarms"].append({"kind": "fault", "message": h.fault["reason"]})
        view["software"] = h.software.view()   # a change waiting for supervisors (runtime/software.py)
        if st is not None:
            view.update(st.published())   # the game's own (poker: its seating, jackpot and time charges)
        jackpot = view.get("jackpot")
        if isinstance(jackpot, dict) and jackpot.get("pending"):
            # each qualifying hand with the dealer who dealt it, from the journal: the tracking form's
            # dealer ((r)(4)(iv)) even after a rotation between the hand and its verification
            jackpot["pending"] = [{**q, "dealt_by": h.dealer.of_round(h.journal, q["hand"])}
                                  for q in jackpot["pending"]]
        meter = st.current_meter() if st else None
        if meter is not None and "meter" not in view:
            view["meter"] = {"amount": meter.amount, "reset": meter.reset_amount, "carry": meter.carry,
                             "pending": []}
        asked = h.meter_correction()
        if asked is not None and "meter" in view:   # the first of two supervisors' correction waits for the second
            view["meter"] = {**view["meter"], "correction": asked}
        link = h.link
        if link is not None and not link.playable and view["round"].get("state") == "open":
            view["round"]["next_step"] = ("Take antes; no progressive wager is recognized while the link to the "
                                          "pool is down (5321.18(c)). Press No more bets when done.")
        if link is not None:   # a linked progressive: the meter shown is the pool's (issue 10)
            view["progressive"] = link.view()
            if "meter" in view and link.status.meter_cents is not None:
                view["meter"] = {**view["meter"], "amount": link.status.meter_cents, "pool": link.status.pool}
            if not link.playable:
                view["alarms"].append({"kind": link.alarm_kind, "message": link.refusal()})
        return view
