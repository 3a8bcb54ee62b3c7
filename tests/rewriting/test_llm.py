"""The LLM rewriter: section by section, chunking, retry on truncation, failures never patched."""

from __future__ import annotations

import asyncio

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.models.providers.mock import TEXT_MARKER, MockModel
from rhetorica.rewriting.conditions import prompt_version, system_prompt
from rhetorica.rewriting.llm import rewrite_document, split_chunks
from rhetorica.status import Status

DOC = Document(
    id="paper", title="T",
    sections=[Section(title="Abstract", text="We study graphs."), Section(title="Empty", text="  "),
              Section(title="Intro", text="First paragraph here.\n\nSecond one.")],
    source=DocumentSource(path="x", parser="test", parser_version="0"),
)


def test_split_chunks_keeps_paragraphs_whole() -> None:
    text = "a b c\n\nd e\n\nf g h i"
    assert split_chunks(text, None) == [text]
    assert split_chunks(text, 5) == ["a b c\n\nd e", "f g h i"]
    assert split_chunks(text, 2) == ["a b c", "d e", "f g h i"]


def test_each_chunk_alone_with_the_condition_prompt() -> None:
    model = MockModel(model="rw", script=["Rewritten abstract.", f"{TEXT_MARKER}\nP1.", "P2."])
    result = asyncio.run(rewrite_document(DOC, "proficiency:+", model, max_chunk_words=3))
    assert result.status == Status.OK
    assert [s.text for s in result.document.sections] == ["Rewritten abstract.", "  ", "P1.\n\nP2."]
    assert [s.title for s in result.document.sections] == ["Abstract", "Empty", "Intro"]
    assert len(model.calls) == 3  # the empty section is copied without a call
    messages, config = model.calls[1]
    assert messages[0].content == system_prompt("proficiency:+")
    assert messages[1].content.endswith(f"{TEXT_MARKER}\nFirst paragraph here.")
    assert "We study graphs" not in messages[1].content  # no surrounding context
    assert config.stop == ["\n\n"] and config.seed == 0
    assert prompt_version("proficiency:+").startswith("v1:")


def test_truncated_chunk_is_retried_once_with_the_next_seed() -> None:
    model = MockModel(model="rw", script=[{"text": "loop loop", "finish_reason": "length"}, "Fine.", "A.", "B."])
    result = asyncio.run(rewrite_document(DOC, "confidence:-", model, max_chunk_words=3))
    assert result.status == Status.OK
    assert [c.seed for _, c in model.calls[:2]] == [0, 1]
    assert result.document.sections[0].text == "Fine."


def test_a_chunk_failing_twice_fails_the_variant_with_its_place() -> None:
    truncated = {"text": "loop", "finish_reason": "length"}
    model = MockModel(model="rw", script=["Ok.", truncated, truncated])
    result = asyncio.run(rewrite_document(DOC, "confidence:-", model, max_chunk_words=3))
    assert result.status == Status.TRUNCATED and result.document is None
    assert result.reason.startswith("section 3 (Intro):")
