"""What monitoring reads of a journal (controller/metrics.py): the parts a live emulated table does not reach
in tests/ui/test_metrics.py (a voided round, a linked table's pool, a scrape that reads on from where the last
one stopped, a journal replaced under it), on a real journal on disk, parsed with prometheus_client's parser."""

from __future__ import annotations

from prometheus_client.openmetrics.parser import text_string_to_metric_families

from controller import metrics
from controller.journal.store import Journal

OPENMETRICS = "application/openmetrics-text; version=1.0.0"


def _table(**over) -> metrics.TableFigures:
    base = dict(game="casino-war", test_mode=False, fault=None, alarms=[], devices=[], link=None, meter=None)
    return metrics.TableFigures(**{**base, **over})


def _parsed(t: metrics.TableFigures, j: metrics.JournalFigures) -> dict:
    body, content_type = metrics.exposition(t, j, OPENMETRICS)
    assert content_type.startswith("application/openmetrics-text")
    return {f.name: {tuple(sorted(s.labels.items())): s.value for s in f.samples}
            for f in text_string_to_metric_families(body.decode())}


def _round(journal: Journal, n: int, void: bool) -> None:
    record = {"game": "casino-war", "round": f"W-{n}", **({"void": {"reason": "misdeal"}} if void else {})}
    journal.record_round(f"W-{n}", record, {"seats": []})


def test_rounds_are_counted_by_outcome_and_each_scrape_reads_on(tmp_path):
    follower = metrics.JournalFollower("casino-war")
    with Journal.open(tmp_path / "a", key=None, mode="test") as journal:
        journal.append("power-up", {"software": "ab" * 32})
        _round(journal, 1, void=False)
        _round(journal, 2, void=True)
        journal.append("fault", {"source": "journal", "problems": []})
        journal.append("anchor-written", {"seq": 3, "sink": "progressive controller", "hash": "00"})
        first = follower.read(journal)
        assert dict(first.rounds) == {("casino-war", "settled"): 1, ("casino-war", "void"): 1}
        assert dict(first.faults) == {"journal": 1}
        assert first.anchors["progressive controller"][0] == 3
        assert first.software == "ab" * 8 and first.entries == journal.head_seq and first.size_bytes > 0
        _round(journal, 3, void=False)
        again = follower.read(journal)          # only what came since: the settled round is not counted twice
        assert dict(again.rounds) == {("casino-war", "settled"): 2, ("casino-war", "void"): 1}
        parsed = _parsed(_table(), again)
    assert parsed["tablectl_rounds"] == {(("game", "casino-war"), ("outcome", "settled")): 2,
                                         (("game", "casino-war"), ("outcome", "void")): 1}
    assert parsed["tablectl_faults"] == {(("source", "journal"),): 1}
    with Journal.open(tmp_path / "b", key=None, mode="test") as other:   # another journal: counted afresh
        _round(other, 1, void=True)
        assert dict(follower.read(other).rounds) == {("casino-war", "void"): 1}


def test_a_linked_table_says_its_pool_and_a_fault_its_codes():
    link = {"pool": "POOL-A", "available": False, "asked": 3}
    fault = {"reason": "journal.db: the seal\ndoes not match", "problems": [{"code": "seal-mismatch"},
                                                                        {"code": "chain-broken"}]}
    t = _table(link=link, fault=fault, alarms=[{"kind": "link_down"}, {"kind": "link_down"}],
               devices=[{"name": "shoe", "status": "disconnected"}, {"name": "panel", "status": "odd"}],
               meter={"amount": 1234567})
    parsed = _parsed(t, metrics.JournalFigures())
    assert parsed["tablectl_link_linked"] == {(): 1}
    assert parsed["tablectl_link_available"] == {(("pool", "POOL-A"),): 0}
    assert parsed["tablectl_link_unconfirmed"] == {(("pool", "POOL-A"),): 3}
    assert parsed["tablectl_in_play"] == {(): 0}
    assert parsed["tablectl_fault_open"] == {(("code", "chain-broken"),): 1, (("code", "seal-mismatch"),): 1}
    assert parsed["tablectl_alarms"] == {(("kind", "link_down"),): 2}
    assert parsed["tablectl_meter_cents"] == {(("game", "casino-war"),): 1234567}
    on = {dict(k)["device"]: dict(k)["tablectl_device"] for k, v in parsed["tablectl_device"].items() if v == 1}
    assert on == {"shoe": "disconnected", "panel": "other"}
    assert parsed["tablectl_test_mode"] == {(): 0}
    assert metrics.health(t) == (503, "fault: journal.db: the seal does not match\n")
    assert metrics.health(_table()) == (200, "in play\n")
