"""Render a run's report: Markdown, one self-contained HTML file (jinja2, figures inlined as base64
PNG data URIs), PNG files under ``plots/`` and LaTeX (booktabs) tables under ``tables/``."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
from jinja2 import Environment, PackageLoader
from tabulate import tabulate

from rhetorica.report.build import collect, JUDGES_ONLY
from rhetorica.report.coverage import with_every_configuration
from rhetorica.report.data import ReportData
from rhetorica.report.figures import report_figures
from rhetorica.report.paper_tables import registered_tables
from rhetorica.report.views import FigureResult, is_number, Section
from rhetorica.report.sections import FAIL, PASS, UNDECIDED, report_sections
from rhetorica.report import latex
from rhetorica.report.flow import flow_latex
from rhetorica.report.judges import table1_latex
from rhetorica.report.attack import searches_latex, transfer_latex
from rhetorica.files import write_atomic
from rhetorica.judges.kind import judge_options
from rhetorica.kinds import evaluator_kind, options_of
from rhetorica.models.redaction import redact_urls
from rhetorica.study.config import ReviewerSpec, RewriterSpec, Sampling
from rhetorica.store.export import write_tidy
from rhetorica.store.lock import run_lock
from rhetorica.store.runs import open_run_store
from rhetorica.validation.summary import summarise_shifts

PLOTS_DIR = "plots"
TABLES_DIR = "tables"


def _header_lines(data: ReportData) -> list[str]:
    study = data.study
    lines = [f"Wall time over all runs: {data.wall_time_s:.1f} s."]
    assessments = data.tables.get("assessments")
    if assessments is not None and not assessments.empty:
        documents = pd.unique(assessments["document_id"])
        reviews = [d for d in documents if d in data.paper_ids]
        counted = (f"Reviews: {len(documents)} (of {len({data.paper_ids[d] for d in reviews})} paper(s))" if reviews
                   else f"Papers: {len(documents)}")
        threshold = "" if data.judge_only else f"; acceptance threshold: {data.threshold:g}"
        lines.append(f"{counted}; conditions: {', '.join(sorted(assessments['arm'].unique()))}; "
                     f"replicates: {study.replicates}{threshold}.")
    if study.reviewers:
        lines.append(f"Reviewers: {'; '.join(map(reviewer_description, study.reviewers))}.")
    models = [r for r in study.rewriters if r.model]
    if models:
        lines.append(f"Rewriters: {'; '.join(_model_description(r, r.kind) for r in models)}.")
    if data.judge_only:

        lines.append(f"Paired paper-review tables (comparison, change, robustness): {JUDGES_ONLY}.")
    return lines


def sampling_text(sampling: Sampling) -> str:
    """A configuration's sampling settings as the report states them: ``temperature 0.7, max_tokens
    450`` (the settings given), or ``provider defaults`` when none is given."""
    given = {k: v for k, v in sampling.model_dump().items() if v is not None}
    return ", ".join(f"{k} {_setting(v)}" for k, v in given.items()) or "provider defaults"


def _model_description(spec: ReviewerSpec | RewriterSpec, what: str) -> str:
    model = redact_urls(spec.model) if spec.model is not None else None
    return f"{spec.name} ({model}, {what}, sampling: {sampling_text(spec.sampling)})"


def reviewer_description(reviewer: ReviewerSpec) -> str:
    """One reviewer configuration of the study as the report's header names it.

    A model reviewer: ``name (model, protocol protocol, sampling: …)``; a judge: ``name (model, judge
    family F, sampling: …)`` (:func:`sampling_text`). A simulated reviewer (``control``) has neither;
    it is ``name (kind: setting value, ...)`` with every setting of its kind's options model
    (:class:`rhetorica.reviewers.control_settings.ControlReviewer`; the study's values over the defaults).
    """
    judge = judge_options(reviewer)
    if judge is not None:
        return _model_description(reviewer, f"judge family {judge.family}")
    kind = evaluator_kind(reviewer.kind)
    if not kind.simulated:
        return _model_description(reviewer, f"{reviewer.protocol} protocol")
    options = options_of(kind)
    settings = {key: info.default for key, info in options.model_fields.items()} if options is not None else {}
    settings |= reviewer.options.as_kwargs()
    return f"{reviewer.name} ({reviewer.kind}: {', '.join(f'{k} {_setting(v)}' for k, v in settings.items())})"


def _setting(value: object) -> str:
    """A setting's value as the study file writes it: ``none``, ``true``/``false``, ``0.5``."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


_MD_PUNCTUATION = frozenset("\\`*_[]|<>&~")
_BLOCK_START = re.compile(r"(?P<mark>#{1,6}|[-+])(?=\s|$)|(?P<digits>\d{1,9})[.)](?=\s|$)|(?P<mark2>-)(?:\s*-){2,}\s*$")
"""What opens a block at the start of a line (CommonMark 0.31: an ATX heading, 4.2; a bullet or
ordered list item, 5.2; a thematic break of ``-``, 4.1); the other block openers (``*``, ``_``,
``>``, a backtick or ``~`` fence, ``<``) are in :data:`_MD_PUNCTUATION`, escaped wherever they stand."""


def _spaced(text: object) -> str:
    """``text`` with its line breaks as spaces (no new block)."""
    return str(text).replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def _one_line(text: object) -> str:
    """``text`` on one line without edge spaces: line breaks become spaces, and the spaces at either
    end, which Markdown does not show (a table cell's, a paragraph's; four open an indented code
    block, one inside ``**`` or ``_`` ends the emphasis), are dropped."""
    return _spaced(text).strip()


def _escape_inline(text: str) -> str:
    """``text`` with every character of :data:`_MD_PUNCTUATION` backslash-escaped."""
    return "".join("\\" + ch if ch in _MD_PUNCTUATION else ch for ch in text)


def md_escape(text: object) -> str:
    """Untrusted text as inline Markdown that renders literally, with no HTML entity in the source.

    The Markdown punctuation ``\\ ` * _ [ ] | ~`` and ``< > &`` are backslash-escaped (no emphasis,
    code, link, image, table cell break, strikethrough, raw HTML, autolink or entity; CommonMark
    spec 0.31, section 2.4: any ASCII punctuation may be backslash-escaped), and so is what would
    open a block at the start of a line (:data:`_BLOCK_START`): ``# `` (a heading), ``- `` ``+ ``
    (a list item), ``- - -`` (a thematic break), the ``.`` or ``)`` of ``1. `` (an ordered list item);
    ``0.50 [0.50, 0.50]`` or ``#3`` stay as they are. Line breaks become spaces (no new block) and
    edge spaces are dropped (:func:`_one_line`).
    """
    line = _escape_inline(_one_line(text))
    block = _BLOCK_START.match(line)
    if block is None:
        return line
    if block["digits"] is not None:
        cut = len(block["digits"])
        return f"{line[:cut]}\\{line[cut:]}"
    return "\\" + line


def md_code(text: object) -> str:
    """Untrusted text as a GFM table cell's code span: shown verbatim (``<script>`` and ``a&b`` as
    written, ``_id`` without a backslash; no markup is read inside a code span, CommonMark spec
    0.31, section 6.1), fenced with one backtick more than its longest backtick run and padded
    with a space when it starts or ends with a backtick. A ``|`` is written ``\\|`` (GFM reads a
    table row's cell breaks before its code spans; the escaped pipe shows as ``|``). Edge spaces
    are dropped (:func:`_one_line`: a cell's are not shown).
    """
    body = _one_line(text).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    fence = "`" * (longest + 1)
    return f"{fence}{pad}{body}{pad}{fence}"


_MD_VERBATIM = frozenset("\\`*_<&")
"""Characters that make a table cell a code span (:func:`md_cell`); ``[``, ``]``, ``|`` and ``>``
alone (an interval ``0.85 [0.80, 0.90]``, a reason quoting ``|ln R|`` or ``> 4.5``) are
backslash-escaped instead."""


def md_cell(text: str) -> str:
    """A table cell of report.md: a number cell (:func:`rhetorica.report.views.is_number`) as it
    is; a text holding any of :data:`_MD_VERBATIM` (an id such as ``_LGP9eHt4ae`` or ``a&b``, a
    reason quoting model output) as a code span (:func:`md_code`), so that the Markdown source
    holds it as written and searching report.md for it finds it; any other text with its inline
    punctuation escaped (:func:`_escape_inline`: a cell holds no block, so a ``+`` or ``#`` opening
    it is text as it stands).

    A number cell holds only digits, a sign, a point, ``–``, ``∞`` or a leading ``<`` followed by
    a digit, none of which CommonMark reads as markup (a tag or autolink needs a letter or a scheme
    after ``<``; spec 0.31, sections 6.5-6.6), so a p-value reads ``<0.0001``. The HTML report is
    rendered from the same cells by jinja2 with autoescape, not from this Markdown.
    """
    if is_number(text):
        return text
    line = _one_line(text)
    return md_code(line) if any(ch in _MD_VERBATIM for ch in line) else _escape_inline(line)


def render_markdown(data: ReportData, sections: list[Section] | None = None) -> str:
    """The report as GitHub-flavoured Markdown; figures link to ``plots/<name>.png``.

    Args:
        data: collected report data.
        sections: pre-built sections (built, with figures, from ``data`` when None).
    """
    if sections is None:
        sections = report_sections(data, report_figures(data))
    lines = [f"# rhetorica report: {md_escape(data.study.name)}", ""]
    for line in _header_lines(data):
        lines += [md_escape(line), ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        if section.note:
            lines += [md_escape(section.note), ""]
        if section.unavailable:
            lines += [f"_Not computable ({md_escape(section.unavailable)})._", ""]
        for table in section.tables:
            if table.caption:
                lines += [f"**{md_escape(table.caption)}**", ""]
            lines += [tabulate([[md_cell(c) for c in row] for row in table.rows],
                               headers=[md_escape(h) for h in table.headers], tablefmt="github",
                               disable_numparse=True)
                      if table.rows else "_none_", ""]
        for figure in section.figures:
            if figure.png is None:
                lines += [f"_Figure '{md_escape(figure.title)}' not computable ({md_escape(figure.reason)})._", ""]
            else:
                lines += [f"![{md_escape(figure.title)}]({PLOTS_DIR}/{figure.name}.png)", ""]
        for diff in section.diffs:
            lines += [f"**{md_escape(diff.label)}**" + (f": {md_escape(diff.note)}" if diff.note else ""), ""]
            for changed in diff.sections:
                notes = "".join(f" ({md_escape(n)})" for n in changed.notes)
                lines += [f"_{md_escape(changed.title)}_{notes}: {_md_diff(changed.segments)}", ""]
    return "\n".join(lines)


def _md_diff(segments: list[Any]) -> str:
    """A word diff as Markdown text in the ``git diff --word-diff`` notation: ``[-deleted-]{+inserted+}``
    (each segment escaped as :func:`md_escape` escapes inside a line, its spaces kept: they part the words)."""
    marks = {"delete": ("[-", "-]"), "insert": ("{+", "+}"), "equal": ("", "")}
    return "".join(marks[s.op][0] + _escape_inline(_spaced(s.text)) + marks[s.op][1] for s in segments)


def _data_uri(figure: FigureResult) -> str:
    assert figure.png is not None
    return "data:image/png;base64," + base64.b64encode(figure.png).decode("ascii")


def render_html(data: ReportData, sections: list[Section] | None = None) -> str:
    """The report as one HTML page with inline CSS, figures as data URIs, no external resources.

    Args:
        data: collected report data.
        sections: pre-built sections (built, with figures, from ``data`` when None).
    """
    if sections is None:
        sections = report_sections(data, report_figures(data))
    # Every value is escaped: titles, reasons, refusals and names are untrusted (model output, paper text).
    # Nothing is marked safe; the figures' data URIs are base64 text, which escaping leaves unchanged.
    env = Environment(loader=PackageLoader("rhetorica.report", "templates"), autoescape=True)
    env.filters["data_uri"] = _data_uri
    return env.get_template("report.html.j2").render(
        study=data.study, sections=sections, header_lines=_header_lines(data), PASS=PASS, FAIL=FAIL,
        UNDECIDED=UNDECIDED)


def write_latex(data: ReportData, folder: Path) -> list[Path]:
    """Write the booktabs version of every shown table to ``folder/<name>.tex``.

    Args:
        data: collected report data.
        folder: output folder (created).

    Returns:
        The files written.
    """

    folder.mkdir(parents=True, exist_ok=True)
    tables: dict[str, str] = {}
    if not data.scorecard.empty:
        tables["scorecard"] = latex.scorecard_latex(data.scorecard)
    if not data.comparisons.empty:
        tables["comparison"] = latex.comparison_latex(with_every_configuration(data.comparisons, data.table_gaps))
    if "conditional" in data.analysis:
        tables["conditional"] = latex.comparison_latex(
            data.analysis["conditional"], caption="Paired comparison given the other dimension (2x2 combined "
            "rewrites).", label="tab:conditional")
    for record in registered_tables():  # every registered table with LaTeX columns
        shown = with_every_configuration(data.analysis[record.key], data.table_gaps) if record.key in data.analysis else None
        if shown is not None and (text := record.latex(shown)) is not None:
            tables[record.key] = text
    if "pooled_sd" in data.analysis:
        tables["pooled_sd"] = latex.pooled_sd_latex(data.analysis["pooled_sd"])
    if not data.validation_summary.empty:
        tables["validation"] = latex.validation_latex(data.validation_summary)
    if not data.shift_checks.empty:
        tables["shift_checks"] = latex.shift_latex(summarise_shifts(data.shift_checks))
    if data.flow is not None and not data.flow.flow.empty:

        tables["flow"] = flow_latex(data.flow.flow)
    if "judges" in data.analysis:

        tables["judges_table1"] = table1_latex(data.analysis["judges"])
    if "attack_searches" in data.analysis:
        tables["attack_searches"] = searches_latex(data.analysis["attack_searches"])
    if "attack_transfer" in data.analysis:
        tables["attack_transfer"] = transfer_latex(data.analysis["attack_transfer"])
    written = []
    for name, text in tables.items():
        path = folder / f"{name}.tex"
        write_atomic(path, text)
        written.append(path)
    return written


def write_report(run_dir: Path, *, n_resamples: int = 5000, seed: int = 0,
                 appendix_papers: int | None = None) -> ReportData:
    """Rebuild the whole report of ``run_dir`` from its store (no model calls), every file atomically
    (:func:`rhetorica.files.write_atomic`). The caller holds the run lock
    (:func:`rhetorica.store.lock.run_lock`; :func:`rebuild_report` takes it), so that two writers never
    interleave files of two reports.

    Writes ``report.md``, ``report.html`` (self-contained), ``plots/<name>.png``,
    ``tables/<name>.tex`` (booktabs), ``tables/<name>.csv`` for each analysis table, the tidy
    store tables (``tables/*.parquet`` and ``*.csv``), the study flow (``tables/flow``,
    ``flow_exclusions`` and ``effective_n``, Parquet and CSV) and, when variants were validated,
    ``tables/validation.parquet`` / ``.csv`` (one row per variant).

    Args:
        run_dir: the run directory.
        n_resamples: bootstrap resamples of the change table.
        seed: bootstrap seed.
        appendix_papers: papers in the per-paper appendix (:func:`rhetorica.report.build.collect`).

    Returns:
        The collected :class:`ReportData`.

    Raises:
        FileNotFoundError: if ``run_dir`` has no store.
    """
    data = collect(run_dir, n_resamples=n_resamples, seed=seed, appendix_papers=appendix_papers)
    figures = report_figures(data)
    sections = report_sections(data, figures)
    plots_dir = run_dir / PLOTS_DIR
    plots_dir.mkdir(exist_ok=True)
    for figure in figures:
        if figure.png is not None:
            write_atomic(plots_dir / f"{figure.name}.png", figure.png)
    tables_dir = run_dir / TABLES_DIR
    write_latex(data, tables_dir)
    if not data.comparisons.empty:
        write_atomic(tables_dir / "comparison.csv", data.comparisons.to_csv(index=False))
    if not data.scorecard.empty:
        write_atomic(tables_dir / "scorecard.csv", data.scorecard.to_csv(index=False))
    for name, table in data.analysis.items():
        write_atomic(tables_dir / f"{name}.csv", table.to_csv(index=False))
    if not data.validation.empty:
        write_tidy(tables_dir, {"validation": data.validation})
    if not data.validation_summary.empty:
        write_atomic(tables_dir / "validation_summary.csv", data.validation_summary.to_csv(index=False))

    if not data.shift_checks.empty:
        write_tidy(tables_dir, {"shift_checks": data.shift_checks})
    if data.flow is not None:
        write_tidy(tables_dir, {"flow": data.flow.flow, "flow_exclusions": data.flow.exclusions,
                                "effective_n": data.effective_n})
    write_atomic(run_dir / "report.md", render_markdown(data, sections))
    write_atomic(run_dir / "report.html", render_html(data, sections))
    return data


def rebuild_report(run_dir: Path, *, wait: bool = False, on_wait: Callable[[int | None], None] | None = None,
                   appendix_papers: int | None = None) -> ReportData:
    """:func:`write_report` under the run lock of ``run_dir`` (``rhetorica report``): never while a
    run of the study (which writes its own report before it releases the lock) or another rebuild
    is writing. Every file is replaced atomically, so a rebuild killed at any moment leaves each
    file of the previous report or of the new one, whole.

    Args:
        run_dir: the run directory.
        wait: when a run holds the lock, wait for it to end instead of raising.
        on_wait: called once with the holder's pid before waiting.
        appendix_papers: papers in the per-paper appendix.

    Raises:
        FileNotFoundError: ``run_dir`` has no store (checked first: no lock file is created there).
        rhetorica.store.db.StoreError: the store is not a rhetorica store (checked first too).
        rhetorica.store.lock.RunLockedError: another process holds the lock and ``wait`` is false.
        And what :func:`write_report` raises.
    """
    open_run_store(run_dir).close()  # a folder that is no run gets no lock file
    with run_lock(run_dir, wait=wait, on_wait=on_wait):
        return write_report(run_dir, appendix_papers=appendix_papers)
