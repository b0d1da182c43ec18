"""The poker games of 5324.42(g) as data: one `Variant` per game and betting structure.

A game is its streets (what the dealer deals before each betting round, who opens
it, whether the small or the big bet applies), the hands that win at the showdown,
and a few table rules the regulation sets per game (seats, how an odd chip goes, what
the dealer does when the deck runs out). The engine (`hand.py`) reads these fields
and nothing else, so a game is added by adding a row here, never a module.

Codes: the standard PHH codes keep their meaning (FT, NT, PO, FO/8, F7S, F7S/8, FR,
F2L3D); the games and structures PHH has no code for get this project's codes (F7S/HL,
F5D, F5DL, F5S, FPI, FCP and the other structures of every game), listed in
controller/poker/README.md. `standard` says which is which: only standard codes are
written for tools other than this one to read. `variant_for(game, structure)` maps a
table profile (controller/games/poker/profile.py) to its code.
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
    """Who takes the chip a split cannot divide among tied hands (docs/PHH.md).

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
    players who have not yet asked for their new cards stay out; the drawing
    player's own go in (ten players leave one card for the draw).
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


def _five_card_draw() -> tuple[Street, ...]:
    """Five down, a betting round, one draw after a burn, the final betting round (k)(4)-(7)."""
    return (
        Street("predraw", False, hole=(False,) * 5),
        Street("draw", True, draw=True, big_bet=True),
    )


def _five_stud() -> tuple[Street, ...]:
    """One down and one up, then three more up, each after a burn (m)(3), (m)(6)-(7).

    The regulation does not say when the bet doubles in limit five-card stud; the big
    bet applies to the last two rounds, as for the last rounds of the other games.
    """
    return (
        Street("second", False, hole=(False, True), opener=Opener.LOW_CARD),
        Street("third", True, hole=(True,), opener=Opener.HIGH_HAND),
        Street("fourth", True, hole=(True,), opener=Opener.HIGH_HAND, big_bet=True),
        Street("fifth", True, hole=(True,), opener=Opener.HIGH_HAND, big_bet=True),
    )


HOLDEM = _holdem(2)
OMAHA = _holdem(4)
PINEAPPLE = _holdem(3, pineapple=1)                  # (n)(7): one of three discarded before the flop
CRAZY_PINEAPPLE = _holdem(3, pineapple=1, crazy=True)  # (n)(9): ... once the flop is out

_FL, _PL, _NL = Structure.FIXED_LIMIT, Structure.POT_LIMIT, Structure.NO_LIMIT
_STRUCTURE_LETTER = {_FL: "F", _PL: "P", _NL: "N"}
_STRUCTURE_WORD = {_FL: "limit", _PL: "pot-limit", _NL: "no-limit"}

# The codes PHH defines (phh-std); every other code here is this project's.
STANDARD_CODES = frozenset({"FT", "NT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D"})

# The games of 5324.42(g), one entry per game: (code after the structure letter, the
# profile's game name in controller/games/poker/profile.py, name, streets, hands, seats, button,
# odd chip, deck-out rule, provision). Each game is offered in all three structures.
_HIGH, _A5, _L8, _27 = HandKind.HIGH, HandKind.LOW_A5, HandKind.LOW_8, HandKind.LOW_27
_OH, _OL8 = HandKind.OMAHA_HIGH, HandKind.OMAHA_LOW_8
_GAMES = (
    ("T", "texas-holdem", "Texas hold'em", HOLDEM, (_HIGH,), 11, True,
     OddChip.BUTTON, DeckOut.NONE, "5324.42(i)"),
    ("O", "omaha", "Omaha", OMAHA, (_OH,), 10, True, OddChip.BUTTON, DeckOut.NONE, "5324.42(j)"),
    ("O/8", "omaha-hi-lo-8", "Omaha high-low split eight or better", OMAHA, (_OH, _OL8), 10, True,
     OddChip.BUTTON, DeckOut.NONE, "5324.42(j)"),
    ("7S", "seven-card-stud", "seven-card stud", _seven_stud(Opener.LOW_CARD, Opener.HIGH_HAND),
     (_HIGH,), 8, False, OddChip.SUIT, DeckOut.COMMON_CARD, "5324.42(h)"),
    ("7S/8", "seven-card-stud-hi-lo-8", "seven-card stud high-low split eight or better",
     _seven_stud(Opener.LOW_CARD, Opener.HIGH_HAND), (_HIGH, _L8), 8, False,
     OddChip.SUIT, DeckOut.COMMON_CARD, "5324.42(h)"),
    # (h)(4)(ii): the highest up card "as if the game were one of high poker": ace high.
    ("R", "seven-card-stud-low", "razz (seven-card stud low, A-5)",
     _seven_stud(Opener.HIGH_CARD, Opener.LOW_HAND), (_A5,), 8, False,
     OddChip.SUIT, DeckOut.COMMON_CARD, "5324.42(h)"),
    # (h)(4)(iii): the highest up card, the ace ranked below the two; later streets by the
    # best high hand showing (h)(6)(i); the best high and the best A-5 low split (h)(9)(iii).
    ("7S/HL", "seven-card-stud-hi-lo", "seven-card stud high-low split",
     _seven_stud(Opener.HIGH_CARD_ACE_LOW, Opener.HIGH_HAND), (_HIGH, _A5), 8, False,
     OddChip.SUIT, DeckOut.COMMON_CARD, "5324.42(h)"),
    # (m) sets no seat limit: nine players take 45 cards and 3 burns of one deck.
    ("5S", "five-card-stud", "five-card stud", _five_stud(), (_HIGH,), 9, False,
     OddChip.BUTTON, DeckOut.NONE, "5324.42(m)"),
    # (k) sets no seat limit: ten players take the first 50 cards of one deck.
    ("5D", "five-card-draw", "five-card draw", _five_card_draw(), (_HIGH,), 10, True,
     OddChip.BUTTON, DeckOut.RESHUFFLE_UNDRAWN, "5324.42(k)"),
    ("5DL", "five-card-draw-low", "five-card draw low (A-5)", _five_card_draw(), (_A5,), 10, True,
     OddChip.BUTTON, DeckOut.RESHUFFLE_UNDRAWN, "5324.42(k)"),
    ("2L3D", "triple-draw-2-7", "deuce-to-seven triple draw", _triple_draw(), (_27,), 7, True,
     OddChip.BUTTON, DeckOut.RESHUFFLE_OWN, "5324.42(l)"),
    # (n) sets no seat limit: eleven players take 33 cards, 3 burns and 5 board cards.
    ("PI", "pineapple", "pineapple", PINEAPPLE, (_HIGH,), 11, True,
     OddChip.BUTTON, DeckOut.NONE, "5324.42(n)"),
    ("CP", "crazy-pineapple", "crazy pineapple", CRAZY_PINEAPPLE, (_HIGH,), 11, True,
     OddChip.BUTTON, DeckOut.NONE, "5324.42(n)"),
)

# The profile's game and structure (controller/games/poker/profile.py) -> the variant code.
CODE_OF_GAME: dict[tuple[str, str], str] = {}


def _variants() -> dict[str, Variant]:
    out: list[Variant] = []
    for suffix, game, name, streets, hands, seats, button, odd, deck_out, provision in _GAMES:
        for s in (_FL, _PL, _NL):
            code = _STRUCTURE_LETTER[s] + suffix
            out.append(Variant(code, f"{_STRUCTURE_WORD[s]} {name}", s, streets, hands, seats, button,
                               odd, deck_out, provision, code in STANDARD_CODES))
            CODE_OF_GAME[(game, s.value)] = code
    return {v.code: v for v in out}


VARIANTS: dict[str, Variant] = _variants()


def variant_for(game: str, structure: str) -> Variant:
    """The variant a table profile plays: its `game` and `poker.structure` (controller/games/poker/profile.py)."""
    try:
        return VARIANTS[CODE_OF_GAME[(game, structure)]]
    except KeyError:
        raise KeyError(f"no poker variant for game {game!r} in structure {structure!r}") from None


def variant(code: str) -> Variant:
    """The game of a code, or a KeyError that lists the codes there are."""
    try:
        return VARIANTS[code]
    except KeyError:
        raise KeyError(f"{code!r} is not a variant code here ({', '.join(VARIANTS)})") from None


__all__ = [
    "CODE_OF_GAME", "DeckOut", "HandKind", "OddChip", "Opener", "STANDARD_CODES", "Street", "Structure",
    "VARIANTS", "Variant", "variant", "variant_for",
]
