"""``rhetorica estimate`` is an upper bound (issue 37.1): every example study, and a judge study whose
every answer needs its repair, run with mock models that make every conditional call (an invalid
first structured answer gets its repair, a rewrite at seed 0 comes back truncated and is retried)
and with mock models that answer well at once; the requests in the store's call log, and their
cost at the study models' list prices, never exceed the estimate.

The studies are the examples as written but for the run directory, the documents (absolute paths,
the first paper of a glob, cut at 300 words), validation (off: every variant is reviewed, as
the estimate assumes), and the command reviewer (a local script printing an AI-Scientist review
instead of a vLLM server).
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelOutput, Usage
from rhetorica.models.pricing import cost_usd
from rhetorica.models.providers.mock import MockModel
from rhetorica.store.db import STORE_FILENAME
from rhetorica.study.config import load_study
from rhetorica.study.estimate import estimate_study
from rhetorica.study.runner import StudyRunner

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (REPO / "examples").glob("*.yaml"))
DOCUMENT_KEYS = ("path", "pairs", "reviews", "latex_project", "dataset")
REVIEW_SCRIPT = """import json, sys
print(json.dumps({"Summary": "s", "Strengths": ["a"], "Weaknesses": ["b"], "Questions": [], "Limitations": "l",
                  "Soundness": 3, "Presentation": 3, "Contribution": 2, "Overall": 5, "Confidence": 3,
                  "Decision": "Reject"}))
"""


class RepairingModel(MockModel):
    """Makes every conditional call happen: the first answer to a structured call is not JSON (so it
    gets its repair call, which the mock answers validly), and a call without a schema at seed 0 is
    cut short (so a rewrite is retried with seed 1)."""

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        if config.json_schema is not None and not any(m.role == "assistant" for m in messages):
            self.script = ['{"overall": ']
        elif config.json_schema is None and config.seed == 0:
            self.script = [{"text": "cut", "finish_reason": "length"}]
        else:
            self.script = None
        return await super().generate(messages, config)  # the script is read before any await


def _documents(entry: Any, base: Path) -> list[Any]:
    """A document entry with absolute paths; a glob over more than one paper: its first."""
    if not isinstance(entry, dict):
        return [entry]
    for key in DOCUMENT_KEYS:
        value = entry.get(key)
        if isinstance(value, str):
            found = sorted(base.glob(value)) if "*" in value else []
            if len(found) > 1:
                return [dict(entry, **{key: str(found[0].resolve())})]
            return [dict(entry, **{key: str((base / value).resolve())})]
    return [entry]


def example_study(name: str, tmp_path: Path, run: str) -> Path:
    """The example ``name`` as run here (module docstring), written under ``tmp_path`` with its run
    directory ``tmp_path / run``."""
    data = yaml.safe_load((REPO / "examples" / name).read_text(encoding="utf-8"))
    data["documents"] = [d for entry in data["documents"] for d in _documents(entry, REPO / "examples")]
    data["output_dir"] = str(tmp_path / run)
    data["document_options"] = {**(data.get("document_options") or {}), "max_words": 300}
    data["validation"] = {"enabled": False}
    data.pop("budget_usd", None)
    script = tmp_path / "reviewer.py"
    script.write_text(REVIEW_SCRIPT, encoding="utf-8")
    for reviewer in data.get("reviewers") or []:
        if reviewer.get("kind") == "command":
            reviewer["options"] = {"args": [sys.executable, str(script), "{input}"], "adapter": "ai-scientist",
                                   "timeout_s": 60}
            reviewer["cost_per_call_usd"] = 0.01
    path = tmp_path / f"{run}-{name}"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def run_with(study: Path, model: type[MockModel]) -> list[tuple[str, str, int, int]]:
    """Run ``study`` with ``model`` in place of every model; the call log's requests as
    (provider, model, input tokens, output tokens), cache hits left out."""
    config, base = load_study(study)
    models: dict[str, MockModel] = {}
    runner = StudyRunner(config, base, model_factory=lambda model_id, options: models.setdefault(
        model_id, model(model=model_id.partition("@")[0])))  # the endpoints of a pool serve one model
    asyncio.run(runner.run())
    runner.store.close()
    with sqlite3.connect(Path(config.output_dir) / STORE_FILENAME) as conn:
        return conn.execute("SELECT provider, model, input_tokens, output_tokens FROM model_calls "
                            "WHERE cache_hit = 0").fetchall()


def list_price(rows: list[tuple[str, str, int, int]], external: dict[str, float]) -> float:
    """The requests' cost at the list price of the model each stands in for (the mock's model name is
    the study's model id); an external reviewer's at its ``cost_per_call_usd``."""
    total = 0.0
    for provider, model, tokens_in, tokens_out in rows:
        if provider != "mock":
            total += external[model]
            continue
        real_provider, _, name = model.partition("/")
        total += cost_usd(real_provider, name.partition("@")[0] if real_provider == "openai-compatible" else name,
                          Usage(input_tokens=tokens_in, output_tokens=tokens_out))
    return total


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_study_calls_and_cost_stay_within_the_estimate(name: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    for model in (RepairingModel, MockModel):
        study = example_study(name, tmp_path, model.__name__)
        estimate = estimate_study(study)
        config, _ = load_study(study)
        for declared in config.models.values():  # the replicas' key variables (never sent: the mocks answer)
            for endpoint in declared.endpoints:
                if endpoint.api_key_env:
                    monkeypatch.setenv(endpoint.api_key_env, "test-key")
        bound = sum(r.calls for r in estimate.rows)
        rows = run_with(study, model)
        made, cost = len(rows), list_price(rows, {r.name: r.cost_per_call_usd for r in config.reviewers})
        print(f"{name} ({model.__name__}): {made} requests, ${cost:.4f}; estimate {bound} calls, "
              f"${estimate.total_cost_usd:.4f} {estimate.bound_terms}")
        assert made <= bound, (model.__name__, made, bound)
        assert cost <= estimate.total_cost_usd + 1e-12, (model.__name__, cost, estimate.total_cost_usd)


def test_a_judge_study_whose_every_answer_is_repaired_makes_exactly_the_planned_calls_and_repairs(
        tmp_path: Path, monkeypatch) -> None:
    """Three reviews of one paper scored by a revieweval and a remor judge on a priced model: every
    judge call's first answer is invalid, so each gets its repair; the run's requests are then the
    estimate's planned calls and repairs, one for one (only the probes, which a mock never
    rejects, are left over), and their list-price cost stays below the estimate's."""
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    words = "The method is sound but the evaluation omits the strongest baseline and two ablations."
    (tmp_path / "reviews.jsonl").write_text("".join(
        f'{{"paper_id": "p1", "review_id": "r{i}", "review": "{words} Point {i}."}}\n' for i in range(3)),
        encoding="utf-8")
    study = {"name": "judged", "output_dir": str(tmp_path / "run"), "documents": [{"reviews": "reviews.jsonl"}],
             "reviewers": [{"name": "ev", "kind": "judge", "model": "openai/gpt-5-mini",
                            "options": {"family": "revieweval"}},
                           {"name": "remor", "kind": "judge", "model": "openai/gpt-5-mini",
                            "options": {"family": "remor"}}],
             "validation": {"enabled": False}}
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study), encoding="utf-8")
    estimate = estimate_study(path)
    terms = estimate.bound_terms
    assert terms["repairs"] == terms["planned"] > 0 and terms["structured-output probes"] == 2
    rows = run_with(path, RepairingModel)
    assert len(rows) == terms["planned"] + terms["repairs"]
    cost = list_price(rows, {})
    print(f"judge study: {len(rows)} requests, ${cost:.5f}; estimate {sum(terms.values())} calls, "
          f"${estimate.total_cost_usd:.5f}")
    assert 0 < cost <= estimate.total_cost_usd


VARYING_REVIEW = """import hashlib, json, sys
overall = 1 + hashlib.sha256(open(sys.argv[1], "rb").read()).digest()[0] % 10
print(json.dumps({"Summary": "s", "Strengths": ["a"], "Weaknesses": ["b"], "Questions": [], "Limitations": "l",
                  "Soundness": 3, "Presentation": 3, "Contribution": 2, "Overall": overall, "Confidence": 3,
                  "Decision": "Accept" if overall >= 6 else "Reject"}))
"""


def test_an_attack_on_a_command_reviewer_stays_within_the_estimate(tmp_path: Path, shared_data: Path,
                                                                    monkeypatch) -> None:
    """A worst-case search (3 candidates x 3 rounds, 3 search replicates) whose target is a command
    reviewer scoring a digest of the manuscript it reads, at $0.02 a call: the search's command
    calls are counted as external calls, and the logged requests (model and command) and their cost
    stay within the estimate."""
    from tests.study.helpers import study_dict

    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    script = tmp_path / "reviewer.py"
    script.write_text(VARYING_REVIEW, encoding="utf-8")
    spec = study_dict(shared_data, tmp_path / "run", replicates=1, validation={"enabled": False},
                      rewriters=[{"name": "attacker", "kind": "attack", "model": "openai/gpt-4.1-mini",
                                  "conditions": ["attack:+"],
                                  "options": {"candidates": 3, "rounds": 3, "search_replicates": 3,
                                              "max_queries": 30, "moves": ["confidence:-", "presentation"]}}],
                      reviewers=[{"name": "cmd", "kind": "command", "cost_per_call_usd": 0.02,
                                  "options": {"args": [sys.executable, str(script), "{input}"],
                                              "adapter": "ai-scientist", "timeout_s": 60}}])
    spec["documents"] = spec["documents"][:1]
    spec["document_options"] = {"max_words": 300}
    path = tmp_path / "attack.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    estimate = estimate_study(path)
    rows = run_with(path, MockModel)
    commands = [r for r in rows if r[0] == "command"]
    cost = list_price(rows, {"cmd": 0.02})
    print(f"attack on a command reviewer: {len(rows)} requests ({len(commands)} command), ${cost:.4f}; estimate "
          f"{sum(estimate.bound_terms.values())} calls {estimate.bound_terms}, ${estimate.total_cost_usd:.4f}")
    assert commands and len(commands) <= estimate.bound_terms["external calls"]
    assert len(rows) <= sum(estimate.bound_terms.values())
    assert cost <= estimate.total_cost_usd
