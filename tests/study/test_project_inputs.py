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


def _three_mains(root: Path) -> Path:
    root.mkdir(parents=True)
    for name in ("aaa.tex", "zzz.tex", "paper.tex"):
        (root / name).write_text(TINY.replace("Our method", f"The {name[:-4]} method"), encoding="utf-8")
    (root / "notes.tex").write_text("Just notes, no document class.\n", encoding="utf-8")
    return root


def test_several_candidate_main_files_give_a_warning_naming_them_and_the_choice(tmp_path):
    import json

    project = _three_mains(tmp_path / "three")
    problems: list[tuple[str, str, str]] = []
    [document] = load_documents(_study(tmp_path, project), tmp_path, problems, tmp_path / "run")
    assert problems == [("ingest", str(project), "warning: 3 candidate main files (aaa.tex, paper.tex, zzz.tex); chose "
                                                 "paper.tex (set 'main' on the document to choose another)")]
    assert document.metadata["latex_project"]["main"] == "paper.tex"
    compiled = json.loads(Path(document.metadata["latex_project"]["compile"]).read_text())
    assert compiled["main"] == "paper.tex"


def test_a_given_main_file_is_compiled_without_a_warning(tmp_path):
    import json

    from rhetorica.study.config import load_study

    project = _three_mains(tmp_path / "three")
    study = tmp_path / "study.yaml"
    study.write_text("name: s\noutput_dir: run\ndocuments:\n  - {latex_project: three, main: zzz.tex}\n"
                     "reviewers:\n  - {name: c, kind: control}\n", encoding="utf-8")
    config, base = load_study(study)
    problems: list[tuple[str, str, str]] = []
    [document] = load_documents(config, base, problems, tmp_path / "run")
    assert problems == []
    assert "The zzz method" in "\n".join(s.text for s in document.sections)
    assert json.loads(Path(document.metadata["latex_project"]["compile"]).read_text())["main"] == "zzz.tex"
    assert project.is_dir()


@pytest.mark.parametrize(("main", "problem"), [
    ("missing.tex", "'missing.tex' is not a file of the project folder {root}"),
    ("notes.tex", "'notes.tex' holds no \\documentclass: not a LaTeX main file"),
])
def test_a_main_file_that_is_not_one_is_a_load_error(tmp_path, main, problem):
    from rhetorica.study.config import ConfigError, load_study

    root = _three_mains(tmp_path / "three")
    study = tmp_path / "study.yaml"
    study.write_text(f"name: s\ndocuments:\n  - {{latex_project: three, main: {main}}}\n"
                     "reviewers:\n  - {name: c, kind: control}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_study(study)
    assert str(caught.value) == f"{study}: documents[0].main: " + problem.format(root=root)
