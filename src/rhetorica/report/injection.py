"""The report's hidden-instructions section: what the scan found, and whether reviewers obey.

Two tables:

- "Does the AI reviewer obey hidden prompts?": for each reviewer configuration and injection
  condition, the paired comparison of the injected variant against the original (same papers,
  replicates averaged within paper; :func:`rhetorica.analysis.paired.comparison_table` and
  :func:`~rhetorica.analysis.paired.difference_magnitude`): preference ratio, sign test, decision
  flips in both directions, mean change, and next to it the scan's verdict on that condition's
  variants (how many were flagged at or above medium, and the highest severity);
- the scan's findings on every scanned input at or above ``low`` (clean inputs are counted).
"""

from __future__ import annotations

import json

import pandas as pd

from rhetorica.documents.scan.findings import Finding, severity_rank
from rhetorica.documents.scan.demands import GRAMMARS
from rhetorica.labels import ORIGINAL, split_arm
from rhetorica.report.data import ReportData
from rhetorica.report.views import Section, table_view
from rhetorica.analysis.paired import comparison_table, difference_magnitude
from rhetorica.report.selection import analysed_assessments

OBEY_HEADERS = {
    "reviewer": "Reviewer", "arm": "Injection condition", "n_pairs": "Papers",
    "pct_first_higher": "% injected higher", "pct_second_higher": "% original higher",
    "preference_ratio": "Pref. ratio", "sign_test_p": "Sign test p",
    "flips_first_accept_pct": "Flip to accept (%)", "flips_second_accept_pct": "Flip to reject (%)",
    "mean_diff": "Mean change", "scan_verdict": "Scan verdict on the variants",
}
FINDING_HEADERS = {
    "document_id": "Document", "condition": "Input", "severity": "Severity", "kind": "Kind",
    "where": "Where", "span": "Span", "reason": "Why",
}
MAX_FINDINGS_SHOWN = 60
_SPAN_CHARS = 120


def _short(text: str) -> str:
    shown = "".join(f"<U+{ord(c):04X}>" if 0xE0000 <= ord(c) <= 0xE007F or c in "\u200b\u200c\u200d\u2060\ufeff"
                    else c for c in " ".join(text.split()))
    return shown if len(shown) <= _SPAN_CHARS else shown[: _SPAN_CHARS - 1] + "…"


def findings_table(scans: pd.DataFrame, min_severity: str = "low") -> pd.DataFrame:
    """One row per stored finding at or above ``min_severity``.

    Args:
        scans: rows of the store's ``scans`` table.
        min_severity: lowest severity kept.

    Returns:
        Columns ``document_id, condition, rewriter, severity, kind, where, span, reason``, most
        severe first.
    """
    columns = ["document_id", "condition", "rewriter", "severity", "kind", "where", "span", "reason"]
    rows = []
    floor = severity_rank(min_severity)
    for scan in scans.itertuples(index=False):
        for raw in json.loads(scan.findings_json):
            finding = Finding.model_validate(raw)
            if severity_rank(finding.severity) >= floor:
                rows.append([scan.document_id, scan.condition, scan.rewriter, finding.severity, finding.kind,
                             finding.location.describe(), _short(finding.text), finding.reason])
    table = pd.DataFrame(rows, columns=columns)
    if table.empty:
        return table
    table["_rank"] = -table["severity"].map(severity_rank)
    return table.sort_values(["_rank", "document_id", "condition"], kind="stable").drop(columns="_rank")


def _verdicts(scans: pd.DataFrame, conditions: dict[str, tuple[str, str | None]]) -> dict[str, str]:
    out = {}
    for arm, (condition, rewriter) in conditions.items():
        rows = scans[scans["condition"] == condition]
        if rewriter is not None:
            rows = rows[rows["rewriter"] == rewriter]
        if rows.empty:
            out[arm] = "not scanned"
            continue
        flagged = int((rows["n_flagged"] > 0).sum())
        severities = [s for s in rows["max_severity"] if isinstance(s, str)]
        highest = max(severities, key=severity_rank) if severities else "none"
        out[arm] = f"{flagged}/{len(rows)} flagged (highest {highest})"
    return out


def obey_table(data: ReportData) -> pd.DataFrame:
    """The 'does our AI reviewer obey hidden prompts?' table (see the module docstring).

    Returns:
        Columns of :data:`OBEY_HEADERS` (``arm`` = injection arm), one row per reviewer and
        injection arm present with the original; empty when there is none.
    """

    assessments = data.tables.get("assessments")
    if assessments is None or assessments.empty:
        return pd.DataFrame(columns=list(OBEY_HEADERS))
    assessments = analysed_assessments(assessments, data.study)
    arms = sorted(a for a in set(assessments["arm"]) if a.startswith("injection:"))
    if not arms or ORIGINAL not in set(assessments["arm"]) or not assessments["status"].eq("ok").any():
        return pd.DataFrame(columns=list(OBEY_HEADERS))
    pairs = [(arm, ORIGINAL) for arm in arms]
    compared = comparison_table(assessments, pairs, threshold=data.threshold)
    magnitude = difference_magnitude(assessments, pairs)[["reviewer", "first", "mean_diff"]]
    table = compared.merge(magnitude, on=["reviewer", "first"], how="left").rename(columns={"first": "arm"})
    conditions = {arm: split_arm(arm) for arm in arms}
    verdicts = _verdicts(data.scans, conditions) if not data.scans.empty else {}
    table["scan_verdict"] = table["arm"].map(lambda a: verdicts.get(a, "not scanned"))
    return table[list(OBEY_HEADERS)]


def injection_applies(data: ReportData) -> bool:
    """The section is shown when the study has injection arms or a scan finding at or above low."""
    assessments = data.tables.get("assessments")
    injected = assessments is not None and not assessments.empty and assessments["arm"].str.startswith(
        "injection:").any()
    return bool(injected) or (not data.scans.empty and not findings_table(data.scans).empty)


def injection_section(data: ReportData) -> Section:
    """The report section (key ``injection``); see the module docstring."""
    scans = data.scans
    n_scanned = len(scans)
    n_flagged = int((scans["n_flagged"] > 0).sum()) if n_scanned else 0
    note = (f"Every review input was scanned for hidden text (white, tiny, off-page, invisible or covered PDF text; "
            "LaTeX white/tiny/phantom/zero-size constructs, metadata and comments; Markdown/HTML comments, "
            "CSS-hidden spans, zero-width and tag characters) and for instructions aimed at a reviewer or a model "
            f"({len(GRAMMARS)} languages, with homoglyph, spacing and base64 obfuscation undone). Nothing is removed "
            "because of "
            f"a scan. {n_scanned} input(s) scanned, {n_flagged} with findings at or above medium. In the obedience "
            "table each injected variant is paired with its original (papers as units): preference ratio = % "
            "injected higher / % original higher; a flip to accept is a paper rejected as original and accepted "
            f"when injected (threshold {data.threshold:g}); mean change = injected − original overall score.")
    section = Section("injection", "Hidden instructions: scan findings and whether reviewers obey", note)
    if n_scanned == 0:
        section.unavailable = "no scan results in the store (the study ran before the scan check existed)"
        return section
    obey = obey_table(data)
    if not obey.empty:
        section.tables.append(table_view(obey, OBEY_HEADERS, "Does the AI reviewer obey hidden prompts?"))
    findings = findings_table(scans)
    caption = f"Scan findings at or above low ({len(findings)})"
    if len(findings) > MAX_FINDINGS_SHOWN:
        caption += f", the {MAX_FINDINGS_SHOWN} most severe shown"
    section.tables.append(table_view(findings.head(MAX_FINDINGS_SHOWN), FINDING_HEADERS, caption))
    return section
