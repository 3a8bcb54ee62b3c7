"""What several benchmark scripts share (imported by them; not a benchmark itself)."""

from __future__ import annotations


def embedded_unavailable() -> str | None:
    """Why the embedded model cannot run here (llama-cpp-python or the packaged weights missing), or
    ``None`` when it can."""
    try:
        import llama_cpp  # noqa: F401

        from rhetorica.models.providers.embedded import gguf_path

        gguf_path("smollm2-135m")
    except Exception as exc:  # noqa: BLE001 - an optional extra: the reason is printed, not raised
        return f"{type(exc).__name__}: {exc}"
    return None


def stub_scan() -> None:
    """Replace the study's hidden-instruction scan by an empty report, in this process only (the
    runner benchmarks measure the runner; ``bench_scan.py`` measures the scan)."""
    from rhetorica.documents.scan import ScanReport
    from rhetorica.study import scanning

    scanning.scan_document = lambda document, include_source=False: ScanReport(  # type: ignore[assignment]
        target=f"document {document.id}", format="document")
