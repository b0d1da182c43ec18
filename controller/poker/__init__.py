"""The poker room of 5324.42: games as data, the hand engine, pots, showdown, and PHH.

- variants: the games of 5324.42(g) in their betting structures (one row each)
- hand: a hand taken one action at a time (HandSetup, Hand, HandResult)
- betting / pots / showdown / deck: the rules the hand applies
- actions / phh: PHH action notation and files; replay: `tablectl poker replay`
- rake / jackpot: the house's take (5324.42(o)) and jackpot payouts ((r))
- irregularities: the dealer's events of (p); button / kill / decks: table procedure

Submodules are imported on use, so `tablectl poker replay` loads only what it needs.
"""
