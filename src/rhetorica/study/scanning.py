"""The study's scan check: every review input is scanned once for hidden text and instructions.

Originals are scanned with their source file (a PDF's hidden characters are only in the file),
variants by their text. Results go to the store's ``scans`` table (a clean scan is stored too, so
"no finding" is distinguishable from "not scanned") and are reported; nothing is removed from a
document because of this check — hidden text in a source is kept or dropped when the document is
read (the study's ``document_options.hidden_text``), and a reviewer's ``defence`` decides the rest.

Each text and each source file is scanned once per content: :class:`StoreScanCache` keeps every
report in the store's ``scan_cache`` table, so a re-run, ``rhetorica estimate`` or another matrix
cell with the same text reads it back instead of scanning.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from rhetorica.documents.models import Document
from rhetorica.documents.scan import SCANNER_VERSION, Finding, ScanReport, scan_document
from rhetorica.hashing import content_hash
from rhetorica.labels import ORIGINAL
from rhetorica.problems import WARNING_PREFIX
from rhetorica.store.db import Store

NOT_SCANNED = "not scanned: "
"""Prefix of a stored scan note naming a page or file the scan could not read
(:attr:`~rhetorica.documents.scan.ScanReport.unread`); each is also a warning of the run's ``scan`` stage."""

FLAG_SEVERITY = "medium"
"""Findings at or above this severity are flagged in the run output and the report."""


@dataclass
class ScanOutcome:
    """Scan results of a set of inputs.

    Attributes:
        source_findings: per document id, the findings of its source file (used by defences).
        flagged: ``(item, max severity, findings at or above medium)`` for each flagged input.
        problems: ``("scan", item, reason)`` for inputs whose scan failed (they stay unscanned), and a
            warning for each page or file of an input the scan could not read (the input is still used).
    """

    source_findings: dict[str, list[Finding]] = field(default_factory=dict)
    flagged: list[tuple[str, str, int]] = field(default_factory=list)
    problems: list[tuple[str, str, str]] = field(default_factory=list)


class StoreScanCache:
    """:class:`~rhetorica.documents.scan.cache.ScanCache` over the store's ``scan_cache`` table.

    Args:
        store: the study store, or ``None`` (nothing cached yet, nothing kept); a store without the
            ``scan_cache`` table (read-only, from before schema version 8) counts as ``None``.
        writable: keep new reports (``False`` for a store opened read-only, as ``estimate`` does).
    """

    def __init__(self, store: Store | None, *, writable: bool = True) -> None:
        # a store opened read-only is not migrated: one from before the cache has no table to read
        self.store = store if store is not None and store.has_table("scan_cache") else None
        self.writable = writable and self.store is not None

    def get(self, key: str) -> ScanReport | None:
        found = self.store.cached_scan(key) if self.store is not None else None
        return None if found is None else ScanReport.model_validate_json(found)

    def put(self, key: str, report: ScanReport) -> None:
        if self.writable and self.store is not None:
            self.store.cache_scan(key, report.scanner_version, report.model_dump_json())


def scan_key(document: Document, condition: str, rewriter: str) -> str:
    """Key of a scan: hash of (scanner version, content hash, source path, matrix cell)."""
    return content_hash("scan", SCANNER_VERSION, document.content_hash, document.source.path,
                        [document.id, condition, rewriter])


def _row(key: str, document: Document, condition: str, rewriter: str, report: ScanReport) -> dict[str, object]:
    return {
        "scan_key": key, "document_id": document.id, "condition": condition, "rewriter": rewriter,
        "content_hash": document.content_hash, "scanner_version": report.scanner_version,
        "n_findings": len(report.findings), "n_flagged": len(report.at_or_above(FLAG_SEVERITY)),
        "max_severity": report.max_severity,
        "findings_json": json.dumps([f.model_dump(mode="json") for f in report.findings]),
        "notes_json": json.dumps(report.notes + [NOT_SCANNED + u.describe() for u in report.unread]),
    }


def scan_inputs(store: Store, inputs: list[tuple[Document, str, str]]) -> ScanOutcome:
    """Scan each ``(document, condition, rewriter)`` not yet scanned under this scanner version.

    Args:
        store: the study store (reads earlier scans, writes new ones, one transaction each).
        inputs: review inputs; condition ``original`` scans the source file too.

    Returns:
        :class:`ScanOutcome` over all ``inputs`` (stored scans included). A scan that raises is a
        problem of that input only.
    """
    stored = {row["scan_key"]: row for row in store.scan_rows()}
    cache = StoreScanCache(store)
    outcome = ScanOutcome()
    for document, condition, rewriter in inputs:
        key = scan_key(document, condition, rewriter)
        item = f"{document.id} / {condition} / {rewriter}"
        if key in stored:
            row = stored[key]
            findings = [Finding.model_validate(f) for f in json.loads(row["findings_json"])]
        else:
            try:
                report = scan_document(document, include_source=condition == ORIGINAL, cache=cache)
            except Exception as exc:  # noqa: BLE001 - one unscannable input never stops a study
                outcome.problems.append(("scan", item, f"scan failed ({type(exc).__name__}: {exc})"))
                continue
            row = _row(key, document, condition, rewriter, report)
            store.record_scan(row)
            findings = report.findings
        outcome.problems += [("scan", item, f"{WARNING_PREFIX}{note}") for note in json.loads(str(row["notes_json"]))
                             if note.startswith(NOT_SCANNED)]
        if condition == ORIGINAL:
            outcome.source_findings[document.id] = [f for f in findings if f.location.file is not None]
        if int(row["n_flagged"]):  # type: ignore[call-overload]
            outcome.flagged.append((item, str(row["max_severity"]), int(row["n_flagged"])))  # type: ignore[call-overload]
    return outcome
