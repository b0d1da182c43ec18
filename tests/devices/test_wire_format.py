"""The bytes on the wire, exactly as drivers/PROTOCOLS.md writes them in its worked examples.

If one of these fails, either the code or PROTOCOLS.md is wrong, and a vendor
building to the document would not talk to the box: fix whichever is wrong,
both together.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import parse_card
from drivers.serial_link import messages as m
from drivers.serial_link.crc import CHECK_INPUT, CHECK_VALUE, crc16
from drivers.serial_link.framing import decode_frame, encode_frame
from drivers.manual_shoe import protocol as ms
from drivers.progressive import protocol as p
from drivers.shoe import protocol as s
from drivers.shuffler import protocol as f


def crc16_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE from its definition, one bit at a time: the reference for the fast one."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def test_crc_check_value():
    assert CHECK_INPUT == b"123456789"
    assert crc16(CHECK_INPUT) == CHECK_VALUE == 0x29B1
    assert crc16_bitwise(CHECK_INPUT) == 0x29B1


@settings(max_examples=300, derandomize=True)
@given(st.binary(max_size=64))
def test_crc_matches_the_definition(data):
    assert crc16(data) == crc16_bitwise(data)


H = bytes.fromhex

SERIAL_EXAMPLES = [
    ("HELLO, SEQ 1, version 1", encode_frame(1, m.HELLO, b"\x01"), "a5 01 01 01 01 e6 54"),
    ("IDENT reply", encode_frame(1, m.IDENT, m.Ident(1, 1, 0x1234, (1, 0), "SHOE-0001").encode()),
     "a5 0f 01 41 01 01 12 34 01 00 53 48 4f 45 2d 30 30 30 31 e1 65"),
    ("STATUS_REQUEST, SEQ 2", encode_frame(2, m.STATUS_REQUEST), "a5 00 02 02 8a bc"),
    ("shoe STATUS", encode_frame(2, m.STATUS, s.ShoeStatus(False, False, False, False, False, 12, 40).payload()),
     "a5 05 02 42 00 00 0c 00 28 28 38"),
    ("DISPENSE_STACK of 5, SEQ 3", encode_frame(3, s.DISPENSE_STACK, s.DispenseStack(5).payload()),
     "a5 01 03 11 05 cb c3"),
    ("ACK of SEQ 3", encode_frame(3, m.ACK), "a5 00 03 06 f9 09"),
    ("CARD_DISPENSED As, 1 of 5, card 13 of load 3", encode_frame(7, s.CARD_DISPENSED,
                                                                 s.CardDispensed(parse_card("As"), 1, 5, 13, 3).payload()),
     "a5 07 07 80 0c 03 01 05 00 0d 03 7d 49"),
    ("SHOE_LOADED 52 cards, load 3", encode_frame(6, s.SHOE_LOADED, s.ShoeLoaded(52, 3).payload()),
     "a5 03 06 85 00 34 03 95 3a"),
    ("DISPENSE_ONE, SEQ 4", encode_frame(4, s.DISPENSE_ONE), "a5 00 04 10 12 69"),
    ("NAK of SEQ 4: jammed", encode_frame(4, m.NAK, bytes((m.NakReason.JAMMED,))), "a5 01 04 15 04 92 b6"),
    ("COVER_CARD_REACHED after 30", encode_frame(8, s.COVER_CARD_REACHED, s.CoverCardReached(30).payload()),
     "a5 02 08 81 00 1e 2f d9"),
    ("SHOE_JAMMED card feed after 31", encode_frame(9, s.SHOE_JAMMED,
                                                    s.ShoeJammed(s.JamCode.CARD_FEED, 31).payload()),
     "a5 03 09 83 01 00 1f fa 86"),
    ("CARD_DRAWN Qh, place 31 after the cover card, card 30",
     encode_frame(20, ms.CARD_DRAWN, ms.CardDrawn(parse_card("Qh"), 31, 30).payload()),
     "a5 06 14 a0 0a 02 00 1f 00 1e eb 00"),
    ("COVER_CARD_REACHED at place 30 after 29", encode_frame(19, ms.COVER_CARD_REACHED,
                                                              ms.CoverCardReached(30, 29).payload()),
     "a5 04 13 a2 00 1e 00 1d 11 75"),
    ("CARD_UNREAD at place 32, card 31", encode_frame(21, ms.CARD_UNREAD, ms.CardUnread(32, 31).payload()),
     "a5 04 15 a1 00 20 00 1f 8c a0"),
    ("SHOE_LOADED 312 cards", encode_frame(1, ms.SHOE_LOADED, ms.ShoeLoaded(312).payload()), "a5 02 01 a4 01 38 c6 0d"),
    ("SHUFFLE, SEQ 5", encode_frame(5, f.SHUFFLE), "a5 00 05 20 17 0b"),
    ("COUNT, SEQ 6", encode_frame(6, f.COUNT), "a5 00 06 21 52 79"),
    ("COUNT_RESULT 51, 7h missing", encode_frame(12, f.COUNT_RESULT, f.DeckCount(
        51, (f.Anomaly(f.AnomalyKind.MISSING, parse_card("7h")),), False, True).payload()),
     "a5 06 0c 94 33 02 01 01 05 02 35 d5"),
    ("COUNT_RESULT 52, correct", encode_frame(13, f.COUNT_RESULT, f.DeckCount(52).payload()),
     "a5 03 0d 94 34 00 00 f4 81"),
]


@pytest.mark.parametrize("what,encoded,expected", SERIAL_EXAMPLES, ids=[e[0] for e in SERIAL_EXAMPLES])
def test_serial_examples_of_protocols_md(what, encoded, expected):
    assert encoded.hex(" ") == expected
    raw = H(expected)
    assert crc16_bitwise(raw[1:-2]) == int.from_bytes(raw[-2:], "big")
    assert decode_frame(raw).encode() == raw


def _pad(text: str) -> str:
    return (text + " 00" * 32)[: 32 * 3 - 1]


HID_EXAMPLES = [
    ("STATE: lock-out pressed, wagers at seats 2 and 5, third press",
     p.encode_report(p.STATE, 0x21, p.InputState(True, frozenset({2, 5}), frozenset(), 3, frozenset({2, 5}),
                                                 p.StateReason.CHANGE).payload()),
     _pad("01 07 21 01 12 00 00 03 12 00 16 88")),
    ("SET_LIGHTS: seats 2 and 5 on, 4 flashing late, lock-out indicator on",
     p.encode_output(0x40, p.SetLights((0, 1, 0, 2, 1, 0, 0), True)),
     _pad("10 08 40 00 01 00 02 01 00 00 01 0e d7")),
    ("ACK of that SET_LIGHTS with its echo",
     p.encode_report(p.ACK, 0x22, p.ReportAck(p.SET_LIGHTS, 0x40, p.AckStatus.APPLIED,
                                              H("00 01 00 02 01 00 00 01")).payload()),
     _pad("02 0b 22 10 40 00 00 01 00 02 01 00 00 01 4e 4d")),
    ("SET_METER $25,000.70", p.encode_output(0x41, p.SetMeter(2500070, p.MeterMode.SHOW)),
     _pad("11 09 41 00 00 00 00 00 26 25 e6 00 10 b1")),
    ("SYNC", p.encode_output(0x42, p.Sync()), _pad("12 00 42 89 19")),
]


@pytest.mark.parametrize("what,encoded,expected", HID_EXAMPLES, ids=[e[0] for e in HID_EXAMPLES])
def test_hid_examples_of_protocols_md(what, encoded, expected):
    assert encoded.hex(" ") == expected
    raw = H(expected)
    end = 3 + raw[1]
    assert crc16_bitwise(raw[:end]) == int.from_bytes(raw[end:end + 2], "big")
    assert p.parse_report(raw).encode() == raw
