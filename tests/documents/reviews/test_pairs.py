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
