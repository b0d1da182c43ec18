"""Where the shared code branches on a game: its name, its class, its package or the shape of its data.

A new game is its own package and one entry point (issue 27, item 6) only if nothing outside
the games' packages decides anything by which game it is. This scanner reads the product's
source (nothing is imported but the registry) and reports every such branch with file:line:

- a game's name: a string constant equal to a game's key or a profile `game` of it (taken from
  controller/games/registry.py, never written here) that is compared (`==`, `in`), matched
  (`case`), used as a key (`d["poker"]`, `.get(..)`, a dict's key), asked of an object
  (`getattr(x, "casino_war")`), or simply held (`GAME = "casino-war"`); an attribute named by a
  game's key (`profile.caribbean_stud`); in the JavaScript a string literal or a property named
  so; in the shell scripts and unit files a test or a `case` on one;
- a game's class: `isinstance`/`issubclass` of a class defined in a game's package, or a type
  compared with one (`type(r) is WarRound`);
- a game's package: an import of one of its modules (or of a library only it uses), the import
  strings of `importlib` included: the shared code reaches a game only through the registry;
- the shape of a game's data: the patterns of `shapes()` (a poker record's `"phh"`, a poker
  table's `seats`, a profile asked for a field only some games' profiles have, a round's
  machine read from outside).

Docstrings and comments are prose, not branches, and are not read.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from controller.config.profiles import GameProfile
from controller.games import registry

ROOT = Path(__file__).resolve().parents[2]

# Libraries a game's package uses as its own code (issue 27: "the poker engine stays a library that
# the poker game package uses"): read as part of that game, so the shared code may not import them.
GAME_LIBRARIES = ("controller.poker",)

VENDORED = ("uPlot.",)   # third-party files shipped beside our screens: not ours to read


@dataclass(frozen=True)
class Finding:
    path: str     # relative to the tree scanned
    line: int
    kind: str     # "name", "class", "import" or "shape"
    text: str     # what was found, in a few words

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.text}"


@dataclass
class Games:
    """What identifies the registered games, from the registry and their packages' source."""

    words: set[str] = field(default_factory=set)        # keys and profile `game` names
    keys: set[str] = field(default_factory=set)         # keys (a profile's section, an attribute)
    packages: set[str] = field(default_factory=set)     # dotted package names, libraries included
    classes: set[str] = field(default_factory=set)      # qualified names "pkg.mod.Class"
    fields: set[str] = field(default_factory=set)       # profile fields only some game's profile has

    @classmethod
    def registered(cls) -> Games:
        out = cls()
        for g in registry.games():
            out.keys.add(g.key)
            out.words.update({g.key, *g.names})
            out.packages.add(_package_of(type(g).__module__))
            for model in g.profiles.models.values():
                out.fields.update(set(model.model_fields) - set(GameProfile.model_fields))
        out.packages.update(GAME_LIBRARIES)
        for package in sorted(out.packages):
            out.classes.update(_classes_of(package))
        return out

    def is_game_module(self, module: str) -> bool:
        return any(module == p or module.startswith(p + ".") for p in self.packages)


def _package_of(module: str) -> str:
    """The package a game's object is defined in (its module, or the package holding it)."""
    spec = importlib.util.find_spec(module)
    if spec is not None and spec.submodule_search_locations is None and "." in module:
        return module.rsplit(".", 1)[0]
    return module


def _classes_of(package: str) -> Iterator[str]:
    """Every class defined at the top of a module of `package`, by its qualified name."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return
    base = Path(spec.origin).parent
    for path in sorted(base.rglob("*.py")):
        rel = path.relative_to(base).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        module = ".".join([package, *parts])
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                yield f"{module}.{node.name}"


# -- which files are the product's shared code -------------------------------------------------

def product_files(root: Path) -> Iterator[Path]:
    """The product's files outside the games' packages: controller/ (but controller/games/ and the
    games' libraries), drivers/, config/*.py, scripts/, systemd/, and the screens' scripts."""
    skip = [root / "controller" / "games", *(root / Path(*lib.split(".")) for lib in GAME_LIBRARIES)]
    def kept(p: Path) -> bool:
        return p.is_file() and "__pycache__" not in p.parts and not any(p.is_relative_to(s) for s in skip)
    for p in sorted((root / "controller").rglob("*.py")):
        if kept(p):
            yield p
    static = root / "controller" / "ui" / "static"
    for p in sorted([*static.rglob("*.js"), *static.rglob("*.html")]):
        if kept(p) and not p.name.startswith(VENDORED):
            yield p
    for p in sorted((root / "drivers").rglob("*.py")):
        if kept(p):
            yield p
    yield from sorted((root / "config").glob("*.py"))
    for folder in ("scripts", "systemd"):
        yield from sorted(p for p in (root / folder).rglob("*") if p.is_file() and not p.name.endswith(".md"))


def scan(root: Path, games: Games) -> list[Finding]:
    """Every game branch in the tree at `root`, in file order."""
    found: list[Finding] = []
    for path in product_files(root):
        rel = str(path.relative_to(root))
        text = path.read_text(errors="replace")
        if path.suffix == ".py" or (text.startswith("#!") and "python" in text.splitlines()[0]):
            found += scan_python(rel, text, games)
        elif path.suffix in (".js", ".html"):
            found += scan_js(rel, text, games)
        else:
            found += scan_shell(rel, text, games)
    return found


# -- the shapes: patterns of a game's data read by the shared code ------------------------------

def shapes(games: Games) -> list[tuple[re.Pattern[str], str]]:
    """The shape tests, as (pattern on a line of code, what it tells apart)."""
    keys = "|".join(sorted(map(re.escape, games.keys))) or "(?!)"
    fields = "|".join(sorted(map(re.escape, games.fields))) or "(?!)"
    return [
        (re.compile(r"""["']phh["']\s*(not\s+)?in\b"""), "a poker record, by its hand history"),
        (re.compile(r"""\[\s*["']phh["']\s*\]|\.get\(\s*["']phh["']"""), "a poker record's hand history read"),
        # a table state's seats (poker's players), not a profile's [table] seats (every game's count)
        (re.compile(r"""\b(?!table\b)\w+\.seats\s+is\s+(not\s+)?None"""), "a table with seats (poker), by its seats"),
        (re.compile(r"""\b(?!table\b)\w+\.seats\s*[!=]==?\s*(null|undefined)"""),
         "a table with seats (poker), by its seats"),
        (re.compile(r"""\.shoe\s+is\s+(not\s+)?None\s+and\s+\w+\.shoe\["""), "a table with a shoe, by its shoe"),
        (re.compile(r"""\b(get|has)attr\(\s*[\w.]+\s*,\s*["'](""" + keys + r""")["']"""),
         "an object asked for a game's section"),
        (re.compile(r"""\b(get|has)attr\(\s*(\w+\.)*(p|\w*profile)\s*,\s*["'](""" + fields + r""")["']"""),
         "a profile asked for a field only some games' profiles have"),
        (re.compile(r"""\bround_?\.m\.\w+"""), "a round's machine read through its insides"),
        (re.compile(r"""\b(get|has)attr\(\s*\w*round\w*\s*,\s*["']m["']"""), "a round's machine read through its insides"),
        (re.compile(r"""\bgame\w*["'\]]*\s*(==|!=|===|!==)\s*["'`]"""), "a game compared with a literal"),
    ]


def _shape_findings(rel: str, lines: Iterable[tuple[int, str]], games: Games) -> Iterator[Finding]:
    patterns = shapes(games)
    for n, line in lines:
        for pattern, what in patterns:
            m = pattern.search(line)
            if m:
                yield Finding(rel, n, "shape", f"{what}: {m.group(0).strip()}")


# -- Python --------------------------------------------------------------------------------------

def scan_python(rel: str, text: str, games: Games) -> list[Finding]:
    tree = ast.parse(text)
    docstrings = _docstrings(tree)
    imported = _imported_names(tree, games)
    found: dict[tuple[int, str], Finding] = {}

    def add(node: ast.AST, kind: str, what: str) -> None:
        line = getattr(node, "lineno", 0)
        found.setdefault((line, what), Finding(rel, line, kind, what))

    def word(node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in games.words:
            return node.value
        return None

    def words(node: ast.AST | None) -> list[str]:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return [w for e in node.elts if (w := word(e))]
        w = word(node)
        return [w] if w else []

    seen: set[int] = set()   # constants already reported as compared, matched, a key...
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                for w in words(operand):
                    add(node, "name", f"compared with the game {w!r}")
                qual = _qualified(operand, imported)
                if qual is not None and qual in games.classes:
                    add(node, "class", f"compared with the game's class {qual}")
                for c in ast.walk(operand):
                    seen.add(id(c))
        elif isinstance(node, ast.MatchValue) and (w := word(node.value)):
            add(node.value, "name", f"matched on the game {w!r}")
            seen.add(id(node.value))
        elif isinstance(node, ast.Subscript) and (w := word(node.slice)):
            add(node, "name", f"keyed by the game {w!r}")
            seen.add(id(node.slice))
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                if (w := word(k)):
                    add(k, "name", f"a key named for the game {w!r}")
                    seen.add(id(k))
        elif isinstance(node, ast.Call):
            _call(node, games, imported, add, seen, word)
        elif isinstance(node, ast.Attribute) and node.attr in games.keys and not _module_path(node):
            add(node, "name", f"an attribute named for the game {node.attr!r}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for module in _modules(node):
                if games.is_game_module(module):
                    add(node, "import", f"imports the game's module {module}")
                    break
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in seen \
                and id(node) not in docstrings:
            if node.value in games.words:
                add(node, "name", f"names the game {node.value!r}")
            elif any(node.value.startswith(p + ".") or node.value == p for p in games.packages):
                add(node, "import", f"names the game's module {node.value}")
    code = [(n, line) for n, line in enumerate(text.splitlines(), 1) if not line.lstrip().startswith("#")]
    out = sorted(found.values(), key=lambda f: (f.line, f.text))
    return out + list(_shape_findings(rel, code, games))


def _call(node: ast.Call, games: Games, imported: dict[str, str], add: Callable[[ast.AST, str, str], None],
          seen: set[int], word: Callable[[ast.AST | None], str | None]) -> None:
    """A call that asks of a game: isinstance of its class, getattr of its section, a mapping keyed by it."""
    fn = node.func
    name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
    if name in ("isinstance", "issubclass") and len(node.args) == 2:
        arg = node.args[1]
        for target in (arg.elts if isinstance(arg, ast.Tuple) else [arg]):
            qual = _qualified(target, imported)
            if qual is not None and qual in games.classes:
                add(node, "class", f"{name} of the game's class {qual}")
    elif name in ("getattr", "hasattr", "setattr") and len(node.args) >= 2 and (w := word(node.args[1])):
        add(node, "name", f"{name} of the game's field {w!r}")
        seen.add(id(node.args[1]))
    elif name in ("get", "pop", "setdefault") and isinstance(fn, ast.Attribute) and node.args \
            and (w := word(node.args[0])):
        add(node, "name", f"keyed by the game {w!r}")
        seen.add(id(node.args[0]))


def _docstrings(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level or node.module is None:
        return []
    return [node.module, *(f"{node.module}.{a.name}" for a in node.names)]


def _imported_names(tree: ast.Module, games: Games) -> dict[str, str]:
    """Each local name bound by an import to what it names, dotted."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _qualified(node: ast.AST, imported: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in imported:
        return None
    return ".".join([imported[node.id], *reversed(parts)])


def _module_path(node: ast.Attribute) -> bool:
    """`controller.poker.x`: a module's dotted path, not an object's attribute."""
    root: ast.AST = node
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and root.id in ("controller", "drivers")


# -- JavaScript and the pages --------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z0-9_-]+")
_IDENT = re.compile(r"(?P<dot>\.\s*)?(?P<id>[A-Za-z_$][\w$]*)(?P<colon>\s*:(?!:))?")
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}   # a "/" after these opens a regular expression


@dataclass
class _Js:
    """A small JavaScript lexer: enough to tell strings, template text, regular expressions,
    comments and names apart (so a quote in a regex or a comment never starts a string)."""

    text: str
    strings: list[tuple[int, str]] = field(default_factory=list)   # (offset, text) of each literal piece
    names: list[tuple[int, str]] = field(default_factory=list)     # (offset, name) of each property
    comments: list[tuple[int, int]] = field(default_factory=list)  # (start, end)

    def lex(self, i: int = 0, until: str | None = None) -> int:
        t, depth = self.text, 0
        while i < len(t):
            c = t[i]
            if until and c == "}" and depth == 0:
                return i + 1
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            if t.startswith("//", i) or t.startswith("<!--", i):
                close = "-->" if t.startswith("<!--", i) else "\n"
                end = t.find(close, i)
                end = len(t) if end < 0 else end + len(close.strip())
                self.comments.append((i, end))
                i = end
            elif t.startswith("/*", i):
                end = t.find("*/", i + 2)
                end = len(t) if end < 0 else end + 2
                self.comments.append((i, end))
                i = end
            elif c in "\"'":
                j = i + 1
                while j < len(t) and t[j] != c and t[j] != "\n":
                    j += 2 if t[j] == "\\" else 1
                self.strings.append((i, t[i + 1:j]))
                i = j + 1
            elif c == "`":
                i = self._template(i + 1)
            elif c == "/" and t[:i].rstrip()[-1:] in _REGEX_AFTER:
                j, klass = i + 1, False
                while j < len(t) and t[j] != "\n" and (t[j] != "/" or klass):
                    klass = (klass or t[j] == "[") and t[j] != "]"
                    j += 2 if t[j] == "\\" else 1
                i = j + 1
            elif (m := _IDENT.match(t, i)) and (c == "." or i == 0 or not (t[i - 1].isalnum() or t[i - 1] in "_$")):
                if m.group("dot") or m.group("colon"):
                    self.names.append((m.start("id"), m.group("id")))
                i = m.end("id")
            else:
                i += 1
        return i

    def _template(self, i: int) -> int:
        t, piece = self.text, i
        while i < len(t) and t[i] != "`":
            if t[i] == "\\":
                i += 2
            elif t.startswith("${", i):
                self.strings.append((piece, t[piece:i]))
                i = piece = self.lex(i + 2, until="}")
            else:
                i += 1
        self.strings.append((piece, t[piece:i]))
        return i + 1


def scan_js(rel: str, text: str, games: Games) -> list[Finding]:
    """A token scan: string literals naming a game (whole, or as a word of a path such as
    "/static/poker.js"; prose with spaces is a label, not a branch), properties named by a game's
    key (`state.poker`, `{poker: ..}`), and the shape patterns, comments left out."""
    js = _Js(text)
    js.lex()
    def line(offset: int) -> int:
        return text.count("\n", 0, offset) + 1
    found: list[Finding] = []
    for at, s in js.strings:
        if s.strip() and not any(ch.isspace() for ch in s.strip()):
            for w in sorted({w for w in _WORD.findall(s) if w in games.words}):
                found.append(Finding(rel, line(at), "name", f"a string naming the game {w!r}: {s[:60]!r}"))
    for at, name in js.names:
        if name in games.keys:
            found.append(Finding(rel, line(at), "name", f"a property named for the game {name!r}"))
    code = list(text)
    for start, end in js.comments:
        for k in range(start, end):
            if code[k] != "\n":
                code[k] = " "
    lines = enumerate("".join(code).splitlines(), 1)
    return sorted(found, key=lambda f: f.line) + list(_shape_findings(rel, lines, games))


# -- shell scripts and unit files ----------------------------------------------------------------

def scan_shell(rel: str, text: str, games: Games) -> list[Finding]:
    """A test (`[ "$g" = poker ]`) or a `case` pattern on a game's name, outside comments."""
    alts = "|".join(sorted(map(re.escape, games.words), key=len, reverse=True))
    test = re.compile(r"""(==?|!=)\s*["']?(""" + alts + r""")\b|^\s*["']?(""" + alts + r""")["']?\s*[|)]""")
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0]
        m = test.search(code)
        if m:
            out.append(Finding(rel, n, "name", f"a test on the game {m.group(2) or m.group(3)!r}"))
    return out
