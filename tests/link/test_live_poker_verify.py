"""A pooled table's qualifying hand goes to the pool with the floorperson who verified it (issue 17; 5324.42(r)(4)).

The pool keeps the rest of the tracking form's line with the hand; `tablectl
link init` upgrades a pool made before.
"""

from __future__ import annotations

import asyncio

import pytest

from controller.link.errors import LinkRefused

from test_live_poker import tablectl_link   # tests/link is on the path (no __init__.py)

FLOOR = "S1042"


def pooled(env) -> list[tuple]:
    return env.admin.execute("SELECT hand_id, seat, player, verification FROM link.qualifying_hands").fetchall()


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
    done = tablectl_link(env, "init")
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
