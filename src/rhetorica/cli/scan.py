"""``rhetorica scan PATH...``: report hidden text and instructions aimed at reviewers or models.

Exit status: 0 when no finding is at or above ``--fail-on``; 1 when at least one is; 2 when an
input, or a part of one (a PDF page without a text layer, a LaTeX project's missing ``\\input``), could not be scanned (the verdict is
then incomplete, so this takes precedence) — a submission system can call it and act on the status
alone. What could not be read is never reported clean: one ``error:`` line per input names it and why.
"""

from __future__ import annotations

import json
from typing import Any
from pathlib import Path

import typer
from rich.console import Console

from rhetorica.severity import SEVERITIES


def _visible(text: str, limit: int = 160) -> str:
    """The span with invisible characters written as ``<U+XXXX>`` and newlines as ``⏎``, cut to ``limit``."""
    from rhetorica.documents.scan.normalise import is_invisible

    shown = "".join(f"<U+{ord(c):04X}>" if is_invisible(c) else ("⏎" if c == "\n" else c) for c in text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _unread_line(report: Any) -> str:
    """One line naming what of ``report``'s input (a :class:`~rhetorica.documents.scan.ScanReport`)
    could not be read and why, e.g.
    ``paper.pdf: pages 2, 5 not scanned: no text layer (...)`` or, for a LaTeX project,
    ``proj/main.tex:4: missing \\input file 'x': ...``."""
    pages = [u.page for u in report.unread if u.page is not None]
    if not pages:  # whole files (a LaTeX project's missing \\input): each named with its reason
        return "; ".join(u.describe() for u in report.unread)
    reasons = "; ".join(dict.fromkeys(u.reason for u in report.unread))
    return f"{report.unread[0].file}: page{'s' if len(pages) > 1 else ''} {', '.join(map(str, pages))} not scanned: {reasons}"


def scan(
    paths: list[Path] = typer.Argument(..., help="PDF files, LaTeX folders/.tex/archives, Markdown/HTML files."),
    fail_on: str = typer.Option("high", "--fail-on", help=f"Exit 1 when a finding is at or above this severity "
                                f"({', '.join(SEVERITIES)})."),
    min_severity: str = typer.Option("info", "--min-severity", help="Only show findings at or above this severity."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object (reports, errors, verdict)."),
) -> None:
    """Scan manuscripts for hidden text and for instructions aimed at an AI reviewer.

    Exit status: 0 = no finding at or above --fail-on; 1 = at least one such finding;
    2 = an input could not be scanned (wins over 1: the verdict is incomplete), in whole or in part
    (a PDF page without a text layer).
    """


    err = Console(stderr=True, soft_wrap=True)
    for name, value in (("--fail-on", fail_on), ("--min-severity", min_severity)):
        if value not in SEVERITIES:
            err.print(f"error: {name} {value!r} is not a severity; choose from {', '.join(SEVERITIES)}",
                      markup=False, highlight=False)
            raise typer.Exit(2)
    # the readers load here, not with the module: `rhetorica scan --help` answers without them
    from rhetorica.documents.scan import ScanError, ScanReport, scan_paths
    from rhetorica.documents.scan.findings import severity_rank

    results = scan_paths(list(paths))
    reports = [r for r in results if isinstance(r, ScanReport)]
    errors = [r for r in results if isinstance(r, ScanError)]
    failing = sum(len(r.at_or_above(fail_on)) for r in reports)
    partial = [r for r in reports if r.unread]
    code = 2 if errors or partial else (1 if failing else 0)
    if as_json:
        payload = {
            "fail_on": fail_on, "findings_at_or_above": failing, "exit_status": code,
            "reports": [r.model_dump(mode="json") | {"findings": [f.model_dump(mode="json") for f in r.at_or_above(
                min_severity)]} for r in reports],
            "errors": [{"path": e.path, "problem": e.problem} for e in errors],
            "unread": [u.model_dump(mode="json") for r in reports for u in r.unread],
        }
        typer.echo(json.dumps(payload, indent=2))
        raise typer.Exit(code)
    out = Console(soft_wrap=True)
    for report in reports:
        shown = report.at_or_above(min_severity)
        counts = ", ".join(f"{n} {s}" for s, n in report.counts().items() if n)
        out.print(f"{report.target}: {counts or 'no findings'}", markup=False, highlight=False)
        for finding in sorted(shown, key=lambda f: -severity_rank(f.severity)):
            out.print(f"  [{finding.severity}] {finding.kind} at {finding.location.describe()}: "
                      f"{_visible(finding.text)!s}", markup=False, highlight=False)
            detail = finding.reason + (f" | decoded: {_visible(finding.decoded)}" if finding.decoded else "")
            out.print(f"      {detail}", markup=False, highlight=False)
        for note in report.notes:
            out.print(f"  note: {note}", markup=False, highlight=False)
    for error in errors:
        err.print(f"error: {error}", markup=False, highlight=False)
    for report in partial:
        err.print(f"error: {_unread_line(report)}", markup=False, highlight=False)
    verdict = f"{failing} finding(s) at or above {fail_on}" if failing else f"nothing at or above {fail_on}"
    unscanned = len(errors) + len(partial)
    out.print(f"Verdict: {verdict}" + (f"; {unscanned} input(s) could not be scanned in full" if unscanned else ""),
              markup=False, highlight=False)
    raise typer.Exit(code)
