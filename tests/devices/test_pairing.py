"""The device links sealed under a pairing key (5319.60(a), PROTOCOLS.md 0 "The seal", 4.4): a device
under another key is refused as unpaired, in plain words; a report replayed or forged on a paired
link is refused and reported, never acted on; the old unsealed format is refused.

Through pyusb for the progressive controller (its emulator as the backend) and through a real
pseudo-terminal for the shoe, as the other device tests.
"""

from __future__ import annotations

import asyncio

from drivers.events import DeviceStatus, LinkRefused, LinkState
from drivers.pairing import LinkSeal, Side, new_key, new_nonce
from drivers.progressive import protocol as p
from drivers.progressive.device import ProgressiveDevice, UsbTiming
from drivers.serial_link.device import LinkTiming
from drivers.shoe.device import ShoeDevice
from drivers.sim.progressive import ProgressiveEmulator

from .helpers import drain, expect, expect_status, until

FAST = UsbTiming(backoff_initial=0.02, backoff_max=0.2)


async def _status(queue: asyncio.Queue, state: LinkState) -> DeviceStatus:
    """The next DeviceStatus of `state`, skipping what comes before it."""
    while True:
        event = await expect(queue, object)
        if isinstance(event, DeviceStatus) and event.state is state:
            return event


def test_a_controller_under_another_key_is_refused_as_unpaired_until_paired(arun):
    table_key = new_key()
    emu = ProgressiveEmulator(key=new_key())

    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        dev = ProgressiveDevice(queue, vendor=emu.vendor, product=emu.product, serial=emu.serial_number,
                                backend=emu.backend, timing=FAST, key=table_key)
        try:
            assert not await dev.start()
            refused = await expect_status(queue, LinkState.UNPAIRED)
            assert "not paired with this table" in refused.detail and "tablectl device pair" in refused.detail
            assert emu.applied == []   # nothing it was sent was carried out
            emu.pair(table_key)
            await _status(queue, LinkState.CONNECTED)
            await expect(queue, p.ControllerState)
            await dev.set_meter(123456, p.MeterMode.SHOW)
            assert emu.meter == p.SetMeter(123456, p.MeterMode.SHOW)
        finally:
            await dev.close()
    arun(scenario())


def test_a_replayed_or_forged_report_is_refused_and_reported_never_acted_on(arun):
    key = new_key()
    emu = ProgressiveEmulator(key=key)

    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        dev = ProgressiveDevice(queue, vendor=emu.vendor, product=emu.product, serial=emu.serial_number,
                                backend=emu.backend, timing=FAST, key=key)
        try:
            assert await dev.start()
            await expect_status(queue, LinkState.CONNECTED)
            await expect(queue, p.ControllerState)
            emu.place_wager(3)
            await until(lambda: dev.inputs is not None and 3 in dev.inputs.wagers, "the wager at seat 3")
            captured = emu.sent[-1]   # the STATE of a wager at seat 3, as a tap on the cable saw it
            emu.remove_wager(3)
            await until(lambda: dev.inputs is not None and 3 not in dev.inputs.wagers, "the wager taken off")
            drain(queue)
            emu.inject(captured)
            refusal = await expect(queue, LinkRefused)
            assert refusal.replayed and "already used" in refusal.reason
            # forged: a STATE of a wager at seat 5 sealed under another key
            forger = LinkSeal(new_key(), Side.DEVICE, new_nonce(), new_nonce())
            emu.inject(p.encode_report(p.STATE, 200, p.InputState(False, frozenset({5})).payload(), forger))
            await until(lambda: dev.refused_frames >= 2, "the forged report refused")
            assert dev.connected and 3 not in dev.inputs.wagers and 5 not in dev.inputs.wagers
            assert not [e for e in drain(queue) if isinstance(e, p.WagerSensor)]
        finally:
            await dev.close()
    arun(scenario())


def test_the_unsealed_format_is_refused_as_a_bad_report(arun):
    emu = ProgressiveEmulator()

    async def scenario():
        queue: asyncio.Queue = asyncio.Queue()
        dev = ProgressiveDevice(queue, vendor=emu.vendor, product=emu.product, serial=emu.serial_number,
                                backend=emu.backend, timing=FAST)
        try:
            assert await dev.start()
            await expect_status(queue, LinkState.CONNECTED)
            before = dev.bad_frames
            # version 1: 32 bytes, REPORT ID, LEN, SEQ, PAYLOAD, CRC; then the same in 64 bytes
            from drivers.serial_link.crc import crc16
            old = bytes((p.STATE, 7, 9)) + p.InputState(True, frozenset({2})).payload()
            old += crc16(old).to_bytes(2, "big")
            emu.inject(old.ljust(32, b"\0"))
            emu.inject(old.ljust(p.REPORT_SIZE, b"\0"))
            await until(lambda: dev.bad_frames >= before + 2, "both old reports refused")
            assert not dev.inputs.lockout_pressed
        finally:
            await dev.close()
    arun(scenario())


def test_a_shoe_under_another_key_is_refused_as_unpaired_until_paired(arun):
    from controller.cards import CARDS
    from drivers.sim.shoe import ShoeEmulator
    table_key = new_key()
    with ShoeEmulator(list(CARDS), key=new_key()) as emu:
        async def scenario():
            queue: asyncio.Queue = asyncio.Queue()
            dev = ShoeDevice(emu.port, queue, timing=LinkTiming(backoff_initial=0.02, backoff_max=0.2),
                             key=table_key)
            try:
                assert not await dev.start()
                refused = await expect_status(queue, LinkState.UNPAIRED)
                assert "not paired with this table" in refused.detail
                emu.pair(table_key)
                await _status(queue, LinkState.CONNECTED)
            finally:
                await dev.close()
        arun(scenario())
