"""Random legal poker hands played by pokerkit from fixed seeds: the differential tests' oracle.

pokerkit (0.7.7) is driven the way its own hand histories are replayed (cash-game
mode, antes/blinds/bets/pushes automated); the generator picks each player's action
at random among those pokerkit allows, and deals from a physical deck of its own
(burn cards included) so that the cards a hand uses are ones the regulation's
dealer could deal: a draw that runs out reshuffles the discards except the drawing
player's own ((l)(6)).

Where the regulation and pokerkit part ways, the hand is flagged, not hidden:
- "h8": a stud hand whose deck cannot give everyone a card, where 5324.42(h)(8)
  deals a common card and pokerkit (counting no burn cards, and the folded cards as
  dealable) deals on; generation stops there.
- "h4ii": razz whose highest up card is an ace: (h)(4)(ii) ranks it "as if the game
  were one of high poker" (ace high, the ace brings in); pokerkit ranks it low.
Odd chips are not flagged here: the tests recompute pokerkit's pushes under
(h)(9)(b)-(d) (`regulation_stacks`), and pokerkit is kept from killing the losing
hands before it pushes, so that it splits each pot on its own as (f)(6)(vi) awards
them (see `generate`).
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass, field
from itertools import combinations

from pokerkit import Card as PKCard
from pokerkit import HandHistory
from pokerkit.hands import EightOrBetterLowHand, RegularLowHand, StandardHighHand
from pokerkit.state import ChipsPushing

from controller.cards import CARDS

STANDARD_CODES = ("FT", "NT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D")
STUD = ("F7S", "F7S/8", "FR")
FIXED = ("FT", "FO/8", "F7S", "F7S/8", "FR", "F2L3D")
MAX_PLAYERS = {"FT": 9, "NT": 9, "PO": 9, "FO/8": 9, "F7S": 8, "F7S/8": 8, "FR": 8, "F2L3D": 7}
CAP = 4  # the engine's default cap; pokerkit's FO/8 is pot limit with no cap, so the generator keeps to it

_TEXT = [str(c) for c in CARDS]


@dataclass
class Generated:
    code: str
    seed: int
    fields: dict
    actions: list[str]
    stacks: list[int] | None                  # pokerkit's finishing stacks (None when flagged h8)
    pushes: list[tuple[tuple[int, ...], int, int | None]] = field(default_factory=list)
    hole: list[list[str]] = field(default_factory=list)   # cards at the end, for the odd-chip rule
    board: list[str] = field(default_factory=list)
    flag: str | None = None
    bring_in: int | None = None    # with flag h4ii: the player (h)(4)(ii) names

    def phh(self) -> str:
        from controller.poker.phh import _toml_value
        lines = [f"{k} = {_toml_value(v)}" for k, v in self.fields.items()]
        lines.append(f"actions = {_toml_value(self.actions)}")
        return "\n".join(lines) + "\n"


def _stakes(code: str, rng: random.Random, n: int) -> dict:
    unit = rng.choice((1, 1, 2, 5, 25))
    fields: dict = {"variant": code}
    if code in STUD:
        ante = unit * rng.choice((0, 1, 1, 2))
        bring_in = unit * rng.choice((1, 2, 3))
        small = bring_in * rng.choice((2, 3)) + rng.choice((0, unit))
        fields["ante_trimming_status"] = True
        fields["antes"] = [ante] * n
        fields["bring_in"] = bring_in
        fields["small_bet"] = small
        fields["big_bet"] = 2 * small
        big_unit = small
    else:
        bb = unit * rng.choice((2, 2, 4, 10))
        sb = bb // 2 if rng.random() < 0.8 else bb // 2 + unit * rng.choice((0, 1)) or 1
        blinds = [sb, bb] + [0] * (n - 2)
        if n >= 4 and rng.random() < 0.15:
            blinds[2] = 2 * bb   # a straddle (c)(11)
        ante = 0 if rng.random() < 0.8 else rng.choice((1, unit, bb // 4 or 1))
        fields["ante_trimming_status"] = False
        fields["antes"] = [ante] * n
        fields["blinds_or_straddles"] = blinds
        if code in FIXED:
            fields["small_bet"] = bb
            fields["big_bet"] = 2 * bb
        else:
            fields["min_bet"] = bb
        big_unit = bb
    stacks = []
    tiny = (fields["antes"][0] + fields.get("bring_in", 0) or fields.get("blinds_or_straddles", [0, 1])[1])
    for _ in range(n):
        r = rng.random()
        if r < 0.04:
            stacks.append(rng.randint(1, max(1, tiny)))   # all-in with the forced bets
        elif r < 0.3:
            stacks.append(rng.randint(1, 8) * big_unit + rng.randint(0, big_unit))
        elif r < 0.8:
            stacks.append(rng.randint(10, 60) * big_unit + rng.randint(0, big_unit))
        else:
            stacks.append(rng.randint(100, 300) * big_unit + rng.randint(0, 3))
    fields["starting_stacks"] = stacks
    return fields


def _bring_in_by_regulation(state) -> int:
    """(h)(4)(ii): razz brings in by the highest up card, ranked as in high poker, suits s>h>d>c.

    A player all-in with the ante cannot post it: the next player with chips acts first.
    """
    best = None
    n = state.player_count
    for i in range(n):
        ups = list(state.get_up_cards(i))
        if not ups:
            continue
        c = ups[0]
        key = ("23456789TJQKA".index(c.rank), "cdhs".index(c.suit))
        if best is None or key > best[0]:
            best = (key, i)
    for k in range(n):
        i = (best[1] + k) % n
        if state.statuses[i] and state.stacks[i] > 0:
            return i
    return best[1]


def generate(code: str, seed: int) -> Generated:
    rng = random.Random(f"{code}|{seed}")
    n = rng.randint(2, MAX_PLAYERS[code])
    fields = _stakes(code, rng, n)
    hh = HandHistory(actions=[], **fields)
    game = hh.create_game()
    state = game(fields["starting_stacks"], n)
    # pokerkit kills the losing hands before it pushes the chips, so pots that the same
    # players split are merged and their odd chips fall as one; 5324.42 awards each pot
    # on its own ((f)(6)(vi), (h)(9)). With no hand killed, pokerkit does that too.
    can_win_now = type(state).can_win_now
    state.can_win_now = lambda i: True
    deck = list(range(52))
    rng.shuffle(deck)
    pile: list[tuple[int, int, int]] = []   # (card, owner, street) discards and folded hands
    actions: list[str] = []
    raises = {}
    flag = None
    regulation_bring_in = None

    def take(k: int, player: int | None = None) -> list[int]:
        nonlocal deck
        if len(deck) < k and player is not None:
            street = state.street_index
            pool = [c for c, owner, s in pile if not (owner == player and s == street)]
            rest = [e for e in pile if e[0] not in pool]
            rng.shuffle(pool)
            deck = deck + pool
            pile[:] = rest
        out, deck = deck[:k], deck[k:]
        return out

    def muck(player: int) -> None:
        for c in state.hole_cards[player]:
            pile.append((_TEXT.index(repr(c)), -1, state.street_index))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_burn_card():
                state.burn_card("??")
                if deck:
                    deck.pop(0)
                continue
            if state.stand_patter_or_discarder_index is not None:
                p = state.stand_patter_or_discarder_index
                hole = list(state.hole_cards[p])
                k = rng.choice((0, 0, 1, 1, 2, 3, 5)) if len(hole) >= 5 else rng.randint(0, len(hole))
                chosen = rng.sample(hole, min(k, len(hole)))
                for c in chosen:
                    pile.append((_TEXT.index(repr(c)), p, state.street_index))
                state.stand_pat_or_discard(chosen)
                actions.append(f"p{p + 1} sd " + "".join(map(repr, chosen)) if chosen else f"p{p + 1} sd")
                continue
            if state.can_deal_hole():
                p = state.hole_dealee_index
                k = len(state.hole_dealing_statuses[p])
                if code in STUD and state.street_index and state.street_index >= 1:
                    needed = sum(len(s) for s in state.hole_dealing_statuses)
                    if len(deck) < needed:
                        flag = "h8"
                        break
                cards = take(k, p if state.street.draw_status else None)
                if len(cards) < k:
                    flag = "deck"
                    break
                text = "".join(_TEXT[c] for c in cards)
                state.deal_hole(text, p)
                continue
            if state.can_deal_board():
                k = state.board_dealing_count
                cards = take(k)
                state.deal_board("".join(_TEXT[c] for c in cards))
                continue
            if state.actor_index is not None:
                p = state.actor_index
                street = state.street_index
                if state.can_post_bring_in():
                    if code == "FR" and flag is None and _bring_in_by_regulation(state) != p:
                        flag = "h4ii"
                        regulation_bring_in = _bring_in_by_regulation(state)
                    if state.can_complete_bet_or_raise_to() and rng.random() < 0.2:
                        state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
                        raises[street] = raises.get(street, 0) + 1
                    else:
                        state.post_bring_in()
                    continue
                facing = state.checking_or_calling_amount
                r = rng.random()
                can_raise = state.can_complete_bet_or_raise_to() and (
                    code != "FO/8" or raises.get(street, 0) < CAP)
                if state.can_fold() and facing and r < 0.25:
                    muck(p)
                    state.fold()
                elif can_raise and r > 0.62:
                    lo = state.min_completion_betting_or_raising_to_amount
                    hi = state.max_completion_betting_or_raising_to_amount
                    if code == "FO/8":
                        amount = lo
                    else:
                        amount = rng.choice((lo, lo, hi, rng.randint(lo, hi)))
                    state.complete_bet_or_raise_to(amount)
                    raises[street] = raises.get(street, 0) + 1
                else:
                    state.check_or_call()
                continue
            if state.showdown_index is not None:
                p = state.showdown_index
                early = state.street_index is not None and state.street_index < len(state.streets) - 1
                alone = sum(state.statuses) == 1
                if early or alone or can_win_now(state, p) or rng.random() < 0.3:
                    state.show_or_muck_hole_cards(True)
                else:
                    muck(p)
                    state.show_or_muck_hole_cards(False)
                continue
            raise AssertionError(f"{code} {seed}: pokerkit waits for nothing it can do")
    out = HandHistory.from_game_state(game, state, ante_trimming_status=fields["ante_trimming_status"])
    gen = Generated(code, seed, fields, list(out.actions), None if flag in ("h8", "deck") else list(state.stacks),
                    flag=flag, bring_in=regulation_bring_in)
    if gen.stacks is not None:
        gen.pushes = [(op.amounts, op.pot_index, op.hand_type_index)
                      for op in state.operations if isinstance(op, ChipsPushing)]
        gen.hole = [[repr(c) for c in h] for h in state.hole_cards]
        gen.board = [repr(c) for c in state.board_cards[0]] if state.board_cards else []
        gen.board = [repr(b[0]) for b in state.board_cards]
    return gen


# --- the odd chip of 5324.42(h)(9)(b)-(d), read independently with pokerkit's own hands -------

_RANKS = "23456789TJQKA"
_LOW_RANKS = "A23456789TJQK"


def _best_five_key(hand_type, cards: list, low: bool):
    best = hand_type.from_game(cards)
    keys = []
    for five in combinations(cards, 5):
        try:
            if hand_type(five) != best:
                continue
        except ValueError:
            continue
        if low:
            # the lowest low card first; a lower card (then a lower suit) is better
            keys.append(tuple(sorted((_LOW_RANKS.index(c.rank), "cdhs".index(c.suit)) for c in five)))
        else:
            keys.append(tuple(sorted(((_RANKS.index(c.rank), "cdhs".index(c.suit)) for c in five), reverse=True)))
    return min(keys) if low else max(keys)


def _hand_types(code: str):
    from pokerkit.hands import OmahaEightOrBetterLowHand, OmahaHoldemHand
    return {"FT": (StandardHighHand,), "NT": (StandardHighHand,), "PO": (OmahaHoldemHand,),
            "FO/8": (OmahaHoldemHand, OmahaEightOrBetterLowHand), "F7S": (StandardHighHand,),
            "F7S/8": (StandardHighHand, EightOrBetterLowHand), "FR": (RegularLowHand,),
            "F2L3D": (None,)}[code]


def regulation_stacks(gen: Generated) -> list[int]:
    """pokerkit's stacks with its pushes re-split where 5324.42 reads the pot differently.

    - A pot whose players hold no qualifying low goes whole to the high hand ((h)(10),
      (j)(7)); pokerkit asks whether anyone at the table has a low, and when someone
      outside the pot does, gives the pot's low half to its players anyway.
    - The chip an even split leaves over goes, in stud, to the tied high hand with the
      highest card by suit, or the tied low hand with the lowest low card by suit
      ((h)(9)(b)-(d)); in the other games to the first tied player clockwise from the button; two or
      more chips over go one each in that order. pokerkit gives them all to the first tied player.
    """
    stacks = list(gen.stacks)
    kinds = _hand_types(gen.code)
    board = [next(PKCard.parse(c)) for c in gen.board]
    hole = [[next(PKCard.parse(c)) for c in h] for h in gen.hole]
    by_pot: dict[int, dict[int, tuple[int, list[int]]]] = {}
    for amounts, pot, kind_index in gen.pushes:
        takers = [i for i, a in enumerate(amounts) if a > 0]
        for i in takers:
            stacks[i] -= amounts[i]   # undo pokerkit's push; re-split below
        by_pot.setdefault(pot, {})[kind_index] = (sum(amounts), takers)
    for shares in by_pot.values():
        if 1 in shares and 0 in shares:
            low_type = kinds[1]
            amount, takers = shares[1]
            if all(low_type.from_game_or_none(hole[i], board) is None for i in takers):
                high_amount, high_takers = shares.pop(0)
                shares.pop(1)
                shares[0] = (high_amount + amount, high_takers)
        for kind_index, (amount, takers) in shares.items():
            each, odd = divmod(amount, len(takers))
            for i in takers:
                stacks[i] += each
            if odd:
                # one chip each in the odd-chip order ((h)(9)(b)-(c), (i)(10), (j)(6)(ii)(a)); pokerkit
                # gives them all to the first
                order = list(takers)
                if gen.code in STUD and kind_index is not None:
                    hand_type = kinds[kind_index]
                    low = hand_type is not StandardHighHand
                    keyed = [(_best_five_key(hand_type, hole[i] + board, low), i) for i in takers]
                    order = [i for _, i in sorted(keyed, reverse=not low)]
                for k in range(odd):
                    stacks[order[k]] += 1
    return stacks


def pokerkit_replay(text: str) -> Generated:
    """pokerkit's replay of a PHH text (as HandHistory replays it), with no hand killed.

    Raises what pokerkit raises for a file it cannot replay.
    """
    from pokerkit.notation import parse_action as pk_parse_action

    hh = HandHistory.loads(text)
    state = hh.create_state()
    state.can_win_now = lambda i: True   # see `generate`: each pot split on its own
    actions = list(hh.actions)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status or actions:
            action = actions.pop(0) if actions else None
            if action is not None:
                try:
                    pk_parse_action(state, action, hh.parse_value)
                    continue
                except ValueError:
                    actions.insert(0, action)
            if state.can_burn_card():
                state.burn_card("??")
            elif state.can_deal_hole():
                state.deal_hole("??")
            elif actions and not state.checking_or_calling_amount and state.can_check_or_call():
                state.check_or_call()
            elif actions and state.can_fold():
                state.fold()
            elif state.status and state.can_show_or_muck_hole_cards(()):
                state.show_or_muck_hole_cards(())
            elif state.can_select_runout_count():
                state.select_runout_count()
            elif state.can_kill_hand():
                state.kill_hand()
            elif state.can_push_chips():
                state.push_chips()
            elif state.can_pull_chips():
                state.pull_chips()
            else:
                break
    if actions:
        raise ValueError("pokerkit: unable to replay the hand history")
    gen = Generated(hh.variant, -1, {}, list(hh.actions), list(state.stacks))
    gen.pushes = [(op.amounts, op.pot_index, op.hand_type_index)
                  for op in state.operations if isinstance(op, ChipsPushing)]
    gen.hole = [[repr(c) for c in h] for h in state.hole_cards]
    gen.board = [repr(b[0]) for b in state.board_cards]
    return gen
