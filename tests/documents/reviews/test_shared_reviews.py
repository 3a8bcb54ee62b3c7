"""The real reviews in ../shared/data/papers, read with exact counts and scores.

Expected values were read off the files by hand (grep of the score lines), not by the readers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.reviews import read_reviews


def test_chebnet_cmt_html(shared_data: Path) -> None:
    reviews, problems = read_reviews([shared_data / "papers/chebnet_nips2016/review/reviews.htm"], "chebnet")
    assert problems == []
    assert len(reviews) == 6
    criteria = ["Technical quality", "Novelty/originality", "Potential impact or usefulness", "Clarity and presentation"]
    got = [[r.metadata["scores"][c] for c in criteria] for r in reviews]
    assert got == [[3, 3, 3, 3], [3, 4, 4, 4], [3, 3, 3, 4], [3, 3, 4, 3], [2, 2, 1, 2], [2, 2, 2, 1]]
    assert [r.metadata["confidence"] for r in reviews] == [3, 3, 2, 2, 1, 1]
    first = reviews[0]
    assert first.kind == "review" and first.id == "chebnet.review1" and first.paper_id == "chebnet"
    assert first.metadata["paper_title"] == "Convolutional Neural Networks on Graphs with Fast Localized Spectral Filtering"
    titles = [s.title for s in first.sections]
    assert titles == ["Summary", "Fatal flaws", "Qualitative assessment"]
    assert first.sections[0].text.startswith("This paper presents an extension of Convolutional Neural Networks")
    assert all("Assigned_Reviewer" not in s.text for r in reviews for s in r.sections)


def test_cheblienet_openreview_markdown(shared_data: Path) -> None:
    reviews, problems = read_reviews([shared_data / "papers/cheblienet_neurips2021/reviews.md"], "cheblienet")
    assert problems == []
    assert len(reviews) == 4
    assert [r.human_scores for r in reviews] == [[4], [6], [4], [5]]
    assert [r.metadata["confidence"] for r in reviews] == [3, 1, 5, 3]
    assert {r.decision for r in reviews} == {"Reject"}
    second = reviews[1]
    assert [s.title for s in second.sections] == ["Summary", "Main review", "Limitations and societal impact"]
    main = second.sections[1].text
    assert main.startswith("Quality: I checked most of the mathematical details")  # stays inside Main Review
    assert "Clarity: The paper is in general very clear." in main
    assert all(rid not in s.text for r in reviews for s in r.sections for rid in ("9mff", "JM2z", "MH5E", "hWjk"))
    assert "Response to Review" not in " ".join(s.text for r in reviews for s in r.sections)


def test_fma_ismir_text(shared_data: Path) -> None:
    files = sorted((shared_data / "papers/fma_ismir2017").glob("ismir_review_*.txt"))
    reviews, problems = read_reviews(files, "fma")
    assert problems == [] and len(reviews) == 4
    first = reviews[0].metadata["scores"]
    assert first["Scholarly/scientific quality"] == "medium high"
    assert first["Novelty"] == "medium high" and first["Relevance of topic"] == "high"
    assert first["Readability and paper organisation"] == "low" and first["Bibliography"] == "yes"
    assert reviews[0].sections[0].text.startswith("## Summary\n\nThe authors present in this submission a dataset")
    assert [r.id for r in reviews] == ["fma.review1", "fma.review2", "fma.review3", "fma.review4"]


def test_openreview_json_notes(tmp_path: Path) -> None:
    note = lambda i, rating: {  # noqa: E731
        "id": f"r{i}", "invitations": ["ICLR.cc/2026/Conference/Submission7/-/Official_Review"],
        "signatures": [f"ICLR.cc/2026/Conference/Submission7/Reviewer_Xy{i}z"],
        "content": {"summary": {"value": f"Summary {i}; see Reviewer Xy{i}z."}, "rating": {"value": rating},
                    "confidence": {"value": "4: You are confident"}, "soundness": {"value": "3: good"}}}
    path = tmp_path / "forum.json"
    path.write_text(json.dumps({"notes": [note(1, "6: marginally above the acceptance threshold"),
                                          note(2, "10: strong accept"), note(3, "very good"),
                                          {"id": "c", "invitations": ["X/-/Comment"], "content": {}}]}))
    reviews, problems = read_reviews([path], "p7")
    assert [r.human_scores for r in reviews] == [[6.0], [10.0], []]
    assert reviews[0].metadata["scores"] == {"rating": 6.0, "confidence": 4.0, "soundness": 3.0}
    assert reviews[0].sections[0].text == "Summary 1; see Reviewer 1."
    assert len(problems) == 1 and "review r3: rating" in problems[0] and "'very good'" in problems[0]


def test_unknown_and_unusable_files(tmp_path: Path) -> None:
    (tmp_path / "x.docx").write_text("x")
    (tmp_path / "r.md").write_text("# nothing here\n")
    with pytest.raises(DocumentReadError, match="unknown review format"):
        read_reviews([tmp_path / "x.docx"], "p")
    with pytest.raises(DocumentReadError, match="Official Review"):
        read_reviews([tmp_path / "r.md"], "p")


@pytest.mark.parametrize("name", ["forum.md", "review.txt"])
def test_unreadable_markdown_and_ismir_files_name_the_file(tmp_path: Path, name: str) -> None:
    bad = tmp_path / name
    bad.write_bytes(b"\xff\xfe not UTF-8")
    with pytest.raises(DocumentReadError, match=rf"^{re.escape(str(bad))}: cannot read \('utf-8' codec can't decode byte 0xff in "
                                                r"position 0: invalid start byte\)$"):
        read_reviews([bad], "p")
    missing = tmp_path / "missing" / name
    with pytest.raises(DocumentReadError, match=rf"^{re.escape(str(missing))}: cannot read \(\[Errno 2\] No such file or directory"):
        read_reviews([missing], "p")
