"""JSONL review files: one paper per line with its reviews, and one review per line.

The expected values are read off the hand-written files in ``data/`` (each line's content is
described next to the assertion).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.reviews import read_reviews
from rhetorica.study.review_inputs import review_documents
from rhetorica.study.config import DocumentSpec

DATA = Path(__file__).parent / "data"


def test_paper_per_line_counts_scores_and_bad_lines() -> None:
    reviews, problems = read_reviews([DATA / "papers.jsonl"], "fallback")
    # line 1: p1 with 2 reviews; line 2: p2 with 1 (values wrapped in content/value); line 5: p3,
    # whose first review has no text (skipped), second one kept without its unreadable rating.
    assert [r.id for r in reviews] == ["p1.review1", "p1.review2", "p2.review1", "p3.review1"]
    assert [r.paper_id for r in reviews] == ["p1", "p1", "p2", "p3"]
    assert [r.human_scores for r in reviews] == [[10.0], [6.0], [3.0], []]  # "10: top 5%" is 10
    assert [r.metadata["confidence"] for r in reviews] == [4.0, 3.0, 2.0, None]
    assert [[s.title for s in r.sections] for r in reviews] == [["Summary", "Weaknesses"], ["Review"], ["Summary"],
                                                                ["Review"]]
    assert reviews[0].metadata["paper_title"] == "Graph nets"
    assert reviews[0].sections[1].text == "Reviewer 1 notes the baselines are weak."  # "Reviewer aB3x" blinded
    assert [r.item for r in reviews[0].removed] == ["reviewer id"]
    assert len(problems) == 4
    at = f"{DATA / 'papers.jsonl'}:"
    assert problems[0].startswith(f"{at}3: not JSON")
    assert problems[1] == f"{at}4: a paper line needs a paper id (paper_id or id or forum_id or forum)"
    assert problems[2].startswith(f"{at}5 review 1: no review text")
    assert problems[3].startswith(f"warning: {at}5 review 2: rating: 'weak accept (6)' does not start with a score")


def test_review_per_line_groups_by_paper() -> None:
    reviews, problems = read_reviews([DATA / "lines.jsonl"], "fallback")
    # lines 1 and 4 are q1's; line 2 names no paper (the file's paper); line 3 is a list; line 5
    # is blank; line 6 is q2's with a true/false rating (left missing).
    assert [r.id for r in reviews] == ["q1.review1", "q1.review2", "fallback.review1", "q2.review1"]
    assert [r.human_scores for r in reviews] == [[8.0], [5.0], [2.0], []]
    assert [r.metadata["confidence"] for r in reviews] == [4.0, None, None, None]
    assert [s.text for s in reviews[1].sections] == ["Good writing.", "Few experiments."]
    assert problems == [f"{DATA / 'lines.jsonl'}:3: not a JSON object",
                        f"warning: {DATA / 'lines.jsonl'}:6: rating: True is true/false, not a score (left missing)"]


def test_no_usable_review_is_one_error_naming_the_file() -> None:
    with pytest.raises(DocumentReadError, match="no usable review in this JSONL file"):
        read_reviews([DATA / "none.jsonl"], "x")


def test_jsonl_as_study_documents() -> None:
    problems: list[tuple[str, str, str]] = []
    docs = review_documents(DocumentSpec(reviews="papers.jsonl"), DATA, problems)
    assert [d.id for d in docs] == ["p1.review1", "p1.review2", "p2.review1", "p3.review1"]
    # the lines left out (3: not JSON, 4: no paper id, 5 review 1: no text) are errors; the score left
    # missing (5 review 2) only warns: the review is read
    at = f"{DATA / 'papers.jsonl'}:"
    starts = [f"{at}3: not JSON", f"{at}4: a paper line needs a paper id", f"{at}5 review 1: no review text",
              f"warning: {at}5 review 2: rating:"]
    assert len(problems) == 4 and all(p[0] == "ingest" and p[2].startswith(start)
                                      for p, start in zip(problems, starts))
    bad: list[tuple[str, str, str]] = []
    assert review_documents(DocumentSpec(reviews="none.jsonl"), DATA, bad) == []
    assert len(bad) == 1 and bad[0][1].endswith("none.jsonl") and "no usable review" in bad[0][2]
