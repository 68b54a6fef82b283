"""No import cycle among the package's modules: a module's imports never lead
back to it, neither those run when it is imported nor those deferred into its
functions (a cycle put off until first use is a cycle still); only imports
under ``TYPE_CHECKING``, which never run, are left out."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "convertables"


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(body: list[ast.stmt], deferred: bool):
    """The import statements of a module: those run at import time (at module
    level, in its if/try/with blocks and class bodies) and, with ``deferred``,
    those in its functions; never those under ``if TYPE_CHECKING``."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _imports(node.body, deferred)
            yield from _imports(node.orelse, deferred)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from _imports(block, deferred)
        elif isinstance(node, (ast.With, ast.For, ast.While, ast.ClassDef)):
            yield from _imports(node.body, deferred)
        elif deferred and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _imports(node.body, deferred)


def import_graph(root: Path = PACKAGE, deferred: bool = True) -> dict[str, set[str]]:
    """Each module of the package -> the package's modules it imports (with
    ``deferred``, in its functions too)."""
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        found: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")).body, deferred):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = here.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                # "from package import module" imports the module; "from module import name" the module
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in paths else source
                           for alias in node.names]
            found.update(t for t in targets if t in paths and t != name)
        graph[name] = found
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph, as the modules along it (the first one again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_no_import_cycle_in_the_package_even_through_imports_in_functions():
    graph = import_graph()
    assert "convertables.scoring.metric" in graph["convertables.scoring.report"]  # (at module level)
    assert "convertables.scoring.explain" in graph["convertables.scoring.structure"]  # (imported in explain())
    assert "convertables.registry" in graph["convertables.options"]  # (imported in declared())
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_cycle_check_finds_a_cycle(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n")
    assert find_cycle(import_graph(package)) is None  # imports under TYPE_CHECKING never run
    (package / "b.py").write_text("def later():\n    from .a import x\n")
    assert find_cycle(import_graph(package, deferred=False)) is None
    assert find_cycle(import_graph(package)) == ["pkg.a", "pkg.b", "pkg.a"]
    (package / "b.py").write_text("try:\n    from .c import y\nexcept ImportError:\n    pass\n")
    (package / "c.py").write_text("from .a import z\n")
    assert find_cycle(import_graph(package, deferred=False)) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]


@pytest.mark.parametrize("name", sorted(n for n in import_graph() if not n.endswith("__main__")))
def test_every_module_imports_alone(name):
    importlib.import_module(name)
