"""Caribbean stud poker (9 NYCRR 5324.37): pure settlement (rules, record) and the round machine."""
