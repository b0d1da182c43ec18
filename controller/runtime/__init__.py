"""The live table's parts that are not the queue and its consumer (controller/table.py).

- stud.py, war.py: each banked game at the table: the round machine plus the
  deck, the shoe and the dealer's buttons, still a pure function of journaled events;
- poker.py: a poker hand (controller/poker's engine) with the dealer's entries, and
  the seats and the button between hands;
- tablestate.py: what the table carries from round to round (meter, shoe), its
  snapshot, and rebuilding the round in progress from the journal;
- devices.py: drivers wired to the queue, and the effects sent back to them;
- world.py: the emulated devices of the embedded default, whose physical state
  (cards in the shoe, chips on the acceptors) outlives the controller process;
- autoplay.py: emulated players, dealer and supervisor for demos and soak runs;
- ledger.py: the money of every journaled round, added up from the journal;
- retell.py: `tablectl rounds show` for a round the table played.
"""
