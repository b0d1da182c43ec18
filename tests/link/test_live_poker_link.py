"""The poker table's end of the room's jackpot in one process (issue 10; 5324.42(r), 5321.18(c)).

A profile's [link] on a poker table, what a recorded hand asks of the pool, a hand
the link only finds in the journal, the table's posted rule against the pool's,
and what the screens say while the pool cannot be reached.
"""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import psycopg
import pytest

from controller.cards import parse_cards
from controller.config import ConfigError, load_profile
from controller.hands import high
from controller.journal.writer import JournalWriter
from controller.runtime.link_by_game import for_table
from controller.games.poker.link import JackpotTableLink, hand_asks, verified_ask
from controller.games.poker.at_table import PokerRound, opening_for
from tests.link.test_live_poker import poker_profile
from tests.rounds import apply


def _profile_text(env, cfg) -> str:
    return poker_profile(env, cfg, "PK-01").read_text()


def test_a_link_on_a_poker_profile_needs_a_jackpot_in_its_rules(env, tmp_path):
    cfg = env.config("room", "PK-01")
    ok = tmp_path / "ok.toml"
    ok.write_text(_profile_text(env, cfg))
    assert load_profile(ok).link.pool == "room"
    text = _profile_text(env, cfg)
    start = text.index("[poker.jackpot]")
    without = tmp_path / "without.toml"
    without.write_text(text[:start] + text[text.index("[table]"):])
    with pytest.raises(ConfigError, match=r"poker.jackpot = \(none\) is required with \[link\].*5324.42\(r\)"):
        load_profile(without)


class FakeJournal:
    def __init__(self, records: dict | None = None) -> None:
        self.entries: list[tuple] = []
        self.records = records or {}

    def append(self, kind, payload, round_id=None):
        self.entries.append((kind, payload, round_id))

    def round_record(self, round_id):
        payload = self.records.get(round_id)
        return None if payload is None else SimpleNamespace(payload=payload)

    def recovery(self):
        return None, []


def stub_table(profile, data_dir, journal=None):
    def fault(detail):
        raise AssertionError(f"the journal failed: {detail}")
    return SimpleNamespace(profile=profile, data_dir=data_dir, journal=journal, publish=lambda: None,
                           wake_outputs=lambda: None, spawn=None, writer=JournalWriter(lambda: journal, fault))


def played_hand(profile, hand_id: str = "PK-01-000007") -> PokerRound:
    """Seat 1 makes four deuces, seat 4 a pair, seat 6 folds: a pot of 4,400 (rake 400, drop 100)."""
    r = PokerRound(opening_for(profile, hand_id, 7, {1: 20000, 4: 20000, 6: 20000}, 6))
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    for a in ("d dh p1 2c2d", "d dh p2 AsKs", "d dh p3 7h8h", "p3 f", "p1 cc", "p2 cc", "d db 2h2s9c",
              "p1 cbr 2000", "p2 cc", "d db Td", "p1 cc", "p2 cc", "d db Jh", "p1 cc", "p2 cc",
              "p1 sm -", "p2 sm -"):
        apply(r, {"type": "action", "action": a})
    assert r.closed
    return r


def test_a_recorded_hand_asks_its_drop_and_a_verified_qualifying_hand_asks_with_its_form(env, tmp_path):
    cfg = env.config("room", "PK-01")
    (path := tmp_path / "p.toml").write_text(_profile_text(env, cfg))
    profile = load_profile(path)
    r = played_hand(profile)
    # (r)(3): the drop at the record; seat 1's four deuces wait for the floorperson (r)(4)
    assert hand_asks(r.round_id, r.record) == [
        ("jackpot-contribution", "PK-01-000007", {"round": "PK-01-000007", "amount": 100})]
    line = {"hand": r.round_id, "seat": 1, "kind": "high-hand", "hand_name": "four-of-a-kind",
            "cards": "2s2h2d2cJh", "player": "Ann Lee", "phone": "555-0101", "dealer": "D. Cruz",
            "dealer_license": "DL-1", "floorperson": "S1042", "floor_license": "FL-9"}   # a jackpot-hand entry
    assert verified_ask(line) == ("qualify", "PK-01-000007#1", {
        "round": "PK-01-000007", "seat": 1, "cards": ["2s", "2h", "2d", "2c", "Jh"], "player": "Ann Lee",
        "value": high.value(parse_cards(["2s", "2h", "2d", "2c", "Jh"])), "hand_name": "four-of-a-kind",
        "kind": "high-hand", "verification": {"floorperson": "S1042", "floor_license": "FL-9", "dealer": "D. Cruz",
                                              "dealer_license": "DL-1", "phone": "555-0101"}})

    # a hand that closed and was left before the link saw it closed is read back from its record
    journal = FakeJournal({r.round_id: r.record})
    table = stub_table(profile, tmp_path, journal)
    link = JackpotTableLink(table, cfg)
    picked = for_table(stub_table(profile, tmp_path), cfg)   # what controller/table.py builds for a poker [link]
    assert isinstance(picked, JackpotTableLink)
    picked.client.outbox.close()
    link.after_batch(SimpleNamespace(round_id=r.round_id, closed=False, record=None, hand=None))
    link.after_batch(SimpleNamespace(round_id="PK-01-000008", closed=False, record=None, hand=None))
    link.after_batch(r)   # shown again: asked once
    table.state = SimpleNamespace(jackpot={"pending": [], "verified": [line]})   # the floorperson verified it
    link.after_batch(SimpleNamespace(round_id="PK-01-000008", closed=False, record=None, hand=None))
    link.after_batch(None)
    ops = [(p["op"], p["ident"], p.get("amount") or p["verification"]["floorperson"])
           for k, p, _ in journal.entries if k == "link-op"]
    assert ops == [("jackpot-contribution", "PK-01-000007", 100), ("qualify", "PK-01-000007#1", "S1042")]
    assert link.queue.qsize() == 2


def test_the_screens_say_the_jackpot_link_is_down_and_show_no_pooled_amount(env, tmp_path):
    env.create_jackpot("room", seed=1234, qualifying_hand="full-house", contribution=100)
    cfg = env.add_table("room", "PK-01")
    (path := tmp_path / "p.toml").write_text(_profile_text(env, cfg))
    journal = FakeJournal()
    link = JackpotTableLink(stub_table(load_profile(path), tmp_path, journal), cfg)

    async def go():
        await link.start()
        try:
            # the table posts two pair, the pool full house: said loudly at the start (5324.42(r)(2))
            params = [p for k, p, _ in journal.entries if k == "link-params"]
            assert params and params[0]["differ"] == {"qualifying_hand": {"table": "two-pair", "pool": "full-house"}}
            view = link.view()
            assert (view["available"], view["meter"], view["kind"], view["period"]) == (True, 1234, "jackpot", 1)
            lock = await psycopg.AsyncConnection.connect(**env.pg.admin_kwargs(env.db))
            try:
                await lock.execute("LOCK TABLE link.pools IN ACCESS EXCLUSIVE MODE")   # the pool out of reach
                deadline = time.monotonic() + 10
                while link.playable:
                    assert time.monotonic() < deadline, "the link never went down"
                    await asyncio.sleep(0.05)
                view = link.view()
                assert view["available"] is False and view["meter"] is None   # no stale pooled amount
                assert view["message"].startswith("jackpot link down: hands go on")
                assert link.refusal().startswith("jackpot link down") and "5321.18(c)" in link.refusal()
                assert any(k == "link-status" and not p["playable"] for k, p, _ in journal.entries)   # journaled
            finally:
                await lock.rollback()
                await lock.close()
            deadline = time.monotonic() + 15
            while not link.playable:
                assert time.monotonic() < deadline, "the link never came back"
                await asyncio.sleep(0.05)
            assert link.view()["meter"] == 1234
        finally:
            await link.close()

    asyncio.run(go())


def test_a_verification_journaled_after_the_latest_snapshot_is_asked_at_start_one_before_it_is_not(env, tmp_path):
    """A table stopped between journaling the floorperson's verification and asking the pool asks at
    its next start; a verification before the latest snapshot was asked then (its link-op follows it)."""
    cfg = env.config("room", "PK-01")
    (path := tmp_path / "p.toml").write_text(_profile_text(env, cfg))
    form = {"kind": "high-hand", "hand_name": "four-of-a-kind", "player": "Ann Lee", "phone": "555-0101",
            "dealer": "D. Cruz", "dealer_license": "DL-1", "floorperson": "S1042", "floor_license": "FL-9"}
    before = {"hand": "PK-01-000003", "seat": 2, "cards": "9h9d9c9sKs", **form}
    after = {"hand": "PK-01-000007", "seat": 1, "cards": "2s2h2d2cJh", **form}
    journal = FakeJournal()
    journal.recovery = lambda: (None, [SimpleNamespace(kind="jackpot-hand", payload=after)])
    table = stub_table(load_profile(path), tmp_path, journal)
    table.state = SimpleNamespace(jackpot={"pending": [], "verified": [before, after]})
    link = JackpotTableLink(table, cfg)
    link._verified_before_snapshot()
    link.after_batch(None)
    assert [(p["op"], p["ident"]) for k, p, _ in journal.entries if k == "link-op"] == [("qualify", "PK-01-000007#1")]
    link.client.outbox.close()
