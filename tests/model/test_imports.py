"""No module of the package imports itself in a circle.

Every ``import`` and ``from ... import`` statement of every module under ``src/reussite/`` is
read with :mod:`ast` (those inside function bodies and under ``if TYPE_CHECKING:`` included: an
import put off until a call still ties the two modules together), the graph of the package's
modules is built, and any cycle fails the test, named module by module.

``from package import name`` is an edge to the submodule ``package.name`` when there is one,
else to ``package``. Importing a submodule also runs its package's ``__init__``, but that is no
edge here: a package that gathers its submodules' names would otherwise be a cycle with each.
"""

from __future__ import annotations

import ast
from pathlib import Path

import reussite

ROOT = Path(reussite.__file__).resolve().parent
PACKAGE = "reussite"


def module_names() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name; a compiled
    module by its stub, ``.pyi``)."""
    out: dict[str, Path] = {}
    for path in sorted([*ROOT.rglob("*.py"), *ROOT.rglob("*.pyi")]):
        if path.suffix == ".pyi" and path.with_suffix(".py").exists():
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([PACKAGE, *parts])] = path
    return out


def _target(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or the longest module of the package that it lies in, None outside it."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` (at ``path``) imports anywhere in its text."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _target(alias.name, modules)
                if target is not None:
                    out.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                drop = node.level - 1 if is_package else node.level
                base = base[:len(base) - drop] if drop else base
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                target = _target(f"{source}.{alias.name}", modules)
                if target is not None:
                    out.add(target)
    out.discard(name)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strong_groups(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module, each sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of more than one module."""
    return [_cycle_in(group, graph) for group in strong_groups(graph)]


def _cycle_in(group: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A cycle through the group's first module, by the shortest way back (breadth first)."""
    members = set(group)
    start = group[0]
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & members):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [*reversed(path), start]
                if w not in parent:
                    parent[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")


def test_the_graph_sees_imports_inside_functions(tmp_path: Path) -> None:
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    probe = tmp_path / "x.py"
    probe.write_text("def f() -> None:\n    from reussite.solver import core, nothing\n"
                     "    from . import y\n")
    modules = dict.fromkeys(["reussite.solver", "reussite.solver.core", "reussite.x",
                             "reussite.y"], probe)
    assert imports_of("reussite.x", probe, modules) == {"reussite.solver.core",
                                                         "reussite.solver", "reussite.y"}


def test_no_module_imports_itself_in_a_circle() -> None:
    graph = import_graph()
    groups = strong_groups(graph)
    assert not groups, "import cycles:\n" + "\n".join(
        " -> ".join(_cycle_in(g, graph)) + f"\n  (the modules tied together: {', '.join(g)})"
        for g in groups)
