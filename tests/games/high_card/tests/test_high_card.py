"""High card, the tests' own game, as a game of the table: found by its entry point, its rules, its
round, its record settled again (by the ledger and by the installed `tablectl settle`), its par."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import tomllib
from fractions import Fraction
from importlib import metadata
from pathlib import Path

import pytest

from controller.cards import parse_card
from controller.games import registry
from controller.games.base import EventRefused, RoundAtTable
from controller.games.game import BooksPart, ConsolePart, Game, PlayPart, ProfilePart, TablePart
from controller.runtime.autoplay import Seating
from controller.report import facts, figures
from controller.runtime.ledger import Ledger

from high_card import GAME, par
from high_card.at_table import HighCardAtTable
from high_card.machine import HighCardRound, State
from high_card.profile import HighCardProfile
from high_card.rules import NAME, Rules, net, outcome
from tests.rounds import apply

BIN = Path(sys.executable).parent


def profile() -> HighCardProfile:
    with GAME.profiles.defaults[NAME].open("rb") as f:
        return HighCardProfile.model_validate(tomllib.load(f))


def test_the_game_is_registered_by_its_own_distributions_entry_point():
    points = {ep.name: ep for ep in metadata.entry_points(group=registry.GROUP)}
    assert points[GAME.key].dist is not None and points[GAME.key].dist.name == "tablectl-high-card"
    assert registry.game(NAME) is GAME and registry.by_key(GAME.key) is GAME
    assert isinstance(GAME, Game)
    for part, kind in (("profiles", ProfilePart), ("table", TablePart), ("books", BooksPart),
                       ("play", PlayPart), ("console", ConsolePart)):
        assert isinstance(getattr(GAME, part), kind), part
    assert GAME.profiles.models[NAME] is HighCardProfile
    assert (GAME.console.static / "dealer.js").is_file()


def test_higher_card_wins_even_money_and_a_tie_pushes():
    c = parse_card
    assert outcome(c("Kh"), c("Qs")) == "win" and net(500, c("Kh"), c("Qs")) == 500
    assert outcome(c("2h"), c("As")) == "lose" and net(500, c("2h"), c("As")) == -500
    assert outcome(c("9h"), c("9s")) == "push" and net(500, c("9h"), c("9s")) == 0   # suits never count


def test_a_round_machine_deals_each_wager_then_the_dealer_and_settles():
    m = HighCardRound(Rules(), seats=5)
    assert m.allowed() == ["no_more_bets", "wager"]
    with pytest.raises(EventRefused):
        apply(m, {"type": "no_more_bets"})   # nothing to deal to
    apply(m, {"type": "wager", "seat": 3, "stake": 1000})
    apply(m, {"type": "wager", "seat": 1, "stake": 500})
    apply(m, {"type": "no_more_bets"})
    with pytest.raises(EventRefused):
        apply(m, {"type": "wager", "seat": 2, "stake": 500})
    for card in ("Th", "Ts", "7c"):   # seat 1, seat 3, the dealer
        apply(m, {"type": "card", "card": parse_card(card)})   # as the table hands it: a Card
    assert m.state is State.SETTLING and m.cards[1] == parse_card("Th") and str(m.dealer) == "7c"
    apply(m, {"type": "settle"})
    assert m.settlement == {"seats": [{"seat": 1, "wager": {"stake": 500, "net": 500, "outcome": "win"}},
                                      {"seat": 3, "wager": {"stake": 1000, "net": 1000, "outcome": "win"}}],
                            "house_net": -1500}


def test_a_refused_event_changes_nothing():
    m = HighCardRound(Rules(), seats=5)
    for bad in ({"type": "wager", "seat": 9, "stake": 100}, {"type": "wager", "seat": 1, "stake": 0},
                {"type": "card", "card": "Ah"}, {"type": "settle"}, {"type": 3}):
        with pytest.raises(EventRefused):
            apply(m, bad)
    assert m.wagers == {} and m.state is State.WAGERS


def _table_round():
    state = GAME.table.state(profile())
    assert state.can_open() is None
    state.open_round()
    r = state.round
    assert isinstance(r, HighCardAtTable) and isinstance(r, RoundAtTable)
    assert r.deck_wanted() == 1   # each round's deck: shuffled, counted and loaded before the deal
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    apply(r, {"type": "shoe_loaded", "cards": 52})
    assert r.deck_wanted() is None
    return state, r


def test_the_round_at_the_table_takes_the_shoes_cards_and_journals_a_record_that_settles_again():
    state, r = _table_round()
    apply(r, {"type": "wager", "seat": 2, "stake": 2500})
    with pytest.raises(EventRefused):
        apply(r, {"type": "wager", "seat": 1, "stake": 100})   # under the table's minimum
    apply(r, {"type": "wager", "seat": 4, "stake": 500})
    apply(r, {"type": "no_more_bets"})
    assert r.cards_wanted() == 0 and "deal" in r.view()["round"]["allowed"]
    apply(r, {"type": "deal"})
    with pytest.raises(EventRefused):
        apply(r, ({"type": "card", "card": "Ah"}))   # cards come from the shoe
    for card in ("5d", "Qd", "Qc"):
        assert r.cards_wanted() == 1
        apply(r, {"type": "shoe_card", "card": parse_card(card)})   # as the shoe's driver reads it
    effects = apply(r, {"type": "settle"})
    assert r.closed and r.view()["round"]["allowed"] == []
    payload = next(e["payload"] for e in effects if e["type"] == "journal")
    assert payload["settlement"]["seats"] == [
        {"seat": 2, "wager": {"stake": 2500, "net": -2500, "outcome": "lose"}},
        {"seat": 4, "wager": {"stake": 500, "net": 0, "outcome": "push"}}]
    assert GAME.books.settle(payload["record"]) == payload["settlement"]
    assert r.view()["settlement"] == [   # the dealer's pay list: collect, then the ties returned
        {"seat": 2, "wager": "wager", "step": "collect", "amount": 2500},
        {"seat": 4, "wager": "wager", "step": "push", "amount": 500}]
    led, problems = Ledger(), []
    GAME.books.ledger(led, 7, r.round_id, payload, [], problems.append)
    assert problems == [] and led.settled == 1 and led.stakes["wager"] == 3000 and led.house_net == 2500
    state.after_close()
    assert state.dispensed == 3 and state.opening()["shoe"] == {"dispensed": 3}
    replayed = HighCardAtTable(r.opening)   # recovery: the same events make the same round
    for e in r.events:
        apply(replayed, e)
    assert replayed.record == r.record


def test_the_ledger_finds_a_record_that_does_not_settle_as_paid():
    _, r = _table_round()
    for e in ({"type": "wager", "seat": 1, "stake": 500}, {"type": "no_more_bets"}, {"type": "deal"},
              {"type": "shoe_card", "card": "2c"}, {"type": "shoe_card", "card": "3c"}, {"type": "settle"}):
        apply(r, (e))
    paid = json.loads(json.dumps(r.record))
    paid["settlement"]["seats"][0]["wager"]["net"] = 500   # paid a loss
    problems: list[str] = []
    GAME.books.ledger(Ledger(), 9, r.round_id, paid, [], problems.append)
    assert problems and "differs" in problems[0]


def test_a_deck_that_miscounts_is_not_dealt_and_is_shuffled_again():
    state = GAME.table.state(profile())
    state.open_round()
    r = state.round
    apply(r, {"type": "wager", "seat": 1, "stake": 500})
    apply(r, {"type": "no_more_bets"})
    effects = apply(r, {"type": "deck_count", "total": 51, "anomalies": [], "truncated": False})
    assert effects[0]["kind"] == "deck_count" and r.deck_wanted() == 2
    with pytest.raises(EventRefused):
        apply(r, {"type": "deal"})
    apply(r, {"type": "deck_count", "total": 52, "anomalies": [], "truncated": False})
    apply(r, {"type": "shoe_loaded", "cards": 52})
    apply(r, {"type": "deal"})
    assert r.alarms == [] and r.cards_wanted() == 1


def test_a_void_round_returns_every_wager():
    _, r = _table_round()
    apply(r, {"type": "wager", "seat": 1, "stake": 700})
    apply(r, {"type": "void_round", "reason": "shoe jammed"})
    assert r.closed and r.record["void"]["wagers"] == [{"seat": 1, "wager": 700}]
    led = Ledger()
    GAME.books.ledger(led, 3, r.round_id, r.record, [], lambda p: pytest.fail(p))
    assert led.voided == 1 and led.returned == 700


class Driver:
    """What the game's players ask of autoplay's driver (controller/runtime/autoplay.py Autoplay): the
    seating of a round and a door to the round, here the round at the table itself."""

    def __init__(self, r: HighCardAtTable) -> None:
        self.r = r
        self.who: list[str] = []

    def seating(self, round_id: str) -> Seating:
        return Seating(random.Random(round_id), (1, 3), 500, 500, 500)

    async def submit(self, event: dict, who: str = "autoplay-dealer", source: str = "autoplay") -> bool:
        apply(self.r, event)
        self.who.append(who)
        return True


def test_the_emulated_players_and_dealer_play_a_round_to_its_record():
    _, r = _table_round()
    driver = Driver(r)
    players = GAME.play.players(driver)   # type: ignore[arg-type]   # the driver's few doors the players use
    assert GAME.play.plan(driver.seating("x")).wagers == {1: 500, 3: 500}
    shoe = iter(["Ac", "Kd", "4h"])

    async def play_out() -> None:
        for _ in range(20):
            view = r.view()
            buttons = {b["event"]: b["enabled"] for b in view["round"]["buttons"]}
            if r.closed:
                assert not await players.between(view, view["round"], buttons)
                return
            if not await players.step(view, view["round"], buttons):
                assert r.cards_wanted()   # the shoe's turn, not the dealer's
                apply(r, {"type": "shoe_card", "card": parse_card(next(shoe))})
    asyncio.run(play_out())
    assert r.closed and [s["wager"]["outcome"] for s in r.record["settlement"]["seats"]] == ["win", "win"]
    assert driver.who[:2] == ["player-1", "player-3"] and set(driver.who[2:]) == {"autoplay-dealer"}


@pytest.mark.parametrize("decks", range(1, 9))
def test_the_house_edge_is_zero_by_symmetry_and_the_tie_is_one_rank(decks):
    c = par.chances(decks)
    assert par.house_edge(decks) == 0 and c["win"] == c["lose"]
    assert c["tie"] == Fraction(4 * decks - 1, 52 * decks - 1)
    assert sum(c.values()) == 1


def test_the_par_sheet_and_the_rules_line():
    sheet = GAME.books.par.compute(GAME.books.par.rules(profile()))
    assert sheet["house_edge"]["numerator"] == 0 and sheet["probabilities"]["tie"] == {
        "numerator": 1, "denominator": 17, "percent": 5.8824}   # 3 cards of 51 match the dealer's rank
    assert "0.0000%" in GAME.books.par.check(sheet)
    assert par.render(sheet)[0].startswith("High card: 1 deck")
    _, r = _table_round()
    assert GAME.books.retell is not None and GAME.books.retell.rules(r.opening) == "rules: high card, 1 deck, even money, a tie pushes; shoe at card 0"


def test_the_installed_tablectl_settle_settles_its_record():
    record = {"game": NAME, "rules": {"decks": 1}, "hands": [{"seat": 1, "wager": 500, "card": "Jh"}],
              "dealer": "Tc"}
    done = subprocess.run([str(BIN / "tablectl"), "settle", "-"], input=json.dumps(record), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["seats"] == [{"seat": 1, "wager": {"stake": 500, "net": 500, "outcome": "win"}}]


def _played() -> HighCardAtTable:
    _, r = _table_round()
    for e in ({"type": "wager", "seat": 2, "stake": 2500}, {"type": "wager", "seat": 4, "stake": 500},
              {"type": "no_more_bets"}, {"type": "deal"}, *({"type": "shoe_card", "card": parse_card(c)}
                                                            for c in ("5d", "Qd", "Qc")), {"type": "settle"}):
        apply(r, e)
    return r


def test_rounds_show_is_told_in_the_games_words():
    r, tell = _played(), GAME.books.retell
    assert tell is not None
    again, where = HighCardAtTable(r.opening), []
    for e in r.events:   # as `tablectl rounds show` replays it: where each card goes, asked before it is taken
        if e.type == "shoe_card":
            where.append(tell.destination(again, e))
        apply(again, e)
    assert where == ["seat 2", "seat 4", "dealer"]
    assert tell.describe(again, {"type": "wager", "seat": 2, "stake": 2500}, None, []) == "wager seat 2 $25.00"
    assert tell.describe(again, {"type": "deal"}, None, []) is None   # every banked game's words
    assert tell.settlement(r.record, {}) == ["dealer: Qc", "  seat 2: 5d  wager $25.00 lose -$25.00",
                                             "  seat 4: Qd  wager $5.00 push $0.00"]


def test_the_report_adds_up_its_wager_and_its_section_counts_the_ties():
    r = _played()
    assert GAME.books.owns(r.record) and not registry.by_key("casino_war").books.owns(r.record)
    fact = facts.round_fact(5, "2026-12-02T10:00:00Z", r.round_id, r.record)
    assert fact["wagers"] == {"wager": {"handle": 2500, "paid": 0, "house_win": 2500}}   # a tie is in no handle
    assert fact["ties"] == {"hands": 2, "ties": 1, "returned": 500}
    out = figures.table_report([fact, {**fact, "at": "2026-12-02T11:00:00Z"}], "HC-01", None,
                               "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z")
    assert out["rounds"] == 2 and out["house_win"] == 5000 and out[GAME.key] == {"hands": 4, "ties": 2, "returned": 1000}
    section = next(s for s in GAME.books.report if s.name == GAME.key)
    assert section.text(out[GAME.key]) == ["  high card: 4 hands, 2 tied and pushed ($10.00 returned)"]
    assert section.total([out[GAME.key], None]) == out[GAME.key]
    assert section.screen(None) == {"line": "", "readings": []}
    other = figures.table_report([], "CW-01", None, "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z")
    assert other[GAME.key] is None   # a table that dealt no high card has none of the section


def test_the_par_sheets_screen():
    sheet = GAME.books.par.compute(GAME.books.par.rules(profile()))
    rows = GAME.books.par.screen(sheet)[0]["rows"]
    assert [row[2] for row in rows] == ["par-house-edge", "par-win", "par-lose", "par-tie"]
    assert rows[0][1] == sheet["house_edge"]
