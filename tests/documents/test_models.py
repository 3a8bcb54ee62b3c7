"""Document.content_hash is remembered, and recomputed whenever what it covers changes; typed facts
(paper id, venue, human scores, decision) read from documents written when they were metadata."""

from __future__ import annotations

import json

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.hashing import content_hash

SOURCE = DocumentSource(path="x", parser="p", parser_version="1")


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


def test_typed_facts_of_a_document_written_before_they_were_fields_are_read_from_its_metadata() -> None:
    old = {"id": "r1", "kind": "review", "sections": [{"title": "", "text": "Sound."}],
           "source": {"path": "reviews.json", "parser": "jsonl", "parser_version": "1"},
           "metadata": {"paper_id": 17, "human_scores": [6], "decision": "Reject", "venue": "ICLR 2024",
                        "confidence": 4, "review_id": "b9IG"}}
    doc = Document.model_validate_json(json.dumps(old))
    assert (doc.paper_id, doc.human_scores, doc.decision, doc.venue) == ("17", [6.0], "Reject", "ICLR 2024")
    assert doc.metadata == {"confidence": 4, "review_id": "b9IG"}
    again = json.loads(doc.model_dump_json())
    assert again["paper_id"] == "17" and "paper_id" not in again["metadata"]
    assert Document.model_validate(again) == doc


def test_an_explicit_field_wins_over_a_metadata_key_and_none_scores_read_as_none_known() -> None:
    doc = Document(id="p", sections=[], source=SOURCE, paper_id="a", human_scores=None,
                   metadata={"paper_id": "b", "decision": None})
    assert (doc.paper_id, doc.human_scores, doc.decision, doc.metadata) == ("a", [], None, {})
