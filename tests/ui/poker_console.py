"""Working the poker console (controller/ui/static/poker.js) by touches alone, on the live table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ui_helpers import wait_until

TABLECTL = Path(sys.executable).with_name("tablectl")   # the installed command


def key_in(page, cents: int) -> None:
    """Enter an amount on the console's keypad, as on a till (2 5 0 0 is $25.00)."""
    page.click("[data-test=key-clear]")
    for digit in str(cents):
        page.click(f"[data-test=key-{digit}]")


def sit(page, seat: int, cents: int) -> None:
    key_in(page, cents)
    page.click(f"[data-test=sit-{seat}]")
    page.locator(f"[data-test=stack-{seat}]").wait_for()


def pick(page, cards: list[str]) -> None:
    for c in cards:
        page.click(f"[data-ppick='{c}']")


def deal_board(page, server, cards: list[str]) -> None:
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
        pick(page, holes[seat])
        page.click("[data-test=show]")
        wait_until(server, lambda s, n=len(s["poker"]["actions"]): len(s["poker"]["actions"]) > n, "the show taken")


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
