"""The pool in PostgreSQL, called as the tables call it: roles, money, order, idempotency."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from psycopg.types.json import Jsonb

from controller.link import admin
from controller.link.errors import LinkRefused
from controller.progressive import contribute as rule_contribute, pay_awards
from controller.link.sim import deal_hands

ROYAL = "AhKhQhJhTh"


def call(conn, query, *params):
    return conn.execute(query, params).fetchone()[0]


def contribute(conn, round_id, seats, pool="cs", key=None, version=1):
    return call(conn, "SELECT link.contribute(%s, %s, %s, %s, %s)", pool, round_id, key or uuid.uuid4(),
                seats, version)


class Refused(Exception):
    """The pool's refusal of a claim: answered, and kept in link.refusals, not raised (issue 26)."""

    def __init__(self, answer: dict) -> None:
        super().__init__(f"{answer['code']}: {answer['reason']}")
        self.sqlstate = answer["code"]
        self.answer = answer


def claim(conn, round_id, hits, pool="cs", key=None):
    """A table's claim as its client sends it; the pool's refusal raised as `Refused`."""
    answer = call(conn, "SELECT link.claim(%s, %s, %s, %s)", pool, round_id, key or uuid.uuid4(),
                  Jsonb([{"seat": s, "hand": h, "cards": c} for s, h, c in hits]))
    if answer.get("refused"):
        raise Refused(answer)
    return answer


def validation(seat, status="paid", who="Sam Supervisor"):
    """The journal entry of the supervisor's validation, as a table sends it with a settlement."""
    return {"entry": 7, "at": "2026-12-01T10:00:00.000Z", "hash": "ab" * 32, "source": "supervisor", "who": who,
            "event": "validate" if status == "paid" else "refuse", "seat": seat}


def settle(conn, round_id, seat, status="paid", key=None, pool="cs", reason=None, record=None):
    return call(conn, "SELECT link.settle_award(%s, %s, %s, %s, %s, %s, %s, %s)", pool, round_id, seat,
                key or uuid.uuid4(), status, "Sam Supervisor", reason,
                Jsonb(validation(seat, status) if record is None else record))


@pytest.fixture
def two_tables(env):
    env.create_pool("cs")
    env.add_table("cs", "A")
    env.add_table("cs", "B")
    a, b = env.table_conn("A"), env.table_conn("B")
    call(a, "SELECT link.open_table('cs', 'test')")
    call(b, "SELECT link.open_table('cs', 'test')")
    yield env, a, b
    a.close()
    b.close()


def sqlstate(excinfo) -> str:
    return excinfo.value.sqlstate


# --- roles: a table reaches only its own records, through the functions ------------------------

def test_a_table_role_cannot_touch_the_tables_directly(two_tables):
    env, a, _ = two_tables
    for stmt in ("SELECT * FROM link.pools", "UPDATE link.pools SET meter_units = 0",
                 "INSERT INTO link.meter_moves (pool_id, op_seq, kind, units, meter_units_after) VALUES (1,1,'seed',1,1)",
                 "SELECT * FROM link.contributions", "DELETE FROM link.awards"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            a.execute(stmt)


def test_a_table_role_cannot_call_the_admin_functions(two_tables):
    env, a, _ = two_tables
    for stmt in ("SELECT link.set_params('cs', '{}', 'me')", "SELECT link.create_pool('x', 'progressive', '{}', 0, 'me')",
                 "SELECT link.force_close('cs', 'B', 'me', 'r')", "SELECT link.check_pool('cs')",
                 "SELECT link.close_period('cs', 'me')", "SELECT link.add_table('cs', 'Z', 'postgres', 'me')"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            a.execute(stmt)


def test_a_table_cannot_settle_another_tables_award(two_tables):
    env, a, b = two_tables
    contribute(a, "r1", [2])
    claim(a, "r1", [(2, "flush", "2h5h9hJhKh")])
    with pytest.raises(psycopg.Error) as exc:
        settle(b, "r1", 2)  # B has no award of round r1: it is A's
    assert sqlstate(exc) == "LK008"
    assert settle(a, "r1", 2)["status"] == "paid"


def test_a_role_outside_the_pool_is_refused(env):
    env.create_pool("cs")
    env.create_pool("other")
    env.add_table("other", "X")
    x = env.table_conn("X")
    with pytest.raises(psycopg.Error) as exc:
        contribute(x, "r1", [1], pool="cs")
    assert sqlstate(exc) == "LK001"


def test_a_table_role_must_be_a_plain_member_of_link_table(env):
    env.create_pool("cs")
    env.admin.execute("CREATE ROLE t_not_a_table LOGIN")
    with pytest.raises(LinkRefused, match="link_table"):
        admin.add_table(env.admin, "cs", "Z", "t_not_a_table", "ann")


# --- contributions: exact, idempotent -------------------------------------------------------------

def test_contributions_carry_the_fraction_of_a_cent_exactly(env):
    env.create_pool("cs", wager=33, contribution_bp=7777, reset=1_000_000)
    env.add_table("cs", "A")
    a = env.table_conn("A")
    call(a, "SELECT link.open_table('cs', 'test')")
    carry, meter = 0, 1_000_000
    for n, seats in enumerate(([1], [1, 2, 3], [7], [2, 4, 6, 7]), 1):
        r = contribute(a, f"r{n}", seats)
        added, carry = rule_contribute(33 * len(seats), 7777, carry)  # 5324.37(g)(5), progressive.py
        meter += added
        assert r["units"] == 33 * len(seats) * 7777
        assert r["meter_units_after"] == meter * 10_000 + carry
    state = call(a, "SELECT link.table_state('cs')")
    assert (state["meter_cents"], state["meter_fraction"]) == (meter, carry)
    assert carry != 0  # the case is one where a fraction is really carried
    env.assert_books("cs")


def test_a_retried_contribution_counts_once_and_a_second_key_for_the_round_is_refused(two_tables):
    env, a, _ = two_tables
    key = uuid.uuid4()
    first = contribute(a, "r1", [1, 2], key=key)
    again = contribute(a, "r1", [2, 1], key=key)
    assert (again["duplicate"], again["units"], again["seq"]) == (True, first["units"], first["seq"])
    with pytest.raises(psycopg.Error) as exc:
        contribute(a, "r1", [1, 2])
    assert sqlstate(exc) == "LK002"
    with pytest.raises(psycopg.Error) as exc:
        contribute(a, "r2", [1, 2, 3], key=key)  # the key of r1 for another round
    assert sqlstate(exc) == "LK002"
    check = env.assert_books("cs")
    assert check["contribution_units"] == 2 * 100 * 7000


@pytest.mark.parametrize("seats,why", [([], "at least one"), ([0], "1 to 7"), ([8], "1 to 7"), ([2, 2], "distinct")])
def test_a_contribution_with_impossible_seats_is_refused(two_tables, seats, why):
    env, a, _ = two_tables
    with pytest.raises(psycopg.Error) as exc:
        contribute(a, "r1", seats)
    assert sqlstate(exc) == "LK005"
    assert "5324.37(a)(1)" in str(exc.value)


def test_a_contribution_under_other_parameters_is_refused(two_tables):
    env, a, _ = two_tables
    with pytest.raises(psycopg.Error) as exc:
        contribute(a, "r1", [1], version=2)
    assert sqlstate(exc) == "LK003"


# --- awards: the one meter, in commit order ---------------------------------------------------------

def test_awards_are_paid_seat_seven_down_at_the_meter_of_their_turn(two_tables):
    env, a, _ = two_tables
    contribute(a, "r1", [1, 3, 5, 7])
    meter = call(a, "SELECT link.table_state('cs')")["meter_cents"]
    out = claim(a, "r1", [(1, "royal-flush", "AsKsQsJsTs"), (7, "straight-flush", "9h8h7h6h5h"),
                          (5, "flush", "2d5d9dJdKd"), (3, "royal-flush", ROYAL)])
    seats = [x["seat"] for x in out["awards"]]
    assert seats == [7, 5, 3, 1]  # 5324.37(e)(4): seat 7 down to seat 1
    sf = meter * 10 // 100        # 5324.37(g)(4): 10% of the meter, rounded down
    rest = meter - sf
    amounts = [x["amount_cents"] for x in out["awards"]]
    assert amounts == [sf, 5000, rest - rest // 2, rest // 2]  # royals share, odd cent to the first paid
    assert [x["from_meter"] for x in out["awards"]] == [True, False, True, True]
    assert out["awards"][2]["shared_by"] == 2
    assert all(x["status"] == "pending" for x in out["awards"])
    state = call(a, "SELECT link.table_state('cs')")
    assert state["meter_cents"] == 1_000_000  # reseeded at once
    env.assert_books("cs")


def test_a_pending_award_is_shown_to_every_table_of_the_pool(two_tables):
    env, a, b = two_tables
    contribute(a, "r1", [4])
    claim(a, "r1", [(4, "royal-flush", ROYAL)])
    pending = call(b, "SELECT link.table_state('cs')")["pending"]
    assert [(p["table"], p["seat"], p["hand"]) for p in pending] == [("A", 4, "royal-flush")]
    settle(a, "r1", 4)
    assert call(b, "SELECT link.table_state('cs')")["pending"] == []


def test_a_voided_award_goes_back_to_the_meter_and_a_settled_one_cannot_be_settled_again(two_tables):
    env, a, _ = two_tables
    contribute(a, "r1", [4])
    before = call(a, "SELECT link.table_state('cs')")["meter_cents"]
    amount = claim(a, "r1", [(4, "straight-flush", "9h8h7h6h5h")])["awards"][0]["amount_cents"]
    with pytest.raises(psycopg.Error) as exc:
        settle(a, "r1", 4, status="voided")  # a void needs its reason
    assert sqlstate(exc) == "LK005"
    key = uuid.uuid4()
    assert settle(a, "r1", 4, status="voided", key=key, reason="dealer misread the hand")["status"] == "voided"
    assert settle(a, "r1", 4, status="voided", key=key, reason="dealer misread the hand")["duplicate"] is True
    with pytest.raises(psycopg.Error) as exc:
        settle(a, "r1", 4, status="paid")
    assert sqlstate(exc) == "LK002"
    assert call(a, "SELECT link.table_state('cs')")["meter_cents"] == before == amount + (before - amount)
    env.assert_books("cs")


def test_a_claim_needs_the_rounds_progressive_wager_on_that_seat(two_tables):
    env, a, _ = two_tables
    with pytest.raises(Refused) as exc:
        claim(a, "r1", [(2, "flush", "2h5h9hJhKh")])
    assert sqlstate(exc) == "LK007"
    contribute(a, "r1", [3])
    with pytest.raises(Refused) as exc:
        claim(a, "r1", [(2, "flush", "2h5h9hJhKh")])
    assert sqlstate(exc) == "LK005" and "seat 2" in str(exc.value)
    for bad, field in (([(3, "straight", "2h3d4c5s6h")], "hand"), ([(3, "flush", "2h5h9h")], "cards"),
                       ([(3, "flush", "2h5h9hJhKh"), (3, "flush", "2c5c9cJcKc")], "twice")):
        with pytest.raises(Refused) as exc:
            claim(a, "r1", bad)
        assert field in str(exc.value)


def test_a_retried_claim_returns_the_same_awards(two_tables):
    env, a, _ = two_tables
    contribute(a, "r1", [4, 6])
    key = uuid.uuid4()
    hits = [(4, "royal-flush", ROYAL), (6, "four-of-a-kind", "7h7d7c7s2c")]
    first = claim(a, "r1", hits, key=key)
    again = claim(a, "r1", list(reversed(hits)), key=key)
    assert again["duplicate"] and again["awards"] == first["awards"]
    with pytest.raises(Refused) as exc:
        claim(a, "r1", hits)
    assert sqlstate(exc) == "LK002"
    env.assert_books("cs")


HANDS = st.sampled_from(["flush", "full-house", "four-of-a-kind", "straight-flush", "royal-flush"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.lists(st.dictionaries(st.integers(1, 7), HANDS, min_size=1, max_size=7), min_size=1, max_size=3),
       fixed_sf=st.booleans())
def test_the_pool_pays_what_progressive_pay_awards_pays(env, rounds, fixed_sf):
    """The SQL arithmetic against the project's reference (controller/progressive.py)."""
    name = f"p{uuid.uuid4().hex[:10]}"
    sf = {"fixed": 500_000} if fixed_sf else {"percent_of_meter": 25}
    params = env.create_pool(name, **{"straight-flush": sf, "contribution_bp": 7300})
    table = f"T{name}"
    env.add_table(name, table)
    with env.table_conn(table) as t:
        call(t, "SELECT link.open_table(%s, 'test')", name)
        rng_cards = __import__("random").Random(1)
        for i, hits in enumerate(rounds):
            contribute(t, f"r{i}", sorted(hits), pool=name)
            meter = call(t, "SELECT link.table_state(%s)", name)["meter_cents"]
            ordered = sorted(hits.items(), reverse=True)
            dealt = deal_hands([h for _, h in ordered], rng_cards)
            ordered = [(s, h) for (s, h), c in zip(ordered, dealt, strict=True) if c is not None]
            out = claim(t, f"r{i}", [(s, h, c) for (s, h), c in zip(ordered, [c for c in dealt if c], strict=True)], pool=name)
            expect = pay_awards(meter, ordered, admin._awards_of(params), params["reset"])
            assert [(x["seat"], x["hand"], x["amount_cents"], x["from_meter"]) for x in out["awards"]] == \
                   [(p.seat, p.hand, p.amount, p.from_meter) for p in expect.awards]
            assert call(t, "SELECT link.table_state(%s)", name)["meter_cents"] == expect.meter_after
    env.assert_books(name)


# --- parameters: validated, frozen while live, journaled -------------------------------------------

def test_parameters_below_the_regulation_are_refused_with_the_provision(env):
    with pytest.raises(admin.AdminError, match=r"contribution_bp.*5324\.37\(g\)\(5\)"):
        admin.progressive_params({"contribution_bp": 6999})
    with pytest.raises(admin.AdminError, match=r"flush.*5324\.37\(g\)\(4\)"):
        admin.progressive_params({"flush": 4999})
    good, _ = admin.progressive_params({})
    with pytest.raises(Exception, match=r"5324\.37\(g\)\(5\)"):  # the database refuses it too
        admin.create_pool(env.admin, "cs", "progressive", {**good, "contribution_bp": 6999}, 0, "ann")
    with pytest.raises(Exception, match="unknown parameter"):
        admin.create_pool(env.admin, "cs", "progressive", {**good, "colour": 1}, 0, "ann")


def test_parameters_cannot_change_while_a_table_is_live_and_every_change_is_journaled(two_tables):
    env, a, b = two_tables
    params, _ = admin.progressive_params({"contribution_bp": 8000})
    with pytest.raises(Exception, match=r"5321\.18\(b\)\(4\).*live: A, B"):
        admin.set_params(env.admin, "cs", params, "Pat Manager")
    call(a, "SELECT link.close_table('cs')")
    with pytest.raises(Exception, match="live: B"):
        admin.set_params(env.admin, "cs", params, "Pat Manager")
    admin.force_close(env.admin, "cs", "B", "Pat Manager", "box replaced")
    with pytest.raises(Exception, match="who"):
        admin.set_params(env.admin, "cs", params, "  ")
    assert admin.set_params(env.admin, "cs", params, "Pat Manager")["version"] == 2
    with pytest.raises(psycopg.Error) as exc:
        contribute(a, "r1", [1], version=1)  # a table still on the old parameters
    assert sqlstate(exc) == "LK003"
    changes = env.admin.execute("SELECT who, db_role, what FROM link.changes ORDER BY change_id").fetchall()
    assert ("Pat Manager", "postgres", "set parameters") in changes
    assert ("Pat Manager", "postgres", "force close table") in changes
    assert ("test-admin", "postgres", "create pool") in changes
    assert ("A", env.role("A"), "table closed") in changes
    detail = env.admin.execute("SELECT detail FROM link.changes WHERE what = 'set parameters'").fetchone()[0]
    assert detail["before"]["contribution_bp"] == 7000 and detail["after"]["contribution_bp"] == 8000


# --- the books ------------------------------------------------------------------------------------

def test_a_tampered_award_is_found_by_the_check_and_the_replay(two_tables):
    env, a, _ = two_tables
    contribute(a, "r1", [4])
    claim(a, "r1", [(4, "straight-flush", "9h8h7h6h5h")])
    env.assert_books("cs")
    env.admin.execute("UPDATE link.awards SET amount_cents = amount_cents + 1")
    assert not admin.check_pool(env.admin, "cs")["balanced"]
    problems = admin.audit(env.admin, "cs")
    assert any("the rules pay" in p for p in problems)


def test_the_replay_checks_the_cards_of_every_hit(two_tables):
    env, a, _ = two_tables
    contribute(a, "r1", [4])
    claim(a, "r1", [(4, "royal-flush", "AhKhQhJhTh")])
    # the cards altered behind the pool's functions (as a superuser could): the replay names it
    env.admin.execute("UPDATE link.awards SET cards = 'AhKhQhJh9h'")   # a king-high flush as a royal
    problems = admin.audit(env.admin, "cs")
    assert problems == ["seq 3: cards AhKhQhJh9h make flush, not royal-flush"]


def test_the_table_digest_in_sql_is_the_digest_of_digest_py(two_tables):
    from controller.link.digest import digest
    env, a, _ = two_tables
    contribute(a, "r1", [4])
    claim(a, "r1", [(4, "flush", "2h5h9hJhKh")])
    settle(a, "r1", 4)
    rows = admin.table_records(env.admin, "cs", "A")
    assert sorted(r[0] for r in rows) == ["claim", "contribution", "settle"]
    n, dig = env.admin.execute("SELECT n, digest FROM link.table_digest('cs', 'A')").fetchone()
    assert (n, dig) == digest(rows)
