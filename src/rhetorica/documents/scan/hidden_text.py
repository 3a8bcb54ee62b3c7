"""Hidden text in a document as read: announce it on the document, and keep or drop it (issue 24 item 7).

White, invisible (PDF text render mode 3), off-page, clipped, covered or microscopic text, and
LaTeX text TeX typesets so (or never typesets, while the LaTeX reader passes it on; judged from the
compiled project, :mod:`rhetorica.documents.scan.typeset`), reaches a text extractor and therefore
a model, but no human reader sees it. :func:`apply_hidden_text` scans a freshly read document (its source file and
its text, :func:`rhetorica.documents.scan.scan_document`) and, for every hidden span of severity
``low`` or above, adds a warning to ``Document.warnings`` naming what, where and what was done:

- ``keep``: the text stays as extracted (to measure the effect of hidden text, e.g. in an
  injection study);
- ``drop``: the span is removed from the text a reviewer reads; each removal is also listed in
  ``Document.removed``. A PDF's hidden characters are left out by the PDF reader itself, before
  its layout pass groups lines (:mod:`rhetorica.documents.pdf.visibility`), so no grouping can
  keep part of a span; any other span is removed here: one copy of its words (any whitespace
  between them, never letters of a longer word), the hidden one where the same words also stand
  visibly (:mod:`rhetorica.documents.scan.occurrence`).

What a warning says became of a span is checked against the text a reviewer reads.

:func:`strip_hidden` is the removal itself, shared with a reviewer's ``strip`` defence.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

from rhetorica.documents.models import Document, RemovedItem
from rhetorica.documents.pdf.reader import HIDDEN_ITEM
from rhetorica.documents.scan.cache import ScanCache
from rhetorica.documents.scan.findings import Finding, severity_rank
from rhetorica.documents.scan.normalise import is_invisible
from rhetorica.documents.scan.occurrence import CONTEXT_WORDS, copies, hidden_copy, words_before
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


def _hidden_copy(texts: list[str], heads: list[str], finding: Finding, hidden: int) -> tuple[int, re.Match[str]] | None:
    """``(index in texts, copy)`` of the hidden copy of ``finding``'s span in ``texts`` (the
    reading's title and section texts; ``heads``: what a reader reads before each, its section's
    title): its markup span as it stands, else its hidden text.

    A copy of whole words is taken first (:func:`rhetorica.documents.scan.occurrence.copies`).
    When a reader sees no copy of the words in the source (``finding.visible`` is 0; where not
    counted: the reading holds the span's letters, even inside longer words, no more often than
    ``hidden``, the spans with these words the scan found hidden), every such copy is a hidden
    one; else the hidden copy is the one its preceding words tell
    (:func:`rhetorica.documents.scan.occurrence.hidden_copy`), or none. Without such a copy, a
    copy glued to other letters (a reader's rendering of a macro beside it, ``0ptIgnore``; a
    layout that set it against a word, ``andgood``) is taken where its preceding words tell it,
    or, when every copy of the letters is a hidden one, where what it leaves of the word it is
    glued to (``0pt``, ``and``) is a word the reading holds elsewhere, never ``ness`` of
    ``goodness``."""
    for candidate in (finding.text, finding.hidden_text or ""):
        anywhere = [(i, m) for i, text in enumerate(texts) for m in copies(text, candidate, whole_words=False)]
        whole = [(i, m) for i, text in enumerate(texts) for m in copies(text, candidate)]
        ambiguous = finding.visible > 0 if finding.visible is not None else len(anywhere) > hidden
        for found, strict in ((whole, ambiguous), (anywhere if finding.before else [], True)):
            preceding = [words_before(head := _before(texts, heads, i) + texts[i][:m.start()], len(head),
                                      CONTEXT_WORDS + 4) for i, m in found]
            k = hidden_copy(preceding, finding.before, strict=strict)
            if k is not None:
                return found[k]
        if anywhere and (finding.visible == 0 or len(anywhere) <= hidden):
            words = Counter(w for text in texts for w in re.findall(r"\w+", text))
            for i, m in anywhere:
                rest = _glued_rest(texts[i], m)
                if rest and words[rest] > 0:
                    return i, m
    return None


def _glued_rest(text: str, copy: re.Match[str]) -> str:
    """What taking ``copy`` out leaves of the words it is glued to (letters or digits right before
    and after it): ``and`` of ``andgood``; ``""`` when it is glued to nothing."""
    before = re.search(r"\w*$", text[:copy.start()])
    after = re.match(r"\w*", text[copy.end():])
    return (before.group(0) if before else "") + (after.group(0) if after else "")


def _before(texts: list[str], heads: list[str], i: int) -> str:
    """The end of what a reader reads before ``texts[i]``: the texts and heads before it, then its own head."""
    earlier = "\n\n".join(f"{heads[k]}\n\n{texts[k]}" for k in range(i))
    return f"{earlier[-400:]}\n\n{heads[i]}\n\n"


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def strip_hidden(document: Document, findings: list[Finding], *, invisible: bool = True
                 ) -> tuple[Document, list[str | None], str]:
    """``document`` without the hidden spans of ``findings``.

    Args:
        document: the document (title and every section are searched).
        findings: hidden findings (``hidden_text`` set); each takes out one copy of its span (whole
            words, never letters of a longer word): the hidden one, told from copies a reader
            sees by the words before it where the reading holds more copies than the findings
            (:mod:`rhetorica.documents.scan.occurrence`).
        invisible: also delete every invisible character (zero-width, bidi control, tag).

    Returns:
        The new document (the same object when nothing changed); per finding, the string removed
        for it or ``None`` when its text is not in the document; the invisible characters deleted
        (``""`` when none).
    """
    texts = [document.title] + [s.text for s in document.sections]
    heads = [""] + [s.title for s in document.sections]
    removed: list[str | None] = [None] * len(findings)
    spans = Counter(" ".join((f.hidden_text or "").split()) for f in findings)
    for k, finding in enumerate(findings):
        place = _hidden_copy(texts, heads, finding, spans[" ".join((finding.hidden_text or "").split())])
        if place is not None:
            i, match = place
            texts[i] = texts[i][:match.start()] + texts[i][match.end():]
            removed[k] = match.group(0)
    deleted = ""
    for i, text in enumerate(texts):
        if invisible and not text.isascii():
            deleted += "".join(c for c in text if is_invisible(c))
            texts[i] = "".join(c for c in text if not is_invisible(c))
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

    What a warning says happened is checked against the text a reviewer reads, never assumed:

    - a span the PDF reader already left out (``removed`` holds it as item
      :data:`~rhetorica.documents.pdf.reader.HIDDEN_ITEM` on its page, with its text): ``dropped``
      (its characters never reached the layout pass);
    - under ``drop``, any other span is removed from the text (:func:`strip_hidden`: its hidden
      copy) and is ``dropped`` when a copy was removed (saying so when the same words still stand
      elsewhere), ``NOT dropped`` when it is in the text but no copy could be removed;
    - under ``keep``, a span is ``kept`` when all of it is in the text, ``partly kept`` when only
      some of its lines are (the lines not there are named, with the removal item that took them
      when the audit has one), ``not in the extracted text`` when none is.

    Args:
        document: a manuscript as read (its ``source.path`` is scanned too when it is a PDF or a
            LaTeX source); a review is returned unchanged.
        mode: ``keep`` or ``drop`` (see the module docstring).
        cache: earlier scan reports (the source and the text are scanned once per content).

    Returns:
        The document with one warning per hidden span (severity ``low`` or above), e.g.
        ``hidden text (pdf-white-text, high) at paper.pdf p. 1 (90, 418): 'IGNORE ALL ...' -
        dropped from the text``; under ``drop`` without those spans, each listed in ``removed``
        as item ``hidden text`` (once: a span the PDF reader left out is listed by the reader).

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
    left_out = [f for f in hidden if _left_out_by_reader(document, f)]
    rest = [f for f in hidden if f not in left_out]
    result, removed, _ = strip_hidden(document, rest, invisible=False) if mode == "drop" else (document, [], "")
    gone_by = dict(zip(map(id, rest), removed))
    warnings = list(document.warnings)
    audit = list(result.removed)
    text = _reading(result)
    for finding in hidden:
        head = (f"{HIDDEN_TEXT_WARNING}{finding.kind}, {finding.severity}) at {finding.location.describe()}: "
                f"{_shown(finding.hidden_text or '')!r}")
        there, missing = _presence(text, finding.hidden_text or "")
        if finding in left_out:
            also = "; the same words also stand elsewhere in the text" if not missing else ""
            warnings.append(f"{head} - dropped from the text (hidden_text: drop){also}")
        elif mode == "drop" and gone_by[id(finding)] is not None:
            also = "; the same words also stand elsewhere in the text" if there else ""
            warnings.append(f"{head} - dropped from the text (hidden_text: drop){also}")
            audit.append(RemovedItem(item=HIDDEN_ITEM, location=finding.location.describe(),
                                     text=gone_by[id(finding)] or ""))
        else:
            warnings.append(f"{head} - {_outcome(mode, there, missing, document)}")
    return result.model_copy(update={"warnings": warnings, "removed": audit})


def _left_out_by_reader(document: Document, finding: Finding) -> bool:
    """Whether the PDF reader's audit lists ``finding`` (same page, same text) as left out."""
    page = finding.location.page
    if page is None or finding.location.file != document.source.path:
        return False
    words = _squash(finding.hidden_text or "")
    return any(r.item == HIDDEN_ITEM and r.location.startswith(f"page {page} (") and _squash(r.text) == words
               for r in document.removed)


def _squash(text: str) -> str:
    return " ".join(text.split())


def _reading(document: Document) -> str:
    return "\n\n".join([document.title] + [s.text for s in document.sections])


def _presence(text: str, hidden: str) -> tuple[list[str], list[str]]:
    """The lines of ``hidden`` that are in ``text`` (its words in order, any whitespace between)
    and those that are not; all of ``hidden`` in ``text`` counts as every line there."""
    whole = _flexible(hidden)
    lines = [line.strip() for line in hidden.splitlines() if line.strip()]
    if whole is not None and whole.search(text):
        return lines, []
    there = [line for line in lines if (p := _flexible(line)) is not None and p.search(text)]
    return there, [line for line in lines if line not in there]


def _outcome(mode: HiddenText, there: list[str], missing: list[str], document: Document) -> str:
    """What became of a span not taken out by reading or by :func:`strip_hidden`, in words."""
    where = "; ".join(f"{_shown(line)!r}{_taken_by(line, document)}" for line in missing)
    if not there:
        taken = [t for line in missing if (t := _taken_by(line, document))]
        return "not in the extracted text" + (taken[0] if len(set(taken)) == 1 and len(taken) == len(missing) else "")
    if mode == "drop":
        return f"NOT dropped: {_shown(' '.join(there))!r} is still in the text a reviewer reads"
    if not missing:
        return "kept in the text a reviewer reads (hidden_text: keep)"
    return f"partly kept in the text a reviewer reads (hidden_text: keep); not in it: {where}"


def _taken_by(line: str, document: Document) -> str:
    """`` (removed by reading as 'figure labels')`` when an audit entry holds ``line``, else ``""``."""
    words = _squash(line)
    for item in document.removed:
        if words and words in _squash(item.text):
            return f" (removed by reading as {item.item!r})"
    return ""


def check_hidden_text(document: Document, mode: HiddenText, cache: ScanCache | None = None) -> Document:
    """:func:`apply_hidden_text`, where a scan that fails adds a warning saying so instead of
    failing the read (the document is then as extracted)."""
    try:
        return apply_hidden_text(document, mode, cache=cache)
    except Exception as exc:  # noqa: BLE001 - a scanner bug never loses a document
        warning = f"hidden-text check failed ({type(exc).__name__}: {exc}); the text is as extracted"
        return document.model_copy(update={"warnings": [*document.warnings, warning]})
