"""Paired comparisons of two arms on the same papers (the 'Style over Substance' study, Table 4).

For each reviewer configuration, every paper scored under both arms is one pair. Papers are the
independent unit: replicates are first averaged within (reviewer, paper, arm). Only ``ok``
assessments carry scores; a paper with no ``ok`` score in an arm is missing there (never imputed)
and is counted in the ``missing_*`` columns, not in the pairs.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd

from rhetorica.analysis.arms import combine_arm, default_pairs
from rhetorica.analysis.tidy import CRITERIA, ok_scores, primary_metric, require_columns
from rhetorica.scorecard_thresholds import DECISION_THRESHOLD
from scipy.stats import binom, binomtest

__all__ = [
    "COMPARISON_COLUMNS",
    "MAGNITUDE_COLUMNS",
    "compare_arms",
    "comparison_table",
    "criterion_table",
    "default_pairs",
    "difference_magnitude",
    "paper_scores",
    "sign_test",
    "sign_test_pvalues",
]

KEYS = ["reviewer", "document_id", "arm"]

COMPARISON_COLUMNS = [
    "reviewer",
    "first",
    "second",
    "given",
    "score",
    "n_pairs",
    "pct_first_higher",
    "pct_second_higher",
    "pct_tie",
    "preference_ratio",
    "sign_test_p",
    "flips_first_accept_pct",
    "flips_second_accept_pct",
    "mean_first",
    "mean_second",
    "missing_first",
    "missing_second",
    "missing_both",
]

MAGNITUDE_COLUMNS = [
    "reviewer",
    "first",
    "second",
    "given",
    "score",
    "n_pairs",
    "mean_diff",
    "mean_abs_diff",
    "share_within_1",
    "share_ge_2",
]


def sign_test_pvalues(n_first: npt.ArrayLike, n_second: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Vectorised exact two-sided sign test: :func:`sign_test` over arrays of counts.

    For H0 p = 1/2 the binomial distribution is symmetric, so ``scipy.stats.binomtest``'s two-sided
    p-value equals ``min(1, 2 * Binom(n, 1/2).cdf(min(k, n - k)))``; that closed form is evaluated
    with ``scipy.stats.binom`` over whole arrays here because the power simulations
    (:mod:`rhetorica.analysis.power`) need millions of tests (equality with ``binomtest`` is tested
    on every count up to n = 60).

    Args:
        n_first: counts of pairs where the first arm scored higher (non-negative integers).
        n_second: counts where the second arm scored higher; broadcast against ``n_first``.

    Returns:
        Array of p-values in (0, 1]; NaN where both counts are 0 (no untied pair: the test is
        not computable, :func:`sign_test`).

    Raises:
        ValueError: on a negative or non-integer count.
    """
    a = np.asarray(n_first)
    b = np.asarray(n_second)
    for name, arr in (("n_first", a), ("n_second", b)):
        if arr.size and (np.any(arr < 0) or np.any(np.asarray(arr, dtype=float) % 1 != 0)):
            raise ValueError(f"sign test: {name} must hold non-negative integers, got {arr}")

    n = a + b
    p = 2.0 * binom.cdf(np.minimum(a, b), n, 0.5)
    return np.where(n == 0, np.nan, np.minimum(1.0, p)).astype(float)


def sign_test(n_first: int, n_second: int) -> float:
    """Exact two-sided binomial sign test with ties excluded: ``scipy.stats.binomtest``.

    Under H0 each untied pair favours either arm with probability 1/2 (Dixon & Mood 1946, "The
    statistical sign test", JASA 41(236); the test of the 'Style over Substance' study, Table 4):
    ``binomtest(n_first, n_first + n_second, 0.5).pvalue``. With no untied pair the binomial
    has no trial: the test is not computable and the p-value is NaN (a p of 1 would read as "no
    difference found" where nothing was tested).

    Args:
        n_first: pairs where the first arm scored higher (>= 0).
        n_second: pairs where the second arm scored higher (>= 0).

    Returns:
        Two-sided p-value in (0, 1], NaN when ``n_first + n_second = 0``. Example: 8 vs 2 gives
        0.109375.

    Raises:
        ValueError: on a negative or non-integer count.
    """

    for name, value in (("n_first", n_first), ("n_second", n_second)):
        if value < 0 or float(value) % 1 != 0:
            raise ValueError(f"sign test: {name} must be a non-negative integer, got {value}")
    n = int(n_first) + int(n_second)
    return math.nan if n == 0 else float(binomtest(int(n_first), n, 0.5).pvalue)


def _unique_keys(key: npt.NDArray[np.int64], space: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """``numpy.unique(key, return_inverse=True)`` for keys in ``[0, space)``: by counting when the
    key space is at most a few times the number of keys (linear time), by sorting otherwise."""
    if space > 4 * len(key) + 1024:
        return np.unique(key, return_inverse=True)
    present = np.bincount(key, minlength=space) > 0
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present), rank[key]


def paper_scores(df: pd.DataFrame, score: str | None = None) -> pd.DataFrame:
    """Average ``ok`` replicates within (reviewer, document_id, arm).

    Args:
        df: tidy assessments (columns ``reviewer``, ``document_id``, ``arm``, ``status``,
            ``unit_key`` and ``score``).
        score: score column to average (``overall`` 1-10, a 1-4 criterion, ``confidence`` 1-5,
            or any numeric column).

    Returns:
        One row per (reviewer, document_id, arm) that occurs in ``df`` with columns
        ``reviewer, document_id, arm, <score>, n_ok, n_assessments``; ``<score>`` is the mean over
        ``ok`` replicates with a score (NaN when there is none), ``n_ok`` the number of those
        replicates, ``n_assessments`` all rows of the group whatever their status.

    Raises:
        ValueError: if a column is missing, a key (reviewer, document_id, arm) is null, or an
            ``ok`` score is out of range.
    """
    score = score or primary_metric(df)
    require_columns(df, [*KEYS, "status", score])
    values = ok_scores(df, score)
    return paper_frame(key_groups(df), values.to_numpy(), score)


class KeyGroups(NamedTuple):
    """The (reviewer, document_id, arm) groups of a tidy table's rows, in sorted key order."""

    groups: npt.NDArray[np.int64]  # (G,) combined code of each group (ascending)
    inverse: npt.NDArray[np.intp]  # (N,) group of each row
    uniques: tuple[pd.Index, ...]  # sorted distinct values of each key column

    def keys(self) -> dict[str, object]:
        """Each key column's value per group (a typed key column is taken as it is; object keys go
        through pandas' inference when put in a frame)."""
        out = {}
        rest = self.groups
        for k, u in reversed(list(zip(KEYS, self.uniques))):
            rest, code = np.divmod(rest, len(u))
            out[k] = _take(u, code)
        return {k: out[k] for k in KEYS}


def _take(u: pd.Index, code: npt.NDArray[np.int64]) -> object:
    """The key values ``u[code]``: a typed key column's values as they are, object keys as an object
    array (pandas infers their type where they are put in a frame or an index)."""
    return np.asarray(u, dtype=object)[code] if u.dtype == object else u.take(code)


_last_grouping: list[tuple[tuple[object, ...], KeyGroups]] = []
_grouping_lock = threading.Lock()


def _immutable_keys(df: pd.DataFrame) -> tuple[object, ...] | None:
    """The pyarrow arrays under the key columns when all three are Arrow-backed (pandas' default
    ``str`` columns with pyarrow installed), else None. A pyarrow array never changes: setting a
    value of such a column gives the column a new array."""
    arrays = [df[k].array for k in KEYS]
    if not all(isinstance(a, pd.arrays.ArrowExtensionArray) for a in arrays):
        return None
    return tuple(a.__arrow_array__() for a in arrays)


def key_groups(df: pd.DataFrame) -> KeyGroups:
    """Group the rows of ``df`` by (reviewer, document_id, arm), by integer codes of the sorted key
    values (much faster than a string groupby).

    The grouping of the last table with Arrow-backed key columns is kept (with those columns' arrays;
    one grouping only): every table of a report groups the same assessments, and a table whose key
    columns are the very same immutable arrays is grouped once.

    Raises:
        ValueError: if a key is null (naming the first such assessment).
    """
    arrays = _immutable_keys(df)
    with _grouping_lock:
        if arrays is not None and _last_grouping and len(_last_grouping[0][0]) == len(arrays) and all(
            a is b for a, b in zip(_last_grouping[0][0], arrays)
        ):
            return _last_grouping[0][1]
    groups = _key_groups(df)
    if arrays is not None:
        with _grouping_lock:
            _last_grouping[:] = [(arrays, groups)]
    return groups


def _key_groups(df: pd.DataFrame) -> KeyGroups:
    """:func:`key_groups`, computed."""
    codes, uniques = zip(*(pd.factorize(df[k], sort=True) for k in KEYS))
    for k, c in zip(KEYS, codes):
        if (c < 0).any():
            first = df.loc[c < 0].iloc[0]
            where = first["unit_key"] if "unit_key" in df.columns else first.name
            raise ValueError(f"assessment {where!r}: column {k!r} is missing")
    key = np.zeros(len(df), dtype=np.int64)
    for c, u in zip(codes, uniques):
        key = key * len(u) + c
    groups, inverse = _unique_keys(key, int(np.prod([len(u) for u in uniques], dtype=float)))
    groups.flags.writeable = inverse.flags.writeable = False  # shared by the tables of one report
    return KeyGroups(groups, inverse, tuple(uniques))


def paper_frame(g: KeyGroups, v: npt.NDArray[np.float64], score: str) -> pd.DataFrame:
    """:func:`paper_scores` of the row values ``v`` (``(N,)``, NaN = no ``ok`` score) grouped by ``g``
    (:func:`key_groups`), the column named ``score``."""
    mean, n_ok = _group_means(g, v)
    size = np.bincount(g.inverse, minlength=len(g.groups))
    return pd.DataFrame(
        {
            **g.keys(),
            score: mean,
            "n_ok": n_ok.astype(int),
            "n_assessments": size.astype(int),
        }
    )


def _group_means(g: KeyGroups, v: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Mean of the non-NaN ``v`` of each group (NaN for none) and their number, ``(G,)`` each."""
    has = ~np.isnan(v)
    n = len(g.groups)
    n_ok = np.bincount(g.inverse, weights=has, minlength=n)
    total = np.bincount(g.inverse, weights=np.where(has, v, 0.0), minlength=n)
    mean = np.full(n, np.nan)
    np.divide(total, n_ok, out=mean, where=n_ok > 0)
    return mean, n_ok


def _per_pair(
    total: npt.NDArray[np.float64], n: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """``total / n`` with NaN where there is no pair."""
    out = np.full(n.shape, np.nan)
    np.divide(total, n, out=out, where=n > 0)
    return out


class WideScores(NamedTuple):
    """Paper scores in wide form: one row per (reviewer, document_id), one column per arm."""

    table: pd.DataFrame
    codes: npt.NDArray[np.intp]
    reviewers: list[str]

    def column(self, arm: str) -> npt.NDArray[np.float64]:
        """Scores of ``arm`` aligned with the rows (NaN where missing)."""
        return self.table[arm].to_numpy(dtype=float)

    def per_reviewer(self, values: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Sum of ``values`` (one per row) for each reviewer, in ``reviewers`` order."""
        weights = np.asarray(values, dtype=float)
        return np.bincount(self.codes, weights=weights, minlength=len(self.reviewers)).astype(float)


def wide_scores(ps: pd.DataFrame, score: str) -> WideScores:
    """Pivot :func:`paper_scores` output to :class:`WideScores` (reviewers sorted)."""
    table = ps.pivot(index=["reviewer", "document_id"], columns="arm", values=score)
    reviewers = sorted(pd.unique(ps["reviewer"]))
    codes = pd.Categorical(
        table.index.get_level_values("reviewer"), categories=reviewers
    ).codes.astype(np.intp)
    return WideScores(table, codes, reviewers)


def grouped_wide_scores(g: KeyGroups, v: npt.NDArray[np.float64]) -> WideScores:
    """``wide_scores(paper_frame(g, v, score), score)`` placed straight from the group codes, without
    a frame of paper scores and a pivot of its string keys: the same rows (every (reviewer,
    document_id) with a group, sorted), columns (the arms with a group, sorted, named ``arm``) and
    values (:func:`paper_frame`'s means, NaN where a paper has no ``ok`` score or no group)."""
    mean, _ = _group_means(g, v)
    reviewers, documents, arms = g.uniques
    row_key, arm_code = np.divmod(g.groups, len(arms))
    rows, row = _unique_keys(row_key, len(reviewers) * len(documents))
    present, column = _unique_keys(arm_code, len(arms))
    values = np.full((len(rows), len(present)), np.nan)
    values[row, column] = mean
    reviewer_code, document_code = np.divmod(rows, len(documents))
    index = pd.MultiIndex.from_arrays(
        [pd.Index(_take(reviewers, reviewer_code)), pd.Index(_take(documents, document_code))],
        names=["reviewer", "document_id"],
    )
    table = pd.DataFrame(values, index=index, columns=pd.Index(_take(arms, present), name="arm"))
    names = sorted(pd.unique(reviewers.take(np.unique(reviewer_code))))
    codes = pd.Categorical(table.index.get_level_values("reviewer"), categories=names).codes.astype(np.intp)
    return WideScores(table, codes, names)


def wide_paper_scores(df: pd.DataFrame, score: str) -> WideScores:
    """``wide_scores(paper_scores(df, score), score)`` (the same checks and errors)."""
    require_columns(df, [*KEYS, "status", score])
    values = ok_scores(df, score).to_numpy()
    return grouped_wide_scores(key_groups(df), values)


def _resolve(arms: Sequence[str], first: str, second: str, given: str | None) -> tuple[str, str]:
    if given is not None:
        first, second = combine_arm(first, given, arms), combine_arm(second, given, arms)
    for arm in (first, second):
        if arm not in arms:
            raise ValueError(f"arm {arm!r} is not in the data; arms present: {sorted(arms)}")
    if first == second:
        raise ValueError(f"cannot compare arm {first!r} with itself")
    return first, second


def _compare(
    w: WideScores,
    first: str,
    second: str,
    *,
    score: str,
    threshold: float,
    given: str | None,
) -> pd.DataFrame:
    arm_a, arm_b = _resolve(list(w.table.columns), first, second, given)
    a, b = w.column(arm_a), w.column(arm_b)
    has_a, has_b = ~np.isnan(a), ~np.isnan(b)
    paired = has_a & has_b
    n = w.per_reviewer(paired)

    def count(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        return w.per_reviewer(paired & mask)

    with np.errstate(invalid="ignore"):
        wins, losses, ties = count(a > b), count(a < b), count(a == b)
        flip_a = count((a > threshold) & (b <= threshold))
        flip_b = count((b > threshold) & (a <= threshold))
    pct_a, pct_b = 100.0 * _per_pair(wins, n), 100.0 * _per_pair(losses, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(pct_b > 0, pct_a / pct_b, np.where(pct_a > 0, np.inf, np.nan))
    out = pd.DataFrame(
        {
            "reviewer": w.reviewers,
            "first": first,
            "second": second,
            "given": given,
            "score": score,
            "n_pairs": n.astype(int),
            "pct_first_higher": pct_a,
            "pct_second_higher": pct_b,
            "pct_tie": 100.0 * _per_pair(ties, n),
            "preference_ratio": ratio,
            "sign_test_p": sign_test_pvalues(wins.astype(int), losses.astype(int)),
            "flips_first_accept_pct": 100.0 * _per_pair(flip_a, n),
            "flips_second_accept_pct": 100.0 * _per_pair(flip_b, n),
            "mean_first": _per_pair(w.per_reviewer(np.where(paired, a, 0.0)), n),
            "mean_second": _per_pair(w.per_reviewer(np.where(paired, b, 0.0)), n),
            "missing_first": w.per_reviewer(~has_a & has_b).astype(int),
            "missing_second": w.per_reviewer(~has_b & has_a).astype(int),
            "missing_both": w.per_reviewer(~has_a & ~has_b).astype(int),
        }
    )
    return out[COMPARISON_COLUMNS]


def no_test_reasons(comparisons: pd.DataFrame) -> list[str]:
    """One sentence per row of a comparison table without a paired paper (``n_pairs = 0``, no
    test): ``"reviewer r, A vs B: no test (no paper scored under both; missing under A 4, under B 0,
    under both 1)"``, in table order (``| given`` added for a conditional row)."""
    out = []
    for r in comparisons[comparisons["n_pairs"] == 0].itertuples(index=False):
        given = f" | {r.given}" if isinstance(getattr(r, "given", None), str) else ""
        both = int(getattr(r, "missing_both", 0) or 0)
        out.append(f"reviewer {r.reviewer}, {r.first} vs {r.second}{given}: no test (no paper scored under both; "
                   f"missing under {r.first} {int(r.missing_first)}, under {r.second} {int(r.missing_second)}, "
                   f"under both {both})")
    return out


def compare_arms(
    df: pd.DataFrame,
    first: str,
    second: str,
    *,
    score: str | None = None,
    threshold: float = DECISION_THRESHOLD,
    given: str | None = None,
) -> pd.DataFrame:
    """Paired comparison of two arms, one row per reviewer (the study's Table 4 / Table 5 shape).

    Replicates are averaged per (reviewer, paper, arm) first; a pair is a paper with a score in
    both arms for that reviewer. Definitions ('Style over Substance' study, Section 5 / Table 4):

    - ``pct_first_higher`` / ``pct_second_higher`` / ``pct_tie``: percent (0-100) of pairs.
    - ``preference_ratio = pct_first_higher / pct_second_higher``; ``inf`` when the second arm
      never wins but the first does, NaN when neither ever wins.
    - ``sign_test_p``: :func:`sign_test` on the win counts, ties excluded; NaN, never 1, when no
      pair is untied (every pair ties, or there is no pair).
    - A paper is *accepted* under an arm when its paper score is strictly greater than
      ``threshold`` (default 4.5 on the 1-10 overall scale). ``flips_first_accept_pct``: percent of
      pairs accepted under the first arm and rejected under the second;
      ``flips_second_accept_pct`` the reverse.
    - ``mean_first`` / ``mean_second``: mean paper score of each arm over the paired papers.
    - ``missing_first``: papers with a score in the second arm but none in the first (all
      replicates failed or absent); ``missing_second`` the reverse; ``missing_both``: papers of
      the reviewer (some assessment stored, in any arm) with a score in neither arm.
      ``n_pairs + missing_first + missing_second + missing_both`` = the reviewer's papers.
    - With no pair (``n_pairs = 0``) there is no test: ``sign_test_p`` is NaN, never 1.

    With ``given`` (a third factor for 2x2 combined rewrites, Table 5), the arms compared are the
    compound arms applying ``first`` + ``given`` and ``second`` + ``given``, e.g.
    ``compare_arms(df, "proficiency:+", "proficiency:-", given="confidence:+")`` compares
    ``"confidence:+|proficiency:+"`` with ``"confidence:+|proficiency:-"``.

    Args:
        df: tidy assessments (see :mod:`rhetorica.analysis.tidy`).
        first: arm label A.
        second: arm label B.
        score: score column (``overall`` by default; a criterion for per-criterion ratios).
        threshold: acceptance threshold on ``score``'s scale.
        given: optional third-factor condition.

    Returns:
        DataFrame with columns :data:`COMPARISON_COLUMNS`, one row per reviewer in ``df``
        (sorted); statistics are NaN for a reviewer with no pair.

    Raises:
        ValueError: on a missing column, out-of-range score, an arm absent from the data, or a
            ``given`` combination that does not exist.
    """
    score = score or primary_metric(df)
    w = wide_paper_scores(df, score)
    return _compare(w, first, second, score=score, threshold=threshold, given=given)


def comparison_table(
    df: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    *,
    threshold: float = DECISION_THRESHOLD,
    score: str | None = None,
    given: str | None = None,
) -> pd.DataFrame:
    """:func:`compare_arms` over several pairs, concatenated (pairs in order, reviewers sorted).

    Args:
        df: tidy assessments.
        pairs: ``(first, second)`` arm labels, e.g. from
            :func:`rhetorica.analysis.arms.default_pairs`.
        threshold: acceptance threshold on ``score``'s scale (default 4.5 on 1-10).
        score: score column.
        given: optional third factor applied to every pair.

    Returns:
        DataFrame with columns :data:`COMPARISON_COLUMNS`.

    Raises:
        ValueError: as :func:`compare_arms`.
    """
    score = score or primary_metric(df)
    w = wide_paper_scores(df, score)
    frames = [_compare(w, a, b, score=score, threshold=threshold, given=given) for a, b in pairs]
    if not frames:
        return pd.DataFrame(columns=COMPARISON_COLUMNS)
    return pd.concat(frames, ignore_index=True)


def criterion_table(
    df: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    *,
    criteria: Sequence[str] = CRITERIA,
    given: str | None = None,
) -> pd.DataFrame:
    """Per-criterion paired comparisons (the 'Style over Substance' study's per-criterion ratios).

    The rows :func:`comparison_table` gives on each criterion score (1-4 scale), from one grouping
    of the assessments for all criteria. Flip columns use a
    threshold of 2.5 (above the midpoint of 1-4) and are secondary here; the preference ratio is
    the quantity of interest.

    Args:
        df: tidy assessments.
        pairs: ``(first, second)`` arm labels.
        criteria: score columns to compare (default soundness, significance, evidence, clarity).
        given: optional third factor.

    Returns:
        DataFrame with columns :data:`COMPARISON_COLUMNS`; the ``score`` column names the criterion.

    Raises:
        ValueError: as :func:`compare_arms`.
    """
    require_columns(df, [*KEYS, "status", *criteria])
    values = [ok_scores(df, c).to_numpy() for c in criteria]
    groups = key_groups(df)
    wides = [grouped_wide_scores(groups, v) for v in values]
    frames = [
        _compare(w, a, b, score=c, threshold=2.5, given=given) for c, w in zip(criteria, wides) for a, b in pairs
    ]
    return (
        pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COMPARISON_COLUMNS)
    )


def difference_magnitude(
    df: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    *,
    score: str | None = None,
    given: str | None = None,
) -> pd.DataFrame:
    """Size of paired differences ``d = first - second`` per reviewer and pair.

    The 'Style over Substance' study reports the share of pairs differing by at most one point
    alongside preference ratios; we add the share differing by two points or more and the mean
    (absolute) difference.

    Args:
        df: tidy assessments.
        pairs: ``(first, second)`` arm labels.
        score: score column.
        given: optional third factor.

    Returns:
        DataFrame with columns :data:`MAGNITUDE_COLUMNS`: ``mean_diff`` (score units),
        ``mean_abs_diff``, ``share_within_1`` (fraction 0-1 of pairs with ``|d| <= 1``),
        ``share_ge_2`` (fraction with ``|d| >= 2``); NaN for a reviewer with no pair.

    Raises:
        ValueError: as :func:`compare_arms`.
    """
    score = score or primary_metric(df)
    w = wide_paper_scores(df, score)
    frames = []
    for first, second in pairs:
        arm_a, arm_b = _resolve(list(w.table.columns), first, second, given)
        d = w.column(arm_a) - w.column(arm_b)
        paired = ~np.isnan(d)
        absd = np.abs(np.where(paired, d, 0.0))
        n = w.per_reviewer(paired)
        frames.append(
            pd.DataFrame(
                {
                    "reviewer": w.reviewers,
                    "first": first,
                    "second": second,
                    "given": given,
                    "score": score,
                    "n_pairs": n.astype(int),
                    "mean_diff": _per_pair(w.per_reviewer(np.where(paired, d, 0.0)), n),
                    "mean_abs_diff": _per_pair(w.per_reviewer(absd), n),
                    "share_within_1": _per_pair(w.per_reviewer(paired & (absd <= 1)), n),
                    "share_ge_2": _per_pair(w.per_reviewer(paired & (absd >= 2)), n),
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=MAGNITUDE_COLUMNS)
    return pd.concat(frames, ignore_index=True)[MAGNITUDE_COLUMNS]
