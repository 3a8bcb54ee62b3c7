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
    assert documents[0].warnings == ["main.tex:5: missing \\input file 'sections/missing': the text it would bring in "
                                     "is absent from this document"]
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
                         "own paper_id across the study's files, or set the study's id_scope: file)")]


def _pairs_study(tmp_path: Path, files: dict[str, list[dict]], **study: object) -> tuple[list, list]:
    import json

    for name, rows in files.items():
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    spec = {"name": "ids", "output_dir": str(tmp_path / "run"), "documents": [{"pairs": n} for n in files],
            "rewriters": [{"name": "gpt-x", "kind": "imported", "conditions": ["paraphrase"],
                           "options": {"source": "imported"}}],  # the pairs name no rewriter: the default
            "reviewers": [{"name": "j", "kind": "judge", "model": "mock/j", "options": {"family": "remor"}}],
            "validation": {"enabled": False}, **study}
    problems: list[tuple[str, str, str]] = []
    return load_documents(StudyConfig.model_validate(spec), tmp_path, problems), problems


def _pair(review_id: str, forum: str, title: str) -> dict:
    return {"paper_id": 0, "review_id": review_id, "original": f"Review {review_id}: sound.",
            "rewrite": f"Review {review_id}: it is sound.", "paper_metadata": {"forum_id": forum, "title": title}}


TWO_FILES = {"iclr.jsonl": [_pair("r1", "F-iclr", "Graph filters"), _pair("r2", "F-iclr", "Graph filters")],
             "nips.jsonl": [_pair("r3", "F-nips", "Audio codecs")]}


def test_two_pairs_files_giving_paper_0_to_two_papers_are_refused_naming_both_lines(tmp_path: Path) -> None:
    """Each file numbers its paper 0 (another forum id and title): by default the second file's
    line is left out with one problem naming its line and the first's; nothing merges."""
    documents, problems = _pairs_study(tmp_path, TWO_FILES)
    assert [(d.id, d.paper_id) for d in documents] == [("r1", "0"), ("r2", "0")]
    assert problems == [("ingest", "nips.jsonl", f"{tmp_path / 'nips.jsonl'}:1: paper id '0' was given at "
                         f"{tmp_path / 'iclr.jsonl'}:1 to another paper (forum_id 'F-iclr' there, 'F-nips' here); "
                         "left out (ids are kept as the source wrote them: give each paper its own paper_id across "
                         "the study's files, or set the study's id_scope: file)")]


def test_with_id_scope_file_each_files_ids_are_its_own(tmp_path: Path) -> None:
    documents, problems = _pairs_study(tmp_path, TWO_FILES, id_scope="file")
    assert problems == []
    assert [(d.id, d.paper_id) for d in documents] == [
        ("iclr.jsonl#r1", "iclr.jsonl#0"), ("iclr.jsonl#r2", "iclr.jsonl#0"), ("nips.jsonl#r3", "nips.jsonl#0")]
    assert [d.metadata["source_paper_id"] for d in documents] == ["0", "0", "0"]  # the source's, verbatim
    assert [d.metadata["review_id"] for d in documents] == ["r1", "r2", "r3"]
    rewrites = [r["rewrite_id"] for d in documents for r in d.metadata["imported_rewrites"]]
    assert rewrites == ["iclr.jsonl#r1.rewrite1", "iclr.jsonl#r2.rewrite1", "nips.jsonl#r3.rewrite1"]
    unscoped, _ = _pairs_study(tmp_path, {"iclr.jsonl": TWO_FILES["iclr.jsonl"]})
    assert [d.content_hash for d in documents[:2]] == [d.content_hash for d in unscoped]  # the text is unchanged


def test_the_same_paper_in_two_files_is_kept_and_a_title_only_review_line_is_not_joined_silently(
        tmp_path: Path) -> None:
    """The same paper 0 (same forum and title) in a second file joins the first's; a review line
    that names paper 0 with only a top-level title, another one, is read with a warning naming
    both lines (the title may be the review's own)."""
    title_only = {"paper_id": 0, "review_id": "r5", "title": "Official review", "original": "Fine.",
                  "rewrite": "It is fine."}
    documents, problems = _pairs_study(tmp_path, {
        "iclr.jsonl": [_pair("r1", "F-iclr", "Graph filters"), title_only],
        "iclr-more.jsonl": [_pair("r4", "F-iclr", "Graph filters")]})
    assert [(d.id, d.paper_id) for d in documents] == [("r1", "0"), ("r5", "0"), ("r4", "0")]
    assert problems == [("ingest", str(tmp_path / "iclr.jsonl"),
                         f"warning: {tmp_path / 'iclr.jsonl'}:2: paper id '0' comes with only a top-level title "
                         "'Official review', not the title 'Graph filters' it was given at line 1: read as the "
                         "review's own title and joined to that paper; if it is another paper, give it its own "
                         "paper_id (or a forum_id, or paper_metadata.title)")]


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


def test_a_path_naming_a_folder_of_projects_is_one_problem_never_one_of_them(tmp_path: Path, shared_data: Path) -> None:
    papers = shared_data / "papers"
    spec = study_dict(shared_data, tmp_path / "run", documents=[{"path": str(papers)}, {"path": str(papers / "*")}])
    problems: list[tuple[str, str, str]] = []
    documents = load_documents(StudyConfig.model_validate(spec), tmp_path, problems)
    assert sorted(d.id for d in documents) == ["cheblienet_neurips2021", "chebnet_nips2016", "fma_ismir2017",
                                               "gcrn_iclr2017", "scipy-1.0", "stable-nalu_iclr2020"]
    assert [p for p in problems if not p[2].startswith("warning: ")] == [
        ("ingest", str(papers), "holds 6 LaTeX projects, not one (cheblienet_neurips2021, chebnet_nips2016, "
         "fma_ismir2017, gcrn_iclr2017, scipy-1.0, stable-nalu_iclr2020); name each project folder, or the glob "
         f"'{papers.as_posix()}/*' for one document each")]
