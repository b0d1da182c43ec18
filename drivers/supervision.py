"""Keeping a device connected: the part every driver shares, whatever its wire.

A serial shoe and a USB progressive controller lose their links in the same
ways and must be seen by the table to lose them in the same way (PROTOCOLS.md
1.7): a DeviceStatus on the queue and a log line for each change, a reconnect
loop with backoff that never gives up, a pending command failed with
DeviceDisconnected the moment the link is known lost, and a generation counter
so a closed port's late bytes or failure are ignored. Living once here, the
two cannot drift apart; a driver adds only its own handshake and liveness
check (`_connect`, `_keep_alive`, `_connected_detail`).

Everything here runs on the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, Self

from drivers.backoff import Backoff
from drivers.errors import DeviceDisconnected, DeviceError, IncompatibleDevice, UnpairedDevice
from drivers.events import DeviceStatus, LinkState, check_queue
from drivers.waiting import within


class SupervisedDevice:
    """Base of the device drivers: the session loop, link-lost handling and status reports."""

    # how a failure reported by the transport is worded in the reason ("port failed: ...")
    TRANSPORT_FAILED: ClassVar[str] = "link failed"

    timing: Any  # the driver's timing; backoff_initial and backoff_max are read here

    def __init__(self, queue: asyncio.Queue[object], name: str, log: Any) -> None:
        self.name = name
        self._queue = check_queue(queue)
        self._log = log
        self.state: LinkState | None = None
        # counters an operator (and the tests) can read
        self.bad_frames = 0
        self.retransmissions = 0
        self.connections = 0
        self._transport: Any = None
        self._gen = 0
        self._tx_seq = 0
        self._pending: Any = None  # the request waiting for its answer; has a `future`
        self._tx_lock = asyncio.Lock()
        self._lost = asyncio.Event()
        self._lost_reason = ""
        self._connected_event = asyncio.Event()
        self._last_rx_time = 0.0
        self._runner: asyncio.Task[None] | None = None
        self._first: asyncio.Future[bool] | None = None
        self._held: list[object] | None = None  # events that arrive before CONNECTED is reported
        self._closed = False

    # -- what drivers provide -------------------------------------------------------------

    async def _connect(self) -> None:
        """Open the transport (after `_begin_session`) and complete the device's handshake."""
        raise NotImplementedError

    async def _keep_alive(self) -> str:
        """Wait for the link to fail, checking the device is alive; return why it failed."""
        raise NotImplementedError

    def _connected_detail(self) -> str:
        """What the operator sees beside CONNECTED: which device, where."""
        raise NotImplementedError

    def _on_drop(self) -> None:
        """Hook to cancel the driver's own timers when its transport is dropped."""

    # -- public API -------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.state is LinkState.CONNECTED and not self._lost.is_set()

    async def start(self) -> bool:
        """Connect, or report the device missing and keep trying in the background.

        Returns whether the first attempt connected; never raises for a device
        that is absent, so the rest of the box starts regardless.
        """
        if self._runner is not None:
            raise RuntimeError(f"{self.name} already started")
        self._first = asyncio.get_running_loop().create_future()
        self._runner = asyncio.create_task(self._run(), name=f"{self.name}-link")
        return await asyncio.shield(self._first)

    async def wait_connected(self, timeout: float | None = None) -> None:
        await within(self._connected_event.wait(), timeout)

    async def close(self) -> None:
        self._closed = True
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
        await self._drop_transport()
        self._resolve_first(False)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- session ------------------------------------------------------------------------------

    async def _run(self) -> None:
        backoff = Backoff(self.timing.backoff_initial, self.timing.backoff_max)
        ever_connected = False
        while True:
            try:
                await self._connect()
            except IncompatibleDevice as exc:
                await self._drop_transport()
                self._held = None  # whatever it said, it is not our device speaking
                self._set_state(LinkState.UNPAIRED if isinstance(exc, UnpairedDevice) else LinkState.INCOMPATIBLE,
                                exc.message)
                self._resolve_first(False)
                await asyncio.sleep(backoff.next())
                continue
            except DeviceError as exc:
                await self._drop_transport()
                self._set_state(LinkState.DISCONNECTED if ever_connected else LinkState.MISSING, exc.message)
                self._release_held()
                self._resolve_first(False)
                await asyncio.sleep(backoff.next())
                continue
            ever_connected = True
            backoff.reset()
            self._set_state(LinkState.CONNECTED, self._connected_detail())
            self._resolve_first(True)
            self._release_held()
            reason = await self._keep_alive()
            await self._drop_transport()
            self._set_state(LinkState.DISCONNECTED, reason)
            await asyncio.sleep(backoff.next())

    def _begin_session(self) -> int:
        """Start a connection attempt: hold its events until CONNECTED is reported; return its generation."""
        self._held = []
        self._gen += 1
        self._lost.clear()
        self._lost_reason = ""
        return self._gen

    def _on_transport_lost(self, gen: int, exc: Exception) -> None:
        if gen == self._gen:
            self._link_lost(f"{self.TRANSPORT_FAILED}: {exc}")

    def _link_lost(self, reason: str) -> None:
        if self._lost.is_set():
            return
        self._lost_reason = reason
        self._lost.set()
        self._connected_event.clear()
        pending = self._pending
        if pending is not None and not pending.future.done():
            pending.future.set_exception(DeviceDisconnected(self.name, reason))

    def _clear_pending(self, future: asyncio.Future[Any]) -> None:
        self._pending = None
        if not future.done():
            future.cancel()
        elif not future.cancelled():
            future.exception()  # retrieved: a failure after we stopped listening is not news

    async def _drop_transport(self) -> None:
        self._gen += 1
        self._connected_event.clear()
        self._on_drop()
        transport, self._transport = self._transport, None
        if transport is not None:
            await transport.close()

    def _set_state(self, state: LinkState, detail: str) -> None:
        if state is self.state and state is not LinkState.CONNECTED:
            self._log.debug("still_" + state.value, detail=detail)
            return
        self.state = state
        if state is LinkState.CONNECTED:
            self._connected_event.set()
            self._log.info("device_connected", detail=detail)
        elif state in (LinkState.INCOMPATIBLE, LinkState.UNPAIRED):
            self._log.error("device_" + state.value, detail=detail)
        else:
            self._log.warning("device_" + state.value, detail=detail)
        self._queue.put_nowait(DeviceStatus(self.name, state, detail))

    def _put(self, event: object) -> None:
        if self._held is not None:
            self._held.append(event)
        else:
            self._queue.put_nowait(event)

    def _release_held(self) -> None:
        held, self._held = self._held or [], None
        for event in held:
            self._queue.put_nowait(event)

    def _resolve_first(self, connected: bool) -> None:
        if self._first is not None and not self._first.done():
            self._first.set_result(connected)
