"""Loading ``latex_project`` documents: a bad project is one ``ingest`` problem, the others load.

The projects are tiny article documents written here; expectations are the literal names and
bytes the tests put in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.study.config import parse_study
from rhetorica.study.inputs import load_documents

TINY = ("\\documentclass{article}\n\\begin{document}\nOur method is simple and it works on every graph we "
        "tried in the experiments.\n\\end{document}\n")


def _project(root: Path, main: str = "main.tex", text: str = TINY) -> Path:
    root.mkdir(parents=True)
    (root / main).write_text(text, encoding="utf-8")
    return root


def _study(tmp_path: Path, *projects: Path, **extra: object):
    return parse_study({"name": "s", "output_dir": str(tmp_path / "run"),
                        "documents": [{"latex_project": str(p)} for p in projects],
                        "reviewers": [{"name": "c", "kind": "control"}], **extra})


def test_a_main_file_name_with_a_space_is_one_problem_and_the_next_project_still_loads(tmp_path):
    spaced = _project(tmp_path / "with space", "my paper.tex")
    good = _project(tmp_path / "good")
    problems: list[tuple[str, str, str]] = []
    documents = load_documents(_study(tmp_path, spaced, good), tmp_path, problems, tmp_path / "run")
    assert [d.id for d in documents] == ["good"]
    assert len(problems) == 1
    stage, item, reason = problems[0]
    assert (stage, item) == ("ingest", str(spaced))
    assert reason.startswith("main file 'my paper.tex' is not compiled: unexpected characters")


def test_a_run_folder_inside_a_latex_project_is_refused_naming_both_paths(tmp_path):
    from rhetorica.study.config import ConfigError
    from rhetorica.study.inputs import resolve_run_dir

    project = _project(tmp_path / "proj")
    config = _study(tmp_path, project)
    with pytest.raises(ConfigError) as caught:
        resolve_run_dir(config, tmp_path, tmp_path / "proj" / "out")
    assert str(caught.value) == (f"run directory {project / 'out'}: lies inside documents[0].latex_project {project}; "
                                 "put the run folder outside the project (every copy of the project would hold the "
                                 "run folder)")
    assert resolve_run_dir(config, tmp_path, tmp_path / "elsewhere") == tmp_path / "elsewhere"
