"""The options of a ``kind: judge`` reviewer configuration, checked when a study loads (no model
is built): the metric family, rubric overrides, packing (:mod:`rhetorica.judges.judge`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from rhetorica.forms import FormError
from rhetorica.judges.families import get_family
from rhetorica.registry import UnknownComponentError


class JudgeOptions(BaseModel):
    """The ``options`` of a ``kind: judge`` reviewer (documented by ``rhetorica schema``; checked by
    :func:`check_judge_options`)."""

    model_config = ConfigDict(extra="forbid")

    family: str = Field(description="a registered metric family (rhetorica list --kind 'metric family')")
    rubric_file: str | None = Field(default=None, description="the family's rubric, replacing the shipped one")
    metric_rubrics: dict[str, str] | None = Field(default=None, description="metric -> its own rubric file")
    packing: Literal["family", "metric"] = Field(default="family", description="one call per family or per metric")
    per_point_calls: bool = Field(default=False, description="a point family: one call per weakness point")
    model_options: dict[str, Any] | None = Field(default=None, description="provider options of the judge model")


JUDGE_OPTIONS = tuple(JudgeOptions.model_fields)


def check_judge_options(name: str, model: str | None, options: dict[str, Any]) -> None:
    """Check a ``kind: judge`` reviewer when the study loads, without building its model.

    Raises:
        ValueError: no ``model``, no or an unknown ``family``, an unknown option, a bad
            ``packing``, or a metric rubric for a metric the family lacks (the message names it).
    """

    if not model:
        raise ValueError(f"judge {name!r} needs a 'model'")
    unknown = sorted(set(options) - set(JUDGE_OPTIONS))
    if unknown:
        raise ValueError(f"options.{unknown[0]}: unknown option for judges (known: {', '.join(JUDGE_OPTIONS)}; "
                         "provider options go under options.model_options or the models: section)")
    if "family" not in options:
        raise ValueError(f"judge {name!r} needs options.family (one of the metric families: rhetorica list "
                         "--kind 'metric family')")
    try:
        family = get_family(str(options["family"]))
        for metric in options.get("metric_rubrics") or {}:
            family.form.metric(metric)
    except (UnknownComponentError, FormError) as exc:
        raise ValueError(str(exc)) from None
    if options.get("packing", "family") not in ("family", "metric"):
        raise ValueError(f"options.packing: must be 'family' or 'metric', got {options['packing']!r}")
