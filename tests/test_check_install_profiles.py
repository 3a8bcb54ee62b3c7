"""The install-profile check (scripts/check_install_profiles.py): what counts as a correct answer of a
command that lacks an extra, which files the wheel is built from, and the profiles' extras. The
installs themselves run in CI (.ci/run), not here."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rhetorica.extras import EXTRA_MODULES

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "check_install_profiles.py"


@pytest.fixture(scope="module")
def script():  # noqa: ANN201 - the script as a module
    spec = importlib.util.spec_from_file_location("check_install_profiles", SCRIPT)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def answer(code: int, stderr: str, stdout: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["rhetorica"], code, stdout, stderr)


LINE = "error: rhetorica demo papers needs the 'embedded' extra: pip install 'rhetorica[embedded]'\n"


@pytest.mark.parametrize(("done", "problem"), [
    (answer(2, LINE), None),
    (answer(2, "\n" + LINE + "\n"), None),  # blank lines do not count
    (answer(1, LINE), "exit 1, expected 2"),
    (answer(2, LINE + "finished with 1 problem\n"), "2 lines on stderr, expected 1"),
    (answer(2, "error: something else\n"), "the line does not name the extra(s) embedded"),
    (answer(2, "error: needs 'embedded'\n"), "the line does not name the extra(s) embedded"),  # no install command
    (answer(1, "Traceback (most recent call last):\nModuleNotFoundError: No module named 'llama_cpp'\n"),
     "a traceback instead of one line"),
    (answer(2, LINE, stdout="Traceback (most recent call last):"), "a traceback instead of one line"),
])
def test_what_counts_as_one_line_naming_the_extra(script, done, problem: str | None) -> None:  # noqa: ANN001
    found = script.one_line_problem(done, 2, ["embedded"])
    assert (found is None) if problem is None else (found is not None and found.startswith(problem)), found


def test_the_wheel_is_built_from_the_files_git_would_commit(script, tmp_path: Path) -> None:  # noqa: ANN001
    tree = tmp_path / "tree"
    (tree / "src" / "pkg").mkdir(parents=True)
    (tree / ".gitignore").write_text("build/\n*.egg-info/\n")
    (tree / "src" / "pkg" / "kept.py").write_text("x = 1\n")
    (tree / "build" / "lib" / "pkg").mkdir(parents=True)
    (tree / "build" / "lib" / "pkg" / "stale.py").write_text("import removed_dependency\n")
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    subprocess.run(["git", "-C", str(tree), "add", ".gitignore"], check=True)  # kept.py stays untracked
    script.copy_tree(tree, tmp_path / "copy")
    assert sorted(p.relative_to(tmp_path / "copy").as_posix() for p in (tmp_path / "copy").rglob("*")
                  if p.is_file()) == [".gitignore", "src/pkg/kept.py"]


def test_profiles_name_real_extras_and_the_needs_the_extras_of_the_table(script) -> None:  # noqa: ANN001
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"])
    assert {e for profile in script.PROFILES.values() for e in profile} <= extras
    assert script.PROFILES["demo"] == ("embedded", "validation")  # what `make demo` installs
    assert "embedded,validation" in (ROOT / "Makefile").read_text("utf-8")
    assert all(set(need.extras) <= set(EXTRA_MODULES) for need in script.NEEDS)
    assert set(script.DEFAULT_PROFILES) <= set(script.PROFILES)
