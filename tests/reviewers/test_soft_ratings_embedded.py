"""Soft ratings from the embedded SmolLM2 model: its reviews carry level distributions with their
covered mass, and the captured log-probabilities equal llama-cpp-python's own (the library oracle)."""

from __future__ import annotations

import asyncio

import pytest

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.registry import get_model
from rhetorica.reviewers.llm_reviewer import review_document
from rhetorica.reviewers.protocols import get_protocol
from rhetorica.status import Status

pytestmark = pytest.mark.embedded

DOC = Document(id="p1", title="A tiny paper", sections=[Section(title="Abstract", text="We prove that 1 + 1 = 2.")],
               source=DocumentSource(path="p1.md", parser="test", parser_version="0"))


def test_embedded_review_carries_a_distribution_with_covered_mass() -> None:
    model = get_model("embedded/smollm2-135m", n_ctx=2048)
    result = asyncio.run(review_document(DOC, get_protocol("bare"), model, replicate=0, temperature=0.7,
                                         max_tokens=120, soft_ratings=True))
    assert result.status == Status.OK, result.reason
    soft = result.artefacts["soft_ratings"]["overall"]
    assert soft["reason"] is None and 0 < soft["covered"] <= 1 + 1e-9
    assert set(soft["distribution"]) <= {str(level) for level in range(1, 11)}
    assert sum(soft["distribution"].values()) == pytest.approx(soft["covered"])
    assert soft["covered"] + soft["outside"] + soft["unresolved"] <= 1 + 1e-9
    expected = sum(int(k) * p for k, p in soft["distribution"].items()) / soft["covered"]
    assert result.scores["overall.expected"] == pytest.approx(expected) and 1 <= expected <= 10


def test_captured_logprobs_equal_llama_cpp_logprobs() -> None:
    from llama_cpp import Llama

    model = get_model("embedded/smollm2-135m", n_ctx=512)
    messages = [ChatMessage(role="user", content="Name one prime number.")]
    output = asyncio.run(model.generate(messages, GenerateConfig(temperature=0.0, max_tokens=6, top_logprobs=3)))
    oracle = Llama(model_path=str(model._path), n_ctx=512, n_threads=1, logits_all=True, verbose=False)
    reference = oracle.create_chat_completion(messages=[m.model_dump() for m in messages], temperature=0.0,
                                              max_tokens=6, seed=0, repeat_penalty=1.1, top_p=0.95,
                                              logprobs=True, top_logprobs=3)
    content = reference["choices"][0]["logprobs"]["content"]
    assert output.logprobs is not None and len(output.logprobs) >= 3
    for ours, theirs in zip(output.logprobs, content):
        assert ours.token == theirs["token"]
        assert ours.logprob == pytest.approx(theirs["logprob"], abs=1e-3)
        top_theirs = sorted(((t["token"], t["logprob"]) for t in theirs["top_logprobs"]), key=lambda x: -x[1])[:3]
        assert [t for t, _ in ours.top] == [t for t, _ in top_theirs]
