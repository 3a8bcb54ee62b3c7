"""Property tests: ids from two generated pairs files never merge different papers (issue 36 §4, §6).

Each generated line names paper 0 or 1 and, or not, a forum id and a title for it
(``paper_metadata``). Whatever the lines:

- by default (``id_scope: source``) every line is kept or named in a problem, and the kept reviews
  of one paper id never disagree on a forum id or a title (two papers are never one);
- with ``id_scope: file`` each file's ids are its own: the reviews kept are those each file keeps
  when read alone, each under ``<file>#<paper id>``, and no line is refused for another file's.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rhetorica.study.config import StudyConfig
from rhetorica.study.inputs import load_documents

LINE = st.tuples(st.sampled_from([0, 1]), st.sampled_from([None, "F1", "F2"]), st.sampled_from([None, "A", "B"]))
FILES = ("a.jsonl", "b.jsonl")


def _write(folder: Path, files: dict[str, list[tuple[int, str | None, str | None]]]) -> dict[str, tuple]:
    """Write the files; returns review id -> (file, line, paper id, forum, title)."""
    truth = {}
    for name, lines in files.items():
        rows = []
        for number, (paper, forum, title) in enumerate(lines, start=1):
            review = f"{name[0]}{number}"
            meta = {k: v for k, v in (("forum_id", forum), ("title", title)) if v is not None}
            rows.append(json.dumps({"paper_id": paper, "review_id": review, "original": f"Review {review}.",
                                    "rewrite": f"Rewrite {review}.", **({"paper_metadata": meta} if meta else {})}))
            truth[review] = (name, number, str(paper), forum, title)
        (folder / name).write_text("\n".join(rows) + "\n", encoding="utf-8")
    return truth


def _load(folder: Path, names: tuple[str, ...], scope: str) -> tuple[list, list]:
    spec = {"name": "ids", "output_dir": str(folder / "run"), "documents": [{"pairs": n} for n in names],
            "rewriters": [{"name": "x", "kind": "imported", "conditions": ["paraphrase"]}],
            "reviewers": [{"name": "j", "kind": "judge", "model": "mock/j", "options": {"family": "remor"}}],
            "validation": {"enabled": False}, "id_scope": scope}
    problems: list[tuple[str, str, str]] = []
    return load_documents(StudyConfig.model_validate(spec), folder, problems), problems


@settings(max_examples=60, deadline=None)
@given(a=st.lists(LINE, min_size=1, max_size=5), b=st.lists(LINE, min_size=1, max_size=5))
def test_two_files_never_merge_two_papers(a: list, b: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        truth = _write(folder, {"a.jsonl": a, "b.jsonl": b})
        documents, problems = _load(folder, FILES, "source")
        kept = {d.metadata["review_id"] for d in documents}
        named = " ".join(p[2] for p in problems)
        for review, (name, number, *_) in truth.items():  # kept, or its line named in a problem
            assert review in kept or f"{folder / name}:{number}:" in named
        for paper in {d.paper_id for d in documents}:
            mine = [truth[d.metadata["review_id"]] for d in documents if d.paper_id == paper]
            assert len({m[3] for m in mine} - {None}) <= 1 and len({m[4] for m in mine} - {None}) <= 1

        scoped, scoped_problems = _load(folder, FILES, "file")
        alone, alone_problems = {}, set()
        for name in FILES:
            docs, found = _load(folder, (name,), "source")
            alone.update({f"{name}#{d.id}": f"{name}#{d.paper_id}" for d in docs})
            alone_problems |= set(found)
        assert {d.id: d.paper_id for d in scoped} == alone
        assert set(scoped_problems) == alone_problems  # no line refused for another file's
        for paper in {d.paper_id for d in scoped}:
            mine = [truth[d.metadata["review_id"]] for d in scoped if d.paper_id == paper]
            assert len({m[0] for m in mine}) == 1  # one file per scoped paper
            assert len({m[3] for m in mine} - {None}) <= 1 and len({m[4] for m in mine} - {None}) <= 1
