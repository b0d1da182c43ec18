"""Each protocol layer alone: every message round-trips, every malformed one is refused by name."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import CARDS, parse_card
from drivers.errors import BadFrame, UnknownFrameType
from drivers.serial_link import messages as m
from drivers.serial_link.framing import MAX_PAYLOAD, OVERHEAD, SOF, VERSION, Frame, FrameDecoder, decode_frame
from tests.devices.helpers import encode_frame
from drivers.progressive import protocol as p
from drivers.shoe import protocol as s
from drivers.shuffler import protocol as f
from drivers.sim.shuffler import count_deck

FUZZ = settings(max_examples=200, derandomize=True, deadline=None)
cards = st.sampled_from(CARDS)

# -- framing ------------------------------------------------------------------------------


@FUZZ
@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))
def test_a_frame_round_trips(seq, type_, payload):
    raw = encode_frame(seq, type_, payload)
    assert len(raw) == len(payload) + OVERHEAD and raw[0] == SOF and raw[1] == VERSION
    assert decode_frame(raw) == Frame(seq, type_, payload)


def test_frames_split_anywhere_come_out_whole():
    stream = b"".join(encode_frame(i, 0x80, bytes([i]) * i) for i in range(10))
    d = FrameDecoder()
    out = []
    for i in range(len(stream)):
        out += d.feed(stream[i:i + 1])
    assert [fr.seq for fr in out] == list(range(10)) and d.pending == 0


@pytest.mark.parametrize("raw,reason", [
    (encode_frame(1, 2, b"ab")[:-1] + b"\x00", "CRC mismatch"),
    (bytes((SOF, VERSION, 33, 0, 0)), "length 33 is over the 32-byte limit"),
    (bytes.fromhex("a5 01 01 01 01 e6 54"), "link version 1 (this box speaks 2, sealed): refused"),
    (b"\x01\x02\x03", "3 stray byte(s) before a start byte"),
])
def test_bad_frames_say_what_is_wrong(raw, reason):
    d = FrameDecoder()
    items = d.feed(raw) + d.expire()
    assert isinstance(items[0], BadFrame) and items[0].reason == reason


def test_a_garbled_frame_costs_only_itself():
    good1, good2 = encode_frame(1, 0x80, b"x"), encode_frame(2, 0x80, b"y")
    garbled = bytearray(encode_frame(9, 0x80, b"zzzz"))
    garbled[5] ^= 0xFF
    items = FrameDecoder().feed(good1 + bytes(garbled) + good2)
    assert [i.seq for i in items if isinstance(i, Frame)] == [1, 2]
    assert sum(isinstance(i, BadFrame) for i in items) == 1


def test_a_frame_cut_short_is_given_up_when_the_line_goes_quiet_and_the_next_frame_still_decodes():
    d = FrameDecoder()
    cut = encode_frame(1, 0x80, b"abcdef")[:5]
    assert d.feed(cut) == [] and d.pending == 5
    items = d.expire()
    assert [i.reason for i in items] == [f"truncated frame: 5 of {6 + OVERHEAD} bytes arrived"] and d.pending == 0
    assert d.feed(encode_frame(2, 0x80)) == [Frame(2, 0x80)]


def test_a_false_start_byte_inside_held_bytes_is_rescanned_on_expiry():
    d = FrameDecoder()
    whole = encode_frame(3, 0x81, b"\x00\x01")
    assert d.feed(bytes((SOF, VERSION, 20)) + whole) == []   # LEN 20 swallows the real frame, for now
    items = d.expire()
    assert Frame(3, 0x81, b"\x00\x01") in items


def test_encode_refuses_what_cannot_be_sent():
    with pytest.raises(ValueError, match="over the 32-byte limit"):
        encode_frame(0, 0x80, bytes(33))
    with pytest.raises(ValueError, match="one byte"):
        encode_frame(256, 0x80)


# -- link messages ------------------------------------------------------------------------


@FUZZ
@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 0xFFFF), st.integers(0, 255),
       st.integers(0, 255), st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1,
                                    max_size=m.SERIAL_MAX), st.binary(min_size=8, max_size=8))
def test_ident_round_trips(version, kind, boot, major, minor, serial, nonce):
    ident = m.Ident(version, kind, boot, (major, minor), serial, nonce)
    assert m.parse_ident(Frame(1, m.IDENT, ident.encode())) == ident


def test_ident_refuses_an_unprintable_serial_number():
    with pytest.raises(BadFrame, match="printable"):
        m.parse_ident(Frame(1, m.IDENT, bytes(6 + 8) + b"\x00"))


# -- the shoe -----------------------------------------------------------------------------

shoe_events = st.one_of(
    st.builds(lambda c, size, pos, n: s.CardDispensed(c, min(pos, size), size, n), cards,
              st.integers(1, s.MAX_STACK), st.integers(1, s.MAX_STACK), st.integers(1, 0xFFFF)),
    st.builds(s.CoverCardReached, st.integers(0, 0xFFFF)),
    st.builds(s.ShoeEmpty, st.integers(0, 0xFFFF)),
    st.builds(s.ShoeJammed, st.sampled_from(s.JamCode), st.integers(0, 0xFFFF)),
    st.builds(s.JamCleared, st.integers(0, 0xFFFF)),
    st.builds(s.ShoeLoaded, st.integers(0, 0xFFFF)),
)


@FUZZ
@given(shoe_events, st.integers(0, 255))
def test_every_shoe_event_round_trips(event, seq):
    frame = decode_frame(encode_frame(seq, event.TYPE, event.payload()))
    assert s.parse_event(frame) == event


def test_stack_start_and_end():
    first = s.CardDispensed(parse_card("2c"), 1, 5, 1)
    last = s.CardDispensed(parse_card("3c"), 5, 5, 5)
    single = s.CardDispensed(parse_card("4c"), 1, 1, 6)
    assert (first.stack_start, first.stack_end) == (True, False)
    assert (last.stack_start, last.stack_end) == (False, True)
    assert (single.stack_start, single.stack_end) == (True, True)


@pytest.mark.parametrize("type_,payload,reason", [
    (s.CARD_DISPENSED, bytes((13, 0, 1, 5, 0, 1, 0)), "rank 13"),
    (s.CARD_DISPENSED, bytes((0, 4, 1, 5, 0, 1, 0)), "suit 4"),
    (s.CARD_DISPENSED, bytes((0, 0, 6, 5, 0, 1, 0)), "position 6 of 5"),
    (s.CARD_DISPENSED, bytes((0, 0, 1, 11, 0, 1, 0)), "position 1 of 11"),
    (s.CARD_DISPENSED, bytes((0, 0, 1, 5, 0, 0, 0)), "dispensed count 0"),
    (s.CARD_DISPENSED, bytes((0, 0, 1, 5, 0, 1)), "6 bytes (7 expected)"),
    (s.SHOE_JAMMED, bytes((9, 0, 0)), "code 9"),
    (s.SHOE_EMPTY, b"", "0 bytes (2 expected)"),
])
def test_shoe_refuses_malformed_events(type_, payload, reason):
    with pytest.raises(BadFrame, match=re.escape(reason)):
        s.parse_event(Frame(1, type_, payload))


def test_shoe_refuses_unknown_types_as_such():
    with pytest.raises(UnknownFrameType):
        s.parse_event(Frame(1, 0xBF))
    with pytest.raises(UnknownFrameType):
        s.parse_command(Frame(1, 0x3F))


def test_shoe_commands():
    assert s.parse_command(Frame(1, s.DISPENSE_ONE)) == s.DispenseOne()
    assert s.parse_command(Frame(1, s.DISPENSE_STACK, b"\x05")) == s.DispenseStack(5)
    with pytest.raises(BadFrame, match="DISPENSE_STACK of 11 cards"):
        s.parse_command(Frame(1, s.DISPENSE_STACK, b"\x0b"))
    with pytest.raises(ValueError, match="not 1"):
        s.DispenseStack(1)


@FUZZ
@given(st.builds(s.ShoeStatus, st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans(),
                 st.integers(0, 0xFFFF), st.one_of(st.none(), st.integers(0, 0xFFFE))))
def test_shoe_status_round_trips(status):
    assert s.parse_status(Frame(1, m.STATUS, status.payload())) == status


# -- the shuffler -------------------------------------------------------------------------

anomalies = st.builds(lambda kind, c: f.Anomaly(kind, None if kind == f.AnomalyKind.UNREADABLE else c),
                      st.sampled_from(f.AnomalyKind), st.one_of(st.none(), cards))
shuffler_events = st.one_of(
    st.sampled_from([f.DeckInserted(), f.DeckRemoved(), f.ShuffleStarted(), f.ShuffleComplete(),
                     f.FaultCleared()]),
    st.builds(f.ShufflerFault, st.sampled_from(f.FaultCode)),
    st.builds(f.DeckCount, st.integers(0, 255), st.lists(anomalies, max_size=f.MAX_ANOMALIES).map(tuple),
              st.booleans(), st.booleans()),
)


@FUZZ
@given(shuffler_events, st.integers(0, 255))
def test_every_shuffler_event_round_trips(event, seq):
    frame = decode_frame(encode_frame(seq, event.TYPE, event.payload()))
    assert f.parse_event(frame) == event


@pytest.mark.parametrize("payload,reason", [
    (bytes((52, 0, 1, 9, 0, 0)), "kind 9"),
    (bytes((52, 0, 1, 1, 13, 0)), "rank 13"),
    (bytes((52, 0, 2, 1, 0, 0)), "lists 2 anomalies in 6 bytes"),
    (bytes((52, 4, 0)), "reserved bits"),
    (bytes((52, 0, 1, 4, 0, 0)), "for UNREADABLE"),
    (bytes((52, 0)), "at least 3"),
])
def test_shuffler_refuses_malformed_counts(payload, reason):
    with pytest.raises(BadFrame, match=reason):
        f.parse_event(Frame(1, f.COUNT_RESULT, payload))


def test_a_count_is_correct_only_for_52_cards_and_nothing_odd():
    assert f.DeckCount(52).correct
    assert not f.DeckCount(51).correct
    # a card from another deck in place of a missing one still counts 52, and is still wrong
    assert not f.DeckCount(52, (f.Anomaly(f.AnomalyKind.MISSING, parse_card("7h")),
                                f.Anomaly(f.AnomalyKind.FOREIGN, parse_card("As")))).correct


def test_the_reader_names_a_missing_card_only_when_it_can_tell():
    deck = [c for c in CARDS if str(c) != "7h"]
    assert count_deck(deck).cards(f.AnomalyKind.MISSING) == (parse_card("7h"),)
    unsure = count_deck(deck, unreadable=[0])
    assert unsure.total == 51
    assert unsure.cards(f.AnomalyKind.MISSING) == (None,)
    assert unsure.cards(f.AnomalyKind.UNREADABLE) == (None,)
    assert count_deck(list(CARDS), unreadable=[5]).cards(f.AnomalyKind.MISSING) == ()


def test_the_reader_finds_doubled_and_foreign_cards():
    doubled = count_deck(list(CARDS) + [parse_card("Qs")])
    assert doubled.total == 53 and doubled.cards(f.AnomalyKind.EXTRA) == (parse_card("Qs"),)
    foreign = count_deck(list(CARDS), foreign=[parse_card("Qs")])
    assert foreign.cards(f.AnomalyKind.FOREIGN) == (parse_card("Qs"),) and not foreign.correct


def test_too_many_anomalies_are_truncated_and_flagged():
    result = count_deck(list(CARDS)[:30])
    assert result.truncated and len(result.anomalies) == f.MAX_ANOMALIES and not result.correct
    assert f.parse_event(Frame(1, f.COUNT_RESULT, result.payload())) == result


# -- the progressive controller -------------------------------------------------------------

seats = st.frozensets(st.integers(1, p.SEATS))
states = st.builds(p.InputState, st.booleans(), seats, st.frozensets(st.sampled_from(p.PanelButton)),
                   st.integers(0, 255), seats, st.sampled_from(p.StateReason))
outputs = st.one_of(
    st.builds(p.SetLights, st.lists(st.sampled_from(p.Light), min_size=7, max_size=7).map(tuple), st.booleans()),
    st.builds(p.SetMeter, st.integers(0, p.METER_MAX), st.sampled_from(p.MeterMode)),
    st.just(p.Sync()),
)


@FUZZ
@given(states, st.integers(0, 255))
def test_a_state_report_round_trips(state, seq):
    assert p.parse_input(p.encode_report(p.STATE, seq, state.payload())) == (seq, state)


@FUZZ
@given(outputs, st.integers(0, 255))
def test_every_output_report_round_trips(message, seq):
    raw = p.encode_output(seq, message)
    assert len(raw) == p.REPORT_SIZE
    assert p.parse_output(raw) == (seq, message)


@pytest.mark.parametrize("raw,reason", [
    (bytes(31), "31 bytes"),
    (bytes(32), "32 bytes"),   # a report of the unsealed format 1
    (bytes((p.STATE, 1)) + bytes(62), "link version 1"),
    (p.encode_report(p.STATE, 1, bytes(7))[:-1] + b"\x01", "padding"),
    (bytes((p.STATE, p.VERSION, p.MAX_PAYLOAD + 1)) + bytes(61), f"length {p.MAX_PAYLOAD + 1}"),
    (p.encode_report(p.STATE, 1, bytes((8, 0, 0, 0, 0, 0, 0))), "reserved bits"),
    (p.encode_report(p.STATE, 1, bytes((0, 0x80, 0, 0, 0, 0, 0))), "reserved bits"),
    (p.encode_report(p.STATE, 1, bytes((0, 0, 0, 0, 0, 0, 3))), "reason 3"),
    (p.encode_report(p.ACK, 1, bytes((0x10, 1, 7))), "status 7"),
])
def test_malformed_input_reports_are_refused(raw, reason):
    with pytest.raises(BadFrame, match=reason):
        p.parse_input(raw)


def test_output_values_are_checked_both_ways():
    with pytest.raises(BadFrame, match="out of range"):
        p.parse_output(p.encode_report(p.SET_LIGHTS, 1, bytes((4, 0, 0, 0, 0, 0, 0, 0))))
    with pytest.raises(ValueError, match="cents"):
        p.SetMeter(p.METER_MAX + 1)
    with pytest.raises(ValueError, match="cents"):
        p.SetMeter(2.5)  # money is integer cents, never a float
    with pytest.raises(ValueError, match="6 lights"):
        p.SetLights((p.Light.ON,) * 6)
    assert p.lights_for({3: p.Light.FLASHING_LATE}) == (0, 0, 2, 0, 0, 0, 0)


def _state(pressed=False, wagers=(), presses=0, latched=(), buttons=()):
    return p.InputState(pressed, frozenset(wagers), frozenset(buttons), presses, frozenset(latched))


def test_tracker_reports_the_first_state_whole_then_changes():
    t = p.StateTracker()
    assert t.update(_state(wagers={1})) == [p.ControllerState(False, frozenset({1}), frozenset(), frozenset())]
    assert t.update(_state(wagers={1, 4})) == [p.WagerSensor(4, True)]
    assert t.update(_state(wagers={1, 4}, pressed=True, presses=1, latched={1, 4})) == [
        p.LockoutPressed(frozenset({1, 4}))]
    assert t.update(_state(wagers={1, 4, 6}, pressed=True, presses=1, latched={1, 4})) == [p.WagerSensor(6, True)]
    assert t.update(_state(wagers={1, 6}, presses=1, latched={1, 4})) == [p.WagerSensor(4, False),
                                                                       p.LockoutReleased()]
    assert t.update(_state(wagers={1, 6}, presses=1, latched={1, 4}, buttons={p.PanelButton.DEAL})) == [
        p.PanelButtonPressed(p.PanelButton.DEAL)]


def test_tracker_puts_changes_before_and_after_a_press_in_the_right_order_across_lost_reports():
    t = p.StateTracker()
    t.update(_state(wagers={2}))
    # lost in between: seat 3 placed, lock-out pressed (latching 2 and 3), seat 5 placed late, released
    assert t.update(_state(wagers={2, 3, 5}, presses=1, latched={2, 3})) == [
        p.WagerSensor(3, True), p.LockoutPressed(frozenset({2, 3})), p.WagerSensor(5, True), p.LockoutReleased()]


def test_tracker_counts_presses_it_never_saw():
    t = p.StateTracker()
    t.update(_state(presses=254))
    assert t.update(_state(wagers={7}, presses=1, latched={7})) == [
        p.WagerSensor(7, True), p.LockoutPressed(frozenset({7}), presses=3), p.LockoutReleased()]
