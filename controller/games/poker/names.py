"""The poker games of 5324.42 as the profiles name them: the stud games and the games with blinds."""

STUD_GAMES = (
    "seven-card-stud",          # 5324.42(g)(1) high
    "seven-card-stud-low",      # (g)(1) low (razz, A-5)
    "seven-card-stud-hi-lo",    # (g)(1) high-low split, no qualifier
    "seven-card-stud-hi-lo-8",  # (g)(1) high-low split eight or better
    "five-card-stud",           # (g)(5)
)
BLIND_GAMES = (
    "texas-holdem",             # (g)(2)
    "omaha",                    # (g)(3) high
    "omaha-hi-lo-8",            # (g)(3) high-low split eight or better
    "five-card-draw",           # (g)(4) high
    "five-card-draw-low",       # (g)(4) low
    "triple-draw-2-7",          # 5324.42(l)
    "pineapple",                # (g)(6)
    "crazy-pineapple",          # (g)(6)
)
POKER_GAMES = STUD_GAMES + BLIND_GAMES
