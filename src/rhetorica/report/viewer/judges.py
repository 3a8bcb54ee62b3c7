"""Judge metrics in the viewer: a review-quality judge configuration (``kind: judge``, issue 13)
scores one metric family (:mod:`rhetorica.judges.families`), and the viewer names its metrics
``family.metric`` as the report's Table 1 does, so that a filter on ``rottenreviews.constructiveness``
is not mixed up with ScholarPeer's ``constructiveness``.

- :class:`JudgeMetrics` maps the study's judge configurations to their families, labels the
  stored (bare) metric names, lists the overview's metric choices and resolves a chosen
  ``family.metric`` into the stored metric and the judge configurations that score it;
- :func:`judge_tables` is the paper page's judge section for a review document: per family, per
  judge configuration and replicate, one row per metric of the family (in the family's declared
  order) with each version's score and its change against the original.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rhetorica.judges.families import MetricFamily, get_family
from rhetorica.judges.kind import judge_options
from rhetorica.registry import UnknownComponentError
from rhetorica.report.data import fmt
from rhetorica.store import viewer_queries as q
from rhetorica.study.config import StudyConfig
from rhetorica.wording import fixed


@dataclass(frozen=True)
class JudgeMetrics:
    """The study's judge configurations and their metric families.

    Attributes:
        families: judge configuration name -> its family (reviewers of ``kind: judge`` in the
            study copy; one whose family is not registered is left out and shows in the generic
            grid only).
        others: whether the study has reviewers that are not judges (their metrics keep the
            stored names).
    """

    families: dict[str, MetricFamily]
    others: bool = False

    @classmethod
    def of_study(cls, study: StudyConfig) -> JudgeMetrics:
        """From the run's study: its judge configurations (:func:`rhetorica.judges.kind.judge_options`)
        with their ``options.family``."""
        families: dict[str, MetricFamily] = {}
        others = False
        for reviewer in study.reviewers:
            options = judge_options(reviewer)
            if options is None:
                others = True
                continue
            try:
                families[reviewer.name] = get_family(options.family)
            except UnknownComponentError:
                continue
        return cls(families, others)

    def label(self, reviewer: str, metric: str) -> str:
        """``family.metric`` for a judge's own metric, the stored name otherwise."""
        family = self.families.get(reviewer)
        return f"{family.name}.{metric}" if family is not None and metric in family.form.metric_names else metric

    def choices(self, stored: list[str]) -> list[str]:
        """The overview's metric choices from the stored metric names: each judge family's metric as
        ``family.metric``, a stored name as is when no judge family has it or the study has other
        reviewers; sorted."""
        out: set[str] = set()
        for metric in stored:
            qualified = {f"{f.name}.{metric}" for f in self.families.values() if metric in f.form.metric_names}
            out |= qualified
            if not qualified or self.others:
                out.add(metric)
        return sorted(out)

    def resolve(self, value: str | None) -> tuple[str | None, tuple[str, ...] | None]:
        """A chosen metric as ``(stored metric, judge configurations)``: ``family.metric`` of a judge
        family in the study -> the bare metric and that family's judges; anything else -> itself
        and no restriction (``None``)."""
        if value is None or "." not in value:
            return value, None
        family, _, metric = value.partition(".")
        judges = tuple(sorted(r for r, f in self.families.items()
                              if f.name == family and metric in f.form.metric_names))
        return (metric, judges) if judges else (value, None)

    def qualify(self, metric: str | None, choices: list[str]) -> str | None:
        """A bare metric (the forms' primary one) as the one choice that names it ``family.metric``,
        when it is not a choice itself."""
        if metric is None or metric in choices:
            return metric
        named = [c for c in choices if c.endswith("." + metric)]
        return named[0] if len(named) == 1 else metric


def _delta(value: float | None, original: float | None) -> str:
    if value is None or original is None:
        return "–"
    change = value - original
    return "0.00" if abs(change) < 5e-13 else fixed(change, 2, signed=True)


def judge_tables(judges: JudgeMetrics, assessments: list[dict[str, Any]], scores: dict[str, dict[str, float]],
                 versions: list[str]) -> list[dict[str, Any]]:
    """The judge section of a review document's page.

    Args:
        judges: the study's judge configurations.
        assessments: the document's assessment rows, each with its version ``label``.
        scores: unit key -> metric -> value (the stored scores of those assessments).
        versions: the page's version labels, ``original`` first.

    Returns:
        One dict per family (by family name): ``family``, ``title``, ``citation`` and ``tables``,
        one per judge configuration x replicate: ``judge``, ``replicate``, ``versions`` (the
        versions it scored, original first) and ``rows`` per metric of the family: ``metric``
        (``family.metric``), ``role``, ``scale`` (as in Table 1) and ``cells`` per version — ``value`` (the score,
        or the failed assessment's status, never a number), ``delta`` (version − original on the
        metric's scale, signed; ``–`` when either is missing; empty for the original) and
        ``failed``.
    """
    by_judge: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    for a in assessments:
        if a["reviewer"] in judges.families:
            by_judge.setdefault((a["reviewer"], a["replicate"]), {})[a["label"]] = a
    families: dict[str, dict[str, Any]] = {}
    for (judge, replicate), found in sorted(by_judge.items()):
        family = judges.families[judge]
        shown = [v for v in versions if v in found]
        original = found.get(q.ORIGINAL)
        base = scores.get(original["unit_key"], {}) if original and original["status"] == "ok" else {}
        rows = []
        for metric in family.form.metrics:
            cells = []
            for version in shown:
                a = found[version]
                ok = a["status"] == "ok"
                value = scores.get(a["unit_key"], {}).get(metric.name) if ok else None
                cells.append({"value": fmt(value) if ok else a["status"], "failed": not ok,
                              "delta": "" if version == q.ORIGINAL else _delta(value, base.get(metric.name))})
            rows.append({"metric": f"{family.name}.{metric.name}", "role": metric.role, "scale": metric.scale_text,
                         "cells": cells})
        entry = families.setdefault(family.name, {"family": family.name, "title": family.title,
                                                  "citation": family.citation, "tables": []})
        entry["tables"].append({"judge": judge, "replicate": replicate, "versions": shown, "rows": rows})
    return [families[name] for name in sorted(families)]
