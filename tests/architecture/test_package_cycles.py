"""No import cycle among the product's packages: each package stands on the ones below it.

test_imports.py finds cycles between modules. This one finds them between packages, where a cycle
is a layering that reads both ways (controller.config builds on controller.games while a game's
package builds on controller.config). A package is one of controller's subpackages (boundary,
config, floor, journal, link, par, runtime, ui...; a module at controller/'s root is its own) and,
because a game is a package (issue 27), each game's package under controller/games/ is a package of
its own: the registry finds the games through their entry points, never by importing them, so
controller.games (the Game interface, the registry, the shared rounds) sits below everything and
each game above the shared code it uses.

Only imports that run when a module is imported count: those at a module's top level (and in a
class body or under `try`), not those inside a function, which run when the function is first
called (a lazy part of a game, or a command's own dependencies), nor those under
`if TYPE_CHECKING:`. The source is read with `ast`; nothing is imported. The last tests plant a
cycle in a small tree to show the check fails on one.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tests.architecture.imports_helpers import Import, ImportGraph, _is_type_checking, _targets, module_name

ROOT = Path(__file__).resolve().parents[2]

# Edges from the shared code into one game's package that make cycles on main today, each being
# taken out by the helper who owns its file on issue 27 (the game's part asked instead). Listed so
# the check holds everything else now; each must still exist (a stale one fails), so the list
# empties as the branches merge.
BEING_REMOVED = {
}


def package_of(root: Path, module: str) -> str:
    """The package a module belongs to: controller's subpackage, or a game's package."""
    parts = module.split(".")
    if parts[0] != "controller" or len(parts) == 1:
        return parts[0]
    if parts[1] == "games" and len(parts) > 2 and (root / "controller" / "games" / parts[2]).is_dir():
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def _on_import(tree: ast.AST):
    """The import statements that run when the module is imported."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))


def package_edges(root: Path, top: str = "controller") -> dict[tuple[str, str], list[str]]:
    """(importer's package, imported package) -> where ("path:line"), for every import between two."""
    modules = {module_name(root, p): p for p in sorted((root / top).rglob("*.py"))}
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for name, path in modules.items():
        for node in _on_import(ast.parse(path.read_text(), str(path))):
            for imported in _targets(node, name, path.name == "__init__.py", modules):
                if imported not in modules:
                    continue   # not ours (the standard library, drivers, a third party's)
                a, b = package_of(root, name), package_of(root, imported)
                if a != b and top not in (a, b):
                    edges[(a, b)].append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return dict(edges)


def package_cycles(edges: dict[tuple[str, str], list[str]]) -> list[str]:
    """Each cycle's packages and the imports inside it, for a failure's message."""
    graph = ImportGraph(modules={p: Path(p) for pair in edges for p in pair})
    graph.imports = []
    for (a, b), where in edges.items():
        graph.imports += [Import(a, b, Path(w.rsplit(":", 1)[0]), int(w.rsplit(":", 1)[1])) for w in where]
    return [" <-> ".join(c) + "\n" + "\n".join(f"    {i.importer} -> {i.imported} ({i.path}:{i.line})"
                                                for i in graph.path_in(c))
            for c in graph.cycles()]


def test_the_products_packages_import_one_way():
    edges = package_edges(ROOT)
    assert ("controller.runtime", "controller.games") in edges   # the tree was read
    stale = sorted(e for e in BEING_REMOVED if e not in edges)
    assert stale == [], f"no longer imported: take them out of BEING_REMOVED: {stale}"
    rest = {e: w for e, w in edges.items() if e not in BEING_REMOVED}
    assert package_cycles(rest) == []


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_planted_cycle_between_packages_is_found(tmp_path):
    _tree(tmp_path, {
        "controller/__init__.py": "",
        "controller/config/__init__.py": "",
        "controller/config/profiles.py": "from controller.games.poker.names import POKER\n",
        "controller/games/__init__.py": "",
        "controller/games/game.py": "",
        "controller/games/poker/__init__.py": "",
        "controller/games/poker/names.py": "POKER = ()\n",
        "controller/games/poker/profiles.py": "from controller.config import profiles\n",
        "controller/runtime/__init__.py": "",
        "controller/runtime/view.py": (
            "from typing import TYPE_CHECKING\n"
            "from controller.games import game\n"
            "if TYPE_CHECKING:\n"
            "    from controller.ui import app\n"
            "def later():\n"
            "    from controller.ui import app\n"
        ),
        "controller/ui/__init__.py": "",
        "controller/ui/app.py": "from controller.runtime import view\n",
    })
    edges = package_edges(tmp_path)
    assert package_cycles(edges) == [
        "controller.config <-> controller.games.poker\n"
        "    controller.config -> controller.games.poker (controller/config/profiles.py:1)\n"
        "    controller.games.poker -> controller.config (controller/games/poker/profiles.py:1)"]
    # the screens' import of the view is one way: the view's of the screens are a type's and a function's
    assert ("controller.ui", "controller.runtime") in edges and ("controller.runtime", "controller.ui") not in edges
