"""Events bound to their source (issue 15, item 1): what reaches the dealer's screen endpoint is the dealer's.

Breaks this guards: the dealer's endpoint (no sign-in) took device events (the
shoe's cards, the shuffler's count, "shoe loaded", progressive wagers no acceptor
saw), so a round was dealt a royal flush by POSTs alone and injected cards
interleaved with the emulated shoe's; and one POST with a malformed field raised
inside the round code and faulted the table. Against a live Caribbean stud table
on emulated devices (shoe, shuffler, progressive controller), through its
screens' server.
"""

from __future__ import annotations

import json

import pytest

from tests.security.boundary_helpers import LiveTable, panel


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    t = LiveTable("stud.toml", tmp_path_factory.mktemp("boundary") / "data")
    try:
        t.wait_until(lambda s: (s.get("round") or {}).get("state") == "open" and (s.get("deck") or {}).get("loaded")
                     and ((s.get("deck") or {}).get("count") or {}).get("ok"),
                     "a round open, its deck counted and loaded")
        yield t
    finally:
        t.close()


def _round(live: LiveTable) -> tuple[int, str]:
    """How many events the round in progress has taken, and what the screens show of it."""
    def look():
        r = live.table.state.round
        view = live.table.published()
        return len(r.events), json.dumps({k: view.get(k) for k in ("round", "seats", "dealer", "deck", "meter")},
                                         sort_keys=True)
    return live.run(look)


def _refused(live: LiveTable, since: int) -> list[dict]:
    return [e.payload for e in live.entries_after(since) if e.kind == "refused"]


@pytest.mark.parametrize("event", [
    {"type": "shoe_card", "card": "Ah"},
    {"type": "shoe_loaded", "cards": 52},
    {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False},
    {"type": "progressive", "seat": 1},
    {"type": "remove", "seat": 1, "wager": "progressive"},
    {"type": "cover_reached"},
    {"type": "shoe_check", "dispensed": 0},
    {"type": "pool_awards", "claim": "x", "awards": []},
], ids=lambda e: e["type"])
def test_a_device_event_posted_to_the_dealers_endpoint_is_refused_and_changes_nothing(live, event):
    status, body = panel(live.port, {"type": "ante", "seat": 1, "amount": 500})
    assert status in (200, 409)   # the dealer's own events are still taken (409: seat 1 has its ante already)
    before, seq = _round(live), live.head()
    status, body = panel(live.port, event)
    assert status == 409 and body["ok"] is False, body
    reasons = ("not from the dealer's panel", "only the link", "acceptor reports the chip gone")
    assert any(why in body["error"] for why in reasons), body
    assert _round(live) == before
    refused = _refused(live, seq)
    assert [r["event"] for r in refused] == [event] and refused[0]["source"] == "panel"
    assert live.published()["fault"] is None


def test_a_royal_flush_cannot_be_dealt_by_posts(live):
    """The shoe deals; five POSTed cards of a royal flush are not dealt to anyone, before or during the deal."""
    assert panel(live.port, {"type": "ante", "seat": 2, "amount": 500})[0] in (200, 409)
    before = _round(live)
    for card in ("As", "Ks", "Qs", "Js", "Ts"):
        status, body = panel(live.port, {"type": "shoe_card", "card": card})
        assert status == 409 and "comes from a device" in body["error"]
    assert _round(live) == before
    # A card of the dealer's own ("card") is the round's to refuse while its automated shoe deals.
    status, body = panel(live.port, {"type": "card", "card": "As", "to": 1})
    assert status == 409
    assert _round(live) == before


@pytest.mark.parametrize("event", [
    {"type": "deck_count", "total": 52, "anomalies": [1]},
    {"type": "deck_count", "total": 52, "anomalies": [1], "truncated": False},
    {"type": "chip_removed", "seat": []},
    {"type": "ante", "seat": [], "amount": 500},
    {"type": "ante", "seat": 1, "amount": "500"},
    {"type": "ante", "seat": 1, "amount": 10**40},
    {"type": "decision", "seat": {"a": 1}, "decision": "bet"},
    {"type": "card", "card": ["As"]},
    {"type": "remove", "seat": 1, "wager": ["ante"]},
    {"type": "next_round", "extra": 1},
], ids=lambda e: f"{e['type']}-{sorted(e)[0]}-{json.dumps(e)[-12:]}")
def test_a_malformed_field_is_a_refusal_not_a_fault(live, event):
    before = _round(live)
    status, body = panel(live.port, event)
    assert status == 409 and body["ok"] is False
    assert live.published()["fault"] is None and live.table.fault is None
    assert _round(live) == before


@pytest.mark.parametrize("event, field", [
    ({"type": "deck_count", "total": 52, "anomalies": [1], "truncated": False}, "anomalies.0"),
    ({"type": "chip_removed", "seat": []}, "seat"),
    ({"type": "shoe_card", "card": 7}, "card"),
    ({"type": "progressive", "seat": True}, "seat"),
])
def test_a_malformed_device_event_is_refused_naming_its_field(live, event, field):
    """Even from the drivers' own source, a field off its declaration never reaches the round."""
    before, seq = _round(live), live.head()
    result = live.submit(event, source="device", who="test")
    assert result["ok"] is False and f"{field}:" in result["error"], result
    assert live.table.fault is None and _round(live) == before
    assert len(_refused(live, seq)) == 1


def test_supervisor_and_link_events_are_bound_to_their_source(live):
    for event, source, who in (({"type": "validate", "seat": 1}, "panel", None),
                               ({"type": "void_round", "reason": "x"}, "autoplay", "dealer"),
                               ({"type": "correct_meter", "amount": 1, "reason": "x"}, "supervisor", None),
                               ({"type": "pool_awards", "refused": "no"}, "supervisor", "S1"),
                               ({"type": "ante", "seat": 3, "amount": 500}, "link", None),
                               ({"type": "ante", "seat": 3, "amount": 500}, "supervisor", "S1"),
                               ({"type": "shoe_card", "card": "As"}, "autoplay", "dealer")):
        before = _round(live)
        result = live.submit(event, source=source, who=who)
        assert result["ok"] is False, (event, source)
        assert _round(live) == before


def test_a_refusal_is_journaled_in_a_bounded_form(live):
    seq = live.head()
    big = {"type": "ante", "seat": 1, "amount": 500, "note": "x" * 15_000}
    status, _ = panel(live.port, big)
    assert status == 409
    [entry] = [e for e in live.entries_after(seq) if e.kind == "refused"]
    stored = json.dumps(entry.payload)
    assert len(stored) < 800, len(stored)
    assert entry.payload["event"]["truncated"] is True and entry.payload["event"]["type"] == "ante"
    assert entry.payload["event"]["excerpt"].startswith('{"type":"ante"')


def test_the_dealers_events_still_play_a_round(live):
    """What the dealer's screen sends is taken: the boundary refuses the rest, not the game."""
    status, body = panel(live.port, {"type": "ante", "seat": 4, "amount": 1000})
    assert status == 200 and body["ok"], body
    # a second seat's ante of its own, so "no more bets" has a seat to deal to whatever the tests before
    # left on the layout
    status, body = panel(live.port, {"type": "ante", "seat": 5, "amount": 1000})
    assert status == 200 and body["ok"], body
    status, body = panel(live.port, {"type": "remove", "seat": 4, "wager": "ante"})
    assert status == 200 and body["ok"], body
    status, body = panel(live.port, {"type": "no_more_bets"})
    assert status == 200 and body["ok"], body
    live.wait_until(lambda s: s["round"]["state"] != "open", "the lock-out")
