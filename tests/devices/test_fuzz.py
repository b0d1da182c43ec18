"""Fuzzing every parser: random bytes and mutated valid frames never raise anything but BadFrame,
and the drivers count and log every bad frame they are fed."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st
from structlog.testing import capture_logs

from controller.cards import CARDS
from drivers.errors import BadFrame
from drivers.serial_link import messages as m
from drivers.serial_link.framing import MAX_PAYLOAD, Frame, FrameDecoder
from tests.devices.helpers import encode_frame
from drivers.events import LinkRefused
from drivers.manual_shoe import protocol as ms
from drivers.manual_shoe.device import ManualShoeDevice
from drivers.progressive import protocol as p
from drivers.progressive.device import ProgressiveDevice
from drivers.shoe import protocol as s
from drivers.shoe.device import ShoeDevice
from drivers.shuffler import protocol as f
from drivers.shuffler.device import ShufflerDevice

FUZZ = settings(max_examples=300, derandomize=True, deadline=None)

frames = st.builds(encode_frame, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))
# what a device could plausibly send: its own types, with payloads of the right sizes and wrong contents
event_types = st.sampled_from(sorted(s.EVENT_NAMES) + sorted(f.EVENT_NAMES) + sorted(ms.EVENT_NAMES)
                              + [m.ACK, m.NAK, m.IDENT, m.STATUS])
plausible = st.builds(encode_frame, st.integers(0, 255), event_types, st.binary(max_size=12))


@st.composite
def mutated(draw, source=st.lists(st.one_of(frames, plausible), min_size=1, max_size=6)):  # noqa: B008  (a strategy: immutable)
    """A stream of valid frames with one of them damaged the way a line damages things."""
    stream = draw(source)
    i = draw(st.integers(0, len(stream) - 1))
    raw = bytearray(stream[i])
    how = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "noise"]))
    at = draw(st.integers(0, len(raw) - 1))
    if how == "flip":
        raw[at] ^= draw(st.integers(1, 255))
    elif how == "insert":
        raw.insert(at, draw(st.integers(0, 255)))
    elif how == "delete":
        del raw[at]
    elif how == "truncate":
        del raw[at:]
    else:
        raw = bytearray(draw(st.binary(min_size=1, max_size=20))) + raw
    return stream[:i], bytes(raw), stream[i + 1:]


def decode_all(data: bytes, chunks: list[int]) -> list:
    d, out, pos = FrameDecoder(), [], 0
    for n in chunks:
        out += d.feed(data[pos:pos + n])
        pos += n
    out += d.feed(data[pos:]) + d.expire()
    assert d.pending == 0
    return out


def accounted(items: list) -> int:
    return sum(len(i.encode()) if isinstance(i, Frame) else len(i.raw) for i in items)


@FUZZ
@given(st.binary(max_size=400), st.lists(st.integers(1, 40), max_size=20))
def test_decoder_takes_random_bytes_and_accounts_for_every_byte(data, chunks):
    items = decode_all(data, chunks)
    assert all(isinstance(i, (Frame, BadFrame)) for i in items)
    assert accounted(items) == len(data)


@FUZZ
@given(mutated(), st.lists(st.integers(1, 40), max_size=10))
def test_a_damaged_frame_never_costs_its_neighbours(case, chunks):
    before, damaged, after = case
    items = decode_all(b"".join(before) + damaged + b"".join(after), chunks)
    assert accounted(items) == len(b"".join(before)) + len(damaged) + len(b"".join(after))
    got = [i.encode() for i in items if isinstance(i, Frame)]
    # frames before the damage come out first and whole; those after it come out last and whole
    assert got[:len(before)] == before
    assert got[len(got) - len(after):] == after if after else True


PARSERS = [s.parse_event, s.parse_command, s.parse_status, f.parse_event, f.parse_command, f.parse_status,
           ms.parse_event, ms.parse_status, m.parse_ident, m.parse_hello, m.parse_nak]


@FUZZ
@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))
def test_every_serial_message_parser_takes_any_frame(seq, type_, payload):
    frame = Frame(seq, type_, payload)
    for parse in PARSERS:
        try:
            parse(frame)
        except BadFrame:
            pass


@FUZZ
@given(st.one_of(st.binary(max_size=40), st.binary(min_size=32, max_size=32),
                 st.builds(lambda i, seq, pl, k, x: _flip(p.encode_report(i, seq, pl), k, x),
                           st.sampled_from([p.STATE, p.ACK, p.SET_LIGHTS, p.SET_METER, p.SYNC, 0x7F]),
                           st.integers(0, 255), st.binary(max_size=p.MAX_PAYLOAD), st.integers(0, 31),
                           st.integers(0, 255))))
def test_every_hid_parser_takes_any_report(data):
    for parse in (p.parse_input, p.parse_output, p.parse_report):
        try:
            parse(data)
        except BadFrame:
            pass


def _flip(raw: bytes, at: int, x: int) -> bytes:
    out = bytearray(raw)
    out[at] ^= x
    return bytes(out)


class _WireTap:
    """Stands in for the serial transport: keeps what the driver writes."""

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


@FUZZ
@given(st.sampled_from([ShoeDevice, ShufflerDevice, ManualShoeDevice]),
       st.one_of(st.binary(max_size=300), mutated().map(lambda c: b"".join(c[0]) + c[1] + b"".join(c[2]))))
def test_serial_drivers_count_and_log_every_bad_frame(device_cls, data):
    with capture_logs() as logs:
        queue: asyncio.Queue = asyncio.Queue()
        dev = device_cls("/dev/null", queue)
        dev._transport = _WireTap()
        dev._ident_seen = True   # a session under way: its events are taken
        d = FrameDecoder()
        dev.feed(d.feed(data))
        dev.feed(d.expire())
    bad = [e for e in logs if e["event"] == "bad_frame"]
    assert dev.bad_frames == len(bad)
    assert all(e["log_level"] == "warning" and e["reason"] for e in bad)
    # whatever reached the table is a typed event, and each was ACKed on the wire
    events = [queue.get_nowait() for _ in range(queue.qsize())]
    assert all(type(e).__module__.startswith("drivers.") for e in events)
    acks = [w for w in dev._transport.written if w[4] == m.ACK]
    taken = [e for e in events if not isinstance(e, LinkRefused)]   # a frame sent again under its old counter
    assert len(acks) >= len(taken)
    assert dev.refused_frames >= len(events) - len(taken)


@FUZZ
@given(st.lists(st.one_of(st.binary(max_size=40), st.binary(min_size=32, max_size=32),
                          st.builds(lambda st_, seq, k, x: _flip(p.encode_report(p.STATE, seq, st_.payload()), k, x),
                                    st.builds(p.InputState, st.booleans(), st.frozensets(st.integers(1, 7)))
                                    , st.integers(0, 255), st.integers(0, 31), st.integers(0, 255))),
                max_size=8))
def test_the_progressive_driver_counts_and_logs_every_bad_report(reports):
    with capture_logs() as logs:
        queue: asyncio.Queue = asyncio.Queue()
        dev = ProgressiveDevice(queue)
        for r in reports:
            dev.feed(r)
    bad = [e for e in logs if e["event"] == "bad_frame"]
    assert dev.bad_frames == len(bad)
    expected_bad = 0
    for r in reports:
        try:
            p.parse_input(r)
        except BadFrame:
            expected_bad += 1
    assert dev.bad_frames == expected_bad


card_reports = st.builds(lambda d, cover: ms.CardDrawn(CARDS[d % 52], d + cover, d), st.integers(1, 400),
                         st.integers(0, 1))


@FUZZ
@given(st.lists(st.one_of(card_reports, st.builds(ms.ShoeLoaded, st.integers(0, 416))), max_size=30))
def test_the_manual_shoes_count_lets_through_only_cards_that_follow_it(reports):
    """Whatever order reports come in, a card reaches the table only as the next in the count, so no
    card is dealt twice and none is silently passed over (5324.22(h)(3): each card to its place)."""
    tally, passed, last, taken = ms.Tally(), [], None, None
    for r in reports:
        refused = tally.check(r)
        if isinstance(r, ms.ShoeLoaded):
            assert refused is None and tally.drawn == 0
            last, taken = 0, None
            continue
        if refused is ms.REPEAT:   # the last card taken, word for word: not taken twice
            assert r == taken and tally.drawn == last
            continue
        if refused is None:
            taken = r
            assert last is None or r.drawn == last + 1
            passed.append(r.drawn)
        else:
            assert refused.reported == r.drawn and refused.expected == last + 1
            assert refused.replayed == (r.drawn <= last)
            if not refused.replayed:
                taken = None
        last = tally.drawn


shoe_cards = st.builds(lambda n, pos, size, c: s.CardDispensed(CARDS[c], min(pos, size), size, n),
                       st.integers(1, 60), st.integers(1, 5), st.sampled_from([1, 5]), st.integers(0, 51))


def _dealt_in_order(n: int) -> list:
    """A shoe loaded with a deck dealing `n` cards in stacks of five, as a working shoe reports them."""
    return [s.CardDispensed(CARDS[i], i % 5 + 1, 5, i + 1) for i in range(n)]


@FUZZ
@given(st.integers(0, 20), st.lists(st.tuples(st.integers(0, 20), st.sampled_from(["replay", "swap", "drop"])),
                                    max_size=4),
       st.lists(st.one_of(shoe_cards, st.builds(s.ShoeEmpty, st.integers(0, 60))), max_size=4))
def test_the_shoes_count_takes_each_card_once_in_order_whatever_a_faulty_shoe_sends(n, faults, noise):
    """A working shoe's cards are all taken; replayed, reordered, skipped or made-up reports are never
    taken out of order: every card taken is the last count + 1 at the next place of its stack."""
    stream = _dealt_in_order(n)
    for at, how in faults:
        if not stream:
            break
        at %= len(stream)
        if how == "replay":
            stream.insert(at + 1, stream[max(0, at - 1)])
        elif how == "swap" and at + 1 < len(stream):
            stream[at], stream[at + 1] = stream[at + 1], stream[at]
        elif how == "drop":
            del stream[at]
    stream += noise
    tally = s.Tally()
    tally.check(s.ShoeLoaded(52))
    taken, refused = [], []
    for r in stream:
        verdict = tally.check(r)
        if verdict is None and isinstance(r, s.CardDispensed):
            taken.append(r)
        elif isinstance(verdict, s.CardOutOfStep):
            refused.append(verdict)
            assert verdict.reported == r.dispensed
    assert [c.dispensed for c in taken] == list(range(1, len(taken) + 1))   # in order, none twice
    for before, after in zip(taken, taken[1:], strict=False):
        assert after.stack_position == (before.stack_position % before.stack_size) + 1 or after.stack_start
    if not faults and not noise:
        assert taken == _dealt_in_order(n) and not refused
    assert len({c.card for c in taken}) == len(taken)
