"""The order of replicates follows the model's prompt cache (issue 40): against a loopback server that
keeps only the state of the prompt it processed last (as ``python -m llama_cpp.server`` does with one
slot), a model declared ``prompt_cache: last-prompt`` evaluates no more prompt tokens than plain plan
order (the default of an openai-compatible model) and fewer than the leader-first schedule made for
provider prefix caches, which the default no longer applies to such a server.

The server (:mod:`tests.models.last_prompt_server`) processes one request at a time and counts the
prompt tokens it evaluates: a request's tokens minus their longest common prefix with the previous
request's."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace

from rhetorica.models.registry import provider_prompt_cache
from rhetorica.study import scheduling
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner
from tests.models.last_prompt_server import LastPromptServer


def _papers(folder: Path, n: int) -> list[Path]:
    rng = random.Random(1)
    out = []
    for k in range(n):
        body = " ".join(rng.choice(["graph", "model", "data", "result", "we", "show", "the", f"t{k}"]) for _ in range(400))
        path = folder / f"paper{k}.md"
        path.write_text(f"# Paper {k}\n\n## Abstract\n\n{body}\n", encoding="utf-8")
        out.append(path)
    return out


def _run(tmp: Path, prompt_cache: str | None) -> LastPromptServer:
    tmp.mkdir(parents=True)
    server = LastPromptServer(latency_s=0.05).start()
    try:
        model = {"provider": "openai-compatible", "model": "smollm2",
                 "endpoints": [{"base_url": f"{server.url}/v1"}]}
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
        asyncio.run(runner.run())
        runner.store.close()
    finally:
        server.stop()
    return server


def test_provider_defaults() -> None:
    assert provider_prompt_cache("embedded") == "last-prompt" and provider_prompt_cache("openai-compatible") == "none"
    assert {provider_prompt_cache(p) for p in ("openai", "anthropic", "google")} == {"prefix"}
    assert provider_prompt_cache("no-such-provider") == "none"


def test_prompt_cache_of_a_unit_follows_the_study_then_the_provider() -> None:
    declared = SimpleNamespace(prompt_cache="prefix", provider="openai-compatible")
    by_default = SimpleNamespace(prompt_cache=None, provider="embedded")
    unit = lambda model: SimpleNamespace(reviewer=SimpleNamespace(model=model))  # noqa: E731
    assert scheduling.prompt_cache(unit("vllm"), {"vllm": declared}) == "prefix"
    assert scheduling.prompt_cache(unit("local"), {"local": by_default}) == "last-prompt"
    assert scheduling.prompt_cache(unit("openai/gpt-5-mini"), {}) == "prefix"
    assert scheduling.prompt_cache(unit(None), {}) == "none"


def test_single_slot_server_evaluates_no_more_than_plain_order(tmp_path: Path) -> None:
    lane = _run(tmp_path / "lane", "last-prompt")  # one lane: plan order, one call at a time
    plain = _run(tmp_path / "plain", None)         # the openai-compatible default: plan order at concurrency 2
    leader = _run(tmp_path / "leader", "prefix")   # the provider-prefix schedule
    # 2 papers x 2 arms x 3 replicates = 12 reviews
    assert lane.requests == plain.requests == leader.requests == 12
    # plain order and the leader schedule depend on which of two requests in flight the server takes
    # first (measured here: 2,045 to 3,735 tokens); the lane does not, and is never worse
    assert lane.evaluated <= min(plain.evaluated, leader.evaluated)
    # the lane keeps each group's replicates together: every replicate after its group's first (8 of
    # 12, the most 4 groups allow) reuses the whole prompt
    assert lane.full_reuse == 8
    again = _run(tmp_path / "again", "last-prompt")
    assert (again.evaluated, again.full_reuse) == (lane.evaluated, 8)
