"""Bad inputs from issue 3: each gets one clear error (or a warning with a partial result), never a hang."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from rhetorica.documents import DocumentReadError, ReadOptions, read_document
from tests.documents.pdf_factory import paper_pages, write_pdf


def _error(path: Path, **options) -> str:
    with pytest.raises(DocumentReadError) as info:
        read_document(path, options=ReadOptions(**options) if options else None)
    assert info.value.path == str(path)
    return info.value.problem


def test_synthetic_pdf_reads(tmp_path: Path) -> None:
    doc = read_document(write_pdf(tmp_path / "small.pdf", paper_pages(3)))
    assert doc.title == "A Synthetic Study of Long Documents"
    assert [s.title for s in doc.sections] == ["Abstract", "Introduction"]
    assert doc.sections[0].text.startswith("We test that long documents are read without hanging.\n\n")
    assert "jane@example.org" not in doc.to_markdown()
    assert doc.removed[0].item == "author block"
    assert doc.metadata["cut_at"] == "References"


def test_encrypted_pdf(tmp_path: Path) -> None:
    plain = write_pdf(tmp_path / "plain.pdf", paper_pages(2))
    writer = PdfWriter()
    writer.append(PdfReader(plain))
    writer.encrypt(user_password="secret", owner_password="owner")
    locked = tmp_path / "locked.pdf"
    with locked.open("wb") as handle:
        writer.write(handle)
    assert _error(locked) == "PDF is encrypted (password required); decrypt it first"


def test_scanned_pdf_without_text_layer(tmp_path: Path) -> None:
    writer = PdfWriter()
    for _ in range(3):
        writer.add_blank_page(width=612, height=792)
    scanned = tmp_path / "scanned.pdf"
    with scanned.open("wb") as handle:
        writer.write(handle)
    assert _error(scanned) == "no text layer (0 characters on 3 pages); a scanned PDF needs OCR first"


def test_zero_byte_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    assert _error(empty) == "file is empty (0 bytes)"


def test_non_pdf_named_pdf(tmp_path: Path) -> None:
    fake = tmp_path / "paper.pdf"
    fake.write_text("<html><body>Not a paper</body></html>")
    assert _error(fake) == "not a PDF (no %PDF- header); check the file type"


def test_corrupt_pdf_is_not_readable(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n" + b"\x00garbage" * 100)
    assert _error(broken) == "not a readable PDF (pdfium: Data format error)"


def test_a_pdf_without_pages_is_not_readable_and_no_success_is_reported(tmp_path: Path) -> None:
    # PDFium fails to load a document without a page tree naming "Success" as its error; the
    # problem says it could not load the document, and the scan says the same as the reader
    from rhetorica.documents.scan import ScanError, scan_paths

    import pypdf

    empty = tmp_path / "nopages.pdf"
    pypdf.PdfWriter().write(empty)  # a page tree with no page
    assert _error(empty) == "not a readable PDF (pdfium: could not load the document)"
    # PDFium's last error is per process: after an encrypted file, the file without pages must not
    # be called encrypted
    locked = tmp_path / "locked.pdf"
    writer = pypdf.PdfWriter()
    writer.add_blank_page(612, 792)
    writer.encrypt("secret")
    writer.write(locked)
    first, found = scan_paths([locked, empty])
    assert isinstance(first, ScanError) and first.problem == _error(locked) == "PDF is encrypted (password required); decrypt it first"
    assert isinstance(found, ScanError) and found.problem == _error(empty)


def test_timeout_is_an_error(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "small.pdf", paper_pages(2))
    started = time.monotonic()
    problem = _error(pdf, parse_timeout_s=0.001)
    assert problem == "parsing timed out after 0.001 s (pdfium)"
    assert time.monotonic() - started < 15


def test_300_page_pdf(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "long.pdf", paper_pages(300))
    doc = read_document(pdf, options=ReadOptions(parse_timeout_s=60))
    assert doc.metadata["pages"] == 300
    assert [s.title for s in doc.sections] == ["Abstract", "Introduction"]
    intro = doc.sections[1].text
    assert intro.startswith("Sentence 0 on page 2 describes the method in plain words.")
    assert "Sentence 19 on page 299 describes" in intro and "on page 300" not in intro
    page_numbers = next(r for r in doc.removed if r.item == "page number")
    assert page_numbers.location == "pages 1-300"


def test_unsupported_extension(tmp_path: Path) -> None:
    doc = tmp_path / "paper.docx"
    doc.write_bytes(b"PK\x03\x04")
    assert _error(doc) == (
        "unsupported file type (expected a folder, .tex, .tar.gz, .zip, .pdf, .md or .txt)"
    )


def test_missing_path(tmp_path: Path) -> None:
    assert _error(tmp_path / "nope.pdf") == "no such file or folder"
