"""Recorded sources for the recipes' data steps: the recorded OpenReview venue and arXiv records of
``tests/datasets`` (served on loopback), and a folder laid out like a clone of the public review-rewrite
benchmark (PeerPrism's ``data/transformations/rewritten``), written from hand-made reviews."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.datasets.conftest import build_api
from tests.datasets.recorded_api import RecordedApi, serve
from tests.validation.test_review_checks import FAITHFUL_REWRITE, ORIGINAL_REVIEW

#: rewriting models of the generated benchmark clone, one file each
REWRITERS = ("gpt-5", "llama-4-scout")
#: papers x reviews per paper of the generated clone: 6 x 2 = 12 original reviews
PAPERS, REVIEWS_PER_PAPER = 6, 2


def write_benchmark_clone(root: Path) -> Path:
    """A folder shaped like the benchmark's clone: one JSONL per rewriting model, one paper per line,
    each review an ``original_text`` / ``text`` record with ``rewrite_model``; ids repeat across files
    (the same original reviews, rewritten by each model)."""
    folder = root / "data" / "transformations" / "rewritten" / "iclr2024"
    folder.mkdir(parents=True)
    for model in REWRITERS:
        lines = []
        for p in range(PAPERS):
            reviews = [{"review_id": f"p{p}r{r}", "original_text": ORIGINAL_REVIEW.replace("forecasting", f"forecasting {p}.{r}"),
                        "text": FAITHFUL_REWRITE.replace("forecasting", f"forecasting {p}.{r}"),
                        "original_rating": "5: marginally below the acceptance threshold",
                        "rating": "5: marginally below the acceptance threshold", "rewrite_model": model}
                       for r in range(REVIEWS_PER_PAPER)]
            lines.append(json.dumps({"paper_id": f"P{p}", "title": f"Paper {p}", "reviews": reviews}))
        (folder / f"{model}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "README.md").write_text("a local clone\n", encoding="utf-8")
    return root


@pytest.fixture
def benchmark_clone(tmp_path: Path) -> Path:
    return write_benchmark_clone(tmp_path / "PeerPrism")


@pytest.fixture
def recorded_venue(shared_data: Path, tmp_path: Path) -> Iterator[tuple[RecordedApi, str]]:
    api = build_api(shared_data, tmp_path)
    with serve(api) as base:
        yield api, base
