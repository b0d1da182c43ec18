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
from drivers.serial_link.framing import decode_frame
from drivers.pairing import NO_NONCE, LinkSeal, Side
from drivers.serial_link import framing
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

# The session of the worked examples (PROTOCOLS.md 5.0): key 00 01 .. 1f, host nonce "HOSTNONC", device
# nonce "DEVNONCE", each frame the first its side sends in the session (counter 1). A HELLO is sealed before
# the device's nonce is known, with none.
EXAMPLE_KEY = bytes(range(32))
HOST_NONCE, DEVICE_NONCE = b"HOSTNONC", b"DEVNONCE"


def host(seq, type_, payload=b""):
    nonce = NO_NONCE if type_ == m.HELLO else DEVICE_NONCE
    return framing.encode_frame(seq, type_, payload, LinkSeal(EXAMPLE_KEY, Side.HOST, HOST_NONCE, nonce))


def dev(seq, type_, payload=b""):
    return framing.encode_frame(seq, type_, payload, LinkSeal(EXAMPLE_KEY, Side.DEVICE, HOST_NONCE, DEVICE_NONCE))


SERIAL_EXAMPLES = [
    ("HELLO, SEQ 1, version 2, the host nonce", host(1, m.HELLO, m.hello_payload(HOST_NONCE)), "a5 02 09 01 01 02 48 4f 53 54 4e 4f 4e 43 00 00 00 01 9d ba 83 7d cf ff 7e dc c3 62"),
    ("IDENT reply", dev(1, m.IDENT, m.Ident(2, 1, 0x1234, (1, 0), "SHOE-0001", DEVICE_NONCE).encode()),
     "a5 02 17 01 41 02 01 12 34 01 00 44 45 56 4e 4f 4e 43 45 53 48 4f 45 2d 30 30 30 31 00 00 00 01 3a 64 b1 ee 25 44 8e 9b ef 5f"),
    ("STATUS_REQUEST, SEQ 2", host(2, m.STATUS_REQUEST), "a5 02 00 02 02 00 00 00 01 29 66 ca 1c 50 c2 15 8f 9b 14"),
    ("shoe STATUS", dev(2, m.STATUS, s.ShoeStatus(False, False, False, False, False, 12, 40).payload()),
     "a5 02 05 02 42 00 00 0c 00 28 00 00 00 01 4b 77 d2 33 08 2f 64 68 cc a8"),
    ("DISPENSE_STACK of 5, SEQ 3", host(3, s.DISPENSE_STACK, s.DispenseStack(5).payload()),
     "a5 02 01 03 11 05 00 00 00 01 09 2b 99 3b 05 0f 98 a5 45 ac"),
    ("ACK of SEQ 3", dev(3, m.ACK), "a5 02 00 03 06 00 00 00 01 6f 4d dd bd 64 55 d6 ff c2 cb"),
    ("CARD_DISPENSED As, 1 of 5, card 13 of load 3", dev(7, s.CARD_DISPENSED,
                                                                 s.CardDispensed(parse_card("As"), 1, 5, 13, 3).payload()),
     "a5 02 07 07 80 0c 03 01 05 00 0d 03 00 00 00 01 10 a4 e7 c6 bc 6c 9a 41 ac 69"),
    ("SHOE_LOADED 52 cards, load 3", dev(6, s.SHOE_LOADED, s.ShoeLoaded(52, 3).payload()),
     "a5 02 03 06 85 00 34 03 00 00 00 01 dd 8d 58 0a e0 14 d8 63 1e d4"),
    ("host ACK of SEQ 7", host(7, m.ACK), "a5 02 00 07 06 00 00 00 01 e1 b9 5c 7d 37 9a 7a b6 75 47"),
    ("DISPENSE_ONE, SEQ 4", host(4, s.DISPENSE_ONE), "a5 02 00 04 10 00 00 00 01 81 39 15 50 be 38 9f ee 85 4f"),
    ("NAK of SEQ 4: jammed", dev(4, m.NAK, bytes((m.NakReason.JAMMED,))), "a5 02 01 04 15 04 00 00 00 01 ce 0c 73 65 95 b2 8e 9d 8d 19"),
    ("COVER_CARD_REACHED after 30", dev(8, s.COVER_CARD_REACHED, s.CoverCardReached(30).payload()),
     "a5 02 02 08 81 00 1e 00 00 00 01 48 16 92 d0 b7 dd f1 5d 26 22"),
    ("SHOE_JAMMED card feed after 31", dev(9, s.SHOE_JAMMED,
                                                    s.ShoeJammed(s.JamCode.CARD_FEED, 31).payload()),
     "a5 02 03 09 83 01 00 1f 00 00 00 01 46 45 35 9e 32 0f f5 95 7f 9c"),
    ("CARD_DRAWN Qh, place 31 after the cover card, card 30",
     dev(20, ms.CARD_DRAWN, ms.CardDrawn(parse_card("Qh"), 31, 30).payload()),
     "a5 02 06 14 a0 0a 02 00 1f 00 1e 00 00 00 01 9b f5 19 f9 a7 9e e7 02 6b 65"),
    ("COVER_CARD_REACHED at place 30 after 29", dev(19, ms.COVER_CARD_REACHED,
                                                              ms.CoverCardReached(30, 29).payload()),
     "a5 02 04 13 a2 00 1e 00 1d 00 00 00 01 9e bc 53 e6 ec 37 bc b5 52 10"),
    ("CARD_UNREAD at place 32, card 31", dev(21, ms.CARD_UNREAD, ms.CardUnread(32, 31).payload()),
     "a5 02 04 15 a1 00 20 00 1f 00 00 00 01 00 21 81 b7 2c 79 52 e4 bf fe"),
    ("SHOE_LOADED 312 cards", dev(1, ms.SHOE_LOADED, ms.ShoeLoaded(312).payload()), "a5 02 02 01 a4 01 38 00 00 00 01 3e 2f 06 57 f3 2c 82 06 e7 a7"),
    ("SHUFFLE, SEQ 5", host(5, f.SHUFFLE), "a5 02 00 05 20 00 00 00 01 b9 04 b0 d1 41 ef 0c 31 d8 56"),
    ("COUNT, SEQ 6", host(6, f.COUNT), "a5 02 00 06 21 00 00 00 01 47 d1 14 34 ce 68 8e c9 a0 e0"),
    ("COUNT_RESULT 51, 7h missing", dev(12, f.COUNT_RESULT, f.DeckCount(
        51, (f.Anomaly(f.AnomalyKind.MISSING, parse_card("7h")),), False, True).payload()),
     "a5 02 06 0c 94 33 02 01 01 05 02 00 00 00 01 c8 a9 c4 9a 27 df d1 4a 1d 40"),
    ("COUNT_RESULT 52, correct", dev(13, f.COUNT_RESULT, f.DeckCount(52).payload()),
     "a5 02 03 0d 94 34 00 00 00 00 00 01 31 d5 87 2c a3 ee 7b 54 61 a0"),
]


@pytest.mark.parametrize("what,encoded,expected", SERIAL_EXAMPLES, ids=[e[0] for e in SERIAL_EXAMPLES])
def test_serial_examples_of_protocols_md(what, encoded, expected):
    assert encoded.hex(" ") == expected
    raw = H(expected)
    assert crc16_bitwise(raw[1:-2]) == int.from_bytes(raw[-2:], "big")
    assert decode_frame(raw).encode() == raw


def _pad(text: str) -> str:
    return (text + " 00" * 64)[: 64 * 3 - 1]


def hid_host(seq, message):
    return p.encode_output(seq, message, LinkSeal(EXAMPLE_KEY, Side.HOST, HOST_NONCE, DEVICE_NONCE))


def hid_dev(report_id, seq, payload):
    return p.encode_report(report_id, seq, payload, LinkSeal(EXAMPLE_KEY, Side.DEVICE, HOST_NONCE, DEVICE_NONCE))


HID_EXAMPLES = [
    ("STATE: lock-out pressed, wagers at seats 2 and 5, third press",
     hid_dev(p.STATE, 0x21, p.InputState(True, frozenset({2, 5}), frozenset(), 3, frozenset({2, 5}),
                                                 p.StateReason.CHANGE).payload()),
     _pad("01 02 07 21 01 12 00 00 03 12 00 00 00 00 01 25 c8 b1 74 c1 45 cf 73 f1 d9")),
    ("SET_LIGHTS: seats 2 and 5 on, 4 flashing late, lock-out indicator on",
     hid_host(0x40, p.SetLights((0, 1, 0, 2, 1, 0, 0), True)),
     _pad("10 02 08 40 00 01 00 02 01 00 00 01 00 00 00 01 e5 c9 4b 54 e3 ae cc 2c 86 01")),
    ("ACK of that SET_LIGHTS with its echo",
     hid_dev(p.ACK, 0x22, p.ReportAck(p.SET_LIGHTS, 0x40, p.AckStatus.APPLIED,
                                              H("00 01 00 02 01 00 00 01")).payload()),
     _pad("02 02 0b 22 10 40 00 00 01 00 02 01 00 00 01 00 00 00 01 4c 81 de 3d be 6c e1 d5 d3 d7")),
    ("SET_METER $25,000.70", hid_host(0x41, p.SetMeter(2500070, p.MeterMode.SHOW)),
     _pad("11 02 09 41 00 00 00 00 00 26 25 e6 00 00 00 00 01 04 77 63 45 66 b7 bb b7 7d da")),
    ("SYNC", hid_host(0x42, p.Sync()), _pad("12 02 00 42 00 00 00 01 ad 43 b7 79 e7 a5 d0 24 de 1b")),
    ("HELLO, the host's nonce", p.encode_output(0x3f, p.Hello(HOST_NONCE), LinkSeal(EXAMPLE_KEY, Side.HOST, HOST_NONCE)),
     _pad("15 02 08 3f 48 4f 53 54 4e 4f 4e 43 00 00 00 01 dc e7 4b f5 7a 31 90 72 42 e6")),
]


@pytest.mark.parametrize("what,encoded,expected", HID_EXAMPLES, ids=[e[0] for e in HID_EXAMPLES])
def test_hid_examples_of_protocols_md(what, encoded, expected):
    assert encoded.hex(" ") == expected
    raw = H(expected)
    end = p.HEADER + raw[2] + p.SEAL
    assert crc16_bitwise(raw[:end]) == int.from_bytes(raw[end:end + 2], "big")
    assert p.parse_report(raw).encode() == raw
