"""The LLM reviewer's soft ratings: a scripted provider's fixed top-k log-probabilities give the
hand-computed expected scores; a provider without log-probabilities gives the reason, no value."""

from __future__ import annotations

import asyncio
import json
import math

import pytest

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.models.api import GenerateConfig
from rhetorica.models.cache import model_cache_key
from rhetorica.models.providers.mock import MockModel
from rhetorica.reviewers.llm_reviewer import LLMReviewer, review_document
from rhetorica.reviewers.protocols import get_protocol
from rhetorica.status import Status
from tests.models.conftest import fake_server  # noqa: F401 - a fixture, used by name

DOC = Document(id="p1", title="Spectral filters", sections=[Section(title="Introduction", text="We prove it.")],
               source=DocumentSource(path="p1.md", parser="test", parser_version="0"))
REVIEW = {"summary": "s", "strengths": ["a"], "weaknesses": [], "suggestions": [], "soundness": 3,
          "significance": 2, "evidence": 2, "clarity": 4, "confidence": 3, "overall": 10}


def scripted_answer() -> dict:
    """The review as three tokens: everything before the overall score (certain), then '1' and '0'
    with their alternatives, then the closing brace."""
    text = json.dumps(REVIEW)
    head = text[: text.index('"overall": ') + len('"overall": ')]
    ln = math.log
    tokens = [
        {"token": head, "logprob": 0.0},
        {"token": "1", "logprob": ln(0.4), "top": [["1", ln(0.4)], ["8", ln(0.3)], ["9", ln(0.2)], ["7", ln(0.05)]]},
        {"token": "0", "logprob": ln(0.75), "top": [["0", ln(0.75)], ["}", ln(0.25)]]},
        {"token": "}", "logprob": 0.0, "top": [["}", 0.0]]},
    ]
    assert "".join(t["token"] for t in tokens) == text
    return {"text": text, "logprobs": tokens}


def review(model: MockModel, soft: bool = True):
    return asyncio.run(review_document(DOC, get_protocol("default"), model, replicate=0, soft_ratings=soft))


def test_expected_scores_equal_hand_computation() -> None:
    result = review(MockModel(script=[scripted_answer()]))
    assert result.status == Status.OK and result.scores["overall"] == 10
    # 10: 0.4 * 0.75 = 0.3; 1: 0.4 * 0.25 = 0.1; 8: 0.3; 9: 0.2; 7: 0.05 -> covered 0.95
    assert result.scores["overall.expected"] == pytest.approx((3.0 + 0.1 + 2.4 + 1.8 + 0.35) / 0.95)  # 8.0526...
    soft = result.artefacts["soft_ratings"]
    assert soft["overall"]["distribution"] == pytest.approx({"1": 0.1, "7": 0.05, "8": 0.3, "9": 0.2, "10": 0.3})
    assert soft["overall"]["covered"] == pytest.approx(0.95)
    # the criteria sit inside the certain first token: all mass on the written level
    assert result.scores["soundness.expected"] == 3.0 and result.scores["confidence.expected"] == 3.0
    assert soft["clarity"] == {"expected": 4.0, "distribution": {"4": 1.0}, "covered": 1.0, "outside": 0.0,
                               "unresolved": 0.0, "low": 4.0, "high": 4.0, "reason": None}


def test_request_asks_for_top_logprobs_and_keys_the_cache_on_it() -> None:
    model = MockModel(script=[scripted_answer()])
    review(model)
    (messages, config), = model.calls
    assert config.top_logprobs == 20
    plain = config.model_copy(update={"top_logprobs": None})
    assert model_cache_key(model, messages, config, 0) != model_cache_key(model, messages, plain, 0)
    assert GenerateConfig(temperature=0.0).output_affecting() == {"temperature": 0.0}  # off: keys unchanged


def test_soft_ratings_off_store_nothing_extra() -> None:
    model = MockModel(script=[scripted_answer()])
    result = review(model, soft=False)
    assert model.calls[0][1].top_logprobs is None
    assert "overall.expected" not in result.scores and result.artefacts == {}


class NoLogprobs(MockModel):
    """A provider without token log-probabilities (as Anthropic's Messages API)."""

    provider = "nolog"
    supports_logprobs = False


def test_provider_without_logprobs_gives_the_reason_never_a_value() -> None:
    model = NoLogprobs(script=[scripted_answer()])
    result = review(model)
    assert model.calls[0][1].top_logprobs is None  # not asked for: the plain call's cache key
    assert result.status == Status.OK and not any(k.endswith(".expected") for k in result.scores)
    assert result.artefacts["soft_ratings"]["overall"]["expected"] is None
    assert result.artefacts["soft_ratings"]["overall"]["reason"] == "provider 'nolog' returns no token log-probabilities"


def test_response_without_logprobs_gives_the_reason(fake_server) -> None:
    from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel

    fake_server.script = [{"text": json.dumps(REVIEW)}]  # a server that ignores the logprobs request
    result = review(OpenAICompatibleModel(f"m@{fake_server.url}/v1", structured_output="prompt"))
    assert result.artefacts["soft_ratings"]["overall"]["reason"] == "the response carried no token log-probabilities"


def test_anthropic_returns_no_logprobs() -> None:
    from rhetorica.models.providers.anthropic_provider import AnthropicModel

    assert AnthropicModel.supports_logprobs is False


def test_spec_unchanged_without_soft_ratings() -> None:
    base = LLMReviewer("r", model=MockModel()).spec()
    assert "soft_ratings" not in base
    assert LLMReviewer("r", model=MockModel(), soft_ratings=True).spec() == base | {"soft_ratings": True}
