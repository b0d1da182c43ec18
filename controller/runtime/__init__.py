"""The live table's parts that are not the queue and its consumer (controller/table.py).

- stud.py, war.py: each banked game at the table: the round machine plus the
  deck, the shoe and the dealer's buttons, still a pure function of journaled events;
- poker.py: a poker hand (controller/poker's engine) with the dealer's entries, and
  the seats and the button between hands;
- tablestate.py: what every table carries from round to round, its snapshot, and
  rebuilding the round in progress from the journal; stud_table.py (the meter),
  war_table.py (the shoe), poker_table.py (seats, button, decks, jackpot, time
  charges) each game's own, as controller/games/registry.py names them;
- faults.py, view.py, workers.py, software.py: what the table holds beside its
  consumer: the fault state, the published state, the device workers, and new
  software waiting for its supervisors; loop.py what their tasks share;
- devices.py: drivers wired to the queue, and the effects sent back to them;
- world.py: the emulated devices of the embedded default, whose physical state
  (cards in the shoe, chips on the acceptors) outlives the controller process;
- autoplay.py: emulated players, dealer and supervisor for demos and soak runs;
- ledger.py: the money of every journaled round, added up from the journal;
- retell.py: `tablectl rounds show` for a round the table played.
"""
