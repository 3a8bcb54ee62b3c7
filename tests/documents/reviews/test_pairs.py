"""Imported review pairs (:mod:`rhetorica.documents.reviews.pairs`) on hand-written files: two rewrite
files of one venue concatenated (one review rewritten by two models), and an empty file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rhetorica.documents.reviews.pairs import PairsError, read_review_pairs


def paper_line(model: str, rewrites: list[str]) -> bytes:
    originals = ["Weak baselines in Table 2.", "No ablation of K."]
    return json.dumps({"paper_id": 0, "forum_id": "F0", "title": "Graph filters", "reviews": [
        {"review_id": f"r{k}", "original_text": text, "text": rewrite, "rewrite_model": model}
        for k, (text, rewrite) in enumerate(zip(originals, rewrites, strict=True))]}).encode()


def test_two_rewrite_files_of_one_venue_make_two_variants_per_original(tmp_path: Path) -> None:
    path = tmp_path / "both.jsonl"
    path.write_bytes(b"\n".join([paper_line("gpt-5", ["Table 2's baselines are weak.", ""]),
                                 paper_line("o4-mini", ["The baselines (Table 2) are weak.", "K is not ablated."])]))
    imported = read_review_pairs(path)
    assert [(d.id, d.paper_id) for d in imported.originals] == [("r0", "0"), ("r1", "0")]
    assert [(v.id, v.metadata["original_id"], v.metadata["rewriter"]) for v in imported.variants] == [
        ("r0.rewrite1", "r0", "gpt-5"), ("r0.rewrite2", "r0", "o4-mini"), ("r1.rewrite1", "r1", "o4-mini")]
    assert imported.problems == [f"{path}:1 review 2: empty rewrite"]


def test_an_empty_file_says_it_holds_no_line(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"\n\n")
    with pytest.raises(PairsError) as raised:
        read_review_pairs(path)
    assert str(raised.value) == f"{path}: no usable pair (the file holds no line)"


def test_each_bad_line_is_one_problem_in_line_order_and_ids_are_kept(tmp_path: Path) -> None:
    def review(rid: object, original: str, rewrite: str | None = "Rewritten.") -> dict:
        found = {"review_id": rid, "original_text": original, "rewrite_model": "m1"}
        return found if rewrite is None else {**found, "text": rewrite}

    lines = [
        json.dumps({"paper_id": 0, "reviews": [review("r0a", "Sound method."), review(0, "No ablation.")]}).encode(),
        json.dumps({"paper_id": "p-1", "reviews": [review("r1a", "Novel idea.")]}).encode(),
        json.dumps({"paper_id": "p-1", "reviews": [review("r1a", "Novel idea.")]}).encode(),   # 3: duplicate of 2
        b'{"paper_id": "p-2", "reviews": [{"review_id": "r2a", "original_text": "caf\xe9", "text": "x"}]}',  # 4: byte 20+12+21+18+3+1 = 75
        json.dumps({"paper_id": "p-3", "reviews": [review("r3a", "Fine.", None)]}).encode(),  # 5: no 'text'
        json.dumps({"paper_id": "p-4", "reviews": [review("r4a", "")]}).encode(),             # 6: empty original
        json.dumps({"paper_id": "p-5", "reviews": [review("r5a", "Clear.", " ")]}).encode(),  # 7: empty rewrite
        json.dumps({"paper_id": 5, "reviews": [review("r6a", "Paper five.")]}).encode(),
        json.dumps({"reviews": [review("r7a", "No paper id.")]}).encode(),                    # 9: no paper id
    ]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    imported = read_review_pairs(path)
    assert [(d.id, d.paper_id) for d in imported.originals] == [("r0a", "0"), ("0", "0"), ("r1a", "p-1"),
                                                                ("r6a", "5")]
    assert [v.id for v in imported.variants] == ["r0a.rewrite1", "0.rewrite1", "r1a.rewrite1", "r6a.rewrite1"]
    assert imported.problems == [
        f"{path}:3: duplicate of line 2; left out",
        f"{path}:4: not UTF-8 (byte 75 of the line: invalid continuation byte); line left out",
        f"{path}:5 review 1: a rewrite record needs its rewrite as text (text)",
        f"{path}:6 review 1: empty review text",
        f"{path}:7 review 1: empty rewrite",
        f"{path}:9: a paper line needs a paper id (paper_id or id or forum_id or forum)",
    ]
