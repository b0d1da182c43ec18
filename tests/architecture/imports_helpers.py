"""The import graph of our own packages, read from the source with `ast` (nothing is imported).

Every import counts where it is written: at the top of a module, inside a function (an import
moved into a function to dodge a cycle still makes the cycle) or under `try`. Only imports under
`if TYPE_CHECKING:` are left out, as they never run. `from a import b` is an edge to the module
`a.b` when `a/b.py` (or `a/b/`) exists, else to `a`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Import:
    """One edge: `importer` imports `imported` at `line` of `path`."""
    importer: str
    imported: str
    path: Path
    line: int


@dataclass
class ImportGraph:
    modules: dict[str, Path] = field(default_factory=dict)
    imports: list[Import] = field(default_factory=list)

    def edges(self, *, internal: bool = True) -> dict[str, set[str]]:
        """Each module's imported modules (only our own when `internal`)."""
        out: dict[str, set[str]] = {name: set() for name in self.modules}
        for imp in self.imports:
            if imp.imported == imp.importer:
                continue
            if internal and imp.imported not in self.modules:
                continue
            out[imp.importer].add(imp.imported)
        return out

    def cycles(self) -> list[list[str]]:
        """The strongly connected components of more than one module (or a module importing
        itself), each sorted, in sorted order: every import cycle lies inside one of them."""
        graph = self.edges()
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        found: list[list[str]] = []
        counter = 0
        for root in sorted(graph):
            if root in index:
                continue
            # iterative Tarjan: (node, iterator over its successors)
            work = [(root, iter(sorted(graph[root])))]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                node, successors = work[-1]
                advanced = False
                for succ in successors:
                    if succ not in index:
                        index[succ] = low[succ] = counter
                        counter += 1
                        stack.append(succ)
                        on_stack.add(succ)
                        work.append((succ, iter(sorted(graph[succ]))))
                        advanced = True
                        break
                    if succ in on_stack:
                        low[node] = min(low[node], index[succ])
                if advanced:
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
        return sorted(found)

    def path_in(self, component: list[str]) -> list[Import]:
        """The edges inside one cycle's component, to name in a failure."""
        members = set(component)
        return [imp for imp in self.imports if imp.importer in members and imp.imported in members
                and imp.importer != imp.imported]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def build(root: Path, packages: tuple[str, ...]) -> ImportGraph:
    """The graph of every module of `packages` (top-level package directories under `root`)."""
    graph = ImportGraph()
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            graph.modules[module_name(root, path)] = path
    for name, path in graph.modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(), filename=str(path))
        for node, line in _imports(tree):
            for imported in _targets(node, name, is_package, graph.modules):
                graph.imports.append(Import(name, imported, path, line))
    return graph


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every import node that runs, with its line (skipping `if TYPE_CHECKING:` bodies)."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, node.lineno
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _targets(node: ast.Import | ast.ImportFrom, importer: str, is_package: bool,
             modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = importer.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    targets = []
    for alias in node.names:
        sub = f"{module}.{alias.name}"
        targets.append(sub if sub in modules else module)
    return targets
