"""A pooled table's qualifying hand goes to the pool once the floorperson verifies it (issue 17; 5324.42(r)(4)).

A live hold'em table (controller/table.py, autoplayed in this process) on the
room's jackpot pool: each hand's drop goes to the pool at its record ((r)(3)),
but a qualifying hand waits for the floorperson's tracking form, and only the
verified one is sent, with the form's player, the floorperson's id and the rest
of the line. A table stopped between the verification and the pool's answer
sends it at its next start, once; `tablectl link check --journal` agrees.
The pool keeps the rest of the form's line with the hand; `tablectl link init`
upgrades a pool made before.
"""

from __future__ import annotations

import asyncio
import collections
import time

import psycopg
import pytest

from controller.link.errors import LinkRefused
from tests.link.test_live_poker import poker_profile, tablectl_link

FLOOR = "S1042"


def form(line: dict) -> dict:
    return {"type": "verify_jackpot", "hand": line["hand"], "seat": line["seat"], "player": "Ann Lee",
            "phone": "555-0101", "dealer": "D. Cruz", "dealer_license": "DL-1", "floor_license": "FL-9"}


def make_table(env, tid: str, hands: int, seed: int):
    from controller.config import load_profile
    from controller.table import Table
    if tid not in env.poker_cfgs:
        env.poker_cfgs[tid] = env.add_table("room", tid)
    prof = load_profile(poker_profile(env, env.poker_cfgs[tid], tid))
    return Table(prof, data_dir=env.tmp / f"data-{tid}", autoplay=True, rounds=hands, seed=seed, screen=False)


async def until(predicate, what: str, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)
    return value


async def played(table, hands_wanted: str = "its hands") -> None:
    """The table started, its autoplayed hands played and their contributions confirmed by the pool."""
    await table.start()
    await asyncio.wait_for(table.wait(), 60)
    await until(lambda: not table.link.open_ops, "the contributions confirmed")


def pooled(env) -> list[tuple]:
    return env.admin.execute("SELECT hand_id, seat, player, verification FROM link.qualifying_hands").fetchall()


def qualify_ops(table) -> tuple[list, collections.Counter]:
    entries = [e for e in table.journal.entries_since(0) if e.kind in ("link-op", "link-confirm")
               and e.payload.get("op") == "qualify"]
    asked = [e.payload["ident"] for e in entries if e.kind == "link-op"]
    confirmed = collections.Counter(e.payload["ident"] for e in entries
                                    if e.kind == "link-confirm" and e.payload["confirmed"])
    return asked, confirmed


def test_a_qualifying_hand_goes_to_the_pool_only_once_the_floorperson_verifies_it(env):
    env.create_jackpot("room", seed=0, qualifying_hand="two-pair", contribution=100)
    env.poker_cfgs = {}
    tid = "PK-01"

    async def go():
        table = make_table(env, tid, 8, 21)
        try:
            await played(table)
            pending = list(table.state.jackpot["pending"])
            assert pending, "no hand qualified"
            contributions = env.admin.execute("SELECT count(*) FROM link.jackpot_contributions").fetchone()[0]
            assert contributions > 0 and pooled(env) == []   # the drop at the record; no hand before the form
            first = pending[0]
            answer = await table.submit(form(first), source="supervisor", who=FLOOR)
            assert answer["ok"], answer
            rows = await until(lambda: pooled(env), "the verified hand in the pool")
            assert rows == [(first["hand"], first["seat"], "Ann Lee",
                             {"floorperson": FLOOR, "floor_license": "FL-9", "dealer": "D. Cruz",
                              "dealer_license": "DL-1", "phone": "555-0101"})]
            again = await table.submit(form(first), source="supervisor", who=FLOOR)
            assert not again["ok"] and "no qualifying hand" in again["error"]
            await until(lambda: not table.link.open_ops, "the verified hand confirmed")
            asked, confirmed = qualify_ops(table)
            assert asked == [f"{first['hand']}#{first['seat']}"] and confirmed == {asked[0]: 1}
            assert len(pooled(env)) == 1   # the others still wait on the supervisor's screen, not the pool
        finally:
            table.stop()
            await table.close()

    asyncio.run(go())
    env.assert_journals("room", {tid: env.tmp / f"data-{tid}"})
    done = tablectl_link(env, "check", "room", f"--journal={tid}={env.tmp / f'data-{tid}'}")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_verification_the_pool_never_confirmed_is_sent_once_after_a_restart(env):
    env.create_jackpot("room", seed=0, qualifying_hand="two-pair", contribution=100)
    env.poker_cfgs = {}
    tid = "PK-01"

    async def crash(table) -> None:
        """Stop as a kill would: no drain, nothing more written to the outbox or the journal."""
        from controller.runtime.loop import cancel_all
        await cancel_all(table._tasks + [table.link._worker])
        await table.link.client.stop()
        await table.devices.close()
        table.journal.close()

    async def first_run() -> dict:
        table = make_table(env, tid, 8, 31)
        await played(table)
        line = table.state.jackpot["pending"][0]
        lock = await psycopg.AsyncConnection.connect(**env.pg.admin_kwargs(env.db))
        try:   # the pool cannot commit a qualifying hand: the verified one is asked, never confirmed
            await lock.execute("LOCK TABLE link.qualifying_hands IN ACCESS EXCLUSIVE MODE")
            answer = await table.submit(form(line), source="supervisor", who=FLOOR)
            assert answer["ok"], answer
            ident = f"{line['hand']}#{line['seat']}"
            await until(lambda: qualify_ops(table)[0] == [ident], "the verified hand asked")
            assert not qualify_ops(table)[1]
            await crash(table)
        finally:
            await lock.rollback()
            await lock.close()
        assert pooled(env) == []
        return line

    async def second_run(line: dict) -> None:
        table = make_table(env, tid, 1, 32)
        try:
            await played(table)
            rows = await until(lambda: pooled(env), "the verified hand in the pool after the restart")
            assert [(h, s, v["floorperson"]) for h, s, _, v in rows] == [(line["hand"], line["seat"], FLOOR)]
            asked, confirmed = qualify_ops(table)
            assert asked == [f"{line['hand']}#{line['seat']}"] and confirmed == {asked[0]: 1}
        finally:
            table.stop()
            await table.close()

    line = asyncio.run(first_run())
    asyncio.run(second_run(line))
    env.assert_journals("room", {tid: env.tmp / f"data-{tid}"})
    done = tablectl_link(env, "check", "room", f"--journal={tid}={env.tmp / f'data-{tid}'}")
    assert done.returncode == 0, done.stdout + done.stderr


def test_link_init_upgrades_a_pool_made_before_the_verifier_travelled_with_the_hand(env):
    """An existing pool (no `verification` column, `link.jackpot_qualify` of eight arguments) is
    upgraded by `tablectl link init`: a table sends the verified hand with its form, one not yet
    upgraded still sends the eight, and the hands recorded before keep theirs."""
    from controller.link.jackpot import JackpotLink
    env.create_jackpot("room", seed=0, qualifying_hand="two-pair", contribution=100)
    cfg = env.add_table("room", "PK-01")
    c = env.table_conn("PK-01")
    c.execute("SELECT link.jackpot_qualify('room', 'PK-01-000001', gen_random_uuid(), 2, 4500, 'two-pair', "
              "'JhJc2s2cKc', 'PK-01 seat 2')")
    c.commit()
    env.admin.execute("DROP FUNCTION link.jackpot_qualify(text, text, uuid, int, bigint, text, text, text, jsonb)")
    env.admin.execute("ALTER TABLE link.qualifying_hands DROP COLUMN verification")   # as it was made before
    done = tablectl_link(env, "init", "--test")   # the tests' link is a test link, and stays one
    assert done.returncode == 0, done.stdout + done.stderr

    async def go():
        async with JackpotLink(cfg, cfg.outbox) as t:
            await t.qualify("PK-01-000002", 3, ["9h", "9d", "9c", "9s", "Ks"], "Ann Lee",
                            verification={"floorperson": FLOOR, "floor_license": "FL-9"})
            with pytest.raises(LinkRefused, match=r"floorperson .*5324\.42\(r\)\(4\)\(v\)"):
                await t.qualify("PK-01-000003", 4, ["9h", "9d", "Tc", "Ts", "Ks"], "Bo Chen",
                                verification={"floor_license": "FL-9"})
    asyncio.run(go())
    c.execute("SELECT link.jackpot_qualify('room', 'PK-01-000004', gen_random_uuid(), 5, 4600, 'two-pair', "
              "'QhQc2s2cKc', 'PK-01 seat 5')")   # a table not yet upgraded: the eight arguments
    c.commit()
    assert sorted(pooled(env)) == [("PK-01-000001", 2, "PK-01 seat 2", None),
                                   ("PK-01-000002", 3, "Ann Lee", {"floorperson": FLOOR, "floor_license": "FL-9"}),
                                   ("PK-01-000004", 5, "PK-01 seat 5", None)]
