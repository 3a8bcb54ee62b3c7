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
α = alpha / M over the judge's declared *content* metrics (``role="score"``; style-targeted and
diagnostic metrics are left out unless ``include_style``; a declared metric without data stays in M), the four-way class — at the pair level (each
rewrite one pair) and with d averaged per paper (or review) first
(:func:`rhetorica.analysis.clustered.clustered_reliability`); :func:`judge_study` returns both
and the metrics whose class differs. A metric the data cannot classify is ``not_informative`` with
its reason (one score level throughout, a TOST that is not computable because every difference is
equal, or too few non-zero differences for the Wilcoxon test to reach α: :func:`rhetorica.analysis.equivalence.not_informative_reason`);
a robust metric that does not tell reviews apart is ``false_robustness`` (RobustReview's
discriminability across reviews with its interval: :func:`discrimination`, :func:`with_discrimination`).
Agreement: for the first two judges, the number of metrics
classified the same (:func:`rhetorica.analysis.equivalence.judge_agreement`).

Soft ratings (issue 27 §2): where judge configurations set ``soft_ratings: true``, a judgement
also carries each integer score's expected score ``<metric>.expected`` (the mean over the calls
or weakness points its score is made of, :mod:`rhetorica.judges.soft_ratings`). Table 1 then has
:data:`TABLE1_SOFT_COLUMNS` beside the integer tests: the same pairs with S the expected score
(repeated judgements averaged first; a judgement without one is left out, never imputed), the
Wilcoxon signed-rank p and the paired BCa bootstrap interval of the mean d
(:func:`rhetorica.analysis.soft.paired_soft_test`, as the reviewer comparison tables), and the
median d.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from rhetorica.analysis.clustered import clustered_reliability, level_differences, pair_differences
from rhetorica.analysis.discriminability import discriminability_interval
from rhetorica.analysis.equivalence import (FALSE_ROBUSTNESS, NOT_INFORMATIVE, RELIABILITY_COLUMNS, classes_agree,
                                            judge_agreement)
from rhetorica.analysis.soft import paired_soft_test
from rhetorica.forms import expected_metric
from rhetorica.labels import ORIGINAL
from rhetorica.judges.families import FamilyError, get_family
from rhetorica.judges.soft_ratings import rated_metrics

TABLE1_COLUMNS = ["condition", "judge", "metric", "family", "scale", "n_pairs", "wilcoxon_n", "mean_diff",
                  "wilcoxon_p", "tost_p", "bound", "alpha_bonferroni", "discriminability", "discriminability_low",
                  "discriminability_high", "classification", "reason", "second_judge", "second_class", "agree"]
"""Columns of Table 1: ``n_pairs`` the rewrites with both sides scored, ``wilcoxon_n`` the non-zero
differences the Wilcoxon test used, ``discriminability`` and its interval whether the metric tells
reviews apart (:data:`DISCRIMINATION_COLUMNS`), ``reason`` why a declared metric has no test, is
not informative or falsely robust (else missing)."""

DISCRIMINATION_COLUMNS = ["discriminability", "discriminability_low", "discriminability_high"]
"""Columns :func:`with_discrimination` adds: RobustReview's discriminability across the reviews
(:func:`rhetorica.analysis.discriminability.discriminability_interval`, the reviews in the role of
papers) and its percentile review-bootstrap interval at the study's α."""

CHANCE_MARGIN = 0.05
"""Discriminability up to 0.5 + this margin counts as chance (RobustReview's false-robustness
margin, :func:`rhetorica.analysis.robustness.robustness_table`)."""

TABLE1_SOFT_COLUMNS = ["soft_n_pairs", "soft_nonzero", "soft_median_diff", "soft_mean_diff", "soft_ci_low",
                       "soft_ci_high", "soft_wilcoxon_p"]
"""Columns Table 1 adds when some judgement carries expected scores: ``soft_n_pairs`` the rewrites
with an expected score on both sides, ``soft_nonzero`` their non-zero differences (the Wilcoxon
test's n), the median and mean d of expected scores, the mean's 95% paired BCa bootstrap interval
and the Wilcoxon p (NaN where not computable; ``soft_n_pairs`` 0 without an expected score, NaN for
a metric that has no soft rating: a count, a yes/no label, a share)."""

NOT_COMPUTABLE = "not computable"
"""Table 1's class of a declared metric without a usable pair (``n_pairs = 0``)."""


@dataclass
class JudgeStudy:
    """The study's analysis tables (empty frames when not computable; see ``unavailable``).

    Attributes:
        pairs: the pair table (:func:`judge_pairs`) of the classified metrics.
        reliability: pair-level classes, :data:`~rhetorica.analysis.equivalence.RELIABILITY_COLUMNS`
            (``reason`` included) plus :data:`DISCRIMINATION_COLUMNS`, ``condition``, ``family``,
            ``scale``: every declared metric of every judge, one without a test with
            ``n_pairs = 0``, class ``not computable`` and why.
        clustered: the same with d averaged per ``cluster`` unit first.
        differences: metrics whose class differs between the two (``judge, metric,
            class_pair, class_<cluster>, condition``).
        table1: the study's Table 1 (:data:`TABLE1_COLUMNS`, then :data:`TABLE1_SOFT_COLUMNS`
            when some judgement carries expected scores): the first judge's rows, with the second
            judge's class and whether they agree.
        agreement: condition -> (judge a, judge b, metrics classified the same, metrics both judges
            could classify: :func:`rhetorica.analysis.equivalence.classes_agree`).
        unavailable: why nothing could be computed, or ``None``.
        declared: judge label -> its declared classified metrics (:func:`declared_metrics`).
    """

    pairs: pd.DataFrame
    reliability: pd.DataFrame
    clustered: pd.DataFrame
    differences: pd.DataFrame
    table1: pd.DataFrame
    agreement: dict[str, tuple[str, str, int, int]] = field(default_factory=dict)
    unavailable: str | None = None
    declared: dict[str, list[str]] = field(default_factory=dict)


def judge_labels(reviewers: list[dict[str, Any]]) -> dict[str, str]:
    """Judge configuration name -> its judge label: the configuration's model, or the configuration's
    name when one model scores the same family in two configurations."""
    judges = {r["name"]: r for r in reviewers if r.get("kind") == "judge"}
    pairs_of: dict[tuple[str, str], list[str]] = {}
    for name, spec in judges.items():
        pairs_of.setdefault((str(spec.get("model")), str(spec.get("options", {}).get("family"))), []).append(name)
    return {name: str(spec.get("model")) if len(pairs_of[(str(spec.get("model")),
                                                           str(spec.get("options", {}).get("family")))]) == 1
            else name for name, spec in judges.items()}


def declared_metrics(reviewers: list[dict[str, Any]], *, include_style: bool = False) -> dict[str, list[str]]:
    """Judge label (:func:`judge_labels`) -> the ``<family>.<metric>`` keys its configurations were
    declared to classify, in declaration order: the Bonferroni family of that judge (M = its length),
    whether or not any of them produced a usable score."""

    out: dict[str, list[str]] = {}
    labels = judge_labels(reviewers)
    for spec in reviewers:
        if spec.get("kind") != "judge":
            continue
        family = get_family(str(spec.get("options", {}).get("family")))
        keys = out.setdefault(labels[spec["name"]], [])
        keys += [f"{family.name}.{m.name}" for m in family.form.metrics
                 if (m.role == "score" or (include_style and m.role == "style"))
                 and f"{family.name}.{m.name}" not in keys]
    return out


def judge_pairs(scores: pd.DataFrame, reviewers: list[dict[str, Any]], paper_ids: Mapping[str, str], *,
                include_style: bool = False) -> tuple[pd.DataFrame, dict[str, tuple[str, str, str]]]:
    """The pair table of the judge configurations' scores, and metric key -> (family, scale, role).

    The pair table has one row per judgement and classified metric: ``paper_id, document_id,
    variant, arm, judge, metric, score, status, condition, unit_key`` (the assessment; empty when
    ``scores`` has no ``unit_key``) and ``expected``, the judgement's expected score of the metric
    (``<metric>.expected``; NaN when it has none).

    Args:
        scores: the long scores table (columns ``document_id, condition, reviewer, model, status,
            metric, value, variant_key`` at least, ``unit_key`` for the expected scores).
        reviewers: the study's reviewer configurations as dicts (``name, kind, model, options``).
        paper_ids: document id -> paper id (a review without one is its own paper).
        include_style: keep the style-targeted metrics.
    """

    judges = {r["name"]: r for r in reviewers if r.get("kind") == "judge"}
    info: dict[str, tuple[str, str, str]] = {}
    columns = ["paper_id", "document_id", "variant", "arm", "judge", "metric", "score", "status", "condition",
               "unit_key", "expected"]
    labels = judge_labels(reviewers)
    for spec in judges.values():
        family = get_family(str(spec.get("options", {}).get("family")))
        for m in family.form.metrics:
            if m.role == "score" or (include_style and m.role == "style"):
                info[f"{family.name}.{m.name}"] = (family.name, m.scale_text, m.role)
    if not judges or scores.empty:
        return pd.DataFrame(columns=columns), info
    frames = []
    for name, spec in judges.items():
        family = get_family(str(spec.get("options", {}).get("family")))
        keep = [m.name for m in family.form.metrics if f"{family.name}.{m.name}" in info]
        mine = scores[scores["reviewer"] == name]
        part = mine[mine["metric"].isin(keep)]
        units = part["unit_key"].astype(str) if "unit_key" in part.columns else pd.Series("", index=part.index)
        soft = mine[mine["metric"].isin([expected_metric(m) for m in keep])]
        expected = dict(zip(zip(soft["unit_key"].astype(str), soft["metric"]), soft["value"])) \
            if len(soft) and "unit_key" in soft.columns else {}
        frames.append(pd.DataFrame({
            "paper_id": part["document_id"].map(lambda d: paper_ids.get(d, d)),
            "document_id": part["document_id"],
            "variant": part["variant_key"].fillna("").astype(str),
            "arm": (part["condition"] != ORIGINAL).map({True: "rewrite", False: ORIGINAL}),
            "judge": labels[name], "metric": family.name + "." + part["metric"].astype(str),
            "score": part["value"], "status": part["status"], "condition": part["condition"], "unit_key": units,
            "expected": [expected.get((u, expected_metric(m)), np.nan) for u, m in zip(units, part["metric"])]}))
    return pd.concat(frames, ignore_index=True)[columns], info


def no_test_reason(pairs: pd.DataFrame, judge: str, metric: str, condition: str) -> str:
    """Why (judge, metric) has no test under ``condition``: what its judgements in ``pairs`` were.

    Returns:
        One sentence: no stored judgement of a rewrite; every judgement failed (status counts);
        the metric missing from every ok judgement; or, when both sides have scores but never of
        the same review, how many reviews have only the original scored and how many only a
        rewrite (naming the missing side).
    """
    mine = pairs[(pairs["judge"] == judge) & (pairs["metric"] == metric)]
    rewrites = mine[(mine["arm"] == "rewrite") & (mine["condition"] == condition)]
    originals = mine[mine["arm"] == ORIGINAL]
    for side, rows in (("rewrite", rewrites), (ORIGINAL, originals)):
        if rows.empty:
            return f"no judgement of a{'n' if side == ORIGINAL else ''} {side} stored (not run)"
        ok = rows[rows["status"] == "ok"]
        if ok.empty:
            counts = rows["status"].value_counts()
            return f"every stored {side} judgement failed ({', '.join(f'{k} {v}' for k, v in counts.items())})"
        if ok["score"].isna().all():
            return f"metric missing from every ok {side} judgement"
    scored = {side: set(rows.loc[(rows["status"] == "ok") & rows["score"].notna(), "document_id"])
              for side, rows in (("rewrite", rewrites), (ORIGINAL, originals))}
    only_original = len(scored[ORIGINAL] - scored["rewrite"])
    only_rewrite = len(scored["rewrite"] - scored[ORIGINAL])
    return (f"no review scored on both sides: the rewrite missing for {only_original} review(s) whose original "
            f"was scored, the original missing for {only_rewrite} review(s) whose rewrite was scored")


def judge_study(scores: pd.DataFrame, reviewers: list[dict[str, Any]], paper_ids: Mapping[str, str], *,
                alpha: float = 0.05, bounds: Mapping[str, float] | None = None, include_style: bool = False,
                cluster: str = "paper", n_resamples: int = 2000, seed: int = 0) -> JudgeStudy:
    """Classify every judged metric (see the module docstring), and test expected scores where
    judgements carry them.

    The Bonferroni M of a judge is the number of metrics it was declared to classify
    (:func:`declared_metrics`), not the number that produced data: a family whose every answer
    failed keeps its place in M and appears in Table 1 with ``n_pairs = 0`` and its ``reason``.

    Args:
        scores, reviewers, paper_ids, include_style: as for :func:`judge_pairs`.
        alpha: family-wise level (Bonferroni over each judge's declared classified metrics).
        bounds: δ_m overrides keyed ``<family>.<metric>``.
        cluster: ``paper`` or ``review``.
        n_resamples, seed: of the soft ratings' bootstrap interval.

    Raises:
        rhetorica.judges.families.FamilyError: an override names no classified metric, or is not > 0.
    """

    pairs, info = judge_pairs(scores, reviewers, paper_ids, include_style=include_style)
    declared = declared_metrics(reviewers, include_style=include_style)
    n_tests = {judge: len(keys) for judge, keys in declared.items()}
    empty = pd.DataFrame()
    bounds_of = {f"{fam}.{m}": b for fam in {v[0] for v in info.values()}
                 for m, b in get_family(fam).equivalence_bounds().items()}
    delta = {k: bounds_of[k] for k in info}
    for key, value in (bounds or {}).items():
        if key not in delta:

            raise FamilyError(f"judge_analysis.bounds: no classified metric {key!r}; known: {', '.join(sorted(delta))}")
        delta[key] = float(value)
    conditions = sorted(set(pairs["condition"]) - {ORIGINAL}) if not pairs.empty else []
    ok = pairs[pairs["status"] == "ok"] if not pairs.empty else pairs
    soft = bool(ok["expected"].notna().any()) if not ok.empty else False
    rated = {f"{fam}.{m}" for fam in {v[0] for v in info.values()} for m in rated_metrics(get_family(fam))}
    if ok.empty or not conditions or ok[ok["arm"] == "rewrite"].empty:
        return JudgeStudy(pairs, empty, empty, empty, pd.DataFrame(columns=TABLE1_COLUMNS), declared=declared,
                          unavailable="no judge scored both an original review and a rewrite of it")
    pair_rows, cluster_rows, diff_rows, tables, agreement = [], [], [], [], {}
    order = list(declared)  # declaration order of the judges
    for condition in conditions:
        part = ok[ok["condition"].isin([ORIGINAL, condition])]
        if part[part["arm"] == "rewrite"].empty:
            level = grouped = pd.DataFrame(columns=[*RELIABILITY_COLUMNS, "level"])
        else:
            level = clustered_reliability(part, delta, level="pair", alpha=alpha, n_tests=n_tests)
            grouped = clustered_reliability(part, delta, level=cluster, alpha=alpha,  # type: ignore[arg-type]
                                            n_tests=n_tests)
            found = discrimination(part, alpha=alpha, n_resamples=n_resamples, seed=seed)
            level, grouped = with_discrimination(level, found, alpha), with_discrimination(grouped, found, alpha)
        for frame in (level, grouped):
            frame["condition"] = condition
            frame["family"] = frame["metric"].map(lambda k: info[k][0])
            frame["scale"] = frame["metric"].map(lambda k: info[k][1])
        cluster_rows.append(grouped)
        diff = level_differences(level, grouped, ("pair", cluster))
        diff_rows.append(diff.assign(condition=condition))
        first = _declared_rows(level, pairs, order[0], declared[order[0]], condition, info,
                               alpha / max(1, n_tests[order[0]]))
        first["second_judge"], first["second_class"], first["agree"] = None, None, None
        if len(order) > 1:
            if {order[0], order[1]} <= set(level["judge"]):
                found = judge_agreement(level, order[0], order[1])
                agreement[condition] = (order[0], order[1], found.n_same, found.n_classified)
            else:  # a judge without a single test: no metric shared
                agreement[condition] = (order[0], order[1], 0, 0)
            other = level[level["judge"] == order[1]].set_index("metric")["classification"]
            first["second_judge"] = order[1]
            first["second_class"] = first["metric"].map(other)
            first["agree"] = pd.Series([classes_agree(x, y) for x, y in zip(first["classification"],
                                                                            first["second_class"], strict=True)],
                                       index=first.index, dtype=object)  # None: nothing compared
        if soft:
            first = with_soft_tests(first, part, rated, n_resamples=n_resamples, seed=seed)
        tables.append(first)
        pair_rows.append(_with_untested(level, pairs, declared, condition, info, alpha, n_tests))
    table1 = pd.concat(tables, ignore_index=True)[TABLE1_COLUMNS + (TABLE1_SOFT_COLUMNS if soft else [])]
    return JudgeStudy(pairs, pd.concat(pair_rows, ignore_index=True), pd.concat(cluster_rows, ignore_index=True),
                      pd.concat(diff_rows, ignore_index=True), table1, agreement, declared=declared)


def _declared_rows(level: pd.DataFrame, pairs: pd.DataFrame, judge: str, metrics: list[str], condition: str,
                   info: Mapping[str, tuple[str, str, str]], alpha_m: float) -> pd.DataFrame:
    """Table 1's rows of ``judge`` under ``condition``: one per declared metric, in declaration
    order; a metric without a test has ``n_pairs = 0``, class ``not computable`` and its reason."""
    tested = level[level["judge"] == judge].set_index("metric")
    rows = [tested.loc[metric].to_dict() | {"metric": metric} if metric in tested.index
            else _untested_row(pairs, judge, metric, condition, info, alpha_m) for metric in metrics]
    return pd.DataFrame(rows).reindex(columns=[c for c in TABLE1_COLUMNS if c not in
                                               ("second_judge", "second_class", "agree")])


def _untested_row(pairs: pd.DataFrame, judge: str, metric: str, condition: str,
                  info: Mapping[str, tuple[str, str, str]], alpha_m: float) -> dict[str, Any]:
    """The row of a declared metric without a test: ``n_pairs = 0``, class ``not computable``,
    the reason (:func:`no_test_reason`)."""
    return {"judge": judge, "metric": metric, "n_pairs": 0, "wilcoxon_n": 0, "alpha_bonferroni": alpha_m,
            "classification": NOT_COMPUTABLE, "condition": condition, "family": info[metric][0],
            "scale": info[metric][1], "reason": no_test_reason(pairs, judge, metric, condition)}


def _with_untested(level: pd.DataFrame, pairs: pd.DataFrame, declared: Mapping[str, list[str]], condition: str,
                   info: Mapping[str, tuple[str, str, str]], alpha: float, n_tests: Mapping[str, int],
                   ) -> pd.DataFrame:
    """The pair-level classification of one condition with a ``reason`` column, and a row
    (:func:`_untested_row`, ``level = pair``) for every declared metric of every judge that has no
    test: a judge whose every judgement failed appears with n = 0 and why, never left out."""
    tested = set(zip(level["judge"], level["metric"]))
    missing = [_untested_row(pairs, judge, metric, condition, info, alpha / max(1, n_tests[judge])) | {"level": "pair"}
               for judge, metrics in declared.items() for metric in metrics if (judge, metric) not in tested]
    out = level
    return pd.concat([out, pd.DataFrame(missing, columns=list(out.columns))], ignore_index=True) if missing else out


def discrimination(pairs: pd.DataFrame, *, alpha: float = 0.05, n_resamples: int = 2000,
                   seed: int = 0) -> dict[tuple[str, str], tuple[float, float, float]]:
    """Does each (judge, metric) tell different reviews apart? RobustReview's discriminability
    (:func:`rhetorica.analysis.discriminability.discriminability_interval`) with the reviews in the
    role of papers: over the review pairs ordered by the judge's mean score of their originals,
    the probability that a rewrite of the higher-scored review scores above a rewrite of the other
    (ties 1/2; 0.5 = chance), with its percentile bootstrap interval over reviews.

    Args:
        pairs: the pair table of one condition and the originals (ok rows used).
        alpha: two-sided level of the interval.
        n_resamples, seed: of the bootstrap.

    Returns:
        (judge, metric) -> ``(point, low, high)`` in [0, 1], NaN with fewer than two reviews
        having both an original and a rewrite scored.
    """
    t = pairs[pairs["status"] == "ok"] if "status" in pairs.columns else pairs
    t = t.assign(score=pd.to_numeric(t["score"], errors="coerce")).dropna(subset=["score"])
    out: dict[tuple[str, str], tuple[float, float, float]] = {}
    for (judge, metric), part in t.groupby(["judge", "metric"], sort=True):
        original = part[part["arm"] == ORIGINAL].groupby("document_id")["score"].mean()
        rewrites = part[part["arm"] == "rewrite"].groupby(["document_id", "variant"])["score"].mean()
        reviews = original.index
        rewrites = rewrites[rewrites.index.get_level_values("document_id").isin(reviews)]
        position = reviews.get_indexer(rewrites.index.get_level_values("document_id"))
        out[(str(judge), str(metric))] = discriminability_interval(
            original.to_numpy(dtype=float), rewrites.to_numpy(dtype=float), position, alpha=alpha,
            n_resamples=n_resamples, seed=seed)
    return out


def with_discrimination(frame: pd.DataFrame, found: Mapping[tuple[str, str], tuple[float, float, float]],
                        alpha: float = 0.05) -> pd.DataFrame:
    """``frame`` (classification rows with ``judge, metric, classification, reason``) with
    :data:`DISCRIMINATION_COLUMNS` from ``found`` (:func:`discrimination`), and every robust class
    (``robust``, ``sensitive_and_robust``) checked against it:

    - discriminability not computable (no pair of reviews whose originals differ: fewer than two
      reviews with both sides scored, or every original tied): the class
      becomes ``not_informative`` (stability of a metric that cannot be seen to vary across reviews
      shows nothing);
    - interval's lower end at or below chance + :data:`CHANCE_MARGIN`: the class becomes
      ``false_robustness`` (stable because the metric does not tell reviews apart), with the
      interval in ``reason``.
    """
    out = frame.copy()
    values = [found.get((str(j), str(m)), (np.nan, np.nan, np.nan)) for j, m in zip(out["judge"], out["metric"])]
    for i, column in enumerate(DISCRIMINATION_COLUMNS):
        out[column] = [v[i] for v in values]
    conf = f"{100 * (1 - alpha):g}%"
    for row, (point, low, high) in zip(out.index, values):
        if out.at[row, "classification"] not in ("robust", "sensitive_and_robust"):
            continue
        if not np.isfinite(point):
            out.at[row, "classification"] = NOT_INFORMATIVE
            out.at[row, "reason"] = ("robust by TOST, but whether the metric tells reviews apart is not computable "
                                     "(no pair of reviews with different original scores among those with an "
                                     "original and a rewrite scored)")
        elif low <= 0.5 + CHANCE_MARGIN:
            out.at[row, "classification"] = FALSE_ROBUSTNESS
            out.at[row, "reason"] = (f"robust by TOST, but discriminability {point:.2f} ({conf} interval "
                                     f"[{low:.2f}, {high:.2f}]) does not exceed chance 0.5 + {CHANCE_MARGIN:g}: "
                                     "the metric does not tell reviews apart")
    return out


def soft_differences(pairs: pd.DataFrame) -> pd.DataFrame:
    """``d`` of expected scores per judge, metric and rewrite: :func:`rhetorica.analysis.clustered.pair_differences`
    of the pair table with S the expected score (judgements without one left out).

    Returns:
        DataFrame ``judge, metric, paper_id, document_id, variant, d``.
    """
    return pair_differences(pairs.assign(score=pairs["expected"]))


def with_soft_tests(rows: pd.DataFrame, pairs: pd.DataFrame, rated: set[str], *, n_resamples: int = 2000,
                    seed: int = 0) -> pd.DataFrame:
    """``rows`` (Table 1 rows of one condition: ``judge``, ``metric``) with
    :data:`TABLE1_SOFT_COLUMNS` from the pair table ``pairs`` of that condition and the originals;
    every soft column NaN for a metric outside ``rated`` (no soft rating:
    :func:`rhetorica.judges.soft_ratings.rated_metrics`).

    Per row, the rewrites' ``d`` of expected scores (:func:`soft_differences`): their number,
    non-zero ones, median, and :func:`rhetorica.analysis.soft.paired_soft_test` of ``d`` against 0
    (Wilcoxon signed-rank p, mean and BCa interval, ``n_resamples`` and ``seed``).
    """
    diffs = soft_differences(pairs)
    grouped = {key: part["d"].to_numpy(dtype=float) for key, part in diffs.groupby(["judge", "metric"])}
    found = []
    for judge, metric in zip(rows["judge"], rows["metric"]):
        if metric not in rated:
            found.append(dict.fromkeys(TABLE1_SOFT_COLUMNS, np.nan))
            continue
        d = grouped.get((judge, metric), np.array([]))
        test = paired_soft_test(d, np.zeros(len(d)), n_resamples=n_resamples, seed=seed)
        found.append({"soft_n_pairs": len(d), "soft_nonzero": int(np.count_nonzero(d)),
                      "soft_median_diff": float(np.median(d)) if len(d) else np.nan,
                      "soft_mean_diff": test["soft_mean_diff"], "soft_ci_low": test["soft_ci_low"],
                      "soft_ci_high": test["soft_ci_high"], "soft_wilcoxon_p": test["wilcoxon_p"]})
    return pd.concat([rows.reset_index(drop=True), pd.DataFrame(found, columns=TABLE1_SOFT_COLUMNS)], axis=1)
