"""Kill the running table at random points and check what it comes back to.

A lane is one table (one data directory) run as `tablectl run --autoplay` in a
child process, killed with SIGKILL after a delay drawn from a seeded RNG,
restarted at once, killed again, and so on; then run once more to finish the
round in progress (`--rounds 1`), and checked from its journal.

Children are forked from a zygote: a Python process that has imported the table
and then forks a child per start, which runs `controller.cli.main` exactly as
the `tablectl` script does. The kill hits a real, separate process with its
journal, emulator threads and device links open; the zygote only saves the
half-second of imports per restart, so a few hundred kill points fit in the
test suite's time. `exec_mode=True` starts each child with a fresh interpreter
instead (benchmarks/crash.py --exec), for comparison.

A lane may name its own profile (`profile`) instead of the game's one here, and
modules for the zygote to import before its first fork (`preload`, found also in
`preload_path`), which its children inherit: the linked lanes of
tests/link/test_crash_linked.py run a profile with a `[link]` to a pool in the
test's PostgreSQL, preload the link's client (psycopg), and one preloads a loaded
emulated shuffler (tests/link/loaded_shuffler.py).

Used by tests/crash/test_crash.py, tests/link/test_crash_linked.py and benchmarks/crash.py.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROFILES = {"caribbean-stud": HERE / "stud.toml", "casino-war": HERE / "war.toml",
            "texas-holdem": HERE / "holdem.toml"}

# Run the copy of the software made by `freeze`, not the working tree: a file another
# developer saves during a long run would (rightly) fault the table's software check.
BOOT = r"""
import os, sys
_frozen = os.environ.get("TABLECTL_FROZEN")
if _frozen:
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path.insert(0, _frozen)
"""

ZYGOTE = BOOT + r"""
import json, os, sys, traceback
import controller.cli, controller.table, controller.config, controller.logs, controller.journal.selfcheck
import controller.sdnotify, controller.journal.store, controller.journal.sealing
import controller.runtime.tablestate, controller.runtime.devices, controller.runtime.world
import controller.runtime.autoplay, controller.games.caribbean_stud.at_table, controller.games.casino_war.at_table
import controller.hands.high, controller.hands.caribbean
import drivers.shoe.device, drivers.shuffler.device, drivers.progressive.device
import drivers.sim.shoe, drivers.sim.shuffler, drivers.sim.progressive
for line in sys.stdin:
    cmd = json.loads(line)
    if cmd["op"] == "run":
        pid = os.fork()
        if pid == 0:
            try:
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                os.dup2(os.open(cmd["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
                os.dup2(os.open(cmd["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
                rc = controller.cli.main(cmd["argv"])
            except SystemExit as exc:
                rc = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                traceback.print_exc()
                rc = 99
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(rc or 0)
        print(json.dumps({"pid": pid}), flush=True)
    elif cmd["op"] == "import":
        import importlib
        sys.path[len(sys.path):] = cmd["path"]
        for name in cmd["modules"]:
            importlib.import_module(name)
        print(json.dumps({"imported": len(cmd["modules"])}), flush=True)
    elif cmd["op"] == "wait":
        _, status = os.waitpid(cmd["pid"], 0)
        print(json.dumps({"status": status}), flush=True)
"""


def freeze(dest: Path) -> Path:
    """Copy the packages under test (controller, drivers, and every other registered game's: the
    tests' own, installed editable, is found by the editable finder the frozen run leaves out) to
    `dest`, as a box installs them."""
    import importlib
    import shutil
    from importlib.metadata import entry_points

    import controller
    import drivers
    dest.mkdir(parents=True, exist_ok=True)
    tops = {ep.value.split(":")[0].split(".")[0] for ep in entry_points(group="tablectl.games")}
    games = [importlib.import_module(t) for t in sorted(tops - {"controller"})]
    for pkg in (controller, drivers, *games):
        src = Path(pkg.__file__).parent
        shutil.copytree(src, dest / src.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                        dirs_exist_ok=True)
    return dest


def _env(frozen: Path | None) -> dict:
    env = dict(os.environ)
    if frozen is not None:
        env["TABLECTL_FROZEN"] = str(frozen)
    return env


class Zygote:
    """A warmed-up interpreter that forks table processes on request."""

    def __init__(self, python: str = sys.executable, frozen: Path | None = None,
                 preload: tuple[str, ...] = (), path: tuple[str, ...] = ()) -> None:
        self.proc = subprocess.Popen([python, "-c", ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1, env=_env(frozen))
        if preload:
            self._ask({"op": "import", "modules": list(preload), "path": [str(x) for x in path]})

    def _ask(self, cmd: dict) -> dict:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the zygote died")
        return json.loads(line)

    def start(self, argv: list[str], out: Path, log: Path) -> int:
        return self._ask({"op": "run", "argv": argv, "out": str(out), "log": str(log)})["pid"]

    def wait(self, pid: int) -> int:
        return os.waitstatus_to_exitcode(self._ask({"op": "wait", "pid": pid})["status"])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


class Execer:
    """The same interface, a fresh `python -m controller.cli` per start."""

    def __init__(self, python: str = sys.executable, frozen: Path | None = None,
                 preload: tuple[str, ...] = (), path: tuple[str, ...] = ()) -> None:
        self.python = python   # preload: only a zygote imports ahead of its children
        self.env = _env(frozen)
        self.procs: dict[int, subprocess.Popen] = {}

    def start(self, argv: list[str], out: Path, log: Path) -> int:
        code = BOOT + "from controller.cli import main\nsys.exit(main(sys.argv[1:]))\n"
        with open(out, "w") as stdout, open(log, "w") as stderr:   # the child holds its own copies
            p = subprocess.Popen([self.python, "-c", code, *argv], stdin=subprocess.DEVNULL, env=self.env,
                                 stdout=stdout, stderr=stderr)
        self.procs[p.pid] = p
        return p.pid

    def wait(self, pid: int) -> int:
        return self.procs.pop(pid).wait()

    def close(self) -> None:
        pass


@dataclass
class Lane:
    game: str
    data_dir: Path
    seed: int
    kills: int
    max_delay: float = 1.0
    exec_mode: bool = False
    frozen: Path | None = None
    finish_timeout: float = 60.0
    early_share: float = 0.3            # kills timed from the power-up; the rest from the table's "recovered"
    start_patience: float = 20.0        # the longest wait for a start to recover (then the kill falls anyway)
    profile: Path | None = None         # the game's profile here when None
    preload: tuple[str, ...] = ()       # modules the zygote imports before forking (its children have them)
    preload_path: tuple[str, ...] = ()  # where those modules are, beyond the software's own
    phases: Counter = field(default_factory=Counter)
    delays: list[float] = field(default_factory=list)
    final_rc: int | None = None
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    stats: dict = field(default_factory=dict)

    def argv(self, *extra: str) -> list[str]:
        return ["run", "--config", str(self.profile or PROFILES[self.game]), "--data-dir", str(self.data_dir),
                "--autoplay", "--seed", str(self.seed), *extra]

    def run(self) -> "Lane":
        started = time.monotonic()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        out, log = self.data_dir.parent / f"{self.data_dir.name}.out", self.data_dir.parent / f"{self.data_dir.name}.log"
        rng = random.Random(self.seed)
        runner = (Execer if self.exec_mode else Zygote)(frozen=self.frozen, preload=self.preload,
                                                        path=self.preload_path)
        try:
            for _ in range(self.kills):
                watch = Recoveries(self.data_dir)
                pid = runner.start(self.argv(), out, log)
                # A share of the kills is timed from the power-up, so some fall in the start-up and
                # the recovery; the rest from the table's "recovered", so that a busy machine's slow
                # start does not leave every kill before the first round (timing is not a contract).
                if rng.random() >= self.early_share:
                    watch.wait(pid, self.start_patience)
                delay = rng.uniform(0.0, self.max_delay)
                time.sleep(delay)
                os.kill(pid, signal.SIGKILL)
                rc = runner.wait(pid)
                self.delays.append(delay)
                if rc != -signal.SIGKILL:
                    self.problems.append(f"a table exited with {rc} before its kill (log: {log})")
                    break
                self.phases[last_entry(self.data_dir)] += 1
            pid = runner.start(self.argv("--rounds", "1"), out, log)
            deadline = time.monotonic() + self.finish_timeout
            while time.monotonic() < deadline and _alive(self.data_dir, pid, out):
                time.sleep(0.05)
            if time.monotonic() >= deadline:
                os.kill(pid, signal.SIGKILL)
                self.problems.append(f"the last run did not finish its round in {self.finish_timeout} s")
            self.final_rc = runner.wait(pid)
        finally:
            runner.close()
        if self.final_rc not in (0, None):
            self.problems.append(f"the last run exited with {self.final_rc} (log: {log})")
        self.seconds = time.monotonic() - started
        found, self.stats = check(self.data_dir, self.game)
        self.problems += found
        return self


class Recoveries:
    """Waits for the next start to journal its "recovery" entry (the table is up and plays on),
    read with plain SQLite, read-only, beside the writer."""

    def __init__(self, data_dir: Path) -> None:
        self.db = data_dir / "journal.db"
        self.before = self._last()

    def _last(self) -> int:
        import sqlite3
        if not self.db.exists():
            return 0
        try:
            conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=1.0)
            try:
                row = conn.execute("SELECT max(seq) FROM entries WHERE kind = 'recovery'").fetchone()
            finally:
                conn.close()
        except sqlite3.Error:
            return 0   # not yet a journal (the first start is making it)
        return row[0] or 0

    def wait(self, pid: int, patience: float) -> bool:
        """True once the start recovered; False if it died or `patience` ran out first."""
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            if self._last() > self.before:
                return True
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return False
            time.sleep(0.02)
        return False


def _alive(data_dir: Path, pid: int, out: Path) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass   # the zygote's child: it reaps it; ask the kernel whether it is still there
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def last_entry(data_dir: Path) -> str:
    """What the table had last journaled when it was killed: where in a round the kill fell."""
    from controller.journal.store import Journal, JournalUnreadable
    try:
        j = Journal.open(data_dir, readonly=True)
    except JournalUnreadable:
        return "before-journal"
    with j:
        e = j.get(j.head_seq)
        if e is None:
            return "empty"
        if e.kind == "event":
            return f"event:{e.payload['event'].get('type')}"
        return e.kind


# -- checks ---------------------------------------------------------------------------------

def check(data_dir: Path, game: str) -> tuple[list[str], dict]:
    """Everything a lane must satisfy, from its journal (and the emulated shoe's own record)."""
    from controller.journal.store import Journal
    from controller.runtime.ledger import compute
    from controller.journal.selfcheck import open_faults

    problems: list[str] = []
    with Journal.open(data_dir, readonly=True) as j:
        problems += [f"verify: {p}" for p in j.verify()]
        entries = list(j.entries_since(0))
        faults = open_faults(j, data_dir)
    problems += [f"fault: {f}" for f in faults]
    led = compute(entries)
    problems += [f"ledger: {p}" for p in led.problems]
    if led.in_progress:
        problems.append(f"rounds never finished: {led.in_progress}")
    found, stats = check_recoveries(entries, game)
    problems += found
    problems += check_physical(entries, data_dir, game)
    stats.update(ledger=led.to_json())
    return problems, stats


def check_recoveries(entries: list, game: str) -> tuple[list[str], dict]:
    """After each restart the round in progress resumed, or was voided as the policy says."""
    problems: list[str] = []
    stats = Counter()
    by_round: dict[str, list] = {}
    for e in entries:
        if e.round_id:
            by_round.setdefault(e.round_id, []).append(e)
        if e.kind == "refused" and e.payload["event"].get("type") in ("shoe_card", "card") \
                and e.payload.get("source") in ("device", "panel"):
            problems.append(f"entry {e.seq}: a card refused, so a card out is missing from its round: "
                            f"{e.payload['error']}")
        if e.kind == "fault":
            problems.append(f"entry {e.seq}: fault {e.payload}")
    for i, e in enumerate(entries):
        if e.kind != "recovery":
            continue
        stats["restarts"] += 1
        if not e.payload["in_progress"]:
            stats["restarts between rounds"] += 1
            continue
        rid = e.payload["round"]
        life = []
        for later in entries[i + 1:]:
            if later.kind == "power-up":
                break
            life.append(later)
        events = [x for x in by_round.get(rid, []) if x.seq < e.seq and x.kind == "event"]
        checks = [x for x in life if x.kind == "event" and x.round_id == rid
                  and x.payload["event"]["type"] == "shoe_check"]
        record = next((x for x in by_round.get(rid, []) if x.kind == "round-record"), None)
        if record is None:
            problems.append(f"round {rid}, in progress at the restart of entry {e.seq}, never finished")
            continue
        if not checks:
            stats["resumed before the shoe was checked"] += 1
            continue
        told = checks[0].payload["event"]["dispensed"]
        stats["shoe checks"] += 1
        voided = [x for x in life if x.round_id == rid and x.kind == "round-record"
                  and x.seq > checks[0].seq and "after a restart" in json.dumps(x.payload)]
        if game == "caribbean-stud":
            out = [x for x in events if x.payload["event"]["type"] in ("shoe_card", "shoe_loaded", "reshuffle")]
            since_load = 0
            for x in out:
                since_load = 0 if x.payload["event"]["type"] in ("shoe_loaded", "reshuffle") else since_load + 1
            dealing = any(x.payload["event"]["type"] == "deal" for x in events)
            if (since_load or dealing) and told != since_load:
                stats["voided: cards out unrecorded (5324.37(h))"] += 1
                if not voided:
                    problems.append(f"round {rid}: the shoe dealt {told}, the journal {since_load}, "
                                    "and the round was not voided")
            else:
                stats["resumed"] += 1
                if voided:
                    problems.append(f"round {rid} voided though the shoe agreed with the journal")
        elif game == "casino-war":
            entered = [x for x in life if x.round_id == rid and x.kind == "event"
                       and x.payload["event"]["type"] == "card"]
            if entered:
                stats["resumed: dealer entered unrecorded cards"] += 1
            else:
                stats["resumed"] += 1
        else:
            stats["resumed"] += 1
    return problems, dict(stats)


def check_physical(entries: list, data_dir: Path, game: str) -> list[str]:
    """The cards the emulated shoe says it dealt since it was last loaded are the cards the
    journal has, in the same order: nothing lost, nothing twice, across every kill."""
    if game not in ("caribbean-stud", "casino-war"):
        return []   # poker is dealt from the dealer's hand: its cards are the PHH record's
    try:
        shoe = json.loads((data_dir / "sim" / "shoe.json").read_text())
    except FileNotFoundError:
        return ["no emulated shoe state"]
    from controller.cards import CARDS
    dealt = [str(CARDS[c]) for c in shoe["deck"][:shoe["next"]]]
    journaled: list[str] = []
    for e in entries:
        if e.kind != "event":
            continue
        ev = e.payload["event"]
        if ev["type"] == "shoe_loaded":
            journaled = []
        elif ev["type"] == "shoe_card":
            journaled.append(ev["card"])
        elif ev["type"] == "card" and e.payload.get("source") == "panel":
            journaled.append(ev["card"])   # entered by the dealer: the shoe dealt it while the box was down
    if game == "caribbean-stud" and dealt[:len(journaled)] == journaled and len(dealt) > len(journaled):
        # a round voided because cards came out unrecorded: they are out, but in no round
        return []
    if dealt != journaled:
        return [f"the shoe dealt {len(dealt)} card(s) since its last load, the journal has {len(journaled)}: "
                f"{dealt[-8:]} vs {journaled[-8:]}"]
    return []
