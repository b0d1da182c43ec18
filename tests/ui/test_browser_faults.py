"""A fault cleared on the supervisor's screen of a live, keyed table (issue 26): the screen lists what
the clearing accepts, worst first, and the table takes as many supervisors as the worst of it needs,
each signed in with their own PIN; what the journal key did not write nobody may accept.

The journal is a live table's own (antes taken, the table stopped), then edited on the disk as
someone without the key can: an ante times ten, with or without the chain and seal recomputed.
The controller holds no anchor (the emulated one keeps none across starts), so only the journal
itself tells.
"""

from __future__ import annotations

import pytest

from controller.journal.store import Journal
from controller.credentials import Supervisor, hash_pin, write_secrets
from tests.security.anchor_helpers import make_key
from tests.security.edit_helpers import ante_times_ten
from tests.table.table_helpers import deck_ready
from tests.ui.screens_fixtures import LiveServer
from tests.ui.ui_helpers import sign_in, wait_until

FIRST, SECOND = ("S7101", "246813", "Ada Byrne"), ("S7102", "975310", "Kit Olsen")


@pytest.fixture(scope="module")
def two_supervisors(tmp_path_factory):
    path = tmp_path_factory.mktemp("secrets-faults") / "supervisors.toml"
    write_secrets(path, {who: Supervisor(who, name, hash_pin(pin)) for who, pin, name in (FIRST, SECOND)})
    return path


@pytest.fixture
def keyed_table(real_table, two_supervisors, tmp_path, monkeypatch):
    """edit(rechain) -> the live table again, in the fault its edited journal makes; closed after."""
    monkeypatch.setenv("TABLECTL_JOURNAL_KEY", str(make_key(tmp_path / "keys")))
    servers: list[LiveServer] = []

    def edit(rechain: str) -> tuple[LiveServer, int]:
        played = LiveServer(real_table("caribbean-stud"), two_supervisors)
        servers.append(played)
        wait_until(played, lambda s: s["round"]["state"] == "open" and deck_ready(s),
                   "the first round open with a counted deck in the shoe")
        for seat in (1, 2):
            assert played.submit({"type": "ante", "seat": seat, "amount": 500})["ok"]
        played.close()
        servers.remove(played)
        seq = ante_times_ten(tmp_path / "data", rechain)
        server = LiveServer(real_table("caribbean-stud"), two_supervisors)
        servers.append(server)
        wait_until(server, lambda s: bool(s["fault"]), "the fault the edited journal makes")
        return server, seq

    yield edit
    for s in servers:
        s.close()


def clear(page, reason: str) -> None:
    page.click("[data-test=clear-fault]")
    page.fill("#reason", reason)
    page.click("#reason-ok")


def listed(page) -> list[tuple[str, str]]:
    return [(li.get_attribute("data-code"), li.get_attribute("data-supervisors"))
            for li in page.locator("#fault-problems li").all()]


def test_an_edited_ante_is_listed_worst_first_and_cleared_by_two_supervisors(keyed_table, page_factory,
                                                                             screenshots, tmp_path):
    server, seq = keyed_table("no")
    page = page_factory(server.url + "/supervisor")
    sign_in(page, FIRST[0], FIRST[1])
    page.locator("#fault-problems li").first.wait_for()
    codes = [code for code, _ in listed(page)]
    assert codes[0] == "chain-hash" and codes.index("chain-hash") < codes.index("seal-mismatch") \
        < codes.index("schema"), codes
    assert f"entry {seq}: its contents do not match its hash" in page.inner_text("#fault-problems li >> nth=0")
    assert "Two different supervisors must accept this" in page.inner_text("[data-test=fault-signers]")
    # The worst problem heads the fault, and an integrity problem offers no preset reason (issue 30).
    assert f"entry {seq}: its contents do not match its hash" in page.inner_text("#fault")
    page.click("[data-test=clear-fault]")
    page.locator("#reason-dialog").wait_for()
    assert page.locator("#presets button").count() == 0
    page.click("#reason-cancel")
    page.screenshot(path=screenshots / "supervisor-fault-two-needed.png", full_page=True)
    clear(page, "incident 7: the ante was checked against the camera")
    page.locator("[data-test=fault-signers]").filter(has_text=f"Accepted by {FIRST[0]}").wait_for()
    assert server.published()["fault"]["approved_by"] == FIRST[0], "one supervisor does not clear it"
    page.click("#sign-out")
    sign_in(page, SECOND[0], SECOND[1])
    page.locator("[data-test=clear-fault]").wait_for()
    clear(page, "incident 7: checked again")
    wait_until(server, lambda s: not s["fault"], "the fault cleared by two supervisors")
    page.locator("#fault").filter(has_text="No fault.").wait_for()
    with Journal.open(tmp_path / "data", readonly=True) as j:
        cleared = j.latest("fault-cleared").payload
        approval = j.latest("fault-approval").payload
    assert (cleared["by"], cleared["second"], cleared["supervisors"]) == (SECOND[0], FIRST[0], 2)
    assert (cleared["accepted"][0]["code"], cleared["accepted"][0]["where"]) == ("chain-hash", f"entry {seq}")
    assert approval["by"] == FIRST[0] and approval["accepting"] == cleared["accepted"]


def test_an_edited_ante_the_key_did_not_write_is_refused_on_the_screen(keyed_table, page_factory, screenshots,
                                                                       tmp_path):
    server, _ = keyed_table("keep")
    page = page_factory(server.url + "/supervisor")
    sign_in(page, FIRST[0], FIRST[1])
    page.locator("#fault-problems li").first.wait_for()
    assert listed(page)[0] == ("entry-forged", "none"), listed(page)
    assert "Nobody may accept this" in page.inner_text("[data-test=fault-signers]")
    for who in (FIRST, SECOND):
        if who is SECOND:
            page.click("#sign-out")
            sign_in(page, who[0], who[1])
            page.locator("[data-test=clear-fault]").wait_for()
        clear(page, "the ante looks right to me")
        page.locator("#toast").filter(has_text="nobody may clear this fault").wait_for()
        page.click("#reason-cancel")
        assert server.published()["fault"] and not server.published()["fault"].get("approved_by")
    page.screenshot(path=screenshots / "supervisor-fault-nobody-may.png", full_page=True)
    with Journal.open(tmp_path / "data", readonly=True) as j:
        assert j.latest("fault-cleared") is None and j.latest("fault-approval") is None
        refused = [e.payload for e in j.table_entries("refused")]
    assert [r.get("who") for r in refused[-2:]] == [FIRST[0], SECOND[0]], refused
    assert not server.submit({"type": "ante", "seat": 1, "amount": 500})["ok"]   # out of play
