"""The poker engine's modules meet through each other's public names only.

Issue 27: the poker hand and its irregularities were one class in two files, irregularities.py
driving the hand's private methods (`hand._after_dealing()`, `hand._out(p)` ...). Now a module of
controller/poker touches the private names (`_x`, not dunders) of its own objects only: `self._x`
and `cls._x`, and its own module's `_helpers`. Another object's private name is a finding, however
it is reached: `hand._x`, `self.hand._x`, `getattr(hand, "_x")`, or `from controller.poker.phh
import _x`. The source is read with `ast` (nothing is imported); the last tests feed the check a
small package to show it finds what it should and passes what it may.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ("controller/poker",)   # the packages held to it
REFLECTION = frozenset({"getattr", "setattr", "delattr", "hasattr"})


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own(node: ast.expr) -> bool:
    """The object whose private names these are: `self`, `cls`, or `super()`."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def private_reads(root: Path, packages: tuple[str, ...] = ENGINE) -> list[str]:
    """`path:line: what` for every private name of another object a module reads, in file order."""
    found: list[tuple[str, int, int, str]] = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                what = None
                if isinstance(node, ast.Attribute) and _private(node.attr) and not _own(node.value):
                    what = ast.unparse(node)
                elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFLECTION
                      and len(node.args) >= 2 and not _own(node.args[0]) and isinstance(node.args[1], ast.Constant)
                      and isinstance(node.args[1].value, str) and _private(node.args[1].value)):
                    what = ast.unparse(node)
                elif isinstance(node, ast.ImportFrom):
                    names = [a.name for a in node.names if _private(a.name)]
                    if names:
                        what = f"from {'.' * node.level}{node.module or ''} import {', '.join(names)}"
                if what is not None:
                    found.append((where, node.lineno, node.col_offset, what))
    return [f"{where}:{line}: {what}" for where, line, _, what in sorted(found)]


def test_the_poker_modules_read_no_private_name_of_another():
    assert len(list((ROOT / "controller" / "poker").glob("*.py"))) > 10   # the engine was read, not an empty tree
    assert private_reads(ROOT) == []


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_another_objects_private_name_is_found_however_it_is_reached(tmp_path):
    _package(tmp_path, {
        "controller/poker/__init__.py": "",
        "controller/poker/rules.py": (
            "from controller.poker.hand import _helper\n"
            "def apply(hand):\n"
            "    hand._after_dealing()\n"
            "    return getattr(hand, '_street')\n"
            "class Table:\n"
            "    def go(self):\n"
            "        self.hand._out(0)\n"
        ),
    })
    assert private_reads(tmp_path) == [
        "controller/poker/rules.py:1: from controller.poker.hand import _helper",
        "controller/poker/rules.py:3: hand._after_dealing",
        "controller/poker/rules.py:4: getattr(hand, '_street')",
        "controller/poker/rules.py:7: self.hand._out",
    ]


def test_own_private_names_and_dunders_pass(tmp_path):
    _package(tmp_path, {
        "controller/poker/__init__.py": "",
        "controller/poker/hand.py": (
            "import dataclasses\n"
            "def _helper():\n"
            "    return _helper.__name__\n"
            "class Hand:\n"
            "    __slots__ = ('_street',)\n"
            "    def __init__(self):\n"
            "        self._street = 0\n"
            "        object.__setattr__(self, '__doc__', None)\n"
            "        super()._setup()\n"
            "    @classmethod\n"
            "    def make(cls):\n"
            "        return cls._default, getattr(cls, '_street'), dataclasses.__all__, _helper()\n"
        ),
    })
    assert private_reads(tmp_path) == []


# -- the table's neighbours and the table -------------------------------------------------------------
#
# Issue 27: controller/runtime/linked.py and controller/journal/anchor.py called the table's private
# names through alias shims (`table._publish()`, `table._wake_outputs`, `table._set_fault(...)`). Now
# each declares the host it needs (LinkHost, AnchorHost) and Table implements it with public members,
# so no module of the runtime, the journal or a game reads a private name of the Table: any name
# `_x` controller/table.py's Table defines (a method, or an attribute it sets on itself), reached on
# another object than `self`/`cls`, or by getattr.

NEIGHBOURS = ("controller/runtime", "controller/journal", "controller/games")


def table_privates(root: Path) -> frozenset[str]:
    """The private names controller/table.py's Table defines: its methods and its own attributes."""
    tree = ast.parse((root / "controller" / "table.py").read_text())
    table = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Table")
    names = set()
    for node in ast.walk(table):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(node.name):
            names.add(node.name)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _private(node.attr)
              and isinstance(node.value, ast.Name) and node.value.id == "self"):
            names.add(node.attr)
        elif isinstance(node, ast.Assign) and node in table.body:
            names |= {t.id for t in node.targets if isinstance(t, ast.Name) and _private(t.id)}
    return frozenset(names)


def table_private_reads(root: Path, packages: tuple[str, ...] = NEIGHBOURS) -> list[str]:
    """`path:line: what` for every read of one of the Table's private names outside controller/table.py."""
    privates = table_privates(root)
    found = []
    for line in private_reads(root, packages):
        what = line.split(": ", 1)[1]
        name = what.split("'")[1] if what.startswith(("getattr", "setattr", "hasattr", "delattr")) else (
            what.rsplit(".", 1)[-1])
        if name in privates:
            found.append(line)
    return found


def test_the_runtime_the_journal_and_the_games_read_no_private_name_of_the_table():
    privates = table_privates(ROOT)
    assert {"_consume", "_tasks", "_stopped", "_after_batch"} <= privates   # Table was read, not an empty class
    assert table_private_reads(ROOT) == []


def test_a_read_of_the_tables_private_name_is_found(tmp_path):
    _package(tmp_path, {
        "controller/table.py": (
            "class Table:\n"
            "    def __init__(self):\n"
            "        self._stopped = None\n"
            "    def _publish(self):\n"
            "        return self._stopped\n"
        ),
        "controller/runtime/__init__.py": "",
        "controller/runtime/linked.py": (
            "class LinkedTable:\n"
            "    def __init__(self, table):\n"
            "        self.table, self._worker = table, None\n"
            "    def status(self):\n"
            "        self.table._publish()\n"
            "        return getattr(self.table, '_stopped'), self.client._call, self._worker\n"
        ),
        "controller/journal/__init__.py": "",
        "controller/games/__init__.py": "",
    })
    assert table_private_reads(tmp_path) == [
        "controller/runtime/linked.py:5: self.table._publish",
        "controller/runtime/linked.py:6: getattr(self.table, '_stopped')",
    ]
