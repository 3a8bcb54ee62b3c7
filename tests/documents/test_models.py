"""Document.content_hash is remembered, and recomputed whenever what it covers changes."""

from __future__ import annotations

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.hashing import content_hash


def test_content_hash_follows_every_change() -> None:
    doc = Document(id="a", title="T", sections=[Section(title="Intro", level=1, text="hello world")],
                   source=DocumentSource(path="x", parser="p", parser_version="1"))
    first = doc.content_hash
    assert first == content_hash("manuscript", "T", [["Intro", 1, "hello world"]]) == doc.content_hash
    doc.sections[0].text = "hello there"  # a section edited in place
    assert doc.content_hash == content_hash("manuscript", "T", [["Intro", 1, "hello there"]])
    doc.sections.append(Section(title="More", level=2, text="x"))  # a section added
    assert doc.content_hash == content_hash("manuscript", "T", [["Intro", 1, "hello there"], ["More", 2, "x"]])
    copy = doc.model_copy(update={"title": "U"})  # a copy with another title
    assert copy.content_hash == content_hash("manuscript", "U", [["Intro", 1, "hello there"], ["More", 2, "x"]])
    doc.sections = [Section(title="Intro", level=1, text="hello world")]  # back to the first text
    assert doc.content_hash == first
