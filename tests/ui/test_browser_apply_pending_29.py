"""Issue 29 item 3 on the supervisor's screen in headless Chromium, on a live table (`tablectl run`'s
runtime on emulated devices): a changed rate held for the meter's next reset is applied at once between
rounds by two different supervisors, each signed in with their own PIN, the meter's value carried over;
`tablectl meters --json` reads the same from the journal."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from controller.config import parse_profile
from controller.credentials import Supervisor, hash_pin, load_secrets, write_secrets
from controller.ui.auth import Authority
from tests.table.table_helpers import running, until
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import SUPERVISOR_ID, SUPERVISOR_NAME, SUPERVISOR_PIN, sign_in, wait_until

SECOND_ID, SECOND_PIN = "2078", "246813"
TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")
PROFILE = Path(__file__).resolve().parents[2] / "config" / "caribbean-stud.toml"


def profile_at(rate: int):
    text = PROFILE.read_text()
    assert "contribution_bp = 7000" in text
    return parse_profile(text.replace("contribution_bp = 7000", f"contribution_bp = {rate}"))


def meters(data: Path) -> dict:
    (m,) = json.loads(subprocess.run([TABLECTL, "meters", "--json", "--data-dir", str(data)], capture_output=True,
                                     text=True, timeout=120, check=True).stdout)["meters"]
    return m


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    """A table that ran at 7000 bp (its round voided), started again with a profile at 8000 bp: pending."""
    from controller.table import Table
    base = tmp_path_factory.mktemp("apply29")
    data = base / "data"

    async def first():
        async with running(profile_at(7000), data) as table:
            await until(lambda: table.published()["round"]["state"] == "open", "the round open", 60)
            assert (await table.submit({"type": "void_round", "reason": "closing"}, source="supervisor",
                                       who=SUPERVISOR_ID))["ok"]
    asyncio.run(asyncio.wait_for(first(), 120))
    secrets = base / "supervisors.toml"
    write_secrets(secrets, {SUPERVISOR_ID: Supervisor(SUPERVISOR_ID, SUPERVISOR_NAME, hash_pin(SUPERVISOR_PIN)),
                            SECOND_ID: Supervisor(SECOND_ID, "Lee Park", hash_pin(SECOND_PIN))})
    server = LiveServer(lambda: Table(profile_at(8000), data_dir=data, seed=7, screen=False), secrets,
                        authority=Authority(load_secrets(secrets), path=secrets))
    yield server, data
    server.close()


def test_two_supervisors_apply_a_pending_change_at_once_on_the_screen(box, page_factory, screenshots):
    server, data = box
    wait_until(server, lambda s: "apply_pending" in s["round"]["allowed"], "the change pending between rounds", 60)
    before = meters(data)
    assert before["pending_change"]["contribution_bp"] == 8000 and before["rate_bp"] == 7000

    page = page_factory(server.url + "/supervisor")
    sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
    box_ = page.locator("[data-test=apply-pending]")
    box_.wait_for()
    assert "carried over" in box_.inner_text() and "Two different supervisors" in box_.inner_text()
    page.click("#stud-pending-apply")
    page.wait_for_function("document.getElementById('stud-pending').dataset.applied === 'asked'")
    assert f"asked by {SUPERVISOR_ID}" in box_.inner_text()
    assert meters(data)["rate_bp"] == 7000   # one signature: nothing applied yet
    page.evaluate("fetch('/api/supervisor/signout', {method: 'POST', credentials: 'same-origin', "
                  "headers: {'Content-Type': 'application/json', 'X-Tablectl': '1'}, body: '{}'})")
    page.close()

    other = page_factory(server.url + "/supervisor")
    sign_in(other, SECOND_ID, SECOND_PIN)
    other.locator("[data-test=apply-pending]").wait_for()
    other.click("#stud-pending-apply")
    state = wait_until(server, lambda s: "apply_pending" not in s["round"]["allowed"], "the change applied")
    assert state["round"]["state"] in ("closed", "void")
    other.locator("[data-test=apply-pending]").wait_for(state="hidden")
    after = meters(data)
    assert after["rate_bp"] == 8000 and after["pending_change"] is None
    assert (after["current"], after["overflow"]) == (before["current"], before["overflow"])
    other.screenshot(path=screenshots / "apply-pending-29.png")
