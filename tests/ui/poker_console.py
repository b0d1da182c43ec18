"""Working the poker console (controller/games/poker/static/dealer.js) by touches alone, on the live table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from controller.games.poker.contract import check_view
from tests.ui.ui_helpers import wait_until

TABLECTL = Path(sys.executable).with_name("tablectl")   # the installed command


def synced(page, server) -> dict:
    """Wait until the page shows the table's latest state (its next step) and has no request out:
    a touch on a page a step behind would act on a stale button."""
    s = server.published()
    check_view(s)                 # the live table's view follows the contract at every step
    page.wait_for_function("s => document.getElementById('next-step').textContent === s "
                           "&& !document.body.classList.contains('busy')", arg=s["round"]["next_step"])
    return s


def key_in(page, cents: int) -> None:
    """Enter an amount on the console's keypad as on every keypad of the table: dollars, then the
    cents key and the cents when there are any (2 5 is $25.00, 2 5 . 5 0 is $25.50)."""
    other = page.locator("[data-test=other-amount]")
    if other.count() and other.is_visible():        # a raise's keypad is folded away until asked for
        other.click()
    page.click("[data-test=key-clear]")
    dollars, rest = divmod(cents, 100)
    keys = list(str(dollars)) + (["cents", *f"{rest:02d}"] if rest else [])
    for key in keys:
        page.click(f"[data-test=key-{key}]")


def sit(page, seat: int, cents: int) -> None:
    key_in(page, cents)
    page.click(f"[data-test=sit-{seat}]")
    page.locator(f"[data-test=stack-{seat}]").wait_for()


def pick(page, cards: list[str]) -> None:
    for c in cards:
        page.click(f"[data-ppick='{c}']")


def rake_taken(page, server) -> None:
    """The round's rake into the rake area, when one is due (5324.42(o)(2)(i)(b)): the dealer's touch."""
    s = synced(page, server)
    if (s.get("poker") or {}).get("rake_due"):
        page.click("[data-test=rake-taken]")
        wait_until(server, lambda now: not now["poker"]["rake_due"], "the rake taken")
        synced(page, server)


def deal_board(page, server, cards: list[str]) -> None:
    rake_taken(page, server)
    pick(page, cards)
    page.click("[data-test=deal-board]")
    page.locator(f"#board [data-card='{cards[-1]}']").wait_for()


def poker(server) -> dict:
    return server.published()["poker"]


def wait_turn(server, turn: str) -> dict:
    return wait_until(server, lambda s: (s.get("poker") or {}).get("turn") == turn, f"a {turn} turn")["poker"]


def show_down(page, server, holes: dict[int, list[str]]) -> None:
    """Each seat asked to show shows its cards (touched on the picker), until the pots are awarded."""
    while True:
        s = wait_until(server, lambda s: s["poker"]["turn"] == "show" or s["poker"]["phase"] == "complete",
                       "a seat to show, or the pots awarded")
        if s["poker"]["phase"] == "complete":
            return
        seat = s["poker"]["to_act"]
        page.locator(f"[data-player='{seat}'].to-act").wait_for()
        synced(page, server)
        pick(page, holes[seat])
        page.click("[data-test=show]")
        taken = len(s["poker"]["actions"])
        wait_until(server, lambda now, taken=taken: len(now["poker"]["actions"]) > taken, "the show taken")


def record_of(server, round_id: str) -> dict:
    async def read():
        return server.table.journal.round_entries(round_id)
    entries = server.call(read())
    return next(e.payload for e in entries if e.kind == "round-record")


def replayed(record: dict, tmp: Path) -> dict:
    """The journaled hand through the installed `tablectl poker replay`."""
    path = tmp / f"{record['round']}.phh"
    path.write_text(record["phh"])
    done = subprocess.run([str(TABLECTL), "poker", "replay", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def unused_cards(state: dict) -> list[str]:
    """Cards not yet on the table, from the bottom of a fresh deck (what the dealer touches next)."""
    from controller.cards import CARDS
    p = state.get("poker") or {}
    seen = set(p.get("board", [])) | {c for x in p.get("players", []) for c in x["cards"]}
    return [str(c) for c in reversed(CARDS) if str(c) not in seen]


class _Tapped:
    """A page whose clicks go through a counting tap (every other call is the page's)."""

    def __init__(self, page, tap) -> None:
        self._page, self._tap = page, tap

    def click(self, selector: str) -> None:
        self._tap(selector)

    def __getattr__(self, name: str):
        return getattr(self._page, name)


def step_by_touch(page, server, tap=None) -> str:
    """Do the hand's next step on the console as the dealer would (the first choice offered); what was
    done. `tap(selector)`: the click, where a test counts the taps (tests/ui/fit_helpers.Taps)."""
    s = synced(page, server)
    if tap is not None:
        page = _Tapped(page, tap)
    p = s["poker"]
    fresh = unused_cards(s)
    n = len(p["actions"])
    if p.get("rake_due"):
        page.click("[data-test=rake-taken]")
        wait_until(server, lambda s: not s["poker"]["rake_due"], "the rake taken")
        return "rake"
    if p["turn"] == "discard":
        page.click("[data-test=discard]")
        done = "discard"
    elif p["turn"] == "draw":
        page.click("[data-test=draw-1]")
        done = "draw"
    elif p["owed"]["hole"]:
        ups = sum(sum(f) for f in p["owed"]["hole"].values())
        pick(page, fresh[:ups])
        page.click("[data-test=deal-hole]")
        done = "hole" + ("+up" if ups else "")
    elif p["owed"]["board"]:
        deal_board(page, server, fresh[:p["owed"]["board"]])
        done = "board"
    elif p["turn"] == "show":
        me = next(x for x in p["players"] if x["seat"] == p["to_act"])
        pick(page, fresh[:me["cards"].count("??")])
        page.click("[data-test=show]")
        done = "show"
    else:
        kinds = [o["action"] for o in p["options"]]
        done = "bring-in" if "bring_in" in kinds else "call" if "call" in kinds else "check"
        page.click(f"[data-test={done}]")
    wait_until(server, lambda s: len(s["poker"]["actions"]) > n or s["round"]["state"] == "closed", f"the {done} taken")
    return done
