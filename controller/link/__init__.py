"""Tables linked through PostgreSQL: a linked progressive meter and a poker room's jackpot pool.

One box cannot hold a meter that many tables share, so the shared state lives in
PostgreSQL (schema.sql) and each table's box is a client of it (pool.py,
jackpot.py). The database orders simultaneous hits; the box keeps a durable
outbox of every operation it sends (outbox.py), so that a retry after a lost link
or a crash is idempotent and the table's records can be checked against the
pool's (9 NYCRR 5321.18(c)). `tablectl link` (cli.py) creates and inspects pools.
"""
