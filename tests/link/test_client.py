"""The table's client: operations through the outbox, link loss (5321.18(c)), reconcile."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest
import structlog

from controller.link import admin
from controller.link.errors import LinkRefused
from controller.link.jackpot import JackpotLink
from controller.link.outbox import Outbox
from controller.link.pool import ProgressiveLink

ROYAL = "AhKhQhJhTh"


class Proxy:
    """A TCP relay to the database that can be cut (packets held, nothing answers) and healed."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.cut_off = False
        self.healed = asyncio.Event()   # set while the link is up
        self.healed.set()
        self.writers: list[asyncio.StreamWriter] = []
        self.pipes: set[asyncio.Future] = set()   # held until each pipe ends

    async def start(self) -> "Proxy":
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _handle(self, reader, writer) -> None:
        try:
            await self._relay(reader, writer)
        except (asyncio.CancelledError, ConnectionError, OSError):
            writer.close()

    async def _relay(self, reader, writer) -> None:
        self.writers.append(writer)
        while self.cut_off:  # a new connection during the cut is never answered
            await asyncio.sleep(0.01)
            if writer.is_closing():
                return
        up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers.append(up_w)

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    await self.healed.wait()   # held through a cut; heal() closes this pipe anyway
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        for ends in ((reader, up_w), (up_r, writer)):
            task = asyncio.ensure_future(pipe(*ends))
            self.pipes.add(task)
            task.add_done_callback(self.pipes.discard)

    def cut(self) -> None:
        self.cut_off = True
        self.healed.clear()

    def heal(self) -> None:
        """The partition ends; connections that lived through it are gone (as after keepalive)."""
        for w in self.writers:
            w.close()
        self.writers.clear()
        self.cut_off = False
        self.healed.set()

    async def stop(self) -> None:
        self.heal()
        self.server.close()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_a_round_through_the_client_and_the_pending_award_on_the_other_table(env):
    env.create_pool("cs")
    ca, cb = env.add_table("cs", "A"), env.add_table("cs", "B")

    async def main():
        async with ProgressiveLink(ca, ca.outbox) as a, ProgressiveLink(cb, cb.outbox) as b:
            assert a.status.playable and b.status.playable
            assert a.status.meter_cents == 1_000_000
            sent = await a.contribute("r1", [6, 2])
            assert sent.confirmed and sent.amount == 2 * 100 * 7000
            again = await a.contribute("r1", [2, 6])  # the table replays its journal: same operation
            assert again.key == sent.key
            won = await a.claim("r1", [(6, "royal-flush", ROYAL)])
            assert won.result["awards"][0]["amount_cents"] == 1_000_140
            assert await wait_for(lambda: [p["table"] for p in b.status.pending_awards] == ["A"])
            await a.settle("r1", 6, status="paid", supervisor="Sam",
                           validation={"entry": 3, "at": "2026-12-01T10:00:00Z", "hash": "cd" * 32,
                                       "source": "supervisor", "who": "Sam", "event": "validate", "seat": 6})
            assert await wait_for(lambda: b.status.pending_awards == ())
            assert b.status.meter_cents == 1_000_000
    run(main())
    env.assert_books("cs", {"A": ca.outbox, "B": cb.outbox})


async def wait_for(predicate, timeout=5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def test_a_cut_link_makes_the_progressive_unplayable_within_the_timeout_and_nothing_is_lost(env):
    """5321.18(c): the database unreachable for the configured time (1 s) -> unplayable;
    back -> queued operations sent once, records compared, playable again."""
    env.create_pool("cs")
    env.add_table("cs", "A")

    async def main():
        proxy = await Proxy(env.pg.port).start()
        cfg = env.config("cs", "A", url=f"postgresql://{env.role('A')}@127.0.0.1:{proxy.port}/{env.db}")
        assert cfg.timeout_ms == 1000  # the default
        changes = []
        client = ProgressiveLink(cfg, cfg.outbox, on_status=changes.append)
        await client.start()
        assert client.status.playable
        await client.contribute("r1", [1])
        proxy.cut()
        t0 = time.monotonic()
        sent = await client.contribute("r2", [1, 2])
        elapsed = time.monotonic() - t0
        assert not sent.confirmed
        assert 0.9 <= elapsed < 1.6, elapsed
        assert not client.status.playable and client.status.reason.startswith("link down")
        assert client.status.unconfirmed == 1
        claimed = await client.claim("r2", [(2, "flush", "2h5h9hJhKh")])  # queued behind it, instantly
        assert not claimed.confirmed
        await asyncio.sleep(0.5)
        assert not client.status.playable
        proxy.heal()
        assert await client.wait_playable(10)
        assert client.status.unconfirmed == 0
        assert any(not s.playable for s in changes) and changes[-1].playable
        await client.stop()
        await proxy.stop()
    run(main())
    check = env.assert_books("cs", {"A": env.tmp / "outbox-cs-A.sqlite"})
    assert check["contribution_units"] == 3 * 100 * 7000  # r1 and r2, each once


def test_a_table_whose_records_disagree_stays_unplayable_until_they_agree(env):
    env.create_pool("cs")
    cfg = env.add_table("cs", "A")

    async def main():
        async with ProgressiveLink(cfg, cfg.outbox) as a:
            await a.contribute("r1", [1])
            await a.contribute("r2", [3])
        db = sqlite3.connect(cfg.outbox)
        db.execute("UPDATE ops SET amount = amount + 1 WHERE ident = 'r2'")
        db.commit()
        a = ProgressiveLink(cfg, cfg.outbox)
        await a.start()
        assert not a.status.playable
        assert "disagree" in a.status.reason
        assert len(a.status.differences) == 1 and "r2" in a.status.differences[0]
        db.execute("UPDATE ops SET amount = amount - 1 WHERE ident = 'r2'")
        db.commit()
        assert await a.wait_playable(5)  # the keeper looks again
        await a.stop()
    run(main())
    assert admin.check_pool(env.admin, "cs")["tables"][0]["agreed"] is True


def test_an_operation_the_pool_refuses_holds_the_link_until_a_supervisor_acknowledges_it(env):
    env.create_pool("cs")
    cfg = env.add_table("cs", "A")

    async def main():
        async with ProgressiveLink(cfg, cfg.outbox) as a:
            await a.contribute("r1", [1])
            with pytest.raises(LinkRefused, match="seat 5 had no progressive wager") as exc:
                await a.claim("r1", [(5, "flush", "2h5h9hJhKh")])
            assert exc.value.code == "LK005"
            assert not a.status.playable and "acknowledge" in a.status.reason
            key = a.outbox.refused("cs")[0].key
            with pytest.raises(ValueError):
                a.acknowledge(key, " ")
            a.acknowledge(key, "Sam Supervisor")
            assert a.status.playable
    run(main())


def test_a_table_never_reached_takes_no_progressive_wager(env):
    env.create_pool("cs")
    env.add_table("cs", "A")
    cfg = env.config("cs", "A", url=f"postgresql://{env.role('A')}@127.0.0.1:1/{env.db}")

    async def main():
        a = ProgressiveLink(cfg, cfg.outbox)
        await a.start()
        assert not a.status.playable and a.status.reason.startswith("link down")
        with pytest.raises(Exception, match="never been reached"):
            await a.contribute("r1", [1])
        await a.stop()
    run(main())


def test_no_credential_reaches_the_logs(env):
    env.create_pool("cs")
    cfg = env.add_table("cs", "A")
    password = env.passwords[env.role("A")]
    bad = env.config("cs", "A", url=f"postgresql://{env.role('A')}@127.0.0.1:1/{env.db}")

    async def main():
        with structlog.testing.capture_logs() as logs:
            async with ProgressiveLink(cfg, cfg.outbox) as a:
                await a.contribute("r1", [1])
            b = ProgressiveLink(bad, env.tmp / "other.sqlite")
            await b.start()
            await b.stop()
        return logs
    logs = run(main())
    assert any(e["event"] == "link_up" for e in logs)
    assert password not in repr(logs)
    assert password not in cfg.describe() and password not in repr(cfg)


def test_the_room_jackpot_pays_the_best_hand_of_the_period_or_rolls_over(env):
    """5324.42(r)(3)-(7) across two poker tables."""
    env.create_jackpot("room", seed=10_000)
    c1, c2 = env.add_table("room", "P1"), env.add_table("room", "P2")

    async def main():
        async with JackpotLink(c1, c1.outbox) as t1, JackpotLink(c2, c2.outbox) as t2:
            await t1.contribute("h1", 100)
            await t2.contribute("h1", 100)
            await t2.contribute("h2", 75)
            with pytest.raises(ValueError):
                await t1.contribute("h2", 0)
            with pytest.raises(LinkRefused, match=r"5324\.42\(r\)\(2\)\(ii\)"):
                await t1.contribute("h3", 101)  # more than the most taken from a pot
            t1.acknowledge(t1.outbox.refused("room")[0].key, "Floor Fran")
            with pytest.raises(LinkRefused, match="below the least qualifying hand"):
                await t1.qualify("h4", 2, ["Ah", "Ad", "Ac", "Kd", "Ks", "2c", "3d"], "player-17")
            t1.acknowledge(t1.outbox.refused("room")[0].key, "Floor Fran")
            first = await t1.qualify("h5", 2, ["9h", "9d", "9c", "9s", "Ks", "2c", "3d"], "player-17")
            assert first.result["leading"]
            lower = await t2.qualify("h6", 4, ["5h", "5d", "5c", "5s", "Ks", "2c", "3d"], "player-22")
            assert not lower.result["leading"]
            same = await t2.qualify("h7", 8, ["9h", "9d", "9c", "9s", "Kd", "2h", "3c"], "player-31")
            assert same.result["leading"]  # an equal hand also leads: they would share
            assert await wait_for(lambda: (t1.status.leading or {}).get("hand") == "four-of-a-kind")
        out = admin.close_period(env.admin, "room", "Floor Fran")
        assert out["total_cents"] == 10_000 + 275 and not out["rolled_over"]
        assert [(w["table"], w["seat"], w["amount_cents"]) for w in out["winners"]] == \
               [("P1", 2, 5138), ("P2", 8, 5137)]  # ties share, the odd cent to the first recorded
        empty = admin.close_period(env.admin, "room", "Floor Fran")
        assert empty["rolled_over"] and empty["total_cents"] == 0
        async with JackpotLink(c1, c1.outbox) as t1:
            await t1.contribute("h8", 50)
        rolled = admin.close_period(env.admin, "room", "Floor Fran")
        assert rolled["rolled_over"] and rolled["total_cents"] == 50  # no qualifying hand: (r)(7)
        async with JackpotLink(c2, c2.outbox) as t2:
            await t2.contribute("h9", 10)
            assert t2.status.meter_cents == 60
            assert t2.status.period == 4
    run(main())
    env.assert_books("room", {"P1": c1.outbox, "P2": c2.outbox})
    shown = admin.show(env.admin, "room")
    assert [p["status"] for p in shown["periods"]] == ["open", "rolled", "rolled", "paid"]


def test_the_outbox_keeps_one_operation_per_round_and_its_order(tmp_path):
    box = Outbox(tmp_path / "o.sqlite")
    a = box.record("cs", "contribution", "r1", {"round": "r1", "seats": [1]})
    assert box.record("cs", "contribution", "r1", {"round": "r1", "seats": [1]}).key == a.key
    with pytest.raises(ValueError, match="already recorded"):
        box.record("cs", "contribution", "r1", {"round": "r1", "seats": [2]})
    b = box.record("cs", "claim", "r1", {"round": "r1", "hits": []})
    assert [o.key for o in box.pending("cs")] == [a.key, b.key]
    box.confirm(a.key, 700000, {"units": 700000})
    box.close()
    again = Outbox(tmp_path / "o.sqlite")
    assert [o.key for o in again.pending("cs")] == [b.key]
    assert again.records("cs") == [("contribution", "r1", a.key, 700000)]


def test_a_period_is_not_closed_while_a_live_table_may_hold_its_hands_in_its_outbox(env):
    """5324.42(r)(5)-(7) with 5321.18(c): a live table the pool has not heard from lately may
    still hold contributions and qualifying hands of the period; the close waits for it."""
    env.create_jackpot("room", seed=0)
    c1 = env.add_table("room", "P1")

    async def main():
        async with JackpotLink(c1, c1.outbox) as t1:
            await t1.contribute("h1", 40)
    run(main())   # P1 stays live on the pool (its box stopped without closing the table)
    env.admin.execute("UPDATE link.pool_tables SET last_seen = now() - interval '10 minutes' "
                      "WHERE table_name = 'P1'")
    with pytest.raises(LinkRefused, match=r"5321\.18\(c\)\): P1 \(last seen "):
        admin.close_period(env.admin, "room", "Floor Fran")
    assert env.admin.execute("SELECT count(*) FROM link.periods WHERE status <> 'open'").fetchone()[0] == 0
    env.admin.execute("UPDATE link.pool_tables SET last_seen = now(), agreed = false WHERE table_name = 'P1'")
    with pytest.raises(LinkRefused, match="records disagree"):
        admin.close_period(env.admin, "room", "Floor Fran")
    admin.force_close(env.admin, "room", "P1", "Floor Fran", "box off for the night")
    out = admin.close_period(env.admin, "room", "Floor Fran")
    assert out["rolled_over"] and out["total_cents"] == 40
    env.assert_books("room")
