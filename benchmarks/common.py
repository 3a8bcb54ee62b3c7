"""What several benchmark scripts share (imported by them; not a benchmark itself)."""

from __future__ import annotations


def stub_scan() -> None:
    """Replace the study's hidden-instruction scan by an empty report, in this process only (the
    runner benchmarks measure the runner; ``bench_scan.py`` measures the scan)."""
    from rhetorica.documents.scan import ScanReport
    from rhetorica.study import scanning

    scanning.scan_document = lambda document, include_source=False: ScanReport(  # type: ignore[assignment]
        target=f"document {document.id}", format="document")
