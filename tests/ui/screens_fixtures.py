"""The screens' browser and live-server fixtures, a pytest plugin registered for the whole suite by
tests/conftest.py (tests/ui, the linked tables' screens in tests/link, tests/par, tests/report);
a test that asks for `browser` (or `page_factory`) is marked `browser` there.

The server runs as it does in the table: uvicorn inside an asyncio loop that also
runs the table (here in a background thread, so the tests can drive the browser
with Playwright's synchronous API). The browser is Debian's Chromium, headless;
the session fixture installs it with apt-get when it is missing (Playwright's own
browser download is not used).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_NAME, SUPERVISOR_PIN

CHROMIUM = "/usr/bin/chromium"
TEST_DEALER = "D-900"   # the dealer signed in on every live table of the screens' tests (LiveServer)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
INSTALL_CHROMIUM = "apt-get update && apt-get install -y chromium"
SCREENSHOTS = Path(os.environ.get("TABLECTL_SCREENSHOTS", Path(__file__).parent / "screenshots"))


def _install_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    if shutil.which("apt-get") is None:
        pytest.fail(f"{CHROMIUM} is missing and there is no apt-get to install it")
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    done = subprocess.run(prefix + ["sh", "-c", INSTALL_CHROMIUM], capture_output=True, text=True,
                          timeout=900)
    if done.returncode != 0 or not os.path.exists(CHROMIUM):
        pytest.fail(f"could not install Chromium ({INSTALL_CHROMIUM}): {done.stderr[-2000:]}")


@pytest.fixture(scope="session")
def chromium() -> str:
    _install_chromium()
    return CHROMIUM


@pytest.fixture(scope="module")
def browser(chromium):
    # Module scope, not session: Playwright's sync API keeps an asyncio loop running in this
    # thread while it is started, and the other areas' tests call asyncio.run() after ours.
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page_factory(browser):
    """New pages, each in its own context (its own cookies), closed after the test."""
    contexts = []

    def make(url: str, width: int = 1600, height: int = 1000):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(url)
        page.wait_for_function("document.body.dataset.connection === 'online'")
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def secrets_file(tmp_path_factory) -> Path:
    from controller.credentials import Supervisor, hash_pin, write_secrets
    path = tmp_path_factory.mktemp("secrets") / "supervisors.toml"
    write_secrets(path, {SUPERVISOR_ID: Supervisor(SUPERVISOR_ID, SUPERVISOR_NAME, hash_pin(SUPERVISOR_PIN))})
    return path


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


class LiveServer:
    """A table and its screens' server in a loop of their own; `call` runs a coroutine there."""

    def __init__(self, make_table, secrets_path: Path | None, dealer: str | None = TEST_DEALER,
                 **app_options) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="screens", daemon=True)
        self.thread.start()
        self.secrets_path = secrets_path
        self.app_options = app_options
        # the start hashes the installed software (seconds on a busy 2-core box, not milliseconds):
        # its own bound, as tests/security/state_machine_helpers.LiveTable's
        self.table = self.call(self._make(make_table), timeout=300)
        self.port = 0
        self.server = None   # a controller.ui.app.ScreenServer once started
        # A dealer on duty, as at a table opened for play: the console asks for one by itself when
        # nobody is (issue 30); `dealer=None` leaves the table without one.
        if dealer is not None and "dealer_on_duty" in self.published() and self.published()["dealer_on_duty"] is None:
            assert self.submit({"type": "dealer_on_duty", "badge": dealer})["ok"]
        self.start()

    @staticmethod
    async def _make(make_table):
        table = make_table()
        start = getattr(table, "start", None)   # the real runtime starts its devices and consumer
        if start is not None:
            await start()
        return table

    def call(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        from controller.ui.app import ScreenServer

        async def go():
            server = ScreenServer(self.table, "127.0.0.1", self.port, self.secrets_path, **self.app_options)
            await server.start()
            return server
        self.server = self.call(go())
        self.port = self.server.port

    def stop(self) -> None:
        if self.server is not None:
            self.call(self.server.stop())
            self.server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def submit(self, event: dict, source: str = "panel", who: str | None = None) -> dict:
        return self.call(self.table.submit(event, source=source, who=who))

    def published(self) -> dict:
        async def get():
            return self.table.published()
        return self.call(get())

    def close(self) -> None:
        self.stop()
        close = getattr(self.table, "close", None)
        if close is not None:
            result = close()
            if asyncio.iscoroutine(result):
                self.call(result)
        async def cancel_rest():
            rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in rest:
                t.cancel()
            await asyncio.gather(*rest, return_exceptions=True)
        self.call(cancel_rest())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def live(secrets_file):
    """live(make_table) -> a LiveServer, closed after the test."""
    servers = []

    def start(make_table, **options):
        s = LiveServer(make_table, secrets_file, **options)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()
