"""What the benchmarks' ``--smoke`` modes share (imported by the scripts; not a benchmark itself)."""

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
