"""The module graph of ``rhetorica`` stays acyclic: no chain of imports (module level or inside a
function) leads from a module back to itself. A package's ``__init__`` counts as the package's module."""

from __future__ import annotations

import ast
from pathlib import Path

import rhetorica

SRC = Path(rhetorica.__file__).parent


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same tree it imports (``from pkg import sub`` names ``pkg.sub``
    when ``sub`` is a module, else ``pkg``)."""
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    edges.add(sub if sub in modules else node.module)
        graph[name] = {e for e in edges if e in modules and e != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan 1972), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

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
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_checker_finds_a_function_level_cycle(tmp_path):
    pkg = tmp_path / "rhetorica"
    (pkg / "report").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "report" / "__init__.py").write_text("")
    (pkg / "report" / "build.py").write_text("from rhetorica.report.scorecard import scorecard\n")
    (pkg / "report" / "scorecard.py").write_text("def f():\n    from rhetorica.report import build\n")
    (pkg / "report" / "sections.py").write_text("from rhetorica.report.build import x\n")
    assert cycles(import_graph(pkg)) == [["rhetorica.report.build", "rhetorica.report.scorecard"]]


def test_the_package_has_no_import_cycle():
    graph = import_graph(SRC)
    assert len(graph) > 100, "no modules found"
    assert cycles(graph) == []
