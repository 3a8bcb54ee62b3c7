"""Control reviewers inside a study: a null reviewer and an injected-bias reviewer (no model call).

A study can list them next to real reviewer configurations (``kind: control``) so that its own
report carries a negative and a positive control:

- null (``preference_ratio: 1``): overall = the paper's latent quality + Gaussian noise, whatever
  the rewrite — every paired test on it should reject at most at its nominal rate;
- injected bias (``bias_arm: <condition>``, ``preference_ratio: R``): the favoured condition's
  reviews are shifted so that its preference ratio over any other arm, on replicate-averaged paper
  scores, is R (:func:`rhetorica.reviewers.control_settings.mean_shift_for_ratio`).

The latent quality is drawn once per (reviewer, paper) from U(2.5, 8.5) on the 1-10 scale, or is
the paper's mean human score when it has one; noise is seeded by (reviewer, paper, condition,
replicate), so reruns reproduce every score. Scores are continuous unless ``integer_scores``.

:class:`ControlEvaluator` is the :class:`~rhetorica.evaluation.Evaluator` of a ``kind: control``
reviewer (its kind ``control`` is :class:`rhetorica.study.evaluator_kinds.ControlKind`); its form is
``control-000`` (:data:`rhetorica.forms.CONTROL_000`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import BaseModel

from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import CONTROL_000, Form
from rhetorica.hashing import content_hash
from rhetorica.reviewers.control_settings import ControlReviewer, mean_shift_for_ratio
from rhetorica.status import Status
from rhetorica.models.call import CallContext



#: The options a ``kind: control`` reviewer accepts in the study file: the settings of
#: :class:`rhetorica.reviewers.control_settings.ControlReviewer` (its ``name`` comes from the reviewer).
CONTROL_OPTIONS: tuple[str, ...] = tuple(sorted(set(ControlReviewer.model_fields) - {"name"}))


class ControlScores(BaseModel):
    """Scores of one control review: overall on 1-10, the four criteria on 1-4 (following overall)."""

    overall: float
    soundness: float
    significance: float
    evidence: float
    clarity: float


def _rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(int(content_hash(*parts, length=16), 16))


def control_review(
    reviewer: ControlReviewer,
    document_id: str,
    condition: str,
    replicate: int,
    *,
    replicates: int,
    human_score: float | None = None,
) -> ControlScores:
    """Scores of one control review.

    Args:
        reviewer: the control's settings (noise SD, favoured arm, preference ratio, rounding).
        document_id: paper id (fixes the latent quality).
        condition: ``original`` or the variant's condition.
        replicate: replicate index (fixes the noise draw).
        replicates: replicates per paper and arm in the study (the shift is set for their mean).
        human_score: the paper's mean human rating, used as latent quality when given.

    Returns:
        :class:`ControlScores`, overall clipped to [1, 10].
    """
    quality = human_score if human_score is not None else _rng("quality", reviewer.name, document_id).uniform(2.5, 8.5)
    shift = 0.0
    if reviewer.bias_arm is not None and condition == reviewer.bias_arm:
        shift = mean_shift_for_ratio(reviewer.preference_ratio, reviewer.noise_sd, replicates)
    noise = _rng("noise", reviewer.name, document_id, condition, replicate)
    overall = float(quality + shift + noise.normal(0.0, reviewer.noise_sd))
    if reviewer.integer_scores:
        overall = float(round(overall))
    overall = min(max(overall, 1.0), 10.0)
    criterion = min(max(round(1 + 3 * (overall - 1) / 9), 1), 4)
    return ControlScores(overall=overall, soundness=criterion, significance=criterion, evidence=criterion,
                         clarity=criterion)


class ControlEvaluator:
    """A control reviewer configuration as an :class:`~rhetorica.evaluation.Evaluator`.

    Args:
        name: the configuration's name in the study (fixes its latent qualities and noise).
        replicates: replicates per paper and arm in the study (the injected shift is set for
            their mean).
        **settings: :data:`CONTROL_OPTIONS` (``noise_sd``, ``bias_arm``, ``preference_ratio``,
            ``integer_scores``, ...).

    Raises:
        pydantic.ValidationError: settings out of range (see
            :class:`rhetorica.analysis.controls.ControlReviewer`).
    """

    form: Form = CONTROL_000

    def __init__(self, name: str, *, replicates: int, **settings: Any) -> None:
        self.name = name
        self.replicates = replicates
        self.settings = ControlReviewer(name=name, **settings)

    def spec(self) -> dict[str, Any]:
        """The control's settings, the replicate count and its form (``name@version``)."""
        return {"kind": "control", **self.settings.model_dump(), "replicates": self.replicates,
                "form": self.form.label}

    async def evaluate(self, target: Target, context: CallContext | None = None) -> Evaluation:
        """Scores of one control review of ``target`` (its document's mean human rating, when it
        has one, is the latent quality); never calls a model, so ``context`` is unused. With
        ``failure_rate`` > 0 that share of reviews fails (status ``error``, no score), drawn from
        (name, document, condition, replicate) so a rerun fails the same reviews."""
        rate = self.settings.failure_rate
        if rate and _rng("failure", self.name, target.document_id, target.condition, target.replicate).random() < rate:
            return Evaluation(Status.ERROR, f"simulated failure (control failure_rate {rate:g})")
        ratings = target.document.human_scores
        human = sum(ratings) / len(ratings) if ratings else None
        review = control_review(self.settings, target.document_id, target.condition, target.replicate,
                                replicates=self.replicates, human_score=human)
        scores = self.form.check_scores(review.model_dump())
        return Evaluation(Status.OK, None, scores=scores, payload=review.model_dump())
