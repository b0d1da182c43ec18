"""The poker games of 5324.42(g) as data: one `Variant` per game and betting structure.

A game is its streets (what the dealer deals before each betting round, who opens
it, whether the small or the big bet applies), the hands that win at the showdown,
and a few table rules the regulation sets per game (seats, how an odd chip goes, what
the dealer does when the deck runs out). The engine (`hand.py`) reads these fields
and nothing else, so a game is added by adding a row here, never a module.

Codes: the standard PHH codes keep their meaning (FT, NT, PO, FO/8, F7S, F7S/8, FR,
F2L3D); the games and structures PHH has no code for get this project's codes, listed
in controller/poker/README.md. `standard` says which is which: only standard codes
are written for tools other than this one to read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Structure(str, Enum):
    """The betting structure: fixed sizes, up to the pot, or up to the stack."""

    FIXED_LIMIT = "fixed-limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"


class Opener(str, Enum):
    """Who must open a betting round.

    POSITION: after the last blind or straddle on the first round (5324.42(i)(6)), else
    the first player after the button still in the hand ((i)(7), (l)(11)).
    LOW_CARD / HIGH_CARD / HIGH_CARD_ACE_LOW: the bring-in by the up card, ties of rank
    broken by suit, spades > hearts > diamonds > clubs ((h)(4)(i)-(iv), (m)(4)).
    HIGH_HAND / LOW_HAND: the best high (or low) hand showing, a tie to the first such
    player after the dealer ((h)(6), (m)(6)).
    """

    POSITION = "position"
    LOW_CARD = "low-card"
    HIGH_CARD = "high-card"
    HIGH_CARD_ACE_LOW = "high-card-ace-low"
    HIGH_HAND = "high-hand"
    LOW_HAND = "low-hand"


class HandKind(str, Enum):
    """A hand that can win a share of a pot at the showdown."""

    HIGH = "high"                # best five of all the player's cards (and the board) (b)(2)
    LOW_A5 = "low-a5"            # best A-5 low, straights and flushes ignored (b)(4)-(5)
    LOW_8 = "low-8"              # A-5 low of five unpaired cards 8 or lower (h)(10)
    LOW_27 = "low-27"            # deuce-to-seven low of five cards (b)(4)-(5), (l)(12)
    OMAHA_HIGH = "omaha-high"    # two hole cards and three board cards (j)(6)
    OMAHA_LOW_8 = "omaha-low-8"  # the same, eight or better (j)(7)

    @property
    def low(self) -> bool:
        return self in _LOWS


_LOWS = frozenset({HandKind.LOW_A5, HandKind.LOW_8, HandKind.LOW_27, HandKind.OMAHA_LOW_8})


class OddChip(str, Enum):
    """Who takes the chip a split cannot divide among tied hands (spec/poker.md).

    SUIT: seven-card stud, 5324.42(h)(9)(b)-(d): the tied high hand holding the
    highest card by suit, the tied low hand holding the lowest low card by suit.
    BUTTON: games whose section of the regulation does not settle it: the first tied
    player clockwise from the button (from the dealer in a game without a button).
    Between the high and the low half of a hi-lo pot the excess always goes to the
    high half ((h)(9)(a), (j)(6)(ii)(a)).
    """

    SUIT = "suit"
    BUTTON = "button"


class DeckOut(str, Enum):
    """What the dealer does when the stub cannot supply a round of cards.

    COMMON_CARD: stud, (h)(8): one card face up in the centre for everyone, after
    shuffling the burn cards when one card or none is left.
    RESHUFFLE_OWN: triple draw, (l)(6): every discard but the drawing player's own
    is reshuffled. RESHUFFLE_UNDRAWN: five-card draw, (k)(6)(ii): the discards of
    players who have not yet received their new cards stay out.
    NONE: the deck cannot run out with the seats the game allows (hold'em, Omaha).
    """

    NONE = "none"
    COMMON_CARD = "common-card"
    RESHUFFLE_OWN = "reshuffle-own"
    RESHUFFLE_UNDRAWN = "reshuffle-undrawn"


@dataclass(frozen=True)
class Street:
    """One dealing (or draw) and the betting round after it.

    `hole` lists the cards each player still in the hand receives, True for a card
    dealt face up. `draw`: each player in turn may discard and is dealt as many.
    `discard`: cards each player throws away with no replacement (pineapple, (n)(7),
    (n)(9)), before the street's dealing or, with `discard_after_deal`, after it.
    """

    name: str
    burn: bool
    hole: tuple[bool, ...] = ()
    board: int = 0
    draw: bool = False
    opener: Opener = Opener.POSITION
    big_bet: bool = False
    discard: int = 0
    discard_after_deal: bool = False


@dataclass(frozen=True)
class Variant:
    """A game of 5324.42(g) in one betting structure."""

    code: str
    name: str
    structure: Structure
    streets: tuple[Street, ...]
    hands: tuple[HandKind, ...]          # the first is the high share, which takes a hi-lo excess
    max_players: int
    button: bool                         # a button game (blinds) or a stud game (bring-in)
    odd_chip: OddChip
    deck_out: DeckOut
    provision: str                       # where the regulation describes the game
    standard: bool                       # a PHH standard code (other tools read it)
    # for each street, whether a draw comes after it (an all-in shows no hand before a draw)
    draws_after: tuple[bool, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        streets = self.streets
        object.__setattr__(self, "draws_after",
                           tuple(any(s.draw for s in streets[i + 1:]) for i in range(len(streets))))

    @property
    def fixed_limit(self) -> bool:
        return self.structure is Structure.FIXED_LIMIT

    @property
    def hi_lo(self) -> bool:
        return len(self.hands) > 1

    @property
    def bring_in_game(self) -> bool:
        return self.streets[0].opener is not Opener.POSITION

    @property
    def draw_game(self) -> bool:
        return any(s.draw for s in self.streets)

    @property
    def board_game(self) -> bool:
        return any(s.board for s in self.streets)

    @property
    def bet_fields(self) -> tuple[str, ...]:
        """The PHH fields that give this game's bet sizes (phh-std, required fields)."""
        if self.fixed_limit:
            return ("small_bet", "big_bet")
        return ("min_bet",)


# --- streets -------------------------------------------------------------------------

def _holdem(hole: int, *, pineapple: int = 0, crazy: bool = False) -> tuple[Street, ...]:
    """Hold'em and Omaha: hole cards, then flop, turn and river, each after a burn (i)(5)-(9)."""
    return (
        Street("preflop", False, hole=(False,) * hole),
        Street("flop", True, board=3, discard=pineapple, discard_after_deal=crazy),
        Street("turn", True, board=1, big_bet=True),
        Street("river", True, board=1, big_bet=True),
    )


def _seven_stud(bring_in: Opener, later: Opener) -> tuple[Street, ...]:
    """Two down and one up, three more up, the last down (h)(3), (h)(6), (h)(8)."""
    return (
        Street("third", False, hole=(False, False, True), opener=bring_in),
        Street("fourth", True, hole=(True,), opener=later),
        Street("fifth", True, hole=(True,), opener=later, big_bet=True),
        Street("sixth", True, hole=(True,), opener=later, big_bet=True),
        Street("seventh", True, hole=(False,), opener=later, big_bet=True),
    )


def _triple_draw() -> tuple[Street, ...]:
    """Five down, then three draws, each followed by a betting round (l)(4)-(11)."""
    return (
        Street("predraw", False, hole=(False,) * 5),
        Street("first draw", True, draw=True),
        Street("second draw", True, draw=True, big_bet=True),
        Street("third draw", True, draw=True, big_bet=True),
    )


HOLDEM = _holdem(2)
OMAHA = _holdem(4)

_FL, _PL, _NL = Structure.FIXED_LIMIT, Structure.POT_LIMIT, Structure.NO_LIMIT
_STRUCTURE_LETTER = {_FL: "F", _PL: "P", _NL: "N"}
_STRUCTURE_WORD = {_FL: "limit", _PL: "pot-limit", _NL: "no-limit"}


def _variants() -> dict[str, Variant]:
    out: list[Variant] = []
    for s in (_FL, _PL, _NL):
        word, letter = _STRUCTURE_WORD[s], _STRUCTURE_LETTER[s]
        out.append(Variant(
            f"{letter}T", f"{word} Texas hold'em", s, HOLDEM, (HandKind.HIGH,), 11, True,
            OddChip.BUTTON, DeckOut.NONE, "5324.42(i)", s is not _PL))
        out.append(Variant(
            f"{letter}O", f"{word} Omaha", s, OMAHA, (HandKind.OMAHA_HIGH,), 10, True,
            OddChip.BUTTON, DeckOut.NONE, "5324.42(j)", s is _PL))
        out.append(Variant(
            f"{letter}O/8", f"{word} Omaha high-low split eight or better", s, OMAHA,
            (HandKind.OMAHA_HIGH, HandKind.OMAHA_LOW_8), 10, True,
            OddChip.BUTTON, DeckOut.NONE, "5324.42(j)", s is _FL))
    out += [
        Variant("F7S", "limit seven-card stud", _FL,
                _seven_stud(Opener.LOW_CARD, Opener.HIGH_HAND), (HandKind.HIGH,), 8, False,
                OddChip.SUIT, DeckOut.COMMON_CARD, "5324.42(h)", True),
        Variant("F7S/8", "limit seven-card stud high-low split eight or better", _FL,
                _seven_stud(Opener.LOW_CARD, Opener.HIGH_HAND), (HandKind.HIGH, HandKind.LOW_8), 8,
                False, OddChip.SUIT, DeckOut.COMMON_CARD, "5324.42(h)", True),
        # (h)(4)(ii): the highest up card "as if the game were one of high poker": ace high.
        Variant("FR", "limit razz (seven-card stud low, A-5)", _FL,
                _seven_stud(Opener.HIGH_CARD, Opener.LOW_HAND), (HandKind.LOW_A5,), 8, False,
                OddChip.SUIT, DeckOut.COMMON_CARD, "5324.42(h)", True),
        Variant("F2L3D", "limit deuce-to-seven triple draw", _FL, _triple_draw(),
                (HandKind.LOW_27,), 7, True, OddChip.BUTTON, DeckOut.RESHUFFLE_OWN,
                "5324.42(l)", True),
    ]
    return {v.code: v for v in out}


VARIANTS: dict[str, Variant] = _variants()


def variant(code: str) -> Variant:
    """The game of a code, or a KeyError that lists the codes there are."""
    try:
        return VARIANTS[code]
    except KeyError:
        raise KeyError(f"{code!r} is not a variant code here ({', '.join(VARIANTS)})") from None


__all__ = [
    "DeckOut", "HandKind", "OddChip", "Opener", "Street", "Structure", "VARIANTS", "Variant", "variant",
]
