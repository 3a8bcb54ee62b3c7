"""Soft ratings of a form's integer scores (issue 27, section 2): what an evaluator stores beside its
integer scores when its configuration sets ``soft_ratings: true``.

Each integer score (an ``integer`` metric, or an ``ordinal`` one whose levels are whole numbers)
gets a :class:`rhetorica.models.logprobs.SoftRating` read from the answer's token
log-probabilities. The expected score is stored as the score ``<metric>.expected`` (so tidy tables
carry it as a column beside ``<metric>``); the distribution, covered, outside and unresolved mass
(or the reason it is missing) as the assessment's ``soft_ratings`` artefact.
"""

from __future__ import annotations

from typing import Any

from rhetorica.forms import Form, Metric, expected_metric
from rhetorica.models.api import ModelAPI, ModelOutput
from rhetorica.models.logprobs import TOP_LOGPROBS, SoftRating, missing, soft_rating

#: Name of the artefact holding every soft rating of an assessment.
ARTEFACT = "soft_ratings"


def integer_levels(metric: Metric) -> list[int] | None:
    """The allowed whole-number levels of ``metric`` in scale order, or ``None`` when it has no
    soft rating (continuous, boolean, count, or an ordinal scale with fractional levels)."""
    if metric.type == "integer" and metric.low is not None and metric.high is not None:
        return list(range(int(metric.low), int(metric.high) + 1))
    if metric.type == "ordinal" and metric.levels and all(float(x).is_integer() for x in metric.levels):
        return [int(x) for x in metric.levels]
    return None


def requested_logprobs(model: ModelAPI, soft: bool) -> int | None:
    """``GenerateConfig.top_logprobs`` for a call of ``model``: :data:`TOP_LOGPROBS` when soft
    ratings are on and the provider returns log-probabilities, else ``None`` (the request and its
    cache key are then those of a plain call)."""
    return TOP_LOGPROBS if soft and model.supports_logprobs else None


def form_soft_ratings(form: Form, scores: dict[str, float], output: ModelOutput, model: ModelAPI,
                      occurrence: int | None = None) -> list[SoftRating]:
    """One soft rating per integer score of ``form`` present in ``scores``.

    Args:
        form: the evaluator's form.
        scores: the validated scores of the answer in ``output``.
        output: the model output that was parsed (its ``logprobs``).
        model: the model that answered (whether its provider returns log-probabilities at all).
        occurrence: which ``"<metric>": <digits>`` of the answer holds each value
            (:func:`rhetorica.models.logprobs.value_position`; ``None``: the last with that value;
            ``i - n`` for the i-th of ``n`` answers in one list).

    Returns:
        Soft ratings in form order; each is missing with its reason when the provider returns no
        log-probabilities, the response carried none, or the value is not found in the tokens.
    """
    out = []
    for metric in form.metrics:
        levels = integer_levels(metric)
        if levels is None or metric.name not in scores:
            continue
        if not model.supports_logprobs:
            out.append(missing(metric.name, f"provider {model.provider!r} returns no token log-probabilities"))
        elif not output.logprobs:
            out.append(missing(metric.name, "the response carried no token log-probabilities"))
        else:
            out.append(soft_rating(output.logprobs, metric.name, int(scores[metric.name]), levels, occurrence))
    return out


def stored_parts(ratings: list[SoftRating]) -> tuple[dict[str, float], dict[str, Any]]:
    """``(scores, artefact)`` to store: ``<metric>.expected`` for each rating that has one, and the
    ``soft_ratings`` artefact (metric -> the rating's fields) for all of them."""
    scores = {expected_metric(r.metric): r.expected for r in ratings if r.expected is not None}
    return scores, {r.metric: r.model_dump(exclude={"metric"}) for r in ratings}
