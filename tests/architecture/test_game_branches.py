"""No branch on a game outside the games' packages (issue 27, item 3): the scanner of
tests/architecture/game_branches.py over every product folder, what it reads, what it finds on a
branch planted in a copy of the tree, and the product itself (which must hold none)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from controller.games import registry
from tests.architecture.game_branches import ROOT, Finding, Games, product_files, scan

FOLDERS = ("controller", "drivers", "config", "scripts", "systemd")


@pytest.fixture(scope="module")
def games() -> Games:
    return Games.registered()


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, tree / folder, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tree


def test_the_games_words_come_from_the_registry(games):
    for g in registry.games():
        assert g.key in games.keys and {g.key, *g.names} <= games.words
        assert games.is_game_module(type(g).__module__)
    assert any(c.endswith(".WarRound") for c in games.classes)   # a game's classes, read from its source


def test_the_scan_reads_every_product_folder_and_not_the_games_own():
    files = {str(p.relative_to(ROOT)) for p in product_files(ROOT)}
    for wanted in ("controller/table.py", "controller/runtime/view.py", "controller/ui/static/dealer.js",
                   "controller/ui/static/dealer.html", "drivers/shoe/protocol.py", "scripts/bootstrap",
                   "systemd/tablectl.service"):
        assert wanted in files, wanted
    assert not [f for f in files if f.startswith("controller/games/")]
    assert not [f for f in files if "uPlot" in f]


def test_a_game_branch_planted_in_a_copy_of_the_tree_is_found(tmp_path, games):
    """Each kind of branch planted in a copy is found where it was planted, and nothing else changes."""
    tree = _copy(tmp_path)
    before = set(scan(tree, games))
    war = registry.by_key("casino_war")
    name, key = war.names[0], war.key
    war_round = next(c for c in sorted(games.classes) if c.endswith(".WarRound"))
    module, cls = war_round.rsplit(".", 1)
    (tree / "controller" / "runtime" / "planted.py").write_text(
        '"""A shared module that knows the games (planted: every line below is a branch)."""\n'
        f"from {module} import {cls}\n"
        "\n"
        "\n"
        "def decide(profile, rec, st, round_):\n"
        f'    if profile.game == "{name}":\n'
        "        return 1\n"
        f"    if isinstance(round_, {cls}):\n"
        "        return 2\n"
        '    if "phh" in rec:\n'
        "        return 3\n"
        "    if st.seats is None:\n"
        "        return 4\n"
        f"    if type(round_) is {cls}:\n"
        "        return 5\n"
        f'    return getattr(profile, "{key}", None)\n')
    dealer = tree / "controller" / "ui" / "static" / "dealer.js"
    dealer.write_text(dealer.read_text() + f'\nif (view.game === "{name}") {{ planted(); }}\n')
    found = [f for f in scan(tree, games) if f not in before]
    lines = sorted({(f.path, f.line, f.kind) for f in found})
    js_line = dealer.read_text().count("\n")
    assert ("controller/runtime/planted.py", 2, "import") in lines
    assert ("controller/runtime/planted.py", 6, "name") in lines
    assert ("controller/runtime/planted.py", 8, "class") in lines
    assert ("controller/runtime/planted.py", 10, "shape") in lines
    assert ("controller/runtime/planted.py", 12, "shape") in lines
    assert ("controller/runtime/planted.py", 14, "class") in lines
    assert ("controller/runtime/planted.py", 16, "name") in lines
    assert ("controller/ui/static/dealer.js", js_line, "name") in lines
    assert ("controller/ui/static/dealer.js", js_line, "shape") in lines
    assert {line for _, line, _ in lines} == {2, 6, 8, 10, 12, 14, 16, js_line}   # nothing else


def test_prose_and_the_registry_are_not_branches(tmp_path, games):
    """A docstring, a comment or a label that mentions a game is prose; asking the registry is the way."""
    tree = tmp_path / "tree"
    (tree / "controller" / "ui" / "static").mkdir(parents=True)
    for folder in ("drivers", "config", "scripts", "systemd"):
        (tree / folder).mkdir()
    name = registry.by_key("casino_war").names[0]
    (tree / "controller" / "asks.py").write_text(
        f'"""Asks the game; never tests whether it is {name}."""\n'
        "from controller.games import registry\n"
        f"# not: if profile.game == \"{name}\"\n"
        "def wagers(profile):\n"
        '    """The wagers of the profile\'s game."""\n'
        "    return registry.game(profile.game).books.wagers\n")
    (tree / "controller" / "ui" / "static" / "page.js").write_text(
        f'// not: if (game === "{name}")\n'
        'const label = "a poker room\'s jackpot";   /* a label */\n'
        'const escaped = s.replace(/[&<>"\']/g, (c) => `&#${c.charCodeAt(0)};`);\n'
        f'const fine = `${{view.round.allowed.includes("deal") ? "deal" : ""}}`;\n')
    assert scan(tree, games) == []


def test_a_shell_test_on_a_game_is_found(tmp_path, games):
    tree = tmp_path / "tree"
    for folder in ("controller", "drivers", "config", "systemd"):
        (tree / folder).mkdir(parents=True)
    (tree / "scripts").mkdir()
    name = registry.by_key("caribbean_stud").names[0]
    (tree / "scripts" / "run").write_text(
        "#!/bin/sh\n"
        f"# plays {name} by default\n"
        f"config=${{TABLECTL_CONFIG:-config/{name}.toml}}\n"
        f'if [ "$game" = {name} ]; then echo stud; fi\n'
        'case "$game" in\n'
        f"  {name}) echo stud ;;\n"
        "esac\n")
    assert [(f.line, f.kind) for f in scan(tree, games)] == [(4, "name"), (6, "name")]


def test_no_game_branch_outside_the_games_packages(games):
    found: list[Finding] = scan(ROOT, games)
    for f in found:
        print(f)
    print(f"{len(found)} game branches outside controller/games/")
    assert found == []
