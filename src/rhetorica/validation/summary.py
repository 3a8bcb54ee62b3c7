"""Per-condition summary of validation results, shaped like Table 2 of 'Style over Substance'."""

from __future__ import annotations

from collections.abc import Sequence

from rhetorica.labels import ORIGINAL
import pandas as pd


SUMMARY_COLUMNS = (
    "mtld",
    "advanced_guiraud",
    "gunning_fog",
    "boosters_per_1k",
    "hedges_per_1k",
    "semantic_similarity",
    "tfidf_cosine",
    "protected_spans_kept",
)
"""Table-2 columns: lexical measures, metadiscourse rates, then the integrity checks."""



def summarise_by_condition(
    df: pd.DataFrame, *, by: Sequence[str] = ("condition",), include_original: bool = True
) -> pd.DataFrame:
    """Mean of each Table-2 measure per condition, plus counts of variants and of passes.

    The 'Style over Substance' study reports, per condition, MTLD, Advanced Guiraud, Gunning Fog,
    boosters and hedges per 1,000 words and the integrity similarities (their Table 2). Means skip
    missing values (a measure that was undefined stays missing, it is never imputed); ``n`` counts
    the variants and ``n_passed`` those that passed.

    Args:
        df: tidy table, one row per variant, as built from
            :func:`rhetorica.validation.validate.validation_row`: ``document_id``, the ``by``
            columns, the :data:`SUMMARY_COLUMNS`, ``passed``, and ``original_<measure>`` columns
            for the original row.
        by: grouping columns (``("condition", "rewriter")`` to split by rewriter too).
        include_original: prepend a row labelled ``"original"`` (in every ``by`` column) with the
            originals' lexical measures, each document counted once; its integrity columns are
            missing, as they compare a variant with its original.

    Returns:
        One row per group with columns ``[*by, "n", "n_passed", *SUMMARY_COLUMNS]``.

    Raises:
        KeyError: naming the required columns absent from ``df``.
    """

    required = {"document_id", "passed", *by, *SUMMARY_COLUMNS}
    missing = sorted(required - set(df.columns))
    if missing:
        raise KeyError(f"summarise_by_condition: table lacks columns {missing}")
    keys = list(by)
    numeric = df[list(SUMMARY_COLUMNS)].apply(pd.to_numeric, errors="coerce")
    numeric[keys] = df[keys]
    numeric["passed"] = df["passed"].astype(bool)
    grouped = numeric.groupby(keys, sort=True, dropna=False)
    table = grouped[list(SUMMARY_COLUMNS)].mean()
    table.insert(0, "n_passed", grouped["passed"].sum().astype(int))
    table.insert(0, "n", grouped.size())
    table = table.reset_index()
    if include_original:
        lexical = [c for c in SUMMARY_COLUMNS if f"original_{c}" in df.columns]
        originals = df.drop_duplicates("document_id")
        row: dict[str, object] = {k: ORIGINAL for k in keys}
        row.update(n=len(originals), n_passed=pd.NA)
        for column in SUMMARY_COLUMNS:
            source = f"original_{column}"
            row[column] = (
                pd.to_numeric(originals[source], errors="coerce").mean()
                if column in lexical
                else float("nan")
            )
        table = pd.concat([pd.DataFrame([row]), table], ignore_index=True)
    return table[[*keys, "n", "n_passed", *SUMMARY_COLUMNS]]


SHIFT_SUMMARY_COLUMNS = ["condition", "rewriter", "part", "measure", "n", "n_present", "original", "variant"]
"""Columns of :func:`summarise_shifts`."""


def summarise_shifts(shifts: pd.DataFrame) -> pd.DataFrame:
    """Intended-shift checks per condition, rewriter and checked part: how often the shift is present
    and the mean of the part's measure on the originals and on the rewrites.

    A dimension's measure (a registered one, a plug-in's included) is summarised by its name only, so a
    new dimension needs no change here. Means skip missing values (a measure undefined on a text stays
    missing, never imputed).

    Args:
        shifts: one row per check, columns ``condition``, ``rewriter``, ``part``, ``measure``,
            ``original``, ``variant`` (the measure's values) and ``present`` (bool), as
            ``tables/shift_checks.csv`` holds them.

    Returns:
        One row per (condition, rewriter, part, measure), sorted, with :data:`SHIFT_SUMMARY_COLUMNS`:
        ``n`` checks, ``n_present`` of them with the shift present, ``original`` and ``variant`` the
        mean measure over those checks' originals and rewrites.

    Raises:
        KeyError: naming the required columns absent from ``shifts``.
    """

    keys = ["condition", "rewriter", "part", "measure"]
    missing = sorted({*keys, "original", "variant", "present"} - set(shifts.columns))
    if missing:
        raise KeyError(f"summarise_shifts: table lacks columns {missing}")
    values = shifts[keys].copy()
    for column in ("original", "variant"):
        values[column] = pd.to_numeric(shifts[column], errors="coerce")
    values["present"] = shifts["present"].astype(bool)
    grouped = values.groupby(keys, sort=True, dropna=False)
    table = grouped[["original", "variant"]].mean()
    table.insert(0, "n_present", grouped["present"].sum().astype(int))
    table.insert(0, "n", grouped.size())
    return table.reset_index()[SHIFT_SUMMARY_COLUMNS]
