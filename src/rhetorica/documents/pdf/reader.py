"""Read a PDF into a blinded :class:`Document`: PDFium extraction and the layout pass in a timed,
memory-capped child process."""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.blinding import EMAIL, IDENTITY_KEY, Identity, blind_sections, large_removals
from rhetorica.documents.models import Document, DocumentSource, RemovedItem, Section
from rhetorica.documents.options import DocumentReadError, ReadOptions
from rhetorica.documents.pdf.backends import BACKEND, PACKAGE, backend_version
from rhetorica.documents.pdf.layout import Layout
from rhetorica.documents.pdf.lines import PageLines
from rhetorica.documents.pdf.runner import BackendFailure, BackendTimeout, run_backend
from rhetorica.documents.pdf.unreadable import check_pdf_file, unreadable
from rhetorica.documents.sections import cut_after_references
from rhetorica.hashing import content_hash

MIN_CHARS_PER_PAGE = 20
HIDDEN_ITEM = "hidden text"
"""The audit item of text left out because a human reader cannot see it."""
NO_ABSTRACT = ("no abstract found (no 'Abstract' heading and no prose paragraph between the title block and the "
               "first section); the text read has no abstract")


def extract(path: Path, options: ReadOptions) -> tuple[list[PageLines], Layout]:
    """Extract pages with PDFium and run the layout pass, both bounded by ``options.parse_timeout_s``
    and ``options.parse_memory_mb``; under ``options.hidden_text == "drop"`` hidden characters are
    left out before the layout pass.

    Raises:
        DocumentReadError: pypdfium2 missing, encrypted, unreadable, or the time limit passed.
    """
    if backend_version() == "unknown":
        raise DocumentReadError(path, f"PDF reading needs {PACKAGE} (pip install {PACKAGE})")
    try:
        return run_backend(path, options.parse_timeout_s, options.parse_memory_mb, options.hidden_text == "drop")
    except BackendTimeout as exc:
        raise DocumentReadError(path, f"parsing timed out after {options.parse_timeout_s:g} s ({BACKEND})") from exc
    except BackendFailure as exc:
        raise DocumentReadError(path, unreadable(str(exc), exc.kind)) from exc


def read_pdf(path: Path, doc_id: str, options: ReadOptions) -> Document:
    """Read a PDF paper.

    Sections come from heading detection (numbering removed, capitals to sentence case); an
    abstract set without a heading gets one (:func:`rhetorica.documents.pdf.layout.analyse`), and a
    document without an abstract gets a warning; text before the first heading is kept as an
    untitled section. The title block between the title and the first heading (with ACM's reference
    block and page 1's permission block) is removed under blinding (audited), as are
    page numbers, running headers, venue notes and line-number gutters (always). A removal of more
    than 300 words (per kind of item) is also a warning. With
    ``cut_after_references`` the References section and everything after it are dropped. Under
    ``hidden_text: drop`` every hidden character is left out before the layout pass and each run of
    them is in ``removed`` as item :data:`HIDDEN_ITEM`, at ``page N (left, bottom)``.

    Raises:
        DocumentReadError: empty, not a PDF, encrypted, no text layer (scanned), unreadable, or the
            time limit passed.
    """
    check_pdf_file(path)
    pages, layout = extract(path, options)
    warnings: list[str] = []
    chars = sum(len(line.text) for page in pages for line in page.lines)
    if not pages:
        raise DocumentReadError(path, "PDF has no pages")
    hidden = sum(len(run.text) for page in pages for run in page.hidden)
    if chars < MIN_CHARS_PER_PAGE * len(pages) and hidden:
        raise DocumentReadError(path, f"no visible text ({chars} visible characters on {len(pages)} pages; "
                                      f"{hidden} hidden characters left out under hidden_text: drop)")
    if chars < MIN_CHARS_PER_PAGE * len(pages):
        raise DocumentReadError(
            path, f"no text layer ({chars} characters on {len(pages)} pages); a scanned PDF needs OCR first"
        )
    removed = [RemovedItem(item=HIDDEN_ITEM, location=f"page {page.index + 1} ({run.box[0]:.0f}, {run.box[1]:.0f})",
                           text=run.text, reason=run.reason) for page in pages for run in page.hidden]
    removed += layout.removed
    sections: list[Section] = []
    numbers: list[str] = []
    for block in layout.blocks:
        if block.kind == "heading":
            sections.append(Section(title=block.text, text="", level=block.level))
            numbers.append(block.number)
            continue
        if not sections:  # text before the first heading is kept, untitled
            sections.append(Section(title="", text="", level=1))
            numbers.append("")
        last = sections[-1]
        sections[-1] = last.model_copy(update={"text": f"{last.text}\n\n{block.text}".strip()})
    front_text = "\n".join(line.text for line in layout.front).strip()
    metadata: dict[str, object] = {"pages": len(pages), "two_column_pages": layout.two_column_pages}
    identity = Identity()
    if front_text:
        if options.blind:
            removed.insert(0, RemovedItem(item="author block", location="page 1, title block", text=front_text))
            identity = Identity(
                _candidate_names(layout.front), [m.group(0) for m in EMAIL.finditer(front_text)], layout.title
            )
        else:
            sections.insert(0, Section(title="", text=front_text, level=1))
            numbers.insert(0, "")
    if options.cut_after_references:
        sections, numbers = _cut_appendix(sections, numbers, metadata)
    if not sections:
        sections = [Section(title="", text=front_text, level=1)]
    if not any(b.kind == "heading" for b in layout.blocks):
        warnings.append("no section headings detected; the text is one section")
    if not any(s.title.lower().startswith("abstract") for s in sections):
        warnings.append(NO_ABSTRACT)
    if options.cut_after_references:
        sections, cut = cut_after_references(sections)
        if cut:
            metadata["cut_at"] = cut
    if options.blind:
        sections = blind_sections(sections, identity, removed)
        metadata.update({IDENTITY_KEY: identity.record()} if identity else {})
    removed = compact_audit(removed)
    # PDF removals are bounded by layout guesses: a large one is a warning, never silent
    if not options.blind:
        removed = [r for r in removed if r.item != "author block"]
    warnings += large_removals(removed)
    notes = [r.text for r in removed if r.item == "venue note"]
    if notes:
        metadata["venue_note"] = notes[0]
        venue = _venue(" ".join(notes))
        if venue:
            metadata["venue"] = venue
    return Document(
        id=doc_id,
        title=layout.title,
        sections=sections,
        metadata=metadata,
        source=DocumentSource(
            path=str(path), parser=f"rhetorica-pdf/{BACKEND}", parser_version=f"{PACKAGE} {backend_version()}",
            text_hash=content_hash([(s.title, s.text) for s in sections]),
        ),
        removed=removed,
        warnings=warnings,
    )


def _candidate_names(lines: list) -> list[str]:
    names: list[str] = []
    for line in lines:
        for chunk in re.split(r",|\band\b| {2,}|[†‡∗*§¶^_{}]|\d+", line.text):
            chunk = chunk.strip()
            words = chunk.split()
            if 2 <= len(words) <= 4 and all(w[:1].isupper() for w in words) and "@" not in chunk:
                names.append(chunk)
    return names


def _cut_appendix(
    sections: list[Section], numbers: list[str], metadata: dict[str, object]
) -> tuple[list[Section], list[str]]:
    """Cut at the first lettered top-level heading (``A``) after numbered ones: an appendix.

    Papers whose bibliography did not compile have no References heading; their appendix still
    must not reach a model.
    """
    seen_digit = False
    for k, number in enumerate(numbers):
        seen_digit = seen_digit or number[:1].isdigit()
        if seen_digit and number == "A":
            metadata["cut_at"] = f"appendix '{sections[k].title}'"
            return sections[:k], numbers[:k]
    return sections, numbers


def compact_audit(removed: list[RemovedItem]) -> list[RemovedItem]:
    """Merge removals of the same item and text on several pages into one entry ("pages 1-3, 5");
    page numbers become one entry listing them all."""
    merged: dict[tuple[str, str], list[int]] = {}
    numbers: list[str] = []
    out: list[RemovedItem | tuple[str, str]] = []
    for item in removed:
        m = re.fullmatch(r"page (\d+)", item.location)
        if not m:
            out.append(item)
            continue
        key = (item.item, "" if item.item == "page number" else item.text)
        if key not in merged:
            merged[key] = []
            out.append(key)
        merged[key].append(int(m.group(1)))
        if item.item == "page number":
            numbers.append(item.text)
    result: list[RemovedItem] = []
    for entry in out:
        if isinstance(entry, RemovedItem):
            result.append(entry)
            continue
        pages = merged[entry]
        where = "page" if len(pages) == 1 else "pages"
        text = ", ".join(numbers) if entry[0] == "page number" else entry[1]
        result.append(RemovedItem(item=entry[0], location=f"{where} {_ranges(sorted(set(pages)))}", text=text))
    return result


def _ranges(pages: list[int]) -> str:
    spans: list[str] = []
    start = prev = pages[0]
    for page in [*pages[1:], -1]:
        if page == prev + 1:
            prev = page
            continue
        spans.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = page
    return ", ".join(spans)


_VENUE = re.compile(r"\b(ICLR|NeurIPS|NIPS|ICML|ACL|EMNLP|NAACL|EACL|COLING|AAAI|IJCAI|CVPR|ICCV|ECCV|ISMIR|TMLR|COLM)\b")
_LONG_VENUES = {"association for computational linguistics": "ACL"}


def _venue(notes: str) -> str | None:
    """``"ICLR 2020"`` from notes such as "Published as a conference paper at ICLR 2020"."""
    m = _VENUE.search(notes)
    name = m.group(1) if m else next((v for k, v in _LONG_VENUES.items() if k in notes.lower()), None)
    year = re.search(r"\b(19|20)\d{2}\b", notes)
    if name is None:
        return None
    return f"{'NeurIPS' if name == 'NIPS' else name} {year.group(0)}" if year else name
