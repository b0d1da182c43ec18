"""The numbers agree: every round of an autoplayed table re-settled by hand with the installed
`tablectl settle` / `tablectl poker replay`, added up here, equals `tablectl report --json` to the cent."""

from __future__ import annotations

import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.report.report_helpers import ROUNDS, report_json, tablectl

MONEY = ("handle", "paid", "house_win")


def records(data: Path) -> list[dict]:
    """Every round record the table journaled (read-only, as `sqlite3 -readonly` would)."""
    conn = sqlite3.connect(f"file:{data / 'journal.db'}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT payload FROM entries WHERE kind = 'round-record' ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [json.loads(r[0]) for r in rows]


def resettle(tmp: Path, items: list[tuple[str, str]]) -> list[dict]:
    """Each (command, text) through the installed command, a few at a time: their JSON outputs."""
    def one(i_item):
        i, (command, text) = i_item
        path = tmp / f"{i}.{'phh' if command == 'replay' else 'json'}"
        path.write_text(text)
        args = ("poker", "replay", str(path)) if command == "replay" else ("settle", str(path))
        return json.loads(tablectl(*args, timeout=60).stdout)
    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, enumerate(items)))


def add_wagers(settlements: list[tuple[dict, dict]]) -> dict[str, dict[str, int]]:
    """handle (stakes in action), paid (winnings), house win (players' net lost) per wager."""
    out: dict[str, dict[str, int]] = {}
    for settled, refused in settlements:
        for seat in settled["seats"]:
            for name, w in seat.items():
                if not isinstance(w, dict) or "stake" not in w:
                    continue
                net = w["net"]
                if name == "progressive" and str(seat["seat"]) in refused:
                    net = -w["stake"]   # a refused progressive win is not paid (5324.37(f)(2))
                m = out.setdefault(name, dict.fromkeys(MONEY, 0))
                if w["outcome"] in ("void", "push") and net == 0:
                    continue
                m["handle"] += w["stake"]
                m["paid"] += max(net, 0)
                m["house_win"] -= net
    return out


@pytest.mark.parametrize("game", ["caribbean-stud", "casino-war"])
def test_a_banked_table_report_equals_its_rounds_resettled(played, game, tmp_path):
    data = played[game]
    recs = [r for r in records(data) if not r.get("void")]
    assert len(recs) == ROUNDS[game]
    settled = resettle(tmp_path, [("settle", json.dumps(r["record"])) for r in recs])
    assert [s["seats"] for s in settled] == [r["settlement"]["seats"] for r in recs]
    wagers = add_wagers([(s, r.get("refused") or {}) for s, r in zip(settled, recs, strict=True)])

    report = report_json(data)
    table = report["tables"][0]
    assert table["rounds"] == len(recs)
    assert {k: {m: v[m] for m in MONEY} for k, v in table["wagers"].items()} == wagers
    assert table["house_win"] == sum(w["house_win"] for w in wagers.values())
    assert table["house_win"] == -sum(w["net"] for s in settled for seat in s["seats"]
                                      for w in seat.values() if isinstance(w, dict) and "net" in w) \
        + _refused_awards(recs)
    assert report["total"]["house_win"] == table["house_win"]
    if game == "caribbean-stud":
        _progressive_agrees(table, settled, recs)


def _refused_awards(recs: list[dict]) -> int:
    """The awards supervisors refused: settled as wins, never paid."""
    return sum(v.get("award", 0) for r in recs for v in (r.get("refused") or {}).values())


def _progressive_agrees(table: dict, settled: list[dict], recs: list[dict]) -> None:
    """Contributions are 70 % of every progressive cent wagered, the carried fraction kept (one chain
    from 0); the awards are what the re-settled rounds awarded; the meter moved by exactly these."""
    p = table["progressive"]
    rate = recs[0]["record"]["rules"]["progressive"]["contribution_bp"]
    wagered = table["wagers"]["progressive"]["handle"]
    assert p["contributions"] == wagered * rate // 10_000
    awards = [a for s in settled for a in (s.get("progressive") or {}).get("awards", [])]
    assert p["awards_meter"] + p["awards_house"] == sum(a["amount"] for a in awards)
    assert sum(p["hits"].values()) == len(awards)
    assert p["meter_close"] == (p["meter_open"] + p["contributions"] - p["awards_meter"] + p["seeded"]
                                + p["corrections"])
    assert p["meter_open"] == recs[0]["record"]["rules"]["progressive"]["meter"]
    assert p["meter_close"] == recs[-1]["meter_after"]


def test_a_poker_table_report_equals_its_hands_replayed(played, tmp_path):
    data = played["texas-holdem"]
    recs = records(data)
    assert len(recs) == ROUNDS["texas-holdem"]
    replayed = resettle(tmp_path, [("replay", r["phh"]) for r in recs])
    assert [x["finishing_stacks"] for x in replayed] == [r["stacks_after"] for r in recs]
    played_hands = [x for x in replayed if not x.get("void")]
    rake, drop = sum(x["rake"] for x in played_hands), sum(x["jackpot_drop"] for x in played_hands)
    assert rake > 0 and drop > 0   # long enough a run to take both

    table = report_json(data)["tables"][0]
    assert table["rounds"] == table["poker"]["hands"] == len(played_hands)
    assert (table["poker"]["rake"], table["poker"]["jackpot_drop"]) == (rake, drop)
    assert table["poker"]["rake_by_method"] == {"percentage": rake}
    assert table["house_win"] == rake + table["poker"]["time_charges"]
    assert sum(h["rounds"] for h in table["by_hour"]) == len(played_hands)
    # what the players lost net is what the house took and what the jackpot holds
    assert sum(sum(r["stacks_before"]) - sum(r["stacks_after"]) for r in recs) == rake + drop
