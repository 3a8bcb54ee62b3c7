"""Layout cases of issue 11 §7 on small generated PDFs (no TeX needed): a diagonal watermark, line
numbers on half-empty pages, a real hyphen at a line end, page numbers far below a short page."""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents import read_document
from tests.documents.pdf_factory import write_pdf

PROSE = [
    "We train the model on the source domain and test it on out-of-distribution data from",
    "three other domains, which we describe below in the order of their size and age.",
    "The out-of-",
    "distribution results are reported for each domain separately and then together.",
]


def _page(first: bool, lines: list[str], numbers: bool = False, start: int = 1) -> list[tuple]:
    spec: list[tuple] = []
    y = 700.0
    if first:
        spec += [(150, 740, 18, True, "A Paper About Layout Cases"), (72, y, 12, True, "1 Introduction")]
        y -= 20
    for k, text in enumerate(lines):
        spec.append((90, y, 10, False, text))
        if numbers:
            spec.append((60, y, 7, False, str(start + k)))
        y -= 12
    return spec


def test_real_hyphen_at_a_line_end_is_kept(tmp_path: Path) -> None:
    doc = read_document(write_pdf(tmp_path / "h.pdf", [_page(True, PROSE)]))
    text = doc.sections[0].text
    assert text.count("out-of-distribution") == 2 and "out-ofdistribution" not in text


def test_diagonal_watermark_is_not_glued_into_the_text(tmp_path: Path) -> None:
    pages = [_page(True, PROSE) + [(150, 300, 60, True, "CONFIDENTIAL", 45)], _page(False, PROSE[:2])]
    pages[1].append((150, 300, 60, True, "CONFIDENTIAL", 45))
    doc = read_document(write_pdf(tmp_path / "w.pdf", pages))
    assert "CONFIDENTIAL" not in doc.to_markdown() and doc.title == "A Paper About Layout Cases"
    assert [(r.item, r.location, r.text) for r in doc.removed if r.item.startswith("rotated")] == [
        ("rotated text (watermark or side stamp)", "pages 1-2", "CONFIDENTIAL")]


def test_line_numbers_on_half_empty_pages_are_removed(tmp_path: Path) -> None:
    # four numbered lines per page, far less than half a page: the old rule needed 10 numbers
    # spread over half the page, so "1 We train ..." merged into the prose
    pages = [_page(True, PROSE, numbers=True, start=1), _page(False, PROSE, numbers=True, start=5)]
    for k, page in enumerate(pages):
        page.append((300, 40, 10, False, str(k + 1)))  # the page number, far below the text
    doc = read_document(write_pdf(tmp_path / "n.pdf", pages))
    text = doc.sections[0].text
    assert not any(ch.isdigit() for ch in text), text
    assert {r.item for r in doc.removed} >= {"line numbers", "page number"}


def test_two_line_heading_whose_first_line_ends_in_a_comma(tmp_path: Path) -> None:
    page = _page(True, PROSE[:2])
    page += [(90, 640, 12, True, "Cython bindings for BLAS, LAPACK,"), (90, 626, 12, True, "and special functions"),
             (90, 606, 10, False, PROSE[3])]
    doc = read_document(write_pdf(tmp_path / "t.pdf", [page]))
    assert [s.title for s in doc.sections] == ["Introduction", "Cython bindings for BLAS, LAPACK, and special functions"]
    assert doc.sections[1].text == PROSE[3]
