"""The shared books (the ledger, the retelling, the journal's read-back, the report, the par sheet,
`tablectl settle`) name no game: they ask the record's game (its books, controller/games/game.py).

Read with `ast`, nothing imported: a string that names a registered game (a profile's `game`, or a
game's key), a name or attribute spelled as a game's key (`profile.caribbean_stud`), an import of a
game's own package, or an isinstance of a class a game package defines, is a branch on the game.
Docstrings and comments are prose, not branches, and are not read. The games' names and keys are
the registry's, so a game added later is looked for too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from controller.games import registry

ROOT = Path(__file__).resolve().parents[2]
BOOKS = ("controller/runtime/ledger.py", "controller/runtime/retell.py", "controller/journal/readback.py",
         "controller/report", "controller/par", "controller/settle.py",
         "controller/ui/par_routes.py", "controller/ui/report_routes.py")
SCRIPTS = ("controller/ui/static/par.js", "controller/ui/static/figures.js")   # the books' screens


def books_files(root: Path = ROOT) -> list[Path]:
    found: list[Path] = []
    for name in BOOKS:
        path = root / name
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return found


def game_words() -> tuple[set[str], set[str]]:
    """The registry's games: every profile `game` and key (as strings say them), and the keys (as names)."""
    games = registry.games()
    words = {n for g in games for n in g.names} | {g.key for g in games}
    return words, {g.key for g in games}


def game_classes(root: Path = ROOT) -> set[str]:
    """The classes defined in the games' own packages (controller/games/<game>/)."""
    found: set[str] = set()
    for g in registry.games():
        for path in (root / "controller" / "games" / g.key).rglob("*.py"):
            found |= {n.name for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.ClassDef)}
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (of the module, a class, a function)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def branches(source: str, where: str, words: set[str], keys: set[str], classes: set[str]) -> list[str]:
    """Every place in `source` that names a game, each as `where:line: what`."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True))
                         + r")(?![\w-])")
    packages = tuple(f"controller.games.{k}" for k in keys)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            m = pattern.search(node.value)
            if m:
                found.append(f"{where}:{line}: the string {node.value[:60]!r} names the game {m.group(1)!r}")
        elif isinstance(node, ast.Attribute) and node.attr in keys:
            found.append(f"{where}:{line}: the attribute .{node.attr} is a game's key")
        elif isinstance(node, ast.Name) and node.id in keys:
            found.append(f"{where}:{line}: the name {node.id} is a game's key")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.module == "controller.games":
                modules += [f"controller.games.{a.name}" for a in node.names]
            for module in modules:
                if module.startswith(packages) and module.split(".")[2] in keys:
                    found.append(f"{where}:{line}: imports {module}, a game's own package")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2:
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            for k in kinds:
                name = k.id if isinstance(k, ast.Name) else k.attr if isinstance(k, ast.Attribute) else None
                if name in classes:
                    found.append(f"{where}:{line}: isinstance of {name}, a class of a game's package")
    return sorted(found, key=lambda f: int(f.split(":")[1]))


def script_branches(source: str, where: str, words: set[str]) -> list[str]:
    """Every line of a script (its comments left out) that names a game: a name or key as a word of
    its code (`s.game === "casino-war"`, `t.poker`)."""
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True))
                         + r")(?![\w-])")
    code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), source, flags=re.S)
    found = []
    for n, line in enumerate(code.splitlines(), 1):
        m = pattern.search(re.sub(r"(^|\s)//.*$", "", line))
        if m:
            found.append(f"{where}:{n}: names the game {m.group(1)!r}")
    return found


def scan(root: Path = ROOT) -> list[str]:
    words, keys = game_words()
    classes = game_classes(root)
    out = []
    for path in books_files(root):
        out += branches(path.read_text(), str(path.relative_to(root)), words, keys, classes)
    for name in SCRIPTS:
        out += script_branches((root / name).read_text(), name, words)
    return out


def test_the_registry_gives_the_scan_its_games():
    words, keys = game_words()
    assert {"caribbean-stud", "casino-war", "texas-holdem", "poker"} <= words
    assert {"caribbean_stud", "casino_war", "poker"} <= keys
    assert {"WarRound", "StudRound"} <= game_classes()
    assert len(books_files()) >= 10 and all(p.is_file() for p in books_files())


def test_the_shared_books_name_no_game():
    assert scan() == []


def test_the_scan_finds_a_planted_branch_of_each_kind(tmp_path):
    """A copy of the books with one game named in each way: each is found, and nothing else."""
    for path in books_files() + [ROOT / name for name in SCRIPTS]:
        copy = tmp_path / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(path.read_text())
    (tmp_path / "controller" / "games").symlink_to(ROOT / "controller" / "games")
    ledger = tmp_path / "controller" / "runtime" / "ledger.py"
    ledger.write_text(ledger.read_text() + '''

def planted(p, r, profile):
    """A docstring may say casino-war: prose, not a branch."""
    from controller.games.casino_war.at_table import WarRound   # the import is one
    if p.get("game") == "casino-war":                            # a game's name
        return profile.caribbean_stud                            # a game's key, as an attribute
    if isinstance(r, (dict, WarRound)):                          # a class of a game's package
        return f"{p['x']} poker"                                 # the key in a string
''')
    found = scan(tmp_path)
    assert [f.split(": ", 1)[1] for f in found] == [
        "imports controller.games.casino_war.at_table, a game's own package",
        "the string 'casino-war' names the game 'casino-war'",
        "the attribute .caribbean_stud is a game's key",
        "isinstance of WarRound, a class of a game's package",
        "the string ' poker' names the game 'poker'",
    ], found
    assert all(f.startswith("controller/runtime/ledger.py:") for f in found)
    par = tmp_path / "controller" / "ui" / "static" / "par.js"
    par.write_text(par.read_text() + '\n// a comment may say casino-war\nconst planted = (s) => s.game === "casino-war";\n')
    assert [f.split(": ", 1)[1] for f in scan(tmp_path)][len(found):] == ["names the game 'casino-war'"]


def test_the_scripts_scan_finds_main_s_branches():
    """Before issue 27 par.js chose the game's sheet by name and figures.js read `t.poker`."""
    words, _ = game_words()
    assert script_branches('body.innerHTML = s.game === "caribbean-stud" ? stud(s) : poker(s);', "par.js", words)
    assert script_branches("    const k = t.poker;", "figures.js", words)
    assert not script_branches("    // t.poker, once", "figures.js", words)
