"""Render :class:`ReportData` as Markdown and as one self-contained HTML file (jinja2)."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from tabulate import tabulate

from rhetorica.report.build import COMPARISON_HEADERS, ReportData, collect, display_table

USAGE_HEADERS = {
    "provider": "Provider", "model": "Model", "calls": "Calls", "cache_hits": "Cache hits",
    "failed_calls": "Failed calls", "input_tokens": "Input tokens", "output_tokens": "Output tokens",
    "cost_usd": "Cost (USD)", "call_seconds": "Seconds in calls",
}
MEANS_HEADERS = {
    "reviewer": "Reviewer", "arm": "Condition", "papers": "Papers", "ok": "OK reviews", "failed": "Failed",
    "mean_overall": "Mean overall", "sd_overall": "SD (papers)",
}
FAILURE_HEADERS = {"stage": "Stage", "item": "Item", "status": "Status", "reason": "Reason"}


def _sections(data: ReportData) -> list[tuple[str, str, tuple[list[str], list[list[str]]]]]:
    return [
        ("comparison", "Paired comparison of conditions (overall score)",
         display_table(data.comparisons, COMPARISON_HEADERS)),
        ("means", "Mean overall score by condition", display_table(data.condition_means, MEANS_HEADERS)),
        ("usage", "Model calls, tokens and cost", display_table(data.usage, USAGE_HEADERS)),
        ("failures", "Failures", display_table(data.failures, FAILURE_HEADERS)),
    ]


NOTES = {
    "comparison": (
        "Papers are the unit: replicates are averaged within paper first. % A/B higher and % tie are shares of "
        "papers with both sides present; preference ratio = % A higher / % B higher; sign test: exact two-sided "
        "binomial on papers with a difference (ties dropped). A flip is a paper accepted (mean overall > {threshold}) "
        "under one condition and rejected under the other, as % of papers."
    ),
    "failures": "Failed outputs are kept as data and never imputed; they are missing in every table above.",
}


def render_markdown(data: ReportData) -> str:
    """The report as GitHub-flavoured Markdown."""
    threshold = data.study.get("decision_threshold", 4.5)
    lines = [f"# rhetorica report: {data.study.get('name', 'study')}", "",
             f"Wall time over all runs: {data.wall_time_s:.1f} s.", ""]
    for key, title, (headers, rows) in _sections(data):
        lines += [f"## {title}", ""]
        if key in NOTES:
            lines += [NOTES[key].format(threshold=threshold), ""]
        lines += [tabulate(rows, headers=headers, tablefmt="github") if rows else "_none_", ""]
    return "\n".join(lines)


def render_html(data: ReportData) -> str:
    """The report as one HTML page with inline CSS and no external resources."""
    env = Environment(loader=PackageLoader("rhetorica.report", "templates"), autoescape=select_autoescape())
    threshold = data.study.get("decision_threshold", 4.5)
    sections = [
        {"key": key, "title": title, "note": NOTES.get(key, "").format(threshold=threshold), "headers": headers,
         "rows": rows}
        for key, title, (headers, rows) in _sections(data)
    ]
    return env.get_template("report.html.j2").render(study=data.study, sections=sections,
                                                     wall_time_s=data.wall_time_s)


def write_report(run_dir: Path) -> ReportData:
    """Rebuild ``report.md``, ``report.html`` and ``tables/`` in ``run_dir`` from its store."""
    data = collect(run_dir)
    (run_dir / "report.md").write_text(render_markdown(data), encoding="utf-8")
    (run_dir / "report.html").write_text(render_html(data), encoding="utf-8")
    return data
