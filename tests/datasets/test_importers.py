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
    output = " ".join(result.output.split())
    assert "rewrite_pairs.jsonl:4: review id 'r2' was given at line 3 with a different text; left out" in output
    assert "rewrite_pairs.jsonl:5: a rewrite record needs its rewrite as text (rewrite)" in output
    originals = load_reviews(out / "papers" / "p1" / "reviews.json")
    rewrites = load_reviews(out / "papers" / "p1" / "review_rewrites.json")
    assert [o.sections[0].text for o in originals] == ["The method is weak.", "Good."]
    assert [(r.metadata["original_id"], r.metadata["rewriter"], r.sections[0].text) for r in rewrites] == [
        ("r1", "gpt", "The method seems weak."), ("r1", "claude", "Weak method."), ("r2", "imported", "Fine.")]
    assert [o.id for o in originals] == ["r1", "r2"]  # the source's review ids, verbatim


def test_info_counts_and_missing(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    CliRunner().invoke(app, ["dataset", "import", str(_peerread(tmp_path / "peerread")), "--out", str(out)])
    result = CliRunner().invoke(app, ["dataset", "info", str(out)])
    assert result.exit_code == 0
    assert "2 papers" in result.output
    assert [line.split() for line in result.output.splitlines() if "[6,7)" in line] == [["[6,7)", "1"]]
    assert "missing human scores: 1 (105)" in result.output
    assert CliRunner().invoke(app, ["dataset", "info", str(tmp_path)]).exit_code == 2


def _invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["dataset", *args])


def test_ratings_outside_the_scale_are_problems_left_missing(tmp_path: Path) -> None:
    root = _peerread(tmp_path / "peerread")
    (root / "train" / "reviews" / "106.json").write_text(json.dumps({"id": "106", "title": "U", "reviews": [
        {"comments": "a", "RECOMMENDATION": 99, "REVIEWER_CONFIDENCE": 6}, {"comments": "b", "RECOMMENDATION": 4}]}))
    out = tmp_path / "ds"
    result = _invoke("import", str(root), "--out", str(out))
    assert result.exit_code == 1
    paper = load_manifest(out).paper("106")
    assert paper.human_scores == [4.0] and paper.mean_rating == 4.0 and paper.human_confidences == []
    text = " ".join(result.output.split())
    assert "106.json review 1 RECOMMENDATION: 99 is outside the scale 1-10 (left missing)" in text
    assert "106.json review 1 REVIEWER_CONFIDENCE: 6 is outside the scale 1-5 (left missing)" in text

    lines = tmp_path / "reviews.jsonl"
    lines.write_text("\n".join(json.dumps({"paper_id": "p", "text": "t", "rating": r}) for r in (11, 0, 4)))
    out2 = tmp_path / "ds2"
    result = _invoke("import", str(lines), "--out", str(out2))
    assert result.exit_code == 1
    assert load_manifest(out2).paper("p").human_scores == [4.0]
    assert "reviews.jsonl:1 rating: 11 is outside the scale 1-10" in result.output
    assert "reviews.jsonl:2 rating: 0 is outside the scale 1-10" in result.output
    # a declared 0-20 scale accepts both; a malformed scale is refused
    result = _invoke("import", str(lines), "--out", str(tmp_path / "ds3"), "--rating-scale", "0-20")
    assert result.exit_code == 0 and load_manifest(tmp_path / "ds3").paper("p").human_scores == [11.0, 0.0, 4.0]
    result = _invoke("import", str(lines), "--out", str(tmp_path / "ds4"), "--rating-scale", "10-1")
    assert result.exit_code == 2 and "expected LOW-HIGH" in result.output


def test_info_counts_papers_outside_every_bin(tmp_path: Path) -> None:
    lines = tmp_path / "reviews.jsonl"
    # means: a 9.0 and b 10.0 (above the top bin [7,8.5]), c 8.5 (in it), d none
    lines.write_text("\n".join(json.dumps(r) for r in [
        {"paper_id": "a", "text": "t", "rating": 9}, {"paper_id": "b", "text": "t", "rating": 10},
        {"paper_id": "c", "text": "t", "rating": 8}, {"paper_id": "c", "text": "t", "rating": 9},
        {"paper_id": "d", "text": "t"}]))
    out = tmp_path / "ds"
    assert _invoke("import", str(lines), "--out", str(out)).exit_code == 0
    result = _invoke("info", str(out))
    assert result.exit_code == 0
    assert "outside every bin: 2 (mean rating outside the bins [1, 8.5]: a, b)" in result.output
    assert [line.split() for line in result.output.splitlines() if "[7,8.5]" in line] == [["[7,8.5]", "1"]]


def test_jsonl_paper_keeps_title_and_abstract(tmp_path: Path) -> None:
    lines = tmp_path / "papers.jsonl"
    lines.write_text(json.dumps({"id": "x", "title": "Graph kernels", "abstract": "We compare kernels.",
                                 "text": "## 1 Introduction\n\nKernels matter.", "reviews": []}) + "\n")
    out = tmp_path / "ds"
    assert _invoke("import", str(lines), "--out", str(out)).exit_code == 0
    assert (out / "papers" / "x" / "paper.md").read_text() == (
        "# Graph kernels\n\n## Abstract\n\nWe compare kernels.\n\n## 1 Introduction\n\nKernels matter.\n")


def test_import_refuses_an_occupied_folder_but_redoes_the_same_import(tmp_path: Path) -> None:
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    first.write_text(json.dumps({"paper_id": "a", "text": "t", "rating": 5}) + "\n")
    second.write_text(json.dumps({"paper_id": "b", "text": "t", "rating": 6}) + "\n")
    out = tmp_path / "ds"
    assert _invoke("import", str(first), "--out", str(out)).exit_code == 0
    result = _invoke("import", str(second), "--out", str(out))
    assert result.exit_code == 2 and "not empty and not an earlier import of" in result.output
    assert [p.id for p in load_manifest(out).papers] == ["a"] and not (out / "papers" / "b").exists()
    assert _invoke("import", str(first), "--out", str(out)).exit_code == 0  # the same import again
    assert [p.id for p in load_manifest(out).papers] == ["a"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert _invoke("import", str(first), "--out", str(other)).exit_code == 2
    assert (other / "notes.txt").read_text() == "mine" and not (other / "manifest.yaml").exists()
    result = _invoke("import", str(first), "--out", str(first))
    assert result.exit_code == 2 and "is a file" in result.output


def test_bom_accepted_and_non_utf8_refused(tmp_path: Path) -> None:
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({"paper_id": "a", "text": "t", "rating": 5}).encode() + b"\n")
    out = tmp_path / "ds"
    result = _invoke("import", str(bom), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert load_manifest(out).paper("a").human_scores == [5.0]
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(json.dumps({"paper_id": "a", "text": "caf\u00e9"}).encode().replace(b"\\u00e9", b"\xe9"))
    result = _invoke("import", str(latin), "--out", str(tmp_path / "ds2"))
    assert result.exit_code == 2
    assert "latin.jsonl: no usable line (1 problem(s): " in " ".join(result.output.split())
    assert "latin.jsonl:1: not UTF-8 (byte 31 of the line: invalid continuation byte)" in " ".join(result.output.split())


def test_rewrite_file_imports_its_human_originals_with_a_warning_and_paper_id_0(tmp_path: Path) -> None:
    """A PeerPrism-like rewrite file (paper id 0, reviews with original_text/text) imported as papers:
    the human originals and their ratings, never the rewrites, never an empty review; a warning says so."""
    rows = [{"paper_id": 0, "title": "Graph filters", "reviews": [
                {"review_id": "b9IG", "original_text": "Weak baselines.", "text": "The baselines are weak.",
                 "original_rating": "6: marginally above", "rating": "8: accept"},
                {"review_id": "c1", "original_text": "", "text": "Rewritten from nothing."}]},
            {"paper_id": "p1", "reviews": [{"review_id": "k", "original_text": "Clear.", "text": "It is clear."}]}]
    source = tmp_path / "ICLR2023_openai_gpt-5.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    out = tmp_path / "ds"
    result = CliRunner().invoke(app, ["dataset", "import", str(source), "--out", str(out), "--layout", "papers"])
    assert result.exit_code == 1, result.output  # the empty original is a listed problem
    output = " ".join(result.output.split())
    assert "3 of 3 review(s) are rewrites" not in output  # the empty one is refused before counting
    assert "2 of 2 review(s) are rewrites (original_text/text or original/rewrite)" in output
    assert "ICLR2023_openai_gpt-5.jsonl:1 review 2: empty review text" in output
    manifest = load_manifest(out)
    assert [p.id for p in manifest.papers] == ["0", "p1"]  # paper id 0 kept
    zero = load_reviews(out / "papers" / "0" / "reviews.json")
    assert [(r.id, r.sections[0].text, r.human_scores) for r in zero] == [("b9IG", "Weak baselines.", [6.0])]


def test_a_rewrite_file_with_no_bad_line_imports_with_a_warning_and_exit_0(tmp_path: Path) -> None:
    """A warning leaves nothing out: exit 0, printed as a warning naming the import's own remedy."""
    row = {"paper_id": 0, "reviews": [{"review_id": "b9IG", "original_text": "Weak baselines.",
                                       "text": "The baselines are weak.", "original_rating": "6: marginally above"}]}
    source = tmp_path / "ICLR2021_openai_gpt-5.jsonl"
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["dataset", "import", str(source), "--out", str(tmp_path / "ds")])
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    assert lines == ["imported 1 paper, 1 review into " + str(tmp_path / "ds"),
                     f"warning: {source}: 1 of 1 review(s) are rewrites (original_text/text or original/rewrite): "
                     "only the human originals are read as reviews; to import the rewrites with their originals, "
                     "import the file with --layout pairs"]
