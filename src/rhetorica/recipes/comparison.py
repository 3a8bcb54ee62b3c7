"""Published vs this run: each headline number of a recipe beside the run's value measured the same way.

:func:`published_vs_run` reads the run's analysis tables (the same tables the report shows) and, for
every published value of the recipe, finds the row its :class:`~rhetorica.recipes.model.Measure`
selects. A value the run did not measure (no such configuration, condition or metric; a table that
was not computable, a metric the data cannot classify: ``not_informative``, whose class and mean
difference both go uncompared) is shown as not measured with the reason, never compared. Agreement is decided
per value by the rule the recipe gives (``class``, ``direction``, ``significance``, ``interval``),
so that a run on other models or fewer papers is compared on what can be compared: a direction, a
classification, a significance verdict, an interval that holds the published value.

Measures (``Measure.kind`` -> the run table read; ``select`` keys):

- ``paired`` / ``conditional``: Table 4 / Table 5 rows (``reviewer``, ``first``, ``second``,
  ``given``); statistics ``ratio``, ``p``, ``flips_first``, ``flips_second`` (% of papers);
- ``judge_class``, ``judge_shift``: judge Table 1 (``judge``, ``metric``): class, mean difference;
- ``judge_class_count``: metrics of ``judge`` in class ``class`` (of those it could classify);
  ``judge_agreement``: metrics the first and second judge classify the same, of those both could
  classify (a ``not_informative`` class is no verdict, so two of them are no agreement);
- ``change``: change versus the original (``reviewer``, ``first``), mean change and its 95% interval;
- ``contrast_order``: the dimensions ordered by the contrast of their ``+`` and ``-`` mean changes;
- ``movement``: mean change in the lowest and highest initial-score bins of ``reviewer``;
- ``robustness``: the RobustReview row of ``reviewer``;
- ``protocol_shift``: mean over papers of ``first``'s overall score minus ``second``'s on the
  originals, with a paired t interval (scipy.stats.ttest_rel; none when every paper's difference is
  the same, zero variance);
- ``validation``: Table 2 means of ``condition``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd
from scipy import stats

from rhetorica.analysis.equivalence import all_equal, carries_verdict, classes_agree
from rhetorica.labels import ORIGINAL
from rhetorica.recipes.init import get_recipe
from rhetorica.recipes.model import Recipe
from rhetorica.validation.summary import SUMMARY_COLUMNS
from rhetorica.wording import counted

COLUMNS = ["id", "table", "label", "design", "statistic", "published", "run", "low", "high", "n", "configuration",
           "agree", "note"]
"""Columns of the side-by-side: one row per published value."""

_PAIRED = {"ratio": "preference_ratio", "p": "sign_test_p", "flips_first": "flips_first_accept_pct",
           "flips_second": "flips_second_accept_pct"}
_ALPHA = 0.05


@dataclass(frozen=True)
class RunValue:
    """A run's value of one statistic (``value`` None: not measured, ``note`` says why)."""

    value: float | str | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    configuration: str = ""
    note: str = ""


def _base(arm: object) -> str:
    """An arm label without its ``@rewriter`` suffix."""
    return str(arm).split("@", 1)[0]


def _missing(why: str) -> dict[str, RunValue]:
    return {"*": RunValue(None, note=why)}


def _rows(table: pd.DataFrame | None, select: Mapping[str, Any], keys: tuple[str, ...]) -> pd.DataFrame | None:
    if table is None or table.empty:
        return None
    rows = table
    for key in keys:
        if key not in select:
            continue
        if key not in rows.columns:
            return None
        column = rows[key].map(_base) if key in ("first", "second", "given") else rows[key].astype(str)
        rows = rows[column == str(select[key])]
    return rows


def _paired(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any], key: str) -> dict[str, RunValue]:
    table = tables.get(key)
    if key == "paired" and table is not None and "given" in table.columns:
        table = table[table["given"].isna()]
    rows = _rows(table, select, ("reviewer", "first", "second", "given"))
    if rows is None or rows.empty:
        return _missing(f"no {key} comparison of {select.get('first')} vs {select.get('second')} for "
                        f"{select.get('reviewer')} in this run")
    row = rows.iloc[0]
    n = int(row["n_pairs"]) if pd.notna(row.get("n_pairs")) else None
    out = {stat: RunValue(_number(row.get(col)), n=n, configuration=str(row["reviewer"]))
           for stat, col in _PAIRED.items()}
    if out["p"].value is None:  # the sign test had no untied pair (sign_test): nothing was tested
        out["p"] = replace(out["p"], note=f"sign test not computable: none of the {n or 0} paired papers is untied")
    return out


def _judges(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any], kind: str) -> dict[str, RunValue]:
    table = tables.get("judges")
    if table is None or table.empty:
        return _missing("no judge Table 1 in this run")
    mine = table[table["judge"].astype(str) == str(select["judge"])]
    if mine.empty:
        return _missing(f"judge {select['judge']} has no Table 1 row in this run")
    informative = mine[(mine["n_pairs"].fillna(0) > 0) & mine["classification"].map(carries_verdict)]
    if kind == "judge_class_count":
        if informative.empty:
            return _missing(f"judge {select['judge']} could classify none of its {counted(len(mine), 'metric')} in this run "
                            "(each not informative or not computable)")
        return {"count": RunValue(int((informative["classification"] == select["class"]).sum()), n=len(informative),
                                  configuration=str(select["judge"]),
                                  note=f"of the {len(informative)} of {counted(len(mine), 'metric')} this run could classify")}
    if kind == "judge_agreement":
        shared = mine[mine["second_class"].notna()] if "second_class" in mine.columns else mine.iloc[0:0]
        if shared.empty:
            return _missing("no second judge classified the same metrics in this run")
        compared = pd.Series([classes_agree(a, b) is not None for a, b in zip(shared["classification"],
                                                                           shared["second_class"])], index=shared.index)
        both = shared[(shared["n_pairs"].fillna(0) > 0) & compared]
        said = f"both judges could classify {len(both)} of {counted(len(shared), 'metric')} (the rest not informative)"
        if both.empty:
            return _missing(said)
        return {"count": RunValue(int((both["classification"] == both["second_class"]).sum()), n=len(both),
                                  configuration=f"{select['judge']} vs {shared['second_judge'].iloc[0]}", note=said)}
    row = mine[mine["metric"] == select["metric"]]
    if row.empty:
        return _missing(f"metric {select['metric']} is not in this run's Table 1")
    row = row.iloc[0]
    n = int(row["n_pairs"]) if pd.notna(row["n_pairs"]) else 0
    if n == 0:
        return _missing(f"{select['metric']}: no usable pair ({row.get('reason') or 'not computable'})")
    if not carries_verdict(row["classification"]):  # the data says nothing: its class and shift are not compared
        why = f"{select['metric']}: not informative ({row.get('reason') or 'too few pairs'})"
        shift = _number(row["mean_diff"])
        shown = "" if shift is None else f"; mean difference {shift:.3f} not compared"
        return {"class": RunValue(None, n=n, configuration=str(select["judge"]), note=why),
                "mean_diff": RunValue(None, n=n, configuration=str(select["judge"]), note=why + shown)}
    return {"class": RunValue(str(row["classification"]), n=n, configuration=str(select["judge"])),
            "mean_diff": RunValue(_number(row["mean_diff"]), n=n, configuration=str(select["judge"]))}


def _change_rows(tables: Mapping[str, pd.DataFrame], reviewer: str) -> pd.DataFrame | None:
    rows = _rows(tables.get("change"), {"reviewer": reviewer, "second": ORIGINAL}, ("reviewer", "second"))
    return None if rows is None or rows.empty else rows


def _change(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any]) -> dict[str, RunValue]:
    rows = _change_rows(tables, str(select["reviewer"]))
    row = None if rows is None else rows[rows["first"].map(_base) == str(select["first"])]
    if row is None or row.empty:
        return _missing(f"no change of {select['first']} versus the original for {select['reviewer']} in this run")
    r = row.iloc[0]
    return {"mean_change": RunValue(_number(r["mean_change"]), _number(r["mean_change_low"]),
                                    _number(r["mean_change_high"]), int(r["n_papers"]), str(r["reviewer"]))}


def _contrast_order(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any]) -> dict[str, RunValue]:
    rows = _change_rows(tables, str(select["reviewer"]))
    if rows is None:
        return _missing(f"no change versus the original for {select['reviewer']} in this run")
    change = {_base(a): float(v) for a, v in zip(rows["first"], rows["mean_change"]) if pd.notna(v)}
    contrast = {d: change[f"{d}:+"] - change[f"{d}:-"] for d in {a.rsplit(":", 1)[0] for a in change}
                if f"{d}:+" in change and f"{d}:-" in change}
    if len(contrast) < 3:
        return _missing(f"needs three dimensions with both directions scored; this run has {len(contrast)}")
    ranked = sorted(contrast, key=lambda d: (-contrast[d], d))
    order = f"{', '.join(sorted(ranked[:2]))} > {ranked[2]}"
    detail = "; ".join(f"{d} {contrast[d]:+.2f}" for d in ranked)
    return {"order": RunValue(order, n=len(contrast), configuration=str(select["reviewer"]),
                              note=f"contrast (+ minus −): {detail}")}


def _movement(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any]) -> dict[str, RunValue]:
    rows = _rows(tables.get("movement"), select, ("reviewer",))
    if rows is None or rows.empty or "mean_change" not in rows.columns:
        return _missing(f"no movement by initial score for {select['reviewer']} in this run")
    by_bin = rows.groupby("initial_bin", sort=True, observed=True)["mean_change"].mean().dropna()
    if len(by_bin) < 2:
        return _missing("needs two initial-score bins with changes")
    n = int(rows["n_papers"].sum()) if "n_papers" in rows.columns else None
    return {"lowest": RunValue(float(by_bin.iloc[0]), n=n, configuration=str(select["reviewer"]),
                               note=f"bin {by_bin.index[0]}"),
            "highest": RunValue(float(by_bin.iloc[-1]), n=n, configuration=str(select["reviewer"]),
                                note=f"bin {by_bin.index[-1]}")}


def _robustness(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any]) -> dict[str, RunValue]:
    rows = _rows(tables.get("robustness"), select, ("reviewer",))
    if rows is None or rows.empty:
        return _missing(f"no robustness row for {select['reviewer']} in this run")
    r = rows.iloc[0]
    out = _values(r, ("mad", "drift_sd", "icc1", "spr", "discriminability", "human_mae", "human_spearman"),
                  "n_papers", str(r["reviewer"]))
    flag = r.get("false_robustness")  # None / NaN: not computable (robustness.false_robustness)
    out["false_robustness"] = (replace(out["mad"], value="yes" if bool(flag) else "no") if pd.notna(flag) else
                               replace(out["mad"], value=None, note="false robustness not computable: needs MAD and "
                                       "discriminability (an ordered pair of papers)"))
    return out


def _protocol_shift(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any]) -> dict[str, RunValue]:
    df = tables.get("assessments")
    if df is None or df.empty:
        return _missing("no assessments in this run")
    ok = df[(df["status"] == "ok") & (df["arm"] == ORIGINAL)]
    score = "overall" if "overall" in ok.columns else None
    if score is None:
        return _missing("the reviews carry no overall score")
    means = ok.groupby(["reviewer", "document_id"])[score].mean().unstack(0)
    first, second = str(select["first"]), str(select["second"])
    if first not in means.columns or second not in means.columns:
        return _missing(f"needs originals reviewed by both {first} and {second}")
    both = means[[first, second]].dropna()
    if len(both) < 2:
        return _missing(f"{len(both)} paper(s) reviewed by both {first} and {second}; a paired interval needs 2")
    d = both[first] - both[second]
    if all_equal(d):  # sd 0: the t interval is not computable; the point is compared by direction
        return {"mean_diff": RunValue(float(d.mean()), None, None, len(both), f"{first} − {second}",
                                      note=f"every one of the {len(both)} papers differs by {d.iloc[0]:g}: "
                                           "no paired t interval (zero variance)")}
    interval = stats.ttest_rel(both[first], both[second]).confidence_interval(0.95)
    return {"mean_diff": RunValue(float(d.mean()), float(interval.low), float(interval.high), len(both),
                                  f"{first} − {second}")}


def _validation(tables: Mapping[str, pd.DataFrame], select: Mapping[str, Any]) -> dict[str, RunValue]:
    rows = _rows(tables.get("validation"), select, ("condition",))
    if rows is None or rows.empty:
        return _missing(f"no validated variant of {select['condition']} in this run")
    r = rows.iloc[0]
    return _values(r, SUMMARY_COLUMNS, "n", str(r.get("rewriter", "")))


def _values(row: pd.Series, statistics: Sequence[str], n_column: str, configuration: str) -> dict[str, RunValue]:
    """The run values of ``statistics`` in one table row, each with the row's n and configuration."""
    n = int(row[n_column]) if pd.notna(row.get(n_column)) else None
    return {k: RunValue(_number(row.get(k)), n=n, configuration=configuration) for k in statistics}


MEASURES: dict[str, Callable[[Mapping[str, pd.DataFrame], Mapping[str, Any]], dict[str, RunValue]]] = {
    "paired": lambda t, s: _paired(t, s, "paired"),
    "conditional": lambda t, s: _paired(t, s, "conditional"),
    "judge_class": lambda t, s: _judges(t, s, "judge_class"),
    "judge_shift": lambda t, s: _judges(t, s, "judge_shift"),
    "judge_class_count": lambda t, s: _judges(t, s, "judge_class_count"),
    "judge_agreement": lambda t, s: _judges(t, s, "judge_agreement"),
    "change": _change,
    "contrast_order": _contrast_order,
    "movement": _movement,
    "robustness": _robustness,
    "protocol_shift": _protocol_shift,
    "validation": _validation,
}
"""Measure kind -> ``(run tables, select) -> statistic -> RunValue`` (the module docstring)."""


def _number(value: object) -> float | None:
    try:
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if math.isnan(out) else out


def _sign(value: float | str, null: float) -> int:
    if isinstance(value, str):
        word = value.strip().lower()
        return {"positive": 1, "negative": -1}.get(word, 0)
    return (value > null) - (value < null)


def _significant(value: float | str) -> bool:
    if isinstance(value, str):
        text = value.strip()
        return text.startswith("<") and float(text[1:]) <= _ALPHA
    return value < _ALPHA


def agrees(rule: str, published: float | str, run: RunValue, null: float) -> bool | None:
    """Whether ``run`` agrees with ``published`` under ``rule`` (``None``: the run has no value).

    ``class``: equal text (case-insensitive); ``direction``: the same side of ``null`` (a text
    value ``positive``/``negative`` is a direction); ``significance``: both p below 0.05 or both not
    (a published ``<0.001`` is below); ``interval``: the published value inside the run's interval
    where the run has one, else ``direction``.
    """
    if run.value is None:
        return None
    if rule == "class":
        return str(run.value).strip().lower() == str(published).strip().lower()
    if rule == "significance":
        return _significant(published) == _significant(run.value)
    if rule == "interval" and run.low is not None and run.high is not None and not isinstance(published, str):
        return run.low <= float(published) <= run.high
    return _sign(published, null) == _sign(run.value, null) != 0


def _resolve(select: Mapping[str, Any], parameters: Mapping[str, str]) -> dict[str, Any]:
    return {k: parameters.get(v[1:], v) if isinstance(v, str) and v.startswith("$") else v for k, v in select.items()}


def published_vs_run(recipe: Recipe, parameters: Mapping[str, str], tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The side-by-side table: one row per published value (columns :data:`COLUMNS`).

    Args:
        recipe: the recipe the run was made from.
        parameters: the run's template parameters (``$name`` in a measure's select resolves to them).
        tables: the run's analysis tables by name: ``paired`` (Table 4), ``conditional`` (Table 5),
            ``judges`` (judge Table 1), ``change``, ``movement``, ``robustness``, ``validation``
            (Table 2 summary), ``assessments`` (tidy, analysed); an absent table is "not measured".

    Returns:
        DataFrame, ``agree`` True/False, or ``None`` where the row has no agreement rule or the run
        did not measure it (``note`` says why).
    """
    rows: list[dict[str, Any]] = []
    for item in recipe.published:
        measured = MEASURES[item.measure.kind](tables, _resolve(item.measure.select, parameters))
        for stat, published in item.values.items():
            run = measured.get(stat) or measured.get("*") or RunValue(None, note=f"{stat} is not measured")
            rule = item.agree.get(stat)
            rows.append({"id": item.id, "table": item.table, "label": item.label, "design": item.design,
                         "statistic": stat, "published": published, "run": run.value, "low": run.low,
                         "high": run.high, "n": run.n, "configuration": run.configuration,
                         "agree": agrees(rule, published, run, item.null) if rule else None,
                         "note": "; ".join(x for x in (run.note, item.note) if x)})
    return pd.DataFrame(rows, columns=COLUMNS)


def agreement_summary(table: pd.DataFrame) -> str:
    """One sentence: per statistic, values that agree of those compared, and those not measured."""
    ruled = table[table["agree"].notna()]
    if ruled.empty:
        unmeasured = int(table["run"].isna().sum())
        return f"No value of this run is comparable with a published one ({unmeasured} not measured)."
    parts = [f"{stat}: {int(g['agree'].astype(bool).sum())} of {len(g)}"
             for stat, g in ruled.groupby("statistic", sort=False)]
    total = int(ruled["agree"].astype(bool).sum())
    unmeasured = int(table["run"].isna().sum())
    return (f"{total} of {len(ruled)} compared values agree with the published ones ({'; '.join(parts)}); "
            f"{unmeasured} published value(s) not measured in this run.")


def design_lines(recipe: Recipe, parameters: Mapping[str, str], sample: int | None, units: int) -> pd.DataFrame:
    """The paper's design beside this run's, one line per aspect (``aspect, published, run``).

    Args:
        recipe: the recipe.
        parameters: the run's template parameters (models).
        sample: ``--sample N`` of the run's ``init`` (``None``: the full design).
        units: documents the run analysed (papers, or original reviews for a review study).
    """
    lines = [{"aspect": aspect, "published": text, "run": ""} for aspect, text in recipe.design.items()]
    size = f"{units} {recipe.data.unit} analysed" + (f" (a pilot: --sample {sample})" if sample else "")
    differs = " — fewer than the paper's" if units < recipe.data.full_size else ""
    lines.insert(0, {"aspect": recipe.data.unit, "published": f"{recipe.data.full_size} {recipe.data.unit}",
                     "run": size + differs})
    for name, spec in recipe.parameters.items():
        lines.append({"aspect": f"parameter {name}", "published": spec.help or str(spec.default),
                      "run": str(parameters.get(name, spec.default))})
    return pd.DataFrame(lines, columns=["aspect", "published", "run"])


def compare_run(name: str, parameters: Mapping[str, str], sample: int | None, tables: Mapping[str, pd.DataFrame],
                units: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The side-by-side (:func:`published_vs_run`) and the design lines (:func:`design_lines`) of a run
    made from recipe ``name``.

    Raises:
        rhetorica.recipes.model.RecipeError: no recipe ``name`` is registered (a plug-in's recipe
            whose package is not installed here).
    """
    recipe = get_recipe(name)
    return published_vs_run(recipe, parameters, tables), design_lines(recipe, parameters, sample, units)
