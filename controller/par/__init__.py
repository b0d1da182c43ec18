"""Par sheets: the exact mathematics of the game a table profile configures (issue 21).

A regulator asks what a paytable, a bet multiple, a number of decks or a
progressive's award table does to the house's edge; these modules answer with
exact fractions, counted over every deal, not simulated. Each game's mathematics
and its sheet are in its own package (its books' `par`, a `sheet.GameSheet`: the
rules that determine the sheet, the figures, the line for `config check`, the
text of `tablectl par`, the supervisor's screen). Here: the cache (`cache`), what
every sheet shares and the way to a profile's sheet (`sheet`), the command (`cli`)
and the job that fills the cache in the background (`background`).

Nothing here is imported by a round: the table only reads a sheet already cached.
"""
