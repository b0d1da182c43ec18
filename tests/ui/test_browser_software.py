"""New software accepted on the supervisor's screen of a live table (controller/runtime/software.py):
an upgrade by one supervisor, an integrity change by two different ones, each with their own PIN;
the journal keeps the old and new versions and digests and who accepted."""

from __future__ import annotations

import json

import pytest

from controller.journal import selfcheck
from controller.journal.store import Journal
from controller.credentials import Supervisor, hash_pin, write_secrets
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import sign_in, wait_until

FIRST, SECOND = ("S7001", "135790", "Ada Byrne"), ("S7002", "864200", "Kit Olsen")


@pytest.fixture(scope="module")
def two_supervisors(tmp_path_factory):
    path = tmp_path_factory.mktemp("secrets2") / "supervisors.toml"
    write_secrets(path, {who: Supervisor(who, name, hash_pin(pin)) for who, pin, name in (FIRST, SECOND)})
    return path


def accepted_before(data_dir, change) -> dict:
    """A journal whose last accepted software is the running one, changed as `change` says."""
    manifest = selfcheck.software_manifest()
    old = change(dict(manifest))
    with Journal.open(data_dir, mode="test") as j:   # the emulated table's: a test journal (issue 28)
        j.append("software-accepted", {"digest": selfcheck.software_digest(old), "files": old, "by": None,
                                       "reason": "the software as it was"})
    return old


def start_table(real_table, two_supervisors, live_servers):
    server = LiveServer(real_table("caribbean-stud"), two_supervisors)
    live_servers.append(server)
    wait_until(server, lambda s: bool(s["fault"]) and s.get("software"), "the software fault")
    return server


@pytest.fixture
def live_servers():
    servers: list = []
    yield servers
    for s in servers:
        s.close()


def accept(page, who, reason):
    sign_in(page, who[0], who[1])
    page.locator("#software [data-test=accept-software]").wait_for()
    page.fill("#software-reason", reason)
    page.click("#software [data-test=accept-software]")


def test_an_upgrade_is_accepted_by_one_supervisor(real_table, two_supervisors, live_servers, page_factory,
                                                  screenshots, tmp_path):
    def older(m):
        m["dist:tablectl"] = "0.0.9" + m["dist:tablectl"][len(m["dist:tablectl"].split()[0]):]
        return m
    old = accepted_before(tmp_path / "data", older)
    server = start_table(real_table, two_supervisors, live_servers)
    software = server.published()["software"]
    assert software["kind"] == "upgrade" and software["supervisors"] == 1
    page = page_factory(server.url + "/supervisor", 800, 480)
    # By touch alone at the kiosk's smallest size (issue 30): the reason is one of the presets.
    sign_in(page, FIRST[0], FIRST[1])
    page.locator("#software [data-test=accept-software]").wait_for()
    page.click("#software [data-software-preset='Upgrade approved by the casino']")
    assert page.input_value("#software-reason") == "Upgrade approved by the casino"
    page.click("#software [data-test=accept-software]")
    wait_until(server, lambda s: not s["fault"] and s["software"] is None, "the upgrade accepted")
    page.locator("#software").wait_for(state="hidden")
    with Journal.open(tmp_path / "data", readonly=True) as j:
        entry = j.latest("software-accepted")
    p = entry.payload
    assert p["by"] == FIRST[0] and p["kind"] == "upgrade" and "second" not in p
    with Journal.open(tmp_path / "data", readonly=True) as j:
        said = [e.kind for e in j.entries_since(0) if "Upgrade approved by the casino" in json.dumps(e.payload)]
    assert said, "the preset reason is journaled with the acceptance"
    assert p["previous"] == {"digest": selfcheck.software_digest(old), "versions": selfcheck.versions(old)}
    assert p["previous"]["versions"]["tablectl"] == "0.0.9"
    assert p["versions"]["tablectl"] == p["files"]["dist:tablectl"].split()[0] != "0.0.9"
    assert p["digest"] == selfcheck.software_digest(selfcheck.software_manifest())


def test_an_integrity_change_needs_two_different_supervisors(real_table, two_supervisors, live_servers,
                                                             page_factory, screenshots, tmp_path):
    def tampered(m):
        m["controller/journal/store.py"] = "0" * 64   # a file other than the one accepted, versions unchanged
        return m
    accepted_before(tmp_path / "data", tampered)
    server = start_table(real_table, two_supervisors, live_servers)
    assert server.published()["software"]["supervisors"] == 2
    page = page_factory(server.url + "/supervisor")
    page.locator("#signin").wait_for()
    accept(page, FIRST, "files checked against the release")
    page.locator(f"#software [data-approved-by={FIRST[0]}]").wait_for()
    page.screenshot(path=screenshots / "supervisor-software-one-of-two.png", full_page=True)
    assert server.published()["fault"], "one supervisor does not accept an integrity change"
    # the same supervisor again is still one supervisor
    page.fill("#software-reason", "me again")
    page.click("#software [data-test=accept-software]")
    page.locator("#toast").filter(has_text="Done").wait_for()
    assert server.published()["fault"]
    page.click("#sign-out")
    accept(page, SECOND, "second check of the files")
    wait_until(server, lambda s: not s["fault"] and s["software"] is None, "the change accepted by two")
    with Journal.open(tmp_path / "data", readonly=True) as j:
        approvals = [e.payload["by"] for e in j.table_entries("software-approval")]
        p = j.latest("software-accepted").payload
    assert approvals == [FIRST[0], FIRST[0]]
    assert (p["by"], p["second"], p["kind"]) == (SECOND[0], FIRST[0], "integrity")


def test_the_software_verified_on_the_screen_with_a_seed_typed_on_the_keypad(
        real_table, two_supervisors, live_servers, page_factory, screenshots, tmp_path):
    """The inspector's seed typed on the screen's hexadecimal keypad gives the figure the command
    gives (controller/ui/software_routes.py), and the journal keeps who asked for it."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    server = LiveServer(real_table("caribbean-stud"), two_supervisors)
    live_servers.append(server)
    wait_until(server, lambda s: not s["fault"], "the table in play")
    page = page_factory(server.url + "/supervisor")
    sign_in(page, FIRST[0], FIRST[1])
    for key in "0BADC0DE":
        page.click(f"#software-verify [data-test=hex-{key.lower()}]")
    assert page.locator("[data-test=verify-seed]").text_content() == "0BADC0DE"
    page.click("#software-verify [data-test=verify-software]")
    shown = page.locator("[data-test=verify-digest]")
    shown.wait_for(timeout=300_000)   # every file the table runs is read: seconds on a busy box
    page.screenshot(path=screenshots / "supervisor-software-verified.png", full_page=True)
    assert page.locator("#verify-result [data-authentic=yes]").count() == 1
    tablectl = Path(sys.executable).with_name("tablectl")
    by_command = subprocess.run([tablectl, "software", "verify", "--seed", "0badc0de", "--json"],
                                capture_output=True, text=True, timeout=600)
    assert by_command.returncode == 0, by_command.stderr
    assert shown.text_content() == json.loads(by_command.stdout)["digest"]
    with Journal.open(tmp_path / "data", readonly=True) as j:
        asked = j.latest("software-verified").payload
    assert (asked["by"], asked["seed"], asked["digest"]) == (FIRST[0], "0badc0de", shown.text_content())
    assert not server.published()["fault"]
