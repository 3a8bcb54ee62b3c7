"""A blinded copy of a PDF: identity strings leave the file, the rest of the text stays (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader  # independent reader of the copy

from rhetorica.documents.blinding import Identity
from rhetorica.documents.models import RemovedItem
from rhetorica.documents.pdf.redact import identity_strings, pdf_text, redact_pdf
from tests.documents.pdf_factory import write_pdf

BODY = "Spectral filters on graphs are fast."


def _paper(tmp_path: Path) -> Path:
    return write_pdf(tmp_path / "paper.pdf", [[
        (72, 700, 18, True, "Fast Spectral Filters"),
        (72, 670, 11, False, "Jane Q. Doorman"),
        (72, 655, 11, False, "jane.doorman@example.org"),
        (72, 600, 11, False, BODY),
        (72, 585, 11, False, "Our code is at https://github.com/jane-"),
        (72, 570, 11, False, "doorman/filters and runs on CPUs."),
    ]])


def _text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_identity_strings_take_identity_items_line_by_line_longest_first() -> None:
    removed = [RemovedItem(item="author block", location="page 1",
                           text="Jane Q. Doorman   Al Roe\nUniv. X   EPFL\njane@x.org"),
               RemovedItem(item="page number", location="page 1", text="Jane Q. Doorman 12"),
               RemovedItem(item="running header", location="pages 2-9", text="Doorman et al."),
               RemovedItem(item="running header", location="pages 2-9", text="Fast Spectral Filters"),
               RemovedItem(item="own DOI", location="page 1", text="10.1145/3544548")]
    found = identity_strings(Identity(["Jane Q. Doorman"], ["jane@x.org"]), removed)
    # line by line, cell by cell (three spaces apart); "Univ. X" and "Al Roe" have under 6 letters
    # and digits and are no acronym: not looked up; "EPFL" is; the page number's text is no identity
    # item, nor is a running header without an author's surname (the short title)
    assert found == ["10.1145/3544548", "Jane Q. Doorman", "Doorman et al.", "jane@x.org", "EPFL"]


def test_redacted_copy_loses_the_name_email_and_a_url_broken_across_lines(tmp_path: Path) -> None:
    source = _paper(tmp_path)
    assert "jane.doorman@example.org" in _text(source)
    out = tmp_path / "blinded.pdf"
    audit = redact_pdf(source, ["Jane Q. Doorman", "jane.doorman@example.org", "https://github.com/jane-doorman/filters"],
                       out)
    text = _text(out)
    assert "Doorman" not in text and "doorman" not in text and "example.org" not in text
    assert "github" not in text
    assert "Fast Spectral Filters" in text and BODY in text
    # one text run per line in this file: the URL's two lines go whole, words around it included
    assert [(a.item, a.location, a.text) for a in audit] == [
        ("PDF text run", "page 1", "Jane Q. Doorman"),
        ("PDF text run", "page 1", "jane.doorman@example.org"),
        ("PDF text run", "page 1", "Our code is at https://github.com/jane-"),
        ("PDF text run", "page 1", "doorman/filters and runs on CPUs."),
    ]
    assert PdfReader(out).metadata in (None, {}) or not PdfReader(out).metadata.get("/Author")


def test_an_acronym_goes_as_a_whole_word_only(tmp_path: Path) -> None:
    source = write_pdf(tmp_path / "a.pdf", [[(72, 700, 11, False, "Lab of EPFL"),
                                             (72, 680, 11, False, "The EPFLOW method and epfl in lower case.")]])
    out = tmp_path / "out.pdf"
    assert [a.text for a in redact_pdf(source, ["EPFL"], out)] == ["Lab of EPFL"]
    assert _text(out) == "The EPFLOW method and epfl in lower case."


def test_nothing_to_remove_keeps_every_line(tmp_path: Path) -> None:
    source = _paper(tmp_path)
    out = tmp_path / "same.pdf"
    assert redact_pdf(source, ["Someone Else", "abc"], out) == []
    assert pdf_text(out) == pdf_text(source)


def test_not_a_pdf_is_an_error(tmp_path: Path) -> None:
    import pypdfium2

    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 fake")
    with pytest.raises(pypdfium2.PdfiumError):
        redact_pdf(bad, ["Jane Q. Doorman"], tmp_path / "out.pdf")
