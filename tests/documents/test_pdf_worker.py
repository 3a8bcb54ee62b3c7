"""The PDF worker process: clean environment, memory cap, whole read under the timeout (issue 9 §2,
issue 11 §7)."""

from __future__ import annotations

import os
import stat
import sys
import zlib
from pathlib import Path

import pytest

from rhetorica.documents import DocumentReadError, ReadOptions, read_document
from rhetorica.documents.pdf import runner
from tests.documents.pdf_factory import paper_pages, write_objects, write_pdf


def test_worker_does_not_inherit_api_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the worker is started through a wrapper that records the environment it was given
    seen = tmp_path / "env.txt"
    wrapper = tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\nenv > {seen}\nexec {sys.executable} \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(runner.sys, "executable", str(wrapper))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-parent-secret")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-parent-secret")
    pdf = write_pdf(tmp_path / "p.pdf", paper_pages(2))
    pages, layout = runner.run_backend(pdf, 60)
    assert len(pages) == 2 and layout.title == "A Synthetic Study of Long Documents"
    env = dict(line.split("=", 1) for line in seen.read_text().splitlines() if "=" in line)
    assert "secret" not in seen.read_text()
    assert "OPENAI_API_KEY" not in env and "ANTHROPIC_API_KEY" not in env
    assert env["PATH"] == os.environ["PATH"]
    assert set(env) - {"PWD", "SHLVL", "_"} <= {*runner.CHILD_ENV_KEYS, "PYTHONPATH"}


def _bomb_pdf(path: Path, megabytes: int) -> Path:
    """A one-page PDF whose content stream inflates to ``megabytes`` MiB of spaces."""
    packer = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    data = b"".join(packer.compress(chunk) for _ in range(megabytes)) + packer.compress(b"BT /F1 12 Tf 72 700 Td (Hi) Tj ET") + packer.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return write_objects(path, objects)


def test_huge_allocation_fails_cleanly_under_the_memory_cap(tmp_path: Path) -> None:
    pdf = _bomb_pdf(tmp_path / "bomb.pdf", 700)
    assert pdf.stat().st_size < 2_000_000
    # PDFium (C++) aborts when an allocation fails; the message names the limit
    with pytest.raises(runner.BackendFailure, match=r"pdfium process was killed by signal 6 \(SIGABRT\); .*300 MiB"):
        runner.run_backend(pdf, 120, memory_mb=300)
    with pytest.raises(DocumentReadError, match=r"bomb\.pdf: not a readable PDF \(pdfium: Crash: pdfium process was killed"):
        read_document(pdf, options=ReadOptions(parse_memory_mb=300))
    # with room enough the same PDF reads (the cap, not the PDF, stopped it)
    pages, _ = runner.run_backend(pdf, 120, memory_mb=4096)
    assert [line.text for line in pages[0].lines] == ["Hi"]


def test_whole_read_is_under_the_timeout(tmp_path: Path) -> None:
    import time

    from rhetorica.documents.pdf.layout import Layout

    # the layout pass runs in the worker, so the reader's timeout bounds it too
    pages, layout = runner.run_backend(write_pdf(tmp_path / "p.pdf", paper_pages(3)), 60)
    assert isinstance(layout, Layout) and [b.text for b in layout.blocks if b.kind == "heading"] == [
        "Abstract", "Introduction", "References"]
    big = tmp_path / "big.pdf"
    write_pdf(big, [[(72 + (k % 40) * 11.5, 460 - 3 * ((k // 40) % 120), 2.5, False, f"n{k % 1000:03d}")
                     for k in range(60_000)]])
    start = time.perf_counter()
    with pytest.raises(DocumentReadError, match=r"parsing timed out after 0\.5 s \(pdfium\)"):
        read_document(big, options=ReadOptions(parse_timeout_s=0.5))
    assert time.perf_counter() - start < 5
