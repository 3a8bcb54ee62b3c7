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


def _paper_line(paper_id: object, title: str, reviews: list[tuple[str, str]]) -> str:
    import json

    return json.dumps({"paper_id": paper_id, "title": title,
                       "reviews": [{"review_id": rid, "review": text, "rating": 5} for rid, text in reviews]})


def _review_study(tmp_path: Path, files: dict[str, list[str]]) -> tuple[list, list[tuple[str, str, str]]]:
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    spec = {"name": "ids", "output_dir": str(tmp_path / "run"), "documents": [{"reviews": n} for n in files],
            "rewriters": [], "reviewers": [{"name": "j", "kind": "judge", "model": "mock/j",
                                            "options": {"family": "remor"}}], "validation": {"enabled": False}}
    problems: list[tuple[str, str, str]] = []
    return load_documents(StudyConfig.model_validate(spec), tmp_path, problems), problems


def test_a_review_id_in_two_files_names_both_lines(tmp_path: Path) -> None:
    """Review 'b' on line 2 of a.jsonl and again on line 1 of b.jsonl (the same paper): the second
    is left out, naming its line and the first's."""
    documents, problems = _review_study(tmp_path, {
        "a.jsonl": [_paper_line("p1", "Title", [("a", "Sound method.")]), _paper_line("p2", "Other", [("b", "Thin.")])],
        "b.jsonl": [_paper_line("p2", "Other", [("b", "Thin."), ("c", "Clear.")])]})
    assert [d.id for d in documents] == ["a", "b", "c"]
    assert problems == [("ingest", "b.jsonl", f"{tmp_path / 'b.jsonl'}:1 review 1: duplicate document id 'b' "
                                              f"(first at {tmp_path / 'a.jsonl'}:2 review 1); left out")]


def test_one_paper_id_for_two_papers_is_not_merged(tmp_path: Path) -> None:
    """Two venues' files both number a paper 0 (PeerPrism does): ids stay verbatim (issue 23.4), so
    the second file's paper 0 — another title — is left out, naming both lines; the same paper
    0 (same title) in a second file is kept with it."""
    documents, problems = _review_study(tmp_path, {
        "iclr.jsonl": [_paper_line(0, "Graph filters", [("r1", "Sound method.")])],
        "nips.jsonl": [_paper_line(0, "Audio codecs", [("r2", "Thin evaluation.")])],
        "iclr-more.jsonl": [_paper_line(0, "Graph filters", [("r3", "Clear writing.")])]})
    assert [(d.id, d.paper_id) for d in documents] == [("r1", "0"), ("r3", "0")]
    assert problems == [("ingest", "nips.jsonl", f"{tmp_path / 'nips.jsonl'}:1 review 1: paper id '0' was given at "
                         f"{tmp_path / 'iclr.jsonl'}:1 review 1 to another paper (title 'Graph filters' there, "
                         "'Audio codecs' here); left out (ids are kept as the source wrote them: give each paper its "
                         "own paper_id across the study's files)")]


def test_an_imported_rewriter_whose_source_the_pairs_lack_is_one_problem_listing_their_values(
        tmp_path: Path) -> None:
    pairs = Path(__file__).resolve().parents[2] / "examples" / "data" / "review_pairs.jsonl"
    rewriters = [{"name": "typo", "kind": "imported", "conditions": ["paraphrase"], "options": {"source": "gpt4o"}},
                 {"name": "right", "kind": "imported", "conditions": ["paraphrase"], "options": {"source": "gpt-4o"}},
                 {"name": "llama-3-70b", "kind": "imported", "conditions": ["paraphrase"]}]  # source: its name
    config = StudyConfig.model_validate({"name": "s", "output_dir": str(tmp_path / "run"),
                                         "documents": [{"pairs": str(pairs)}], "rewriters": rewriters,
                                         "reviewers": [{"name": "c", "kind": "control"}]})
    problems: list[tuple[str, str, str]] = []
    documents = load_documents(config, tmp_path, problems)
    assert len(documents) == 2
    assert problems == [("ingest", "rewriter typo", "rewriter 'typo' (kind imported) takes the rewrites whose "
                         "'rewriter' is 'gpt4o' (options.source, default its name), and the pairs files hold none; "
                         "their 'rewriter' values: 'gpt-4o', 'llama-3-70b': set options.source to one of them")]
