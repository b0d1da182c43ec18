"""The live table: one queue, one consumer, and the journal before every effect.

Everything that can change a round arrives on one asyncio queue: the drivers'
messages (the shoe's cards, the shuffler's count, the lock-out button and the
acceptors), the dealer's panel and screen, the supervisor. One consumer takes
them in order, in batches of whatever is waiting, and for each event

1. applies it to the round in progress (controller/games/caribbean_stud/at_table.py, war.py, or a
   poker hand, poker.py): pure, and a refused event (EventRefused) changes nothing;
2. appends it to the journal with whatever it caused (meter movements, the
   round record), or the refusal for the audit, in one transaction per batch
   that is durable before `append_many` returns;
3. only then carries out its effects: lights and the lock-out indicator, the
   meter display, cards asked of the shoe, the published state the screens show.

So a lock-out is on disk before the lights change and a settlement before any
screen shows it. At a round's opening the table journals a snapshot of what it
carries between rounds (controller/runtime/tablestate.py); after a power cut it
rebuilds the round in progress from the snapshot and the events since, checks
the shoe against the journal, and goes on or voids the round (the policy and its
provisions: controller/runtime/tablestate.py). A failed self-check or a journal
that will not replay is a fault that stays until a supervisor clears it.

Drivers, the panel and the screens only put events (`submit`) and read the
published state (`published`, `subscribe`); the interface is
docs/RUNTIME-INTERFACE.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog

from controller import boundary, paths
from controller.games import registry
from controller.games.base import EventRefused
from controller.games.event import as_declared
from controller.games.handpay import redacted
from controller.journal.store import JournalBusy, JournalError, PayloadError, canonical_payload
from controller.journal.writer import JournalWriter, NotRecorded
from controller.runtime.faults import FaultState
from controller.runtime.loop import CLOSE_PATIENCE, Submission, cancel_all, report_failure
from controller.runtime.software import SoftwareAcceptance
from controller.runtime.view import PublishedView
from controller.runtime.workers import DeviceWorkers
from controller.runtime.tablestate import RecoveryError, TableState, round_event
from controller.pit.acts import EVENT_ACTS as PIT_EVENTS

if TYPE_CHECKING:
    from controller.journal.anchor import Keeper
    from controller.journal.sealing import Problem
    from controller.floor.intable import FloorFeed
    from controller.journal.store import Journal
    from controller.runtime.devices import DeviceSet
    from controller.runtime.linked import LinkedTable

BATCH = 64
SCRUB_EVERY_S = 3600.0   # the whole journal scrubbed again at least hourly
# a supervisors' correction of the meter as the journal writes it (canonical JSON: sorted, no spaces); a
# refused win's return is journaled in its round, so latest() (table entries only) never takes it for one
SECOND_CORRECTION = '"reason":"correction"'

log = structlog.get_logger("controller.table")


class StartFailed(Exception):
    """The table cannot start as configured (a screen port taken): exit non-zero, never READY."""


def _clearing(event: boundary.Event) -> boundary.ClearFault | boundary.AcceptSoftware:
    """A fault's clearing as the door admitted it (accepting the software clears its fault too)."""
    if isinstance(event, boundary.AcceptSoftware):
        return event
    return as_declared(event, boundary.ClearFault)


def plain(value: Any) -> Any:
    """The value if the journal can store it as it is, else a readable stand-in (for refusals)."""
    try:
        canonical_payload(value)
        return value
    except PayloadError:
        return {"unreadable": repr(value)[:500]}


class Table:
    """One table: the queue, its consumer, the journal, the devices, the published state.

    What runs or is kept beside the consumer is an object the table holds, each with its
    dependencies declared: `faults` (controller/runtime/faults.py), `view` (view.py, the
    published state), `workers` (workers.py, the device workers), `software` (software.py).
    """

    def __init__(self, profile: Any, *, data_dir: str | Path | None = None, autoplay: bool = False,
                 rounds: int | None = None, seed: int | None = None, out: Any = None,
                 screen: bool | None = None, hand: bool | None = None, emulate: bool = False,
                 clock: Any = None, scrub_every_s: float = SCRUB_EVERY_S) -> None:
        from controller.testmode import missing_devices
        self.profile = profile
        self.data_dir = paths.data_dir(data_dir or profile.table.data_dir)
        self.autoplay, self.rounds_limit, self.seed = autoplay, rounds, seed
        # Test mode is never play (controller/testmode.py): asked for, autoplayed, or any device emulated
        self.test_mode = emulate or autoplay or bool(missing_devices(profile))
        from controller.clock import Clock
        self.scrub_every_s = scrub_every_s
        self.clock = clock if clock is not None else Clock()   # controller/clock.py: injectable in tests
        self.clock_sync: dict | None = None   # the system's last word on the clock's synchronisation
        self.clock_acknowledged: str | None = None   # the gaming day a supervisor opened on an unsynchronised clock
        self._meter_pending: dict | None = None    # a meter correction one supervisor asked for (two carry it out)
        self._meter_approved: dict | None = None   # the first's, while the second's is carried out
        self.out = out
        self.screen = ("screen" in profile.model_fields_set) if screen is None else screen
        # A person at the screens of an emulated casino war table has no shoe to draw from: the emulated
        # dealer's hand draws each card the step names (its game's play.hand). Tests draw.
        self.hand = (self.screen and not autoplay) if hand is None else hand
        self.queue: asyncio.Queue = asyncio.Queue()
        self.journal: Journal | None = None
        self.state: TableState | None = None
        self.alarms: list[dict] = []
        from controller.runtime.dealers import DealerOnDuty
        self.dealer = DealerOnDuty(pin_required=profile.dealers.pin == "required")   # who deals now (issue 30): the panel's events are journaled with them
        self.devices: DeviceSet | None = None
        self.closed_rounds = 0
        self.recovery: dict | None = None
        self._tasks: list[asyncio.Task] = []
        self._in_flight: asyncio.Task[None] | None = None   # the batch being journaled and carried out
        self._stopped = asyncio.Event()
        self.check_round: str | None = None   # the round to check against the shoe after a restart
        self._load_asked = False
        self._opening = False
        self._bound: str | None = None
        self.exit_status = 0
        self.link: LinkedTable | None = None   # controller/runtime/linked.py: a Caribbean stud table on a linked progressive
        self.anchors: Keeper | None = None   # controller/journal/anchor.py: the journal's head kept off the box
        self.floor: FloorFeed | None = None   # controller/floor/intable.py: the facts sent to the floor
        self.faults = FaultState(self.data_dir, lambda: self.journal, self._on_fault)
        # every append the running table makes, wherever it is made: one that fails faults the table
        self.writer = JournalWriter(lambda: self.journal, lambda detail: self.raise_fault("journal", detail))
        self.software = SoftwareAcceptance(self.writer)
        self.view = PublishedView(self)
        self.workers = DeviceWorkers(self)

    # -- the interface for screens and drivers (docs/RUNTIME-INTERFACE.md) -----------------

    async def submit(self, event: dict, *, source: str, who: str | None = None) -> dict:
        future = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(Submission(event, source, who, future))
        return await future

    def published(self) -> dict:
        return self.view.published

    def meter_correction(self) -> dict | None:
        """The meter correction a first supervisor asked for that no second has carried out yet: the
        table's own word, published so every supervisor's screen (and a reload) shows who signed first."""
        return dict(self._meter_pending) if self._meter_pending is not None else None

    def subscribe(self) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue()
        self.view.subscribers.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue) -> None:
        self.view.subscribers.discard(q)

    @property
    def fault(self) -> dict | None:
        """The fault the table is in (None: it plays); docs/RUNTIME-INTERFACE.md `fault`."""
        return self.faults.current

    # -- what the held objects call back (declared in their Protocols) --------------------------

    def publish(self) -> None:
        self.view.publish()

    def spawn(self, coro: Coroutine[object, None, object], name: str) -> asyncio.Task[object]:
        task = asyncio.create_task(coro, name=name)
        self._tasks = [t for t in self._tasks if not t.done()] + [task]
        task.add_done_callback(report_failure)
        return task

    def after_batch(self) -> None:
        self._after_batch()

    def wake_outputs(self) -> None:
        """The lights, lock-out and meter display set again (a link's status changed)."""
        self.workers.wake_outputs.set()

    def raise_fault(self, source: str, detail: str) -> None:
        """A fault found while running: journaled, then the table stops playing (runtime/faults.py)."""
        if source == "journal":
            self._journal_failed = True   # it takes nothing more: not even the power-down is asked of it
        self.faults.raise_(source, detail)

    def set_fault(self, faults: list[dict], problems: list[Problem]) -> None:
        """The table is in the fault journaled as `faults` (controller/journal/anchor.py)."""
        self.faults.set(faults, problems)

    @property
    def stopped(self) -> bool:
        """Whether the table was asked to stop (its rounds' limit, an autoplayed table's fault)."""
        return self._stopped.is_set()

    def _on_fault(self) -> None:
        if self.autoplay:
            self.exit_status = 3   # nobody at an autoplayed table can clear it: stop, and say so
            self.stop()

    # -- start and stop ------------------------------------------------------------------------

    async def start(self) -> None:
        from controller.runtime.devices import DeviceSet
        from controller.sdnotify import Notifier
        from controller.journal.selfcheck import power_up

        from controller import testmode
        self.notifier = Notifier()
        if self.test_mode:
            log.warning("test_mode", message=testmode.WARNING)   # at every start (5319.58)
        try:
            check = power_up(self.data_dir, mode=testmode.TEST if self.test_mode else testmode.LIVE,
                             replica=self.profile.journal.replica)
        except JournalBusy:
            raise
        except JournalError as exc:
            # Opened, then a damaged page met while reading it: as good as unreadable.
            self.raise_fault("journal", f"the journal cannot be read: {exc}")
        else:
            self.journal = check.journal
            self.software.change = check.change
            if check.faulted:
                self.faults.set(check.faults, check.problems)
            else:
                self._recover()
        devices = self.devices = DeviceSet(self.profile, self.queue, data_dir=self.data_dir, seed=self.seed,
                                           journal=self.journal)
        await devices.start()
        pool = registry.game(self.profile.game).profiles.pool(self.profile)
        if pool is not None and self.journal is not None:
            from controller.runtime.link_by_game import for_table
            link = self.link = for_table(self, pool)
            link.client.mode = testmode.TEST if self.test_mode else testmode.LIVE   # a pool of the other mode refuses it
            await link.start()
        from controller.journal.anchor import Keeper, integrity_fault, sinks_for
        # the journal's head off the box: checked before the first round
        anchors = self.anchors = Keeper(self, sinks_for(devices.progressive, self.link.client if self.link else None))
        if self.journal is not None and not self.fault:
            found = await anchors.check_at_start()
            if found:
                integrity_fault(self, "anchor", found)
        if getattr(self.profile, "floor", None) is not None and self.journal is not None:
            from controller.floor.intable import FloorFeed
            from controller.floor.status import par_of, status_of
            par = par_of(self.profile)   # None until the par sheet's cache holds this paytable's
            self.floor = FloorFeed(self.data_dir, self.profile.floor, self.profile.game,
                                   status=lambda: status_of(self.published(), par()))
            self.spawn(self.floor.run(), "floor")
        if self.journal is not None:
            self._clock_acknowledged_at_start()
            await self._clock_sync()   # at start, before the first round: the gaming day may wait on it
            self.clock.jump()   # the base the watch compares with, taken now
            self.spawn(self._watch_clock(), "clock")
        for coro, name in ((self._consume(), "consumer"), (self.workers.dealer(), "dealer"),
                           (self.workers.outputs(), "outputs"), (self.notifier.keep_alive(), "watchdog")):
            self.spawn(coro, name)
        if self.check_round:
            self.spawn(self.workers.check_shoe(self.check_round), "shoe-check")
        self._after_batch()
        if self.journal is not None and not self.fault:
            self.spawn(self._scrub_continually(), "scrub")
        if self.autoplay and not self.fault:
            from controller.runtime.autoplay import Autoplay
            self.spawn(Autoplay(self, devices.world, self.seed).run(), "autoplay")
        elif self.hand and devices.world is not None \
                and (hand := registry.game(self.profile.game).play.hand(self, devices.world)) is not None:
            self.spawn(hand, "emulated-hand")
        if self.screen:
            await self._start_screen()   # bound and serving before systemd hears READY
        self.notifier.ready("fault: a supervisor must clear it" if self.fault else "table running")

    async def _start_screen(self) -> None:
        """A table whose dealer and supervisor have no screen cannot run: a port taken is a start failure."""
        import importlib.util
        if importlib.util.find_spec("controller.ui") is None:
            return
        from controller.ui.app import ScreenServer
        s = self.profile.screen
        try:
            server = ScreenServer(self, s.bind, s.port, s.secrets, kiosk_port=s.kiosk_port, kiosk_user=s.kiosk_user)
        except OSError as exc:
            log.error("screen_bind_failed", bind=s.bind, port=s.port, kiosk_port=s.kiosk_port, error=str(exc))
            raise StartFailed(str(exc)) from None
        await server.start()
        self.spawn(self._serve_screen(server), "screen")

    @staticmethod
    async def _serve_screen(server) -> None:
        try:
            await server.wait()
        finally:
            await server.stop()

    def stop(self) -> None:
        self._stopped.set()

    async def wait(self) -> None:
        await self._stopped.wait()

    async def close(self) -> None:
        self.notifier.stopping()
        batch = [self._in_flight] if self._in_flight is not None else []
        if batch and not batch[0].done():   # the batch journaled is carried out first
            await asyncio.wait(batch, timeout=CLOSE_PATIENCE)
        await cancel_all([*self._tasks, *batch])
        self._power_down()
        if self.anchors is not None:
            await self.anchors.close()
        if self.devices is not None:
            closing = asyncio.ensure_future(self.devices.close())
            await asyncio.wait({closing}, timeout=CLOSE_PATIENCE)
            if not closing.done():
                log.warning("devices_did_not_close")
                await cancel_all([closing])
        if self.link is not None:   # the last to stop: nothing can ask the pool anything after it (issue 16)
            await self.link.close()
        if self.floor is not None:   # what was journaled before the stop: sent, or kept in its outbox (issue 26)
            await self.floor.close()
        if self.journal is not None:
            self.journal.close()
        self.notifier.close()

    async def _scrub_continually(self) -> None:
        """Every sealed byte of the journal read again once the table is up, and again every `scrub_every_s`
        (hourly): a byte changed under a running table faults it within the hour (GLI-11's continual check)."""
        while not self.fault:
            await self.workers.scrub()
            await asyncio.sleep(self.scrub_every_s)

    # -- the clock (controller/clock.py) ----------------------------------------------------------

    def _clock_acknowledged_at_start(self) -> None:
        assert self.journal is not None
        for e in self.journal.table_entries("clock"):
            if isinstance(e.payload, dict) and e.payload.get("event") == "acknowledged":
                self.clock_acknowledged = e.payload.get("day")

    def _gaming_day(self) -> str:
        from controller.clock import gaming_day
        t = self.profile.table
        return gaming_day(self.clock.wall(), t.gaming_day_start, t.timezone)

    def clock_hold(self) -> str | None:
        """Why no round may open for the clock (unsynchronised, this gaming day not acknowledged), or None."""
        from controller.clock import UNSYNCHRONISED
        sync = self.clock_sync
        if sync is None or sync.get("sync") != UNSYNCHRONISED or self.clock_acknowledged == self._gaming_day():
            return None
        return (f"the clock is not synchronised ({sync.get('detail')}): a supervisor acknowledges it "
                "before the gaming day opens")

    async def _watch_clock(self) -> None:
        """At start and every hour the clock's synchronisation journaled; every few seconds the wall clock
        compared with the monotonic one, a jump journaled with both readings and raised as an alarm."""
        from controller.clock import jump_alarm
        c = self.clock
        next_sync = c.monotonic() + c.sync_every_s   # the start's was journaled by start()
        while True:
            if c.monotonic() >= next_sync:
                next_sync = c.monotonic() + c.sync_every_s
                await self._clock_sync()
            jump = c.jump()
            if jump is not None:
                alarm = jump_alarm(jump)
                self.alarms = [a for a in self.alarms if a.get("condition") != "clock-jump"] + [alarm]
                log.warning("clock_jump", **jump)
                with contextlib.suppress(NotRecorded):
                    self.writer.append_many([("clock", {"event": "jump", "jump": jump, "sync": (self.clock_sync or {}).get("sync"),
                                                        "detail": alarm["message"]}, None),
                                             ("alarm", alarm, None)])
                self.publish()
            await asyncio.sleep(c.check_s)

    async def _clock_sync(self) -> None:
        """The system's word on the clock's synchronisation, journaled (a `clock` event)."""
        sync = await asyncio.to_thread(self.clock.sync)
        held = self.clock_hold()
        self.clock_sync = sync
        with contextlib.suppress(NotRecorded):
            self.writer.append("clock", {"event": "sync", **sync, "day": self._gaming_day()})
        if self.clock_hold() != held:
            self.after_batch()

    def _acknowledge_clock(self, event: dict, who: str) -> list[tuple]:
        """A supervisor opens the gaming day on the clock as it is, and clears a jump's alarm."""
        day = self._gaming_day()
        self.clock_acknowledged = day
        gone = [a for a in self.alarms if a.get("condition") == "clock-jump"]
        self.alarms = [a for a in self.alarms if a not in gone]
        return [("clock", {"event": "acknowledged", "by": who, "day": day, "reason": event.get("reason", ""),
                           "sync": (self.clock_sync or {}).get("sync"),
                           "detail": f"acknowledged by {who} for the gaming day {day}"}, None)] + \
               [("alarm-cleared", {"condition": a["condition"], "kind": a["kind"], "by": who}, None) for a in gone]

    def _power_down(self) -> None:
        """An orderly stop is a significant event (5317.26): journaled last, so the next start tells it from
        a kill or a power cut (controller/journal/events.py)."""
        if self.journal is None or getattr(self, "_powered_down", False) or getattr(self, "_journal_failed", False):
            return
        self._powered_down = True
        # straight to the journal: a journal that takes nothing more is already the table's fault, not a new one
        with contextlib.suppress(JournalError, PayloadError):
            self.journal.append("power-down", {"reason": "an orderly stop", "fault": bool(self.fault)})

    # -- recovery --------------------------------------------------------------------------------

    def _recover(self) -> None:
        started = time.perf_counter()
        journal = self.journal
        assert journal is not None   # recovery reads the journal power_up opened (start, _clear_fault)
        snap = journal.latest_snapshot()
        try:
            if snap is None:
                state, since = TableState(self.profile), 0
            else:
                state, since = TableState.from_snapshot(self.profile, snap.payload), snap.seq
            replayed = state.replay(journal.entries_since(since))
        except (RecoveryError, KeyError, TypeError, ValueError) as exc:
            self.raise_fault("recovery", f"the journal does not rebuild the table: {exc}")
            return
        self.state = state
        self.dealer.recover(journal)   # the dealer on duty when the table stopped
        # a correction the first supervisor asked for still awaits the second after a restart
        self._meter_pending, self._meter_approved = self._pending_correction(journal), None
        r = state.round
        in_progress = r is not None and not r.closed
        self.check_round = r.round_id if r is not None and in_progress else None
        self.recovery = {"snapshot": snap.seq if snap else None, "replayed": replayed,
                         "round": r.round_id if r else None, "state": r.state if r else None,
                         "in_progress": in_progress, "ms": round((time.perf_counter() - started) * 1000, 3)}
        log.info("recovered", **self.recovery)
        with contextlib.suppress(NotRecorded):   # not recorded: the table is in a fault for it (journal/writer.py)
            self.writer.append("recovery", {k: v for k, v in self.recovery.items() if k != "ms"})
            for kind, payload in state.at_start():   # what the game notes at the start (a meter's pending change)
                self.writer.append(kind, payload)

    # -- the consumer ---------------------------------------------------------------------------

    async def _consume(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            # shielded: a stop lets the batch finish (close() waits for it), so nothing journaled goes
            # uncarried-out, such as a round closed on the disk and never printed or shown
            self._in_flight = asyncio.create_task(self._handle_batch(batch), name="batch")
            await asyncio.shield(self._in_flight)

    async def _handle_batch(self, batch: list) -> None:
        rows: list[tuple] = []
        done: list[tuple] = []
        anchors = self.anchors
        for index, item in enumerate(batch):
            pending, held = self._events_of(item, rows), None
            while pending:   # an event may bring others: the chips standing on the acceptors (devices.Acceptors)
                event, source, who, future = pending.pop(0)
                first = [] if event is held else self._standing_chips(event)
                if first:   # they count before it: handled first, then the event itself
                    held = event
                    pending[:0] = [*first, (event, source, who, future)]
                    continue
                clearing = isinstance(event, dict) and event.get("type") in ("clear_fault", "accept_software")
                if clearing:
                    # what came before the clearing is journaled, carried out and answered first:
                    # the clearing judges the table as those events left it
                    if not self._commit(rows, done):
                        self._unanswered(batch[index:])
                        return
                    rows, done = [], []
                result, effects, new_rows = self._handle(event, source, who)
                if isinstance(event, dict) and event.get("type") == "shoe_check":
                    self.check_round = None   # settled, one way or the other: the shoe may deal again
                rows += new_rows
                pending[:0] = self._chips_after(event, result, rows)
                done.append((future, result, effects))
                if anchors is None:
                    continue
                if clearing and any(e.get("type") == "fault_cleared" for e in effects):
                    await anchors.after_clear()   # the controller put into service, before play goes on
                elif anchors.wants(effects):
                    # a settlement or a close: journaled, anchored off the box, and only then shown,
                    # so no round the dealer is told to pay lies beyond the anchor (issue 26)
                    if not self._journal(rows, done):
                        self._unanswered(batch[index + 1:])
                        return
                    self._answer(done, carry_out=await anchors.cover())
                    rows, done = [], []
        self._commit(rows, done)
        self._after_batch()

    def _commit(self, rows: list[tuple], done: list[tuple]) -> bool:
        """Journal `rows`, then carry out the effects and answer the submitters, in that order."""
        if not self._journal(rows, done):
            return False
        self._answer(done)
        return True

    def _answer(self, done: list[tuple], carry_out: bool = True) -> None:
        """Carry out the journaled effects and answer their submitters (a settlement whose anchor
        the controller did not take is answered, not carried out: the table is in a fault)."""
        for future, result, effects in done:
            if carry_out:
                self._carry_out(effects)
            if future is not None and not future.done():
                future.set_result(result)

    @staticmethod
    def _unanswered(items: list) -> None:
        """Answer what the batch still held after the journal failed: nothing of it was recorded."""
        for item in items:
            future = getattr(item, "future", None)
            if future is not None and not future.done():
                future.set_result({"ok": False, "error": "not recorded: the journal failed"})

    def _journal(self, rows: list[tuple], done: list[tuple]) -> bool:
        if rows and self.anchors is not None:
            rows = self.anchors.records() + rows   # the last anchor writes' records ride with this commit
        try:
            self.writer.append_many(rows)   # nothing, or a journal too damaged to open: the fault says so
            return True
        except NotRecorded as exc:   # the writer put the table in a fault for it
            for future, _, _ in done:
                if future is not None and not future.done():
                    future.set_result({"ok": False, "error": f"not recorded: {exc}"})
            return False

    def _events_of(self, item: Any, rows: list) -> list[tuple]:
        """The table's events in a queue item; device news goes straight into `rows`."""
        if isinstance(item, Submission):
            return [(item.event, item.source, item.who, item.future)]
        from controller.runtime.devices import alarm_for, cleared_by, device_of, table_events
        from drivers.events import DeviceStatus
        from drivers.progressive.protocol import PanelButtonPressed
        from drivers.shoe.protocol import CardDispensed
        if isinstance(item, DeviceStatus):
            assert self.devices is not None   # a device's news comes from the drivers start() made
            self.devices.on_status(item)
            rows.append(("device", {"device": item.device, "state": item.state.value, "detail": item.detail}, None))
            from controller.runtime.devices import link_alarms
            self.alarms, raised_or_cleared = link_alarms(item, self.alarms)   # unpaired, a frame refused
            rows += raised_or_cleared
            if item.device == "progressive":
                self.workers.outputs_sent = None   # a controller back: set its outputs again
            return []
        device = device_of(item)
        if self.devices is not None:
            self.devices.acceptors.heard(item)
        if isinstance(item, CardDispensed):
            self.workers.card_dispensed()
        from controller.runtime.devices import condition_rows
        rows += condition_rows(item)   # door-open, door-closed, battery-low (5317.26)
        alarm = alarm_for(item)
        if alarm is not None:
            self.alarms = [a for a in self.alarms if a != alarm] + [alarm]
            rows.append(("alarm", alarm, None))
        ended = cleared_by(item)   # the condition that raised an alarm is over: so is the alarm (issue 18)
        gone = [a for a in self.alarms if a.get("condition") in ended]
        if gone:
            self.alarms = [a for a in self.alarms if a not in gone]
            rows += [("alarm-cleared", {"condition": a["condition"], "kind": a["kind"]}, None) for a in gone]
        round_ = self.state.round if self.state else None
        source, who = ("panel", "dealer") if isinstance(item, PanelButtonPressed) else ("device", device)
        return [(e, source, who, None) for e in table_events(item, round_)]

    def _standing_chips(self, event: Any) -> list[tuple]:
        """The chips standing on the acceptors that count before `event` (devices.Acceptors.before)."""
        if self.devices is None or self.state is None:
            return []
        return [(e, "device", "progressive", None) for e in self.devices.acceptors.before(event, self.state.round)]

    def _chips_after(self, event: Any, result: dict, rows: list) -> list[tuple]:
        """The chips that count after `event` was taken, and alarms for those that cannot."""
        if self.devices is None or self.state is None:
            return []
        from controller.runtime.devices import is_stray_chip
        acceptors, round_, ok = self.devices.acceptors, self.state.round, bool(result.get("ok"))
        if acceptors.ended(event, ok):
            gone = [a for a in self.alarms if is_stray_chip(a)]
            self.alarms = [a for a in self.alarms if a not in gone]
            rows += [("alarm-cleared", {"condition": a["condition"], "kind": a["kind"]}, None) for a in gone]
        for alarm in acceptors.strays(event, ok, round_):
            self.alarms = [a for a in self.alarms if a != alarm] + [alarm]
            rows.append(("alarm", alarm, None))
        return [(e, "device", "progressive", None) for e in acceptors.after(event, ok, round_)]

    def events(self, source: str) -> boundary.Catalogue:
        """What `source` may submit at this table: its game's declarations (TablePart.events)."""
        return registry.game(self.profile.game).table.events(source, self.profile)

    def _handle(self, event: Any, source: str, who: str | None) -> tuple[dict, list, list]:
        r = self.state.round if self.state else None
        rid = r.round_id if r is not None and not r.closed else None
        who = self.dealer.who(source, who)   # the panel's and the dealer's screen's: the dealer on duty
        try:
            kind = boundary.kind_of(event)
            read = boundary.admitted(event, source, who, self.events)   # who may say what: controller/boundary.py
            if isinstance(read, str):
                raise EventRefused(kind, self._state_name(), [], read)
            text = boundary.as_text(event)   # what the journal keeps: a driver's cards as text
            if plain(text) is not text:
                raise EventRefused(kind, self._state_name(), [], "an event is plain JSON: whole numbers, no floats")
            if kind == "dealer_on_duty":   # a dealer signs in, at the start or at a rotation (runtime/dealers.py)
                return {"ok": True, "effects": []}, [], self.dealer.sign_in(read, source)
            if kind == "acknowledge_clock":
                assert who is not None   # a supervisor's event (controller/boundary.py)
                return {"ok": True, "effects": []}, [], self._acknowledge_clock(event, who)
            if kind == "log_entry":   # the entry and maintenance log (controller/journal/entrylog.py)
                from controller.journal.entrylog import entry_payload
                try:
                    logged = entry_payload(event.get("person"), event.get("licence"), event.get("reason"),
                                           event.get("place", "box"), source="screen")
                except ValueError as exc:
                    raise EventRefused(kind, self._state_name(), [], str(exc).replace("--who", "person")) from None
                return {"ok": True, "effects": []}, [], [("entry", {**logged, "by": who}, None)]
            if kind in PIT_EVENTS:   # the table's books (controller/pit): journaled, nothing else changes
                from controller.pit.acts import entry as pit_entry
                from controller.pit.books import BooksRefused
                try:
                    booked = pit_entry(kind, read.model_dump(exclude={"type"}), who, source)
                except BooksRefused as exc:
                    raise EventRefused(kind, self._state_name(), [], str(exc)) from None
                return {"ok": True, "effects": []}, [], [("pit", booked, rid)]
            if kind in ("clear_fault", "accept_software"):   # accepting the software clears its fault
                assert who is not None   # a supervisor's event: controller/boundary.py refuses it without who
                return {"ok": True, "effects": []}, self._clear_fault(read, who), []
            if self.fault or self.state is None:
                raise EventRefused(kind, "fault", ["clear_fault"],
                                   f"the table is in a fault ({self.fault['reason'] if self.fault else '?'}); "
                                   "a supervisor must clear it")
            if kind == "next_round":
                self._opening = False
                held = self.clock_hold()
                if held is not None:
                    raise EventRefused(kind, self._state_name(), ["acknowledge_clock"], held)
                snapshot, effects = self.state.open_round(now=int(time.time()))   # poker's time charges
                if self.link is not None:   # a restart resends these without reading the whole journal
                    snapshot["link"] = self.link.unconfirmed()
                opening = snapshot["opening"]
                rows = [("snapshot", snapshot, None),
                        ("round-opened", {**opening, "by": {"source": source, "who": who}}, opening["round"])]
                return {"ok": True, "effects": effects}, effects, rows
            if kind == "correct_meter" and (r is None or r.closed):
                asked = self._meter_correction(event, who)
                if asked is not None:   # the first of two supervisors: journaled, nothing corrected yet
                    return {"ok": True, "effects": [], "awaits": asked["awaits"]}, [], [("meter-approval", asked, None)]
            # A poker jackpot's qualifying hand is verified by the floorperson while the next hand plays.
            if kind in ("correct_meter", "verify_jackpot", "verify_time_charges") or r is None or r.closed:
                if kind == "correct_meter" and r is not None and not r.closed:
                    raise EventRefused(kind, r.state, r.allowed(), "the meter is corrected between rounds")
                target, applied = None, read
                effects = self.state.table_event(read, who)
            else:
                if kind == "progressive" and self.link is not None and not self.link.playable:
                    raise EventRefused(kind, r.state, r.allowed(), self.link.refusal())
                target, applied = r.round_id, round_event(read, who)   # the model, its cards as Card
                effects = r.apply(applied)
                if r.closed:
                    self.state.after_close()
        except EventRefused as exc:
            self._meter_approved = None   # a second supervisor's correction refused: nothing of it carried out
            return ({"ok": False, "error": str(exc)}, [],
                    [("refused", boundary.record(event, source, who, str(exc)), rid)])   # bounded
        except NotRecorded as exc:   # an approval or a clearing the journal did not take: the table is in a fault
            return {"ok": False, "error": f"not recorded: {exc}"}, [], []
        except Exception as exc:  # noqa: BLE001 - a bug: stop playing rather than guess
            log.exception("internal_error", what=redacted(boundary.sample(event)))   # a player's id masked
            self.raise_fault("internal", f"an internal error handling {kind}: {exc!r}")
            return {"ok": False, "error": f"internal error: {exc!r}"}, [], []
        if kind == "correct_meter" and self._meter_approved is not None:   # the second supervisor's: both named
            first = self._meter_approved["by"]
            self._meter_approved = None
            for e in effects:
                if e["type"] == "journal" and e["kind"] == "meter" and isinstance(e.get("payload"), dict):
                    e["payload"]["approved_by"] = first
        rows = [("event", {"event": boundary.as_text(applied), "source": source, "who": who}, target)]
        rows += [(e["kind"], e["payload"], target) for e in effects if e["type"] == "journal"]
        shown = [e for e in effects if e["type"] != "journal"]
        return {"ok": True, "effects": shown}, shown, rows

    def _clear_fault(self, event: boundary.Event, who: str) -> list[dict]:
        """A supervisor clears the fault (or accepts the software that caused it); the table recovers."""
        from controller.journal import selfcheck
        if not self.fault:
            raise EventRefused("clear_fault", "running", [], "the table is not in a fault")
        note = _clearing(event).reason
        if not note.strip():
            raise EventRefused("clear_fault", "fault", ["clear_fault"], "clearing a fault needs a reason")
        # What the clearing accepts is found now (the journal verified again, the software, the faults),
        # shown worst first, and signed for by as many supervisors as the worst needs (controller/journal/severity.py)
        asked = selfcheck.to_accept(self.journal, self.data_dir)
        self.faults.asking(asked.problems, asked.needed)
        if asked.needed is None:
            raise EventRefused("clear_fault", "fault", [], f"nobody may clear this fault: {asked.refusal()}")
        second = self.software.second(who, asked.accepted)
        if second is None and asked.needed >= 2:
            # the first of two different supervisors, each signed in with their own PIN (runtime/software.py)
            self.faults.approved(who)
            return self.software.approve(who, note, asked.accepted)
        try:
            if self.journal is None:
                selfcheck.clear_fault(self.data_dir, who, note, second=second)
                self.journal = selfcheck.power_up(self.data_dir).journal
            else:
                selfcheck.clear(self.journal, self.data_dir, who, note, second=second, asked=asked,
                                writer=self.writer)
        except selfcheck.SecondSupervisor:   # (found so above; kept for a clearing that raced a change)
            self.faults.approved(who)
            return self.software.approve(who, note, asked.accepted)
        except selfcheck.Unacceptable as exc:
            raise EventRefused("clear_fault", "fault", [], f"nobody may clear this fault: {exc}") from None
        self.software.accepted()
        self.faults.cleared()
        self._recover()
        if self.check_round:
            self.spawn(self.workers.check_shoe(self.check_round), "shoe-check")
        return [{"type": "fault_cleared", "by": who}]

    def _meter_correction(self, event: dict, who: str | None) -> dict | None:
        """A meter correction takes two different supervisors, like an integrity clearing (issue 28): the
        first's asks for it (returned, to journal as `meter-approval`); the same amount from a second,
        different one carries it out (None: go on). Refused (EventRefused) as the correction itself would be."""
        assert self.state is not None
        amount, reason = event.get("amount"), event.get("reason")
        if self.state.current_meter() is None:
            raise EventRefused("correct_meter", "between rounds", [], "this table has no progressive meter")
        if type(amount) is not int or amount < 0:
            raise EventRefused("correct_meter", "between rounds", [], "amount must be whole cents, 0 or more")
        if not isinstance(reason, str) or not reason.strip():
            raise EventRefused("correct_meter", "between rounds", [], "a correction needs a reason")
        pending = self._meter_pending
        if pending is not None and pending["amount"] == amount and pending["by"] != who:
            self._meter_pending, self._meter_approved = None, pending
            return None
        self._meter_pending = {"by": who, "amount": amount, "reason": reason.strip(),
                               "awaits": "a second, different supervisor corrects the meter to the same amount"}
        return dict(self._meter_pending)

    @staticmethod
    def _pending_correction(journal: Journal) -> dict | None:
        """The first supervisor's ask, as the journal holds it, unless a correction was carried out after it
        (a restart must neither drop the ask nor let a second supervisor's press stand alone as a first's)."""
        asked = journal.latest("meter-approval")
        if asked is None or not isinstance(asked.payload, dict):
            return None
        done = journal.latest("meter", mark=SECOND_CORRECTION)
        if done is not None and done.seq > asked.seq:
            return None
        return dict(asked.payload)

    def _state_name(self) -> str:
        r = self.state.round if self.state else None
        return "fault" if self.fault else (r.state if r else "none")

    # -- effects, once journaled ---------------------------------------------------------------

    def _carry_out(self, effects: list[dict]) -> None:
        for e in effects:
            t = e["type"]
            if t == "shoe_ready":
                self._load_asked = False
            elif t == "closed":
                self._round_closed()
            elif t == "alarm":
                log.warning("alarm", kind=e.get("kind"), message=e.get("message"))

    def _round_closed(self) -> None:
        self.closed_rounds += 1
        self.check_round = None
        st = self.state
        assert st is not None and st.round is not None   # a round closed: the table has one
        r = st.round
        rec = r.record or {}
        log.info("round_closed", round=r.round_id, void=bool(rec.get("void") or rec.get("misdeal")))
        self._check_closed(r, st)
        if self.out is not None:
            rec = r.record or {}
            line = {"round": r.round_id, "game": r.game, "settlement": st.settlement_of(rec),
                    "void": rec.get("void") or rec.get("misdeal")}
            meter = st.current_meter()   # the closed round's (Caribbean stud), None at a game without one
            if meter is not None:
                line["meter"] = meter.amount
            if self.link is not None:
                line["link"] = {"meter": self.link.status.meter_cents, "playable": self.link.playable}
            self.out.write(json.dumps(line, separators=(",", ":")) + "\n")
            self.out.flush()
        if self.rounds_limit is not None and self.closed_rounds >= self.rounds_limit:
            self.stop()

    def _check_closed(self, r: Any, st: TableState) -> None:
        """The round just closed read again from the disk and checked against what the table holds, before the
        next opens (controller/journal/roundcheck.py): a difference is an integrity fault."""
        from controller.journal.roundcheck import check_closed
        if self.journal is None or self.fault:
            return
        meter = st.current_meter()
        problems = check_closed(self.journal, r.round_id, r.record, meter.amount if meter is not None else None)
        if problems:
            log.error("round_check_failed", round=r.round_id, problems=[p.to_json() for p in problems])
            self.faults.found_by_scrub(problems)

    def _after_batch(self) -> None:
        st = self.state
        r = st.round if st is not None else None
        rid = r.round_id if r is not None and not r.closed else None
        if rid != self._bound:
            from controller.logs import bind_round, unbind_round
            if r is not None and rid is not None:
                bind_round(rid)   # every log line from here to round_closed names the round
                log.info("round_opened", game=r.game)
            else:
                unbind_round()
            self._bound = rid
        if st is not None and not self.fault:
            if st.wants_shoe_loaded() and not self._load_asked:
                self._load_asked = True
                assert self.devices is not None   # made in start(), before the first batch
                self.spawn(self.workers.device_call(self.devices.load_shoe(), "load_shoe"), "load-shoe")
            # the first round of a new table opens by itself, at a game whose table does not wait for
            # its dealer (a poker table does: players are still sitting down)
            if st.round is None and st.opens_first_round and st.can_open() is None and not self._opening \
                    and self.clock_hold() is None:
                self._opening = True
                self.queue.put_nowait(Submission({"type": "next_round"}, "table"))
        if self.link is not None and st is not None and not self.fault:
            self.link.after_batch(st.round)
        self.view.publish()
        self.workers.wake()
