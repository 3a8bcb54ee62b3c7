"""Every planned configuration in every summary table that lists configurations.

A configuration (reviewer or judge) of the study with no ``ok`` assessment has nothing to average,
so a table built from its scores would drop it silently. The report keeps it: a table that lists
configurations gets a row for it (its counts 0, every statistic missing, never imputed) and a
``why`` column saying why nothing is computable and how many of its assessments failed, by status
(the study flow's rule, ARCHITECTURE.md "The study flow": nothing disappears).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

WHY = "why"
"""The column holding, on a configuration's rows, why its statistics are not computable."""
WHY_HEADER = "Why not computable"
"""The Markdown/HTML header of :data:`WHY`."""
COUNT_COLUMNS = ("n_pairs", "n_papers", "n_variants", "n_groups", "n_reviews", "n_human", "papers", "reviews",
                 "missing_first", "missing_second", "missing_both")
"""Count columns of the summary tables: 0 on the row of a configuration without data."""
NOTHING = "–"
"""The text cells (arms, labels) of an added row: nothing to name."""


def configuration_gaps(assessments: pd.DataFrame, names: Iterable[str]) -> dict[str, str]:
    """Why each configuration of ``names`` without an ``ok`` assessment has no statistic.

    Args:
        assessments: tidy assessments, one row per assessment (``reviewer``, ``status``,
            ``reason``), every status.
        names: the study's configuration names, in declaration order.

    Returns:
        Name -> one sentence, e.g. ``"not computable: 0 of 8 stored assessments ok (error 8: HTTP 500)"``
        (the first stored reason of the commonest failure), or ``"not computable: none of its
        units ran (see the study flow)"`` when nothing is stored; configurations with an ``ok``
        assessment are absent.
    """
    gaps: dict[str, str] = {}
    for name in dict.fromkeys(names):
        rows = assessments[assessments["reviewer"] == name] if not assessments.empty else assessments
        if rows.empty:
            gaps[name] = "not computable: none of its units ran (see the study flow)"
            continue
        statuses = rows["status"].astype(str)
        if statuses.eq("ok").any():
            continue
        counts = statuses.value_counts(sort=True)
        parts = ", ".join(f"{status} {int(n)}" for status, n in counts.items())
        reasons = rows.loc[statuses == counts.index[0], "reason"].dropna().astype(str) if "reason" in rows else []
        first = f": {reasons.iloc[0]}" if len(reasons) else ""
        gaps[name] = f"not computable: 0 of {len(rows)} stored assessments ok ({parts}{first})"
    return gaps


def with_every_configuration(table: pd.DataFrame, gaps: Mapping[str, str], key: str = "reviewer") -> pd.DataFrame:
    """``table`` with a row for each configuration of ``gaps`` it lacks and the :data:`WHY` column.

    Args:
        table: a summary table with one or more rows per configuration in column ``key``.
        gaps: :func:`configuration_gaps` (name -> why not computable).
        key: the column naming the configuration.

    Returns:
        A new frame for display: the rows of ``table``, then one row per missing configuration
        (``key`` set, :data:`COUNT_COLUMNS` 0, text columns :data:`NOTHING`, numbers missing);
        :data:`WHY` holds the reason on the rows of a configuration of ``gaps`` and is missing
        elsewhere. ``table`` itself when it has no ``key`` column or ``gaps`` is empty.
    """
    if not gaps or key not in table.columns:
        return table
    missing = [name for name in gaps if name not in set(table[key])]
    text = [c for c in table.columns if c != key and table[c].dtype == object]
    added = pd.DataFrame({key: missing, **{c: [0] * len(missing) for c in COUNT_COLUMNS if c in table.columns},
                          **{c: [NOTHING] * len(missing) for c in text}})
    out = pd.concat([table, added], ignore_index=True) if missing else table.reset_index(drop=True)
    return out.assign(**{WHY: out[key].map(lambda name: gaps.get(name))})


def why_sentence(table: pd.DataFrame, key: str = "reviewer") -> str:
    """`` Not computable: A (reason); B (reason).`` for the configurations of ``table`` whose
    :data:`WHY` is set (the LaTeX caption's addition: a booktabs table shows no text column for it);
    empty when none."""
    if WHY not in table.columns or key not in table.columns:
        return ""
    rows = table[table[WHY].notna()]
    pairs = dict.fromkeys(zip(rows[key].astype(str), rows[WHY].astype(str).str.removeprefix("not computable: ")))
    return (" Not computable: " + "; ".join(f"{name} ({why})" for name, why in pairs) + ".") if pairs else ""
