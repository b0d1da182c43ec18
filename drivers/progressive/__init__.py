"""The progressive controller (USB HID): protocol (pure), transport (pyusb) and device (async)."""

from drivers.progressive.device import ProgressiveDevice, UsbTiming
from drivers.progressive.protocol import (ControllerState, Light, LockoutPressed, LockoutReleased, MeterMode,
                                          PanelButton, PanelButtonPressed, PanelButtonReleased, WagerSensor)

__all__ = ["ProgressiveDevice", "UsbTiming", "ControllerState", "Light", "LockoutPressed", "LockoutReleased",
           "MeterMode", "PanelButton", "PanelButtonPressed", "PanelButtonReleased", "WagerSensor"]
