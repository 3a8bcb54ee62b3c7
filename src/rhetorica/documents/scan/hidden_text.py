"""Hidden text in a document as read: announce it on the document, and keep or drop it (issue 24 item 7).

White, invisible (PDF text render mode 3), off-page, clipped, covered or microscopic text, and
LaTeX's white, zero-size or swallowed text, reaches a text extractor and therefore a model, but no
human reader sees it. :func:`apply_hidden_text` scans a freshly read document (its source file and
its text, :func:`rhetorica.documents.scan.scan_document`) and, for every hidden span of severity
``low`` or above, adds a warning to ``Document.warnings`` naming what, where and what was done:

- ``keep``: the text stays as extracted (to measure the effect of hidden text, e.g. in an
  injection study);
- ``drop``: the span is removed from the text a reviewer reads (the exact extracted text, or its
  words with any whitespace between them); each removal is also listed in ``Document.removed``.

:func:`strip_hidden` is the removal itself, shared with a reviewer's ``strip`` defence.
"""

from __future__ import annotations

import re
from typing import Literal

from rhetorica.documents.models import Document, RemovedItem
from rhetorica.documents.scan.cache import ScanCache
from rhetorica.documents.scan.findings import Finding, severity_rank
from rhetorica.documents.scan.normalise import is_invisible
from rhetorica.documents.scan import scan_document

HiddenText = Literal["keep", "drop"]
"""What reading does with hidden text: ``keep`` it in the text, or ``drop`` it (the default)."""

_SHOWN_CHARS = 120
HIDDEN_TEXT_WARNING = "hidden text ("
"""How every hidden-text warning of :func:`apply_hidden_text` begins."""


def _flexible(text: str) -> re.Pattern[str] | None:
    words = text.split()
    if not words:
        return None
    return re.compile(r"\s*".join(re.escape(w) for w in words))


def _remove(text: str, finding: Finding) -> tuple[str, str | None]:
    """``text`` without ``finding``: every copy of its markup span or of its hidden text as
    extracted, else the first place of its words with any whitespace between them; and the removed
    string (``None``: not found)."""
    for candidate in (finding.text, finding.hidden_text or ""):
        if candidate.strip() and candidate in text:
            return text.replace(candidate, ""), candidate
    pattern = _flexible(finding.hidden_text or "")
    match = pattern.search(text) if pattern is not None else None
    if match is None:
        return text, None
    return text[:match.start()] + text[match.end():], match.group(0)


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def strip_hidden(document: Document, findings: list[Finding], *, invisible: bool = True
                 ) -> tuple[Document, list[str | None], str]:
    """``document`` without the hidden spans of ``findings``.

    Args:
        document: the document (title and every section are searched).
        findings: hidden findings (``hidden_text`` set); each is removed from every text it is in.
        invisible: also delete every invisible character (zero-width, bidi control, tag).

    Returns:
        The new document (the same object when nothing changed); per finding, the first string
        removed for it or ``None`` when its text is not in the document; the invisible characters
        deleted (``""`` when none).
    """
    texts = [document.title] + [s.text for s in document.sections]
    removed: list[str | None] = [None] * len(findings)
    deleted = ""
    for i, text in enumerate(texts):
        for k, finding in enumerate(findings):
            text, gone = _remove(text, finding)
            if gone is not None and removed[k] is None:
                removed[k] = gone
        if invisible and not text.isascii():
            deleted += "".join(c for c in text if is_invisible(c))
            text = "".join(c for c in text if not is_invisible(c))
        texts[i] = text
    title, texts = texts[0], texts[1:]
    if title == document.title and all(t == s.text for t, s in zip(texts, document.sections)):
        return document, removed, deleted
    sections = [s if t == s.text else s.model_copy(update={"text": _tidy(t)})
                for t, s in zip(texts, document.sections)]
    return document.model_copy(update={"title": title, "sections": sections}), removed, deleted


def _shown(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _SHOWN_CHARS else flat[:_SHOWN_CHARS - 1] + "…"


def apply_hidden_text(document: Document, mode: HiddenText, *, cache: ScanCache | None = None) -> Document:
    """Warn about the hidden text of a document just read, and keep or drop it.

    Args:
        document: a manuscript as read (its ``source.path`` is scanned too when it is a PDF or a
            LaTeX source); a review is returned unchanged.
        mode: ``keep`` or ``drop`` (see the module docstring).
        cache: earlier scan reports (the source and the text are scanned once per content).

    Returns:
        The document with one warning per hidden span (severity ``low`` or above), e.g.
        ``hidden text (pdf-white-text, high) at paper.pdf p. 1 (90, 418): 'IGNORE ALL ...' -
        dropped from the text``; under ``drop`` without those spans, each listed in ``removed``
        as item ``hidden text``.

    Raises:
        ValueError: for a mode other than ``keep`` or ``drop``.
    """

    if mode not in ("keep", "drop"):
        raise ValueError(f"hidden_text must be keep or drop, not {mode!r}")
    if document.kind == "review":
        return document
    report = scan_document(document, include_source=True, cache=cache)
    hidden = [f for f in report.findings
              if f.hidden and (f.hidden_text or "").strip() and severity_rank(f.severity) >= severity_rank("low")]
    if not hidden:
        return document
    result, removed, _ = strip_hidden(document, hidden, invisible=False)
    warnings = list(document.warnings)
    audit = list(document.removed)
    for finding, gone in zip(hidden, removed):
        head = (f"{HIDDEN_TEXT_WARNING}{finding.kind}, {finding.severity}) at {finding.location.describe()}: "
                f"{_shown(finding.hidden_text or '')!r}")
        if gone is None:
            warnings.append(f"{head} - not in the extracted text")
        elif mode == "keep":
            warnings.append(f"{head} - kept in the text a reviewer reads (hidden_text: keep)")
        else:
            warnings.append(f"{head} - dropped from the text (hidden_text: drop)")
            audit.append(RemovedItem(item="hidden text", location=finding.location.describe(), text=gone))
    base = result if mode == "drop" else document
    return base.model_copy(update={"warnings": warnings, "removed": audit})


def check_hidden_text(document: Document, mode: HiddenText, cache: ScanCache | None = None) -> Document:
    """:func:`apply_hidden_text`, where a scan that fails adds a warning saying so instead of
    failing the read (the document is then as extracted)."""
    try:
        return apply_hidden_text(document, mode, cache=cache)
    except Exception as exc:  # noqa: BLE001 - a scanner bug never loses a document
        warning = f"hidden-text check failed ({type(exc).__name__}: {exc}); the text is as extracted"
        return document.model_copy(update={"warnings": [*document.warnings, warning]})
