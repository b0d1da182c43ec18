"""Where a profile went wrong, in the file's own terms: file, line, dotted key, and why.

tomllib gives values without positions and pydantic gives errors by model
location; a technician at the box needs `config/table.toml:12: table.seats = 12
is more than ...`. This module scans the TOML text for the line of every key
and turns pydantic's errors into such lines. It knows no profile model: the
profile models hand it their game map (for "did you mean") when they refuse.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
import tomllib
import types
import typing
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Union

from pydantic import BaseModel, ValidationError
from pydantic_core.core_schema import ErrorType



@dataclass(frozen=True)
class ConfigIssue:
    """One refusal: where (file, TOML line, dotted key) and why."""

    file: str
    line: int | None
    key: str
    text: str  # the whole message after the location, key included

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.text}"


class ConfigError(ValueError):
    """A profile that may not run the table; `issues` lists every refusal found."""

    def __init__(self, issues: list[ConfigIssue]) -> None:
        self.issues = tuple(issues)
        super().__init__("\n".join(str(i) for i in self.issues))


def toml_error(exc: tomllib.TOMLDecodeError, file: str) -> ConfigError:
    """A file tomllib cannot read, with the line and column it gave up at."""
    message = str(exc)
    at = re.search(r"\(at line (\d+), column (\d+)\)", message)
    line = int(at.group(1)) if at else None
    if at:
        message = message[: at.start()].strip() + f" (column {at.group(2)})"
    return ConfigError([ConfigIssue(file, line, "", f"not valid TOML: {message}")])


# --------------------------------------------------------------------------
# Turning pydantic's errors into lines a technician can act on
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Schema:
    """What the error lines need to know of the profile models: the model of each game (for
    "did you mean"), and the tags of the tagged unions (the games, and the unions of the games'
    rules by their key), which pydantic puts in its error locations but no file has as a key."""

    model_of_game: typing.Mapping[str, type[BaseModel]]
    games: tuple[str, ...]
    unions: typing.Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)   # key -> its tags
    other_tags: tuple[str, ...] = ()   # of unions told apart by their value's form (a port or a table)

    @property
    def tags(self) -> frozenset[str]:
        return (frozenset(self.games) | frozenset(t for tags in self.unions.values() for t in tags)
                | frozenset(self.other_tags))


def issues(exc: ValidationError, data: dict, text: str, file: str, schema: Schema) -> list[ConfigIssue]:
    """Every error of one validation, each on the line of its key."""
    lines = key_lines(text)
    out: list[ConfigIssue] = []
    for error in exc.errors():
        base = _data_path(data, error["loc"], schema.tags)
        if error["type"] == "regulation" and "issues" in error.get("ctx", {}):
            for rel, value, reason in error["ctx"]["issues"]:
                path = base + tuple(rel)
                out.append(_issue(file, lines, path, f"{_dotted(path)} = {_shown(data, path, value)} {reason}"))
            continue
        path, text = _describe(error, base, data, schema)
        out.append(_issue(file, lines, path, text))
    out.sort(key=lambda i: (i.line or 0))
    return out


def _issue(file: str, lines: dict, path: tuple, text: str) -> ConfigIssue:
    line = None
    for n in range(len(path), 0, -1):
        line = lines.get(path[:n])
        if line:
            break
    return ConfigIssue(file, line, _dotted(path), text)


# pydantic's own error types ("Input should be ...") follow a colon; the profile models' own
# (PydanticCustomError, any type a game's checks name: "regulation", "structure"...) are phrased
# to follow "key = value" directly.
_PYDANTIC_TYPES = frozenset(typing.get_args(ErrorType))


def _own(kind: str) -> bool:
    return kind not in _PYDANTIC_TYPES


def _describe(error: Mapping[str, Any], path: tuple, data: dict, schema: Schema) -> tuple[tuple, str]:
    """The key path an error is about and its line of text."""
    kind, value, key = error["type"], error.get("input"), _dotted(path)
    if kind in ("union_tag_not_found", "union_tag_invalid"):
        # the discriminator itself is at fault: name it, not the table holding it
        tag_key = str(error.get("ctx", {}).get("discriminator", "")).strip("'")
        path = path + (tag_key,) if error["loc"] else ("game",)
        shown = "" if kind == "union_tag_not_found" else f" = {_toml(error['ctx']['tag'])}"
        choices = schema.unions.get(tag_key, ()) if error["loc"] else schema.games
        return path, f"{_dotted(path)}{shown}: must be one of {', '.join(choices)}"
    if kind == "missing":
        return path, f"{key}: is required"
    if kind == "extra_forbidden":
        known = _known_keys(data, path[:-1], schema.model_of_game)
        hint = difflib.get_close_matches(str(path[-1]), known, n=1)
        more = f" (did you mean {hint[0]}?)" if hint else (f" (known here: {', '.join(known)})" if known else "")
        return path, f"{key}: unknown key{more}"
    if isinstance(value, float):
        return path, (f"{key} = {_toml(value)} is a float; money is integer cents "
                      "and odds and counts are whole numbers")
    message = error["msg"]
    if not _own(kind):
        message = ": " + (message[0].lower() + message[1:] if message else message)
    else:
        message = " " + message
    if value is None or isinstance(value, (dict, list)):
        return path, f"{key}:{message}" if _own(kind) else f"{key}{message}"
    return path, f"{key} = {_toml(value)}{message}"


def _data_path(data: Any, loc: tuple, tags: Collection[str]) -> tuple:
    """Pydantic's location minus the union tags it inserts, i.e. the key path in the file."""
    path: list = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            path.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif part in tags:
            continue  # no key of any model is named like a tag (a game, a union's choice, a form)
        else:
            path.append(part)
            node = None
    return tuple(path)


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
            out += f".{part}" if out else part
    return out


def _shown(data: Any, path: tuple, default: Any) -> str:
    node = data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return default if isinstance(default, str) else _toml(default)
    return _toml(node)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{...}"
    if isinstance(value, list):
        return "[...]"
    return str(value)


def _known_keys(data: dict, path: tuple, model_of_game: typing.Mapping[str, Any]) -> list[str]:
    """The keys the model accepts at `path` (for "did you mean")."""
    game = data.get("game")
    model: Any = model_of_game.get(game) if isinstance(game, str) else None
    node: Any = data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else (
            node[part] if isinstance(node, list) and isinstance(part, int) and part < len(node) else None)
        if isinstance(part, int):
            continue
        model = _field_model(model, part, node)
        if model is None:
            return []
    if model is None:
        return []
    return sorted(f.alias or name for name, f in model.model_fields.items())


def _field_model(model: Any, key: str, node: Any) -> Any:
    if model is None:
        return None
    for name, field in model.model_fields.items():
        if key in (name, field.alias):
            return _model_in(field.annotation, node)
    return None


def _model_in(annotation: Any, node: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _model_in(typing.get_args(annotation)[0], node)
    if origin in (Union, types.UnionType):
        models = [m for m in (_model_in(a, node) for a in typing.get_args(annotation)) if m]
        if len(models) > 1 and isinstance(node, dict):
            for m in models:   # a tagged union: the model whose tag (a Literal field) the table gives
                if any(typing.get_origin(f.annotation) is typing.Literal and k in node
                       and node[k] in typing.get_args(f.annotation) for k, f in m.model_fields.items()):
                    return m
        return models[0] if models else None
    if origin is tuple:
        return _model_in(typing.get_args(annotation)[0], None)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


# --------------------------------------------------------------------------
# Where each key is written: a scan of the TOML text
# --------------------------------------------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def key_lines(text: str) -> dict[tuple, int]:
    """Map every key path in a TOML document to the line it is written on.

    tomllib gives values without positions, and an error that says only
    `table.maximum_wager` sends the technician hunting; this scan of the text
    (which tomllib has already accepted) recovers the line of each table
    header, key, inline-table key and array element. Paths use ints for array
    indices, as pydantic's locations do.
    """
    return _KeyScanner(text).document()


class _KeyScanner:
    def __init__(self, text: str) -> None:
        self.t = text
        self.i = 0
        self.line = 1
        self.lines: dict[tuple, int] = {}
        self.tables_of_arrays: dict[tuple, int] = {}

    def peek(self, n: int = 0) -> str:
        j = self.i + n
        return self.t[j] if j < len(self.t) else ""

    def advance(self, n: int = 1) -> None:
        for _ in range(n):
            if self.i < len(self.t):
                if self.t[self.i] == "\n":
                    self.line += 1
                self.i += 1

    def record(self, path: tuple, line: int) -> None:
        for n in range(1, len(path) + 1):
            self.lines.setdefault(path[:n], line)

    def skip(self, newlines: bool) -> None:
        while True:
            c = self.peek()
            if c in (" ", "\t") or (newlines and c in ("\n", "\r")):
                self.advance()
            elif c == "#":
                while self.peek() not in ("\n", ""):
                    self.advance()
            else:
                return

    def string(self) -> str:
        start = self.i
        quote = self.peek()
        if self.t.startswith(quote * 3, self.i):
            self.advance(3)
            while self.i < len(self.t):
                if quote == '"' and self.peek() == "\\":
                    self.advance(2)
                elif self.t.startswith(quote * 3, self.i):
                    self.advance(3)
                    while self.peek() == quote:  # up to two quotes may end the content
                        self.advance()
                    break
                else:
                    self.advance()
        else:
            self.advance()
            while self.peek() not in (quote, "\n", ""):
                self.advance(2 if quote == '"' and self.peek() == "\\" else 1)
            self.advance()
        raw = self.t[start:self.i]
        try:
            return tomllib.loads(f"k = {raw}")["k"]
        except tomllib.TOMLDecodeError:
            return raw.strip("\"'")

    def key(self) -> tuple:
        parts = []
        while True:
            self.skip(newlines=False)
            if self.peek() in ('"', "'"):
                parts.append(self.string())
            else:
                m = _BARE.match(self.t, self.i)
                if not m:
                    return tuple(parts)
                parts.append(m.group())
                self.advance(m.end() - self.i)
            self.skip(newlines=False)
            if self.peek() != ".":
                return tuple(parts)
            self.advance()

    def value(self, path: tuple) -> None:
        c = self.peek()
        if c == "{":
            self.advance()
            while True:
                self.skip(newlines=True)
                if self.peek() in ("}", ""):
                    self.advance()
                    return
                if self.peek() == ",":
                    self.advance()
                    continue
                line = self.line
                k = self.key()
                self.record(path + k, line)
                self.skip(newlines=False)
                if self.peek() == "=":
                    self.advance()
                self.skip(newlines=False)
                self.value(path + k)
        elif c == "[":
            self.advance()
            index = 0
            while True:
                self.skip(newlines=True)
                if self.peek() in ("]", ""):
                    self.advance()
                    return
                if self.peek() == ",":
                    self.advance()
                    continue
                self.record(path + (index,), self.line)
                self.value(path + (index,))
                index += 1
        elif c in ('"', "'"):
            self.string()
        else:
            while self.peek() not in (",", "]", "}", "\n", "\r", "#", ""):
                self.advance()

    def _header(self, key: tuple) -> tuple:
        # A header inside an array of tables ([[a]] then [a.b]) belongs to its last element.
        path: tuple = ()
        for part in key:
            path += (part,)
            if path in self.tables_of_arrays:
                path += (self.tables_of_arrays[path] - 1,)
        return path

    def document(self) -> dict[tuple, int]:
        current: tuple = ()
        while True:
            self.skip(newlines=True)
            if self.i >= len(self.t):
                return self.lines
            line = self.line
            if self.peek() == "[":
                array = self.peek(1) == "["
                self.advance(2 if array else 1)
                key = self.key()
                self.advance(2 if array else 1)
                if array:
                    parent = self._header(key[:-1]) + key[-1:]
                    count = self.tables_of_arrays.get(parent, 0)
                    self.tables_of_arrays[parent] = count + 1
                    current = parent + (count,)
                else:
                    current = self._header(key)
                self.record(current, line)
            else:
                key = self.key()
                if not key:  # not a key: skip the rest of the line rather than loop
                    while self.peek() not in ("\n", ""):
                        self.advance()
                    continue
                self.record(current + key, line)
                self.skip(newlines=False)
                if self.peek() == "=":
                    self.advance()
                self.skip(newlines=False)
                self.value(current + key)
            self.skip(newlines=False)
