"""Two live Caribbean stud tables on one linked progressive, seen on their screens (issue 10).

Each table is the live runtime (controller/table.py) with a `[link]` profile, its
emulated devices (drivers/sim) and its screens served in a loop of its own; both
reach one real PostgreSQL. A royal flush at table A is pending on table B's
screens as the pool computed it; the database then stops, and every screen says
the progressive cannot be played while the base game goes on (9 NYCRR
5321.18(c)), the meter display of each table is blank, a progressive chip is not
recognized; the database comes back and so do the meters. What is asserted is
what the pool says (its pending awards, its meter), not the tables' own records.
"""

from __future__ import annotations

import time

from drivers.progressive import protocol as pp
from tests.link.link_helpers import profile
from tests.ui.ui_helpers import (STUD_DECK, SUPERVISOR_ID, SUPERVISOR_PIN, deal_progressive_hand, money, sign_in,
                                 wait_until)

BANNER = "Progressive unavailable \u2014 link to the pool down (5321.18(c)); the base game goes on"
# seat 1 a royal flush, then the dealer's five (ace-king, qualifying): only seat 1 has an ante
ROYAL_AT_SEAT_1 = STUD_DECK[0:5] + STUD_DECK[15:20]


def linked_table(env, table_id: str, seed: int):
    """(link settings, a factory of the live table on the pool "cs", its screens served by the test)."""
    from controller.config import load_profile
    from controller.table import Table
    cfg = env.add_table("cs", table_id)
    prof = load_profile(profile(env, cfg, table_id))
    return cfg, lambda: Table(prof, data_dir=env.tmp / f"data-{table_id}", seed=seed, screen=False)


def until(predicate, what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def display(server) -> pp.SetMeter | None:
    """What the table's emulated progressive controller shows on its meter display."""
    return server.table.devices.world.progressive.meter


def pool_meter_cents(env) -> int:
    return env.admin.execute("SELECT meter_units / 10000 FROM link.pools WHERE name = 'cs'").fetchone()[0]


def pending_rows(page) -> list[tuple[str, str, str, str, str, str]]:
    """The pool's pending awards on a screen: (table, round, seat, hand, amount, status)."""
    rows = page.locator("#pending tr.pending-award")
    return [(r.get_attribute("data-pending-table"), r.get_attribute("data-pending-round"),
             r.get_attribute("data-pending-seat"), r.locator("td").nth(4).inner_text(),
             r.locator("[data-amount]").inner_text(), r.locator(".status").inner_text())
            for r in rows.all()]


def refused_progressive(server, seat: int) -> list:
    async def read():
        return [e.payload for e in server.table.journal.entries_since(0) if e.kind == "refused"
                and e.payload["event"].get("type") == "progressive" and e.payload["event"].get("seat") == seat]
    return server.call(read())


def play_royal_at_a(a) -> str:
    """Table A plays one round: seat 1's ante and progressive wager, a stacked royal flush, settled."""
    rid = deal_progressive_hand(a, ROYAL_AT_SEAT_1)
    assert a.submit({"type": "settle"})["ok"]
    return rid


def test_a_royal_at_one_table_is_pending_on_the_other_and_an_outage_shows_on_every_screen(
        env, live, page_factory, screenshots):
    env.create_pool("cs")
    cfg_a, make_a = linked_table(env, "CS-A", 31)
    cfg_b, make_b = linked_table(env, "CS-B", 32)
    a, b = live(make_a), live(make_b)
    wait_until(b, lambda s: s["round"]["state"] == "open" and s["progressive"]["available"],
               "B's first round open on the pool")
    seed = pool_meter_cents(env)

    dealer_b = page_factory(b.url)
    sup_b = page_factory(b.url + "/supervisor")
    sign_in(sup_b, SUPERVISOR_ID, SUPERVISOR_PIN)
    sup_b.locator("#desk").wait_for()
    sup_a = page_factory(a.url + "/supervisor")
    sign_in(sup_a, SUPERVISOR_ID, SUPERVISOR_PIN)
    sup_a.locator("#desk").wait_for()
    dealer_a = page_factory(a.url)
    for page in (dealer_b, sup_b, sup_a, dealer_a):   # the pool's name beside its meter, nothing pending
        assert page.inner_text("#meter-pool") == "Pool cs"
        page.wait_for_function("t => document.getElementById('meter').textContent === t", arg=money(seed))
        page.locator("#pending [data-pending-none]").wait_for()
        assert page.locator("#progressive-banner .progressive-down").count() == 0
    until(lambda: (m := display(b)) is not None and (m.cents, m.mode) == (seed, pp.MeterMode.SHOW),
          "B's meter display showing the pool's meter")

    # -- a royal flush at A: the pool takes the award from its meter and reseeds (5321.18(b)(3)(iii))
    round_a = play_royal_at_a(a)
    for server in (b, a):   # each table's link refreshes the pool's pending awards in its own time
        wait_until(server, lambda s: s["progressive"]["pending"], "the award pending in the table's published state")
    award = env.admin.execute("SELECT table_name, round_id, seat, hand, amount_cents, meter_before_cents, "
                              "meter_after_cents, status FROM link.awards").fetchall()
    assert len(award) == 1
    table, rid, seat, hand, amount, before, after, status = award[0]
    assert (table, rid, seat, hand, status) == ("CS-A", round_a, 1, "royal-flush", "pending")
    units = env.admin.execute("SELECT sum(units)::bigint FROM link.contributions").fetchone()[0]
    assert units > 0 and amount == before == seed + units // 10000   # the whole meter: seed and A's wager
    assert after == pool_meter_cents(env)                             # reseeded at once
    for s in (a.published(), b.published()):
        assert [(p["table"], p["round"], p["seat"], p["hand"], p["amount_cents"]) for p in s["progressive"]["pending"]] \
            == [("CS-A", round_a, 1, "royal-flush", amount)]
    row = ("CS-A", round_a, "1", "Royal flush", money(amount), "pending validation")
    for page in (sup_b, dealer_b, sup_a, dealer_a):                  # a hit at A is pending at B
        page.locator("#pending tr.pending-award").wait_for()
        assert pending_rows(page) == [row]
        page.wait_for_function("t => document.getElementById('meter').textContent === t", arg=money(after))
    assert sup_a.locator("#pending tr.pending-award.mine").count() == 1
    assert sup_b.is_disabled("[data-test=correct-meter]")   # the meter is the pool's, not this table's
    assert sup_b.locator("#pending tr.pending-award.mine").count() == 0
    # every linked table's meter display flashes the reseeded meter while the award waits
    until(lambda: (m := display(b)) is not None and (m.cents, m.mode) == (after, pp.MeterMode.FLASH),
          "B's meter display flashing the reseeded meter")
    sup_b.screenshot(path=screenshots / "linked-supervisor-b-award-pending.png", full_page=True)
    dealer_b.screenshot(path=screenshots / "linked-dealer-b-award-pending.png", full_page=True)
    sup_a.screenshot(path=screenshots / "linked-supervisor-a-award-pending.png", full_page=True)

    # -- the pool's database stops: every screen says so; the displays go blank (5321.18(c))
    with env.database_down():
        for page in (dealer_b, sup_b, sup_a, dealer_a):
            page.locator("#progressive-banner .progressive-down").wait_for(timeout=4000)
        for page in (dealer_b, sup_b, sup_a, dealer_a):
            assert BANNER in page.inner_text("#progressive-banner")
            assert page.locator("#progressive-banner [data-reason]").inner_text().strip()
            assert page.text_content("#meter") == "Unavailable"
            assert page.get_attribute("#meter-box", "data-available") == "false"
            assert page.locator("[data-alarm=progressive_unavailable]").count() == 1   # the banner, once
        for server in (a, b):
            until(lambda server=server: (m := display(server)) is not None and m.mode == pp.MeterMode.BLANK,
                  "the meter display blank", timeout=3)
        # the award is still listed, as last heard from the pool
        assert pending_rows(sup_b) == [row]
        # a progressive chip placed now is not a wager: refused, its light stays off; the base game goes on
        assert b.submit({"type": "ante", "seat": 2, "amount": 500})["ok"]
        b.table.devices.world.progressive.place_wager(2)
        until(lambda: refused_progressive(b, 2), "B's refusal of seat 2's progressive chip")
        time.sleep(0.3)   # room for a light that should not come on
        assert b.table.devices.world.progressive.lights[1] == pp.Light.OFF
        # the dealer is told what to do now: antes yes, progressive wagers no
        assert "no progressive wager is recognized" in b.published()["round"]["next_step"]
        seat2 = b.published()["seats"][1]
        assert seat2["light"] == "off" and "progressive" not in seat2["wagers"] and seat2["wagers"]["ante"] == 500
        assert dealer_b.locator(".seat[data-seat='2'] .light").count() == 0
        dealer_b.screenshot(path=screenshots / "linked-dealer-b-unavailable.png", full_page=True)
        sup_b.screenshot(path=screenshots / "linked-supervisor-b-unavailable.png", full_page=True)

    # -- the database is back: the banner goes, the pool's meter comes back on screens and displays
    for page in (dealer_b, sup_b, sup_a, dealer_a):
        page.locator("#progressive-banner .progressive-down").wait_for(state="detached", timeout=15_000)
        page.wait_for_function("t => document.getElementById('meter').textContent === t", arg=money(after))
        assert page.get_attribute("#meter-box", "data-available") == "true"
    for server in (a, b):
        until(lambda server=server: (m := display(server)) is not None and (m.cents, m.mode) == (after, pp.MeterMode.FLASH),
              "the meter display back on the pool's meter")
    assert pending_rows(sup_b) == [row]
    sup_b.screenshot(path=screenshots / "linked-supervisor-b-back.png", full_page=True)

    # -- A's supervisor validates the win: the pool settles the award and it leaves every screen
    sup_a.locator(".win[data-win='1']").wait_for()
    sup_a.click("[data-test=validate-1]")
    sup_a.click("[data-test=confirm-validate]")        # the confirmation of issue 18
    sup_a.locator(".win[data-win='1']").wait_for(state="detached")
    for page in (sup_b, dealer_b, sup_a, dealer_a):
        page.locator("#pending [data-pending-none]").wait_for(timeout=10_000)
    assert env.admin.execute("SELECT status FROM link.awards").fetchall() == [("paid",)]
    until(lambda: (m := display(b)) is not None and (m.cents, m.mode) == (after, pp.MeterMode.SHOW),
          "B's meter display steady again")
    sup_b.screenshot(path=screenshots / "linked-supervisor-b-validated.png", full_page=True)
