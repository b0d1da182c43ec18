"""serve() as the runtime runs it: one more task of the table's loop, ended by cancelling it."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from controller.ui import serve
from controller.ui.app import bind
from tests.ui.ui_helpers import http


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_runs_in_the_tables_loop_and_stops_when_cancelled(secrets_file, real_table):
    port = _free_port()
    make_table = real_table("casino-war")

    async def main():
        table = make_table()
        await table.start()
        task = asyncio.create_task(serve(table, "127.0.0.1", port, secrets_file))
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                status, state = await asyncio.to_thread(http, f"{url}/api/state")
                break
            except OSError:
                await asyncio.sleep(0.02)
        assert status == 200 and state["table"]["game"] == "casino-war"
        # An open event stream does not hold the shutdown up.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"event: state"), 10)
        assert b"text/event-stream" in head
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
        assert time.monotonic() - started < 2.5
        assert await asyncio.wait_for(reader.read(), 10) is not None   # the server ended the stream
        writer.close()
        assert table.view.subscribers == set()        # every page's subscription given back
        await table.close()

    _run_elsewhere(main)
    with socket.socket() as s:                    # nothing listens on the port any more
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))


def _run_elsewhere(main) -> None:
    """asyncio.run in a thread of its own: Playwright's sync API keeps a loop in this one."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result(60)


def test_a_port_in_use_is_named():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(OSError, match=f"cannot serve the screens on 127.0.0.1:{port}"):
            bind("127.0.0.1", port)


def test_the_console_names_the_tables_game_and_serves_only_its_files(live, real_table):
    """The page learns its game's key from /api/console and loads /games/<key>/<screen>.js (common.js)."""
    import urllib.error
    import urllib.request
    server = live(real_table("caribbean-stud"))
    status, body = http(f"{server.url}/api/console")
    assert status == 200 and body["key"] == "caribbean_stud"
    assert body["labels"] == {"caribbean-stud": "Caribbean stud poker"} and "dealer.js" in body["files"]
    with urllib.request.urlopen(f"{server.url}/games/caribbean_stud/dealer.js", timeout=5) as r:
        assert r.status == 200 and b"T.register(" in r.read()
    with pytest.raises(urllib.error.HTTPError) as other:   # another game's scripts are not this table's
        urllib.request.urlopen(f"{server.url}/games/casino_war/dealer.js", timeout=5)
    assert other.value.code == 404


def test_the_pages_and_their_files_are_served(live, real_table):
    server = live(real_table("casino-war"))
    for path in ("/", "/supervisor", "/static/common.js", "/static/dealer.js", "/static/supervisor.js",
                 "/static/style.css", "/games/casino_war/dealer.js"):
        import urllib.request
        with urllib.request.urlopen(server.url + path, timeout=5) as r:
            assert r.status == 200 and len(r.read()) > 500, path
    status, body = http(f"{server.url}/api/supervisor/me")
    assert status == 401
    status, body = http(f"{server.url}/api/panel", body={"event": "deal"})
    assert status == 400 and "event" in body["error"]
