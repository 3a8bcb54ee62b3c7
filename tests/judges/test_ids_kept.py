"""Source ids kept verbatim from a pairs file to the tables and the report (issue 23.4): ``paper_id: 0``
and ``review_id: 0`` (JSON integers) and string ids are the ids every table shows; the mapping is
exported as ``tables/ids.csv``."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()
ROWS = [  # paper 0 has two reviews, 0 and "r-7"; paper "iclr/42" has one review without an id
    {"paper_id": 0, "review_id": 0, "original": "The proofs are sound. Experiments are small.",
     "rewrite": "Proofs: sound. The experiments are small.", "rewriter": "gpt-x"},
    {"paper_id": 0, "review_id": "r-7", "original": "Novel idea but weak baselines.",
     "rewrite": "The idea is novel; the baselines are weak.", "rewriter": "gpt-x", "rewrite_id": "rw-1"},
    {"paper_id": "iclr/42", "original": "Clear writing.", "rewrite": "The writing is clear.", "rewriter": "gpt-x"},
]


def run_rows(tmp_path: Path) -> Path:
    """Run a judge study of :data:`ROWS` as a pairs file with the CLI; returns the pairs file."""
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    spec = {"name": "ids", "output_dir": str(tmp_path / "run"), "documents": [{"pairs": str(pairs)}],
            "rewriters": [{"name": "gpt-x", "kind": "imported", "conditions": ["paraphrase"]}],
            "reviewers": [{"name": "rr", "kind": "judge", "model": "mock/j", "options": {"family": "rottenreviews"}}],
            "validation": {"enabled": False}}
    study = tmp_path / "study.yaml"
    study.write_text(yaml.safe_dump(spec), encoding="utf-8")
    result = runner.invoke(app, ["run", str(study)])
    assert result.exit_code == 0, result.output
    return pairs


def test_source_ids_reach_every_table_and_the_mapping(tmp_path: Path) -> None:
    run_rows(tmp_path)
    tables = tmp_path / "run" / "tables"
    assessments = pd.read_csv(tables / "assessments.csv", dtype={"document_id": str})
    assert sorted(set(assessments["document_id"])) == ["0", "iclr/42.review1", "r-7"]
    ids = pd.read_csv(tables / "ids.csv", dtype=str, keep_default_na=False)
    documents = ids[ids["kind"] == "review"].set_index("document_id")
    assert documents.loc["0", ["paper_id", "review_id", "id_generated"]].tolist() == ["0", "0", "0"]
    assert documents.loc["r-7", ["paper_id", "review_id", "id_generated"]].tolist() == ["0", "r-7", "0"]
    assert documents.loc["iclr/42.review1", ["paper_id", "review_id", "id_generated"]].tolist() == ["iclr/42", "", "1"]
    variants = ids[ids["kind"] == "variant"].set_index("document_id")
    assert variants.loc["r-7", "rewrite_id"] == "rw-1" and variants.loc["0", "rewrite_id"] == "0.rewrite1"
    assert set(variants["rewriter"]) == {"gpt-x"} and set(variants["condition"]) == {"paraphrase"}


def test_generated_rewrite_ids_are_marked_with_their_source_line(tmp_path: Path) -> None:
    """Rows 1 and 3 have no rewrite_id (PeerPrism has none): their variants' ids were generated
    (``<review>.rewrite1``), so ids.csv says id_generated 1 and names the rewrite's line; row 2's
    ``rw-1`` is the source's (0). They said 0 with an empty source: the variant inherited its
    original's metadata."""
    pairs = run_rows(tmp_path)
    ids = pd.read_csv(tmp_path / "run" / "tables" / "ids.csv", dtype=str, keep_default_na=False)
    variants = ids[ids["kind"] == "variant"].set_index("rewrite_id")
    assert variants.loc["0.rewrite1", ["document_id", "id_generated", "source"]].tolist() == [
        "0", "1", f"{pairs}:1"]
    assert variants.loc["rw-1", ["document_id", "id_generated", "source"]].tolist() == ["r-7", "0", f"{pairs}:2"]
    assert variants.loc["iclr/42.review1.rewrite1", ["document_id", "id_generated", "source"]].tolist() == [
        "iclr/42.review1", "1", f"{pairs}:3"]


def _two_venues(tmp_path: Path, **study: object) -> tuple[object, str]:
    """Run a judge study of two pairs files that each call their paper 0 (another forum id and
    title: two venues numbering their papers alike); returns the CLI result and report.md."""
    def pair(review: str, forum: str, title: str, text: str) -> str:
        return json.dumps({"paper_id": 0, "review_id": review, "original": text, "rewrite": f"{text} Indeed.",
                           "rewriter": "gpt-x", "paper_metadata": {"forum_id": forum, "title": title}})

    (tmp_path / "iclr.jsonl").write_text(pair("r1", "F-iclr", "Graph filters", "The proofs are sound.") + "\n"
                                         + pair("r2", "F-iclr", "Graph filters", "Experiments are small.") + "\n")
    (tmp_path / "nips.jsonl").write_text(pair("r3", "F-nips", "Audio codecs", "Novel idea, weak baselines.") + "\n")
    spec = {"name": "venues", "output_dir": str(tmp_path / "run"),
            "documents": [{"pairs": "iclr.jsonl"}, {"pairs": "nips.jsonl"}],
            "rewriters": [{"name": "gpt-x", "kind": "imported", "conditions": ["paraphrase"]}],
            "reviewers": [{"name": "rr", "kind": "judge", "model": "mock/j", "options": {"family": "rottenreviews"}}],
            "validation": {"enabled": False}, **study}
    (tmp_path / "study.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    result = runner.invoke(app, ["run", str(tmp_path / "study.yaml")])
    return result, (tmp_path / "run" / "report.md").read_text("utf-8")


def _clusters(md: str) -> set[str]:
    """The Clusters cells of the report's per-test n table."""
    lines = [line for line in md.splitlines() if line.startswith("| judges ")]
    return {[c.strip() for c in line.strip("|").split("|")][-1] for line in lines}


def test_two_files_giving_paper_0_to_two_papers_are_refused_by_default(tmp_path: Path) -> None:
    """Paper 0 of nips.jsonl (forum F-nips) is not paper 0 of iclr.jsonl (F-iclr): its line is left
    out with one problem naming both lines, the run exits 1, the report counts one paper."""
    result, md = _two_venues(tmp_path)
    assert result.exit_code == 1
    output = " ".join(result.output.split())
    assert output.count("paper id '0' was given at") == 1
    assert f"{tmp_path / 'nips.jsonl'}:1: paper id '0' was given at {tmp_path / 'iclr.jsonl'}:1 to another paper " \
           "(forum_id 'F-iclr' there, 'F-nips' here); left out" in output
    assert "Reviews: 2 (of 1 paper(s))" in md and _clusters(md) == {"1"}


def test_with_id_scope_file_the_report_counts_two_papers_and_two_clusters(tmp_path: Path) -> None:
    result, md = _two_venues(tmp_path, id_scope="file")
    assert result.exit_code == 0, result.output
    assert "Reviews: 3 (of 2 paper(s))" in md and _clusters(md) == {"2"}
    ids = pd.read_csv(tmp_path / "run" / "tables" / "ids.csv", dtype=str, keep_default_na=False)
    reviews = ids[ids["kind"] == "review"].set_index("document_id")
    assert sorted(reviews.index) == ["iclr.jsonl#r1", "iclr.jsonl#r2", "nips.jsonl#r3"]
    assert reviews.loc["nips.jsonl#r3", ["paper_id", "review_id"]].tolist() == ["nips.jsonl#0", "r3"]
