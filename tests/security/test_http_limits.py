"""The screens' port against an outsider (issue 15, item 1): size, nesting, Host and Origin.

Breaks this guards: bodies had no size limit and refused events were journaled
whole (a 50 MB POST stalled the loop 14 s and added 80 MB to the journal); a body
nested ~1,000 deep gave a 500; and the server answered any Host, so a page from a
name an attacker's DNS points at the table (DNS rebinding) could drive it. Against
a live casino war table on emulated devices, through its screens' server.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.security.boundary_helpers import LiveTable, panel, read_response, request

FIFTY_MB = 50 * 1024 * 1024


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    t = LiveTable("war.toml", tmp_path_factory.mktemp("http") / "data")
    try:
        t.wait_until(lambda s: (s.get("round") or {}).get("state") == "wagers", "a round taking wagers")
        yield t
    finally:
        t.close()


def _journal_bytes(live: LiveTable, since: int) -> int:
    return sum(len(json.dumps(e.payload)) for e in live.entries_after(since))


def _still_plays(live: LiveTable) -> None:
    status, state = request(live.port, "GET", "/api/state")
    assert status == 200 and state["fault"] is None
    status, body = panel(live.port, {"type": "wager", "seat": 7, "wager": "tie", "stake": 500})
    assert status in (200, 409) and "internal" not in body.get("error", "")


def test_a_50_mb_body_is_refused_before_it_is_read(live):
    """The answer comes after the headers and 64 KiB: the server never waits for the other 49.9 MB."""
    seq = live.head()
    head = (f"POST /api/panel HTTP/1.1\r\nHost: {live.host}\r\nX-Tablectl: 1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {FIFTY_MB}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as s:
        s.sendall(head + b'{"event": {"type": "wager", "note": "' + b"x" * 65536)
        status, body = read_response(s)
    assert status == 413 and "at most" in body["error"]
    assert _journal_bytes(live, seq) <= 300
    _still_plays(live)


def test_a_50_mb_body_without_a_length_is_cut_off_as_it_comes(live):
    """Chunked, with no Content-Length: refused once the bytes read pass the limit, without its end."""
    seq = live.head()
    head = (f"POST /api/panel HTTP/1.1\r\nHost: {live.host}\r\nX-Tablectl: 1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    chunk = b"x" * 8192
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as s:
        s.sendall(head + (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 8)   # 64 KiB, and the body never ends
        status, body = read_response(s)
    assert status == 413 and "at most" in body["error"]
    assert _journal_bytes(live, seq) <= 300
    _still_plays(live)


@pytest.mark.parametrize("depth", [20, 1000, 5000])
def test_deep_nesting_is_a_400_not_a_500(live, depth):
    body = b'{"event": {"type": "wager", "seat": ' + b"[" * depth + b"]" * depth + b"}}"
    status, answer = request(live.port, "POST", "/api/panel", body)
    assert status == 400 and "nested" in answer["error"]
    _still_plays(live)


@pytest.mark.parametrize("body", [
    b'{"event": {"type": "wager", "seat": 1, "wager": "initial", "stake": ' + b"9" * 5000 + b"}}",
    b'{"event": {"type": "wager", "seat": "\xff\xfe"}}',
    b"[" + b"1," * 5000 + b"1]",
], ids=["huge-integer", "bad-utf8", "not-an-object"])
def test_a_body_that_is_not_a_small_json_object_is_a_400(live, body):
    status, answer = request(live.port, "POST", "/api/panel", body)
    assert status == 400 and answer["ok"] is False
    _still_plays(live)


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:{port}", "127.0.0.2:{port}",
                                  "127.0.0.1:1", "localhost.attacker.example:{port}", ""])
def test_a_request_naming_another_host_is_refused(live, host):
    """DNS rebinding: the browser sends the attacker's name as Host; the table answers nothing, reads or writes."""
    host = host.format(port=live.port)
    seq = live.head()
    status, _ = request(live.port, "GET", "/api/state", host=host)
    assert status in (400, 421)
    status, _ = panel(live.port, {"type": "wager", "seat": 5, "wager": "initial", "stake": 500}, host=host)
    assert status in (400, 421)
    assert live.entries_after(seq) == []


def test_a_foreign_origin_is_refused(live):
    seq = live.head()
    for origin in ("http://attacker.example", f"http://attacker.example:{live.port}", "null",
                   f"http://127.0.0.1:{live.port + 1 if live.port < 65535 else 1}"):
        status, body = panel(live.port, {"type": "wager", "seat": 6, "wager": "initial", "stake": 500},
                             headers={"Origin": origin})
        assert status == 403 and "Origin" in body["error"], origin
    assert live.entries_after(seq) == []


def test_the_tables_own_address_and_origin_are_served(live):
    status, body = panel(live.port, {"type": "wager", "seat": 6, "wager": "initial", "stake": 500},
                         headers={"Origin": f"http://{live.host}"})
    assert status == 200 and body["ok"], body
    status, _ = request(live.port, "GET", "/api/state", host=f"localhost:{live.port}")
    assert status == 200


def _open_stream(port: int) -> socket.socket:
    """A page following the table: GET /api/events, held open; returns once its status line came."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, "the stream closed before its headers"
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return s


def _eventually(check, what: str, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def test_the_pages_following_the_table_are_bounded_and_a_place_comes_free(live):
    """An outsider opening event streams gets MAX_STREAMS of them and then 503s, not the box's memory;
    the table plays on, and once a page leaves, a screen that retries gets in."""
    from controller.ui.app import MAX_STREAMS
    held = [_open_stream(live.port) for _ in range(MAX_STREAMS)]
    try:
        status, body = request(live.port, "GET", "/api/events")
        assert status == 503 and f"at most {MAX_STREAMS}" in body["error"]
        _still_plays(live)
        held.pop().close()
        # the page's script retries every second (static/common.js); the server sees the leaver
        _eventually(lambda: _try_stream(live.port, held), "a place for a new page")
    finally:
        for s in held:
            s.close()


def _try_stream(port: int, held: list) -> bool:
    try:
        held.append(_open_stream(port))
        return True
    except AssertionError:
        return False


def test_connections_at_once_are_bounded(live):
    """Connections that never send a request (a slow client, or a flood) are held to MAX_CONNECTIONS;
    past them a request is answered 503 at once; when they go, the screens are served again."""
    from controller.ui.app import MAX_CONNECTIONS
    idle = [socket.create_connection(("127.0.0.1", live.port), timeout=10) for _ in range(MAX_CONNECTIONS)]
    try:
        status, _ = request(live.port, "GET", "/api/state")
        assert status == 503
    finally:
        for s in idle:
            s.close()
    _eventually(lambda: request(live.port, "GET", "/api/state")[0] == 200, "the screens served again")
    _still_plays(live)
