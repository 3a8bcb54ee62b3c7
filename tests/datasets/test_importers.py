"""Importers of review datasets people already have (PeerRead layout, JSONL papers/reviews, JSONL pairs)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.datasets.manifest import load_manifest
from rhetorica.documents.reviews.model import load_reviews


def _peerread(root: Path) -> Path:
    reviews = root / "train" / "reviews"
    parsed = root / "train" / "parsed_pdfs"
    reviews.mkdir(parents=True)
    parsed.mkdir(parents=True)
    (reviews / "104.json").write_text(json.dumps({
        "id": "104", "title": "Graph kernels", "accepted": True,
        "reviews": [{"comments": "Solid work.", "RECOMMENDATION": 8, "REVIEWER_CONFIDENCE": "4"},
                    {"comments": "Area chair summary.", "RECOMMENDATION": 7, "IS_META_REVIEW": True},
                    {"comments": "Weak baselines.", "RECOMMENDATION": "5: marginally below", "REVIEWER_CONFIDENCE": 3}],
    }))
    (parsed / "104.pdf.json").write_text(json.dumps({"name": "104.pdf", "metadata": {
        "title": "Graph kernels", "authors": ["Jane Roe"], "emails": ["jane@uni.example"],
        "abstractText": "We compare kernels.", "sections": [{"heading": "1 Introduction", "text": "Kernels matter."}]}}))
    (reviews / "105.json").write_text(json.dumps({"id": "105", "title": "T", "accepted": False,
                                                  "reviews": [{"comments": "x", "RECOMMENDATION": "high"}]}))
    (reviews / "bad.json").write_text("{not json")
    return root


def test_peerread_layout(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    result = CliRunner().invoke(app, ["dataset", "import", str(_peerread(tmp_path / "peerread")), "--out", str(out)])
    assert result.exit_code == 1, result.output  # two listed problems, the rest imported
    manifest = load_manifest(out)
    assert [p.id for p in manifest.papers] == ["104", "105"]
    paper = manifest.paper("104")
    assert paper.human_scores == [8.0, 5.0] and paper.mean_rating == 6.5 and paper.bin == "[6,7)"
    assert paper.human_confidences == [4.0, 3.0] and paper.decision == "accept" and paper.n_reviews == 2
    text = (out / "papers" / "104" / "paper.md").read_text()
    assert "## Abstract\n\nWe compare kernels." in text and "## 1 Introduction" in text
    assert "Jane Roe" not in text and "jane@uni.example" not in text
    assert manifest.paper("105").human_scores == []
    assert any("bad.json" in p and "not readable JSON" in p for p in manifest.problems)
    assert any("RECOMMENDATION" in p and "'high'" in p for p in manifest.problems)


def test_jsonl_papers_and_single_reviews(tmp_path: Path) -> None:
    papers = tmp_path / "papers.jsonl"
    papers.write_text("\n".join([
        json.dumps({"id": "a", "title": "A", "decision": "Accept", "text": "# A\n\nBody.",
                    "reviews": [{"summary": "S", "weaknesses": "W", "rating": "6: marginally above", "confidence": 4}]}),
        "not json",
        json.dumps({"paper_id": "b", "text": "Only review text.", "rating": 3}),
        json.dumps({"paper_id": "b", "review": "Second.", "rating": "10: top 5%"}),
    ]))
    out = tmp_path / "ds"
    result = CliRunner().invoke(app, ["dataset", "import", str(papers), "--out", str(out)])
    assert result.exit_code == 1 and "papers.jsonl:2: not JSON" in result.output
    manifest = load_manifest(out)
    assert manifest.paper("a").human_scores == [6.0] and manifest.paper("a").markdown == "papers/a/paper.md"
    assert manifest.paper("b").human_scores == [3.0, 10.0] and manifest.paper("b").mean_rating == 6.5
    review = load_reviews(out / "papers" / "a" / "reviews.json")[0]
    assert [s.title for s in review.sections] == ["Summary", "Weaknesses"]


def test_jsonl_pairs(tmp_path: Path) -> None:
    pairs = tmp_path / "rewrite_pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(r) for r in [
        {"paper_id": "p1", "review_id": "r1", "original": "The method is weak.", "rewrite": "The method seems weak.",
         "rewriter": "gpt"},
        {"paper_id": "p1", "review_id": "r1", "original": "The method is weak.", "rewrite": "Weak method.",
         "rewriter": "claude"},
        {"paper_id": "p1", "review_id": "r2", "original": "Good.", "rewrite": "Fine."},
        {"paper_id": "p1", "review_id": "r2", "original": "Different!", "rewrite": "x"},
        {"review_id": "r3", "original": "no rewrite"},
    ]))
    out = tmp_path / "ds"
    result = CliRunner().invoke(app, ["dataset", "import", str(pairs), "--out", str(out)])
    assert result.exit_code == 1
    assert "rewrite_pairs.jsonl:4: review 'r2' has two different originals" in result.output
    assert "rewrite_pairs.jsonl:5: missing or non-text rewrite" in result.output
    originals = load_reviews(out / "papers" / "p1" / "reviews.json")
    rewrites = load_reviews(out / "papers" / "p1" / "review_rewrites.json")
    assert [o.sections[0].text for o in originals] == ["The method is weak.", "Good."]
    assert [(r.metadata["original_id"], r.metadata["rewriter"], r.sections[0].text) for r in rewrites] == [
        ("p1.review1", "gpt", "The method seems weak."), ("p1.review1", "claude", "Weak method."),
        ("p1.review2", "imported", "Fine.")]


def test_info_counts_and_missing(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    CliRunner().invoke(app, ["dataset", "import", str(_peerread(tmp_path / "peerread")), "--out", str(out)])
    result = CliRunner().invoke(app, ["dataset", "info", str(out)])
    assert result.exit_code == 0
    assert "2 papers" in result.output
    assert [line.split() for line in result.output.splitlines() if "[6,7)" in line] == [["[6,7)", "1"]]
    assert "missing human scores: 1 (105)" in result.output
    assert CliRunner().invoke(app, ["dataset", "info", str(tmp_path)]).exit_code == 2
