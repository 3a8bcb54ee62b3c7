"""The runner end to end on real papers with the deterministic mock provider."""

from __future__ import annotations

import asyncio
import zlib
from pathlib import Path

import numpy as np
import pytest

from rhetorica.models.providers.mock import MockModel
from rhetorica.models.registry import split_model_id
from rhetorica.store.db import Store
from rhetorica.store.export import assessments_table
from rhetorica.models.errors import ProviderNotInstalledError
from rhetorica.study.config import ConfigError, parse_study
from rhetorica.study.runner import StudyRunner

from .helpers import PAPERS, study_dict


class BagOfWordsEmbedder:
    """A tiny deterministic embedder (hashed word counts) standing in for sentence-transformers."""

    name = "bag-of-words-test"
    max_tokens = 256

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def embed(self, texts):
        vectors = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                vectors[row, zlib.crc32(word.encode()) % 64] += 1
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)


def make_runner(shared_data: Path, out: Path, models: dict[str, MockModel] | None = None, embedder=None,
                **overrides):
    config = parse_study(study_dict(shared_data, out, **overrides))
    models = models if models is not None else {}

    def factory(model_id: str, options: dict) -> MockModel:
        split_model_id(model_id)  # the registry's check: unknown providers raise
        return models.setdefault(model_id, MockModel(model=model_id.split("/", 1)[1], **options))

    return StudyRunner(config, out.parent, model_factory=factory, embedder=embedder), models


def test_full_matrix_then_rerun_makes_zero_calls(shared_data: Path, tmp_path: Path) -> None:
    # The real validation stage (all-MiniLM-L6-v2) included. With 400-word excerpts (mostly the
    # abstract), echo "rewrites" change nothing: validation fails them as identical and, under the
    # default `exclude`, they are not reviewed. Every rule-based variant (rules-v3) passes.
    runner, models = make_runner(shared_data, tmp_path / "run", validation={})
    summary = asyncio.run(runner.run())
    assert {stage: dict(c) for stage, c in summary.stage_statuses.items()} == {
        "rewrite": {"ok": 12}, "validate": {"ok": 6, "failed": 6}, "review": {"ok": 3 * 2 + 6 * 2}}
    checks = {(r["document_id"], r["condition"]): (r["passed"], r["reasons_json"])
              for r in runner.store.rows("SELECT document_id, condition, passed, reasons_json FROM checks")}
    assert {k for k, (passed, _) in checks.items() if passed} == {
        (paper, condition) for paper in PAPERS for condition in ("confidence:+", "confidence:-")}
    assert all("identical to its original" in reasons for passed, reasons in checks.values() if not passed)
    assert len(models["mock/reviewer"].calls) == 18 and summary.cache_hits == 0
    assert len(models["mock/echo"].calls) > 0
    runner.store.close()

    again, models2 = make_runner(shared_data, tmp_path / "run", validation={})
    second = asyncio.run(again.run())
    assert (second.units_run, second.model_calls, second.cache_hits) == (0, 0, 0)
    assert second.units_skipped == summary.units_total == 12 + 12 + 18
    assert models2 == {}  # not even instantiated
    table = assessments_table(again.store)
    assert len(table) == 18 and table["unit_key"].is_unique
    assert set(table["arm"]) == {"original", "confidence:+", "confidence:-"}
    assert set(table["document_id"]) == set(PAPERS)
    again.store.close()


def test_replicates_are_distinct_samples_and_scores_in_range(shared_data: Path, tmp_path: Path) -> None:
    runner, _ = make_runner(shared_data, tmp_path / "run")
    asyncio.run(runner.run())
    table = assessments_table(runner.store)
    assert table["overall"].between(1, 10).all() and table["soundness"].between(1, 4).all()
    per_input = table.groupby(["document_id", "arm"])["overall"].apply(list)
    # Different seeds give different mock answers for at least some inputs.
    assert any(len(set(v)) > 1 for v in per_input)
    runner.store.close()


VALID = ('{"summary": "s", "strengths": [], "weaknesses": [], "suggestions": [], "soundness": 3, '
         '"significance": 3, "evidence": "4", "clarity": 2, "confidence": 5, "overall": "10"}')


def test_failures_are_recorded_not_imputed(shared_data: Path, tmp_path: Path) -> None:
    # concurrency 1 and no rewriters: three original reviews, answered in script order.
    script = ["{not json", "still not json", {"refusal": "policy"}, {"text": "{", "finish_reason": "length"}]
    reviewer = MockModel(model="reviewer", script=script)
    runner, _ = make_runner(shared_data, tmp_path / "run", models={"mock/reviewer": reviewer},
                            rewriters=[], replicates=1, concurrency=1)
    summary = asyncio.run(runner.run())
    assert dict(summary.statuses) == {"malformed": 1, "refused": 1, "truncated": 1}
    assert summary.model_calls == 4  # the malformed one had its repair attempt
    table = assessments_table(runner.store)
    assert table["overall"].isna().all()  # nothing imputed
    malformed = table[table["status"] == "malformed"].iloc[0]
    assert "no JSON object" in malformed["reason"] and "after repair" in malformed["reason"]
    # Refused and truncated outputs are never cached; the two answered (if invalid) texts are.
    cached = [r[0] for r in runner.store.rows("SELECT output_json FROM response_cache")]
    assert len(cached) == 2 and all('"status":"ok"' in c for c in cached)
    runner.store.close()


def test_repair_attempt_recovers_and_string_scores_parse(shared_data: Path, tmp_path: Path) -> None:
    reviewer = MockModel(model="reviewer", script=['{"overall": 11}', VALID, VALID, VALID])
    runner, _ = make_runner(shared_data, tmp_path / "run", models={"mock/reviewer": reviewer},
                            rewriters=[], replicates=1, concurrency=1)
    summary = asyncio.run(runner.run())
    assert dict(summary.statuses) == {"ok": 3}
    table = assessments_table(runner.store)
    assert table["overall"].tolist() == [10.0, 10.0, 10.0]  # "10" is 10, never 1
    assert table["evidence"].tolist() == [4.0, 4.0, 4.0]
    repair_prompt = reviewer.calls[1][0][-1].content
    assert "overall: 11 is outside its range 1..10" in repair_prompt
    runner.store.close()


def test_bad_document_and_a_provider_setup_failure_do_not_stop_the_study(shared_data: Path,
                                                                        tmp_path: Path) -> None:
    spec_docs = [{"path": str(shared_data / "papers" / "gcrn_iclr2017")}, {"path": str(tmp_path / "missing")}]
    reviewers = [{"name": "good", "model": "mock/reviewer"}, {"name": "no-extra", "model": "mock/needs-extra"}]
    config = parse_study(study_dict(shared_data, tmp_path / "run", documents=spec_docs, reviewers=reviewers,
                                    rewriters=[], replicates=1))

    def factory(model_id: str, options: dict) -> MockModel:
        if model_id == "mock/needs-extra":
            raise ProviderNotInstalledError("provider 'x' needs a package that is not installed; run: pip install x")
        return MockModel(model="reviewer")

    runner = StudyRunner(config, tmp_path, model_factory=factory)
    summary = asyncio.run(runner.run())
    assert dict(summary.statuses) == {"ok": 1}
    assert summary.problems == [
        ("ingest", str(tmp_path / "missing"), "no such file or folder"),
        ("review", "no-extra", "provider 'x' needs a package that is not installed; run: pip install x"),
    ]
    runner.store.close()


def test_unknown_provider_is_a_config_error_naming_the_key(shared_data: Path, tmp_path: Path) -> None:
    reviewers = [{"name": "good", "model": "mock/reviewer"}, {"name": "typo", "model": "mokc/reviewer"}]
    with pytest.raises(ConfigError, match=r"reviewers\[1\]\.model: unknown provider 'mokc'"):
        parse_study(study_dict(shared_data, tmp_path / "run", reviewers=reviewers))


def test_budget_stops_new_calls(shared_data: Path, tmp_path: Path) -> None:
    runner, models = make_runner(shared_data, tmp_path / "run", rewriters=[], replicates=1, budget_usd=0.0)
    summary = asyncio.run(runner.run())
    assert summary.budget_stopped and summary.units_run == 0 and models == {}
    assert any(stage == "budget" for stage, _, _ in summary.problems)
    runner.store.close()


def test_variants_failing_validation_are_excluded_or_flagged(shared_data: Path, tmp_path: Path) -> None:
    unrelated = {"name": "junk", "kind": "llm", "model": "mock/junk", "conditions": ["proficiency:-"]}
    junk = MockModel(model="junk", script=["Bananas are yellow and rich in potassium."] * 200)
    for mode, reviewed in (("exclude", 0), ("include", 6)):
        runner, _ = make_runner(shared_data, tmp_path / mode, models={"mock/junk": junk}, rewriters=[unrelated],
                                embedder=BagOfWordsEmbedder(), validation={"failed_variants": mode})
        junk.script = ["Bananas are yellow and rich in potassium."] * 200
        summary = asyncio.run(runner.run())
        assert summary.statuses["failed"] == 3  # every junk variant fails its checks
        checks = runner.store.rows("SELECT passed, reasons_json FROM checks")
        assert [c["passed"] for c in checks] == [0, 0, 0]
        assert all("semantic similarity" in c["reasons_json"] for c in checks)
        table = assessments_table(runner.store)
        variants = table[table["arm"] != "original"]
        assert len(variants) == reviewed
        assert (variants["variant_passed"] == 0).all()
        runner.store.close()


def test_an_unexpected_error_in_one_unit_does_not_stop_the_study(shared_data: Path, tmp_path: Path,
                                                                 monkeypatch) -> None:
    from rhetorica.rewriting import rule_based

    original = rule_based.rewrite_document

    def flaky(document, condition):
        if document.id == "chebnet_nips2016" and condition == "confidence:-":
            raise RuntimeError("disk on fire")
        return original(document, condition)

    monkeypatch.setattr(rule_based, "rewrite_document", flaky)
    rules = [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}]
    runner, _ = make_runner(shared_data, tmp_path / "run", rewriters=rules, replicates=1)
    summary = asyncio.run(runner.run())
    assert summary.problems == [("rewrite", "chebnet_nips2016 / confidence:- / rules", "RuntimeError: disk on fire")]
    assert dict(summary.stage_statuses["rewrite"]) == {"ok": 5}
    assert dict(summary.stage_statuses["review"]) == {"ok": 3 + 5}  # 3 originals + 5 variants
    runner.store.close()


def test_retry_failed_asks_again_only_what_was_never_answered(shared_data: Path, tmp_path: Path) -> None:
    # Three original reviews in plan order (concurrency 1). The malformed one's two answers are in
    # the response cache: a retry parses them again (0 calls). The refusal was never cached: asked again.
    script = ["{not json", "still not json", {"refusal": "policy"}, VALID, VALID]
    reviewer = MockModel(model="reviewer", script=script)
    runner, _ = make_runner(shared_data, tmp_path / "run", models={"mock/reviewer": reviewer},
                            rewriters=[], replicates=1, concurrency=1)
    first = asyncio.run(runner.run())
    assert dict(first.statuses) == {"malformed": 1, "refused": 1, "ok": 1} and first.model_calls == 4
    retried = asyncio.run(runner.run(retry_failed=True))
    assert (retried.units_run, retried.units_skipped, retried.model_calls, retried.cache_hits) == (2, 1, 1, 2)
    assert dict(retried.statuses) == {"malformed": 1, "ok": 1}
    table = assessments_table(runner.store)
    assert sorted(table["status"]) == ["malformed", "ok", "ok"] and len(table) == 3
    runner.store.close()


def test_the_run_summary_counts_retried_requests_apart_from_first_attempts(tmp_path):
    from rhetorica.models.api import ChatMessage, GenerateConfig
    from rhetorica.models.call import CallContext, RetryPolicy, call_model
    from rhetorica.study.runner import RunSummary, _CountingLog

    store = Store.in_dir(tmp_path / "run")
    summary = RunSummary()
    context = CallContext(log=_CountingLog(store, summary), unit_key="u1")
    model = MockModel(script=[{"error": "transient"}, {"error": "transient"}, "first answer", "second answer"])
    no_wait = RetryPolicy(base_delay_s=0.0, jitter=0.0)
    try:
        for text in ("one prompt", "another prompt"):  # 3 attempts, then 1
            messages = [ChatMessage(role="user", content=text)]
            output = asyncio.run(call_model(model, messages, GenerateConfig(), context=context, retry=no_wait))
            assert output.status == "ok"
    finally:
        store.close()
    assert (summary.model_calls, summary.model_retries, summary.cache_hits) == (4, 2, 0)


def test_a_text_the_run_kept_is_linked_to_the_next_unit_not_stored_again(tmp_path):
    import json

    from rhetorica.documents.inputs import ReviewerInput
    from rhetorica.documents.models import RemovedItem
    from rhetorica.study.runner import RunSummary, _CountingLog

    store = Store.in_dir(tmp_path / "run")
    log = _CountingLog(store, RunSummary())
    removed = [RemovedItem(item="email", location="section 'A'", text="a@b.org", reason="an email address")]
    item = ReviewerInput(role="manuscript", text="paper text", removed=removed)
    written: list[str] = []
    record = store.record_input
    store.record_input = lambda unit_key, row: (written.append(unit_key), record(unit_key, row))  # type: ignore[method-assign]
    try:
        for unit in ("u1", "u2", "u3"):
            log.record_input(unit, item)
        log.record_input("u3", ReviewerInput(role="notice", text="a notice"))
        assert written == ["u1", "u3"]  # the manuscript's text once, then the notice's
        rows = store.input_rows()
        assert [(r["unit_key"], r["role"], r["text"]) for r in rows] == [
            ("u1", "manuscript", "paper text"), ("u2", "manuscript", "paper text"),
            ("u3", "manuscript", "paper text"), ("u3", "notice", "a notice")]
        assert json.loads(rows[1]["removed_json"]) == [removed[0].model_dump()]
    finally:
        store.close()
