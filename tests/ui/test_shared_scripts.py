"""The screens' shared scripts name no game (issue 27, item 3): what is a game's own is in its package.

controller/ui/static/*.js (but the vendored uPlot) is read for the games' keys and the
profiles' `game` values, both taken from the registry, and for the event types only one game
declares (its boundary's catalogue, asked through the game's TablePart), written as a string.
A game's part of the dealer's and the supervisor's screens is its own script
(controller/games/<game>/static/), loaded by the page by the game's key.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from controller.boundary import SOURCES
from controller.config import load_profile
from controller.games import registry
from controller.games.game import Game

STATIC = Path(__file__).parents[2] / "controller" / "ui" / "static"
VENDORED = {"uPlot.iife.min.js"}
# A shared script still naming a game, listed so each is taken off as it is done: the test fails while a
# listed file names no game (the books' par.js and figures.js went with brief-27 K; supervisor.js's
# Caribbean stud events, validate, refuse and correct_meter, went to that game's static/supervisor.js).
PENDING: set[str] = set()


def game_names() -> set[str]:
    return {n for g in registry.games() for n in (g.key, *g.names)}


SENT = re.compile(r"""\btype:\s*(["'`])([a-z_]+)\1""")   # an event a script sends: { type: "ante", ... }


def own_games() -> set[str]:
    """The keys of the games tablectl's own distribution registers (an installed game from outside,
    the tests' own among them, may take an event of the same name as one of these)."""
    return {ep.name for ep in metadata.entry_points(group=registry.GROUP)
            if ep.dist is not None and ep.dist.name == "tablectl"}


def game_only_events() -> set[str]:
    """Event types one game's boundary takes and no other's, and those one game's own scripts send
    and no other's: among every registered game, and among tablectl's own (so a game from outside
    that also takes casino war's "wager" leaves it casino war's own to the shared scripts)."""
    return only_one(registry.games()) | only_one([g for g in registry.games() if g.key in own_games()])


def only_one(games: Sequence[Game]) -> set[str]:
    taken: dict[str, set[str]] = {}
    sent: dict[str, set[str]] = {}
    for g in games:
        kinds = taken.setdefault(g.key, set())
        for toml in g.profiles.defaults.values():
            profile = load_profile(Path(str(toml)))
            for source in SOURCES:
                kinds.update(g.table.events(source, profile))
        folder = g.console.static
        scripts = sorted(folder.glob("*.js")) if folder is not None else []
        sent[g.key] = {m.group(2) for p in scripts for m in SENT.finditer(p.read_text(encoding="utf-8"))}
    return {k for by_game in (taken, sent) for k, n in Counter(k for kinds in by_game.values() for k in kinds).items()
            if n == 1}


def findings(text: str, names: set[str], events: set[str]) -> list[str]:
    """Each game name (a whole word, in code or a comment) and each game-only event type (a string)."""
    found = []
    for name in sorted(names):
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE):
            found.append(f"game {name!r} at {text.count(chr(10), 0, m.start()) + 1}")
    for kind in sorted(events):
        for m in re.finditer(rf"""(["'`]){re.escape(kind)}\1""", text):
            found.append(f"event {kind!r} at {text.count(chr(10), 0, m.start()) + 1}")
    return found


def shared_scripts() -> list[Path]:
    return sorted(p for p in STATIC.glob("*.js") if p.name not in VENDORED)


def test_the_shared_scripts_name_no_game_and_no_game_only_event():
    names, events = game_names(), game_only_events()
    assert {"caribbean-stud", "casino-war", "poker", "texas-holdem"} <= names
    assert {"ante", "wager", "sit"} <= events and "decision" not in events   # decision: two games'
    scripts = shared_scripts()
    assert {"dealer.js", "common.js", "supervisor.js"} <= {p.name for p in scripts}
    found = {p.name: findings(p.read_text(encoding="utf-8"), names, events) for p in scripts}
    assert {name: f for name, f in found.items() if f and name not in PENDING} == {}
    assert all(found[name] for name in PENDING), "a pending file names no game now: take it off PENDING"


def test_the_scan_finds_a_planted_game_branch_and_a_game_only_event():
    names, events = game_names(), game_only_events()
    dealer = (STATIC / "dealer.js").read_text(encoding="utf-8")
    assert findings(dealer, names, events) == []
    planted = dealer.replace("function render() {", 'function render() {\n    if (ui.last.table.game === "casino-war") '
                             'send({ type: "wager" });', 1)
    assert planted != dealer
    line = dealer[:dealer.index("function render() {")].count("\n") + 2
    assert findings(planted, names, events) == [f"game 'casino-war' at {line}", f"event 'wager' at {line}"]
    assert findings("// at a Caribbean-Stud table", names, events) == ["game 'caribbean-stud' at 1"]
    assert findings("const kinds = ['sit'];", names, events) == ["event 'sit' at 1"]


def test_the_supervisors_screen_gives_a_games_part_what_it_uses_and_the_stud_part_sends_its_own_events():
    shared = (STATIC / "supervisor.js").read_text(encoding="utf-8")
    assert "T.supervisor = {" in shared and "onRender(part)" in shared
    stud = registry.by_key("caribbean_stud").console.static
    assert stud is not None
    own = (stud / "supervisor.js").read_text(encoding="utf-8")
    assert all(f'"{kind}"' in own for kind in ("validate", "refuse", "correct_meter")) and "T.supervisor" in own
    assert not any(f'"{kind}"' in shared for kind in ("validate", "refuse", "correct_meter"))


def test_each_game_has_its_dealers_script_in_its_package():
    for g in registry.games():
        folder = g.console.static
        assert folder is not None and (folder / "dealer.js").is_file(), g.key
        assert "T.register(" in (folder / "dealer.js").read_text(encoding="utf-8"), g.key
