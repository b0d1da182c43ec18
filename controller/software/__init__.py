"""The table's software as a test lab sees it: every file it runs, verified on demand under a seed.

tree.py finds the files (the install's tree against its RECORDs, the interpreter and its standard
library, the units and the profile) and what is wrong with them; verify.py is `tablectl software
verify`; history.py is `tablectl software history`. The power-up check (controller/journal/selfcheck.py)
asks tree.py for the install's problems at every start.
"""
