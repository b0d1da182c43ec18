"""No handler is named by a string: every one a reader (and an IDE, and mypy) can follow.

Issue 27: the round machines dispatched each event to `_check_<type>` and `_do_<type>` through
`getattr(machine, f"_check_{kind}")`, and handed `transitions` their conditions by name
("deal_over"), so no reader could follow an event to the code that handles it. Now each machine
declares a table of handlers (controller/games/base.py `handler`, bound methods) and gives
`transitions` its conditions as bound methods. This test reads controller/ and drivers/ with
`ast` (nothing is imported) and finds what would bring the strings back:

- `getattr(x, f"_on_{kind}")`, `getattr(x, "_do_" + kind)`, `getattr(x, "_{}".format(kind))`: a
  name composed at run time;
- `getattr(x, name)(...)`: a method called by a name held in a variable;
- a `transitions` callback or condition given as text: `"conditions": "deal_over"` in a dict, or
  `conditions="deal_over"` as a keyword (also `unless`, `before`, `after`, `prepare`, `on_enter`,
  `on_exit`, ...), alone or in a list;
- a method named `on_enter_<state>` / `on_exit_<state>`, which `transitions` calls by its name.

The last tests plant each of them in a small tree, and one in a copy of a real machine.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("controller", "drivers")
# transitions' arguments that name a callable (a transition's, a state's, the machine's)
CALLBACKS = frozenset({"conditions", "unless", "before", "after", "prepare", "on_enter", "on_exit",
                       "on_exception", "on_final", "on_timeout", "before_state_change", "after_state_change",
                       "prepare_event", "finalize_event"})
# Still there on this branch, each replaced by the helper named: the entry goes when its site does
# (a site no longer found fails below, so this list cannot outlive them).
PENDING = {
}


def _text(node: ast.expr) -> bool:
    """A string, or a list/tuple holding one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.List, ast.Tuple)) and any(_text(e) for e in node.elts)


def _composed(node: ast.expr) -> bool:
    """A name put together at run time: an f-string, text + something, or "...".format(...)."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return any(isinstance(side, (ast.Constant, ast.JoinedStr)) and not isinstance(getattr(side, "value", ""), int)
                   for side in (node.left, node.right))
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant))


def _getattr(node: ast.AST) -> ast.Call | None:
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and len(node.args) >= 2):
        return node
    return None


def string_handlers(root: Path, folders: tuple[str, ...] = PRODUCT) -> list[str]:
    """`path:line: what` for every handler named by a string, in file order."""
    found: list[tuple[str, int, int, str]] = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(), str(path))
            called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and _getattr(n.func)}
            for node in ast.walk(tree):
                what = None
                g = _getattr(node)
                if g is not None and _composed(g.args[1]):
                    what = ast.unparse(g)
                elif g is not None and id(g) in called and not isinstance(g.args[1], ast.Constant):
                    what = None   # reported with its call, below
                elif isinstance(node, ast.Call) and _getattr(node.func) and not isinstance(
                        node.func.args[1], ast.Constant) and not _composed(node.func.args[1]):
                    what = ast.unparse(node)
                elif isinstance(node, ast.Dict):
                    found += [(where, k.lineno, k.col_offset, f"{ast.unparse(k)}: {ast.unparse(v)}")
                              for k, v in zip(node.keys, node.values, strict=True)
                              if isinstance(k, ast.Constant) and k.value in CALLBACKS and _text(v)]
                elif isinstance(node, ast.Call):
                    what = next((f"{k.arg}={ast.unparse(k.value)}" for k in node.keywords
                                 if k.arg in CALLBACKS and _text(k.value)), None)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
                        ("on_enter_", "on_exit_")):
                    what = f"def {node.name}"
                if what is not None:
                    found.append((where, node.lineno, node.col_offset, what))
    return [f"{where}:{line}: {what}" for where, line, _, what in sorted(found)]


def _site(finding: str) -> str:
    where, _, what = finding.split(":", 2)
    return f"{where}:{what}"


def test_no_handler_in_the_product_is_named_by_a_string():
    assert len(list((ROOT / "controller").rglob("*.py"))) > 100   # the product was read, not an empty tree
    found = [f for f in string_handlers(ROOT) if _site(f) not in PENDING]
    assert found == []


def test_each_pending_site_is_still_there():
    """An entry of PENDING whose site was replaced is taken out of it."""
    sites = {_site(f) for f in string_handlers(ROOT)}
    assert sorted(set(PENDING) - sites) == []


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_each_kind_of_string_handler_is_found(tmp_path):
    _tree(tmp_path, {
        "controller/__init__.py": "",
        "controller/round.py": (
            "from transitions import Machine\n"
            "class Round:\n"
            "    def apply(self, kind, event):\n"
            "        getattr(self, f'_check_{kind}')(event)\n"
            "        getattr(self, '_do_' + kind)(event)\n"
            "        getattr(self, '_on_{}'.format(kind))\n"
            "        getattr(self, kind)()\n"
            "        return getattr(self, 'state')\n"       # a constant name: an attribute read, not a dispatch
            "    def build(self):\n"
            "        m = Machine(model=self, states=['a', 'b'], initial='a', after_state_change='_log')\n"
            "        m.add_transition('go', 'a', 'b', conditions=['ready', self.ok])\n"
            "        return [{'trigger': 'go', 'source': 'a', 'dest': 'b', 'unless': 'blocked'},\n"
            "                {'trigger': 'back', 'source': 'b', 'dest': 'a', 'conditions': [self.ok]}]\n"
            "    def on_enter_b(self):\n"
            "        pass\n"
        ),
        "drivers/cli.py": "def run(faults, action, n):\n    getattr(faults, action)(n)\n",
    })
    assert string_handlers(tmp_path) == [
        "controller/round.py:4: getattr(self, f'_check_{kind}')",
        "controller/round.py:5: getattr(self, '_do_' + kind)",
        "controller/round.py:6: getattr(self, '_on_{}'.format(kind))",
        "controller/round.py:7: getattr(self, kind)()",
        "controller/round.py:10: after_state_change='_log'",
        "controller/round.py:11: conditions=['ready', self.ok]",
        "controller/round.py:12: 'unless': 'blocked'",
        "controller/round.py:14: def on_enter_b",
        "drivers/cli.py:2: getattr(faults, action)(n)",
    ]


def test_a_condition_named_by_a_string_in_a_copy_of_a_real_machine_is_found(tmp_path):
    machine = "controller/games/casino_war/machine.py"
    (tmp_path / machine).parent.mkdir(parents=True)
    shutil.copy(ROOT / machine, tmp_path / machine)
    assert string_handlers(tmp_path) == []   # the machine as it is: its conditions are its methods
    text = (tmp_path / machine).read_text()
    planted = text.replace('"conditions": [self.has_tie_hands]', '"conditions": "has_tie_hands"', 1)
    assert planted != text
    (tmp_path / machine).write_text(planted)
    line = next(i for i, row in enumerate(planted.splitlines(), 1) if '"has_tie_hands"' in row)
    assert string_handlers(tmp_path) == [f"{machine}:{line}: 'conditions': 'has_tie_hands'"]


def test_each_machine_has_one_handler_for_each_event_of_its_transitions():
    """The table is the whole dispatch: an event the machine's transitions know and the table does
    not would be accepted by the state and have no check (apply_event would fail on it)."""
    from controller.games.caribbean_stud.machine import EVENTS as STUD_EVENTS
    from controller.games.caribbean_stud.machine import CaribbeanStudRound, new_meter
    from controller.games.caribbean_stud.rules import StudRules
    from controller.games.casino_war.machine import EVENTS as WAR_EVENTS
    from controller.games.casino_war.machine import CasinoWarRound

    rules = StudRules()
    for machine, events in ((CaribbeanStudRound(rules, new_meter(rules, 0)), STUD_EVENTS),
                            (CasinoWarRound(), WAR_EVENTS)):
        assert set(machine.handlers()) == set(machine.machine.events) == set(events)
