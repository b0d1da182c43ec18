"""An emulated Caribbean stud table playing rounds on a linked progressive, as its own process.

Used by tests/link (several of these at once on one pool, the database crashed
under them, one killed between the pool's commit and its own confirmation) and
by benchmarks/link.py. Each round is a pure function of (seed, round number):
which seats make a progressive wager, and which of them hit. Hits come far more
often than real cards would give them (a rigged shoe), and each hit's cards are
dealt to make that hand and checked with controller.hands.high, so the pool's
audit can verify them. As the live table must (9 NYCRR 5321.18(c)), the emulated
dealer takes no progressive wager while the link says unplayable and goes on
with the base game. A round whose progressive was taken before the link went
down stays queued in the outbox and reaches the pool when the link is back.

    python -m controller.link.sim --config table.toml --rounds 200 --seed 1 --result out.json

Started again with the same seed after a crash, the table replays its rounds:
an operation already in the outbox is not recorded again, only sent if it was
never confirmed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import time
from pathlib import Path

import structlog

from controller.link.config import load_link_config
from controller.link.errors import LinkError, LinkRefused
from controller.link.pool import ProgressiveLink

HIT_WEIGHTS = (("flush", 50), ("full-house", 30), ("four-of-a-kind", 12), ("straight-flush", 6),
               ("royal-flush", 2))
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def make_hand(hand: str, rng: random.Random) -> str:
    """Five cards that make `hand` (a rigged deal), checked by the project's evaluator."""
    from controller.cards import parse_cards
    from controller.hands import high
    for _ in range(100):
        suit = rng.choice(SUITS)
        if hand == "royal-flush":
            cards = [r + suit for r in "AKQJT"]
        elif hand == "straight-flush":
            top = rng.randrange(3, 12)  # 5-high .. king-high
            ranks = [RANKS[(top - i) % 13] if top - i >= 0 else "A" for i in range(5)]
            cards = [r + suit for r in ranks]
        elif hand == "four-of-a-kind":
            r, k = rng.sample(RANKS, 2)
            cards = [r + s for s in SUITS] + [k + rng.choice(SUITS)]
        elif hand == "full-house":
            r, p = rng.sample(RANKS, 2)
            cards = [r + s for s in rng.sample(SUITS, 3)] + [p + s for s in rng.sample(SUITS, 2)]
        elif hand == "flush":
            cards = [r + suit for r in rng.sample(RANKS, 5)]
        else:
            raise ValueError(f"not a progressive hand: {hand}")
        if high.category(high.value(parse_cards(cards))) == hand:
            return "".join(cards)
    raise AssertionError(f"could not deal a {hand}")


def plan_round(seed: int, n: int, wager_rate: float, hit_rate: float) -> tuple[list[int], list[tuple[int, str, str]]]:
    """Seats with a progressive wager and the hits of round n: a pure function of (seed, n)."""
    rng = random.Random(f"{seed}:{n}")
    if rng.random() >= wager_rate:
        return [], []
    seats = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
    hands = [h for h, _ in HIT_WEIGHTS]
    weights = [w for _, w in HIT_WEIGHTS]
    winners = [(seat, rng.choices(hands, weights)[0]) for seat in seats if rng.random() < hit_rate]
    dealt = deal_hands([h for _, h in winners], rng)
    return seats, [(seat, hand, cards) for (seat, hand), cards in zip(winners, dealt, strict=True) if cards is not None]


def deal_hands(hands: list[str], rng: random.Random) -> list[str | None]:
    """Cards for each hand of one round, no card in two hands (one deck; the pool refuses a card
    claimed twice); None for a hand the deck can no longer make (a fifth royal flush)."""
    used: set[str] = set()
    out: list[str | None] = []
    for hand in hands:
        for _ in range(50):
            cards = make_hand(hand, rng)
            if not used & {cards[i:i + 2] for i in range(0, 10, 2)}:
                used |= {cards[i:i + 2] for i in range(0, 10, 2)}
                out.append(cards)
                break
        else:
            out.append(None)
    return out


async def play(args: argparse.Namespace) -> dict:
    config = load_link_config(args.config)
    outbox = Path(args.outbox) if args.outbox else config.outbox_path(Path(args.config).parent)
    client = ProgressiveLink(config, outbox)
    contributions = {"n": 0}
    if args.crash_after_send:
        def crash(op, answer):
            if op.kind == "contribution":
                contributions["n"] += 1
                if contributions["n"] >= args.crash_after_send:
                    os._exit(17)  # killed after the pool's commit, before the outbox's confirmation
        client.fault_after_send = crash
    out: dict = {"table": config.table, "rounds": 0, "progressive_rounds": 0, "unplayable_rounds": 0,
                 "queued": 0, "claims": 0, "awards": [], "refused": [], "latencies_ms": []}
    await client.start()
    if args.wait_playable_start:
        await client.wait_playable(args.wait_playable_start)
    for n in range(1, args.rounds + 1):
        round_id = f"{args.prefix}{n}"
        seats, hits = plan_round(args.seed, n, args.wager_rate, args.hit_rate)
        out["rounds"] += 1
        recorded = client.outbox.find(config.pool, "contribution", round_id) is not None
        if seats and (client.status.playable or recorded):
            t0 = time.perf_counter()
            try:
                sent = await client.contribute(round_id, seats)
            except LinkRefused as exc:
                out["refused"].append(f"{round_id}: {exc.message}")
                continue
            out["latencies_ms"].append((time.perf_counter() - t0) * 1000)
            out["progressive_rounds"] += 1
            out["queued"] += not sent.confirmed
            if hits:
                sent = await client.claim(round_id, hits)
                out["claims"] += 1
                for seat, _hand, _ in hits:
                    await client.settle(round_id, seat, status="paid", supervisor=f"sup-{config.table}",
                                        validation=sim_validation(round_id, seat, f"sup-{config.table}"))
                if sent.confirmed and sent.result is not None:
                    out["awards"].extend(sent.result["awards"])
            await client.close_round(round_id)   # the round recorded: no claim for it from now on (issue 26)
        elif seats:
            out["unplayable_rounds"] += 1  # base game only: the acceptors show the wager unplayable
        if args.pace_ms:
            await asyncio.sleep(args.pace_ms / 1000)
    if args.royal_barrier:
        await royal_round(client, args, out)
    out["playable_at_end"] = await client.wait_playable(args.wait_playable)
    out["reason_at_end"] = client.status.reason
    out["differences"] = list(client.status.differences)
    await client.stop(close_table=args.close)
    if not args.latencies:
        out.pop("latencies_ms")
    return out


async def royal_round(client: ProgressiveLink, args: argparse.Namespace, out: dict) -> None:
    """Contribute, then claim a royal flush at the instant agreed with the other tables;
    watch the pool's pending awards for a while."""
    round_id = f"{args.prefix}royal"
    await client.contribute(round_id, [args.royal_seat])
    barrier = Path(args.royal_barrier)
    (barrier / f"ready-{client.config.table}").touch()
    # Another process (the test) writes the instant once every table is ready: a file is the only
    # thing shared, so the wait is a poll, bounded.
    deadline = time.monotonic() + 120
    while not (barrier / "go").exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no go in {barrier} within 120 s")
        await asyncio.sleep(0.01)
    await asyncio.sleep(max(0.0, float((barrier / "go").read_text()) - time.time()))
    sent = await client.claim(round_id, [(args.royal_seat, "royal-flush", "AhKhQhJhTh")])
    out["royal"] = dict(sent.result or {})
    seen = 0
    deadline = time.time() + args.royal_watch
    while time.time() < deadline:
        seen = max(seen, sum(1 for a in client.status.pending_awards if a["hand"] == "royal-flush"))
        await asyncio.sleep(0.05)
    out["royal_pending_seen"] = seen
    await client.settle(round_id, args.royal_seat, status="paid", supervisor=f"sup-{client.config.table}",
                        validation=sim_validation(round_id, args.royal_seat, f"sup-{client.config.table}"))
    await client.close_round(round_id)


def sim_validation(round_id: str, seat: int, who: str) -> dict:
    """An emulated table has no journal: its validation record names an entry of its own making,
    the same each time the round is played again (a restarted table asks the same operation)."""
    import hashlib
    return {"entry": 0, "at": "emulated",
            "hash": hashlib.sha256(f"{round_id}#{seat}".encode()).hexdigest(), "source": "supervisor",
            "who": who, "event": "validate", "seat": int(seat)}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m controller.link.sim", description=__doc__.splitlines()[0])
    p.add_argument("--config", required=True, help="TOML file with a [link] table")
    p.add_argument("--outbox", help="the table's outbox (default: the config's, beside the file)")
    p.add_argument("--rounds", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--prefix", default="r", help="round ids are PREFIX1, PREFIX2, ...")
    p.add_argument("--wager-rate", type=float, default=0.9, help="share of rounds with progressive wagers")
    p.add_argument("--hit-rate", type=float, default=0.05, help="share of progressive wagers that hit")
    p.add_argument("--pace-ms", type=float, default=0, help="pause between rounds")
    p.add_argument("--crash-after-send", type=int, default=0,
                   help="exit(17) after the pool answered the Nth contribution, before the outbox confirms it")
    p.add_argument("--royal-barrier", help="at the end: contribute, write DIR/ready-TABLE, wait for DIR/go "
                                          "(an epoch time) and claim a royal flush at that instant")
    p.add_argument("--royal-seat", type=int, default=3)
    p.add_argument("--royal-watch", type=float, default=2.0, help="seconds to watch pending awards after it")
    p.add_argument("--wait-playable-start", type=float, default=0)
    p.add_argument("--wait-playable", type=float, default=30, help="at the end, wait this long to reconcile")
    p.add_argument("--close", action="store_true", help="close the table on the pool at the end")
    p.add_argument("--latencies", action="store_true", help="report each contribution's latency")
    p.add_argument("--result", help="write the summary (JSON) here")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    structlog.configure(
        processors=[structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso"),
                    structlog.processors.JSONRenderer()],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr))
    try:
        out = asyncio.run(play(args))
    except LinkError as exc:
        print(f"link: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(out, indent=1)
    if args.result:
        Path(args.result).write_text(text)
    else:
        print(text)
    return 0 if out["playable_at_end"] else 3


if __name__ == "__main__":
    sys.exit(main())
