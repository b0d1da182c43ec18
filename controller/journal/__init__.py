"""The record of the table: every event, card, meter movement and sign-off, durable before it takes effect.

One subsystem in one folder: `store` (the SQLite journal: hash chain, MAC, one transaction per
batch), `sealing` (the whole-file seal and the descriptors held for the journal's life), `durable`
(the atomic replace the seal and the screens' small state use), `anchor` (the journal's head kept
off the box), `selfcheck` (the power-up check and the fault state), `severity` (what each problem
takes to accept), `custody` (root at the terminal acting as the table's user), `archive` (export
and verify on any machine) and `readback` (the rounds reconstructed, `journal verify`).
"""
