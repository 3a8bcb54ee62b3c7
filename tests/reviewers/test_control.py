"""The control reviewer of a study: its ``failure_rate`` option fails that share of reviews."""

from __future__ import annotations

import asyncio

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.evaluation import Target
from rhetorica.reviewers.control import ControlEvaluator
from rhetorica.status import Status

DOC = Document(id="p1", title="T", sections=[Section(title="Introduction", text="We prove it.")],
               source=DocumentSource(path="p1.md", parser="test", parser_version="0"))


def _statuses(rate: float, n: int = 2000) -> list:
    control = ControlEvaluator("c", replicates=1, noise_sd=0.5, failure_rate=rate)
    targets = [Target(document=DOC, document_id=f"p{i}", condition="original", rewriter="none", variant_key=None,
                      replicate=0) for i in range(n)]
    return [asyncio.run(control.evaluate(t)) for t in targets]


def test_failure_rate_fails_that_share_of_reviews_with_no_score_and_a_reason():
    results = _statuses(0.3)
    failed = [r for r in results if r.status == Status.ERROR]
    # 2000 independent draws at p = 0.3: SD of the share sqrt(0.3 * 0.7 / 2000) = 0.0102; 4 SD = 0.041
    assert abs(len(failed) / len(results) - 0.3) < 0.041
    assert {r.reason for r in failed} == {"simulated failure (control failure_rate 0.3)"}
    assert all(r.scores == {} for r in failed)
    assert all(r.status == Status.OK and r.scores["overall"] >= 1 for r in results if r not in failed)
    # the draw is fixed by the review: the same reviews fail again
    assert [r.status for r in _statuses(0.3)] == [r.status for r in results]


def test_no_failure_rate_never_fails():
    assert {r.status for r in _statuses(0.0, 200)} == {Status.OK}
