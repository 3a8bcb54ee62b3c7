"""Study budget: worst-case reservations stop paid calls before they could exceed the limit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.budget import Budget, BudgetExceededError, worst_case_cost
from rhetorica.models.call import CallContext, call_model
from rhetorica.models.providers.mock import MockModel
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
from rhetorica.models.store_log import StoreCallLog
from rhetorica.status import Status

PRICES = """
models:
  openai-compatible/priced:
    input: 1000.0
    output: 1000.0
    source: https://example.org/test-price
    as_of: '2026-11-01'
"""


@pytest.fixture
def priced(fake_server, tmp_path, monkeypatch):
    path = tmp_path / "prices.yaml"
    path.write_text(PRICES)
    monkeypatch.setenv("RHETORICA_PRICES", str(path))  # $0.001 per token in and out
    return OpenAICompatibleModel(f"priced@{fake_server.url}/v1")


def msgs(i: int) -> list[ChatMessage]:
    return [ChatMessage(role="user", content=f"paper {i} text")]  # one digit for i < 10


CONFIG = GenerateConfig(max_tokens=10)
# the request as sent: 2 letter runs and 1 digit, (2 x 1.275 + 1.254) x 1.05 = 3.99 -> 4 tokens of text,
# + 8 for the message's chat markers + 32 for the request's, and 10 output tokens, at $0.001 each
WORST = (4 + 8 + 32 + 10) * 0.001


def test_worst_case_cost_by_hand(priced):
    assert worst_case_cost(priced, msgs(0), CONFIG) == pytest.approx(WORST) == pytest.approx(0.054)
    assert worst_case_cost(MockModel(), msgs(0), CONFIG) == 0.0
    # a schema counts too, whatever the mode puts it in (the prompt, a response format): the
    # instruction (20 letter runs, 5 other characters) and the sorted JSON
    # '{"properties": {"score": {"type": "integer"}}, "type": "object"}' (6 letter runs, 23 others):
    # (26 x 1.275 + 28 x 0.699) x 1.05 = 55.36 -> 56 tokens, + 1 for the blank line before it
    schema = {"type": "object", "properties": {"score": {"type": "integer"}}}
    with_schema = GenerateConfig(max_tokens=10, json_schema=schema)
    assert worst_case_cost(priced, msgs(0), with_schema) == pytest.approx(WORST + 57 * 0.001)


def test_sequential_calls_stop_before_the_limit(priced, fake_server):
    made = 0
    budget = Budget(limit_usd=0.1)
    with pytest.raises(BudgetExceededError, match=r"budget of \$0\.1000 reached"):
        for i in range(10):
            out = asyncio.run(call_model(priced, msgs(i), CONFIG, context=CallContext(budget=budget)))
            assert out.status == Status.OK and out.cost_usd > 0
            made += 1
    # each answer "echo: paper i text" costs 3 input + 4 output tokens = $0.007 < the $0.054 reserved:
    # 7 calls leave $0.051 < $0.054 of the $0.1
    assert made == len(fake_server.model_requests()) == 7
    assert budget.spent_usd == pytest.approx(0.007 * made)
    assert budget.spent_usd + WORST > 0.1 >= budget.spent_usd
    assert budget.reserved_usd == 0 and budget.refused == 1


def test_concurrent_calls_never_overspend(priced, fake_server):
    fake_server.latency_s = 0.05
    budget = Budget(limit_usd=0.15)

    async def main():
        return await asyncio.gather(
            *(call_model(priced, msgs(i), CONFIG, context=CallContext(budget=budget)) for i in range(10)), return_exceptions=True
        )

    results = asyncio.run(main())
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BudgetExceededError)]
    # at most floor(0.15 / 0.054) = 2 worst cases fit at once, and all ten start together
    assert len(made) == 2 and len(refused) == 8
    assert len(fake_server.model_requests()) == 2
    assert budget.spent_usd <= 0.15


def test_cache_hits_and_unpriced_models_are_free(priced, tmp_path):
    from rhetorica.store.db import Store

    store = Store.in_dir(tmp_path / "run")
    budget = Budget(limit_usd=0.06)  # one worst case ($0.054) fits, then $0.007 is spent
    first = asyncio.run(call_model(priced, msgs(1), CONFIG, context=CallContext(log=StoreCallLog(store), budget=budget)))
    with pytest.raises(BudgetExceededError):
        asyncio.run(call_model(priced, msgs(2), CONFIG, context=CallContext(log=StoreCallLog(store), budget=budget)))
    again = asyncio.run(call_model(priced, msgs(1), CONFIG, context=CallContext(log=StoreCallLog(store), budget=budget)))
    assert again.cache_hit and again.text == first.text
    local = asyncio.run(call_model(MockModel(), msgs(3), CONFIG, context=CallContext(budget=Budget(limit_usd=0.0))))
    assert local.status == Status.OK
    store.close()


def test_budget_starts_from_money_already_spent():
    with pytest.raises(ValueError, match=">= 0"):
        Budget(limit_usd=-1)
    budget = Budget(limit_usd=1.0, spent_usd=0.75)
    assert budget.remaining_usd == pytest.approx(0.25)


TOKENIZED_PRICES = """
models:
  openai-compatible/priced:
    input: 1000.0
    output: 1000.0
    source: https://example.org/test-price
    as_of: '2026-11-01'
  openai-compatible/smollm2-priced:
    input: 1000.0
    output: 1000.0
    source: https://example.org/test-price
    as_of: '2026-11-01'
"""


def _chatml_tokenizer() -> Any:
    """SmolLM2's tokenizer counting a request as llama.cpp's server does: the ChatML rendering of its
    messages, special tokens included (a request without a system message gets SmolLM2's default one)."""
    llama_cpp = pytest.importorskip("llama_cpp")
    from rhetorica.models.embedded_files import gguf_path

    try:
        llm = llama_cpp.Llama(model_path=str(gguf_path("smollm2-135m")), vocab_only=True, verbose=False)
    except Exception as exc:  # noqa: BLE001 - the GGUF package is missing
        pytest.skip(f"the embedded model is not installed: {exc}")
    default = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"

    def count(messages: list[dict[str, str]]) -> int:
        if not messages or messages[0]["role"] != "system":
            messages = [{"role": "system", "content": default}, *messages]
        text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
        return len(llm.tokenize(f"{text}<|im_start|>assistant\n".encode(), add_bos=False, special=True))

    return count


def test_every_reservation_covers_the_request_a_tokenizing_server_bills(tmp_path, monkeypatch, shared_data):
    """A loopback OpenAI-compatible server that reports the prompt tokens SmolLM2's tokenizer counts
    in the ChatML rendering of what it received (schema instruction included): for every review of
    a paper, in json_object and prompt mode, for a model counted by the weights and one counted by
    its own tokenizer, the reservation logged with the call is at least its billed cost."""
    from fake_servers import FakeServer

    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner

    count = _chatml_tokenizer()

    class TokenizingServer(FakeServer):
        def _answer(self, kind, path, body, plan):
            return super()._answer(kind, path, body, {**plan, "usage": {"input": count(body["messages"])}})

    prices = tmp_path / "prices.yaml"
    prices.write_text(TOKENIZED_PRICES)
    monkeypatch.setenv("RHETORICA_PRICES", str(prices))
    with TokenizingServer() as server:
        reviewers = [{"name": f"{name}-{mode}-{protocol}", "model": f"openai-compatible/{name}@{server.url}/v1",
                      "protocol": protocol, "sampling": {"max_tokens": 300},
                      "options": {"structured_output": mode}}
                     for name in ("priced", "smollm2-priced") for mode in ("json_object", "prompt")
                     for protocol in ("default", "standard")]
        spec = {"name": "reserved", "output_dir": str(tmp_path / "run"), "documents": [str(shared_data / "papers" / p)
                for p in ("gcrn_iclr2017", "stable-nalu_iclr2020")],
                "document_options": {"max_words": 600}, "reviewers": reviewers, "replicates": 1,
                "validation": {"enabled": False}, "budget_usd": 1000.0}
        runner = StudyRunner(parse_study(spec), tmp_path)
        asyncio.run(runner.run())
        calls = runner.store.rows("SELECT model, status, input_tokens, output_tokens, cost_usd, reserved_usd "
                                  "FROM model_calls WHERE cache_hit = 0")
        runner.store.close()
    assert len(calls) == 2 * 8 and all(c["status"] == "ok" for c in calls)
    for model in ("priced", "smollm2-priced"):
        mine = [c for c in calls if c["model"].startswith(f"{model}@")]
        # $0.001 a token: the reservation's input tokens are what it holds beyond the 300-token output cap
        reserved_in = [round(c["reserved_usd"] / 0.001) - 300 for c in mine]
        print(f"{model}: {len(mine)} calls, billed input {[c['input_tokens'] for c in mine]}, reserved input "
              f"{reserved_in}, reserved/billed cost {min(c['reserved_usd'] / c['cost_usd'] for c in mine):.3f}.."
              f"{max(c['reserved_usd'] / c['cost_usd'] for c in mine):.3f}")
        assert len(mine) == 8 and all(r >= c["input_tokens"] for r, c in zip(reserved_in, mine, strict=True))
    assert all(c["reserved_usd"] >= c["cost_usd"] > 0 for c in calls)


@pytest.mark.embedded
def test_every_reservation_covers_what_the_real_llama_cpp_server_bills(tmp_path, monkeypatch, shared_data):
    """The same against ``python -m llama_cpp.server`` serving the embedded GGUF (it rejects
    ``json_schema``, so each endpoint's first request is a logged probe, then ``json_object`` with
    the schema instruction in the prompt): every call's reservation is at least its billed cost, and
    its input tokens at least the server's ``prompt_tokens``."""
    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner
    from tests.models.test_llama_cpp_server import _reliability_benchmark

    prices = tmp_path / "prices.yaml"
    prices.write_text(TOKENIZED_PRICES)
    monkeypatch.setenv("RHETORICA_PRICES", str(prices))
    with _reliability_benchmark().llama_cpp_server(threads=2) as root:
        reviewers = [{"name": f"{name}-{protocol}", "model": f"openai-compatible/{name}@{root}/v1",
                      "protocol": protocol, "sampling": {"max_tokens": 48, "temperature": 0.7},
                      "options": {"timeout_s": 900, "max_concurrency": 1}}
                     for name in ("priced", "smollm2-priced") for protocol in ("default",)]
        spec = {"name": "reserved-llama", "output_dir": str(tmp_path / "run"),
                "documents": [str(shared_data / "papers" / "stable-nalu_iclr2020")],
                "document_options": {"max_words": 300}, "reviewers": reviewers, "replicates": 1,
                "validation": {"enabled": False}, "budget_usd": 1000.0}
        runner = StudyRunner(parse_study(spec), tmp_path)
        asyncio.run(runner.run())
        calls = runner.store.rows("SELECT model, status, probe, input_tokens, output_tokens, cost_usd, reserved_usd "
                                  "FROM model_calls WHERE cache_hit = 0 ORDER BY call_id")
        runner.store.close()
    answered = [c for c in calls if c["input_tokens"] > 0]
    for c in calls:
        print(f"{c['model'].partition('@')[0]:15s} probe={c['probe']} {c['status']:9s} billed in/out "
              f"{c['input_tokens']}/{c['output_tokens']} ${c['cost_usd']:.3f}; reserved ${c['reserved_usd']:.3f} "
              f"(input {round(c['reserved_usd'] / 0.001) - 48})")
    assert len(answered) == 2
    assert all(round(c["reserved_usd"] / 0.001) - 48 >= c["input_tokens"] for c in answered)
    assert all(c["reserved_usd"] >= c["cost_usd"] for c in calls)


_REMOVED = object()
#: usage values as a server may send them: only the plain integer is a usable count
_INPUTS = (3, _REMOVED, "3", -1, 3.5, None, True)
_OUTPUTS = (4, _REMOVED, "4", -4, 2**53, None)


def test_a_call_without_usable_counts_is_charged_at_its_bound(priced, fake_server, tmp_path):
    """Every combination of a usable or unusable prompt and completion count: the answer "echo:
    paper i text" really is 3 input and 4 output tokens to the fake server ($0.007); a count not
    reported is charged at its bound — the request's 44 counted input tokens, or max_tokens = 10
    output tokens — in the budget and in the call log alike."""
    from rhetorica.store.db import Store

    combos = [(i, o) for i in _INPUTS for o in _OUTPUTS]
    for prompt, completion in combos:
        block = {k: v for k, v in (("prompt_tokens", prompt), ("completion_tokens", completion)) if v is not _REMOVED}
        fake_server.script.append({"usage_block": block})
    # an answer that cannot be read (content a number): nothing known, so both bounds, $0.054
    fake_server.script.append({"reshape": lambda data: {**data, "choices": [{"message": {"content": 7}}]}})
    store = Store.in_dir(tmp_path / "run")
    budget = Budget(limit_usd=100.0)
    context = CallContext(log=StoreCallLog(store), budget=budget)
    outputs = [asyncio.run(call_model(priced, msgs(0), CONFIG, replicate=n, context=context))
               for n in range(len(combos) + 1)]
    expected = [((3 if i == 3 and type(i) is int else 44) + (4 if o == 4 and type(o) is int else 10)) * 0.001
                for i, o in combos] + [WORST]
    assert [o.cost_usd for o in outputs] == pytest.approx(expected)
    # 1 fully reported ($0.007), 6 - 1 = 5 without output ($0.013), 7 - 1 = 6 without input ($0.048),
    # 6 x 5 = 30 without both and the unreadable answer ($0.054)
    assert sorted(set(round(c, 6) for c in expected)) == [0.007, 0.013, 0.048, 0.054]
    total = 0.007 + 5 * 0.013 + 6 * 0.048 + 31 * 0.054
    assert budget.spent_usd == pytest.approx(total) and budget.reserved_usd == 0
    assert store.spent_usd() == pytest.approx(total)  # what the next run starts from
    assert outputs[-1].status == Status.ERROR and outputs[-1].usage.unreported
    store.close()


def test_without_max_tokens_an_unreported_output_is_charged_at_its_text(priced, fake_server):
    """No cap: the output is charged at the answer's text counted as a request is —
    "echo: paper 0 text": 3 letter runs, 1 digit, 1 other character: (3 x 1.275 + 1.254 + 0.699)
    x 1.05 = 6.07 -> 7 tokens; with the 3 input tokens reported, $0.010."""
    fake_server.script.append({"usage_block": {"prompt_tokens": 3}})
    out = asyncio.run(call_model(priced, msgs(0), GenerateConfig(), context=CallContext(budget=Budget(1.0))))
    assert out.text == "echo: paper 0 text" and out.usage.unreported[:1] == ["output_tokens"]
    assert out.cost_usd == pytest.approx(0.010)
