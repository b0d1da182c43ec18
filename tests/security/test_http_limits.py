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


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A connection from `source`: an address of loopback's 127/8, so one test is several clients."""
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def _open_stream(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A page following the table: GET /api/events, held open; returns once its status line came."""
    s = _connect(port, source)
    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, "the stream closed before its headers"
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return s


def _request_from(port: int, source: str, path: str = "/api/state") -> tuple[int, dict]:
    """(status, body) of one GET from `source`; a stream that opens is (200, {}), not waited on."""
    with _connect(port, source) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        if path == "/api/events":
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = s.recv(4096)
                assert chunk, "closed before its headers"
                head += chunk
            if head.startswith(b"HTTP/1.1 200"):
                return 200, {}
            s.settimeout(10)
            rest = head.partition(b"\r\n\r\n")[2]
            while True:
                try:
                    return int(head.split(b" ", 2)[1]), json.loads(rest)
                except ValueError:
                    more = s.recv(4096)
                    assert more, "closed before its body"
                    rest += more
        return read_response(s)


def _eventually(check, what: str, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def _closed_by_the_server(s: socket.socket) -> bool:
    """The server closed (or refused) the connection: EOF or a reset, and no response."""
    try:
        return s.recv(4096) == b""
    except ConnectionResetError:
        return True


def test_the_pages_following_the_table_are_bounded_and_a_place_comes_free(live):
    """An outsider opening event streams gets MAX_STREAMS of them and then 503s, not the box's memory;
    one address at most half of them; the table plays on, and once a page leaves, a screen that
    retries gets in."""
    from controller.ui.app import MAX_STREAMS, MAX_STREAMS_PER_CLIENT
    clients = [f"127.0.0.{2 + i}" for i in range(MAX_STREAMS // MAX_STREAMS_PER_CLIENT)]
    held = [_open_stream(live.port, c) for c in clients for _ in range(MAX_STREAMS_PER_CLIENT)]
    try:
        status, body = _request_from(live.port, "127.0.0.99", "/api/events")
        assert status == 503 and f"at most {MAX_STREAMS} screens" in body["error"]
        _still_plays(live)
        held.pop().close()                                    # the last client's place comes free
        status, body = _request_from(live.port, clients[0], "/api/events")
        assert status == 503 and "of one address" in body["error"]   # not for the first client: it has its half
        # the page's script retries every second (static/common.js); the server sees the leaver
        _eventually(lambda: _try_stream(live.port, held, "127.0.0.99"), "a place for a new page")
    finally:
        for s in held:
            s.close()


def _try_stream(port: int, held: list, source: str = "127.0.0.1") -> bool:
    try:
        held.append(_open_stream(port, source))
        return True
    except AssertionError:
        return False


def test_connections_at_once_are_bounded(live):
    """Connections that never send a request (a slow client, or a flood) are held to MAX_CONNECTIONS;
    past them a request is answered 503 at once; when they go, the screens are served again."""
    from controller.ui.app import MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT
    clients = [f"127.0.0.{2 + i}" for i in range(MAX_CONNECTIONS // MAX_CONNECTIONS_PER_CLIENT)]
    idle = [_connect(live.port, c) for c in clients for _ in range(MAX_CONNECTIONS_PER_CLIENT)]
    try:
        status, _ = _request_from(live.port, "127.0.0.99")
        assert status == 503
    finally:
        for s in idle:
            s.close()
    _eventually(lambda: request(live.port, "GET", "/api/state")[0] == 200, "the screens served again")
    _still_plays(live)


def test_one_client_holds_at_most_half_of_the_connections(live):
    """Issue 26: 64 idle connections from one client made every request a 503. One address holds
    MAX_CONNECTIONS_PER_CLIENT; the next is closed unanswered, and another client is served."""
    from controller.ui.app import MAX_CONNECTIONS_PER_CLIENT
    idle = [_connect(live.port, "127.0.0.2") for _ in range(MAX_CONNECTIONS_PER_CLIENT)]
    try:
        one_more = _connect(live.port, "127.0.0.2")
        with one_more:
            one_more.sendall(f"GET /api/state HTTP/1.1\r\nHost: {live.host}\r\n\r\n".encode())
            assert _closed_by_the_server(one_more)
        assert _request_from(live.port, "127.0.0.3")[0] == 200
    finally:
        for s in idle:
            s.close()
    _eventually(lambda: _request_from(live.port, "127.0.0.2")[0] == 200, "the first client served again")


def test_a_connection_whose_headers_do_not_come_is_let_go(live, monkeypatch):
    """Issue 26: a slowloris (a header byte now and then) or an idle socket held its place for as long
    as it liked. Each is closed once doors.HEADER_SECONDS pass without a whole request's headers."""
    from controller.ui import doors
    monkeypatch.setattr(doors, "HEADER_SECONDS", 1.0)          # the box's 10 s, shortened for the test
    idle, slow = _connect(live.port), _connect(live.port)
    try:
        slow.sendall(b"GET /api/state HTTP/1.1\r\n")
        for s in (idle, slow):
            s.settimeout(0.25)
        deadline = time.monotonic() + 15
        open_ = {"idle": idle, "slow": slow}
        while open_ and time.monotonic() < deadline:
            for name, s in list(open_.items()):
                try:
                    if s.recv(4096) == b"":
                        del open_[name]
                except TimeoutError:
                    if name == "slow":
                        s.sendall(b"X")                        # one more byte: still no end of the headers
                except ConnectionResetError:
                    del open_[name]
        assert not open_, f"still held: {sorted(open_)}"
    finally:
        idle.close()
        slow.close()
    _still_plays(live)


def test_a_body_that_does_not_come_is_refused(live, monkeypatch):
    """A body sent slower than the table reads it holds its request no longer than BODY_SECONDS: 408."""
    from controller.ui import app
    monkeypatch.setattr(app, "BODY_SECONDS", 1.0)
    with _connect(live.port) as s:
        s.sendall(f"POST /api/panel HTTP/1.1\r\nHost: {live.host}\r\nX-Tablectl: 1\r\n"
                  "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode())
        status, body = read_response(s)
    assert status == 408 and "arrives within" in body["error"]
    _still_plays(live)
