"""SciCore's declared form (registered as ``scicore``): the mean and both branches' scores.

- ``overall`` (primary, continuous 1–10): the mean of the two branch overall assessments
  (STUDIES.md §4: "Final overall = mean of the two branch scores"); a half point when they differ
  by an odd number.
- ``overall_full``, ``soundness_full``, ``presentation_full``, ``contribution_full``,
  ``confidence_full``: branch (a), the manuscript reviewed under ``strict-iclr`` on the
  ``iclr-2026`` form.
- ``overall_core``, ``soundness_core``, ``contribution_core``, ``confidence_core``: branch (b), the
  science record reviewed under ``science-record`` on the same form.
- ``presentation_core`` (diagnostic): the record has no presentation of its own; the
  science-record protocol asks for the record's completeness on this scale instead, and it is
  kept as a diagnostic only — never part of a SciCore score or a headline.
- ``core_valid`` (diagnostic, yes/no): the core passed its checks against the manuscript (always
  1 unless the configuration reviews failed cores, ``require_valid_core: false``).

Ranges, types and directions are the ``iclr-2026`` form's.
"""

from __future__ import annotations

from rhetorica.forms import ICLR_2026, Form, Metric, register_form

#: The branches: suffix → what the branch reviews.
BRANCHES = {"full": "the full manuscript under strict-iclr", "core": "the science record under science-record"}


def _branch_metric(name: str, branch: str) -> Metric:
    base = ICLR_2026.metric(name)
    update: dict[str, object] = {"name": f"{name}_{branch}", "primary": False,
                                 "description": f"{base.description} ({BRANCHES[branch]})"}
    if branch == "core" and name == "presentation":
        update |= {"role": "diagnostic", "direction": "none",
                   "description": "completeness of the science record 1..4 (not a presentation score; not counted)"}
    return base.model_copy(update=update)


SCICORE_FORM = register_form(Form(
    name="scicore", version="1",
    description="SciCore: mean of a strict full-manuscript review and a science-record review, both branches' scores",
    metrics=(
        Metric(name="overall", type="continuous", low=1, high=10, primary=True,
               description="mean of overall_full and overall_core, 1..10 in half points"),
        *(_branch_metric(n, branch) for branch in BRANCHES for n in ICLR_2026.metric_names),
        Metric(name="core_valid", type="boolean", direction="none", role="diagnostic",
               description="the science core passed its checks (no new number, every claim supported)"),
    ),
))
