"""Scores by form: each declared form's primary and secondary scores, for studies whose reviewers
answer on different forms (e.g. the 000 review form next to the ICLR 2026 form).

The other report tables read one wide score column at a time (``overall``, the 000 criteria); when
no single form of the study declares every metric its assessments carry, this table shows each
form's own metrics, so no form's secondary scores go unreported.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from rhetorica.forms import Form, get_form
from rhetorica.report.coverage import WHY
from rhetorica.registry import UnknownComponentError

FORM_SCORE_COLUMNS = ["form", "reviewer", "arm", "metric", "primary", "papers", "mean", "sd"]


def _form(label: str) -> Form | None:
    try:
        return get_form(label.partition("@")[0])
    except UnknownComponentError:
        return None


def needs_form_table(scores: pd.DataFrame) -> bool:
    """Whether no single form of ``scores`` (the long table) declares every metric stored in it."""
    if scores.empty or "form" not in scores:
        return False
    metrics = set(scores.loc[scores["value"].notna(), "metric"])
    forms = [f for f in (_form(label) for label in pd.unique(scores["form"].dropna())) if f is not None]
    return len(forms) > 1 and not any(metrics <= set(f.metric_names) for f in forms)


def form_scores(scores: pd.DataFrame, paper_of: Mapping[str, str] | None = None,
                gaps: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Document-level means of every metric of every form, per reviewer and arm.

    Args:
        scores: the long table (:func:`rhetorica.store.export.scores_long`): one row per
            assessment x metric; only ``status == "ok"`` rows count (failed ones are missing).
        paper_of: when the documents are reviews (a judge study), review document id -> paper id
            (a review without one is its own paper): ``papers`` then counts distinct papers and a
            ``reviews`` column the reviews (the units of the means).
        gaps: configuration -> why it has no statistic
            (:func:`rhetorica.report.coverage.configuration_gaps`): its stored (failed) assessments
            still give it rows under its form, with papers 0, mean and sd missing and the reason
            in :data:`~rhetorica.report.coverage.WHY`.

    Returns:
        Columns :data:`FORM_SCORE_COLUMNS` (plus ``reviews`` with ``paper_of``, ``why`` with
        ``gaps``): form (``name@version``), reviewer, arm, metric, primary (bool), papers (with an
        ok score), mean and sd (over documents) of the document means (replicates averaged within
        document first), in the form's metric order.
    """
    columns = FORM_SCORE_COLUMNS if paper_of is None else [*FORM_SCORE_COLUMNS[:6], "reviews", *FORM_SCORE_COLUMNS[6:]]
    columns = [*columns, WHY] if gaps else columns
    ok = scores[(scores["status"] == "ok") & scores["value"].notna() & scores["form"].notna()]
    failed = scores[scores["reviewer"].isin(list(gaps or ())) & scores["form"].notna() & scores["metric"].notna()]
    if ok.empty and failed.empty:
        return pd.DataFrame(columns=columns)
    papers = ok.groupby(["form", "reviewer", "arm", "metric", "document_id"], sort=False)["value"].mean()
    table = papers.groupby(["form", "reviewer", "arm", "metric"], sort=False).agg(
        papers="count", mean="mean", sd="std").reset_index()
    if not failed.empty:  # a configuration without an ok score keeps its rows: n 0, nothing averaged
        empty = failed[["form", "reviewer", "arm", "metric"]].drop_duplicates().assign(papers=0, mean=float("nan"),
                                                                                       sd=float("nan"))
        table = pd.concat([table, empty], ignore_index=True) if len(table) else empty.reset_index(drop=True)
    if paper_of is not None:
        documents = papers.reset_index()
        documents["paper"] = documents["document_id"].map(lambda d: paper_of.get(d, d))
        distinct = documents.groupby(["form", "reviewer", "arm", "metric"], sort=False)["paper"].nunique()
        table["reviews"] = table["papers"]
        table["papers"] = distinct.reindex(pd.MultiIndex.from_frame(table[["form", "reviewer", "arm", "metric"]]),
                                           fill_value=0).to_numpy()
    order = {}
    for label in pd.unique(table["form"]):
        form = _form(label)
        names = form.metric_names if form is not None else tuple(sorted(table.loc[table["form"] == label, "metric"]))
        order.update({(label, m): i for i, m in enumerate(names)})
        table.loc[table["form"] == label, "primary"] = table["metric"].eq(form.primary.name if form else "")
    table["rank"] = [order.get((f, m), 99) for f, m in zip(table["form"], table["metric"])]
    if gaps:
        table[WHY] = table["reviewer"].map(lambda name: gaps.get(name))
    table = table.sort_values(["form", "reviewer", "arm", "rank"], kind="stable").drop(columns="rank")
    return table[columns].reset_index(drop=True)


def form_score_views(table: pd.DataFrame) -> list[tuple[Form | None, str, pd.DataFrame]]:
    """One wide table per form of :func:`form_scores`: (form, label, rows of reviewer x arm with
    ``papers`` (and ``reviews`` when the table has them) and one mean column per metric, the
    primary first)."""
    views = []
    for label, part in table.groupby("form", sort=True):
        form = _form(str(label))
        metrics = list(pd.unique(part.sort_values("primary", ascending=False, kind="stable")["metric"]))
        rows = part.groupby(["reviewer", "arm"], sort=False)
        wide = part.set_index(["reviewer", "arm", "metric"])["mean"].unstack("metric")  # all-missing rows kept
        wide = wide.reindex(index=rows.size().index, columns=metrics).reset_index()
        counts = [c for c in ("papers", "reviews") if c in part.columns]
        for i, column in enumerate(counts):
            wide.insert(2 + i, column, rows[column].max().to_numpy())
        if WHY in part.columns:
            wide[WHY] = rows[WHY].first().to_numpy()
        wide.columns.name = None
        views.append((form, str(label), wide))
    return views
