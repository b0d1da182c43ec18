"""Par sheets: the exact mathematics of the game a table profile configures (issue 21).

A regulator asks what a paytable, a bet multiple, a number of decks or a
progressive's award table does to the house's edge; these modules answer with
exact fractions, counted over every deal, not simulated. One module per game's
mathematics (`stud_counts`, `stud`, `progressive`, `war`, `poker`), one for the
cache (`cache`), one that turns a profile into its sheet (`sheet`), one for the
command (`cli`) and one that fills the cache in the background (`background`).

Nothing here is imported by a round: the table only reads a sheet already cached.
"""
