"""Agreement between human annotators (the review-metric study's human check of rewrites).

- exact agreement and agreement within ``k`` points: shares of items rated by both annotators;
- Cohen's kappa (Cohen 1960, "A coefficient of agreement for nominal scales", EPM 20(1)), weighted
  for ordinal items (Cohen 1968, Psychological Bulletin 70(4)), from ``statsmodels``;
- Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", Annenberg
  School for Communication, §§ A-C: coincidence matrix, nominal / ordinal / interval metric
  differences; missing values allowed). No permissively licensed library implements it (the
  ``krippendorff`` package is GPL-3.0; it is a test-only oracle here), so it is written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
from statsmodels.stats.inter_rater import cohens_kappa

Level = Literal["nominal", "ordinal", "interval"]


def _paired(a: npt.ArrayLike, b: npt.ArrayLike) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"agreement: two equal-length 1-D ratings expected, got shapes {x.shape} and {y.shape}")
    keep = ~(np.isnan(x) | np.isnan(y))
    if not keep.any():
        raise ValueError("agreement: no item was rated by both annotators")
    return x[keep], y[keep]


def exact_agreement(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """Share in [0, 1] of items (rated by both; NaN = not rated) given the same value.

    Raises:
        ValueError: shapes differ, or no item was rated by both.
    """
    x, y = _paired(a, b)
    return float(np.mean(x == y))


def within_agreement(a: npt.ArrayLike, b: npt.ArrayLike, k: float = 1.0) -> float:
    """Share in [0, 1] of items (rated by both) whose two ratings differ by at most ``k`` points.

    Raises:
        ValueError: shapes differ, or no item was rated by both.
    """
    x, y = _paired(a, b)
    return float(np.mean(np.abs(x - y) <= k))


def cohen_kappa(a: npt.ArrayLike, b: npt.ArrayLike, *, categories: Sequence[float] | None = None,
                weights: Literal["none", "linear", "quadratic"] = "none") -> float:
    """Cohen's kappa of two annotators over the items both rated (``statsmodels``' ``cohens_kappa``).

    Args:
        a, b: ``(n_items,)`` ratings, NaN where an annotator gave none.
        categories: every category of the scale in order (default: the values seen), so that an
            unused category still counts in the weights.
        weights: ``none`` (nominal), ``linear`` or ``quadratic`` (ordinal scales, Cohen 1968).

    Returns:
        Kappa in [-1, 1]; NaN when both annotators used one and the same category only.

    Raises:
        ValueError: shapes differ, no item rated by both, or a value outside ``categories``.
    """

    x, y = _paired(a, b)
    cats = np.asarray(sorted(set(x) | set(y)) if categories is None else list(categories), dtype=float)
    index = {c: i for i, c in enumerate(cats)}
    outside = sorted({v for v in np.concatenate([x, y]) if v not in index})
    if outside:
        raise ValueError(f"cohen_kappa: values {outside} are not among the categories {list(cats)}")
    table = np.zeros((len(cats), len(cats)))
    for u, v in zip(x, y, strict=True):
        table[index[u], index[v]] += 1
    wt = {"none": None, "linear": "linear", "quadratic": "quadratic"}[weights]
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(cohens_kappa(table, wt=wt, return_results=False))


def krippendorff_alpha(ratings: npt.ArrayLike, level: Level = "nominal") -> float:
    """Krippendorff's alpha of ``(n_annotators, n_items)`` ratings, NaN = missing.

    ``alpha = 1 - D_o / D_e`` with the coincidence matrix ``o_ck`` over items rated at least twice,
    ``D_o = sum_ck o_ck d2_ck / n`` and ``D_e = sum_ck n_c n_k d2_ck / (n (n - 1))``
    (Krippendorff 2011, eqs. for nominal, ordinal and interval ``d2``).

    Returns:
        Alpha in (-inf, 1]; NaN when there is no variation at all (``D_e = 0``).

    Raises:
        ValueError: not 2-D, or fewer than two pairable values.
    """
    data = np.asarray(ratings, dtype=float)
    if data.ndim != 2:
        raise ValueError(f"krippendorff_alpha: (annotators, items) ratings expected, got shape {data.shape}")
    values = np.unique(data[~np.isnan(data)])
    index = {v: i for i, v in enumerate(values)}
    coincidence = np.zeros((len(values), len(values)))
    for item in data.T:
        seen = item[~np.isnan(item)]
        m = len(seen)
        if m < 2:
            continue
        counts = np.zeros(len(values))
        for v in seen:
            counts[index[v]] += 1
        coincidence += (np.outer(counts, counts) - np.diag(counts)) / (m - 1)
    n_c = coincidence.sum(axis=1)
    n = n_c.sum()
    if n < 2:
        raise ValueError("krippendorff_alpha: fewer than two pairable values")
    if level == "nominal":
        d2 = 1.0 - np.eye(len(values))
    elif level == "interval":
        d2 = (values[:, None] - values[None, :]) ** 2
    else:
        cum = np.cumsum(n_c)
        d2 = np.zeros((len(values), len(values)))
        for c in range(len(values)):
            for k in range(len(values)):
                lo, hi = min(c, k), max(c, k)
                between = cum[hi] - (cum[lo - 1] if lo > 0 else 0.0)
                d2[c, k] = (between - (n_c[c] + n_c[k]) / 2) ** 2
    observed = (coincidence * d2).sum() / n
    expected = (np.outer(n_c, n_c) * d2).sum() / (n * (n - 1))
    return float("nan") if expected == 0 else float(1.0 - observed / expected)
