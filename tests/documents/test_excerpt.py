"""``max_words`` cuts at a paragraph boundary inside a section; an empty document is an error (issue 11 §4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents import DocumentReadError, ReadOptions, read_document
from rhetorica.documents.excerpt import excerpt
from rhetorica.documents.models import Document, DocumentSource, Section


def _doc(sections: list[Section]) -> Document:
    return Document(id="d", sections=sections, source=DocumentSource(path="d.md", parser="test", parser_version="0"))


def _words(n: int, word: str = "w") -> str:
    return " ".join([word] * n)


def test_cut_inside_a_section_at_a_paragraph_boundary() -> None:
    # 0-word heading section, then one section of 14 109 words in paragraphs of 100 words: the old
    # rule kept only the empty first section ("kept 0 of 14109 words")
    big = "\n\n".join(_words(100, f"p{k}") for k in range(141)) + "\n\n" + _words(9)
    doc = _doc([Section(title="Architecture", text=""), Section(title="Body", text=big, level=2)])
    assert doc.word_count == 14109
    out = excerpt(doc, 450)
    assert [s.title for s in out.sections] == ["Architecture", "Body"]
    assert out.word_count == 400  # four whole paragraphs; the fifth would pass 450
    assert out.sections[1].text.split("\n\n")[-1] == _words(100, "p3")
    assert out.metadata["excerpt"] == "kept 400 of 14109 words (cut after paragraph 4 of section 'Body')"
    assert out.warnings == []


def test_first_paragraph_kept_whole_when_it_alone_exceeds_the_budget() -> None:
    doc = _doc([Section(title="Abstract", text=_words(30) + "\n\n" + _words(5)), Section(title="Intro", text=_words(7))])
    out = excerpt(doc, 10)
    assert [(s.title, s.word_count) for s in out.sections] == [("Abstract", 30)]


def test_whole_document_within_budget_is_unchanged() -> None:
    doc = _doc([Section(title="A", text=_words(3))])
    assert excerpt(doc, 3) is doc


def test_empty_document_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(DocumentReadError, match="document 'd' has no text"):
        excerpt(_doc([Section(title="A", text="")]), 10)
    empty = tmp_path / "empty.md"
    empty.write_text("# Title only\n\n## Section\n")
    with pytest.raises(DocumentReadError, match=r"empty\.md: document 'empty' has no text"):
        read_document(empty, options=ReadOptions(max_words=100))
