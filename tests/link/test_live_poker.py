"""Live poker tables (`tablectl run --autoplay`) on one pooled jackpot (issue 10; 9 NYCRR 5324.42(r)).

Two hold'em tables play at once on the room's jackpot pool. Afterwards each
hand's jackpot drop in each table's journal is that table's contribution for the
hand in the pool (5324.42(r)(3)); no qualifying hand is the pool's until the
floorperson verifies it on the tracking form ((r)(4)); each table is then started
again for the floorperson, who verifies every one, and every qualifying hand of
every hand is in the pool with its table, seat and verifier, `tablectl link
check` agrees, and the
pool's meter is its seed plus the contributions. The period is then closed from
the command line: the pooled amount is announced and paid to the best hand, equal
hands sharing ((r)(5)-(6)), and the books still balance.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from controller.cards import CARDS
from controller.hands import high
from controller.journal.store import Journal
from controller.poker.jackpot import candidates, least_value
from controller.poker.phh import hand_from_phh
from tests.link.link_helpers import run

ROOT = Path(__file__).resolve().parents[2]
QUALIFYING = "two-pair"   # low, so that the hands of a short test qualify (the table's and the pool's rule)


def poker_profile(env, cfg, table_id: str, qualifying: str = QUALIFYING) -> Path:
    """config/texas-holdem.toml with a high-hand jackpot (the bad beat of the example rarely comes) and [link]."""
    text = (ROOT / "config/texas-holdem.toml").read_text().split("[screen]")[0]
    text = text.replace('id = "PK-01"', f'id = "{table_id}"').replace('kind = "bad-beat"', 'kind = "high-hand"')
    text = text.replace('qualifying_hand = "four-of-a-kind"', f'qualifying_hand = "{qualifying}"')
    text = text.replace("minimum_players = 4", "minimum_players = 2")
    assert 'kind = "high-hand"' in text and f'"{qualifying}"' in text, "the example profile changed"
    path = env.tmp / f"profile-{table_id}.toml"
    path.write_text(text + "\n" + env.config_file(cfg).read_text())
    return path


def run_table(env, path: Path, table_id: str, hands: int, seed: int) -> subprocess.Popen:
    """`tablectl run --autoplay` of a poker profile: as a stud table is run (test_live_table.run)."""
    return run(env, path, table_id, hands, seed)


def journal_hands(env, table_id: str) -> dict[str, dict]:
    """Each hand's journaled record, by hand id."""
    with Journal.open(env.tmp / f"data-{table_id}", readonly=True) as j:
        return {e.round_id: e.payload for e in j.entries_since(0) if e.kind == "round-record"}


def link_entries(env, table_id: str) -> list:
    with Journal.open(env.tmp / f"data-{table_id}", readonly=True) as j:
        return [e for e in j.entries_since(0) if e.kind in ("link-op", "link-confirm")]


def qualifiers_of(records: dict[str, dict]) -> set[tuple[str, int, int, str]]:
    """(hand, seat, value, cards) of every qualifying hand, from the PHH under the rule it carries."""
    out = set()
    for hid, rec in records.items():
        hand = hand_from_phh(rec["phh"])
        for c in candidates(hand, hand.setup.jackpot):
            cards = [CARDS[i] for i in c.cards]
            out.add((hid, rec["seats"][c.player], high.value(cards), "".join(str(x) for x in cards)))
    return out


def verify_all(env, path: Path, table_id: str, floorperson: str = "S1042") -> int:
    """The table started (no hands played) and every qualifying hand waiting for the floorperson
    verified on the tracking form (5324.42(r)(4)); returns when the pool has confirmed them all."""
    import asyncio
    import time

    from controller.config import load_profile
    from controller.table import Table

    async def go() -> int:
        table = Table(load_profile(path), data_dir=env.tmp / f"data-{table_id}", screen=False)
        await table.start()
        try:
            waiting = list(table.state.jackpot["pending"])
            for line in waiting:
                answer = await table.submit({
                    "type": "verify_jackpot", "hand": line["hand"], "seat": line["seat"], "player": "Ann Lee",
                    "phone": "555-0101", "dealer": "D. Cruz", "dealer_license": "DL-1", "floor_license": "FL-9"},
                    source="supervisor", who=floorperson)
                assert answer["ok"], answer
            deadline = time.monotonic() + 30
            while table.link.open_ops:
                assert time.monotonic() < deadline, "the verified hands were never confirmed by the pool"
                await asyncio.sleep(0.05)
            return len(waiting)
        finally:
            table.stop()
            await table.close()
    return asyncio.run(go())


def tablectl_link(env, *words: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "PGPASSWORD": env.pg.password,
               "TABLECTL_LINK_DSN": f"host=127.0.0.1 port={env.pg.port} user=postgres dbname={env.db}"}
    return subprocess.run([sys.executable, "-m", "controller.cli", "link", *words], cwd=ROOT, env=environ,
                          capture_output=True, text=True, timeout=60)


def test_two_live_poker_tables_pool_their_jackpot_and_the_period_pays_the_best_hand(env):
    seed = 5_000
    env.create_jackpot("room", seed=seed, qualifying_hand=QUALIFYING, contribution=100)
    tables = {}
    for i, tid in enumerate(("PK-01", "PK-02")):
        cfg = env.add_table("room", tid)
        tables[tid] = (cfg, run_table(env, poker_profile(env, cfg, tid), tid, 14, 21 + i))
    for tid, (_cfg, proc) in tables.items():
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0, (env.tmp / f"table-{tid}.err").read_text()[-3000:]
        lines = [json.loads(x) for x in out.splitlines()]
        assert len(lines) == 14 and all(x["link"]["playable"] for x in lines)

    contributed = 0
    for tid in tables:
        records = journal_hands(env, tid)
        assert len(records) == 14
        # 5324.42(r)(3): each hand's drop after the rake is the table's contribution for that hand, once
        pool = dict(env.admin.execute("SELECT hand_id, amount_cents FROM link.jackpot_contributions "
                                      "WHERE table_name = %s", (tid,)).fetchall())
        drops = {hid: rec["jackpot_drop"] for hid, rec in records.items()}
        assert pool == {hid: d for hid, d in drops.items() if d > 0}
        assert 0 < len(pool) < len(drops), "some hands drop, some are below the jackpot's minimum pot"
        contributed += sum(pool.values())
        assert env.admin.execute("SELECT count(*) FROM link.qualifying_hands WHERE table_name = %s",
                                 (tid,)).fetchone()[0] == 0, \
            "a qualifying hand in the pool before the floorperson verified it"
        assert verify_all(env, poker_profile(env, tables[tid][0], tid), tid) > 0
        # 5324.42(r)(4): every qualifying hand verified, with its table, seat, value and the five cards
        rows = env.admin.execute("SELECT hand_id, seat, value, cards, verification ->> 'floorperson', hand "
                                 "FROM link.qualifying_hands WHERE table_name = %s", (tid,)).fetchall()
        assert {r[:4] for r in rows} == qualifiers_of(records)
        assert rows, f"no hand of {tid} qualified"
        assert all(v >= least_value(QUALIFYING) and high.category(v) == name for _, _, v, _, _, name in rows)
        assert all(who == "S1042" for _, _, _, _, who, _ in rows)   # the floorperson who verified each
        # the journal: every operation asked was confirmed, once
        entries = link_entries(env, tid)
        asked = [(e.payload["op"], e.payload["ident"]) for e in entries if e.kind == "link-op"]
        confirmed = [(e.payload["op"], e.payload["ident"]) for e in entries
                     if e.kind == "link-confirm" and e.payload["confirmed"]]
        assert sorted(asked) == sorted(confirmed) and len(set(asked)) == len(asked) == len(pool) + len(rows)
        journaled = {(e.round_id, e.payload["seat"], e.payload["value"]) for e in entries
                     if e.kind == "link-op" and e.payload["op"] == "qualify"}
        assert journaled == {r[:3] for r in rows}   # the journal holds the value the pool ranks by

    check = env.assert_books("room", {tid: cfg.outbox for tid, (cfg, _) in tables.items()})
    assert check["meter_units"] == (seed + contributed) * 10_000 == check["seed_units"] + check["contribution_units"]
    outboxes = [f"--outbox={tid}={cfg.outbox}" for tid, (cfg, _) in tables.items()]
    done = tablectl_link(env, "check", "room", *outboxes)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all records agree" in done.stdout

    # the end of the period: announced and paid to the best hand of either table, equal hands sharing
    qualified = env.admin.execute("SELECT seq, table_name, hand_id, seat, value FROM link.qualifying_hands "
                                  "ORDER BY seq").fetchall()
    best = max(v for *_, v in qualified)
    winners = [q for q in qualified if q[4] == best]
    total = seed + contributed
    done = tablectl_link(env, "period", "close", "room", "--who", "Floor Fran")
    assert done.returncode == 0, done.stderr
    closed = json.loads(done.stdout)
    assert closed["total_cents"] == total and closed["contributions_cents"] == contributed
    assert closed["rolled_over"] is False and closed["best_value"] == best
    share, odd = divmod(total, len(winners))
    assert [(w["table"], w["hand_id"], w["seat"], w["amount_cents"]) for w in closed["winners"]] == [
        (t, h, s, share + (1 if i < odd else 0)) for i, (_, t, h, s, _) in enumerate(winners)]
    after = env.assert_books("room")
    assert after["meter_units"] == 0 and after["award_units"] == total * 10_000
    # and every table of the pool is told, as the screens announce it (5324.42(r)(5)-(6))
    (state,) = env.table_conn("PK-02").execute("SELECT link.table_state('room')").fetchone()
    last = state["last_period"]
    assert (last["number"], last["status"], last["total_cents"]) == (1, "paid", total)
    assert [(w["table"], w["hand_id"], w["seat"], w["amount_cents"]) for w in last["winners"]] == \
        [(w["table"], w["hand_id"], w["seat"], w["amount_cents"]) for w in closed["winners"]]
    assert state["period"] == 2 and state["leading"] is None
    done = tablectl_link(env, "check", "room", *outboxes)
    assert done.returncode == 0, done.stdout + done.stderr
