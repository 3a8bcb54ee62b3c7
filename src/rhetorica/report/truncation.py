"""Which reviewer configurations saw a cut manuscript (``max_input_words``), for the report.

A reviewer configuration with ``max_input_words`` reads only the first N words of the Markdown
it is given (:func:`rhetorica.reviewers.llm_reviewer.manuscript_text`); the store flags each such
review with ``input_truncated = 1``. Its scores judge the cut text, so the report lists them.
"""

from __future__ import annotations

import pandas as pd

from rhetorica.study.config import StudyConfig

TRUNCATION_COLUMNS = ["reviewer", "words_kept", "document_id", "title", "arms", "reviews_cut", "reviews"]


def input_truncation(assessments: pd.DataFrame, study: StudyConfig) -> pd.DataFrame:
    """One row per (reviewer configuration, document) whose input was cut for at least one review.

    Args:
        assessments: tidy assessments (``rhetorica.store.export.assessments_table``; needs
            ``reviewer``, ``document_id``, ``arm``, ``input_truncated``; ``title`` optional).
        study: the run's study; ``reviewers[].max_input_words`` gives the words kept.

    Returns:
        DataFrame with :data:`TRUNCATION_COLUMNS`, sorted by reviewer and document:
        ``words_kept`` (the configuration's ``max_input_words``; ``None`` when the study file
        does not say), ``title`` (``None`` when unknown), ``arms`` (the conditions whose input was
        cut, ``", "``-joined), ``reviews_cut`` of ``reviews`` (every status counted). Empty when
        no input was cut.
    """
    if assessments.empty or "input_truncated" not in assessments.columns:
        return pd.DataFrame(columns=TRUNCATION_COLUMNS)
    cut = assessments["input_truncated"].fillna(0).astype(int).eq(1)
    if not cut.any():
        return pd.DataFrame(columns=TRUNCATION_COLUMNS)
    limits = {r.name: r.max_input_words for r in study.reviewers}
    keys = ["reviewer", "document_id"]
    totals = assessments.groupby(keys).size().rename("reviews")
    part = assessments[cut]
    titles = part["title"] if "title" in part.columns else pd.Series(None, index=part.index, dtype=object)
    grouped = part.assign(title=titles).groupby(keys, sort=True)
    out = grouped.agg(title=("title", "first"), arms=("arm", lambda a: ", ".join(sorted(set(a)))),
                      reviews_cut=("arm", "size")).join(totals).reset_index()
    out["words_kept"] = [limits.get(r) for r in out["reviewer"]]
    out["title"] = out["title"].astype(object).where(out["title"].notna(), None)
    return out[TRUNCATION_COLUMNS]
