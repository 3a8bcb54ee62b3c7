"""Reviewer defences: ``strip`` removes hidden spans (and only those), ``warn`` tells the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents import ReadOptions, read_document
from rhetorica.documents.models import Document
from rhetorica.documents.scan import scan_path
from rhetorica.reviewers.defence import NOTICE_HEADER, defend
from rhetorica.rewriting.injection import InjectionSpec, inject_document, injection_condition_names
from tests.documents.scan.plant import INSTRUCTION, plant_pdf


@pytest.fixture(scope="module")
def paper(shared_data: Path) -> Document:
    return read_document(shared_data / "papers" / "gcrn_iclr2017")


@pytest.mark.parametrize("name", [n for n in injection_condition_names() if n.startswith("injection:hidden-")])
def test_strip_gives_back_the_original_text_of_every_hidden_injection(paper: Document, name: str) -> None:
    variant = inject_document(paper, name)
    defended = defend(variant, "strip")
    assert [s.text for s in defended.document.sections] == [s.text for s in paper.sections]
    assert defended.removed == [variant.metadata["injection"]["text"]] and defended.notice is None


def test_strip_keeps_visible_text_and_warn_lists_it(paper: Document) -> None:
    variant = inject_document(paper, "injection:visible-body-request-accept")
    assert defend(variant, "strip").document == variant
    warned = defend(variant, "warn")
    assert warned.document == variant and warned.notice is not None
    assert warned.notice.startswith(NOTICE_HEADER)
    assert "[visible, instruction, section" in warned.notice
    # the whole demanding sentence (issue 35: the excerpt holds the demand, not only the words a rule matched)
    assert warned.notice.endswith("] " + InjectionSpec("injection:visible-body-request-accept").instruction)


def test_warn_on_hidden_text_names_it_and_none_changes_nothing(paper: Document) -> None:
    variant = inject_document(paper, "injection:hidden-abstract-command-score")
    warned = defend(variant, "warn")
    assert "1. [hidden, css-hidden, section 'Abstract' line 3, col 1] " + InjectionSpec(
        "injection:hidden-abstract-command-score").instruction in warned.notice
    assert defend(variant, "none").document is variant and defend(variant, "none").notice is None
    assert defend(paper, "warn").notice is None  # a clean paper: no notice, the prompt is unchanged
    with pytest.raises(ValueError, match="unknown defence 'filter'"):
        defend(paper, "filter")  # type: ignore[arg-type]


def test_strip_removes_white_pdf_text_found_in_the_source_file(shared_data: Path, tmp_path: Path) -> None:
    source = shared_data / "pdfs" / "stable-nalu_iclr2020_main.pdf"
    planted = plant_pdf(source, tmp_path / "white.pdf", "white")
    document = read_document(planted, options=ReadOptions(hidden_text="keep"))  # as an injection study reads it
    assert INSTRUCTION in " ".join(document.to_markdown().split())  # the reviewer would read it
    defended = defend(document, "strip", source_findings=scan_path(planted).findings)
    assert INSTRUCTION not in " ".join(defended.document.to_markdown().split())
    clean = read_document(source)
    assert defended.document.word_count == clean.word_count
    assert read_document(planted).word_count == clean.word_count  # reading drops it by default (hidden_text: drop)


def test_document_scan_reports_a_hidden_pdf_instruction_once(shared_data: Path, tmp_path: Path) -> None:
    from rhetorica.documents.scan import scan_document

    planted = plant_pdf(shared_data / "pdfs" / "scipy-1.0_paper.pdf", tmp_path / "invisible.pdf", "invisible")
    report = scan_document(read_document(planted))
    assert [(f.kind, f.severity, f.location.page) for f in report.at_or_above("medium")] == [
        ("pdf-invisible-text", "high", 1)]
