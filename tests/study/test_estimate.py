"""``rhetorica estimate``: calls, tokens and cost of a study before it runs, and after it ran."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

from rhetorica.study.estimate import estimate_study
from rhetorica.study.planned_calls import REPAIR_NOTE_TOKENS
from rhetorica.documents import ReadOptions, read_document

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
PAPER = SHARED_DATA / "papers" / "gcrn_iclr2017"


@pytest.fixture
def study_file(tmp_path, monkeypatch):
    if not PAPER.is_dir():
        pytest.fail(f"shared data not found at {PAPER}")
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    study = {
        "name": "estimate-test",
        "output_dir": str(tmp_path / "run"),
        "documents": [str(PAPER)],
        "document_options": {"max_words": 400},
        "rewriters": [
            {"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]},
            {"name": "llm", "kind": "llm", "model": "openai/gpt-4.1-mini", "conditions": ["proficiency:+"]},
        ],
        "reviewers": [
            {"name": "r1", "model": "openai/gpt-4.1-mini", "sampling": {"max_tokens": 500}},
            {"name": "local", "model": "openai-compatible/qwen@http://127.0.0.1:9/v1"},
        ],
        "replicates": 2,
        "validation": {"enabled": False},  # the model layer is under test, not the checks
        "budget_usd": 0.001,
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study))
    return path


def test_counts_calls_tokens_and_cost(study_file):
    doc = read_document(PAPER, options=ReadOptions(max_words=400))
    sections = [s for s in doc.sections if s.text.strip()]
    result = estimate_study(study_file)
    rows = {(r.stage, r.model): r for r in result.rows}
    # one rewrite call per non-empty section, for the single LLM condition
    rewrite = rows[("rewrite", "openai/gpt-4.1-mini")]
    assert rewrite.calls == len(sections)
    # reviews: (original + 3 variants) x 2 replicates per reviewer
    review = rows[("review", "openai/gpt-4.1-mini")]
    assert review.calls == 8 and rows[("review", "openai-compatible/qwen@http://127.0.0.1:9/v1")].calls == 8
    assert review.output_tokens == 8 * 500
    assert rows[("review", "openai-compatible/qwen@http://127.0.0.1:9/v1")].output_tokens == 8 * 700
    # a review prompt holds the whole (cut) manuscript: at least its word count in tokens
    assert review.input_tokens >= 8 * len(doc.to_markdown().split())
    # cost: gpt-4.1-mini at $0.40 / $1.60 per 1M (calls of equal size, so per-call rounding is exact enough)
    assert review.cost_usd == pytest.approx((review.input_tokens * 0.40 + review.output_tokens * 1.60) / 1e6, rel=1e-3)
    assert review.batch_cost_usd == pytest.approx(review.cost_usd / 2, rel=1e-9)
    assert result.unpriced_models == ["openai-compatible/qwen@http://127.0.0.1:9/v1"]
    # the bound's terms: each review's repair call sends the review request, the first answer at its
    # cap and the note; each chunk's truncation retry the same request again; each endpoint that
    # negotiates its structured-output mode may reject json_schema and json_object once
    repairs = rows[("review repairs (at most)", "openai/gpt-4.1-mini")]
    assert (repairs.calls, repairs.output_tokens) == (8, 8 * 500)
    assert repairs.input_tokens == review.input_tokens + 8 * (500 + REPAIR_NOTE_TOKENS)
    retries = rows[("rewrite truncation retries (at most)", "openai/gpt-4.1-mini")]
    assert (retries.calls, retries.input_tokens, retries.output_tokens) == (
        rewrite.calls, rewrite.input_tokens, rewrite.output_tokens)
    probes = rows[("structured-output probes (at most)", "openai/gpt-4.1-mini")]
    # each as large as the largest structured request: a repair's (all reviews assume the original's text)
    assert probes.calls == 2 and probes.input_tokens == 2 * (repairs.input_tokens // 8)
    assert result.bound_terms == {"planned": len(sections) + 16, "truncation retries": len(sections),
                                  "repairs": 16, "structured-output probes": 4}
    assert result.total_cost_usd == pytest.approx(rewrite.cost_usd + retries.cost_usd + review.cost_usd
                                                  + repairs.cost_usd + probes.cost_usd)
    assert result.units_pending == 3 + 16 and result.units_done == 0  # 3 variants; 4 inputs x 2 reviewers x 2
    assert not (study_file.parent / "run").exists()  # estimate writes nothing


def test_price_override_changes_cost(study_file, tmp_path):
    override = tmp_path / "prices.json"
    override.write_text(
        '{"models": {"openai-compatible/qwen": {"input": 1.0, "output": 1.0, '
        '"source": "https://example.org", "as_of": "2026-11-01"}}}'
    )
    result = estimate_study(study_file, prices=override)
    local = next(r for r in result.rows if r.model.startswith("openai-compatible/"))
    assert local.cost_usd == pytest.approx((local.input_tokens + local.output_tokens) / 1e6, rel=1e-3)
    assert result.unpriced_models == []


def test_finished_units_are_not_counted(study_file):
    from rhetorica.models.providers.mock import MockModel
    from rhetorica.study.config import load_study
    from rhetorica.study.runner import StudyRunner

    config, base = load_study(study_file)
    config = config.model_copy(update={"budget_usd": None})
    runner = StudyRunner(config, base, model_factory=lambda model_id, options: MockModel(model=model_id))
    summary = asyncio.run(runner.run())
    runner.store.close()
    assert summary.units_run == 19
    result = estimate_study(study_file)
    assert result.units_pending == 0 and result.units_done == 19
    assert result.rows == [] and result.total_cost_usd == 0.0


def test_cli_prints_table_and_budget_verdict(study_file):
    from typer import Typer
    from typer.testing import CliRunner

    from rhetorica.cli.estimate import estimate

    app = Typer()
    app.command()(estimate)
    out = CliRunner().invoke(app, [str(study_file)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "openai/gpt-4.1-mini" in out.output and "Budget $0.0010: estimate is OVER budget" in out.output
    assert "no price for openai-compatible/qwen@http://127.0.0.1:9/v1" in out.output.replace("\n", "")
    as_json = CliRunner().invoke(app, [str(study_file), "--json"])
    assert as_json.exit_code == 0 and '"units_pending": 19' in as_json.output


def test_in_process_models_are_free_not_unpriced(study_file):
    data = yaml.safe_load(study_file.read_text())
    data["reviewers"] = [{"name": "local", "model": "mock/scripted"}]
    data["rewriters"] = data["rewriters"][:1]
    study_file.write_text(yaml.safe_dump(data))
    result = estimate_study(study_file)
    assert [(r.stage, r.model, r.calls, r.cost_usd) for r in result.rows] == [
        ("review", "mock/scripted", 2 * 3, 0.0), ("review repairs (at most)", "mock/scripted", 2 * 3, 0.0)]
    assert result.unpriced_models == []


def test_estimated_prompts_are_the_prompts_the_runner_sends(study_file):
    """Every call the estimate counts is a call the runner makes, message for message."""
    from rhetorica.models.providers.mock import MockModel
    from rhetorica.study import graph
    from rhetorica.study.config import load_study
    from rhetorica.study.runner import StudyRunner

    config, base = load_study(study_file)
    config = config.model_copy(update={"budget_usd": None})
    models: dict[str, MockModel] = {}
    runner = StudyRunner(config, base, model_factory=lambda model_id, options: models.setdefault(
        model_id, MockModel(model=model_id)))
    documents = runner.load_documents([])
    planned: dict[str, list[tuple[Any, Any]]] = {}
    for step in graph.walk(config, documents, None, assume_pending=True):
        planned[step.stage.name] = [(u, c) for u in step.units + step.waiting for c in step.stage.calls(u)]
    asyncio.run(runner.run())
    runner.store.close()
    sent = [[m.model_dump() for m in messages] for model in models.values() for messages, _ in model.calls]
    rewrites = [[m.model_dump() for m in c.messages] for _, c in planned["rewrite"]]
    assert rewrites and all(r in sent for r in rewrites)
    # the task, a blank line, the marker line, the chunk (the estimate once had a single newline)
    assert all("\n\nSection text:\n" in r[1]["content"] for r in rewrites)
    # reviews of the originals (the variants' texts are only assumed before the run)
    originals = [[m.model_dump() for m in c.messages] for u, c in planned["review"]
                 if u.variant_key is None and not c.term]  # (a repair is sent only after an invalid answer)
    assert len(originals) == 2 * 2 and all(o in sent for o in originals)


def test_cached_and_batch_columns_by_hand(study_file, tmp_path):
    # 1,500 words (about 2,000 tokens, above the 1,024-token minimum a provider caches); an OpenAI
    # and an Anthropic reviewer, 3 replicates of the original only
    study = yaml.safe_load(study_file.read_text())
    study |= {"document_options": {"max_words": 1500}, "rewriters": [], "replicates": 3, "budget_usd": None,
              "reviewers": [{"name": "gpt", "model": "openai/gpt-4.1-mini", "sampling": {"max_tokens": 500}},
                            {"name": "claude", "model": "anthropic/claude-haiku-4-5", "sampling": {"max_tokens": 500}}]}
    path = tmp_path / "cached.yaml"
    path.write_text(yaml.safe_dump(study))
    rows = {r.model: r for r in estimate_study(path).rows if r.stage == "review"}
    gpt, claude = rows["openai/gpt-4.1-mini"], rows["anthropic/claude-haiku-4-5"]
    t = gpt.input_tokens // 3  # one prompt, sent three times
    assert gpt.calls == 3 and t >= 1024
    # replicates 2 and 3 read the prompt's prefix from the cache in OpenAI's 128-token steps past 1,024
    # (e.g. 2,000 tokens -> 1,024 + 7 x 128 = 1,920); OpenAI bills no cache write
    k = 1024 + 128 * ((t - 1024) // 128)
    assert t - 128 < k <= t
    assert (gpt.cached_input_tokens, gpt.cache_write_tokens) == (2 * k, 0)
    # gpt-4.1-mini per 1M: input 0.40, cached 0.10, output 1.60 (an uncached rest at the input rate);
    # batch 0.20 / 0.05 / 0.80
    uncached = 3 * t - 2 * k
    assert gpt.cached_cost_usd == pytest.approx((uncached * 0.40 + 2 * k * 0.10 + 1500 * 1.60) / 1e6, rel=1e-3)
    assert gpt.batch_cached_cost_usd == pytest.approx((uncached * 0.20 + 2 * k * 0.05 + 1500 * 0.80) / 1e6, rel=1e-3)
    # claude-haiku-4-5 per 1M: input 1.00, cache write 1.25, cache read 0.10, output 5.00: the first
    # call writes the cache, the other two read it
    c = claude.input_tokens / 3
    assert (claude.cached_input_tokens, claude.cache_write_tokens) == (2 * c, c)
    assert claude.cached_cost_usd == pytest.approx((c * 1.25 + 2 * c * 0.10 + 1500 * 5.00) / 1e6, rel=1e-3)
    assert claude.cost_usd == pytest.approx((3 * c * 1.00 + 1500 * 5.00) / 1e6, rel=1e-3)


def test_cached_tokens_follow_the_models_prompt_cache(study_file, tmp_path):
    """An openai-compatible server whose cache is not declared counts as ``none`` (estimate asks no
    server): nothing is counted cached; the same server declared ``slots`` reuses the whole repeated
    prompt (replicates 2 and 3)."""
    study = yaml.safe_load(study_file.read_text())
    study |= {"document_options": {"max_words": 1500}, "rewriters": [], "replicates": 3, "budget_usd": None,
              "models": {"local": {"provider": "openai-compatible", "model": "smollm2", "prompt_cache": "slots",
                                   "endpoints": [{"base_url": "http://127.0.0.1:9/v1"}]}},
              "reviewers": [{"name": "plain", "model": "openai-compatible/smollm2@http://127.0.0.1:9/v1",
                             "sampling": {"max_tokens": 500}},
                            {"name": "lane", "model": "local", "sampling": {"max_tokens": 500}}]}
    path = tmp_path / "caches.yaml"
    path.write_text(yaml.safe_dump(study))
    rows = [r for r in estimate_study(path).rows if r.stage == "review"]
    by_cache = {r.cached_input_tokens == 0: r for r in rows}
    plain, lane = by_cache[True], by_cache[False]
    assert plain.calls == lane.calls == 3 and plain.input_tokens == lane.input_tokens
    assert lane.cached_input_tokens == 2 * (lane.input_tokens // 3)
