"""The recipes' data steps against recorded sources (no network)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rhetorica.datasets.manifest import load_manifest
from rhetorica.recipes.data_steps import run_data_step
from rhetorica.recipes.model import RecipeError
from rhetorica.registry import recipes
from tests.datasets.conftest import EXPECTED_PER_BIN
from tests.datasets.recorded_api import VENUE
from tests.recipes.conftest import PAPERS, REVIEWS_PER_PAPER, REWRITERS

REVIEWERS_PER_PAPER_TOTAL = PAPERS * REVIEWS_PER_PAPER


def _options(name: str, **over: object) -> dict[str, object]:
    return {**recipes.get(name).data.options, **over}


def test_review_pairs_full_keeps_every_file_and_lists_the_rewriters(benchmark_clone: Path, tmp_path: Path) -> None:
    result = run_data_step("review-pairs", tmp_path / "data", _options("judge-robustness"), sample=None,
                           source=benchmark_clone, endpoints={})
    files = sorted(str(p.resolve()) for p in benchmark_clone.rglob("*.jsonl"))
    assert result.variables["pairs"] == files and result.units == REVIEWERS_PER_PAPER_TOTAL
    assert result.variables["rewriters"] == sorted(REWRITERS) and result.problems == []
    assert not (tmp_path / "data" / "pairs.sample.jsonl").exists()  # nothing of the benchmark copied


def test_review_pairs_sample_keeps_n_reviews_and_all_their_rewrites(benchmark_clone: Path, tmp_path: Path) -> None:
    result = run_data_step("review-pairs", tmp_path / "data", _options("judge-robustness"), sample=5,
                           source=benchmark_clone, endpoints={})
    written = [json.loads(line) for line in (tmp_path / "data" / "pairs.sample.jsonl").read_text().splitlines()]
    records = [(r["review_id"], r["rewrite_model"]) for line in written for r in line["reviews"]]
    ids = {rid for rid, _ in records}
    assert result.units == len(ids) == 5 and len(records) == 5 * len(REWRITERS)  # each kept review, each model
    again = run_data_step("review-pairs", tmp_path / "again", _options("judge-robustness"), sample=5,
                          source=benchmark_clone, endpoints={})
    assert again.units == 5  # the same seed: the same reviews, written the same way
    assert (tmp_path / "again" / "pairs.sample.jsonl").read_text() == (tmp_path / "data" / "pairs.sample.jsonl").read_text()
    other = run_data_step("review-pairs", tmp_path / "other", _options("judge-robustness", seed=7), sample=5,
                          source=benchmark_clone, endpoints={})
    assert other.units == 5


def test_review_pairs_without_a_source_says_how_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(RecipeError, match="clone .*PeerPrism.* --source PATH"):
        run_data_step("review-pairs", tmp_path / "d", _options("judge-robustness"), sample=None, source=None,
                      endpoints={})
    (tmp_path / "empty").mkdir()
    with pytest.raises(RecipeError, match="no file matches"):
        run_data_step("review-pairs", tmp_path / "d", _options("judge-robustness"), sample=None,
                      source=tmp_path / "empty", endpoints={})


def test_openreview_sample_takes_ceil_n_over_bins_per_bin(recorded_venue, tmp_path: Path) -> None:
    _, base = recorded_venue
    result = run_data_step("openreview", tmp_path / "data", _options("style-over-substance", venue=VENUE, download=False),
                           sample=7, source=None, endpoints={"openreview": base})
    # ceil(7 / 6 bins) = 2 per bin sampled (the recorded venue has 3, 3, 2, 3, 3, 2 papers in its six
    # bins: 12 sampled); 7 kept: the first of each bin, then the second of the first bin
    manifest = load_manifest(tmp_path / "data" / "dataset")
    assert len(manifest.papers) == sum(min(2, n) for n in EXPECTED_PER_BIN.values()) == 12
    kept = result.variables["papers"]
    assert result.units == len(kept) == 7 and all(p["latex"] is None for p in kept)
    bins = {e.id: e.bin for e in manifest.papers}
    assert [bins[p["id"]] for p in kept] == [*EXPECTED_PER_BIN, next(iter(EXPECTED_PER_BIN))]
    assert result.variables["dataset"] == "data/dataset"


def test_openreview_with_arxiv_match_lists_latex_projects(recorded_venue, tmp_path: Path) -> None:
    _, base = recorded_venue
    result = run_data_step("openreview", tmp_path / "data",
                           _options("six-dimensions", venue=VENUE, arxiv_delay_s=0, per_bin=None, latex_required=False),
                           sample=None,
                           source=None, endpoints={"openreview": base, "arxiv_query": base + "/api/query?{}",
                                                   "arxiv_source": base + "/src"})
    matched = [p for p in result.variables["papers"] if p["latex"]]
    # only the stable-nalu paper (P19) has an arXiv record with its source among the recorded ones
    assert [p["id"] for p in matched] == ["P19"] and (tmp_path / matched[0]["latex"]).is_dir()
    unmatched = [line for line in result.problems if ": no LaTeX source: " in line]
    assert len(unmatched) == len(result.variables["papers"]) - 1


def _kept(folder: Path) -> list[str]:
    written = [json.loads(line) for line in (folder / "pairs.sample.jsonl").read_text().splitlines()]
    return sorted({(line["paper_id"], r["review_id"]) for line in written for r in line["reviews"]})


def test_review_pairs_paired_sample_keeps_two_reviews_of_each_paper(benchmark_clone: Path, tmp_path: Path) -> None:
    for sample, papers in ((4, 2), (5, 3), (1000, PAPERS)):  # ceil(N / 2) papers, at most the 6 with two reviews
        folder = tmp_path / str(sample)
        result = run_data_step("review-pairs", folder, _options("judge-robustness", paired_reviews=True), sample=sample,
                               source=benchmark_clone, endpoints={})
        kept = _kept(folder)
        per_paper = {paper: sum(p == paper for p, _ in kept) for paper, _ in kept}
        assert result.units == len(kept) == 2 * papers and set(per_paper.values()) == {2}, (sample, kept)
        rounded = " (--sample 5 rounded up to whole pairs)" if sample == 5 else ""
        assert result.summary[1] == (f"{2 * papers} kept{rounded} as two reviews of each of {papers} papers (6 of 6 "
                                     "have two or more), so that each has another review of its paper as its reference")
    plain = run_data_step("review-pairs", tmp_path / "plain", _options("judge-robustness"), sample=4,
                          source=benchmark_clone, endpoints={})
    assert len(plain.summary) == 1 and plain.units == 4  # no reference judge: reviews drawn one by one


def test_review_pairs_paired_sample_of_a_source_without_two_reviews_of_a_paper_says_so(tmp_path: Path) -> None:
    source = tmp_path / "flat"
    files = source / "data" / "transformations" / "rewritten"
    files.mkdir(parents=True)
    lines = [{"review_id": f"r{k}", "original": f"The method {k} is sound; the evaluation is thin.",
              "rewrite": f"Method {k} is sound, but its evaluation is thin.", "rewriter": "gpt-5"} for k in range(5)]
    (files / "pairs.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    said = ("no paper of the source has two reviews: the study's judges that compare each review with another review "
            "of its paper cannot judge any of the {} kept")
    for sample, kept in ((3, 3), (None, 5)):  # a pair without paper_id is a paper of its own
        result = run_data_step("review-pairs", tmp_path / f"d{sample}", _options("judge-robustness", paired_reviews=True),
                               sample=sample, source=source, endpoints={})
        assert result.units == kept and result.summary[1:] == [said.format(kept)]


def test_openreview_latex_required_leaves_out_drawn_papers_without_latex(recorded_venue, tmp_path: Path) -> None:
    """A study that rewrites LaTeX projects (``latex_required``): of the papers drawn, those without a
    LaTeX source are no units and are named in ``left_out`` with their reason; drawn = units + left out."""
    _, base = recorded_venue
    endpoints = {"openreview": base, "arxiv_query": base + "/api/query?{}", "arxiv_source": base + "/src"}
    for sample in (1, 6, 7, 12):
        options = _options("six-dimensions", venue=VENUE, arxiv_delay_s=0)
        assert options["latex_required"] is True  # the recipe's design: every paper is rewritten as a LaTeX project
        result = run_data_step("openreview", tmp_path / str(sample), options, sample=sample, source=None,
                               endpoints=endpoints)
        kept, left_out = result.variables["papers"], result.variables["left_out"]
        drawn = min(sample, len(load_manifest(tmp_path / str(sample) / "dataset").papers))
        # only the stable-nalu paper (P19) has its LaTeX source among the recorded arXiv records
        assert [p["id"] for p in kept] == (["P19"] if "P19" in {p["id"] for p in kept} else [])
        assert result.units == len(kept) and result.units + len(left_out) == drawn, sample
        assert all(p["reason"] == "no LaTeX source (no arXiv record with a matching title); the study rewrites "
                   "LaTeX projects" for p in left_out), left_out
        assert "(left out: the study rewrites LaTeX projects)" in result.summary[1]
        assert result.summary[2] == (f"{len(left_out)} of the {drawn} sampled papers left out (no LaTeX source); "
                                     f"the study has {result.units}")
