"""One poker hand of 5324.42, taken one action at a time as the dealer enters it.

The hand posts the antes and blinds when it is made ((c)(2), (c)(11), (i)(4)), then
waits for the dealer's cards and the players' actions in the order the regulation
deals and bets each game (the game's `Variant` says which). At any moment it says
whose turn it is and what they may do, what the dealer still owes, and what is in
the pots. An action out of turn, of the wrong size, or after the hand is over raises
`IllegalAction` naming the action, and the hand is left exactly as it was: every
check is made before anything changes.

The hand is pure (no I/O, no clock) and is rebuilt from its set-up and its actions
(`Hand.replay`), which is how a journal restores it and how a PHH file is replayed.

The table's rake and jackpot (`HandSetup.rake`, `.jackpot`) are taken as each betting
round ends (rake.py, 5324.42(o), (r)(3)); the irregularities of 5324.42(p) are actions
too (`d misdeal position`, `p3 foul refund`, ...; irregularities.py), so a hand with a
misdeal or an exposed card is journaled and replayed like any other. irregularities.py
decides whether such an event may be entered and what it comes to; the hand carries it
out through its own methods of the provision (`misdeal`, `call_round_dead`,
`call_hand_dead`, `exchange_exposed_card`, ...), so only the hand changes its state.

Players are numbered from 0 in PHH order: in a button game the first player after
the button (the small blind) is 0 and the button is last; in stud the player to the
dealer's left is 0. Heads-up, the blinds and antes apply in reverse, as PHH reads
them (phh-std, "Antes", "Blinds or Straddles").
"""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

from controller.poker import showdown
from controller.poker.actions import (
    BET_RAISE, BRING_IN, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, DISCARD, DRAW, FOLD, IRREGULARITIES, SHOW, SHOW_KNOWN,
    Action, Cards, format_action,
)
from controller.poker.betting import BettingRound, Options, collect
from controller.poker.stub import BOARD, MUCK, Deck, card_text
from controller.poker.errors import IllegalAction, SetupError, whole
from controller.poker.irregularities import apply_irregularity
from controller.poker.outcome import HandResult, Phase
from controller.poker.pots import Pot, build_pots
from controller.poker.variants import DeckOut, HandKind, Opener, Street, Variant

if TYPE_CHECKING:   # imported on use: a hand without rake or jackpot never loads them
    from controller.poker.jackpot import JackpotRule
    from controller.poker.rake import RakeRule, Take

DEFAULT_RAISE_CAP = 4   # a bet and three raises a round in fixed limit, unless the table says otherwise


class IncompleteHand(ValueError):
    """The hand cannot be settled yet: something is still owed (named in the message)."""




@dataclass(frozen=True)
class HandSetup:
    """Everything fixed before the cards: the game, the stakes, the stacks, the forced bets.

    `antes` and `blinds` are per player in PHH order (`blinds` is PHH's
    blinds_or_straddles: the small and big blind, and a straddle after them).
    `small_bet`/`big_bet` are the fixed-limit sizes; in pot and no limit both are the
    minimum bet. `raise_cap` is the table's cap on bets and raises per round in fixed
    limit (None for no cap; the bring-in and the blinds do not count).
    """

    variant: Variant
    starting_stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    raise_cap: int | None = DEFAULT_RAISE_CAP
    ante_trimming: bool = False
    rake: RakeRule | None = None             # 5324.42(o): the table's rake (PHH `_rake`)
    jackpot: JackpotRule | None = None       # 5324.42(r): the table's jackpot (PHH `_jackpot`)
    kill_blind: int | None = None            # 5324.42(j)(9): the player who posts the kill blind
    chip: int = 1                            # the table's smallest chip: pots are split in it (h)(9), (j)(6)(ii)

    def __post_init__(self) -> None:
        v = self.variant
        if not isinstance(v, Variant):
            raise SetupError("variant", f"must be a Variant, not {v!r}")
        for name in ("starting_stacks", "antes", "blinds"):
            value = getattr(self, name)
            if not isinstance(value, (tuple, list)):
                label = "blinds_or_straddles" if name == "blinds" else name
                raise SetupError(label, f"must be a list, not {value!r}")
            object.__setattr__(self, name, tuple(value))
        n = len(self.starting_stacks)
        if n < 2:
            raise SetupError("starting_stacks", f"{n} player(s); poker needs at least 2 (5324.42(f)(2))")
        if n > v.max_players:
            raise SetupError("starting_stacks",
                             f"{n} players; {v.name} seats at most {v.max_players} ({v.provision})")
        for i, s in enumerate(self.starting_stacks):
            whole(s, f"starting_stacks[{i}]", 1)
        for name, label in (("antes", "antes"), ("blinds", "blinds_or_straddles")):
            values = getattr(self, name)
            if len(values) != n:
                raise SetupError(label, f"has {len(values)} entries for {n} players")
            for i, a in enumerate(values):
                whole(a, f"{label}[{i}]", 0)
        kill = self.kill_blind
        if kill is not None:
            self._check_kill(kill, n)
        if v.button:
            # The blinds are posted by the players in turn after the button ((i)(4)), a
            # straddle by the one after the big blind ((c)(11)): no gaps. A kill blind
            # ((j)(9)) is posted wherever the kill lammer is.
            posted = [i for i, b in enumerate(self.blinds) if b]
            if kill in posted and posted != list(range(len(posted))):
                posted.remove(kill)
            if posted and posted != list(range(len(posted))):
                gap = next(i for i, p in enumerate(posted) if p != i)
                raise SetupError(
                    f"blinds_or_straddles[{posted[gap]}]",
                    "blinds and a straddle are posted by the players in turn after the button, "
                    "with no gap (5324.42(i)(4), (c)(11))")
            if self.bring_in:
                raise SetupError("bring_in", f"{v.name} has blinds, not a bring-in")
        else:
            if any(self.blinds):
                raise SetupError("blinds_or_straddles", f"{v.name} has a bring-in, not blinds (5324.42(h)(4))")
        whole(self.small_bet, "small_bet" if v.fixed_limit else "min_bet", 1)
        whole(self.big_bet, "big_bet" if v.fixed_limit else "min_bet", 1)
        if not v.fixed_limit and self.big_bet != self.small_bet:
            raise SetupError("min_bet", f"{v.name} has one minimum bet, not a small bet of {self.small_bet} "
                                        f"and a big bet of {self.big_bet}")
        if v.bring_in_game:
            whole(self.bring_in, "bring_in", 1)
            if self.bring_in >= self.small_bet:
                raise SetupError("bring_in", f"{self.bring_in} must be below the small bet of {self.small_bet}")
        if not any(self.antes) and not any(self.blinds) and not self.bring_in:
            raise SetupError("antes", "no ante, blind or bring-in: nothing opens the pot")
        if self.raise_cap is not None:
            whole(self.raise_cap, "raise_cap", 1)
        whole(self.chip, "_chip", 1)
        if not isinstance(self.ante_trimming, bool):
            raise SetupError("ante_trimming_status", f"must be true or false, not {self.ante_trimming!r}")
        if self.rake is not None:
            from controller.poker.rake import IncrementalRake, PercentageRake, TimeCharge
            if not isinstance(self.rake, (PercentageRake, IncrementalRake, TimeCharge)):
                raise SetupError("_rake", f"must be a rake rule of controller.poker.rake, not {self.rake!r}")
        if self.jackpot is not None:
            from controller.poker.jackpot import JackpotRule
            if not isinstance(self.jackpot, JackpotRule):
                raise SetupError("_jackpot", f"must be a JackpotRule, not {self.jackpot!r}")

    def _check_kill(self, kill: object, n: int) -> None:
        """5324.42(j)(9): the kill blind is the one blind of its player, the increased minimum wager."""
        v = self.variant
        if HandKind.OMAHA_LOW_8 not in v.hands:
            raise SetupError("_kill_blind", f"{v.name} has no kill; it is offered in Omaha high-low split "
                                            "eight or better (5324.42(j)(9))")
        if isinstance(kill, bool) or not isinstance(kill, int) or not 0 <= kill < n:
            raise SetupError("_kill_blind", f"{kill!r} is not a player of a hand of {n}")
        posted = self.blinds[kill] if n > 2 else self.blinds[1 - kill]   # heads-up the blinds are reversed
        if posted != self.small_bet:
            raise SetupError(f"blinds_or_straddles[{kill if n > 2 else 1 - kill}]",
                             f"the kill blind is the increased minimum wager, {self.small_bet}, not {posted} "
                             "(5324.42(j)(9))")

    @property
    def players(self) -> int:
        return len(self.starting_stacks)

    def with_straddle(self) -> "HandSetup":
        """This set-up with a straddle of twice the big blind by the player after it (5324.42(c)(11))."""
        v = self.variant
        if not v.button:
            raise SetupError("blinds_or_straddles", f"{v.name} has no blinds to straddle")
        blinds = list(self.blinds)
        posted = [i for i, b in enumerate(blinds) if b]
        if len(posted) < 2:
            raise SetupError("blinds_or_straddles", "a straddle follows the big blind; there is none")
        seat = posted[-1] + 1
        if seat >= len(blinds) or (self.players == 2):
            raise SetupError("blinds_or_straddles", "no player follows the big blind to straddle")
        blinds[seat] = 2 * blinds[posted[-1]]
        return dataclasses.replace(self, blinds=tuple(blinds))


_PLAYS = frozenset({CHECK_CALL, DEAL_HOLE, BET_RAISE, FOLD, DEAL_BOARD, SHOW, DRAW, BRING_IN, DISCARD})
_BETTING = frozenset({FOLD, CHECK_CALL, BET_RAISE, BRING_IN})


def _named(cards: Cards | str | None) -> Cards:
    """The cards of a deal, draw or discard (apply() has refused any that name none)."""
    if not isinstance(cards, tuple):
        raise TypeError(f"{cards!r} is not a tuple of cards")
    return cards


def _known(cards: Sequence[int | None]) -> list[int]:
    """Cards that are all known by now (a contested hand at the showdown has been shown)."""
    out = [c for c in cards if c is not None]
    if len(out) != len(cards):
        raise RuntimeError("a card of a shown hand is still unknown")
    return out


def _seat(player: int | None) -> str:
    return "no one" if player is None else f"p{player + 1}"


class Hand:
    """A hand in progress; see the module docstring."""

    __slots__ = (
        "setup", "variant", "n", "stacks", "bets", "committed", "antes", "live", "folded", "mucked", "hole", "up",
        "board", "deck", "log", "log_streets", "street_index", "phase", "owed", "owed_board", "draw_turn",
        "draw_checked", "discard_turn", "discards_done", "owed_total", "_street", "_draws_after", "round",
        "aggressor", "expected", "result", "_blind_seats", "marks",
        # irregularities (irregularities.py)
        "voluntary", "choosing", "reserved", "preburn", "exposures", "street_start", "dealt_from",
    )

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        self.variant = setup.variant
        n = self.n = setup.players
        self.stacks = list(setup.starting_stacks)
        self.bets = [0] * n
        self.committed = [0] * n
        self.antes = [0] * n
        self.live = [True] * n        # still in: neither folded nor mucked
        self.folded = [False] * n
        self.mucked = [False] * n
        self.hole: list[list[int | None]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.deck = Deck()
        self.log: list[Action] = []
        self.log_streets: list[int] = []   # the street of each action, for writing draws in PHH order
        self.street_index = -1
        self.phase = Phase.DEAL
        self.owed: list[list[bool]] = [[] for _ in range(n)]
        self.owed_board = 0
        self.owed_total = 0
        self.draw_turn: deque[int] = deque()
        self.draw_checked: set[int] = set()
        self.discard_turn: deque[int] = deque()
        self.discards_done = True
        self.round: BettingRound | None = None
        self.aggressor = 0
        self.expected: list[int] = []
        self.result: HandResult | None = None
        # What each player had put in at the end of each betting round, the uncalled bet
        # returned: the rake and the jackpot contribution are reckoned on it (rake.py).
        self.marks: list[tuple[int, ...]] = []
        self.voluntary: set[int] = set()        # players who put chips in of their own accord (p)(1)
        self.choosing: set[int] = set()         # players owing the choice of (p)(6)(i)-(ii)
        self.reserved: dict[int, int] = {}      # chips set aside by that choice, back at the end
        self.preburn: int | None = None         # an exposed card kept as the burn before the flop (p)(9)(ii)
        self.exposures = [0] * n                # hole cards exposed on the first street (p)(6)
        self.street_start = 0
        self.dealt_from = [0] * n
        self._blind_seats = self._effective(setup.blinds)
        self._draws_after = self.variant.draws_after
        self._post_forced_bets()
        self._begin_street(0)

    # --- rebuilding ------------------------------------------------------------------

    @classmethod
    def replay(cls, setup: HandSetup, actions: Iterable[Action]) -> "Hand":
        """The hand after these actions (raises IllegalAction at the first one refused)."""
        hand = cls(setup)
        for action in actions:
            hand.apply(action)
        return hand

    def apply(self, action: Action) -> None:
        """Take one action (see controller.poker.actions); IllegalAction if the rules refuse it."""
        kind, player, cards, amount, _ = action
        if kind in IRREGULARITIES:
            apply_irregularity(self, action)
            return
        if kind not in _PLAYS:
            raise IllegalAction(str(kind), "not an action of a poker hand")
        if kind == DEAL_BOARD:
            if not isinstance(cards, tuple):
                raise self._refuse(action, "no cards named")
            self.deal_board(cards, action)
            return
        if isinstance(player, bool) or not isinstance(player, int):
            raise self._refuse(action, f"there is no such player in a hand of {self.n}")
        if kind == SHOW:
            self.show_or_muck(player, cards, action)
            return
        if kind in (DEAL_HOLE, DRAW, DISCARD) and not isinstance(cards, tuple):
            raise self._refuse(action, "no cards named")
        if kind == CHECK_CALL:
            self.check_or_call(player, action)
        elif kind == DEAL_HOLE:
            self.deal_hole(player, _named(cards), action)
        elif kind == BET_RAISE:
            self.bet_or_raise_to(player, amount, action)
        elif kind == FOLD:
            self.fold(player, action)
        elif kind == DRAW:
            self.draw(player, _named(cards), action)
        elif kind == BRING_IN:
            self.post_bring_in(player, action)
        else:
            self.discard(player, _named(cards), action)

    # --- forced bets -------------------------------------------------------------------

    def _effective(self, values: tuple[int, ...]) -> list[int]:
        """Per-player amounts as posted: heads-up, PHH gives them in reverse."""
        if self.n == 2:
            return [values[1], values[0]]
        return list(values)

    def _post_forced_bets(self) -> None:
        setup = self.setup
        stacks, committed = self.stacks, self.committed
        # Antes before any card (c)(2)(i); a player short of the ante is all-in with it.
        antes = self._effective(setup.antes)
        for i, a in enumerate(antes):
            a = min(a, stacks[i])
            stacks[i] -= a
            committed[i] += a
            self.antes[i] = a
        if setup.ante_trimming and self.n > 1:
            # Uniform antes: an ante above what anyone else could match comes back.
            cutoff = sorted(self.antes)[-2]
            for i, a in enumerate(self.antes):
                if a > cutoff:
                    stacks[i] += a - cutoff
                    committed[i] -= a - cutoff
                    self.antes[i] = cutoff
        # Blinds and a straddle, as posted (c)(2)(ii), (c)(11), (i)(4).
        starting = setup.starting_stacks
        for i, b in enumerate(self._blind_seats):
            if b:
                b = min(b, starting[i] - min(antes[i], starting[i]), stacks[i])
                self.bets[i] = b
                stacks[i] -= b
                committed[i] += b

    # --- queries -------------------------------------------------------------------------

    @property
    def street(self) -> Street:
        return self._street

    @property
    def betting(self) -> BettingRound:
        """The open betting round: there is one exactly while the phase is BET."""
        if self.round is None:
            raise RuntimeError("no betting round is open")
        return self.round

    @property
    def to_act(self) -> int | None:
        """The player whose turn it is: to bet, to draw, to discard, or first to show."""
        if self.phase is Phase.BET:
            return self.betting.to_act
        if self.phase is Phase.DEAL:
            if self.choosing:
                return min(self.choosing)
            if self.discard_turn:
                return self.discard_turn[0]
            if self.draw_turn:
                return self.draw_turn[0]
            return None
        if self.phase is Phase.SHOWDOWN and self.expected:
            return self.expected[0]
        return None

    def options(self) -> Options | None:
        """What the player to bet may do (None outside a betting round): a bet or raise to a whole
        number of the table's smallest chip (`setup.chip`), or all in."""
        if self.phase is not Phase.BET or self.betting.to_act is None:
            return None
        o = self.betting.options(self.betting.to_act)
        chip = self.setup.chip
        if chip == 1 or o.raise_min is None or o.raise_max is None:
            return o
        all_in = self.bets[o.player] + self.stacks[o.player]
        low = o.raise_min if o.raise_min == all_in else -(-o.raise_min // chip) * chip
        high = o.raise_max if o.raise_max == all_in else o.raise_max // chip * chip
        return dataclasses.replace(o, raise_min=min(low, high), raise_max=high)

    def dealer_owes(self) -> dict[str, dict[int, tuple[bool, ...]] | int]:
        """The cards the dealer still owes this street: per player (True = face up) and to the board."""
        return {
            "hole": {i: tuple(o) for i, o in enumerate(self.owed) if o},
            "board": self.owed_board,
        }

    @property
    def showing(self) -> list[int]:
        """Players who may show or muck now (all-in before the last street, or the showdown)."""
        return list(self.expected)

    def pots(self) -> list[Pot]:
        """The pots as they stand, the bets of the open round not yet in them, less the rake
        and the jackpot contribution taken at the end of each round so far."""
        collected = [c - b for c, b in zip(self.committed, self.bets, strict=True)]
        pots = build_pots(collected, self.antes, self.folded, self.mucked, self.setup.ante_trimming)
        self._take(pots)
        return pots

    def _take(self, pots: list[Pot]) -> Take | None:
        """Put the rake and the jackpot contribution of the rounds so far on `pots` (5324.42(o), (r)(3))."""
        setup = self.setup
        if setup.rake is None and setup.jackpot is None:
            return None
        from controller.poker.rake import house_take
        if setup.ante_trimming:
            marks, dead = self.marks, 0
        else:
            antes = self.antes
            marks = [tuple(c - a for c, a in zip(mark, antes, strict=True)) for mark in self.marks]
            dead = sum(antes)
        take = house_take(setup.rake, setup.jackpot, marks, dead, pots, chip=setup.chip)
        for pot, rake, jackpot in zip(pots, take.rake, take.jackpot, strict=True):
            pot.rake = rake
            pot.jackpot = jackpot
        return take

    @property
    def finished(self) -> bool:
        return self.phase is Phase.COMPLETE

    @property
    def betting_begun(self) -> bool:
        """Someone has bet, called, checked, folded or brought in on this street: an exposed
        card is dealt with only before (5324.42(p)(6), (p)(9)), and a dead hand before it
        reopens the round without that hand."""
        return any(a.kind in _BETTING for a in self.log[self.street_start:])

    @property
    def blind_seats(self) -> tuple[int, ...]:
        """The blind or straddle each player is to post, by player (PHH lists them in reverse
        heads-up, (i)(4)): the amounts as set, before a short stack caps what is posted."""
        return tuple(self._blind_seats)

    # --- helpers for refusals --------------------------------------------------------------

    def _refuse(self, action: Action, reason: str | None) -> IllegalAction:
        """The refusal of `action`; `reason` is None only where a check above has found one."""
        return IllegalAction(format_action(action), reason or "the rules refuse it")

    def _player_refusal(self, player: object) -> str | None:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.n:
            return f"there is no such player in a hand of {self.n}"
        if not self.live[player]:
            return f"p{player + 1} is out of the hand"
        return None

    def _phase_refusal(self, wanted: Phase) -> str | None:
        phase = self.phase
        if phase is wanted:
            return None
        if phase is Phase.COMPLETE:
            return "the hand is over"
        if phase is Phase.BET:
            return f"the betting round is open: {_seat(self.betting.to_act)} is to act"
        if phase is Phase.SHOWDOWN:
            return "the last betting round is over: the showdown is on"
        return self._dealing_description()

    def _dealing_description(self) -> str:
        if self.choosing:
            return (f"p{min(self.choosing) + 1} is to choose to contend for the whole pot or only the part "
                    "formed so far (5324.42(p)(6))")
        if self.discard_turn:
            return f"p{self.discard_turn[0] + 1} is to discard"
        if self.draw_turn:
            return f"p{self.draw_turn[0] + 1} is to draw"
        owed = [f"p{i + 1}" for i, o in enumerate(self.owed) if o]
        what = []
        if owed:
            what.append("cards to " + ", ".join(owed))
        if self.owed_board:
            what.append(f"{self.owed_board} board card{'s' if self.owed_board > 1 else ''}")
        return f"the dealer still owes {' and '.join(what) or 'cards'} on the {self.street.name}"

    # --- dealing -----------------------------------------------------------------------

    def _begin_street(self, index: int) -> None:
        self.street_index = index
        street = self._street = self.variant.streets[index]
        self.phase = Phase.DEAL
        self.expected = []
        self.street_start = len(self.log)
        self.dealt_from = [len(h) for h in self.hole]
        deck = self.deck
        if street.burn and index == 1 and self.preburn is not None:
            # (p)(9)(ii): an exposed hole card was kept as the burn card before the flop
            street = dataclasses.replace(street, burn=False)
        live = [i for i in range(self.n) if self.live[i]]
        if street.draw:
            if street.burn:
                deck.burn()
            self.draw_turn = deque(live)
            self.draw_checked = set()
        elif street.hole:
            needed = len(live) * len(street.hole)
            burn = 1 if street.burn else 0
            if self.variant.deck_out is DeckOut.COMMON_CARD and deck.stub - burn < needed:
                # (h)(8): not enough cards for everyone: the top card is burned and one
                # common card dealt face up in the centre; if one card or none is left
                # for it, the burn cards are shuffled, a card burned, and then it is dealt.
                deck.burn()
                if deck.stub <= 1:
                    deck.shuffle_burns()
                    deck.burn()
                self.owed_board = 1
            else:
                if burn:
                    deck.burn()
                for i in live:
                    self.owed[i] = list(street.hole)
                self.owed_total = needed
        elif street.burn:
            deck.burn()
        if street.board:
            self.owed_board += street.board
        self.discards_done = not street.discard
        if street.discard and not street.discard_after_deal:
            # Pineapple (n)(7): each player throws one hole card away before the flop.
            self.discards_done = True
            self.discard_turn = deque(live)

    def _dealing_done(self) -> bool:
        return not (self.owed_board or self.owed_total or self.draw_turn or self.discard_turn or self.choosing)

    def _after_dealing(self) -> None:
        self.expected = []   # the first card of a street closes an all-in showing
        if not self._dealing_done():
            return
        street = self.street
        if street.discard and not self.discards_done:
            # Crazy pineapple (n)(9): the discards come once the flop is out.
            self.discards_done = True
            self.discard_turn = deque(i for i in range(self.n) if self.live[i])
            return
        self._begin_betting()

    def deal_hole(self, player: int, cards: Cards, _action: Action | None = None) -> None:
        """The dealer deals `cards` (None for a card not seen) to a player."""
        action = _action or Action(DEAL_HOLE, player, cards)
        if (self.phase is not Phase.DEAL or type(player) is not int or not 0 <= player < self.n
                or not self.live[player]):
            raise self._refuse(action, self._phase_refusal(Phase.DEAL) or self._player_refusal(player))
        owed = self.owed[player]
        k = len(cards)
        if not owed or not k or k > len(owed):
            raise self._refuse(action, self._owed_refusal(player, k))
        if None in cards:
            for i, c in enumerate(cards):
                if c is None and owed[i]:
                    raise self._refuse(action, "a card dealt face up must be named")
        deck = self.deck
        draw = self._street.draw
        reshuffle = None
        if draw and player not in self.draw_checked and deck.stub < len(owed):
            reshuffle = self._reshuffle_excluded(player)
            why = self._refusal_after_reshuffle(cards, reshuffle)
        else:
            why = deck.refusal(cards)
        if why:
            raise self._refuse(action, why)
        # --- accepted ---
        if draw:
            self.draw_checked.add(player)
        if reshuffle is not None:
            deck.reshuffle(self.street_index, reshuffle)
        deck.take(cards, player)
        self.hole[player].extend(cards)
        self.up[player].extend(owed[:k])
        del owed[:k]
        self.owed_total -= k
        self.log.append(action)
        self.log_streets.append(self.street_index)
        self._after_dealing()

    def _owed_refusal(self, player: int, k: int) -> str:
        owed = self.owed[player]
        if not owed:
            if player in self.draw_turn:
                return f"p{player + 1} has not yet discarded or stood pat"
            return f"p{player + 1} is owed no cards now; {self._dealing_description()}"
        if not k:
            return "no cards named"
        return f"p{player + 1} is owed {len(owed)} card{'s' if len(owed) > 1 else ''}, not {k}"

    def _reshuffle_excluded(self, player: int) -> frozenset[int]:
        """Whose discards of this draw stay out of a reshuffle ((l)(6) / (k)(6)(ii)).

        Triple draw (l)(6): the drawing player's own. Five-card draw (k)(6)(ii): those of
        the players who have not yet asked for their cards; at the table each player
        discards when served, so the pile then holds the discards of the players served
        before and the drawing player's own, and PHH's order (every discard first) is
        read the same way.
        """
        if self.variant.deck_out is DeckOut.RESHUFFLE_UNDRAWN:
            waiting = {i for i in range(self.n) if self.owed[i] and i not in self.draw_checked}
            return frozenset(waiting - {player})
        return frozenset({player})

    def _refusal_after_reshuffle(self, cards: Cards, excluded: frozenset[int]) -> str | None:
        deck = self.deck
        pool = [c for c, owner, s in deck.pile if not (s == self.street_index and owner in excluded)]
        if len(cards) > deck.stub + len(pool):
            return f"the deck and the reshuffled discards hold only {deck.stub + len(pool)} cards"
        known = {c for c in pool if c is not None}
        seen: set[int] = set()
        for c in cards:
            if c is None:
                continue
            if c in seen:
                return f"{card_text(c)} is dealt twice in one action"
            seen.add(c)
            if c in known:
                continue
            why = deck.unavailable(c)
            if why:
                if any(pc == c for pc, _, _ in deck.pile):
                    if self.variant.deck_out is DeckOut.RESHUFFLE_UNDRAWN:
                        return (f"{card_text(c)} is the discard of a player not yet served, which stays out "
                                "of the reshuffle (5324.42(k)(6)(ii))")
                    return f"{card_text(c)} is the drawing player's own discard, which stays out of the reshuffle"
                return why
        return None

    def deal_board(self, cards: Cards, _action: Action | None = None) -> None:
        """The dealer deals community cards (or a stud common card, (h)(8))."""
        action = _action or Action(DEAL_BOARD, None, cards)
        why = self._phase_refusal(Phase.DEAL)
        if why:
            raise self._refuse(action, why)
        if not self.owed_board:
            raise self._refuse(action, f"no board card is due; {self._dealing_description()}")
        if not cards:
            raise self._refuse(action, "no cards named")
        if len(cards) > self.owed_board:
            raise self._refuse(action, f"{self.owed_board} board card{'s are' if self.owed_board > 1 else ' is'} due, "
                                       f"not {len(cards)}")
        if self.discard_turn:
            raise self._refuse(action, f"p{self.discard_turn[0] + 1} is to discard first")
        if None in cards:
            raise self._refuse(action, "a board card must be named")
        why = self.deck.refusal(cards)
        if why:
            raise self._refuse(action, why)
        self.deck.take(cards, BOARD)
        self.board.extend(_known(cards))   # refused above if one is not named
        self.owed_board -= len(cards)
        self.log.append(action)
        self.log_streets.append(self.street_index)
        self._after_dealing()

    def _match_cards(self, player: int, cards: Cards) -> list[int] | str:
        """Positions in the player's hand of `cards` (unknown cards match unknown ones), or why not."""
        hand = self.hole[player]
        taken: list[int] = []
        for c in cards:
            for k, h in enumerate(hand):
                if h == c and k not in taken:
                    taken.append(k)
                    break
            else:
                return f"p{player + 1} does not hold {card_text(c)}"
        return taken

    def draw(self, player: int, cards: Cards, _action: Action | None = None) -> None:
        """A player discards `cards` to draw as many, or stands pat with none ((k), (l)(6))."""
        action = _action or Action(DRAW, player, cards)
        why = self._phase_refusal(Phase.DEAL) or self._player_refusal(player)
        if why:
            raise self._refuse(action, why)
        if not self.draw_turn:
            raise self._refuse(action, f"no draw now; {self._dealing_description()}")
        if player != self.draw_turn[0]:
            raise self._refuse(action, f"out of turn: p{self.draw_turn[0] + 1} is to draw")
        places = self._match_cards(player, cards)
        if isinstance(places, str):
            raise self._refuse(action, places)
        hand, up = self.hole[player], self.up[player]
        statuses = [up[k] for k in places]
        for k in sorted(places, reverse=True):
            del hand[k]
            del up[k]
        self.deck.discard(cards, player, self.street_index)
        self.owed[player] = statuses
        self.owed_total += len(statuses)
        self.draw_turn.popleft()
        self.log.append(action)
        self.log_streets.append(self.street_index)
        self._after_dealing()

    def discard(self, player: int, cards: Cards, _action: Action | None = None) -> None:
        """A player throws away hole cards with no replacement (pineapple, 5324.42(n)(7), (n)(9))."""
        action = _action or Action(DISCARD, player, cards)
        why = self._phase_refusal(Phase.DEAL) or self._player_refusal(player)
        if why:
            raise self._refuse(action, why)
        if not self.discard_turn:
            raise self._refuse(action, f"no discard now; {self._dealing_description()}")
        if player != self.discard_turn[0]:
            raise self._refuse(action, f"out of turn: p{self.discard_turn[0] + 1} is to discard")
        wanted = self.street.discard
        if len(cards) != wanted:
            raise self._refuse(action, f"discard exactly {wanted} card{'s' if wanted > 1 else ''}")
        places = self._match_cards(player, cards)
        if isinstance(places, str):
            raise self._refuse(action, places)
        hand, up = self.hole[player], self.up[player]
        for k in sorted(places, reverse=True):
            del hand[k]
            del up[k]
        self.deck.discard(cards, player, self.street_index)
        self.discard_turn.popleft()
        self.log.append(action)
        self.log_streets.append(self.street_index)
        self._after_dealing()

    # --- betting -----------------------------------------------------------------------

    def _opener(self, street: Street) -> int:
        opener = street.opener
        if opener is Opener.POSITION:
            # After the largest blind or straddle on the first round; the first player
            # after the button on the others (their bets are all zero).
            if self.street_index:
                return 0
            best, last = 0, self.n - 1
            bets, seats = self.bets, self._blind_seats
            for i in range(self.n):
                if seats[i] and bets[i] >= best:
                    best, last = bets[i], i
            if not best:
                last = self.n - 1
            return (last + 1) % self.n
        ups = [[c for c, u in zip(h, us, strict=True) if u and c is not None] for h, us in zip(self.hole, self.up, strict=True)]   # face up: named
        if opener in (Opener.HIGH_HAND, Opener.LOW_HAND):
            return showdown.showing_opener(ups, self.live, opener is Opener.LOW_HAND)
        return showdown.bring_in_player(ups, self.live, opener)

    def _begin_betting(self) -> None:
        street = self.street
        setup = self.setup
        opener = self._opener(street)
        bring_in = setup.bring_in if self.street_index == 0 and self.variant.bring_in_game else 0
        self.round = BettingRound(
            stacks=self.stacks, bets=self.bets, committed=self.committed, active=self.live,
            structure=self.variant.structure,
            street_min=setup.big_bet if street.big_bet else setup.small_bet,
            cap=setup.raise_cap if self.variant.fixed_limit else None,
            opener=opener, bring_in=bring_in,
        )
        if self.betting.closed_at_start():
            self._end_betting()
        else:
            self.phase = Phase.BET

    def _bet_refusal(self, action: Action, player: int) -> None:
        if self.phase is Phase.BET:
            actors = self.betting.actors
            if actors and actors[0] == player:
                return
            raise self._refuse(action, self.betting.turn_refusal(player))
        raise self._refuse(action, self._phase_refusal(Phase.BET))

    def fold(self, player: int, _action: Action | None = None) -> None:
        action = _action or Action(FOLD, player)
        self._bet_refusal(action, player)
        why = self.betting.fold_refusal(player)
        if why:
            raise self._refuse(action, why)
        self.betting.fold(player)
        self.folded[player] = True
        self._out(player)
        self.log.append(action)
        self.log_streets.append(self.street_index)
        if self.betting.done:
            self._end_betting()

    def check_or_call(self, player: int, _action: Action | None = None) -> None:
        action = _action or Action(CHECK_CALL, player)
        self._bet_refusal(action, player)
        why = self.betting.call_refusal(player)
        if why:
            raise self._refuse(action, why)
        if self.betting.check_or_call(player):
            self.voluntary.add(player)
        self.log.append(action)
        self.log_streets.append(self.street_index)
        if self.betting.done:
            self._end_betting()

    def post_bring_in(self, player: int, _action: Action | None = None) -> None:
        action = _action or Action(BRING_IN, player)
        self._bet_refusal(action, player)
        why = self.betting.bring_in_refusal(player)
        if why:
            raise self._refuse(action, why)
        self.betting.post_bring_in(player)
        self.log.append(action)
        self.log_streets.append(self.street_index)
        if self.betting.done:
            self._end_betting()

    def bet_or_raise_to(self, player: int, amount: int | None, _action: Action | None = None) -> None:
        """Complete, bet or raise to `amount` in front of the player this round."""
        action = _action or Action(BET_RAISE, player, None, amount)
        self._bet_refusal(action, player)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise self._refuse(action, "the amount must be whole chips or cents")
        why = self.betting.amount_refusal(player, amount)
        chip = self.setup.chip
        if not why and amount % chip and amount != self.bets[player] + self.stacks[player]:
            why = f"{amount} is not a whole number of the table's chips ({chip} each); only an all-in may be"
        if why:
            raise self._refuse(action, why)
        self.betting.bet_or_raise_to(player, amount)
        self.voluntary.add(player)
        self.log.append(action)
        self.log_streets.append(self.street_index)
        if self.betting.done:
            self._end_betting()

    def _record(self, action: Action) -> None:
        self.log.append(action)
        self.log_streets.append(self.street_index)

    def _out(self, player: int) -> None:
        """A folded or mucked hand: out of the hand, its cards to the discards."""
        self.live[player] = False
        self.deck.discard(self.hole[player], MUCK, self.street_index)

    def _end_betting(self) -> None:
        self.aggressor = self.betting.aggressor
        self.round = None
        collect(self.bets, self.stacks, self.committed)
        self.marks.append(tuple(self.committed))
        live = self.live
        if sum(live) == 1:
            self._complete()
            return
        last = len(self.variant.streets) - 1
        if self.street_index == last:
            self._begin_showdown()
            return
        stacks = self.stacks
        with_chips = 0
        for i in range(self.n):
            if live[i] and stacks[i]:
                with_chips += 1
        draws_left = self._draws_after[self.street_index]
        self._begin_street(self.street_index + 1)
        if with_chips <= 1 and not draws_left:
            # No more betting can happen: the hands in contention may be turned up
            # before the rest is dealt (PHH's all-in showdown).
            self.expected = self._to_show()

    # --- showdown ----------------------------------------------------------------------

    def _to_show(self) -> list[int]:
        """Players in contention with a card not yet face up, from the last aggressor round."""
        n = self.n
        start = self.aggressor
        out = []
        for k in range(n):
            i = (start + k) % n
            if self.live[i] and not all(self.up[i]):
                out.append(i)
        return out

    def _begin_showdown(self) -> None:
        self.expected = self._to_show()
        if self.expected:
            self.phase = Phase.SHOWDOWN
        else:
            self._complete()

    def show_or_muck(self, player: int, cards: Cards | str | None, _action: Action | None = None) -> None:
        """At a showdown (or an all-in before one) a player shows all their cards, or mucks (None).

        `cards` lists every card the player holds (PHH), or is SHOW_KNOWN ("-") to show
        the cards already known. A muck gives up the hand.
        """
        action = _action or Action(SHOW, player, cards)
        if self.phase is Phase.COMPLETE:
            raise self._refuse(action, "the hand is over")
        why = self._player_refusal(player)
        if why:
            raise self._refuse(action, why)
        if player not in self.expected:
            if self.phase is Phase.SHOWDOWN or self.expected:
                raise self._refuse(action, f"p{player + 1} has no card face down to show")
            raise self._refuse(action, "no showdown now: " + (self._phase_refusal(Phase.SHOWDOWN) or ""))
        hand = self.hole[player]
        if cards is None:
            why = self._muck_refusal(player)
            if why:
                raise self._refuse(action, why)
            self.expected.remove(player)
            self.mucked[player] = True
            self._out(player)
            self.log.append(action)
            self.log_streets.append(self.street_index)
            if self.phase is Phase.SHOWDOWN:
                if not self.expected:
                    self._complete()
            elif sum(self.live) == 1:
                self._complete()   # an all-in player gave up: no card is left to deal for anyone
            return
        if cards == SHOW_KNOWN:
            if None in hand:
                raise self._refuse(action, f"p{player + 1}'s cards are not all known; name them")
            shown = tuple(hand)
        else:
            if isinstance(cards, str):
                raise self._refuse(action, f"name the cards shown, or {SHOW_KNOWN} for the cards known")
            shown = tuple(cards)
            if len(shown) != len(hand):
                raise self._refuse(action, f"p{player + 1} holds {len(hand)} cards; show all {len(hand)}")
            if None in shown:
                raise self._refuse(action, "a card shown must be named")
        fill = self._fill_unknown(player, _known(shown))   # an unnamed card was refused above
        if isinstance(fill, str):
            raise self._refuse(action, fill)
        for k, c in fill:
            hand[k] = c
            self.deck.reveal(c, player)
        self.up[player] = [True] * len(hand)
        self.expected.remove(player)
        self._record(action if cards != SHOW_KNOWN else Action(SHOW, player, shown))
        if self.phase is Phase.SHOWDOWN and not self.expected:
            self._complete()

    def _muck_refusal(self, player: int) -> str | None:
        """A muck may not leave a pot that others reached with no hand to take it."""
        mucked = list(self.mucked)
        mucked[player] = True
        for pot in build_pots(self.committed, self.antes, self.folded, mucked, self.setup.ante_trimming):
            if not pot.eligible:
                return (f"p{player + 1} holds the last hand in contention for a pot of {pot.amount}; "
                        "it must be shown")
        return None

    def _fill_unknown(self, player: int, shown: Sequence[int]) -> list[tuple[int, int]] | str:
        """The (position, card) pairs a show reveals, or why the show does not fit the hand."""
        hand = self.hole[player]
        rest = list(shown)
        if len(set(rest)) != len(rest):
            return "a card is shown twice"
        for c in hand:
            if c is not None:
                if c not in rest:
                    return f"p{player + 1} was dealt {card_text(c)}, which the show leaves out"
                rest.remove(c)
        unknown = [k for k, c in enumerate(hand) if c is None]
        for c in rest:
            why = self.deck.unavailable(c)
            if why:
                return why
        return list(zip(unknown, rest, strict=True))

    def finish(self) -> None:
        """Settle a hand whose record stops at the showdown: known hands are turned up.

        A player in contention whose cards were never named cannot be read and gives
        up the hand. Raises IncompleteHand when the hand stops anywhere else.
        """
        if self.phase is Phase.COMPLETE:
            return
        if self.phase is not Phase.SHOWDOWN:
            if self.phase is Phase.BET:
                raise IncompleteHand(f"the hand is not over: {_seat(self.betting.to_act)} is to act")
            raise IncompleteHand(f"the hand is not over: {self._dealing_description()}")
        unknown = []
        for p in list(self.expected):
            if None not in self.hole[p]:
                self.up[p] = [True] * len(self.hole[p])
            else:
                unknown.append(p)
        if unknown:
            mucked = list(self.mucked)
            for p in unknown:
                mucked[p] = True
            if any(not pot.eligible for pot in build_pots(self.committed, self.antes, self.folded, mucked,
                                                          self.setup.ante_trimming)):
                names = ", ".join(f"p{p + 1}" for p in unknown)
                raise IncompleteHand(f"the hand is not over: {names} must show their cards at the showdown")
            for p in unknown:
                self.mucked[p] = True
                self._out(p)
        self.expected = []
        self._complete()

    # --- irregularities (5324.42(p)) -------------------------------------------------------
    #
    # What the hand does when the dealer enters an irregularity. Whether the event may be
    # entered now, and which of these it comes to, is irregularities.py's to decide: it has
    # made every check before it calls one (through `apply`), so each of these only changes
    # the hand and puts the event on its record.

    def misdeal(self, action: Action, cause: str) -> None:
        """(p)(1): every card goes back to the dealer for a reshuffle and every chip to the
        player who put it in; the hand is void (`cause`: which error of (p)(1)(i)-(iv))."""
        self._void(action, f"misdeal: {cause}; every card is reshuffled and every chip returned", False)

    def call_round_dead(self, action: Action, found: str) -> None:
        """(p)(3): missing or extra cards found: the round of play is called dead, every chip
        goes back to the player who put it in, and the deck is replaced."""
        self._void(action, f"dead hand: {found}; every chip is returned and the deck replaced (5324.42(p)(3))",
                   True)

    def _void(self, action: Action, why: str, replace_deck: bool) -> None:
        """Every chip goes back to the player who put it in; no rake, no jackpot (the hand never was)."""
        n = self.n
        self.stacks[:] = self.setup.starting_stacks
        self.bets[:] = [0] * n
        self.committed[:] = [0] * n
        self.antes[:] = [0] * n
        self.reserved = {}
        self.round = None
        self.expected = []
        self.choosing = set()
        self.phase = Phase.COMPLETE
        self._record(action)
        self.result = HandResult(tuple(self.stacks), (), 0, 0, (), void=why, replace_deck=replace_deck)

    def discard_unused(self, action: Action, cards: Cards) -> None:
        """(p)(2), (p)(4), (p)(8): cards dealt to an ineligible player, found face up in the
        deck or dealt off the table are not used: they go to the pile of discarded cards and
        the round of play goes on."""
        deck = self.deck
        deck.take(cards, MUCK)
        deck.discard(cards, MUCK, self.street_index)
        self._record(action)

    def reconstruct_hand(self, action: Action) -> None:
        """(p)(5)(ii): a protected hand fouled by the discards was put back together; it plays
        on, and only the record changes."""
        self._record(action)

    def call_hand_dead(self, action: Action, player: int, *, refund: bool) -> None:
        """(p)(5), (p)(6): the player's hand is dead (fouled, collected, abandoned, or both
        hole cards turned up); with `refund` every chip the player put in comes back
        ((p)(5)(iii); the ante, (p)(6)). The hand goes on without it."""
        self._record(action)
        p = player
        if refund:
            back = self.committed[p]
            self.stacks[p] += back
            self.committed[p] = 0
            self.bets[p] = 0
            self.antes[p] = 0
            self.marks = [mark[:p] + (0,) + mark[p + 1:] for mark in self.marks]
        self.stacks[p] += self.reserved.pop(p, 0)
        self.folded[p] = True
        self._out(p)
        if self.owed[p]:
            self.owed_total -= len(self.owed[p])
            self.owed[p] = []
        for queue in (self.draw_turn, self.discard_turn):
            if p in queue:
                queue.remove(p)
        self.draw_checked.discard(p)
        self.choosing.discard(p)
        if p in self.expected:
            self.expected.remove(p)
        round_ = self.round
        if round_ is not None:
            if p in round_.actors:
                round_.actors.remove(p)
            round_.high = max(b for i, b in enumerate(self.bets) if self.live[i]) if any(self.live) else 0
        if round_ is not None and not self.betting_begun and sum(self.live) > 1:
            # Nobody has acted this round: it opens again without the hand (a bring-in by the
            # up cards still in play, (h)(4)).
            self._reopen_dealing()
            self._after_dealing()
            return
        if sum(self.live) <= 1:
            if round_ is not None:
                self._end_betting()
            else:
                collect(self.bets, self.stacks, self.committed)
                self.marks.append(tuple(self.committed))
                self._complete()
            return
        if self.phase is Phase.BET:
            if self.betting.done:
                self._end_betting()
        elif self.phase is Phase.SHOWDOWN:
            if not self.expected:
                self._complete()
        elif self.phase is Phase.DEAL and self._dealing_done():
            self._after_dealing()      # the cards owed were that hand's: the betting can open

    def exchange_exposed_card(self, action: Action, player: int, card: int, spot: int, *, burn: bool) -> None:
        """(p)(9): a hold'em or Omaha hole card dealt face up is exchanged for the top card of
        the deck (the player is owed one more card face down); the exposed card goes face
        down to the discards (i), or with `burn` is the face-up burn card before the flop (ii)."""
        self._reveal(player, card, spot)
        del self.hole[player][spot]
        del self.up[player][spot]
        self.owed[player].append(False)
        self.owed_total += 1
        if burn:
            self.deck.keep_as_burn(card)
            self.preburn = card
        else:
            self.deck.discard((card,), MUCK, self.street_index)
        self._reopen_dealing()
        self._record(action)

    def expose_hole_card(self, action: Action, player: int, card: int, spot: int) -> None:
        """(p)(6), (p)(7): a stud hole card turned face up in the dealing stays up, and the up
        card still to come to that player is dealt face down."""
        self._reveal(player, card, spot)
        self._record(action)
        self.up[player][spot] = True
        self.exposures[player] += 1
        owed = self.owed[player]
        owed[owed.index(True)] = False
        self._reopen_dealing()

    def expose_both_hole_cards(self, action: Action, player: int, card: int, spot: int) -> None:
        """(p)(6): the second hole card of seven-card stud turned up too: the dealer collects
        the two cards, calls the player's hand dead and returns the ante."""
        self._reveal(player, card, spot)
        self.call_hand_dead(action, player, refund=True)

    def expose_third_hole_card(self, action: Action, player: int, card: int, spot: int) -> None:
        """(p)(6): the third hole card of seven-card stud turned face up: it stays up and the
        player is to choose how to contend (`contend`) before the betting opens."""
        self._reveal(player, card, spot)
        self.up[player][spot] = True
        self.choosing.add(player)
        self._reopen_dealing()
        self._record(action)

    def contend(self, action: Action, player: int, *, whole_pot: bool) -> None:
        """(p)(6)(i)-(ii), the choice after the third hole card was turned up: contend for the
        entire pot, or (not `whole_pot`) make no more wagers and contend only for the part of
        the pot formed so far, like an all-in (the rest of the stack is set aside until the end)."""
        self.choosing.discard(player)
        if not whole_pot:
            self.reserved[player] = self.stacks[player]
            self.stacks[player] = 0
        self._record(action)
        self._after_dealing()

    def _reveal(self, player: int, card: int, spot: int) -> None:
        """The card turned up is named: an unseen card in that place is now known to be it."""
        if self.hole[player][spot] is None:
            self.hole[player][spot] = card
            self.deck.reveal(card, player)

    def _reopen_dealing(self) -> None:
        """The betting round had opened with the last card dealt; nobody has acted: it waits again."""
        if self.phase is Phase.BET:
            self.round = None
            self.phase = Phase.DEAL

    # --- settlement ----------------------------------------------------------------------

    def _complete(self) -> None:
        self.phase = Phase.COMPLETE
        self.expected = []
        self.round = None
        setup = self.setup
        pots = build_pots(self.committed, self.antes, self.folded, self.mucked, setup.ante_trimming)
        stacks = self.stacks
        for p, chips in self.reserved.items():   # set aside by the choice of (p)(6)(i)
            stacks[p] += chips
        self.reserved = {}
        # The rake and the jackpot contribution were taken as each round ended, before the
        # pots are pushed; none is taken after (5324.42(o)(5), (r)(3)).
        self._take(pots)
        self._award(pots)
        for pot in pots:
            for p, chips in pot.awards.items():
                stacks[p] += chips
        order = tuple(range(len(pots) - 1, -1, -1))
        self.result = HandResult(tuple(stacks), tuple(pots), sum(p.rake for p in pots),
                                 sum(p.jackpot for p in pots), order)

    def _award(self, pots: list[Pot]) -> None:
        v = self.variant
        board = self.board
        hole = self.hole
        contested = sorted({p for pot in pots if len(pot.eligible) > 1 for p in pot.eligible})
        values = {
            kind: {p: showdown.hand_value(kind, _known(hole[p]), board) for p in contested}
            for kind in v.hands
        }
        # Side pots are pushed before the main pot (f)(6)(vi).
        for pot in reversed(pots):
            contenders = pot.eligible
            if len(contenders) == 1:
                pot.awards = {contenders[0]: pot.net}
                continue
            awards: dict[int, int] = {}
            # A share with no qualifying hand among this pot's players goes to the
            # high hand ((h)(10), (j)(7)).
            kinds = [k for k in v.hands if any(values[k][p] is not None for p in contenders)]
            # Split in the table's smallest chip: what cannot be split goes to the high half
            # ((h)(9)(a), (j)(6)(ii)(a)), then to the odd-chip player among tied hands.
            chip = self.setup.chip
            share = pot.net // chip // len(kinds) * chip
            excess = pot.net - share * len(kinds)
            for index, kind in enumerate(kinds):
                amount = share + (excess if index == 0 else 0)
                by_player = values[kind]
                best = max(score for p in contenders if (score := by_player[p]) is not None)
                tied = [p for p in contenders if by_player[p] == best]
                each = amount // chip // len(tied) * chip
                odd = amount - each * len(tied)
                for p in tied:
                    awards[p] = awards.get(p, 0) + each
                if odd:
                    seen = [_known(h) if p in tied else [] for p, h in enumerate(hole)]   # the tied have shown
                    # one chip each in the odd-chip order ((h)(9)(b)-(c), (i)(10), (j)(6)(ii)(a));
                    # what is finer than a chip (a percentage rake's cents) with the first
                    order = showdown.odd_chip_order(v.odd_chip, kind, tied, best, seen, board)
                    for k in range(odd // chip):
                        awards[order[k]] += chip
                    awards[order[0]] += odd % chip
            pot.awards = awards

    # --- serialization ---------------------------------------------------------------------

    def actions(self) -> list[str]:
        """The hand's actions in PHH notation, in the order they were taken."""
        return [format_action(a) for a in self.log]


__all__ = ["DEFAULT_RAISE_CAP", "Hand", "HandResult", "HandSetup", "IncompleteHand", "Phase"]
