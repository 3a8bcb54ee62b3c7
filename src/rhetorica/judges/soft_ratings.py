"""Soft ratings of a judge's integer scores (issue 27, section 2): what a ``kind: judge``
configuration with ``soft_ratings: true`` stores beside its scores.

A judge may make several calls for one review (a metric with its own rubric, ``packing: metric``,
one call per weakness point of a per-point family) and a per-point family's review-level score is
a mean over points. Each integer value a call writes gets its
:class:`~rhetorica.models.logprobs.SoftRating` from that call's token log-probabilities
(:func:`rhetorica.reviewers.soft_ratings.form_soft_ratings`; the i-th point of a packed list is
read at the i-th of its ``n`` values). **The expected score of a review's metric is the mean of
the expected scores of the ratings its integer score is made of**: one per call that scored the
metric (a review-level family scores each metric in exactly one call, so it is that call's
expected score), or one per weakness point its review-level mean is taken over (verifiability:
the points that make a claim, :func:`rhetorica.judges.judge.point_members`) — the same mean as
the integer score's, so the two stay on one scale. It is **missing when any of those ratings
lacks a distribution** (no log-probabilities from the provider or in the response, the value not
found in the tokens, no allowed level among the top tokens), with the first such reason recorded;
never imputed from the others.

Stored as the score ``<metric>.expected`` and in the assessment's ``soft_ratings`` artefact:
metric -> ``{"expected", "reason", "covered", "low", "high", "ratings"}``: ``covered`` the smallest
covered mass of its ratings (the analysis leaves the expected score out below the study's
``soft_ratings.min_covered``, :func:`rhetorica.analysis.soft.apply_min_covered`), ``low`` and
``high`` the mean of the ratings' bounds of their expectation over the unresolved mass (the mean
of bounds bounds the mean; ``None`` without an expected score), ``ratings`` the per-call
(per-point) ratings' fields (distribution, covered, outside and unresolved mass, bounds, reason)
in call (point) order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rhetorica.forms import Form, expected_metric
from rhetorica.judges.families import MetricFamily
from rhetorica.models.api import ModelAPI, ModelOutput
from rhetorica.models.logprobs import SoftRating
from rhetorica.reviewers.soft_ratings import form_soft_ratings, integer_levels

Ratings = dict[str, SoftRating]
"""One call's (or one point's) soft ratings: metric -> rating."""


def rated_metrics(family: MetricFamily) -> list[str]:
    """The review-level metrics of ``family`` that can have a soft rating: those on an integer
    scale, and for a per-point family those whose point-level score is on one (their review-level
    mean of expected scores); in form order."""
    point = {m.name for m in family.point_form.metrics if integer_levels(m)} if family.point_form else set()
    return [m.name for m in family.form.metrics if integer_levels(m) or m.name in point]


def answer_soft_ratings(form: Form, scores: Sequence[dict[str, float]], output: ModelOutput,
                        model: ModelAPI, packed: bool) -> list[Ratings]:
    """The soft ratings of one judge answer: one :data:`Ratings` per entry of ``scores`` (one for
    a review-level or single-point answer, one per point of a packed list).

    Args:
        form: the form of the call's answer (a point form for a point call).
        scores: the validated scores of the answer, one dict per entry.
        output: the model output that was parsed.
        model: the judge model.
        packed: ``scores`` are the points of one list (the i-th point's value is the i-th of the
            ``n`` values of its key in the text).
    """
    n = len(scores)
    return [{r.metric: r for r in form_soft_ratings(form, entry, output, model, i - n if packed else None)}
            for i, entry in enumerate(scores)]


def review_soft_ratings(scores: Mapping[str, float], parts: Sequence[Ratings],
                        members: Mapping[str, Sequence[int]] | None = None) -> tuple[dict[str, float], dict[str, Any]]:
    """``(scores, artefact)`` to store for a judgement (module docstring).

    Args:
        scores: the judgement's review-level scores (only these metrics get a soft rating).
        parts: the soft ratings of every call, or of every point in order for a per-point family.
        members: per-point family: review-level metric -> indices of the points it averages
            (:func:`rhetorica.judges.judge.point_members`); ``None``: every part that rated the
            metric.

    Returns:
        ``<metric>.expected`` -> mean expected score (present only when every rating has one),
        and the ``soft_ratings`` artefact (metric -> ``expected``, ``reason``, ``covered``,
        ``low``, ``high``, ``ratings``) for every scored metric that was rated at all.
    """
    expected: dict[str, float] = {}
    artefact: dict[str, Any] = {}
    for metric in scores:
        if members is None:
            ratings = [part[metric] for part in parts if metric in part]
        else:
            ratings = [parts[i][metric] for i in members.get(metric, ()) if metric in parts[i]]
        if not ratings:
            continue
        lacking = [r.reason or "no expected score" for r in ratings if r.expected is None]
        value = None if lacking else sum(r.expected for r in ratings if r.expected is not None) / len(ratings)
        reason = None
        if lacking:
            reason = lacking[0] if len(ratings) == 1 else (
                f"{len(lacking)} of {len(ratings)} ratings without a distribution: {lacking[0]}")
        bounds = [(r.low, r.high) for r in ratings]
        complete = value is not None and all(lo is not None and hi is not None for lo, hi in bounds)
        artefact[metric] = {"expected": value, "reason": reason,
                            "covered": min(r.covered for r in ratings),
                            "low": sum(lo for lo, _ in bounds) / len(ratings) if complete else None,  # type: ignore[misc]
                            "high": sum(hi for _, hi in bounds) / len(ratings) if complete else None,  # type: ignore[misc]
                            "ratings": [r.model_dump(exclude={"metric"}) for r in ratings]}
        if value is not None:
            expected[expected_metric(metric)] = value
    return expected, artefact
