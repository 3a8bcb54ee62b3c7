"""The viewer's ``/tables`` page: every registered analysis table (:data:`rhetorica.registry.tables`,
built-in and plug-in), computed from the store as the report computes it.

Apart from :mod:`rhetorica.report.viewer.pages` because it reads the report's analysis
(:mod:`rhetorica.report.build`), whose sections read the pages' helpers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rhetorica.report.build import analyse, artefact_values
from rhetorica.report.coverage import configuration_gaps
from rhetorica.report.judges import judge_names
from rhetorica.report.sections import registered_sections
from rhetorica.report.selection import analysed_assessments
from rhetorica.store.db import Store
from rhetorica.store.export import artefacts_table, assessments_table
from rhetorica.study.run_study import load_run_study


def analysis_tables(store: Store, run_dir: Path, params: dict[str, list[str]]) -> dict[str, Any]:
    """Context of ``/tables``: one section per registered table with its title, note and table, or
    the reason it is not computable (same assessments, artefacts, pairs, seed and resamples as the report,
    :func:`rhetorica.report.build.analyse`); ``params`` is unused (the page has no filter)."""
    study = load_run_study(run_dir)
    assessments = analysed_assessments(assessments_table(store), study)
    _, analysis, unavailable, _ = analyse(assessments, study, artefacts=artefact_values(artefacts_table(store)))
    gaps = configuration_gaps(assessments, [r.name for r in study.reviewers if r.name not in judge_names(study)])
    return {"study": study.name, "sections": registered_sections(analysis, unavailable, gaps)}
