"""Reading a table profile: the file, its TOML, its model, and `tablectl config check`.

The models are the registered games' (controller/games/registry.py): each game's
profile part names the model of each `game` it plays, and this module joins them
into one union told apart by `game`, so a new game's profile is read as soon as
its package is registered, with no line here.
"""

from __future__ import annotations

import functools
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter, ValidationError

from controller.config.profiles import SERIAL_FORMS, GameProfile
from controller.config.toml_lines import ConfigError, ConfigIssue, Schema, issues, toml_error


@functools.cache
def models() -> Mapping[str, type[GameProfile]]:
    """Every registered game's profile model by the profiles' `game`, in the registry's order (its names')."""
    # the registry loads the games, whose models build on this package: asked when the first
    # profile is read, never at import (a function-level import to break that cycle)
    from controller.games import registry
    return {name: g.profiles.models[name] for g in registry.games() for name in g.names}


@functools.cache
def _reader() -> tuple[TypeAdapter[Any], Schema]:
    """The union of the games' models by `game`, and what the error lines need to know of them."""
    from controller.games import registry   # as models(): the games build on this package
    by_game = models()
    unique = tuple(dict.fromkeys(by_game.values()))   # one model may play several games (a family of variants)
    # a union of one has no tag to tell models apart; the union is built at run time, from a tuple of
    # the registered models, which no static type can name
    form: Any = unique[0] if len(unique) == 1 else Annotated[Union[unique], Field(discriminator="game")]
    adapter: TypeAdapter[Any] = TypeAdapter(form)
    unions: dict[str, tuple[str, ...]] = {}
    for g in registry.games():
        for key, tags in g.profiles.unions.items():
            unions[key] = unions.get(key, ()) + tuple(t for t in tags if t not in unions.get(key, ()))
    return adapter, Schema(model_of_game=by_game, games=tuple(by_game), unions=unions, other_tags=SERIAL_FORMS)


def validate(data: Mapping[str, Any], *, base: Path | None = None) -> GameProfile:
    """A profile's data (TOML's) as its game's model; pydantic's ValidationError when refused."""
    adapter, _ = _reader()
    profile: GameProfile = adapter.validate_python(data, context={"base": base})
    return profile


def load_profile(path: str | Path):   # its game's model, which the caller knows
    """Read and validate one profile; ConfigError lists every refusal."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([ConfigIssue(file, None, "", f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([ConfigIssue(file, None, "", f"not UTF-8 text: {exc.reason}")]) from None
    return parse_profile(text, file=file, base=Path(path).parent)


def parse_profile(text: str, *, file: str = "<profile>", base: Path | None = None):   # as load_profile
    """Validate a profile given as TOML text (`file` only names it in errors)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, file) from None
    try:
        return validate(data, base=base)
    except ValidationError as exc:
        raise ConfigError(issues(exc, data, text, file, _reader()[1])) from None


def check_main(args) -> int:
    """`tablectl config check FILE...`: `ok` for a good profile, every refusal for a bad one."""
    status = 0
    checked = []
    for file in args.files:
        try:
            profile = load_profile(file)
        except ConfigError as exc:
            if getattr(args, "json", False):
                checked.append({"file": file, "ok": False, "issues": [
                    {"file": i.file, "line": i.line, "key": i.key, "text": i.text} for i in exc.issues]})
            for issue in exc.issues:
                print(f"tablectl config check: {issue}", file=sys.stderr)
            status = 2
        else:
            from controller.par.sheet import check_line  # the par sheet, when cached (issue 21)
            par = check_line(profile)
            if getattr(args, "json", False):
                checked.append({"file": file, "ok": True, "game": profile.game, "table": profile.table.id,
                                "issues": [], "par": par})
                continue
            print("ok" if len(args.files) == 1 else f"{file}: ok")
            if par is not None:
                print(f"  {par}")
    if getattr(args, "json", False):
        import json
        json.dump({"profiles": checked}, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    return status
