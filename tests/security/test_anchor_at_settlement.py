"""No paid round outside the anchor (issue 26, item 6).

The break: the anchor was written after a round's close from a task of its own,
while the screens already showed the pay list and the round's line was already
printed; under load it ran some 150 ms behind, so a WAL cut after a kill could
take away a round the dealer had been told to pay (tests/crash/test_anchor_cut.py
does that cut). Now the anchor naming a settlement's journal entry is written and
acknowledged by the progressive controller before the settlement's effects are
carried out: nothing is published, printed or answered before it. A controller
that does not take it is a fault, never a silent pass, and clearing the fault
writes it.

A live Table on its emulated devices, in this process: the emulated controller
is made slow to take each part of an anchor (its wire's `delay` knob), which is
what opened the window on main. A screen is stood for by a subscriber that notes,
at the instant each state is published, what the controller's memory holds.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from controller.journal.anchor import Anchor
from controller.journal.store import Journal
from drivers.progressive import protocol as pp
from drivers.sim.faults import Faults
from tests.table.table_helpers import running, stud_profile, until

SLOW = 0.03   # seconds the emulated controller takes over each of an anchor's four parts


def run(coro, timeout: float = 120):
    async def main():
        return await asyncio.wait_for(coro, timeout)
    return asyncio.run(main())


@dataclass(eq=False)
class Watch:
    """A screen following the table, and the round lines printed: each with the controller's anchor then."""

    emulator: object
    seen: list[tuple[dict, int]] = field(default_factory=list)
    printed: list[tuple[dict, int]] = field(default_factory=list)

    def anchored(self) -> int:
        anchor = Anchor.from_bytes(self.emulator.anchor)
        return anchor.seq if anchor is not None else 0

    def put_nowait(self, view: dict) -> None:   # as a screen's queue is sent each published state
        self.seen.append((view, self.anchored()))

    def write(self, line: str) -> None:         # the table's stdout
        if line.strip():
            self.printed.append((json.loads(line), self.anchored()))

    def flush(self) -> None:
        pass


def settled_at(data_dir) -> dict[str, int]:
    """Round id -> the journal entry of its settlement (the round-record, or the settle event before it)."""
    out: dict[str, int] = {}
    with Journal.open(data_dir, readonly=True) as j:
        for e in j.entries_since(0):
            if e.round_id and (e.kind == "round-record" or
                               (e.kind == "event" and e.payload["event"].get("type") == "settle")):
                out.setdefault(e.round_id, e.seq)
    return out


def test_no_screen_or_line_says_pay_before_the_controller_holds_the_anchor(tmp_path):
    async def scenario():
        profile = stud_profile()
        async with running(profile, tmp_path, autoplay=True, rounds=3, seed=11) as table:
            emu = table.devices.world.progressive
            watch = Watch(emu)
            emu.incoming.delay(SLOW, n=10**6, types=[pp.ANCHOR_WRITE])
            table.view.subscribers.add(watch)
            table.out = watch
            await table.wait()
            return watch
    watch = run(scenario())
    settled = settled_at(tmp_path)
    shown = [(v["round"]["id"], held) for v, held in watch.seen if v.get("settlement")]
    assert len({rid for rid, _ in shown}) >= 3 and len(watch.printed) == 3
    early = [(rid, held, settled[rid]) for rid, held in shown if held < settled[rid]]
    assert early == [], f"the pay list shown before its anchor: (round, anchored, settled) {early[:3]}"
    for line, held in watch.printed:
        assert held >= settled[line["round"]], (line["round"], held, settled[line["round"]])
    with Journal.open(tmp_path, readonly=True) as j:
        written = [e.payload for e in j.entries_since(0) if e.kind == "anchor-written"]
    assert {w["sink"] for w in written} == {"progressive controller"}
    assert all(any(w["seq"] >= seq for w in written) for seq in settled.values())


def test_a_controller_that_does_not_take_the_anchor_is_a_fault_and_its_clearing_anchors(tmp_path):
    async def scenario():
        async with running(stud_profile(), tmp_path, autoplay=True, rounds=1, seed=11) as table:
            emu = table.devices.world.progressive
            watch = Watch(emu)
            table.view.subscribers.add(watch)
            before = watch.anchored()
            emu.incoming.drop(n=10**6, types=[pp.ANCHOR_WRITE])   # the controller takes no anchor
            await until(lambda: table.fault is not None, "the fault", timeout=60)
            assert watch.anchored() == before
            fault = dict(table.fault)
            emu.incoming = Faults()                                  # a working controller again
            cleared = await table.submit({"type": "clear_fault", "reason": "controller replaced"},
                                         source="supervisor", who="SUP-1")
            # answered once the clearing's anchor is written (the consumer awaits it first)
            return watch, fault, cleared, table.fault, watch.anchored()
    watch, fault, cleared, after, anchored = run(scenario())
    assert "did not take the journal's anchor" in fault["reason"] and "do not pay" in fault["reason"]
    settled = settled_at(tmp_path)
    (rid, seq), = settled.items()
    assert not [v for v, _ in watch.seen if v.get("settlement") and not v.get("fault") and v["round"]["id"] == rid
                and _ < seq], "the pay list was shown though the controller never took its anchor"
    assert cleared["ok"] and after is None and anchored >= seq
    assert [held for v, held in watch.seen if v.get("settlement") and not v.get("fault")
            and v["round"]["id"] == rid], "the pay list never shown after the clearing"
    with Journal.open(tmp_path, readonly=True) as j:
        faults = [e.payload for e in j.entries_since(0) if e.kind == "fault"]
        written = [e for e in j.entries_since(0) if e.kind == "anchor-written"]
    assert [p["code"] for f in faults for p in f["problems"]] == ["anchor-unwritten"]
    assert faults[0]["category"] == "operational"          # a device's fault: one supervisor
    assert written[-1].payload["seq"] >= seq


def test_a_stop_while_a_close_waits_on_its_anchor_still_carries_the_close_out(tmp_path):
    """SIGTERM (table.stop, then close) while a round's close is journaled and its anchor is on its way to the
    controller: the batch in flight finishes, so the close is printed as the journal has it. Cancelled
    there, the close stayed on the disk unprinted (the floor's test saw 26 rounds reported, 25 printed)."""
    slow = 0.06   # each of the anchor's four parts, inside the driver's ACK timeout: the close waits on its anchor

    def closed_on_disk() -> int:
        with Journal.open(tmp_path, readonly=True) as j:
            return sum(1 for e in j.entries_since(0) if e.kind == "round-record")

    async def scenario():
        async with running(stud_profile(), tmp_path, autoplay=True, seed=11) as table:
            emu = table.devices.world.progressive
            watch = Watch(emu)
            table.out = watch
            await until(lambda: len(watch.printed) >= 1, "a first round printed", timeout=60)
            emu.incoming.delay(slow, n=10**6, types=[pp.ANCHOR_WRITE])
            # the next close journaled, its anchor not yet taken: the table is stopped there
            await until(lambda: closed_on_disk() > len(watch.printed), "a close journaled and not yet printed",
                        timeout=60)
            table.stop()
        return watch
    watch = run(scenario())
    assert len(watch.printed) == closed_on_disk() >= 2
