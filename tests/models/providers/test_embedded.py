"""The embedded SmolLM2-135M model through the real llama.cpp runtime (no network, ~10 s)."""

from __future__ import annotations

import asyncio

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.registry import get_model
from rhetorica.forms import REVIEW_000
from rhetorica.reviewers.form import output_schema, parse_review
from rhetorica.reviewers.protocols import get_protocol, system_prompt
from rhetorica.status import Status


@pytest.fixture(scope="module")
def smollm2():
    return get_model("embedded/smollm2-135m", n_ctx=2048)


def test_schema_constrained_review_is_valid_json_of_the_form(smollm2) -> None:
    messages = [ChatMessage(role="system", content=system_prompt(get_protocol("default"))),
                ChatMessage(role="user", content="# A tiny paper\n\n## Abstract\n\nWe prove that 1 + 1 = 2.")]
    config = GenerateConfig(temperature=0.7, seed=3, max_tokens=450, json_schema=output_schema(REVIEW_000))
    output = asyncio.run(smollm2.generate(messages, config))
    assert output.provider == "embedded" and output.model == "smollm2-135m"
    assert output.usage.input_tokens > 50 and output.usage.output_tokens > 10
    # llama.cpp's counts pass the one check; the cache is reset per call (0 reused); no reasoning count
    assert (output.usage.cached_tokens, output.usage.unreported) == (0, ["reasoning_tokens"])
    assert output.effective_params == {"temperature": 0.7, "top_p": 0.95, "max_tokens": 450, "seed": 3, "repeat_penalty": 1.1}
    # The demo's reviewer settings must give one complete, valid review; a truncation is a failure.
    assert (output.status, output.error, output.finish_reason) == (Status.OK, None, "stop"), output.text[-200:]
    review = parse_review(output.text, REVIEW_000).payload  # the grammar enforces the enums: scores always in range
    assert 1 <= review["overall"] <= 10 and 1 <= review["soundness"] <= 4
    assert review["summary"].strip() and output.usage.output_tokens < 450


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


# A sentence of the ChebNet paper (Defferrard et al., NeurIPS 2016; ../shared/data/papers/chebnet_nips2016)
# whose greedy summary differed between the first call and its repeat when llama-cpp-python reused
# the cached prompt (issue 10): "Consequently, spectral filters are exactly K-localized." first, the
# whole sentence after.
CHEBNET_SENTENCE = ("Consequently, spectral\nfilters represented by K^th-order polynomials of the Laplacian are\n"
                    "exactly K-localized.")


def test_identical_requests_give_identical_outputs_at_temperature_0() -> None:
    from rhetorica.models.providers.embedded import EmbeddedModel

    summarize = [ChatMessage(role="user", content="Summarize: " + CHEBNET_SENTENCE)]
    other = [ChatMessage(role="user", content="Name one prime number.")]
    config = GenerateConfig(temperature=0.0, max_tokens=48)
    fresh = EmbeddedModel(n_ctx=2048)  # first call after loading, then a repeat, another request, a repeat
    texts = [asyncio.run(fresh.generate(messages, config)).text for messages in (summarize, summarize, other, summarize)]
    assert texts[0] == texts[1] == texts[3] != texts[2]
    assert texts[0] == asyncio.run(EmbeddedModel(n_ctx=2048).generate(summarize, config)).text


def test_a_full_context_window_is_named_as_the_reason_not_max_tokens() -> None:
    from rhetorica.models.providers.embedded import EmbeddedModel

    small = EmbeddedModel(n_ctx=256)
    story = [ChatMessage(role="user", content="Write a long story about a cat who learns to read.")]
    output = asyncio.run(small.generate(story, GenerateConfig(temperature=0.0, max_tokens=300)))
    assert output.status == Status.TRUNCATED and output.finish_reason == "length"
    assert output.usage.input_tokens + output.usage.output_tokens == 256
    assert output.error == (f"context window full: prompt {output.usage.input_tokens} + output "
                            f"{output.usage.output_tokens} tokens filled n_ctx=256 before max_tokens=300")


def test_length_reason_tells_max_tokens_from_a_full_context() -> None:
    from rhetorica.models.api import Usage
    from rhetorica.models.providers.embedded import length_reason

    assert length_reason(Usage(input_tokens=100, output_tokens=300), 300, 8192) == "stopped at max_tokens=300"
    assert length_reason(Usage(input_tokens=2000, output_tokens=48), 300, 2048) == (
        "context window full: prompt 2000 + output 48 tokens filled n_ctx=2048 before max_tokens=300")
