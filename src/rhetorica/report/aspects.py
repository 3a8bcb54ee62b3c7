"""The report's section on what reviews argue: aspect annotations of a study's reviews
('Style over Substance', STUDIES.md §1, "Aspects"; taxonomy of Lu, Kuznetsov & Gurevych,
Findings of EMNLP 2025).

Reads the tidy ``annotations`` and ``mentions`` tables (:mod:`rhetorica.study.annotation`) with the
analysed assessments and computes, with :mod:`rhetorica.analysis.aspects`:

- ``aspect_polarity``: mean net polarity (#positive − #negative, replicates averaged within paper)
  per reviewer, arm and aspect;
- ``aspect_differences``: within-paper net-polarity differences ``A − B`` averaged over papers, per
  reviewer, compared pair and aspect (aspects never mentioned by that reviewer left out);
- ``aspect_share``: per reviewer (and ``all``), Pearson's r of the overall rating with the share
  of positive mentions;
- ``aspect_counts``: per reviewer, annotations by status, verified mentions and the mentions
  dropped as unverified (phrase not in the review) or rejected.
"""

from __future__ import annotations

import pandas as pd

from rhetorica.analysis.aspects import net_polarity, net_polarity_difference, positive_share_correlation
from rhetorica.report.views import Section, table_view
from rhetorica.reviewers.aspects import load_taxonomy

#: Keys of :func:`aspect_tables` in ``ReportData.analysis``.
ASPECT_TABLES = ("aspect_counts", "aspect_polarity", "aspect_differences", "aspect_share")

SHARE_COLUMNS = ["reviewer", "r", "p_value", "n_reviews"]


def _annotated(tables: dict[str, pd.DataFrame], assessments: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(reviews, mentions)`` in :mod:`rhetorica.analysis.aspects`'s shape: the ok assessments with
    an ok annotation, and their verified mentions keyed by the assessment's unit key."""
    annotations = tables.get("annotations", pd.DataFrame())
    if annotations.empty:
        return pd.DataFrame(), pd.DataFrame()
    done = set(annotations.loc[annotations["status"] == "ok", "assessment_key"])
    ok = assessments[assessments["status"].eq("ok") & assessments["unit_key"].isin(done)]
    reviews = ok[["unit_key", "reviewer", "document_id", "arm", "overall"]].reset_index(drop=True)
    mentions = tables["mentions"]
    mentions = mentions[mentions["assessment_key"].isin(reviews["unit_key"])]
    mentions = mentions[["assessment_key", "aspect", "polarity"]].rename(columns={"assessment_key": "unit_key"})
    return reviews, mentions.reset_index(drop=True)


def aspect_tables(tables: dict[str, pd.DataFrame], assessments: pd.DataFrame,
                  pairs: list[tuple[str, str]]) -> dict[str, pd.DataFrame]:
    """The section's tables (keys :data:`ASPECT_TABLES`; empty dict when nothing was annotated).

    Args:
        tables: the tidy store tables (``annotations``, ``mentions``).
        assessments: the analysed assessments (``rhetorica.report.build.analysed_assessments``).
        pairs: the study's compared ``(first, second)`` arms.

    Raises:
        ValueError: as :func:`rhetorica.analysis.aspects.review_polarity` (a mention of an
            unknown aspect or polarity).
    """

    annotations = tables.get("annotations", pd.DataFrame())
    if annotations.empty:
        return {}
    reviewer_of = assessments.set_index("unit_key")["reviewer"]
    counted = annotations.assign(reviewer=annotations["assessment_key"].map(reviewer_of))
    counts = counted.groupby("reviewer", as_index=False).agg(
        annotated=("status", lambda s: int((s == "ok").sum())), failed=("status", lambda s: int((s != "ok").sum())),
        mentions=("n_mentions", "sum"), unverified=("n_unverified", "sum"), rejected=("n_rejected", "sum"))
    out = {"aspect_counts": counts}
    reviews, mentions = _annotated(tables, assessments)
    if reviews.empty:
        return out
    aspects = list(load_taxonomy().names)
    out["aspect_polarity"] = net_polarity(mentions, reviews, aspects)
    mentioned = set(mentions.merge(reviews[["unit_key", "reviewer"]], on="unit_key")[["reviewer", "aspect"]]
                    .itertuples(index=False, name=None))
    frames = [net_polarity_difference(mentions, reviews, aspects, a, b) for a, b in pairs]
    differences = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if not differences.empty:
        keep = [(r, a) in mentioned and n > 0 for r, a, n in
                zip(differences["reviewer"], differences["aspect"], differences["n_papers"])]
        out["aspect_differences"] = differences[keep].reset_index(drop=True)
    rows = []
    for reviewer, part in [*reviews.groupby("reviewer", sort=True), ("all", reviews)]:
        corr = positive_share_correlation(mentions[mentions["unit_key"].isin(part["unit_key"])], part)
        rows.append({"reviewer": reviewer, "r": corr.r, "p_value": corr.p_value, "n_reviews": corr.n})
    out["aspect_share"] = pd.DataFrame(rows, columns=SHARE_COLUMNS)
    return out


COUNT_HEADERS = {"reviewer": "Reviewer", "annotated": "Reviews annotated", "failed": "Annotations failed",
                 "mentions": "Verified mentions", "unverified": "Dropped: phrase not in review",
                 "rejected": "Dropped: unknown aspect or polarity"}
POLARITY_HEADERS = {"reviewer": "Reviewer", "arm": "Condition", "aspect": "Aspect", "net_polarity": "Net polarity",
                    "n_papers": "Papers"}
DIFFERENCE_HEADERS = {"reviewer": "Reviewer", "aspect": "Aspect", "first": "A", "second": "B",
                      "mean_difference": "Mean A − B", "sd": "SD", "n_papers": "Papers", "ci_low": "95% CI low",
                      "ci_high": "95% CI high"}
SHARE_HEADERS = {"reviewer": "Reviewer", "r": "Pearson r", "p_value": "p", "n_reviews": "Reviews"}


def aspects_section(data):  # noqa: ANN001, ANN201 - ReportData -> Section | None (imports kept lazy)
    """The "What reviews argue" section, or ``None`` when the study annotated nothing.

    Args:
        data: :class:`rhetorica.report.build.ReportData` (its ``analysis`` holds
            :data:`ASPECT_TABLES` when annotations exist).

    Returns:
        :class:`rhetorica.report.sections.Section` with the counts, the within-paper differences,
        the share correlation and the net polarity per condition; its figure is attached by
        :func:`rhetorica.report.sections.report_sections`.
    """

    if "aspect_counts" not in data.analysis and "aspects" not in data.unavailable:
        return None
    note = ("Each ok review tagged by an LLM annotator with (aspect, polarity, exact phrase) over the 16 aspects of "
            "Lu, Kuznetsov & Gurevych (Findings of EMNLP 2025); a phrase not found in the review is dropped and "
            "counted. Net polarity = #positive − #negative mentions of an aspect in a review (0 when not "
            "mentioned), replicates averaged within paper; differences are taken within paper and averaged over "
            "papers (t interval). r: overall rating against the share of positive mentions.")
    section = Section("aspects", "What reviews argue (aspects)", note)
    if "aspects" in data.unavailable:
        section.unavailable = data.unavailable["aspects"]
        return section
    a = data.analysis
    section.tables.append(table_view(a["aspect_counts"], COUNT_HEADERS, "Annotations"))
    if "aspect_differences" in a:
        section.tables.append(table_view(a["aspect_differences"], DIFFERENCE_HEADERS,
                                    "Within-paper net-polarity differences (aspects mentioned)"))
    if "aspect_share" in a:
        section.tables.append(table_view(a["aspect_share"], SHARE_HEADERS, "Overall rating vs share of positive mentions"))
    if "aspect_polarity" in a:
        shown = a["aspect_polarity"]
        shown = shown[shown["net_polarity"] != 0]
        section.tables.append(table_view(shown, POLARITY_HEADERS, "Mean net polarity per condition (non-zero only)"))
    return section
