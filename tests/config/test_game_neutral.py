"""controller/config knows no game: no game's name, profile `game`, key, label or section of its own
(`[caribbean_stud]`, `[manual_shoe]`, `[poker]`...) is written anywhere in it. What a game's profile is,
its package says (controller/games/<game>/profile.py); config asks the registry.

The words are the registry's (each game's key, label and profiles' names, and the sections its profile
models add to every profile's), not a list kept here, so a game registered later is held to it too.
The last test plants a branch in a copy of the package to show the scan finds one.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from controller.config.profiles import GameProfile
from controller.games import registry

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "controller" / "config"


def game_words() -> set[str]:
    """Every word that names a registered game or a part of a profile only a game has."""
    words: set[str] = set()
    for game in registry.games():
        words |= {game.key, game.label.lower(), *game.names}
        for model in game.profiles.models.values():
            for name, field in model.model_fields.items():
                if name not in GameProfile.model_fields:
                    words |= {name, field.alias} - {None}
    return words


def game_mentions(folder: Path, words: set[str]) -> list[str]:
    """`file:line: word` for each game word written in a file of `folder` (as a whole word, any case)."""
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True))
                         + r")(?![\w-])", re.IGNORECASE)
    found = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix not in (".py", ".toml", ".md", ".sql", ".json"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(folder.parent)}:{number}: {m.group(1)}" for m in pattern.finditer(line)]
    return found


def test_the_words_come_from_the_registry():
    words = game_words()
    # each built-in game, by what the registry and its profile models say of it
    assert {"caribbean-stud", "caribbean_stud", "casino-war", "casino_war", "manual_shoe", "poker",
            "texas-holdem", "link", "casino war"} <= words
    assert not words & set(GameProfile.model_fields)   # `table`, `devices`... are every profile's


def test_config_names_no_game():
    assert list(CONFIG.rglob("*.py")), CONFIG   # the package was read
    assert game_mentions(CONFIG, game_words()) == []


def test_the_scan_finds_a_game_planted_in_a_copy(tmp_path):
    copy = tmp_path / "config"
    shutil.copytree(CONFIG, copy, ignore=shutil.ignore_patterns("__pycache__"))
    planted = copy / "profiles.py"
    planted.write_text(planted.read_text() + '\n\nif getattr(profile, "manual_shoe", None) is not None:\n'
                       '    KIND = "manual_shoe" if profile.game == "Casino-War" else "shoe"\n')
    lines = len(planted.read_text().splitlines())
    assert game_mentions(copy, game_words()) == [
        f"config/profiles.py:{lines - 1}: manual_shoe", f"config/profiles.py:{lines}: manual_shoe",
        f"config/profiles.py:{lines}: Casino-War"]
