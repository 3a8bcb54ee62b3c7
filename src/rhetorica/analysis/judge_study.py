"""The review-metric study's analysis from a run's stored judgements (STUDIES.md §3; issue 13 part 4).

Input: the run's long ``scores`` table (one row per assessment x metric,
:func:`rhetorica.store.export.scores_long`), the study's reviewer configurations and each review's
paper id. Only reviewers of ``kind: judge`` enter. Naming: a metric is ``<family>.<metric>`` (the
family of the judge configuration, e.g. ``rottenreviews.overall_quality``), unique across
families; a *judge* is the judge configuration's model (so that one model's families form one
Bonferroni family of M metrics, as in the study), or the configuration's name when one model
scores the same family in two configurations.

Per judge, rewrite condition and metric, ``d = S(rewrite) − S(original)`` for every rewrite
(repeated judgements of one text averaged first), then the tests of
:mod:`rhetorica.analysis.equivalence` — Wilcoxon signed-rank, TOST with δ_m, Bonferroni
α = alpha / M over the judge's *content* metrics (``role="score"``; style-targeted and diagnostic
metrics are left out unless ``include_style``), the four-way class — at the pair level (each
rewrite one pair) and with d averaged per paper (or review) first
(:func:`rhetorica.analysis.clustered.clustered_reliability`); :func:`judge_study` returns both
and the metrics whose class differs. Agreement: for the first two judges, the number of metrics
classified the same (:func:`rhetorica.analysis.equivalence.judge_agreement`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from rhetorica.analysis.clustered import clustered_reliability, level_differences
from rhetorica.analysis.equivalence import judge_agreement

TABLE1_COLUMNS = ["condition", "judge", "metric", "family", "scale", "n_pairs", "mean_diff", "wilcoxon_p", "tost_p",
                  "bound", "alpha_bonferroni", "classification", "second_judge", "second_class", "agree"]


@dataclass
class JudgeStudy:
    """The study's analysis tables (empty frames when not computable; see ``unavailable``).

    Attributes:
        pairs: the pair table (``paper_id, document_id, variant, arm, judge, metric, score,
            status, condition``) of the classified metrics.
        reliability: pair-level classes, :data:`~rhetorica.analysis.equivalence.RELIABILITY_COLUMNS`
            plus ``condition``, ``family``, ``scale``.
        clustered: the same with d averaged per ``cluster`` unit first.
        differences: metrics whose class differs between the two (``judge, metric,
            class_pair, class_<cluster>, condition``).
        table1: the study's Table 1 (:data:`TABLE1_COLUMNS`): the first judge's rows, with the
            second judge's class and whether they agree.
        agreement: condition -> (judge a, judge b, metrics classified the same, metrics shared).
        unavailable: why nothing could be computed, or ``None``.
    """

    pairs: pd.DataFrame
    reliability: pd.DataFrame
    clustered: pd.DataFrame
    differences: pd.DataFrame
    table1: pd.DataFrame
    agreement: dict[str, tuple[str, str, int, int]] = field(default_factory=dict)
    unavailable: str | None = None


def judge_pairs(scores: pd.DataFrame, reviewers: list[dict[str, Any]], paper_ids: Mapping[str, str], *,
                include_style: bool = False) -> tuple[pd.DataFrame, dict[str, tuple[str, str, str]]]:
    """The pair table of the judge configurations' scores, and metric key -> (family, scale, role).

    Args:
        scores: the long scores table (columns ``document_id, condition, reviewer, model, status,
            metric, value, variant_key`` at least).
        reviewers: the study's reviewer configurations as dicts (``name, kind, model, options``).
        paper_ids: document id -> paper id (a review without one is its own paper).
        include_style: keep the style-targeted metrics.
    """
    from rhetorica.judges.families import get_family

    judges = {r["name"]: r for r in reviewers if r.get("kind") == "judge"}
    info: dict[str, tuple[str, str, str]] = {}
    columns = ["paper_id", "document_id", "variant", "arm", "judge", "metric", "score", "status", "condition"]
    if not judges or scores.empty:
        return pd.DataFrame(columns=columns), info
    pairs_of: dict[tuple[str, str], list[str]] = {}
    for name, spec in judges.items():
        pairs_of.setdefault((str(spec.get("model")), str(spec.get("options", {}).get("family"))), []).append(name)
    frames = []
    for name, spec in judges.items():
        family = get_family(str(spec.get("options", {}).get("family")))
        model = str(spec.get("model"))
        label = model if len(pairs_of[(model, family.name)]) == 1 else name
        keep = {m.name: m for m in family.form.metrics if m.role == "score" or (include_style and m.role == "style")}
        part = scores[(scores["reviewer"] == name) & scores["metric"].isin(list(keep))]
        for m in keep.values():
            info[f"{family.name}.{m.name}"] = (family.name, m.scale_text, m.role)
        frames.append(pd.DataFrame({
            "paper_id": part["document_id"].map(lambda d: paper_ids.get(d, d)),
            "document_id": part["document_id"],
            "variant": part["variant_key"].fillna("").astype(str),
            "arm": (part["condition"] != "original").map({True: "rewrite", False: "original"}),
            "judge": label, "metric": family.name + "." + part["metric"].astype(str),
            "score": part["value"], "status": part["status"], "condition": part["condition"]}))
    return pd.concat(frames, ignore_index=True)[columns], info


def judge_study(scores: pd.DataFrame, reviewers: list[dict[str, Any]], paper_ids: Mapping[str, str], *,
                alpha: float = 0.05, bounds: Mapping[str, float] | None = None, include_style: bool = False,
                cluster: str = "paper") -> JudgeStudy:
    """Classify every judged metric (see the module docstring).

    Args:
        scores, reviewers, paper_ids, include_style: as for :func:`judge_pairs`.
        alpha: family-wise level (Bonferroni over each judge's classified metrics).
        bounds: δ_m overrides keyed ``<family>.<metric>``.
        cluster: ``paper`` or ``review``.

    Raises:
        rhetorica.judges.families.FamilyError: an override names no classified metric, or is not > 0.
    """
    from rhetorica.judges.families import get_family

    pairs, info = judge_pairs(scores, reviewers, paper_ids, include_style=include_style)
    empty = pd.DataFrame()
    declared = {f"{fam}.{m}": b for fam in {v[0] for v in info.values()}
                for m, b in get_family(fam).equivalence_bounds().items()}
    delta = {k: declared[k] for k in info}
    for key, value in (bounds or {}).items():
        if key not in delta:
            from rhetorica.judges.families import FamilyError

            raise FamilyError(f"judge_analysis.bounds: no classified metric {key!r}; known: {', '.join(sorted(delta))}")
        delta[key] = float(value)
    ok = pairs[pairs["status"] == "ok"] if not pairs.empty else pairs
    conditions = sorted(set(ok["condition"]) - {"original"}) if not ok.empty else []
    if not conditions:
        return JudgeStudy(pairs, empty, empty, empty, pd.DataFrame(columns=TABLE1_COLUMNS),
                          unavailable="no judge scored both an original review and a rewrite of it")
    pair_rows, cluster_rows, diff_rows, tables, agreement = [], [], [], [], {}
    for condition in conditions:
        part = ok[ok["condition"].isin(["original", condition])]
        if part[part["arm"] == "rewrite"].empty:
            continue
        level = clustered_reliability(part, delta, level="pair", alpha=alpha)
        grouped = clustered_reliability(part, delta, level=cluster, alpha=alpha)  # type: ignore[arg-type]
        if level.empty:
            continue
        for frame in (level, grouped):
            frame["condition"] = condition
            frame["family"] = frame["metric"].map(lambda k: info[k][0])
            frame["scale"] = frame["metric"].map(lambda k: info[k][1])
        pair_rows.append(level)
        cluster_rows.append(grouped)
        diff = level_differences(level, grouped, ("pair", cluster))
        diff_rows.append(diff.assign(condition=condition))
        order = list(dict.fromkeys(pairs["judge"]))  # declaration order of the judges
        present = [j for j in order if j in set(level["judge"])]
        first = level[level["judge"] == present[0]].copy()
        first["second_judge"], first["second_class"], first["agree"] = None, None, None
        if len(present) > 1:
            found = judge_agreement(level, present[0], present[1])
            agreement[condition] = (present[0], present[1], found.n_same, found.n_metrics)
            other = level[level["judge"] == present[1]].set_index("metric")["classification"]
            first["second_judge"] = present[1]
            first["second_class"] = first["metric"].map(other)
            first["agree"] = first["second_class"].notna() & (first["second_class"] == first["classification"])
        tables.append(first)
    if not pair_rows:
        return JudgeStudy(pairs, empty, empty, empty, pd.DataFrame(columns=TABLE1_COLUMNS),
                          unavailable="no judge scored both an original review and a rewrite of it")
    table1 = pd.concat(tables, ignore_index=True)[TABLE1_COLUMNS]
    return JudgeStudy(pairs, pd.concat(pair_rows, ignore_index=True), pd.concat(cluster_rows, ignore_index=True),
                      pd.concat(diff_rows, ignore_index=True), table1, agreement)
