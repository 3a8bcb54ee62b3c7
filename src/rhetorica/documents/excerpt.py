"""Keep the leading part of a document within a word budget, cut at a paragraph boundary."""

from __future__ import annotations

from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError


def excerpt(document: Document, max_words: int) -> Document:
    """Keep leading sections, and then leading paragraphs of the next section, within ``max_words``.

    Sections are kept whole while they fit; the first section that does not fit keeps the
    paragraphs (blocks separated by a blank line) that still fit, and the excerpt ends there. So
    the cut always falls at a paragraph boundary, never inside one. When not even the first
    paragraph with text fits, that paragraph is kept alone (the result then exceeds the budget) so
    an excerpt is never empty. ``metadata["excerpt"]`` says ``"kept N of M words ..."`` when
    anything is dropped (a note, not a warning: the study asked for it).

    Args:
        document: the full document.
        max_words: word budget (>= 1), words counted by whitespace splitting.

    Raises:
        DocumentReadError: the document has no text at all, so no excerpt can be made.
    """
    total = document.word_count
    if total == 0:
        raise DocumentReadError(document.source.path, f"document '{document.id}' has no text to excerpt")
    if total <= max_words:
        return document
    kept = []
    running = 0
    cut_in = ""
    for section in document.sections:
        if running + section.word_count <= max_words:
            kept.append(section)
            running += section.word_count
            continue
        paragraphs = [p for p in section.text.split("\n\n") if p.strip()]
        take: list[str] = []
        for paragraph in paragraphs:
            words = len(paragraph.split())
            if running + words > max_words and (take or running > 0):
                break
            take.append(paragraph)
            running += words
        if take:
            kept.append(section.model_copy(update={"text": "\n\n".join(take)}))
            cut_in = f" (cut after paragraph {len(take)} of section '{section.title or '(untitled)'}')"
        else:
            cut_in = f" (cut before section '{section.title or '(untitled)'}')"
        break
    return document.model_copy(update={
        "sections": kept,
        "metadata": {**document.metadata, "excerpt": f"kept {running} of {total} words{cut_in}"},
    })
