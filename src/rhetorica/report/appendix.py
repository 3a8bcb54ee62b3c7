"""The report's per-paper appendix: for the first N papers, a scores grid of each version and
link-free word diffs of each rewrite, so the single ``report.html`` a co-author receives shows
examples as well as aggregates (the run viewer, ``rhetorica view``, shows every paper).

Diffs are compact: only changed sections, and an unchanged stretch longer than
``2 * CONTEXT_WORDS`` words is cut to its first and last :data:`CONTEXT_WORDS` words around " … ".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rhetorica.report.data import fmt
from rhetorica.report.views import Section, TableView
from rhetorica.report.viewer.diff import Segment, SectionDiff, document_diff
from rhetorica.report.viewer.pages import variant_label
from rhetorica.store import viewer_queries as q
from rhetorica.store.db import Store

DEFAULT_APPENDIX_PAPERS = 3
"""Papers shown in the appendix unless ``write_report(appendix_papers=...)`` says otherwise."""

CONTEXT_WORDS = 12
"""Unchanged words kept on each side of a change in the appendix's diffs."""


@dataclass
class VariantDiff:
    """The changed sections of one rewrite (``label`` = ``condition@rewriter``), or why it has no text."""

    label: str
    sections: list[SectionDiff]
    note: str = ""


@dataclass
class PaperExample:
    """One paper of the appendix.

    Attributes:
        document_id, title: the paper.
        versions: column labels of the grid (``original`` then each rewrite).
        grid: rows ``[reviewer, metric, cell per version]``; a cell is the mean of the successful
            replicates (2 decimals) with ``(k failed)`` when k replicates failed, or the failure
            status when none succeeded; empty when the version was not reviewed.
        diffs: the rewrites' diffs.
    """

    document_id: str
    title: str
    versions: list[str]
    grid: list[list[str]] = field(default_factory=list)
    diffs: list[VariantDiff] = field(default_factory=list)


def paper_examples(store: Store, n: int) -> list[PaperExample]:
    """The appendix's papers: the first ``n`` assessed documents (by id), read through
    :mod:`rhetorica.store.viewer_queries` (a few queries per paper; ``n = 0`` reads nothing).

    Raises:
        ValueError: ``n`` is negative.
    """
    if n < 0:
        raise ValueError(f"appendix papers must be >= 0, got {n}")
    return [_example(store, doc) for doc in q.first_documents(store, n)] if n else []


def _example(store: Store, doc_id: str) -> PaperExample:
    document = q.document_row(store, doc_id) or {"title": doc_id, "document_json": None}
    variants = q.variant_rows(store, doc_id)
    versions = [q.ORIGINAL] + [variant_label(v["condition"], v["rewriter"]) for v in variants]
    scores: dict[str, dict[str, float]] = {}
    for unit, metric, value in q.scores_of(store, doc_id):
        scores.setdefault(unit, {})[metric] = value
    cells: dict[tuple[str, str, str], list[float]] = {}
    failed: dict[tuple[str, str], list[str]] = {}
    metrics: dict[str, set[str]] = {}
    for a in q.assessment_rows_of(store, doc_id):
        label = variant_label(a["condition"], a["rewriter"])
        if label not in versions:
            versions.append(label)
        if a["status"] != "ok":
            failed.setdefault((a["reviewer"], label), []).append(a["status"])
            metrics.setdefault(a["reviewer"], set())
            continue
        for metric, value in scores.get(a["unit_key"], {}).items():
            metrics.setdefault(a["reviewer"], set()).add(metric)
            cells.setdefault((a["reviewer"], metric, label), []).append(value)
    grid = []
    for reviewer in sorted(metrics):
        for metric in sorted(metrics[reviewer]) or ["–"]:
            row = [reviewer, metric]
            for label in versions:
                values, failures = cells.get((reviewer, metric, label), []), failed.get((reviewer, label), [])
                row.append(_cell(values, failures))
            grid.append(row)
    diffs = []
    for v, label in zip(variants, versions[1:], strict=False):
        if not v["document_json"]:
            diffs.append(VariantDiff(label, [], f"no text ({v['status']}{': ' + v['reason'] if v['reason'] else ''})"))
            continue
        changed = [_compact(s) for s in document_diff(document["document_json"], v["document_json"]) if s.changed]
        diffs.append(VariantDiff(label, changed, "" if changed else "identical to the original"))
    return PaperExample(doc_id, str(document["title"]), versions, grid, diffs)


def _cell(values: list[float], failures: list[str]) -> str:
    if not values:
        return "/".join(sorted(set(failures)))
    text = fmt(sum(values) / len(values))
    return f"{text} ({len(failures)} failed)" if failures else text


def _compact(section: SectionDiff) -> SectionDiff:
    """``section`` with each long unchanged run cut to :data:`CONTEXT_WORDS` words on each side, and
    each run too long for a word diff (one with a ``note``) to its first and last
    :data:`CONTEXT_WORDS` words."""
    out = []
    last = len(section.segments) - 1
    for i, segment in enumerate(section.segments):
        words = segment.text.split()
        if segment.note and len(words) > 2 * CONTEXT_WORDS:
            cut = " ".join(words[:CONTEXT_WORDS]) + " … " + " ".join(words[-CONTEXT_WORDS:])
            out.append(Segment(segment.op, cut, segment.note))
            continue
        if segment.op != "equal" or len(words) <= 2 * CONTEXT_WORDS:
            out.append(segment)
            continue
        text = segment.text  # keep the whitespace that separates it from the changed words
        lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
        head = lead + " ".join(words[:CONTEXT_WORDS]) + " " if i > 0 else ""
        tail = " " + " ".join(words[-CONTEXT_WORDS:]) + trail if i < last else ""
        out.append(Segment("equal", f"{head}…{tail}"))
    return SectionDiff(section.title, out, section.deleted_words, section.inserted_words)


def appendix_sections(examples: list[PaperExample]) -> list[Section]:
    """One report section per example paper (keys ``appendix-1``, ``appendix-2``, ...): its scores
    grid as a table and its rewrites' compact diffs (no links: the report is one file)."""
    note = ("Scores: per reviewer configuration and metric, the mean of the successful replicates of each "
            "version (failed replicates counted, never imputed). Diffs: changed sections only, deleted words "
            "struck out ([-…-] in Markdown), inserted words marked ({+…+}), unchanged stretches cut to "
            f"{CONTEXT_WORDS} words around '…'.")
    out = []
    for i, example in enumerate(examples, start=1):
        headers = ["Reviewer", "Metric", *example.versions]
        # the paper's title and id are untrusted text: they go in the caption (escaped in every
        # output), never in the section title (a Markdown heading written as is)
        table = TableView(f"{example.title} ({example.document_id}): scores of each version", headers, example.grid,
                          [False, False] + [True] * len(example.versions))
        out.append(Section(f"appendix-{i}", f"Appendix {i}: example paper", note, [table], diffs=example.diffs))
    return out
