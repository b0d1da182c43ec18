"""Small helpers shared by the screens' tests."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

from controller.cards import CARDS, parse_card
from tests.table.table_helpers import deck_ready

PROFILES = Path(__file__).resolve().parents[2] / "config"   # the shipped profiles
SUPERVISOR_ID, SUPERVISOR_PIN, SUPERVISOR_NAME = "S1042", "246810", "Pat Jones"

# Stacks of five in seat order, then the dealer's (5324.37(d)(2)): seat 1 a royal
# flush, seat 2 a straight flush, seat 3 nothing; the dealer ace-king, qualifying.
STUD_DECK = ("Ah Kh Qh Jh Th  9s 8s 7s 6s 5s  2c 3d 4h 9c Jd  As Kd 7h 4c 2s").split()


def state_is(page, state: str) -> None:
    """Wait until the page shows the round in `state`."""
    page.wait_for_function("s => document.getElementById('state').dataset.state === s", arg=state)


def money(cents: int) -> str:
    """As the screens write it (common.js money())."""
    sign = "-" if cents < 0 else ""
    dollars, c = divmod(abs(cents), 100)
    return f"{sign}${dollars:,}.{c:02d}"


def http(url: str, *, body: dict | None = None, headers: dict | None = None,
         method: str | None = None) -> tuple[int, dict]:
    """(status, JSON body) of one request, without a browser and without cookies."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method or ("POST" if data is not None else "GET"))
    req.add_header("Content-Type", "application/json")
    for k, v in (headers if headers is not None else {"X-Tablectl": "1"}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def settlement_on_screen(page) -> list[tuple[str, int, str]]:
    """The dealer's settlement list as (step, seat, amount text), top to bottom."""
    rows = page.locator("#settlement li")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        out.append((row.get_attribute("data-step"), int(row.get_attribute("data-seat")),
                    row.locator("b").inner_text()))
    return out


def visible(page, selector: str) -> None:
    """`selector` is on screen, inside the viewport, without scrolling (issue 18, 5)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (selector, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, (selector, box, size)


def step_visible(page) -> None:
    visible(page, "#next-step")
    for b in page.locator("#panel button:enabled, #step-actions button").all():
        bb = b.bounding_box()
        assert bb and bb["y"] + bb["height"] <= page.viewport_size["height"] + 1, (b.inner_text(), bb)


def sign_in(page, who: str, pin: str) -> None:
    """Sign in on the supervisor's screen with the id field and the PIN keypad."""
    page.fill("#sup-id", who)
    for digit in pin:
        page.click(f"[data-test=key-{digit}]")
    page.click("#signin-go")


def wait_until(server, predicate, what: str, timeout: float = 15.0) -> dict:
    """Poll the published state until `predicate(state)`; fail naming `what` and the last state."""
    deadline = time.monotonic() + timeout
    state = server.published()
    while time.monotonic() < deadline:
        state = server.published()
        if predicate(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; round: {state.get('round')}; alarms: {state.get('alarms')}")


class InOrder(random.Random):
    """The emulated shuffler's randomness, replaced so a shuffle leaves the deck as it was inserted."""

    def shuffle(self, x) -> None:
        return None


def stacked(top: list[str], decks: int = 1) -> list[int]:
    """`top` first, then the rest of `decks` full decks in their usual order."""
    rest = Counter({int(c): decks for c in CARDS})
    for c in top:
        rest[int(parse_card(c))] -= 1
    assert min(rest.values()) >= 0
    return [int(parse_card(c)) for c in top] + [c for c in sorted(rest.elements())]


def load_stacked_deck(server, deck: list[str]) -> None:
    """Stack a live table's deck the way a test stacks a real one: the emulated shuffler keeps the
    order it is given, the table asks for a fresh shuffle and count, and the counted deck goes
    into the emulated shoe (so the cards come out of the real shoe driver)."""
    wait_until(server, deck_ready, "the deck before counted and loaded (no shuffle of it on its way)")
    world = server.table.devices.world
    world.shuffler.rng = InOrder()
    world.shuffler.insert_deck(stacked(deck))
    assert server.submit({"type": "reshuffle"})["ok"]
    wait_until(server, lambda s: s["deck"]["loaded"] and s["deck"]["count"] and s["deck"]["count"]["ok"],
               "the stacked deck counted 52 and loaded")


def deal_progressive_hand(server, deck: list[str]) -> str:
    """A live Caribbean stud round up to the dealer's reveal: seat 1's ante and progressive wager,
    `deck` stacked and dealt from the shoe (seat 1's five, then the dealer's), seat 1 bets."""
    wait_until(server, lambda s: s["round"]["state"] == "open" and deck_ready(s)
               and (s.get("progressive") or {"available": True})["available"],
               "the round open, its deck loaded (and the pool reached)")
    load_stacked_deck(server, deck)
    assert server.submit({"type": "ante", "seat": 1, "amount": 500})["ok"]
    server.table.devices.world.progressive.place_wager(1)
    wait_until(server, lambda s: "progressive" in s["seats"][0]["wagers"], "seat 1's progressive wager recognized")
    for event in ({"type": "no_more_bets"}, {"type": "deal"}):
        assert server.submit(event)["ok"], event
    wait_until(server, lambda s: s["round"]["state"] == "decisions", "the hands dealt")
    assert server.published()["seats"][0]["cards"] == deck[:5]
    for event in ({"type": "decision", "seat": 1, "decision": "bet"}, {"type": "reveal"}):
        assert server.submit(event)["ok"], event
    return server.published()["round"]["id"]


def draw_by_hand(server, page, places: list[str]) -> None:
    """The dealer's left hand on the emulated manual dealing shoe (5324.22(d), (h)(2)): for each card
    the console's next step names where it goes, then the card is drawn and the shoe reads it."""
    world = server.table.devices.world
    for place in places:
        page.wait_for_function("(p) => document.getElementById('next-step').textContent.includes(p)", arg=place)
        before = server.published()["shoe"]["dispensed"]
        world.shoe.draw()
        wait_until(server, lambda s, before=before: s["shoe"]["dispensed"] > before, f"the card for {place} read by the shoe")


def fill_in_hand_pay(server, seat: int, who: str) -> None:
    """Issue 29 item 6: a validated win past the profile's hand-pay threshold (a royal flush's award at the
    default $600 and 300 times the wager) is held until a supervisor fills in its tax form: filled in."""
    (held,) = [h for h in server.published()["hand_pays"] if h["seat"] == seat and not h["done"]]
    assert server.submit({"type": "hand_pay", "seat": seat, "player_id": f"TEST-ID-{seat:04d}",
                          "form": f"W2G-{seat}"}, source="supervisor", who=who)["ok"]
