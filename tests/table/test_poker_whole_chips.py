"""Whole chips in poker (issue 30): at a $1-chip table every amount the console is offered, every bet
the table accepts, the rake, the jackpot drop and every award is a whole number of chips; a profile
whose stakes or rake steps are not whole chips is refused by `tablectl config check` on its line.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

from controller.config import load_profile
from tests.table.table_helpers import running, until

ROOT = Path(__file__).resolve().parents[2]
TABLECTL = str(ROOT / ".venv" / "bin" / "tablectl")
HOLDEM = ROOT / "config" / "texas-holdem.toml"
CHIP = 100


def unused(view: dict, n: int) -> list[str]:
    from controller.cards import CARDS
    p = view["poker"]
    seen = set(p["board"]) | {c for x in p["players"] for c in x["cards"]}
    return [str(c) for c in CARDS if str(c) not in seen][:n]


def offered(view: dict) -> list[int]:
    """Every amount the console is offered now, all-in aside (a stack is whole chips already)."""
    p = view["poker"]
    me = next((x for x in p["players"] if x["seat"] == p["to_act"]), None)
    all_in = me["bet"] + me["stack"] if me else None
    amounts = [a for o in p["options"] for a in (o["min"], o["max"]) if a is not None]
    amounts += [x["amount"] for x in p["presets"]]
    return [a for a in amounts if a != all_in]


def test_a_dollar_chip_holdem_hand_offers_accepts_rakes_and_pays_only_whole_chips(tmp_path):
    profile = load_profile(HOLDEM)
    assert profile.poker.chip == CHIP

    async def play():
        seen: list[int] = []
        presets: list[list[dict]] = []
        async with running(profile, tmp_path / "d") as table:
            odd = await table.submit({"type": "sit", "seat": 3, "stack": 25_50}, source="panel")
            for seat in (1, 3, 5):
                assert (await table.submit({"type": "sit", "seat": seat, "stack": 100_00}, source="panel"))["ok"]
            assert (await table.submit({"type": "next_round"}, source="panel"))["ok"]
            await until(lambda: (table.published()["poker"]["deck"] or {}).get("ok"), "the deck counted")
            assert (await table.submit({"type": "deal_hole"}, source="panel"))["ok"]
            v = table.published()
            assert v["poker"]["chip"] == CHIP
            first = v["poker"]["to_act"]
            refused = await table.submit({"type": "bet_raise", "seat": first, "amount": 4_50}, source="panel")
            while v["round"]["state"] != "closed":
                p = v["poker"]
                seen += offered(v)
                if p["rake_due"]:   # the round's rake into the rake area first (5324.42(o)(2)(i)(b))
                    event = {"type": "rake_taken"}
                elif p["owed"]["board"]:
                    event = {"type": "deal_board", "cards": unused(v, p["owed"]["board"])}
                elif p["turn"] == "show":
                    event = {"type": "show", "seat": p["to_act"], "cards": unused(v, 2)}
                elif (p["presets"] and not any(x["bet"] for x in p["players"] if x["seat"] != p["to_act"])) \
                        or (p["presets"] and len(p["board"]) == 0 and p["to_act"] == first):
                    presets.append(p["presets"])   # bet or raise by the half-pot preset, else the least
                    pick = next((x for x in p["presets"] if x["key"] == "half"), p["presets"][0])
                    event = {"type": "bet_raise", "seat": p["to_act"], "amount": pick["amount"]}
                else:
                    event = {"type": "check_call", "seat": p["to_act"]}
                done = await table.submit(event, source="panel")
                assert done["ok"], (event, done)
                v = table.published()
            record = next(e.payload for e in table.journal.round_entries(v["round"]["id"])
                          if e.kind == "round-record")
            return odd, refused, seen, presets, v, record

    odd, refused, seen, presets, view, record = asyncio.run(asyncio.wait_for(play(), 90))
    assert not odd["ok"] and "whole 100-cent chips" in odd["error"]
    assert not refused["ok"] and "not a whole number of the table's chips" in refused["error"]
    assert seen and [a for a in seen if a % CHIP] == []
    assert any(x["key"] == "half" for row in presets for x in row)   # ½ pot was offered, and whole
    assert [x["amount"] for row in presets for x in row if x["amount"] % CHIP] == []
    show = view["poker"]["showdown"]
    awards = [a for pot in show["pots"] for a in pot["awards"].values()]
    assert record["rake"] > 0 and record["rake"] % CHIP == 0 and record["jackpot_drop"] % CHIP == 0
    assert awards and [a for a in awards if a % CHIP] == []
    assert [s for s in record["stacks_after"] if s % CHIP] == []
    assert "_chip = 100" in record["phh"]


def test_the_triple_draw_pot_of_six_dollars_takes_no_sixty_cent_rake(tmp_path):
    """The issue's case: 10 percent of a $6.00 round is $0.60, which no dealer can take in $1 chips;
    rounded down to whole chips the rake is nothing and the winner is paid the whole $6.00."""
    hand = tmp_path / "triple-draw.phh"
    hand.write_text("\n".join([
        'variant = "F2L3D"', "ante_trimming_status = false", "antes = [0, 0, 0]",
        "blinds_or_straddles = [100, 200, 0]", "small_bet = 200", "big_bet = 400",
        "starting_stacks = [10000, 10000, 10000]",
        'actions = ["d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????", "p3 cc", "p1 cc", "p2 cc", '
        '"p1 sd", "p2 sd", "p3 sd", "p1 cbr 200", "p2 f", "p3 f"]',
        "_chip = 100", '_rake = {method = "percentage", rate_bp = 1000, cap = 400}', ""]))
    done = subprocess.run([TABLECTL, "poker", "replay", str(hand)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["rake"] == 0 and out["pots"][0]["awards"] == {"1": 600}
    # the same hand at a table of 1-cent chips rakes its ten percent
    hand.write_text(hand.read_text().replace("_chip = 100", "_chip = 1"))
    cents = json.loads(subprocess.run([TABLECTL, "poker", "replay", str(hand)], capture_output=True, text=True,
                                      timeout=60).stdout)
    assert cents["rake"] == 60 and cents["pots"][0]["awards"] == {"1": 540}


def test_a_profile_whose_rake_steps_are_not_whole_chips_is_refused_on_their_lines(tmp_path):
    text = HOLDEM.read_text()
    assert "cap = 500" in text and "contribution = 100" in text
    bad = tmp_path / "holdem.toml"
    bad.write_text(text.replace("cap = 500", "cap = 450").replace("contribution = 100", "contribution = 150"))
    done = subprocess.run([TABLECTL, "config", "check", str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    lines = bad.read_text().splitlines()
    for key, value in (("cap", "450"), ("contribution", "150")):
        line = next(i for i, s in enumerate(lines, start=1) if s.split("=")[0].strip() == key and value in s)
        named = [s for s in (done.stdout + done.stderr).splitlines() if f":{line}" in s]
        assert named and "100-cent chips" in named[0], (key, done.stdout, done.stderr)
    timed = tmp_path / "timed.toml"
    timed.write_text(text.replace('method = "percentage"\nrate_bp = 1000\ncap = 500\nminimum_pot = 1000',
                                  'method = "time"\nper = "player"\nhourly = 1000\nincrement_minutes = 20'))
    assert 'method = "time"' in timed.read_text()
    done = subprocess.run([TABLECTL, "config", "check", str(timed)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "hourly" in done.stdout + done.stderr
    assert "20-minute increment" in done.stdout + done.stderr
    # the half-kill raises a $3 small bet to $4.50: not whole $1 chips, refused on the kill's line
    omaha = (ROOT / "config" / "omaha-hi-lo-8.toml").read_text()
    assert "small_bet = 400" in omaha and 'kind = "half-kill"' in omaha
    killed = tmp_path / "omaha.toml"
    killed.write_text(omaha.replace("small_bet = 400", "small_bet = 300"))
    done = subprocess.run([TABLECTL, "config", "check", str(killed)], capture_output=True, text=True, timeout=60)
    line = next(i for i, s in enumerate(killed.read_text().splitlines(), start=1) if 'kind = "half-kill"' in s)
    assert done.returncode != 0 and f":{line}:" in done.stdout + done.stderr and "450" in done.stdout + done.stderr
