"""One wager list per game: the ledger adds up and the report counts the wagers its game's books name.

Before issue 27 the ledger and the report each kept a list of every game's wagers, and the two
differed ("surrender", an outcome of casino war's initial wager, not a wager). Now each game's books
say its wagers (`books.wagers`), the ledger adds up exactly those, and every wager the report
counts for a table is one of them.
"""

from __future__ import annotations

from controller.games import registry
from controller.journal.store import Journal
from controller.runtime.ledger import of_journal
from tests.report.report_helpers import report_json


def test_the_ledger_and_the_report_count_the_wagers_of_the_game_s_books(played):
    for game, data in played.items():
        wagers = set(registry.game(game).books.wagers)
        with Journal.open(data, readonly=True) as journal:
            ledger = of_journal(journal)
        assert ledger.problems == [] and ledger.settled > 0, (game, ledger.problems)
        table = report_json(data)["tables"][0]
        if wagers:   # a banked game: the players' wagers against the house
            assert set(ledger.stakes) <= wagers and set(ledger.stakes), (game, dict(ledger.stakes))
            assert set(table["wagers"]) <= wagers and set(table["wagers"]), (game, table["wagers"])
        else:        # a poker game: no wager of the house's; what the house took is its section's
            assert table["wagers"] == {} and table["poker"]["hands"] == ledger.settled


def test_casino_war_s_wagers_are_its_layout_s_and_surrender_is_not_one():
    assert tuple(registry.game("casino-war").books.wagers) == ("initial", "tie", "war", "war_tie")
    assert tuple(registry.game("caribbean-stud").books.wagers) == ("ante", "bet", "progressive")
