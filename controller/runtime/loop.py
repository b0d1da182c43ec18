"""The table's helpers on its event loop: device workers, the fault state, the published state.

controller/table.py keeps the queue and its one consumer; these mixins hold what
runs beside it, each reading the state the consumer keeps and never changing a
round: the dealer's worker asks the shuffler and the shoe for what the round
needs, the outputs worker sets the acceptor lights, the lock-out indicator and
the meter display after the journal has recorded why, the shoe is checked
against the journal after a restart, the journal is scrubbed once the table is
up. A fault stops play until a supervisor clears it (controller/selfcheck.py).

Every loop here stops when cancelled even if a callee swallowed the
cancellation: Python 3.11's wait_for can, when the cancel arrives as its
timeout fires, and a driver's call may use it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import structlog

from controller.games.base import EventRefused

STALL = 3.0            # seconds a dispense may go unanswered before it is asked again
SHUFFLE_STALL = 20.0   # and a shuffle and count (a real shuffler takes a while)
CLOSE_PATIENCE = 2.0   # seconds for a task to stop when the table closes

log = structlog.get_logger("controller.table")


@dataclass
class Submission:
    event: Any
    source: str
    who: str | None = None
    future: asyncio.Future | None = None


async def wait_event(event: asyncio.Event, timeout: float) -> None:
    """Wait for `event` (then clear it), or at most `timeout` seconds.

    asyncio.wait, not wait_for or asyncio.timeout: in Python 3.11 those can swallow a
    cancellation that arrives as the timeout fires, and a task that should stop with
    the table would run on."""
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({waiter}, timeout=timeout)
    finally:
        waiter.cancel()
    event.clear()
    stop_if_cancelled()


def stop_if_cancelled() -> None:
    """Stop a loop whose cancellation a callee swallowed (a driver's wait_for in Python 3.11)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def cancel_all(tasks: list[asyncio.Task]) -> None:
    """Cancel tasks and wait for them, asking again of any that swallowed the first request."""
    for _ in range(3):
        pending = [t for t in tasks if not t.done()]
        if not pending:
            return
        for t in pending:
            t.cancel()
        await asyncio.wait(pending, timeout=CLOSE_PATIENCE)
    left = [t.get_name() for t in tasks if not t.done()]
    if left:
        log.error("tasks_would_not_stop", tasks=left)


def report_failure(task: asyncio.Task) -> None:
    """A helper task that failed is logged; it must not take the table down with it."""
    if not task.cancelled() and task.exception() is not None:
        log.error("task_failed", task=task.get_name(), error=repr(task.exception()))


class Workers:
    """The dealer's worker, the outputs worker, the shoe check and the scrub."""

    async def _check_shoe(self, round_id: str) -> None:
        """After a restart mid-round: does the shoe agree with the journal about the cards out?"""
        from drivers.errors import DeviceError
        shoe = self.devices.shoe
        if shoe is None:   # poker: the dealer's cards lie where the journal left them
            # (and a war shoe without a reader: every card drawn was touched in and journaled)
            r = self.state.round if self.state else None
            told = getattr(r, "dispensed", 0) if r is not None and r.round_id == round_id else 0
            self.queue.put_nowait(Submission({"type": "shoe_check", "dispensed": told}, "table"))
            return
        while True:
            await shoe.wait_connected()
            try:
                status = await shoe.request_status()
                break
            except DeviceError:
                await asyncio.sleep(0.2)
        if self._check_round != round_id:
            return   # the round ended without needing the shoe (its cards were all out and recorded)
        self.queue.put_nowait(Submission({"type": "shoe_check", "dispensed": status.dispensed,
                                          "cover_reached": status.cover_reached}, "device", "shoe"))

    async def _scrub(self) -> None:
        """Every sealed byte of the journal read again once the table is up (controller/journal.py):
        a change the start-up check took the file's fingerprint for is found here."""
        problems = await asyncio.to_thread(self.journal.scrub)
        if problems and not self.fault:
            from controller.selfcheck import raise_fault
            entry = raise_fault(self.data_dir, self.journal, "journal", problems)
            self._set_fault([{"at": entry.at if entry else None}], problems)
            self._after_batch()

    async def _device_call(self, coro, what: str) -> None:
        from drivers.errors import DeviceError
        try:
            await coro
        except DeviceError as exc:
            log.warning("device_call_failed", call=what, error=str(exc))

    async def _dealer(self) -> None:
        """Asks the devices for what the round needs: its deck shuffled and counted, then its cards.

        One request at a time, asked again if nothing came of it within STALL seconds
        (a device that was not connected yet, a restart in between).
        """
        from controller.logs import Repeating
        from drivers.errors import DeviceError
        asked: tuple = ()
        asked_at = 0.0
        failing = Repeating(log, "dispense_failed")   # a jam: once, then a count each minute
        while True:
            await wait_event(self._wake_dealer, 1.0)
            r = self.state.round if self.state else None
            if r is None or self.fault or r.round_id == self._check_round:
                continue
            now = time.monotonic()
            shuffle = r.deck_wanted()
            if shuffle is not None and self.devices.shuffler is not None and self.devices.shuffler.connected \
                    and (asked != (r.round_id, shuffle) or now - asked_at > SHUFFLE_STALL):
                asked, asked_at = (r.round_id, shuffle), now
                self._spawn(self._device_call(self.devices.shuffle(), "shuffle"), "shuffle")
                continue
            want = r.cards_wanted()
            if self._outstanding and now - self._since > STALL:
                self._outstanding = 0
            if not want or self._outstanding or self.devices.shoe is None or not self.devices.shoe.connected \
                    or not self.devices.dispenses:   # a manual shoe: the dealer draws, the shoe reports
                continue
            self._outstanding, self._since = want, now
            try:
                await self.devices.dispense(want)
                stop_if_cancelled()
                failing.succeeded()
            except DeviceError as exc:
                self._outstanding = 0
                failing.failed(error=str(exc))
                await asyncio.sleep(0.3)
                self._wake_dealer.set()

    async def _outputs(self) -> None:
        """The acceptor lights, the lock-out indicator and the meter display follow the journaled round."""
        from controller.logs import Repeating
        from drivers.errors import DeviceError
        failing = Repeating(log, "outputs_failed")
        while True:
            await wait_event(self._wake_outputs, 1.0)
            if self.state is None or self.devices.progressive is None:
                continue
            r, meter = self.state.round, self.state.current_meter()
            link = getattr(self, "link", None)
            shown = meter.amount if meter else None
            waiting = bool(r and not r.closed and r.view()["validations"])
            if link is not None:
                # The pool's meter, flashing while any award of the pool waits for its validation
                # (pending on every linked table); blank, not the last amount, while the pool
                # cannot be reached (5321.18(c)): set_outputs blanks the display for None.
                shown = link.status.meter_cents if link.playable else None
                waiting = waiting or bool(link.status.pending_awards)
            want = (r.lights() if r else {}, r.lockout() if r else False, shown, waiting)
            if want == self.outputs_sent:
                continue
            try:
                await self.devices.set_outputs(*want)
                stop_if_cancelled()
                if self.devices.progressive.connected:
                    self.outputs_sent = want
                    self._publish()   # the screens show the lights as the controller echoed them
                failing.succeeded()
            except DeviceError as exc:
                failing.failed(error=str(exc))
                await asyncio.sleep(0.3)
                self._wake_outputs.set()


class Faults:
    """The fault state: set at the self-check, on a journal that fails, cleared by a supervisor."""

    def _set_fault(self, faults: list[dict], problems: list) -> None:
        first = (problems[0].to_json() if problems else
                 next((p for f in faults for p in f.get("problems", [])), {"detail": "fault"}))
        reason = f"{first.get('where', '')}: {first.get('detail', '')}".strip(": ")
        since = faults[0].get("at") if faults else None
        self.fault = {"reason": reason, "since": since, "open": len(faults) or 1}
        log.error("fault", **self.fault)
        if self.autoplay:
            self.exit_status = 3   # nobody at an autoplayed table can clear it: stop, and say so
            self.stop()

    def _raise_fault(self, source: str, detail: str) -> None:
        from controller.sealing import Problem
        from controller.selfcheck import raise_fault
        problem = Problem(source, "table", detail)
        try:
            entry = raise_fault(self.data_dir, self.journal, source, [problem])
        except Exception:  # noqa: BLE001 - the marker is written even when the journal is not
            entry = None
        self._set_fault([{"at": entry.at if entry else None, "problems": [problem.to_json()]}], [problem])

    def _clear_fault(self, event: dict, who: str) -> list[dict]:
        from controller import selfcheck
        if not self.fault:
            raise EventRefused("clear_fault", "running", [], "the table is not in a fault")
        note = event.get("reason", "")
        if not isinstance(note, str) or not note.strip():
            raise EventRefused("clear_fault", "fault", ["clear_fault"], "clearing a fault needs a reason")
        second = self._software_second(who)
        if second is None and selfcheck.supervisors_to_clear(selfcheck.open_faults(self.journal, self.data_dir)) == 2:
            # an integrity fault (the journal, the software): a second, different supervisor clears it (issue 15)
            self.fault = {**self.fault, "approved_by": who}
            return self._approve_software(who, note)
        try:
            if self.journal is None:
                selfcheck.clear_fault(self.data_dir, who, note, second=self._software_second(who))
                self.journal = selfcheck.power_up(self.data_dir).journal
            else:
                selfcheck.clear(self.journal, self.data_dir, who, note, second=self._software_second(who))
        except selfcheck.SecondSupervisor:   # an integrity change: two supervisors (runtime/software.py)
            return self._approve_software(who, note)
        self._software_accepted()
        self.fault = None
        self._recover()
        if self._check_round:
            self._spawn(self._check_shoe(self._check_round), "shoe-check")
        return [{"type": "fault_cleared", "by": who}]


class View:
    """The published state of docs/RUNTIME-INTERFACE.md."""

    def _offer_shoe_loaded(self, round_view: dict) -> None:
        """A war shoe without a reader cannot say it was loaded: the dealer says so, once the cards
        are reshuffled and the shoe loaded (5324.22(h)(4)); the next round burns a card first (h)(1)."""
        st = self.state
        if st is None or st.shoe is None or getattr(self.profile, "manual_shoe", None) is None \
                or self.profile.manual_shoe.reader:
            return
        round_view["next_step"] += " Then press Shoe loaded."
        round_view["buttons"] = list(round_view["buttons"]) + [
            {"event": "shoe_loaded", "label": "Shoe loaded", "enabled": True}]

    def _publish(self) -> None:
        self._published = self._view()
        for q in self._subscribers:
            q.put_nowait(self._published)

    def _view(self) -> dict:
        t = self.profile.table
        # The limits and seats of the profile: the dealer's console offers chips within them.
        view: dict = {"table": {"id": t.id, "name": t.name, "game": self.profile.game,
                                "minimum_wager": t.minimum_wager, "maximum_wager": t.maximum_wager,
                                "seats": self.profile.seats,
                                **({"chips": list(t.chips)} if t.chips else {})},
                      "round": None, "seats": [], "dealer": None, "settlement": None, "validations": [],
                      "devices": self.devices.published() if self.devices else [],
                      "alarms": list(self.alarms), "fault": self.fault}
        st = self.state
        r = st.round if st else None
        if r is not None and not self.fault:
            rv = r.view()
            view["alarms"] += rv.pop("alarms")
            view.update(rv)
            echoed = self.devices.echoed_lights() if self.devices and r.game == "caribbean-stud" else None
            if echoed is not None:   # the lights the players see: as echoed, the round's wish beside it
                for seat in view["seats"]:
                    seat["light_wanted"] = seat.get("light", "off")
                    seat["light"] = echoed.get(seat["seat"], "off")
            if r.round_id == self._check_round and view["round"].get("draw") is not None:
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
                self._offer_shoe_loaded(view["round"])
        else:
            why = st.can_open() if st else None
            step = ("The table is in a fault: a supervisor must clear it." if self.fault
                    else (why[0].upper() + why[1:] + "." if why else
                          "Seat the players, then press Next hand." if st.seats is not None
                          else "Opening the first round."))
            view["round"] = {"id": None, "state": "fault" if self.fault else "none", "next_step": step,
                             "buttons": [{"event": "next_round",
                                          "label": "Next hand" if st and st.seats is not None else "Next round",
                                          "enabled": not self.fault and why is None}]}
            if why and not self.fault:
                self._offer_shoe_loaded(view["round"])
        # The next step agrees with the alarms: a jammed shoe or a stopped shuffler is what to do now.
        blocking = [a for a in self.alarms if a.get("condition")]
        if blocking and r is not None and not r.closed and not self.fault:
            view["round"]["next_step"] = blocking[-1]["message"]
        if self.fault:
            view["alarms"].append({"kind": "fault", "message": self.fault["reason"]})
        view["software"] = self.software_view()   # a change waiting for supervisors (runtime/software.py)
        if st is not None and st.seats is not None:
            view["seating"] = st.seating_view()   # poker: controller/runtime/contract.py Seating
            view["jackpot"] = st.jackpot_view()   # poker: contract.py JackpotView (None without a jackpot)
            view["time_charges"] = st.time_view()   # poker: contract.py TimeChargesView (a time-charge rake)
        meter = st.current_meter() if st else None
        if meter is not None and "meter" not in view:
            view["meter"] = {"amount": meter.amount, "reset": meter.reset_amount, "carry": meter.carry,
                             "pending": []}
        link = getattr(self, "link", None)
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
