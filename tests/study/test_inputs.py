"""Problems met while reading a study's documents reach the run's problems list (issue 11 §5)."""

from __future__ import annotations

from pathlib import Path

from rhetorica.study.config import StudyConfig
from rhetorica.study.inputs import load_documents
from tests.study.helpers import study_dict


def test_reader_warnings_become_problems(tmp_path: Path, shared_data: Path) -> None:
    project = tmp_path / "paper"
    project.mkdir()
    (project / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{Intro}\nSome words here.\n"
        "\\input{sections/missing}\n\\end{document}\n"
    )
    spec = study_dict(shared_data, tmp_path / "out", documents=[{"path": str(project)}])
    problems: list[tuple[str, str, str]] = []
    documents = load_documents(StudyConfig.model_validate(spec), tmp_path, problems)
    assert [d.id for d in documents] == ["paper"]  # a warning does not drop the document
    assert documents[0].warnings == ["missing \\input file 'sections/missing' (referenced from main.tex); skipped"]
    assert problems == [("ingest", f"{project} (paper)", f"warning: {documents[0].warnings[0]}")]


def test_existing_path_with_brackets_is_used_as_named(tmp_path: Path) -> None:
    from rhetorica.study.config import DocumentSpec
    from rhetorica.study.inputs import resolve_document_paths

    (tmp_path / "paper[v2].md").write_text("# P\n", encoding="utf-8")
    (tmp_path / "p1.md").write_text("# P\n", encoding="utf-8")
    assert resolve_document_paths(DocumentSpec(path="paper[v2].md"), tmp_path) == [tmp_path / "paper[v2].md"]
    # no file of that name: still a glob
    assert resolve_document_paths(DocumentSpec(path="p[0-9].md"), tmp_path) == [tmp_path / "p1.md"]
