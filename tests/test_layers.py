"""The layers of ``src/cardtable``, checked by reading every import with ``ast``.

Every import statement counts: module level, inside functions and methods (a lazy import
that closes a cycle is still a cycle), relative ones resolved to absolute names, and
dynamic imports whose target is written out (``"cardtable.bots.spy_greedy:GreedyBot"``,
``importlib.import_module("cardtable.x")``). Only imports under ``if TYPE_CHECKING:``
are left out, since they never run. An import of ``a.b.c`` is an edge to ``a.b.c``
alone, not to the packages ``a`` and ``a.b`` that Python also initialises on the way:
a package's ``__init__`` that re-exports its own modules would otherwise always close a
cycle.

The checker fails on:

- an engine module importing anything but the standard library and the engine;
- a module importing a module of a higher layer (see :data:`LAYERS`);
- one face importing another face (see :data:`FACES`);
- a module that no layer claims (a new package must be placed in the table);
- any import cycle among cardtable modules, reported as a path ``a → b → … → a``.

``test_checker_*`` prove on fake module sources that the checker catches each case.
"""

from __future__ import annotations

import ast
import itertools
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# The layers, low to high. A module may import its own layer and the layers below it,
# never a layer above. A name claims the module of that name and everything under it;
# packages not written yet are listed so they land in the right place when they come.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "engine",
        (
            "cardtable.cards",
            "cardtable.catalogue",
            "cardtable.errors",
            "cardtable.record",
            "cardtable.messages",
            "cardtable.glossary",
            "cardtable.games",
        ),
    ),
    (
        "services",
        (
            "cardtable.bots",
            "cardtable.rules_text",
            "cardtable.tournament",
            "cardtable.fairplay",
            "cardtable.cli_help",
        ),
    ),
    ("table", ("cardtable.table",)),
    (
        "faces",
        (
            "cardtable.server",
            "cardtable.tui",
            "cardtable.rl",
            "cardtable.arena",
            "cardtable.botclient",
        ),
    ),
    ("entry", ("cardtable.cli", "cardtable.__main__")),
)

# The package's own ``__init__`` holds only the version and docs; it is claimed by the
# engine layer as an exact name (not a prefix: it must not claim every module).
ROOT = "cardtable"
ENGINE = "engine"

# Faces stand side by side: none of them may import another.
FACES = (
    "cardtable.server",
    "cardtable.tui",
    "cardtable.rl",
    "cardtable.arena",
    "cardtable.botclient",
)


@dataclass(frozen=True)
class Import:
    """One imported module name, as written at ``line`` of ``module``."""

    module: str
    line: int
    target: str  # absolute dotted name of what is imported (a module or a package)
    text: str  # the import statement as written

    def where(self) -> str:
        return f"{self.module} line {self.line}: {self.text}"


def _owner(name: str, prefixes: tuple[str, ...]) -> str | None:
    """The prefix in ``prefixes`` that claims ``name`` (itself or a parent), if any."""
    for prefix in prefixes:
        if name == prefix or name.startswith(prefix + "."):
            return prefix
    return None


def layer_of(name: str) -> int | None:
    """The rank of the layer claiming cardtable module ``name`` (0 = engine), or None."""
    if name == ROOT:
        return 0
    for rank, (_, prefixes) in enumerate(LAYERS):
        if _owner(name, prefixes) is not None:
            return rank
    return None


def _is_type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree``, at any depth, except those under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield child
                yield from _nodes(child)
            continue
        yield node
        yield from _nodes(node)


# ``"cardtable.bots.spy_greedy:GreedyBot"``: a ``module:attribute`` target that code
# imports by name (importlib), counted like an import statement.
_TARGET = re.compile(r"(cardtable(?:\.\w+)*):\w+")


def imports_of(module: str, source: str, is_package: bool, known: set[str]) -> list[Import]:
    """What ``module`` imports, with relative names resolved and ``from p import m``
    counted as an import of submodule ``p.m`` when ``p.m`` is one of ``known``.

    Dynamic imports count too when their target is written out: a string
    ``"cardtable.x.y:name"`` and ``importlib.import_module("cardtable.x.y")``.
    """
    found: list[Import] = []
    package = module if is_package else module.rpartition(".")[0]
    for node in _nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, node.lineno, alias.name, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                origin = f"{base}.{node.module}" if node.module else base
            else:
                origin = node.module or ""
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                target = sub if sub in known else origin
                found.append(Import(module, node.lineno, target, ast.unparse(node)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = _TARGET.fullmatch(node.value)
            if match:
                found.append(Import(module, node.lineno, match[1], repr(node.value)))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(Import(module, node.lineno, node.args[0].value, ast.unparse(node)))
    return found


def _top(name: str) -> str:
    return name.partition(".")[0]


def _cycles(graph: Mapping[str, set[str]]) -> list[tuple[list[str], set[str]]]:
    """One shortest cycle (a path ``[a, b, …, a]``) and its whole group, for each
    strongly connected group of modules that import one another (Tarjan's algorithm,
    iterative). Breaking the cycle shown may leave others in a big group, so the group
    is named too."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group: set[str] = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in graph[node]:
                        groups.append(group)
    cycles = []
    for group in groups:
        start = min(group)
        # Shortest way from start back to itself inside the group (breadth first).
        came: dict[str, str] = {}
        frontier = [start]
        while start not in came:
            nxt = []
            for node in frontier:
                for child in sorted(graph[node] & group):
                    if child not in came:
                        came[child] = node
                        nxt.append(child)
            frontier = nxt
        path = [start]
        node = came[start]
        while node != start:
            path.append(node)
            node = came[node]
        path.append(start)
        cycles.append((path[::-1], group))
    return sorted(cycles, key=lambda found: found[0])


def check(sources: Mapping[str, tuple[str, bool]]) -> list[str]:
    """Every layering fault among ``sources`` (module name → (source text, is package)),
    one line each, naming the module, the line and the import."""
    known = set(sources)
    faults: list[str] = []
    graph: dict[str, set[str]] = {name: set() for name in known}
    lines: dict[tuple[str, str], Import] = {}
    for module, (source, is_package) in sorted(sources.items()):
        rank = layer_of(module)
        if rank is None:
            faults.append(f"{module}: no layer claims this module (add it to LAYERS)")
        face = _owner(module, FACES)
        for imp in imports_of(module, source, is_package, known):
            target = imp.target
            if _top(target) != ROOT:
                if rank == 0 and _top(target) not in sys.stdlib_module_names:
                    faults.append(f"{imp.where()}: the engine imports non-standard {target}")
                continue
            # A name under cardtable that is not a module (``from cardtable.x import f``
            # resolves to cardtable.x): edges go to the nearest known module.
            node = target
            while node not in known and "." in node:
                node = node.rpartition(".")[0]
            if node != module:
                graph[module].add(node)
                lines.setdefault((module, node), imp)
            target_rank = layer_of(target)
            if rank is not None and target_rank is not None and target_rank > rank:
                faults.append(
                    f"{imp.where()}: layer {LAYERS[rank][0]} imports {target} "
                    f"of higher layer {LAYERS[target_rank][0]}"
                )
            other = _owner(target, FACES)
            if face is not None and other is not None and other != face:
                faults.append(f"{imp.where()}: face {face} imports face {other}")
    for cycle, group in _cycles(graph):
        steps = "; ".join(
            f"{lines[a, b].module} line {lines[a, b].line}: {lines[a, b].text}"
            for a, b in itertools.pairwise(cycle)
        )
        fault = f"import cycle {' → '.join(cycle)} ({steps})"
        if len(group) > len(cycle) - 1:
            fault += f"; all {len(group)} modules of its group: {', '.join(sorted(group))}"
        faults.append(fault)
    return faults


def cardtable_sources() -> dict[str, tuple[str, bool]]:
    """Every module of src/cardtable: name → (source, is package); a compiled module's
    source is empty."""
    sources = {}
    for path in sorted((SRC / "cardtable").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        sources[".".join(parts)] = (path.read_text(encoding="utf-8"), is_package)
    # A compiled module (a C source beside its type stub) is a module of its own that
    # imports nothing of cardtable: its C code only uses what it is handed.
    for stub in sorted((SRC / "cardtable").rglob("*.pyi")):
        if stub.with_suffix(".c").exists():
            sources[".".join(stub.relative_to(SRC).with_suffix("").parts)] = ("", False)
    return sources


def test_cardtable_layers_hold() -> None:
    """No engine import outside the standard library, no import upward or between
    faces, no unplaced module, no import cycle anywhere in src/cardtable."""
    sources = cardtable_sources()
    assert "cardtable.games.spy.state" in sources  # the walk did find the modules
    faults = check(sources)
    assert not faults, "layering faults:\n" + "\n".join(faults)


# The checker itself, on fake module sources.


def _fake(**modules: str) -> dict[str, tuple[str, bool]]:
    """Fake sources: keyword ``a__b`` is module ``a.b``; a trailing ``__init`` makes it
    a package."""
    out = {}
    for key, source in modules.items():
        name = key.replace("__", ".")
        is_package = name.endswith(".init")
        out[name.removesuffix(".init")] = (source, is_package)
    return out


def test_checker_passes_a_clean_tree() -> None:
    sources = _fake(
        cardtable__cards="import random\nfrom collections import deque\n",
        cardtable__games__init="",
        cardtable__games__spy__init="from . import state\n",
        cardtable__games__spy__state="from cardtable.cards import x\nfrom .views import v\n",
        cardtable__games__spy__views="from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from cardtable.games.spy.state import S\n",
        cardtable__bots__greedy="import numpy\nfrom cardtable.games.spy import state\n",
        cardtable__server__web="import fastapi\nfrom cardtable.rules_text import rules_text\n",
        cardtable__rules_text="from cardtable.errors import E\n",
        cardtable__errors="",
        cardtable__cli="from cardtable.server import web\nfrom cardtable.tui import app\n",
        cardtable__tui__init="",
        cardtable__tui__app="",
        cardtable__server__init="",
    )
    assert check(sources) == []


def test_checker_catches_a_third_party_import_in_the_engine() -> None:
    sources = _fake(cardtable__games__spy__state="def f():\n    import numpy\n")
    (fault,) = check(sources)
    assert "cardtable.games.spy.state line 2: import numpy" in fault
    assert "non-standard numpy" in fault


def test_checker_catches_an_import_of_a_higher_layer() -> None:
    sources = _fake(
        cardtable__record="\n\nfrom cardtable.bots.base import Bot\n",
        cardtable__bots__base="",
        cardtable__bots__spy="from cardtable.table import Table\n",
        cardtable__table__init="",
    )
    faults = check(sources)
    assert faults == [
        "cardtable.bots.spy line 1: from cardtable.table import Table: layer services "
        "imports cardtable.table of higher layer table",
        "cardtable.record line 3: from cardtable.bots.base import Bot: layer engine "
        "imports cardtable.bots.base of higher layer services",
    ]


def test_checker_catches_a_relative_import_upward() -> None:
    sources = _fake(
        cardtable__games__init="",
        cardtable__games__spy__init="",
        cardtable__games__spy__state="class S:\n    def f(self):\n        from ...cli import app\n",
        cardtable__cli="",
    )
    (fault,) = check(sources)
    assert fault.startswith("cardtable.games.spy.state line 3: from ...cli import app:")
    assert "imports cardtable.cli of higher layer entry" in fault


def test_checker_catches_a_face_importing_a_face() -> None:
    sources = _fake(
        cardtable__server__web="def rules():\n    from cardtable.tui import common\n",
        cardtable__tui__common="",
        cardtable__tui__init="",
    )
    (fault,) = check(sources)
    assert fault == (
        "cardtable.server.web line 2: from cardtable.tui import common: "
        "face cardtable.server imports face cardtable.tui"
    )


def test_checker_catches_an_unplaced_module() -> None:
    (fault,) = check(_fake(cardtable__gadgets="import os\n"))
    assert fault.startswith("cardtable.gadgets: no layer claims")


def test_checker_catches_a_cycle_through_lazy_imports() -> None:
    sources = _fake(
        cardtable__games__init="",
        cardtable__games__spy__init="",
        cardtable__games__spy__state="def f():\n    from cardtable.games.spy import views\n",
        cardtable__games__spy__views="from .deal import d\n",
        cardtable__games__spy__deal="import cardtable.games.spy.state\n",
    )
    (fault,) = check(sources)
    assert fault.startswith(
        "import cycle cardtable.games.spy.deal → cardtable.games.spy.state → "
        "cardtable.games.spy.views → cardtable.games.spy.deal ("
    )
    assert "cardtable.games.spy.state line 2: from cardtable.games.spy import views" in fault


def test_checker_catches_a_module_importing_itself_through_its_package() -> None:
    sources = _fake(
        cardtable__games__init="from cardtable.games.registry import find\n",
        cardtable__games__registry="from cardtable.games import spy_game\n",
    )
    (fault,) = check(sources)
    assert fault.startswith(
        "import cycle cardtable.games → cardtable.games.registry → cardtable.games ("
    )


def test_checker_names_the_whole_group_of_a_cycle() -> None:
    sources = _fake(
        cardtable__cli="from cardtable.server import web\n",
        cardtable__server__init="",
        cardtable__server__web="def f():\n    from cardtable import cli\n"
        "    from cardtable.server import app\n",
        cardtable__server__app="from cardtable import cli\n",
    )
    faults = [f for f in check(sources) if f.startswith("import cycle")]
    assert faults == [
        "import cycle cardtable.cli → cardtable.server.web → cardtable.cli "
        "(cardtable.cli line 1: from cardtable.server import web; "
        "cardtable.server.web line 2: from cardtable import cli); "
        "all 3 modules of its group: cardtable.cli, cardtable.server.app, cardtable.server.web"
    ]


def test_checker_counts_dynamic_import_targets() -> None:
    sources = _fake(
        cardtable__games__registry='TARGETS = {"x": "cardtable.bots.spy:Bot"}\n',
        cardtable__bots__spy='import importlib\nimportlib.import_module("cardtable.tui.app")\n',
        cardtable__tui__app="",
    )
    assert check(sources) == [
        "cardtable.bots.spy line 2: importlib.import_module('cardtable.tui.app'): "
        "layer services imports cardtable.tui.app of higher layer faces",
        "cardtable.games.registry line 1: 'cardtable.bots.spy:Bot': "
        "layer engine imports cardtable.bots.spy of higher layer services",
    ]
