"""The external agent runner, with small scripted agents (Python scripts run as commands)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from rhetorica.rewriting.latex_project.agent import run_agent
from rhetorica.documents.latex.project import LatexProject, load_project

EDIT_SCRIPT = """
import pathlib, sys
instruction = sys.stdin.read() if sys.argv[1] == "-" else pathlib.Path(sys.argv[1]).read_text()
main = pathlib.Path("main.tex")
main.write_text(main.read_text().replace("Original words stay here.", instruction.strip()))
print("edited")
"""


@pytest.fixture
def mini(tmp_path: Path) -> LatexProject:
    root = tmp_path / "base"
    root.mkdir()
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\nOriginal words stay here.\n\\end{document}\n")
    return load_project(root)


def _script(tmp_path: Path, text: str) -> str:
    path = tmp_path / "agent.py"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("via", ["stdin", "file"])
def test_agent_edits_a_copy(tmp_path: Path, mini: LatexProject, via: str) -> None:
    arg = "-" if via == "stdin" else "{instruction_file}"
    result = run_agent([sys.executable, _script(tmp_path, EDIT_SCRIPT), arg], mini, "New words from the agent.",
                       tmp_path / "run", instruction_via=via)  # type: ignore[arg-type]
    assert result.status == "ok", result.reason
    assert result.project is not None and result.project.root == (tmp_path / "run" / "project").resolve()
    assert "New words from the agent." in result.project.read("main.tex")
    assert "Original words stay here." in mini.read("main.tex")  # the input project is untouched
    assert result.stdout_tail == "edited\n"
    assert not (result.project.root / "instruction.txt").exists()  # the instruction file is outside the copy


def test_agent_timeout(tmp_path: Path, mini: LatexProject) -> None:
    result = run_agent([sys.executable, "-c", "import time; time.sleep(30)"], mini, "x", tmp_path / "run", timeout_s=1)
    assert result.status == "timeout"
    assert result.reason == "agent exceeded 1 s"
    assert result.seconds < 10


def test_agent_failure_is_an_error_with_its_stderr(tmp_path: Path, mini: LatexProject) -> None:
    result = run_agent([sys.executable, "-c", "import sys; sys.stderr.write('no model available'); sys.exit(3)"],
                       mini, "x", tmp_path / "run")
    assert (result.status, result.returncode) == ("error", 3)
    assert result.reason == "agent exited with status 3: no model available"
    missing = run_agent(["/nonexistent/agent"], mini, "x", tmp_path / "run2")
    assert missing.status == "error" and "could not start" in (missing.reason or "")


def test_agent_that_breaks_the_project_is_an_error(tmp_path: Path, mini: LatexProject) -> None:
    result = run_agent([sys.executable, "-c", "import os; os.remove('main.tex')"], mini, "x", tmp_path / "run")
    assert result.status == "error"
    assert "cannot be read" in (result.reason or "")


def test_environment_allow_list(tmp_path: Path, mini: LatexProject, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("AGENT_MODEL", "m1")
    dump = "import json, os; open('env.json', 'w').write(json.dumps(dict(os.environ)))"
    result = run_agent([sys.executable, "-c", dump], mini, "x", tmp_path / "run", env_allow=["AGENT_MODEL"])
    assert result.project is not None
    env = json.loads((result.project.root / "env.json").read_text())
    assert "OPENAI_API_KEY" not in env
    assert env["AGENT_MODEL"] == "m1"
    assert env["HOME"] == str(tmp_path / "run" / "home")
    assert set(env) == {"PATH", "HOME", "TMPDIR", "LANG", "AGENT_MODEL", "RHETORICA_AGENT_RUN"}
    assert re.fullmatch(r"[0-9a-f]{32}", env["RHETORICA_AGENT_RUN"])  # the run's tag (kills its descendants)


def test_empty_command(tmp_path: Path, mini: LatexProject) -> None:
    with pytest.raises(ValueError, match="empty"):
        run_agent([], mini, "x", tmp_path / "run")


def test_a_main_file_replaced_by_a_link_outside_the_copy_is_refused_by_name(tmp_path: Path, mini: LatexProject) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("not part of the project")
    link = f"import os; os.unlink('main.tex'); os.symlink({str(secret)!r}, 'main.tex')"
    result = run_agent([sys.executable, "-c", link], mini, "x", tmp_path / "run")
    assert (result.status, result.reason) == ("error", "main.tex: a symlink to a path outside the project copy (refused)")
    inside = "import os; os.symlink('main.tex', 'alias.tex')"  # a link within the copy is no escape
    assert run_agent([sys.executable, "-c", inside], mini, "x", tmp_path / "run2").status == "ok"


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux /proc")
def test_a_detached_grandchild_does_not_outlive_the_run(tmp_path: Path, mini: LatexProject) -> None:
    import time

    pid_file = tmp_path / "grandchild.pid"
    spawn = ("import subprocess; p = subprocess.Popen(['sleep', '120'], start_new_session=True, "
             "stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
             f"open({str(pid_file)!r}, 'w').write(str(p.pid))")
    result = run_agent([sys.executable, "-c", spawn], mini, "x", tmp_path / "run")
    assert result.status == "ok", result.reason
    stat = Path(f"/proc/{int(pid_file.read_text())}/stat")
    deadline = time.monotonic() + 5
    while stat.exists() and stat.read_text().split(")")[-1].split()[0] != "Z" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not stat.exists() or stat.read_text().split(")")[-1].split()[0] == "Z"  # gone or a zombie awaiting reaping
