"""The order of replicates follows each model's prompt cache (issue 40), measured against loopback
servers that count the prompt tokens they evaluate (:mod:`tests.models.cache_servers`; tokens = words):
a llama.cpp-style slot server (1 or 2 slots) and a vLLM-style prefix cache of limited capacity.

The hand-computed plan: 2 papers x 2 arms = 4 prompt groups x 3 replicates = 12 calls, each prompt a
system prompt of ``SYSTEM`` words shared by all groups, then ``OWN`` words of its group's own.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
from rhetorica.models.providers.openai_provider import OpenAIModel
from rhetorica.models.registry import provider_prompt_cache
from rhetorica.models.server_cache import CACHE_SLOT
from rhetorica.report.build import collect
from rhetorica.report.render import render_html
from rhetorica.report.sections import report_sections
from rhetorica.store.runs import STUDY_FILE
from rhetorica.study import scheduling
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner
from tests.models.cache_servers import PrefixCacheServer, SlotServer
from tests.models.fake_servers import FakeServer

SYSTEM, OWN = 32, 32
PLAIN_LATENCY_S = 0.2
"""Server seconds per call where plain order's bound needs two calls sent together to overlap (a busy
machine may start the second a few tens of milliseconds late)."""
GROUPS = [(paper, arm) for paper in ("p0", "p1") for arm in ("original", "confidence:+")]


def _unit(paper: str, arm: str, replicate: int) -> SimpleNamespace:
    target = SimpleNamespace(document_id=paper, condition=arm, rewriter=None, document=SimpleNamespace(content_hash=paper))
    return SimpleNamespace(key=f"{paper}|{arm}|{replicate}", replicate=replicate, target=target,
                           reviewer=SimpleNamespace(name="r", model="local"))


def _messages(unit: SimpleNamespace) -> list[ChatMessage]:
    own = " ".join(f"{unit.target.document_id}{unit.target.condition}w{k}" for k in range(OWN))
    return [ChatMessage(role="system", content=" ".join(f"sys{k}" for k in range(SYSTEM))),
            ChatMessage(role="user", content=own)]


def _arm_messages(unit: SimpleNamespace) -> list[ChatMessage]:
    """Like :func:`_messages`, but a paper's two arms share the first ``OWN // 2`` words of their own
    text (the rewrite changes the second half): their prompts share SYSTEM + OWN // 2 words."""
    paper, arm = unit.target.document_id, unit.target.condition
    own = [f"{paper}w{k}" for k in range(OWN // 2)] + [f"{paper}{arm}w{k}" for k in range(OWN // 2, OWN)]
    return [ChatMessage(role="system", content=" ".join(f"sys{k}" for k in range(SYSTEM))),
            ChatMessage(role="user", content=" ".join(own))]


def _schedule(server: FakeServer, cache: scheduling.CacheModel, concurrency: int = 2,
              groups: list[tuple[str, str]] = GROUPS, messages=_messages) -> None:  # type: ignore[no-untyped-def]
    """The plan's 12 calls in plan order (``groups``, 3 replicates each) through
    :class:`scheduling.Schedule`, as the runner makes them."""
    units = [_unit(paper, arm, r) for paper, arm in groups for r in (1, 2, 3)]

    async def go() -> None:
        model = OpenAICompatibleModel(f"m@{server.url}/v1", structured_output="prompt")
        schedule = scheduling.Schedule(units, dict.fromkeys([u.key for u in units], cache), concurrency)

        async def one(unit: SimpleNamespace) -> None:
            async with schedule.turn(unit):
                await model.generate(messages(unit), GenerateConfig(max_tokens=8))

        await asyncio.gather(*(one(u) for u in units))

    asyncio.run(go())


def _served(cache: scheduling.CacheModel, server: FakeServer, concurrency: int = 2, **plan) -> FakeServer:  # type: ignore[no-untyped-def]
    with server:
        _schedule(server, cache, concurrency, **plan)
    assert server.requests == 12
    return server


def test_provider_defaults() -> None:
    assert provider_prompt_cache("embedded") == "slots" and provider_prompt_cache("openai-compatible") == "probe"
    assert {provider_prompt_cache(p) for p in ("openai", "anthropic", "google")} == {"prefix"}
    assert provider_prompt_cache("no-such-provider") == "none"


def test_cache_model_of_a_unit_follows_the_study_then_the_provider_then_the_probe() -> None:
    declared = SimpleNamespace(prompt_cache="slots", cache_slots=4, provider="openai-compatible")
    undeclared = SimpleNamespace(prompt_cache=None, cache_slots=1, provider="openai-compatible")
    unit = lambda model: SimpleNamespace(reviewer=SimpleNamespace(model=model))  # noqa: E731
    models = {"llama": declared, "vllm": undeclared}
    assert scheduling.prompt_cache(unit("llama"), models) == scheduling.CacheModel("slots", 4, "declared")
    assert scheduling.prompt_cache(unit("vllm"), models).source == "not probed"
    probed = {"vllm": scheduling.CacheModel("prefix", 1, "probed: GET /metrics: vllm: metrics")}
    assert scheduling.prompt_cache(unit("vllm"), models, probed) == probed["vllm"]
    assert scheduling.prompt_cache(unit("embedded/smollm2-135m"), {}) == scheduling.CacheModel("slots", 1)
    assert scheduling.prompt_cache(unit("openai/gpt-5-mini"), {}).kind == "prefix"
    assert scheduling.prompt_cache(unit(None), {}).kind == "none"


def test_cache_slots_only_with_slots() -> None:
    base = {"name": "s", "documents": ["x.md"], "reviewers": [{"name": "n", "kind": "control"}]}
    model = {"provider": "openai-compatible", "model": "m", "endpoints": [{"base_url": "http://127.0.0.1:9/v1"}]}
    with pytest.raises(ValueError, match="cache_slots: only with prompt_cache: slots"):
        parse_study(base | {"models": {"m": model | {"prompt_cache": "prefix", "cache_slots": 2}}})
    assert parse_study(base | {"models": {"m": model | {"prompt_cache": "slots", "cache_slots": 2}}}).models["m"].cache_slots == 2


# -- one slot: (SYSTEM + OWN) for the first group, OWN for each later group's first call, 0 for replicates
ONE_SLOT = (SYSTEM + OWN) + 3 * OWN   # 32+32 + 3*32 = 160
# -- two slots: each lane's first group finds an empty slot: 2 * (SYSTEM + OWN) + 2 * OWN
TWO_SLOTS = 2 * (SYSTEM + OWN) + 2 * OWN  # 128 + 64 = 192


def test_one_slot_schedule_evaluates_the_hand_computed_tokens_and_no_more_than_plain_order() -> None:
    slots = _served(scheduling.CacheModel("slots", 1), SlotServer(latency_s=0.03))
    plain = _served(scheduling.CacheModel("none"), SlotServer(latency_s=0.03))
    leader = _served(scheduling.CacheModel("prefix"), SlotServer(latency_s=0.03))
    assert slots.evaluated == ONE_SLOT == 160
    assert slots.full_reuse == 8  # replicates 2 and 3 of the 4 groups
    assert slots.evaluated <= plain.evaluated and slots.evaluated <= leader.evaluated
    # plain order at concurrency 2 sends replicates 1 and 2 of a group together: the second waits for
    # the slot and finds the first's prompt, or the next group's call comes between them
    assert [s.slot for s in slots.served] == [0] * 12
    # the lane keeps the slot busy: within a group, the next replicate is sent while the one before
    # it runs (replicates 2 and 3 of each group: 8 requests), so the server queues it on the slot
    sent = sorted(slots.model_requests(), key=lambda r: r.started)
    assert sum(b.started < a.finished - 0.01 for a, b in zip(sent, sent[1:])) >= 8


def test_two_slot_schedule_keeps_a_group_on_one_slot_and_no_more_than_plain_order() -> None:
    slots = _served(scheduling.CacheModel("slots", 2), SlotServer(latency_s=0.03, slots=2))
    plain = _served(scheduling.CacheModel("none"), SlotServer(latency_s=PLAIN_LATENCY_S, slots=2))
    assert slots.evaluated == TWO_SLOTS == 192
    on = {}
    for s in slots.served:
        on.setdefault(s.prompt, set()).add(s.slot)
    assert len(on) == 4 and all(len(found) == 1 for found in on.values())  # each group on one slot
    assert {next(iter(found)) for found in on.values()} == {0, 1}  # both lanes used
    assert slots.full_reuse == 8
    # plain order: replicates 1 and 2 of the first group are sent together and take both empty slots
    assert plain.evaluated >= 2 * (SYSTEM + OWN) + 3 * OWN
    assert slots.evaluated <= plain.evaluated


def test_more_slots_than_concurrency_uses_only_as_many_lanes() -> None:
    """With concurrency 1, a second lane would send the second group to an empty slot (SYSTEM again)."""
    slots = _served(scheduling.CacheModel("slots", 2), SlotServer(latency_s=0.01, slots=2), concurrency=1)
    assert slots.evaluated == ONE_SLOT and {s.slot for s in slots.served} == {0}


# -- a paper's two arms share SYSTEM + OWN/2 words; plan order puts the originals first (the planner's order)
ORIGINALS_FIRST = [(paper, arm) for arm in ("original", "confidence:+") for paper in ("p0", "p1")]
# one slot, the lane taking the same paper's other arm next: p0 original, p0 confidence:+ (finds SYSTEM + 16),
# p1 original (finds SYSTEM), p1 confidence:+ (finds SYSTEM + 16)
ARMS_ONE_SLOT = (SYSTEM + OWN) + OWN // 2 + OWN + OWN // 2  # 64 + 16 + 32 + 16 = 128
# in plan order every later group finds only SYSTEM on the slot: 64 + 3 * 32
ARMS_PLAN_ORDER = (SYSTEM + OWN) + 3 * OWN  # 160
# two slots: the unused lane takes the other paper; each lane then its paper's other arm
ARMS_TWO_SLOTS = 2 * (SYSTEM + OWN) + 2 * (OWN // 2)  # 128 + 32 = 160


def test_a_lane_is_given_the_group_sharing_the_longest_prefix_with_its_last() -> None:
    arms = {"groups": ORIGINALS_FIRST, "messages": _arm_messages}
    one = _served(scheduling.CacheModel("slots", 1), SlotServer(latency_s=0.02), **arms)
    plain = _served(scheduling.CacheModel("none"), SlotServer(latency_s=PLAIN_LATENCY_S), **arms)
    assert one.evaluated == ARMS_ONE_SLOT == 128
    assert [s.evaluated for s in one.served] == [64, 0, 0, 16, 0, 0, 32, 0, 0, 16, 0, 0]
    assert plain.evaluated >= ARMS_PLAN_ORDER == 160  # plain order: p1's original comes between p0's arms
    two = _served(scheduling.CacheModel("slots", 2), SlotServer(latency_s=0.02, slots=2), **arms)
    assert two.evaluated == ARMS_TWO_SLOTS == 160
    papers_on: dict[str, set[int]] = {}
    for body in [r.body for r in two.model_requests()]:
        papers_on.setdefault(body["messages"][1]["content"].split()[0][:2], set()).add(body["id_slot"])
    assert papers_on == {"p0": {0}, "p1": {1}}  # each paper's two arms on one slot
    # the same plan paper by paper: the unused lane still takes the other paper, not p0's other arm
    paper_major = _served(scheduling.CacheModel("slots", 2), SlotServer(latency_s=0.02, slots=2),
                          groups=GROUPS, messages=_arm_messages)
    assert paper_major.evaluated == ARMS_TWO_SLOTS


# -- vLLM-style cache, blocks of 16, 128 tokens held (the system prompt and 3 groups' own blocks).
# Leader first at concurrency 2: groups 1 and 2 lead together and find nothing (2 x 64); their
# replicates follow and find all; groups 3 and 4 lead together and find the system prompt (2 x 32).
PREFIX = 2 * (SYSTEM + OWN) + 2 * OWN  # 192


def test_capacity_limited_prefix_cache_leader_schedule_no_more_than_plain_order() -> None:
    leader = _served(scheduling.CacheModel("prefix"), PrefixCacheServer(latency_s=0.05, capacity=128))
    plain = _served(scheduling.CacheModel("none"), PrefixCacheServer(latency_s=PLAIN_LATENCY_S, capacity=128))
    assert leader.evaluated == PREFIX == 192
    # plain order: replicates 1 and 2 of the first group are sent together and both find nothing
    assert plain.evaluated >= 2 * (SYSTEM + OWN) + 3 * OWN
    assert leader.evaluated <= plain.evaluated


def test_slot_fields_are_sent_only_for_a_slots_lane_of_an_openai_compatible_model(monkeypatch) -> None:
    compatible = OpenAICompatibleModel("m@http://127.0.0.1:9/v1")
    msgs, config = [ChatMessage(role="user", content="hi")], GenerateConfig(max_tokens=4)
    assert "id_slot" not in compatible.request_params(msgs, config) and "cache_prompt" not in compatible.request_params(msgs, config)
    token = CACHE_SLOT.set(1)
    try:
        params = compatible.request_params(msgs, config)
        assert (params["id_slot"], params["cache_prompt"]) == (1, True)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        assert "id_slot" not in OpenAIModel("gpt-5-mini").request_params(msgs, config)  # OpenAI's API: never
    finally:
        CACHE_SLOT.reset(token)
    # the schedule sets a slot only for a slots model's units
    server = SlotServer(latency_s=0.0, slots=2)
    with server:
        _schedule(server, scheduling.CacheModel("prefix"))
        _schedule(server, scheduling.CacheModel("slots", 2))
    bodies = [r.body for r in server.model_requests()]
    assert all("id_slot" not in b and "cache_prompt" not in b for b in bodies[:12])
    assert all(b["id_slot"] in (0, 1) and b["cache_prompt"] is True for b in bodies[12:])


# -- through the runner: a real study's prompts against the one-slot server ------------------------------

def _papers(folder: Path, n: int) -> list[Path]:
    rng = random.Random(1)
    out = []
    for k in range(n):
        body = " ".join(rng.choice(["graph", "model", "data", "result", "we", "show", "the", f"t{k}"]) for _ in range(400))
        path = folder / f"paper{k}.md"
        path.write_text(f"# Paper {k}\n\n## Abstract\n\n{body}\n", encoding="utf-8")
        out.append(path)
    return out


def _run(tmp: Path, prompt_cache: str | None, slots: int = 1) -> tuple[SlotServer, StudyRunner]:
    tmp.mkdir(parents=True)
    server = SlotServer(latency_s=0.05, slots=slots).start()
    try:
        model = {"provider": "openai-compatible", "model": "smollm2", "endpoints": [{"base_url": f"{server.url}/v1"}]}
        if prompt_cache is not None:
            model["prompt_cache"] = prompt_cache
        config = parse_study({
            "name": "slot", "output_dir": str(tmp / "run"), "documents": [{"path": str(p)} for p in _papers(tmp, 2)],
            "models": {"local": model},
            "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
            "reviewers": [{"name": "r", "model": "local", "protocol": "default", "sampling": {"max_tokens": 200}}],
            "replicates": 3, "concurrency": 2, "validation": {"enabled": False},
        })
        runner = StudyRunner(config, tmp / "run")
        (runner.run_dir / STUDY_FILE).write_text(config.model_dump_json(indent=2), encoding="utf-8")  # as `rhetorica run`
        asyncio.run(runner.run())
        runner.store.close()
    finally:
        server.stop()
    return server, runner


def test_single_slot_server_evaluates_no_more_than_plain_order(tmp_path: Path) -> None:
    lane, _ = _run(tmp_path / "lane", "slots")      # one lane: plan order, one call at a time
    plain, _ = _run(tmp_path / "plain", "none")     # plan order at concurrency 2
    leader, _ = _run(tmp_path / "leader", "prefix")  # the provider-prefix schedule
    # 2 papers x 2 arms x 3 replicates = 12 reviews
    assert lane.requests == plain.requests == leader.requests == 12
    assert lane.evaluated <= min(plain.evaluated, leader.evaluated)
    # every replicate after its group's first (8 of 12, the most 4 groups allow) reuses the whole prompt
    assert lane.full_reuse == 8
    again, _ = _run(tmp_path / "again", "slots")
    assert (again.evaluated, again.full_reuse) == (lane.evaluated, 8)


def test_an_undeclared_server_is_probed_once_and_the_report_shows_it(tmp_path: Path) -> None:
    server, runner = _run(tmp_path / "probed", None, slots=2)
    gets = [r.path for r in server.received if r.method == "GET"]
    assert gets == ["/props"]  # once per run, though the review stage and its replicates use the model
    bodies = [r.body for r in server.model_requests()]
    assert len(bodies) == 12 and {b["id_slot"] for b in bodies} == {0, 1}
    on: dict[str, set[int]] = {}
    for s in server.served:
        on.setdefault(s.prompt, set()).add(s.slot)
    assert len(on) == 4 and all(len(found) == 1 for found in on.values())
    assert server.full_reuse == 8
    data = collect(runner.run_dir)
    assert data.usage["prompt_cache"].tolist() == ["slots: 2 (probed: GET /props: total_slots=2)"]
    # the rendered usage table: the tokens the server reported reused (its timings.cache_n, summed here from
    # the server's own record), beside the reuse estimate assumed (it asks no server) and the schedule's cache
    reused = sum(s.tokens - s.evaluated for s in server.served)
    assert reused > 0 and data.usage["cached_tokens"].tolist() == [reused]
    sections = report_sections(data, [])
    usage = next(section for section in sections if section.key == "usage").tables[0]
    row = dict(zip(usage.headers, usage.rows[0]))
    assert usage.headers[usage.headers.index("Reused input tokens"):][:3] == [
        "Reused input tokens", "Reuse the estimate assumes", "Prompt cache (schedule)"]
    assert (row["Reused input tokens"], row["Reuse the estimate assumes"], row["Prompt cache (schedule)"]) == (
        str(reused), "none (not asked of the server)", "slots: 2 (probed: GET /props: total_slots=2)")
    assert "<th>Reuse the estimate assumes</th>" in render_html(data, sections)
