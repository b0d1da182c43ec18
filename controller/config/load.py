"""Reading a table profile: the file, its TOML, its model, and `tablectl config check`."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from pydantic import ValidationError

from controller.config.profiles import GAMES, MODEL_OF_GAME, PROFILE, RAKE_METHODS, SERIAL_FORMS
from controller.config.toml_lines import ConfigError, ConfigIssue, Schema, issues, toml_error

SCHEMA = Schema(model_of_game=MODEL_OF_GAME, games=GAMES, rake_methods=RAKE_METHODS, other_tags=SERIAL_FORMS)


def load_profile(path: str | Path):
    """Read and validate one profile; ConfigError lists every refusal."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([ConfigIssue(file, None, "", f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([ConfigIssue(file, None, "", f"not UTF-8 text: {exc.reason}")]) from None
    return parse_profile(text, file=file, base=Path(path).parent)


def parse_profile(text: str, *, file: str = "<profile>", base: Path | None = None):
    """Validate a profile given as TOML text (`file` only names it in errors)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, file) from None
    try:
        return PROFILE.validate_python(data, context={"base": base})
    except ValidationError as exc:
        raise ConfigError(issues(exc, data, text, file, SCHEMA)) from None


def check_main(args) -> int:
    """`tablectl config check FILE...`: `ok` for a good profile, every refusal for a bad one."""
    status = 0
    for file in args.files:
        try:
            profile = load_profile(file)
        except ConfigError as exc:
            for issue in exc.issues:
                print(issue, file=sys.stderr)
            status = 2
        else:
            print("ok" if len(args.files) == 1 else f"{file}: ok")
            from controller.par.sheet import check_line  # the par sheet, when cached (issue 21)
            if (par := check_line(profile)) is not None:
                print(f"  {par}")
    return status

