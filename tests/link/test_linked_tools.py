"""The tools on a live linked table, and its orderly stop (issue 16).

A live Caribbean stud table (controller/table.py, emulated devices, its `[link]`
to the test's PostgreSQL) plays a round with a royal flush from a stacked deck:
- `tablectl rounds show` (the installed command) reconstructs the linked round:
  the pool's name, the contribution, the claim, the pool's award and who
  validated it (it failed with KeyError 'meter_before' on every linked round);
- `link check --journal` tells a round past its lock-out that will resume at the
  next start from a disagreement;
- an orderly stop, with the pool's meter row held so nothing can be confirmed,
  keeps every operation journaled before the stop in the outbox: the link stops
  last, and what it could not send is written to the outbox before the exit.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg

from controller.journal.store import Journal
from controller.link.journalcheck import compare_journal
from controller.link.outbox import Outbox
from tests.link.link_helpers import ROYAL_AT_SEAT_1, close, deal_royal
from tests.ui.ui_helpers import deal_progressive_hand, fill_in_hand_pay, wait_until

TABLECTL = Path(sys.executable).parent / "tablectl"


def link_ops(data_dir: Path) -> list[tuple[str, str]]:
    with Journal.open(data_dir, readonly=True) as j:
        return [(e.payload["op"], e.payload["ident"]) for e in j.entries_since(0) if e.kind == "link-op"]


def test_rounds_show_reconstructs_a_linked_round_with_the_pool_its_claim_and_who_validated(env, tables):
    env.create_pool("cs")
    a = tables("CS-A", 51)
    rid = deal_royal(a, ROYAL_AT_SEAT_1)
    assert a.submit({"type": "settle"})["ok"]
    wait_until(a, lambda s: s["validations"] and s["validations"][0]["award"] is not None, "the pool's award")
    assert a.submit({"type": "validate", "seat": 1}, source="supervisor", who="Pat Jones")["ok"]
    fill_in_hand_pay(a, 1, "Pat Jones")   # the royal is a hand-pay (issue 29 item 6): its form
    wait_until(a, lambda s: s["round"]["state"] == "closed" and not s["progressive"]["asked"], "settled at the pool")
    close(a)
    (amount, before) = env.admin.execute("SELECT amount_cents, meter_before_cents FROM link.awards "
                                         "WHERE round_id = %s", (rid,)).fetchone()
    shown = subprocess.run([str(TABLECTL), "rounds", "show", "--data-dir", str(env.tmp / "data-CS-A"), rid],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr + shown.stdout
    out = shown.stdout
    cents = f"${amount // 100:,}.{amount % 100:02d}"
    assert "linked progressive: pool cs" in out, out
    assert "contribution to the pool cs: seat(s) [1]" in out, out
    assert "claim to the pool cs: seat 1 royal-flush AhKhQhJhTh" in out, out
    assert f"pool award seat 1 royal-flush {cents}" in out and f"${before // 100:,}" in out, out
    assert "validated by Pat Jones" in out and "paid at the pool" in out, out
    # the settlement's validation record is held against the journal: one it does not hold is named
    with Journal.open(env.tmp / "data-CS-A", readonly=True) as j:
        assert compare_journal(env.admin, "cs", "CS-A", j)["differences"] == []
        env.admin.execute("UPDATE link.awards SET validation = jsonb_set(validation, '{hash}', %s::jsonb)",
                          ('"' + "0" * 64 + '"',))
        found = compare_journal(env.admin, "cs", "CS-A", j)["differences"]
    assert any(f"round {rid} seat 1: the pool's award is paid on journal entry" in d for d in found), found


def test_the_journal_check_tells_a_round_in_progress_from_a_disagreement(env, tables):
    env.create_pool("cs")
    a = tables("CS-A", 43)
    rid = deal_royal(a, ROYAL_AT_SEAT_1)   # past its lock-out, its contribution in the pool, not settled

    async def check():
        return compare_journal(env.admin, "cs", "CS-A", a.table.journal)
    found = a.call(check())
    assert found["differences"] == [], found
    assert found["in_progress"] == [rid]
    # a contribution under this table's role for a round its journal never opened is still named
    with env.table_conn("CS-A") as t:
        t.execute("SELECT link.contribute('cs', 'CS-B-000123', gen_random_uuid(), ARRAY[2], 1)")
    found = a.call(check())
    assert any("CS-B-000123" in d for d in found["differences"]), found
    assert not any(rid in d for d in found["differences"]), found


def test_an_orderly_stop_leaves_every_operation_journaled_before_it_in_the_outbox(env, tables, monkeypatch):
    import controller.runtime.linked as linked
    monkeypatch.setattr(linked, "DRAIN_PATIENCE", 0.5)   # the stop does not wait long for a pool that is held
    env.create_pool("cs")
    a = tables("CS-A", 44)
    holder = psycopg.connect(**env.pg.admin_kwargs(env.db))   # a person's session holding the meter row
    try:
        holder.execute("SELECT 1 FROM link.pools WHERE name = 'cs' FOR UPDATE")
        rid = deal_progressive_hand(a, ROYAL_AT_SEAT_1)   # the contribution waits behind the held row
        assert a.submit({"type": "settle"})["ok"]         # the claim is asked behind it
        wait_until(a, lambda s: s["round"]["state"] == "validation", "the round waiting for the pool")
        asked = link_ops(env.tmp / "data-CS-A")
        assert ("contribution", rid) in asked and ("claim", rid) in asked
        close(a)   # what SIGTERM does: Table.stop, then Table.close
    finally:
        holder.rollback()
        holder.close()
    box = Outbox(env.tmp / "outbox-cs-CS-A.sqlite")
    try:
        kept = {(op.kind, op.ident) for op in box.ops("cs")}
    finally:
        box.close()
    missing = [op for op in link_ops(env.tmp / "data-CS-A") if op not in kept]
    assert missing == [], f"journaled as asked, not in the outbox at the exit: {missing}"
