"""A game from outside touches only its folder and its entry point (issue 27, item 6).

Each of the tests' own games (tests/games/<folder>/, a distribution of its own that
scripts/bootstrap installs with the test extra) is known here only by what its distribution
and its registered object say: the distribution's name, its `tablectl.games` entry point, its
package, the game's key, its profiles' names and its class. None of these is written in this
file, and no file of the repository outside the game's folder may name any of them.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from controller.games import registry

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.parent for p in (ROOT / "tests" / "games").glob("*/pyproject.toml"))


def identifiers(folder: Path) -> set[str]:
    """Every name the game in `folder` goes by, from its pyproject.toml and its registered object."""
    project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
    points = project["entry-points"][registry.GROUP]
    found = {project["name"], *points}
    for value in points.values():
        package, _, attr = value.partition(":")
        found.add(package)
        game = next(g for g in registry.games() if type(g).__module__.split(".")[0] == package.split(".")[0])
        found.update({game.key, *game.names, type(game).__name__})
    return found


def repository_files() -> list[str]:
    done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=60)
    return sorted(set(done.stdout.splitlines()))


def test_there_is_a_game_from_outside_and_it_is_registered():
    assert GAMES, "tests/games/ holds no game of its own"
    for folder in GAMES:
        assert len(identifiers(folder)) >= 4


def naming(files: list[tuple[str, str]], names: set[str], own: str) -> list[str]:
    """Each line of `files` (path, text) outside the folder `own` that names one of `names`."""
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True))
                         + r")(?![\w-])")
    return [f"{rel}:{n}: {m.group(0)}" for rel, text in files if not rel.startswith(own)
            for n, line in enumerate(text.splitlines(), 1) if (m := pattern.search(line))]


def texts() -> list[tuple[str, str]]:
    out = []
    for rel in repository_files():
        path = ROOT / rel
        if not path.is_file() or path.is_symlink():
            continue
        try:
            out.append((rel, path.read_text()))
        except UnicodeDecodeError:
            continue   # a binary file names nothing
    return out


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_no_file_outside_the_games_folder_names_it(folder):
    assert naming(texts(), identifiers(folder), str(folder.relative_to(ROOT)) + "/") == []


def test_a_name_planted_outside_the_folder_is_found():
    folder = GAMES[0]
    own = str(folder.relative_to(ROOT)) + "/"
    files = texts()
    assert any(rel.startswith(own) for rel, _ in files)   # its own files name it, and are left out
    for name in sorted(identifiers(folder)):
        planted = [*files, ("controller/runtime/planted.py", f'if profile.game == "{name}":\n    pass\n'),
                   ("controller/other.py", f"x{name}y = 1\n")]
        assert naming(planted, {name}, own) == [f"controller/runtime/planted.py:1: {name}"]
