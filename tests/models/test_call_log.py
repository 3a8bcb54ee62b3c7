"""The call log: a call is logged when it is sent and updated when it returns; a killed run's
unfinished calls count as spent; identical calls in flight at the same time are sent once."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.budget import Budget
from rhetorica.models.call import CallContext, ConnectionLimits, call_model
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
from rhetorica.status import Status
from rhetorica.models.store_log import StoreCallLog
from rhetorica.store.db import Store
from tests.models.test_budget import PRICES

MESSAGES = [ChatMessage(role="user", content="paper 0 text")]
CONFIG = GenerateConfig(max_tokens=10)
# worst case: the request as sent, 4 tokens of text (2 letter runs and a digit: (2 x 1.275 + 1.254) x
# 1.05 = 3.99) + 8 (the message's chat markers) + 32 (the request's), and 10 output tokens, at $0.001 = $0.054; the answer "echo: paper 0 text" is
# 3 input + 4 output words (the fake counts words) = $0.007
RESERVED, ACTUAL = 0.054, 0.007


@pytest.fixture
def prices(tmp_path, monkeypatch):
    path = tmp_path / "prices.yaml"
    path.write_text(PRICES)
    monkeypatch.setenv("RHETORICA_PRICES", str(path))  # $0.001 per token in and out
    return path


def calls(path) -> list[tuple]:
    conn = sqlite3.connect(path)  # a second connection: what another process would see
    try:
        return conn.execute("SELECT unit_key, status, cost_usd, reserved_usd, finished_at IS NOT NULL, cache_hit "
                            "FROM model_calls ORDER BY call_id").fetchall()
    finally:
        conn.close()


def test_call_is_logged_when_sent_and_updated_when_it_returns(prices, fake_server, tmp_path):
    fake_server.latency_s = 0.5
    store = Store.in_dir(tmp_path / "run")
    model = OpenAICompatibleModel(f"priced@{fake_server.url}/v1")

    async def main():
        task = asyncio.create_task(call_model(model, MESSAGES, CONFIG, context=CallContext(log=StoreCallLog(store), budget=Budget(1.0), unit_key="u1")))
        while not fake_server.model_requests():
            await asyncio.sleep(0.01)
        during = calls(store.path)
        return during, await task

    during, out = asyncio.run(main())
    assert during == [("u1", "in_flight", pytest.approx(RESERVED), pytest.approx(RESERVED), 0, 0)]
    assert out.status == Status.OK and out.cost_usd == pytest.approx(ACTUAL)
    assert calls(store.path) == [("u1", "ok", pytest.approx(ACTUAL), pytest.approx(RESERVED), 1, 0)]
    assert store.spent_usd() == pytest.approx(ACTUAL) and store.calls_in_flight() == 0
    store.close()


KILLED_CALL = textwrap.dedent("""
    import asyncio, sys
    from rhetorica.models.api import ChatMessage, GenerateConfig
    from rhetorica.models.budget import Budget
    from rhetorica.models.call import CallContext, call_model
    from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
    from rhetorica.models.store_log import StoreCallLog
    from rhetorica.store.db import Store
    store = Store(sys.argv[2])
    model = OpenAICompatibleModel("priced@" + sys.argv[1] + "/v1")
    messages = [ChatMessage(role="user", content="paper 0 text")]
    asyncio.run(call_model(model, messages, GenerateConfig(max_tokens=10),
                           context=CallContext(log=StoreCallLog(store), budget=Budget(1.0), unit_key="u1")))
""")


def test_a_call_in_flight_when_the_process_is_killed_counts_as_spent(prices, fake_server, tmp_path):
    fake_server.latency_s = 30.0
    path = tmp_path / "run" / "store.sqlite"
    Store(path).close()
    proc = subprocess.Popen([sys.executable, "-c", KILLED_CALL, fake_server.url, str(path)],
                            env=os.environ | {"RHETORICA_PRICES": str(prices)})
    deadline = time.monotonic() + 60
    while not fake_server.model_requests() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_server.model_requests(), "the call never reached the server"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert calls(path) == [("u1", "in_flight", pytest.approx(RESERVED), pytest.approx(RESERVED), 0, 0)]
    store = Store(path)
    assert store.calls_in_flight() == 1
    assert store.spent_usd() == pytest.approx(RESERVED)  # the provider may have computed (and billed) it
    budget = Budget(0.1, spent_usd=store.spent_usd())
    assert budget.remaining_usd == pytest.approx(0.1 - RESERVED)
    store.close()


def test_identical_calls_in_flight_are_sent_once(fake_server, tmp_path):
    fake_server.latency_s = 0.3
    store = Store.in_dir(tmp_path / "run")
    model = OpenAICompatibleModel(f"m@{fake_server.url}/v1")

    async def main(limits, replicates):
        return await asyncio.gather(*(call_model(model, MESSAGES, CONFIG, replicate=r, context=CallContext(log=StoreCallLog(store), limits=limits, unit_key=f"u{i}")
                                                 ) for i, r in enumerate(replicates)))

    outs = asyncio.run(main(ConnectionLimits(), [0, 0, 0]))
    assert len(fake_server.model_requests()) == 1
    assert [o.status for o in outs] == [Status.OK] * 3 and len({o.text for o in outs}) == 1
    assert sorted(o.cache_hit for o in outs) == [False, True, True]
    rows = calls(store.path)
    assert sorted((r[0], r[5]) for r in rows) == [("u0", 0), ("u1", 1), ("u2", 1)]
    # different replicates are different samples: never merged
    asyncio.run(main(ConnectionLimits(), [5, 6]))
    assert len(fake_server.model_requests()) == 3
    store.close()
