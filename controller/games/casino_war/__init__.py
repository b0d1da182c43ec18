"""Casino war (9 NYCRR 5324.22): rules, round records, the shoe and the round machine.

- rules.py   pure settlement and the order of the deal; no I/O.
- record.py  the round record of shared/spec/rounds.md, read strictly and settled.
- shoe.py    the 6-8 deck shoe with its cover card, burn cards and discard rack.
- machine.py the round procedure as a state machine fed with events.
"""
