"""Issue 29 on the supervisor's screen in headless Chromium, on a live table (`tablectl run`'s runtime on
emulated devices): the refusal's confirmation says what refusing a royal flush does to the meter before
it is pressed, two supervisors sign it, and the meters of 5320.8 (current at the limit, overflow, hits,
base, limit, the last hits with both signers) are shown as `tablectl meters --json` gives them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from controller.config import parse_profile
from controller.credentials import Supervisor, hash_pin, load_secrets, write_secrets
from controller.ui.auth import Authority
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import (
    SUPERVISOR_ID, SUPERVISOR_NAME, SUPERVISOR_PIN, deal_progressive_hand, money, sign_in, wait_until,
)

SECOND_ID, SECOND_PIN = "2077", "135791"
RESET, LIMIT = 1_000_000, 1_000_050
ROYAL_ALONE = "Ah Kh Qh Jh Th  As Kd 7h 4c 2s".split()   # seat 1's royal flush, then the dealer's ace-king
TABLECTL = str(Path(__file__).resolve().parents[2] / ".venv" / "bin" / "tablectl")


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    """The module's live table: its meter starts at the reset, with a limit 50 cents above it."""
    from controller.table import Table
    base = tmp_path_factory.mktemp("meters29")
    secrets = base / "supervisors.toml"
    write_secrets(secrets, {SUPERVISOR_ID: Supervisor(SUPERVISOR_ID, SUPERVISOR_NAME, hash_pin(SUPERVISOR_PIN)),
                            SECOND_ID: Supervisor(SECOND_ID, "Lee Park", hash_pin(SECOND_PIN))})
    text = (Path(__file__).resolve().parents[2] / "config" / "caribbean-stud.toml").read_text()
    text = text.replace("initial = 2500000", f"initial = {RESET}")
    text = text.replace("reset = 1000000 ", f"limit = {LIMIT}\noverflow = \"next-reset\"\nreset = 1000000 ")
    text = text.replace("# second_signer_above = 1000000", "second_signer_above = 500000")
    profile = parse_profile(text)
    assert profile.caribbean_stud.progressive.limit == LIMIT
    server = LiveServer(lambda: Table(profile, data_dir=base / "data", seed=7, screen=False), secrets,
                        authority=Authority(load_secrets(secrets), path=secrets))
    yield server, base / "data"
    server.close()


def test_a_refused_royal_on_the_supervisors_screen_and_its_meters(box, page_factory, screenshots):
    server, data = box
    round_id = deal_progressive_hand(server, ROYAL_ALONE)
    assert server.submit({"type": "settle"})["ok"]
    state = wait_until(server, lambda s: s["round"]["state"] == "validation", "the royal waiting")
    win = state["validations"][0]
    assert win["hand"] == "royal-flush" and win["second_signer"]

    page = page_factory(server.url + "/supervisor")
    sign_in(page, SUPERVISOR_ID, SUPERVISOR_PIN)
    page.locator("[data-test=meters]").wait_for()
    page.click("[data-test=refuse-1]")
    said = page.locator("[data-confirm-refusal]")
    said.wait_for()
    text = said.inner_text()
    assert "not paid, not a hit" in text and "the reset seed stays in the meter" in text
    assert money(win["award"]) in text and "into the overflow" in text   # the meter is at its limit
    page.fill("#refuse-reason", "Acceptor light was not lit")
    for d in SECOND_ID:
        page.click(f"[data-test=second-key-{d}]")
    page.click("#second-dots")
    for d in SECOND_PIN:
        page.click(f"[data-test=second-key-{d}]")
    page.click("[data-test=confirm-refuse]")
    wait_until(server, lambda s: s["round"]["state"] == "closed", "the round closed by the refusal")

    # The meters on the screen, as `tablectl meters --json` has them from the journal.
    (m,) = json.loads(subprocess.run([TABLECTL, "meters", "--json", "--data-dir", str(data)], capture_output=True,
                                     text=True, timeout=120, check=True).stdout)["meters"]
    assert m["current"] == LIMIT and m["overflow"] > 0 and m["hits"] == 0 and m["wins"] == 0
    hit = page.locator(f"[data-hit='{round_id}-1']")
    hit.wait_for()
    assert hit.get_attribute("data-refused") == "true"
    assert f"REFUSED by {SUPERVISOR_ID} and {SECOND_ID}: Acceptor light was not lit (not paid, not a hit)" \
        in hit.inner_text()
    meters = page.locator("[data-meter='progressive']")
    assert meters.locator(f"[data-meter-current='{m['current']}']").inner_text().endswith(money(LIMIT))
    assert meters.locator(f"[data-meter-overflow='{m['overflow']}']").count() == 1
    assert meters.locator(f"[data-meter-limit='{LIMIT}']").count() == 1
    assert meters.locator(f"[data-meter-base='{RESET}']").count() == 1
    assert meters.locator("[data-meter-hits='0']").count() == 1
    page.screenshot(path=screenshots / "meters-29-refused-royal.png")
