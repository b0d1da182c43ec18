"""The import graph keeps the shape docs/ARCHITECTURE.md draws ("Layers"): no cycles, rules
without I/O, drivers without games, screens without drivers or the journal.

The graph is read from the source (tests/architecture/imports_helpers.py), so an import hidden in
a function counts as much as one at the top. The last tests feed the same checks a small
package with a cycle and a forbidden import, to show they fail when they should.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tests.architecture.imports_helpers import ImportGraph, build

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("controller", "drivers")

# I/O: what a pure rule never imports (the machine's ports, disks, sockets, threads and event loop).
IO = ("sqlite3", "asyncio", "serial", "usb", "socket", "selectors", "ssl", "subprocess", "threading",
      "multiprocessing", "concurrent", "psycopg", "starlette", "uvicorn", "http", "urllib")

# The pure rules: cards and wagers in, outcomes out (the machines beside them only sequence).
# A game's package holds its pure parts (the rules, the round machine, the record, and the
# helpers beside them, named in GAME_RULES) and the parts that run at the table, which may use
# the runtime like any other table code.
GAME_RULES = ("rules", "machine", "record", "deal", "paylist", "turnover", "shoe", "floors")
RULES = ("controller.cards", "controller.hands", "controller.poker", "controller.games.base",
         "controller.games.limits",
         *(f"controller.games.{g.name}.{part}" for g in sorted((ROOT / "controller" / "games").iterdir())
           if (g / "__init__.py").exists() for part in GAME_RULES if (g / f"{part}.py").exists()),
         "controller.progressive", "controller.records", "controller.config.floors")


# (what the rule says, who it binds, what they may not import, what they may despite that)
LAYERS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("rules never import I/O", RULES,
     IO + ("drivers", "controller.journal", "controller.runtime",
           "controller.table", "controller.ui", "controller.link", "controller.floor", "controller.report",
           "controller.cli"),
     ()),
    ("drivers never import games (only the card vocabulary, controller.cards)", ("drivers",),
     ("controller",), ("controller.cards",)),
    ("screens never import drivers or the journal", ("controller.ui",),
     ("drivers", "controller.journal"), ("controller.journal.durable",)),
    ("the product never imports the test support", PRODUCT, ("testsupport", "tests"), ()),
)


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def layer_violations(graph: ImportGraph, layers=LAYERS) -> list[str]:
    found = []
    for rule, bound, forbidden, allowed in layers:
        for imp in graph.imports:
            if _under(imp.importer, bound) and _under(imp.imported, forbidden) and not _under(imp.imported, allowed):
                found.append(f"{imp.path.relative_to(imp.path.parents[len(imp.importer.split('.')) - 1])}:"
                             f"{imp.line}: {imp.importer} imports {imp.imported} ({rule})")
    return sorted(set(found))


def cycle_report(graph: ImportGraph) -> list[str]:
    return [" <-> ".join(c) + "\n" + "\n".join(f"    {i.importer} -> {i.imported} (line {i.line})"
                                                 for i in graph.path_in(c))
            for c in graph.cycles()]


@cache
def product() -> ImportGraph:
    return build(ROOT, PRODUCT)


def test_the_product_has_no_import_cycle():
    graph = product()
    assert len(graph.modules) > 100   # the whole product was read, not an empty tree
    assert cycle_report(graph) == []


def test_the_product_keeps_its_layers():
    graph = product()
    assert layer_violations(graph) == []


def test_every_rule_binds_modules_that_exist():
    """A rule naming a package that moved would pass forever while binding nothing."""
    graph = product()
    for rule, bound, _, _ in LAYERS:
        if rule.startswith("the product"):
            continue
        for prefix in bound:
            assert any(_under(m, (prefix,)) for m in graph.modules), (rule, prefix)


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_cycle_fails_even_when_hidden_in_a_function(tmp_path):
    _package(tmp_path, {
        "controller/__init__.py": "",
        "controller/poker/__init__.py": "",
        "controller/poker/hand.py": "from controller.poker import rules\n",
        "controller/poker/rules.py": "def f():\n    from controller.poker.hand import X\n",
        "controller/poker/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                     "    from controller.poker.both import Y\n",
        "controller/poker/both.py": "from . import typed\n",
        "drivers/__init__.py": "",
    })
    graph = build(tmp_path, PRODUCT)
    assert graph.cycles() == [["controller.poker.hand", "controller.poker.rules"]]   # not typed <-> both
    report = cycle_report(graph)
    assert "controller.poker.rules -> controller.poker.hand (line 2)" in report[0]


def test_a_forbidden_import_fails(tmp_path):
    _package(tmp_path, {
        "controller/__init__.py": "",
        "controller/cards.py": "import random\n",
        "controller/journal/store.py": "import sqlite3\n",
        "controller/hands/__init__.py": "",
        "controller/hands/high.py": "import functools\ndef rank():\n    import sqlite3\n",
        "controller/ui/__init__.py": "",
        "controller/ui/app.py": "from controller.journal import store\nfrom ..cards import parse\n",
        "drivers/__init__.py": "",
        "drivers/shoe.py": "from controller.cards import Card\nfrom controller.games import rules\n",
    })
    found = layer_violations(build(tmp_path, PRODUCT))
    assert [line.split(": ", 1)[1] for line in found] == [
        "controller.hands.high imports sqlite3 (rules never import I/O)",
        "controller.ui.app imports controller.journal.store (screens never import drivers or the journal)",
        "drivers.shoe imports controller.games (drivers never import games (only the card vocabulary, "
        "controller.cards))",
    ]
    assert found[0].startswith("controller/hands/high.py:3: ")
