"""Keep the leading sections of a document within a word budget."""

from __future__ import annotations

from rhetorica.documents.models import Document


def excerpt(document: Document, max_words: int) -> Document:
    """Keep leading sections while the running word count stays within ``max_words``.

    The cut falls at a section boundary and the first section is always kept, so the result may
    exceed ``max_words`` when the first section alone does. A warning
    ``"excerpt: kept N of M words"`` is added when anything is dropped.

    Args:
        document: the full document.
        max_words: word budget (>= 1), words counted by whitespace splitting.
    """
    total = document.word_count
    if total <= max_words:
        return document
    kept = [document.sections[0]]
    running = kept[0].word_count
    for section in document.sections[1:]:
        if running + section.word_count > max_words:
            break
        kept.append(section)
        running += section.word_count
    if len(kept) == len(document.sections):
        return document
    return document.model_copy(update={
        "sections": kept,
        "warnings": [*document.warnings, f"excerpt: kept {running} of {total} words"],
    })
