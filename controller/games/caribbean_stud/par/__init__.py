"""Caribbean stud's exact mathematics: the count of every deal (counts), the paytable's edge and the
player's best play (paytable), the progressive's return (progressive)."""
