"""Reports for the pit, the count room and the regulator (`tablectl report`, `tablectl floor report`).

The journal is read once into per-round facts (facts.py), the facts of a period
are added up (figures.py) into the JSON contract of the README, and the same
adding-up serves one table, the supervisor's screen and the whole floor, so the
three can never disagree about what a round was worth.
"""
