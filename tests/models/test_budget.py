"""Study budget: worst-case reservations stop paid calls before they could exceed the limit."""

from __future__ import annotations

import asyncio

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
