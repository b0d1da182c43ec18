"""Fuzzing the trust boundaries (issue 15): random event sequences through the live table, mutated
frames through every device protocol.

  .venv/bin/python benchmarks/fuzz.py [--game stud|war|poker|all] [--sequences N] [--events K]
                                      [--frames M] [--protocol NAME|all] [--seed S]

1. Event sequences. A real `Table` per game (in-process, its devices emulated behind the real
   drivers, the journal in a temporary directory) takes N sequences of K random events each: every
   kind any game knows, from every source (panel, supervisor, device, link, and sources that do not
   exist), fields of every JSON type, lawful next steps mixed in so the junk lands in every phase.
   Each sequence is queued at once (one batch for the consumer, as a burst from the network would
   be) and starts from a fresh round: the round before it is ended by its lawful steps or a void.
   A clear_fault or accept_software may land anywhere in a sequence (--clearing-first puts one
   first, as the first version of this benchmark had to before the consumer answered what was
   queued before a clearing in the same batch).
   Counted: crashes (the table faulted, or a submission got no answer), illegal states (a state the
   game does not declare, a card out twice, a view that is not well-formed), cards accepted out of
   sequence (the round's cards are not the accepted card events, in order), money not conserved
   (a closed round whose wagers are not settled or returned to the cent, a meter that moved by
   anything but contributions and awards, a poker hand whose stacks do not add up).
2. Mutated frames. Valid frames of each protocol (shoe, shuffler, manual shoe, progressive HID
   reports, the bare serial framing) with bytes flipped, inserted, deleted, truncated or
   duplicated, fed to the decoders. Counted: crashes (any exception but the declared protocol
   errors of drivers/errors.py), illegal states (a decoded frame that does not decode again to
   itself, a report that does not re-encode to its bytes, a stream decoder holding more than one
   frame's bytes), and card reports accepted out of sequence by the protocol's
   running count (each shoe's Tally: the load number, the count and the place in the stack).
   Baseline, in the same run: the same count of unmutated frames through the same decoders.

Exit status 0 only when every count is 0.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import structlog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.security.state_machine_helpers import (CARD_TEXT, FIELDS, STEPS, Broken, LiveTable, check_poker_money,
                                   check_round, check_stud_money, check_war_money, lawful_submission,
                                   settle_down)

GAMES = ("stud", "war", "poker")
SOURCES = ("panel", "supervisor", "device", "link", "panel", "supervisor", "device", "link", "table", "", "web")
WHO = (None, "dealer", "SUP1", "", "shoe", "x" * 40)


# -- random events (plain `random`: hypothesis's generation is too slow for 10^5 sequences) ---------

def junk(rng: random.Random, depth: int = 0):
    k = rng.randrange(9 if depth < 2 else 6)
    if k == 0:
        return None
    if k == 1:
        return rng.random() < 0.5
    if k == 2:
        return rng.randrange(-2**40, 2**40)
    if k == 3:
        return rng.random() * 1e6
    if k == 4:
        return rng.choice(["", "As", "10h", "dealer", "\u0000", "x" * 300, "bet"])
    if k == 5:
        return rng.randrange(-3, 12)
    if k == 6:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(3))]
    if k == 7:
        return {rng.choice(["a", "seat", "", "1"]): junk(rng, depth + 1) for _ in range(rng.randrange(3))}
    return nested(rng.randrange(1, 60))


def nested(n: int):
    v: object = 1
    for _ in range(n):
        v = [v]
    return v


def value(rng: random.Random, name: str):
    pools = {
        "seat": lambda: rng.randrange(-1, 12), "amount": lambda: rng.choice([500, 1000, 2500, 50_000, 0, -5, 10**12]),
        "stake": lambda: rng.choice([500, 1000, 100_000, 0, 10**9]), "war_tie": lambda: rng.choice([500, 0, 7]),
        "stack": lambda: rng.choice([20_000, 1, 10**9]), "card": lambda: rng.choice(CARD_TEXT + ["??", "1s"]),
        "cards": lambda: rng.sample(CARD_TEXT, rng.randrange(6)), "to": lambda: rng.choice([1, 3, 8, "dealer"]),
        "wager": lambda: rng.choice(["ante", "progressive", "initial", "tie", "war", "bet"]),
        "decision": lambda: rng.choice(["bet", "fold", "surrender", "war"]),
        "reason": lambda: rng.choice(["misdeal", "", "why"]), "supervisor": lambda: rng.choice(["SUP1", ""]),
        "second_signer": lambda: rng.choice(["SUP2", ""]), "total": lambda: rng.choice([52, 51, 0, 400]),
        "anomalies": lambda: rng.choice([[], ["As"], [1]]), "truncated": lambda: rng.random() < 0.2,
        "dispensed": lambda: rng.randrange(-1, 60), "cover_reached": lambda: rng.random() < 0.5,
        "drawn": lambda: rng.randrange(-1, 400), "count": lambda: rng.randrange(-1, 6),
        "verbal": lambda: rng.random() < 0.5, "up": lambda: {rng.choice(["1", "2", "5", "x"]): rng.sample(CARD_TEXT, 1)},
        "action": lambda: rng.choice(["p1 f", "p2 cc", "p1 cbr 600", "d db AhKhQh", "", "p9 f"]),
        "awards": lambda: [], "refused": lambda: "pool down", "hand": lambda: "x",
    }
    return pools[name]()


def random_event(rng: random.Random):
    shape = rng.randrange(20)
    if shape == 0:
        return junk(rng)
    kind = rng.choice(TYPES) if shape > 1 else junk(rng)
    event: dict = {"type": kind}
    for name in FIELDS.get(kind, ()) if isinstance(kind, str) else ():
        how = rng.randrange(10)
        if how:
            event[name] = junk(rng) if how == 1 else value(rng, name)
    if rng.randrange(15) == 0:
        event[rng.choice(["extra", "seat", "who"])] = junk(rng)
    return event


TYPES = sorted(FIELDS)


# -- 1. event sequences through the live table ----------------------------------------------------

def placed_of(game: str, events: list[dict]) -> dict:
    placed: dict = {}
    for e in events:
        if game == "stud" and e["type"] == "ante":
            placed[e["seat"]] = e["amount"]
        elif game == "stud" and e["type"] == "remove" and e.get("wager") == "ante":
            placed.pop(e["seat"], None)
        elif game == "war" and e["type"] == "wager":
            placed[(e["seat"], e["wager"])] = e["stake"]
    return placed


def round_checks(game: str, t, meter_before: int | None) -> Counter:
    """The invariants of the table's round now (run on the table's loop, between batches)."""
    out: Counter = Counter()
    r = t.state.round if t.state else None
    if r is None:
        return out
    try:
        check_round(game, r, 6 if game == "war" else 1)
    except Broken:
        out["illegal states"] += 1
    if game == "stud":
        taken = [e["card"] for e in r.events if e["type"] in ("shoe_card", "card")]
        if [str(c) for c in r.m.d.dealt] + [str(c) for c in r.buffer] != taken:
            out["cards accepted out of sequence"] += 1
    if game == "war":
        taken = [e["card"] for e in r.events if e["type"] in ("shoe_card", "card")]
        if [str(c) for c in r.m.drawn] != taken:
            out["cards accepted out of sequence"] += 1
    if r.closed:
        try:
            if game == "stud":
                check_stud_money(r, placed_of(game, r.events), r.opening["meter"]["amount"])
            elif game == "war":
                check_war_money(r, placed_of(game, r.events))
            else:
                check_poker_money(r)
        except (Broken, KeyError, TypeError) as exc:
            out["money not conserved"] += 1
            out.setdefault("first money", str(exc))   # type: ignore[arg-type]
    return out


def well_formed(view: dict) -> bool:
    import json
    try:
        json.dumps(view)
        rnd = view["round"]
        return isinstance(rnd["state"], str) and isinstance(rnd["next_step"], str) and isinstance(view["seats"], list)
    except (TypeError, KeyError, ValueError):
        return False


CLEARING = ("clear_fault", "accept_software")


def fuzz_table(game: str, sequences: int, per: int, seed: int, clearing_first: bool = False,
               data_root: str | None = None) -> dict:
    rng = random.Random(seed)
    counts: Counter = Counter()
    reasons: Counter = Counter()
    first: dict[str, str] = {}
    deck = list(CARD_TEXT)
    submitted = 0
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{game}-", dir=data_root) as tmp:
        live = LiveTable(game, Path(tmp) / "data", timeout=30)
        try:
            started = time.perf_counter()
            for i in range(sequences):
                if live.table.fault:   # counted when it happened: a fresh table for the next sequence
                    live.close()
                    live = LiveTable(game, Path(tmp) / f"data{i}", timeout=30)
                rng.shuffle(deck)
                if not settle_down(live, deck):
                    counts["stuck (no fresh round)"] += 1
                    first.setdefault("stuck (no fresh round)", str(live.table.published().get("round")))
                    live.close()
                    live = LiveTable(game, Path(tmp) / f"data{i}", timeout=30)
                    continue
                t = live.table
                meter_before = live.on_loop(lambda t=t: t.state.round.meter.amount if game == "stud" else None)
                items = []
                steps = live.on_loop(lambda t=t: STEPS[game](t.state.round, deck))
                for _ in range(per):
                    if steps and rng.random() < 0.5:
                        items.append(lawful_submission(rng.choice(steps)))
                    else:
                        items.append((random_event(rng), rng.choice(SOURCES), rng.choice(WHO)))
                if clearing_first:
                    clearing = [x for x in items if isinstance(x[0], dict) and x[0].get("type") in CLEARING]
                    items = clearing[:1] + [x for x in items if x not in clearing]
                try:
                    results = live.submit_many(items)
                except Exception as exc:
                    counts["crashes"] += 1
                    first.setdefault("crashes", f"{exc!r}: no answer to {items!r}"[:900])
                    continue
                submitted += len(items)
                if any(not isinstance(r, dict) or not isinstance(r.get("ok"), bool) for r in results):
                    counts["crashes"] += 1
                if t.fault:
                    counts["crashes"] += 1
                    first.setdefault("crashes", f"{t.fault['reason']} after {items!r}"[:600])
                    reasons[t.fault["reason"].split(":")[0][:40] + ": " + t.fault["reason"].split(": ", 1)[-1][:90]] += 1
                    continue
                found = live.on_loop(lambda t=t, meter_before=meter_before: round_checks(game, t, meter_before))
                for k, v in found.items():
                    if k.startswith("first "):
                        first.setdefault(k[6:], v)
                    else:
                        counts[k] += v
                if not well_formed(live.on_loop(t.published)):
                    counts["illegal states"] += 1
            elapsed = time.perf_counter() - started
        finally:
            live.close()
    return {"game": game, "sequences": sequences, "events": submitted, "seconds": elapsed,
            "counts": counts, "first": first, "reasons": reasons}


# -- 2. mutated frames -----------------------------------------------------------------------------

def mutate(rng: random.Random, frame: bytes) -> bytes:
    b = bytearray(frame)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        op = rng.randrange(5)
        if op == 0 and b:                     # flip a bit
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:                         # insert a byte
            b.insert(rng.randrange(len(b) + 1), rng.randrange(256))
        elif op == 2 and b:                   # delete a byte
            del b[rng.randrange(len(b))]
        elif op == 3 and b:                   # truncate
            del b[rng.randrange(len(b)):]
        elif b:                               # duplicate a slice
            i = rng.randrange(len(b))
            j = rng.randrange(i, min(len(b), i + 8) + 1)
            b[j:j] = b[i:j]
    return bytes(b)


def serial_frames(rng: random.Random):
    from controller.cards import CARDS
    from drivers.manual_shoe import protocol as m
    from drivers.pairing import FACTORY_KEY, LinkSeal, Side
    from drivers.serial_link import framing
    from drivers.shoe import protocol as s
    seal = LinkSeal(FACTORY_KEY, Side.DEVICE)   # the parsers read shape; the seal is the link's (drivers/pairing.py)

    def encode_frame(seq: int, type_: int, payload: bytes = b"") -> bytes:
        return framing.encode_frame(seq, type_, payload, seal)
    from drivers.shuffler import protocol as f
    shoe = [encode_frame(i & 0xFF, s.CARD_DISPENSED, s.CardDispensed(CARDS[i % 52], i % 5 + 1, 5, i + 1).payload())
            for i in range(200)]
    shoe += [encode_frame(i, t, bytes((0, i))) for i, t in enumerate((s.COVER_CARD_REACHED, s.SHOE_EMPTY,
                                                                     s.JAM_CLEARED, s.SHOE_LOADED))]
    shoe += [encode_frame(9, s.SHOE_JAMMED, bytes((1, 0, 7)))]
    shuffler = [encode_frame(i & 0xFF, f.COUNT_RESULT, f.DeckCount(51 + i % 2, (f.Anomaly(f.AnomalyKind.MISSING,
                                                                                         CARDS[i % 52]),) * (i % 2),
                                                                  False, True).payload()) for i in range(100)]
    shuffler += [encode_frame(i, t) for i, t in enumerate((f.DECK_INSERTED, f.DECK_REMOVED, f.SHUFFLE_STARTED))]
    manual = [encode_frame(i & 0xFF, m.CARD_DRAWN, m.CardDrawn(CARDS[i % 52], i + 1, i + 1).payload())
              for i in range(200)]
    manual += [encode_frame(250, m.SHOE_LOADED, bytes((1, 56))), encode_frame(251, m.CARD_UNREAD,
                                                                              m.CardUnread(201, 201).payload())]
    return {"shoe": (shoe, s.parse_event), "shuffler": (shuffler, f.parse_event),
            "manual_shoe": (manual, m.parse_event)}


def fuzz_serial(name: str, frames: list[bytes], parse, count: int, seed: int, mutated: bool = True) -> dict:
    from drivers.errors import BadFrame, DeviceError
    from drivers.manual_shoe import protocol as m
    from drivers.serial_link.framing import FrameDecoder, decode_frame
    rng = random.Random(seed)
    counts: Counter = Counter()
    first: dict[str, str] = {}
    from drivers.shoe import protocol as sp
    tally = m.Tally() if name == "manual_shoe" else sp.Tally() if name == "shoe" else None
    decoder = FrameDecoder()
    accepted = 0
    started = time.perf_counter()
    for i in range(count):
        raw = frames[i % len(frames)]
        data = mutate(rng, raw) if mutated else raw
        try:
            items = decoder.feed(data) if name != "framing" else [decode_frame(data)]
            if i % 64 == 63:
                items += decoder.expire()
            for item in items:
                if isinstance(item, BadFrame):
                    continue
                if decode_frame(item.encode()) != item or decoder.pending > 5 + 255:
                    counts["illegal states"] += 1   # a frame that is not one, or a buffer that grows
                    first.setdefault("illegal states", f"{item} from {data.hex()}")
                if parse is None:
                    accepted += 1
                    continue
                try:
                    event = parse(item)
                except (BadFrame, DeviceError):
                    continue
                accepted += 1
                if name == "manual_shoe":
                    before = tally.drawn
                    refused = tally.check(event)
                    if (refused is None and isinstance(event, (m.CardDrawn, m.CardUnread)) and before is not None
                            and event.drawn != before + 1):
                        counts["cards accepted out of sequence"] += 1
                elif name == "shoe":
                    before, load = tally.dispensed, tally.load
                    refused = tally.check(event)
                    if (refused is None and isinstance(event, sp.CardDispensed) and before is not None
                            and (event.dispensed != before + 1 or event.load != load)):
                        counts["cards accepted out of sequence"] += 1
        except (BadFrame, DeviceError):
            continue
        except Exception as exc:
            counts["crashes"] += 1
            first.setdefault("crashes", f"{exc!r} on {data.hex()}")
    return {"protocol": name, "frames": count, "accepted": accepted, "seconds": time.perf_counter() - started,
            "counts": counts, "first": first}


def fuzz_hid(count: int, seed: int, mutated: bool = True) -> dict:
    from drivers.errors import BadFrame, DeviceError
    from drivers.progressive import protocol as p
    rng = random.Random(seed)
    reports = [p.encode_report(p.STATE, i & 0xFF, p.InputState(bool(i & 1), frozenset({1, 3}), frozenset(), i & 0xFF,
                                                               frozenset({1})).payload()) for i in range(100)]
    reports += [p.encode_output(i & 0xFF, p.SetLights((p.Light.ON,) * 7, bool(i & 1))) for i in range(50)]
    reports += [p.encode_output(7, p.SetMeter(123_456, p.MeterMode(0))), p.encode_output(8, p.Sync())]
    counts: Counter = Counter()
    first: dict[str, str] = {}
    tracker = p.StateTracker()
    accepted = 0
    started = time.perf_counter()
    for i in range(count):
        raw = reports[i % len(reports)]
        data = mutate(rng, raw) if mutated else raw
        for parse in (p.parse_input, p.parse_output):
            try:
                seq, message = parse(data)
            except (BadFrame, DeviceError):
                continue
            except Exception as exc:
                counts["crashes"] += 1
                first.setdefault("crashes", f"{parse.__name__}: {exc!r} on {data.hex()}")
                continue
            accepted += 1
            try:
                if isinstance(message, p.InputState):
                    tracker.update(message)
                elif parse is p.parse_output and p.encode_output(seq, message) != data:
                    counts["illegal states"] += 1
                    first.setdefault("illegal states", f"{message} does not re-encode to {data.hex()}")
            except Exception as exc:
                counts["crashes"] += 1
                first.setdefault("crashes", f"{exc!r} after {message}")
    return {"protocol": "progressive (HID reports)", "frames": count, "accepted": accepted,
            "seconds": time.perf_counter() - started, "counts": counts, "first": first}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="all", choices=[*GAMES, "all", "none"])
    ap.add_argument("--sequences", type=int, default=100_000, help="event sequences per game")
    ap.add_argument("--events", type=int, default=8, help="events per sequence")
    ap.add_argument("--protocol", default="all",
                    choices=["shoe", "shuffler", "manual_shoe", "progressive", "framing", "all", "none"])
    ap.add_argument("--frames", type=int, default=1_000_000, help="mutated frames per protocol")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--clearing-first", action="store_true",
                    help="put a sequence's clear_fault/accept_software first (and drop any other)")
    ap.add_argument("--data-root", default=None,
                    help="where the tables' journals go (default the system's temporary directory; "
                         "/dev/shm takes the disk's fsync out of the rate, not out of the checks)")
    args = ap.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
    logging.disable(logging.CRITICAL)
    bad = 0
    games = GAMES if args.game == "all" else () if args.game == "none" else (args.game,)
    for game in games:
        r = fuzz_table(game, args.sequences, args.events, args.seed, args.clearing_first, args.data_root)
        rate = r["sequences"] / r["seconds"] if r["seconds"] else 0.0
        print(f"live table, {game}: {r['sequences']:,} sequences, {r['events']:,} events in {r['seconds']:.1f} s "
              f"({rate:,.1f} sequences/s, {r['events'] / max(r['seconds'], 1e-9):,.0f} events/s)")
        for k in ("crashes", "illegal states", "cards accepted out of sequence", "money not conserved",
                  "stuck (no fresh round)"):
            print(f"  {k:34s} {r['counts'].get(k, 0):>10,}")
            bad += r["counts"].get(k, 0)
        for reason, n in r["reasons"].most_common(8):
            print(f"  fault {n:>6,}x  {reason}")
        for k, v in r["first"].items():
            print(f"  first of {k}: {v}")
    rng = random.Random(args.seed)
    frames = serial_frames(rng)
    protocols = ["shoe", "shuffler", "manual_shoe", "progressive", "framing"] if args.protocol == "all" else \
        [] if args.protocol == "none" else [args.protocol]
    for name in protocols:
        if name == "progressive":
            base = fuzz_hid(min(args.frames, 200_000), args.seed, mutated=False)
            r = fuzz_hid(args.frames, args.seed)
        else:
            src, parse = frames[name] if name != "framing" else (frames["shoe"][0], None)
            base = fuzz_serial(name, src, parse, min(args.frames, 200_000), args.seed, mutated=False)
            r = fuzz_serial(name, src, parse, args.frames, args.seed)
        print(f"mutated frames, {r['protocol']}: {r['frames']:,} in {r['seconds']:.1f} s "
              f"({r['frames'] / r['seconds']:,.0f}/s; baseline, unmutated: {base['frames'] / base['seconds']:,.0f}/s); "
              f"{r['accepted']:,} decoded to a message")
        for k in ("crashes", "illegal states", "cards accepted out of sequence"):
            print(f"  {k:34s} {r['counts'].get(k, 0):>10,}")
            bad += r["counts"].get(k, 0)
        for k, v in r["counts"].items():
            if k not in ("crashes", "illegal states", "cards accepted out of sequence"):
                print(f"  {k:34s} {v:>10,} (reported, not a failure of the decoder)")
        for k, v in r["first"].items():
            print(f"  first of {k}: {v}")
    print("verdict:", "0 crashes, 0 illegal states, 0 cards out of sequence, money conserved" if not bad
          else f"{bad} finding(s)")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
