"""Helpers for the profile tests: start from a profile in config/ and change a line of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import ConfigError, load_profile

CONFIG = Path(__file__).resolve().parents[2] / "config"


def line_of(text: str, fragment: str) -> int:
    """1-based number of the only line holding `fragment`."""
    hits = [n for n, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(hits) == 1, f"{fragment!r} is on lines {hits}"
    return hits[0]


class Profiles:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path

    def text(self, name: str) -> str:
        return (CONFIG / f"{name}.toml").read_text(encoding="utf-8")

    def write(self, name: str, text: str) -> Path:
        path = self.tmp / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        return path

    def edited(self, name: str, *edits: tuple[str, str]) -> tuple[Path, str]:
        """config/NAME.toml with each (old, new) replaced; every `old` must occur exactly once."""
        text = self.text(name)
        for old, new in edits:
            assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {name}.toml"
            text = text.replace(old, new)
        return self.write(name, text), text

    def load(self, name: str, *edits: tuple[str, str]):
        path, _ = self.edited(name, *edits)
        return load_profile(path)

    def refused(self, name: str, *edits: tuple[str, str]) -> tuple[list, str, Path]:
        """The issues of an edited profile that must be refused, its text and its path."""
        path, text = self.edited(name, *edits)
        with pytest.raises(ConfigError) as info:
            load_profile(path)
        return list(info.value.issues), text, path
