"""The rake taken round by round at the table (issue 31, item 2): 5324.42(o)(2)(i)(b), (o)(2)(ii)(b), (r)(3).

After each betting round the table asks the dealer to put that round's rake into the rake area and
waits for the touch before the console deals the next card; the pots show the rake taken so far.
"""

from __future__ import annotations

import pytest

from controller.config import load_profile
from controller.games.base import EventRefused
from controller.games.poker.contract import check_view
from controller.runtime.tablestate import TableState
from tests.rounds import apply, table_event


def holdem(*seats: int):
    state = TableState(load_profile("config/texas-holdem.toml"))
    for seat in seats:
        table_event(state, {"type": "sit", "seat": seat, "stack": 20_000})
    state.open_round()
    r = state.round
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    return r


def act(r, *texts: str) -> None:
    for text in texts:
        apply(r, {"type": "action", "action": text})


def test_o2ib_each_rounds_rake_waits_for_the_dealers_touch_before_the_next_card():
    """(o)(2)(i)(b): 10% of the round's sums, in whole $1 chips, collected after the round and placed
    in the rake area as play progresses; the console's next card waits for "Rake taken"."""
    r = holdem(1, 2, 3, 4)
    apply(r, {"type": "deal_hole", "up": {}})
    assert r.view()["poker"]["rake_due"] is None and r.view()["poker"]["raked"] == 0
    act(r, "p3 cbr 1000", "p4 cc", "p1 cc", "p2 cc")             # $40 in the middle: $4 rake, then the drop
    view = r.view()
    check_view(view)
    assert view["poker"]["rake_due"] == {"rake": 400, "jackpot": 100}
    assert view["round"]["next_step"].startswith("Rake $4.00 into the rake area, then the jackpot drop $1.00")
    assert view["poker"]["raked"] == 400 and view["poker"]["dropped"] == 100
    with pytest.raises(EventRefused, match=r"Rake taken \(5324\.42\(o\)\(2\)\(i\)\(b\)\)"):
        apply(r, {"type": "deal_board", "cards": ["2c", "3c", "4c"]})
    apply(r, {"type": "rake_taken"})
    assert r.view()["poker"]["rake_due"] is None
    with pytest.raises(EventRefused, match="no rake is due"):
        apply(r, {"type": "rake_taken"})
    apply(r, {"type": "deal_board", "cards": ["2c", "3c", "4c"]})
    act(r, "p1 cbr 1000", "p2 cc", "p3 f", "p4 f")                 # $20 more: $2, but the $5 cap leaves $1
    assert r.view()["poker"]["rake_due"] == {"rake": 100, "jackpot": 0}
    apply(r, {"type": "rake_taken"})
    assert r.view()["poker"]["raked"] == 500


def test_o2ib_a_round_under_the_minimum_pot_takes_no_rake_and_asks_for_no_touch():
    r = holdem(1, 2, 3)
    apply(r, {"type": "deal_hole", "up": {}})
    act(r, "p3 cc", "p1 cc", "p2 cc")                              # $6: under the $10 minimum pot
    assert r.view()["poker"]["rake_due"] is None
    apply(r, {"type": "deal_board", "cards": ["2c", "3c", "4c"]})
