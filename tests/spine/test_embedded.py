"""The embedded SmolLM2-135M model through the real llama.cpp runtime (no network, ~10 s)."""

from __future__ import annotations

import asyncio

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.registry import get_model
from rhetorica.reviewers.form import output_schema, parse_review
from rhetorica.reviewers.protocols import get_protocol, system_prompt
from rhetorica.status import Status


@pytest.fixture(scope="module")
def smollm2():
    return get_model("embedded/smollm2-135m", n_ctx=2048)


def test_schema_constrained_review_is_valid_json_of_the_form(smollm2) -> None:
    messages = [ChatMessage(role="system", content=system_prompt(get_protocol("default"))),
                ChatMessage(role="user", content="# A tiny paper\n\n## Abstract\n\nWe prove that 1 + 1 = 2.")]
    config = GenerateConfig(temperature=0.7, seed=3, max_tokens=450, json_schema=output_schema("full"))
    output = asyncio.run(smollm2.generate(messages, config))
    assert output.provider == "embedded" and output.model == "smollm2-135m"
    assert output.usage.input_tokens > 50 and output.usage.output_tokens > 10
    assert output.effective_params == {"temperature": 0.7, "top_p": 0.95, "max_tokens": 450, "seed": 3, "repeat_penalty": 1.1}
    if output.status == Status.OK:
        review = parse_review(output.text)  # the grammar enforces the enums: scores always in range
        assert 1 <= review.overall <= 10 and 1 <= review.soundness <= 4
    else:
        assert output.status == Status.TRUNCATED and output.finish_reason == "length"


def test_same_seed_same_output_and_token_counts(smollm2) -> None:
    messages = [ChatMessage(role="user", content="Name one prime number.")]
    config = GenerateConfig(temperature=0.9, seed=11, max_tokens=16)
    first = asyncio.run(smollm2.generate(messages, config))
    second = asyncio.run(smollm2.generate(messages, config))
    assert first.text == second.text
    assert smollm2.count_tokens("Hello world") == 2


def test_context_overflow_is_a_permanent_classified_error(smollm2) -> None:
    from rhetorica.models.errors import ContextOverflowError

    too_long = [ChatMessage(role="user", content="word " * 5000)]
    with pytest.raises(ContextOverflowError):
        asyncio.run(smollm2.generate(too_long, GenerateConfig(max_tokens=8)))
