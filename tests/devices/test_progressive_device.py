"""The progressive controller driver through pyusb: the emulator as a pyusb backend, or the hardware.

TestProgressive runs against a real controller when TABLECTL_PROGRESSIVE
names it (VID:PID[:SERIAL], hex); TestProgressiveTable needs someone to press
the buttons and place the wagers, which only the emulator does on its own.
"""

from __future__ import annotations

import asyncio

import pytest
import usb.core
import usb.util
from structlog.testing import capture_logs

from drivers.errors import CommandRefused, DeviceDisconnected
from drivers.events import LinkState
from drivers.progressive import protocol as p
from drivers.progressive.device import ProgressiveDevice, UsbTiming
from drivers.sim.progressive import EP_IN, EP_OUT, ProgressiveEmulator

from .helpers import expect, expect_status, quiet, named_driver

FAST_RECONNECT = UsbTiming(backoff_initial=0.02, backoff_max=0.2)
L = p.Light


async def connected(rig, timing: UsbTiming = FAST_RECONNECT) -> tuple[ProgressiveDevice, asyncio.Queue]:
    queue: asyncio.Queue = asyncio.Queue()
    dev = named_driver("progressive", ProgressiveDevice)(queue, vendor=rig.vendor, product=rig.product, serial=rig.serial,
                            backend=rig.backend, timing=timing)
    assert await dev.start()
    await expect_status(queue, LinkState.CONNECTED)
    await expect(queue, p.ControllerState)
    return dev, queue


class TestProgressive:
    """What any controller must do for the driver; runs on hardware too."""

    def test_connects_and_reports_its_whole_state(self, progressive_rig, arun):
        async def scenario():
            dev, _ = await connected(progressive_rig)
            try:
                assert isinstance(dev.inputs, p.InputState)
                if progressive_rig.emulator:
                    assert not progressive_rig.emulator.kernel_driver_active   # detached before claiming
            finally:
                await dev.close()
        arun(scenario())

    @pytest.mark.parametrize("light", list(L))
    def test_every_light_state_on_every_seat_is_acknowledged(self, progressive_rig, light, arun):
        async def scenario():
            dev, _ = await connected(progressive_rig)
            try:
                await dev.set_lights([light] * p.SEATS, lockout=light != L.OFF)
                assert dev.lights == p.SetLights((light,) * p.SEATS, light != L.OFF)
                if progressive_rig.emulator:
                    assert progressive_rig.emulator.lights == (light,) * p.SEATS
                    assert progressive_rig.emulator.lockout_indicator == (light != L.OFF)
            finally:
                await dev.close()
        arun(scenario())

    def test_meter_display(self, progressive_rig, arun):
        async def scenario():
            dev, _ = await connected(progressive_rig)
            try:
                for cents, mode in ((2500070, p.MeterMode.SHOW), (2500070, p.MeterMode.FLASH),
                                    (0, p.MeterMode.BLANK), (p.METER_MAX, p.MeterMode.SHOW)):
                    await dev.set_meter(cents, mode)
                    if progressive_rig.emulator:
                        assert progressive_rig.emulator.meter == p.SetMeter(cents, mode)
                with pytest.raises(ValueError, match="cents"):
                    await dev.set_meter(p.METER_MAX + 1)
            finally:
                await dev.close()
        arun(scenario())

    def test_sync_brings_the_whole_state_again(self, progressive_rig, arun):
        async def scenario():
            dev, queue = await connected(progressive_rig)
            try:
                await dev.sync()
                await expect(queue, p.ControllerState)
            finally:
                await dev.close()
        arun(scenario())


class TestProgressiveTable:
    """The lock-out, the wagers and the panel, pressed and placed through the emulator."""

    def test_lockout_latches_the_wagers_present_at_the_press(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, queue = await connected(_rig(emu))
            emu.place_wager(1)
            emu.place_wager(4)
            assert [await expect(queue, p.WagerSensor) for _ in range(2)] == [p.WagerSensor(1, True),
                                                                             p.WagerSensor(4, True)]
            emu.press_lockout()
            pressed = await expect(queue, p.LockoutPressed)
            assert pressed.wagers == frozenset({1, 4}) and pressed.presses == 1
            emu.release_lockout()
            await expect(queue, p.LockoutReleased)
            await dev.set_lights({1: L.ON, 4: L.ON}, lockout=True)
            assert emu.lights == (L.ON, L.OFF, L.OFF, L.ON, L.OFF, L.OFF, L.OFF) and emu.lockout_indicator
            await dev.close()
        arun(scenario())

    def test_a_wager_after_the_lockout_is_late_and_its_light_flashes(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, queue = await connected(_rig(emu))
            emu.place_wager(2)
            await expect(queue, p.WagerSensor)
            emu.press_lockout()
            emu.place_wager(6)   # slid in after the press: 5324.37(a)(3)(ii) says it is not recognized
            pressed = await expect(queue, p.LockoutPressed)
            assert pressed.wagers == frozenset({2})
            assert await expect(queue, p.WagerSensor) == p.WagerSensor(6, True)
            await dev.set_lights({2: L.ON, 6: L.FLASHING_LATE}, lockout=True)
            assert emu.lights[5] == L.FLASHING_LATE
            await dev.close()
        arun(scenario())

    def test_a_recognized_wager_removed_is_reported_and_flagged(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, queue = await connected(_rig(emu))
            emu.place_wager(3)
            emu.press_lockout()
            emu.remove_wager(3)
            await expect(queue, p.WagerSensor)
            assert (await expect(queue, p.LockoutPressed)).wagers == frozenset({3})
            assert await expect(queue, p.WagerSensor) == p.WagerSensor(3, False)
            await dev.set_lights({3: L.FLASHING_REMOVED}, lockout=True)
            assert emu.lights[2] == L.FLASHING_REMOVED
            await dev.close()
        arun(scenario())

    @pytest.mark.parametrize("button", list(p.PanelButton))
    def test_every_panel_button(self, button, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, queue = await connected(_rig(emu))
            emu.tap_button(button)
            assert await expect(queue, p.PanelButtonPressed) == p.PanelButtonPressed(button)
            assert await expect(queue, p.PanelButtonReleased) == p.PanelButtonReleased(button)
            await dev.close()
        arun(scenario())

    def test_a_lost_report_loses_no_lockout_and_moves_no_wager_across_it(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, queue = await connected(_rig(emu))
            emu.outgoing.drop(3, types={p.STATE})
            emu.place_wager(5)      # lost
            emu.press_lockout()     # lost
            emu.place_wager(7)      # lost: late
            emu.release_lockout()   # this one arrives
            events = [await asyncio.wait_for(queue.get(), 5) for _ in range(4)]
            assert events == [p.WagerSensor(5, True), p.LockoutPressed(frozenset({5})), p.WagerSensor(7, True),
                              p.LockoutReleased()]
            assert dev.lost_reports == 3
            await dev.close()
        arun(scenario())

    def test_a_garbled_report_is_counted_logged_and_the_state_fetched_again(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            with capture_logs() as logs:
                dev, queue = await connected(_rig(emu))
                emu.outgoing.garble(1, types={p.STATE})
                emu.place_wager(2)
                assert await expect(queue, p.ControllerState) == p.ControllerState(
                    False, frozenset({2}), frozenset(), frozenset())
                assert dev.bad_frames == 1
                await dev.close()
            assert [e["reason"] for e in logs if e["event"] == "bad_frame"] == ["CRC mismatch"]
        arun(scenario())

    def test_a_late_report_still_arrives_in_order(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, queue = await connected(_rig(emu))
            emu.outgoing.delay(0.2, types={p.STATE})
            emu.place_wager(1)
            emu.place_wager(2)
            assert [await expect(queue, p.WagerSensor) for _ in range(2)] == [p.WagerSensor(1, True),
                                                                             p.WagerSensor(2, True)]
            await dev.close()
        arun(scenario())

    @pytest.mark.parametrize("fault", ["lights lost", "lights garbled", "ack lost", "ack late"])
    def test_lights_are_retried_until_acknowledged(self, fault, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, _ = await connected(_rig(emu))
            if fault == "lights lost":
                emu.incoming.drop(1, types={p.SET_LIGHTS})
            elif fault == "lights garbled":
                emu.incoming.garble(1, types={p.SET_LIGHTS})
            elif fault == "ack lost":
                emu.outgoing.drop(1, types={p.ACK})
            else:
                emu.outgoing.delay(0.3, types={p.ACK})
            await dev.set_lights({1: L.ON}, lockout=True)
            assert dev.retransmissions >= 1
            assert emu.lights[0] == L.ON and emu.lockout_indicator
            await dev.close()
        arun(scenario())

    @pytest.mark.parametrize("lost", [0, 1, 3])
    def test_an_anchor_is_committed_whole_when_a_parts_ack_is_lost(self, lost, arun):
        """The driver sends a part again when its ACK is lost; the controller takes the same part
        again as itself (the committing one too), so the last part's ACK always means committed."""
        async def scenario():
            emu = ProgressiveEmulator(nvram=None)
            dev, _ = await connected(_rig(emu))
            if lost:
                emu.outgoing.delay(0.0, n=lost, types={p.ACK})   # these pass; the next is lost
            emu.outgoing.drop(1, types={p.ACK})
            anchor = bytes(range(1, 89)) + bytes(4)
            await dev.write_anchor(anchor)
            assert dev.retransmissions >= 1 and emu.anchor == anchor
            assert await dev.read_anchor() == anchor
            await dev.close()
        arun(scenario())

    def test_an_anchor_part_out_of_order_is_refused_and_the_anchor_kept(self, arun):
        async def scenario():
            emu = ProgressiveEmulator(nvram=None)
            dev, _ = await connected(_rig(emu))
            before = bytes(88) + b"\x01" + bytes(3)
            await dev.write_anchor(before)
            parts = p.anchor_parts(bytes(range(1, 89)) + bytes(4))
            await dev._output(parts[0])
            with pytest.raises(CommandRefused, match="bad value"):
                await dev._output(parts[2])            # part 1 never came: nothing is kept of it
            with pytest.raises(CommandRefused):
                await dev._output(parts[3])
            assert emu.anchor == before
            await dev.close()
        arun(scenario())

    def test_unplug_and_replug(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            dev, queue = await connected(_rig(emu))
            emu.place_wager(4)
            await expect(queue, p.WagerSensor)
            emu.unplug()
            await expect_status(queue, LinkState.DISCONNECTED)
            with pytest.raises(DeviceDisconnected):
                await dev.set_lights({}, lockout=False)
            emu.replug()
            await expect_status(queue, LinkState.CONNECTED)
            assert (await expect(queue, p.ControllerState)).wagers == frozenset({4})
            await dev.set_lights({4: L.ON}, lockout=False)
            assert dev.connections == 2
            await dev.close()
        arun(scenario())

    def test_missing_at_start_is_reported_and_found_when_plugged_in(self, arun):
        async def scenario():
            emu = ProgressiveEmulator()
            emu.unplug()
            with capture_logs() as logs:
                queue: asyncio.Queue = asyncio.Queue()
                dev = ProgressiveDevice(queue, serial=emu.serial_number, backend=emu.backend, timing=FAST_RECONNECT)
                assert not await dev.start()
                assert "no USB device 1209:0001" in (await expect_status(queue, LinkState.MISSING)).detail
                emu.replug()
                await expect_status(queue, LinkState.CONNECTED)
                await dev.close()
            assert any(e["event"] == "device_missing" for e in logs)
        arun(scenario())

    def test_another_serial_number_is_not_our_controller(self, arun):
        async def scenario():
            emu = ProgressiveEmulator(serial_number="SIM-PROG-0002")
            queue: asyncio.Queue = asyncio.Queue()
            dev = ProgressiveDevice(queue, serial="SIM-PROG-0001", backend=emu.backend, timing=FAST_RECONNECT)
            assert not await dev.start()
            await expect_status(queue, LinkState.MISSING)
            await dev.close()
        arun(scenario())

    def test_a_silent_controller_is_dropped_and_reconnected(self, arun):
        async def scenario():
            emu = ProgressiveEmulator(heartbeat=60)
            dev, queue = await connected(_rig(emu), UsbTiming(silence=0.3, backoff_initial=0.02))
            status = await expect_status(queue, LinkState.DISCONNECTED)
            assert "no report for" in status.detail
            await expect_status(queue, LinkState.CONNECTED)
            await dev.close()
        arun(scenario())

    def test_heartbeats_keep_a_quiet_link_up(self, arun):
        async def scenario():
            emu = ProgressiveEmulator(heartbeat=0.05)
            dev, queue = await connected(_rig(emu), UsbTiming(silence=0.5))
            await asyncio.sleep(1.0)
            assert dev.connected and await quiet(queue, 0) == []
            await dev.close()
        arun(scenario())


def _rig(emu: ProgressiveEmulator):
    from .conftest import UsbRig
    return UsbRig(emu.vendor, emu.product, emu.serial_number, emu.backend, emu)


class TestEmulatedBackend:
    """The backend is a USB device as pyusb sees one: descriptors, strings, the HID rules."""

    def test_found_by_ids_and_serial_with_its_strings(self):
        emu = ProgressiveEmulator()
        dev = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=emu.backend)
        assert dev is not None
        assert (dev.manufacturer, dev.product, dev.serial_number) == (
            "tablectl", "Emulated Progressive Controller", "SIM-PROG-0001")
        dev.set_configuration()
        intf = dev.get_active_configuration()[(0, 0)]
        assert intf.bInterfaceClass == 3 and [e.bEndpointAddress for e in intf] == [EP_IN, EP_OUT]
        usb.util.dispose_resources(dev)

    def test_claiming_needs_the_kernel_driver_detached_as_on_linux(self):
        emu = ProgressiveEmulator()
        dev = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=emu.backend)
        dev.set_configuration()
        with pytest.raises(usb.core.USBError, match="busy"):
            usb.util.claim_interface(dev, 0)
        dev.detach_kernel_driver(0)
        usb.util.claim_interface(dev, 0)
        usb.util.dispose_resources(dev)

    def test_refuses_bad_values_and_unknown_reports_with_a_status(self):
        emu = ProgressiveEmulator()
        dev = usb.core.find(idVendor=0x1209, idProduct=0x0001, backend=emu.backend)
        dev.set_configuration()
        dev.detach_kernel_driver(0)
        from drivers.pairing import FACTORY_KEY, LinkSeal, Side, new_nonce
        seal = LinkSeal(FACTORY_KEY, Side.HOST)
        seal.begin(new_nonce())
        dev.write(EP_OUT, p.encode_output(8, p.Hello(seal.host_nonce), seal))   # a session first (4.4)
        acks = []
        while not acks:
            seq, message = p.parse_input(bytes(dev.read(EP_IN, p.REPORT_SIZE, timeout=1000)))
            if isinstance(message, p.ReportAck):
                acks.append((message.report_id, message.seq, message.status))
                seal.device_nonce = message.echo   # the controller's half of the session
        dev.write(EP_OUT, p.encode_report(p.SET_LIGHTS, 9, bytes((7, 0, 0, 0, 0, 0, 0, 0)), seal))
        dev.write(EP_OUT, p.encode_report(0x7E, 10, b"", seal))
        while len(acks) < 3:
            seq, message = p.parse_input(bytes(dev.read(EP_IN, p.REPORT_SIZE, timeout=1000)))
            if isinstance(message, p.ReportAck):
                acks.append((message.report_id, message.seq, message.status))
        assert acks == [(p.HELLO, 8, p.AckStatus.APPLIED), (p.SET_LIGHTS, 9, p.AckStatus.BAD_VALUE),
                        (0x7E, 10, p.AckStatus.UNKNOWN_REPORT)]
        assert emu.lights == (L.OFF,) * 7
        usb.util.dispose_resources(dev)

    def test_unplugged_it_leaves_the_bus(self):
        emu = ProgressiveEmulator()
        emu.unplug()
        assert usb.core.find(idVendor=0x1209, backend=emu.backend) is None
        emu.replug()
        assert usb.core.find(idVendor=0x1209, backend=emu.backend).address == 12
