"""Hidden text in PDFs, read character by character through pdfium (pypdfium2's raw API).

Which characters are hidden is decided in :mod:`rhetorica.documents.pdf.visibility`; the kinds
are ``pdf-invisible-text`` (render mode 3 or 7), ``pdf-off-page``, ``pdf-clipped``,
``pdf-covered``, ``pdf-white-text`` (white or transparent fill on a white page) and
``pdf-tiny-text`` (below :data:`~rhetorica.documents.pdf.visibility.MIN_FONT_PT`).

Consecutive hidden characters with the same reasons form one finding (the exact extracted text,
page, box). It is ``high`` when the text carries an instruction
(:mod:`rhetorica.documents.scan.instructions`), else ``low`` (``info`` for fewer than three
letters). Visible instruction-like text on a page is ``instruction`` (``medium``; ``high`` when it
demands a verdict or is obfuscated), looked for in the page's visible characters only (hidden ones
count as spaces, so visible text next to a hidden span is judged on its own); an instruction in
the document information dictionary is ``pdf-metadata`` (``high``).

A page with no text character at all (a scanned image, or a page the scan cannot otherwise read)
is listed in the report's ``unread`` (:data:`NO_TEXT_LAYER`): whatever text it shows was not
checked, so the report is incomplete rather than clean.

Not checked: what :mod:`rhetorica.documents.pdf.visibility` leaves out, and XMP metadata.
"""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.pdf.visibility import REASONS, CharState, hidden_runs, page_chars, run_box, run_text
from rhetorica.documents.scan.findings import Finding, Location, ScanReport, Severity, Unread
from rhetorica.documents.scan.instructions import find_instructions, visible_verdict
from rhetorica.documents.scan.occurrence import copies, words_before


NO_TEXT_LAYER = "no text layer (an image-only or blank page: any text it shows can only be read by OCR)"
"""Why a page without a single text character is unread."""

_LINE_END_HYPHEN = re.compile(r"[\x02\ufffe]\s*")
_KINDS = {"invisible": "pdf-invisible-text", "off-page": "pdf-off-page", "clipped": "pdf-clipped",
          "covered": "pdf-covered", "white": "pdf-white-text", "tiny": "pdf-tiny-text"}


def _joined(text: str) -> str:
    r"""``text`` with each line-end hyphen PDFium marks (``\x02`` per character, ``\ufffe`` in a
    text range; then the line break it may add) turned into soft hyphens, which the instruction
    rules read through: the same length, so indices still name characters, and a word TeX
    hyphenated across two lines is one word again."""
    return _LINE_END_HYPHEN.sub(lambda m: "\u00ad" * len(m.group(0)), text)


def _run_finding(run: list[CharState], file: str, page_number: int, *, fragment: bool = False,
                 before: str | None = None) -> Finding:
    text = run_text(run)
    reasons = frozenset().union(*(c.reasons for c in run))
    details = {r: d for c in reversed(run) for r, d in c.details.items()}
    kind = _KINDS[next(r for r in REASONS if r in reasons)]
    matches = find_instructions(_joined(text))
    why = "; ".join(details[r] for r in REASONS if r in reasons)
    severity: Severity = "high" if matches else ("low" if sum(ch.isalpha() for ch in text) >= 3 else "info")
    if matches:
        why += f"; contains an instruction ({matches[0].rule})"
    if fragment and not matches:  # an instruction glued to a visible word is still one
        severity = "info"
        why += "; part of a word whose other letters are visible (e.g. a line running past the page edge)"
    box = tuple(round(v, 1) for v in run_box(run))
    return Finding(kind=kind, severity=severity, text=text, reason=why, instruction=matches[0].rule if matches else None,
                   hidden_text=text, before=before,
                   location=Location(file=file, page=page_number, bbox=box))  # type: ignore[arg-type]


def _whole_spans(runs: list[list[CharState]], chars: list[CharState]) -> list[tuple[list[CharState], bool]]:
    """``runs`` with neighbours that only whitespace separates joined into one span (whatever hides
    each part: a line clipped and running off the page is one hidden span), each with whether it is
    a fragment: a letter of it touches a visible letter of the same word."""
    spans: list[list[CharState]] = []
    for run in runs:
        if spans and all(c.char.isspace() for c in chars[spans[-1][-1].index + 1:run[0].index]):
            spans[-1] = spans[-1] + chars[spans[-1][-1].index + 1:run[0].index] + run
        else:
            spans.append(run)

    def visible_letter(i: int) -> bool:
        return 0 <= i < len(chars) and chars[i].char.isalpha() and not chars[i].reasons

    return [(span, (span[0].char.isalpha() and visible_letter(span[0].index - 1))
             or (span[-1].char.isalpha() and visible_letter(span[-1].index + 1))) for span in spans]


def scan_pdf(path: Path, *, whole_spans: bool = False) -> ScanReport:
    """Scan every page of a PDF (see the module docstring).

    Args:
        path: the PDF.
        whole_spans: report hidden text as spans of consecutive hidden characters whatever hides
            each (one finding, named by the first reason of :data:`REASONS` any of them has), and
            a span without an instruction that is part of a word whose other letters are visible
            as ``info`` (a PDF a project was just compiled to: :mod:`rhetorica.documents.scan.typeset`).

    Returns:
        The report; each page without a text character is in its ``unread`` (:data:`NO_TEXT_LAYER`),
        a PDF without pages is unread as a whole.

    Raises:
        pypdfium2.PdfiumError: if pdfium cannot open the file (not a PDF, encrypted, damaged).
    """
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    report = ScanReport(target=str(path), format="pdf")
    seen: list[str] = []  # each page's text as a reader sees it (hidden characters blanked)
    pdf = pdfium.PdfDocument(str(path))
    try:
        for key, value in pdf.get_metadata_dict().items():
            matches = find_instructions(value) if value else []
            if matches:
                report.findings.append(Finding(
                    kind="pdf-metadata", severity="high", text=value, instruction=matches[0].rule, hidden_text=value,
                    location=Location(file=str(path), field=key),
                    reason=f"document information field {key} (not shown on any page) contains an instruction "
                           f"({matches[0].rule})"))
        if len(pdf) == 0:
            report.unread.append(Unread(file=str(path), reason="the PDF has no pages"))
        for page_index in range(len(pdf)):
            page = pdf[page_index]
            textpage = raw.FPDFText_LoadPage(page.raw)
            try:
                chars = page_chars(page, textpage)
            finally:
                raw.FPDFText_ClosePage(textpage)
                page.close()
            if all(c.char.isspace() for c in chars):
                report.unread.append(Unread(file=str(path), page=page_index + 1, reason=NO_TEXT_LAYER))
                continue
            hidden = [run for run in hidden_runs(chars) if "".join(c.char for c in run).strip()]
            spans = _whole_spans(hidden, chars) if whole_spans else [(run, False) for run in hidden]
            unseen = {c.index for run in hidden for c in run}
            page_text = _joined("".join(" " if c.index in unseen else c.char for c in chars))
            seen.append(page_text.replace("\u00ad", ""))
            report.findings += [_run_finding(run, str(path), page_index + 1, fragment=fragment,
                                             before=" ".join(words_before(page_text, run[0].index)))
                                for run, fragment in spans]
            for match in find_instructions(page_text):
                span = chars[match.start:match.end]
                severity, reason = visible_verdict(match)
                report.findings.append(Finding(
                    kind="instruction", severity=severity, text=page_text[match.start:match.end],
                    instruction=match.rule, decoded=match.decoded, reason=reason,
                    location=Location(file=str(path), page=page_index + 1,
                                      bbox=tuple(round(v, 1) for v in run_box(span)))))  # type: ignore[arg-type]
    finally:
        pdf.close()
    shown = "\n\n".join(seen)
    report.findings = [f.model_copy(update={"visible": len(copies(shown, f.hidden_text))}) if f.hidden_text else f
                       for f in report.findings]
    return report


def typeset_text(path: Path) -> str:
    """Every character of a PDF's pages, hidden or not, as extracted (pages joined by a blank line),
    with TeX's line-end hyphens joined (:func:`_joined`): what was typeset at all.

    Raises:
        pypdfium2.PdfiumError: if pdfium cannot open the file.
    """
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = []
        for page_index in range(len(pdf)):
            page = pdf[page_index]
            textpage = page.get_textpage()
            try:
                pages.append(_joined(textpage.get_text_range()))
            finally:
                textpage.close()
                page.close()
    finally:
        pdf.close()
    return "\n\n".join(pages)
