"""The attack kind end to end in a study run: a scripted reviewer whose score rises with a planted
phrase, a null reviewer, a scripted proposer (tests/attack/scripted.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from rhetorica.analysis.attack import TRAJECTORY, attack_summary, held_out_shifts, transfer_matrix
from rhetorica.documents.models import Document
from rhetorica.store.db import Store
from rhetorica.store.export import assessments_table
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner
from tests.attack.scripted import PHRASE, Proposer, PhraseReviewer
from tests.study.helpers import study_dict
from tests.study.test_runner import BagOfWordsEmbedder

BAD_SEEDS = frozenset({2, 5})  # round 1 candidate 2, round 2 candidate 2: fail the checks, would score 10
OPTIONS = {"candidates": 3, "rounds": 3, "search_replicates": 3, "max_queries": 30,
           "moves": ["confidence:-", "presentation"]}


def attack_spec(shared_data: Path, out: Path, **options) -> dict:
    return study_dict(shared_data, out, replicates=4, validation={"enabled": True},
                      rewriters=[{"name": "attacker", "kind": "attack", "model": "mock/proposer",
                                  "conditions": ["attack:+"], "options": OPTIONS | options}],
                      reviewers=[{"name": "phrase", "model": "mock/phrase"}, {"name": "null", "model": "mock/null"}])


def models() -> dict:
    return {"mock/phrase": PhraseReviewer("phrase", effect=1.0), "mock/null": PhraseReviewer("null", effect=0.0),
            "mock/proposer": Proposer(bad_seeds=BAD_SEEDS)}


def runner_for(spec: dict, out: Path, found: dict) -> StudyRunner:
    return StudyRunner(parse_study(spec), out.parent, model_factory=lambda model_id, options: found[model_id],
                       embedder=BagOfWordsEmbedder())


def stored(run_dir: Path) -> tuple:
    store = Store.open_readonly(run_dir / "store.sqlite")
    try:
        records = [json.loads(v) for _, name, v in store.artefact_rows() if name == TRAJECTORY]
        winners = {r["rewriter"]: {} for r in store.rows("SELECT rewriter FROM variants")}
        for r in store.rows("SELECT document_id, rewriter, document_json FROM variants WHERE status = 'ok'"):
            winners[r["rewriter"]][r["document_id"]] = Document.model_validate_json(r["document_json"])
        return records, winners, assessments_table(store), store.rows(
            "SELECT unit_key, cache_key, cache_hit, status FROM model_calls")
    finally:
        store.close()


@pytest.fixture(scope="module")
def finished(shared_data: Path, tmp_path_factory) -> tuple:
    out = tmp_path_factory.mktemp("attack") / "run"
    runner = runner_for(attack_spec(shared_data, out), out, models())
    summary = asyncio.run(runner.run())
    runner.store.close()
    return summary, out, *stored(out)


def test_the_search_finds_the_planted_direction_and_the_held_out_shift_is_the_scripted_effect(finished):
    summary, _, records, winners, tidy, _ = finished
    assert dict(summary.stage_statuses["attack"]) == {"ok": 6} and not summary.problems
    counts = {d: w.to_markdown().lower().count(PHRASE) for d, w in winners["attacker>phrase"].items()}
    assert len(counts) == 3 and min(counts.values()) >= 1  # every search moved towards the planted phrase
    row = attack_summary(tidy, records).set_index("target").loc["phrase"]
    expected = sum(counts.values()) / 3  # effect 1 point per phrase, zero-mean rounded noise
    assert row["n_papers"] == 3 and row["mean_lo"] <= expected <= row["mean_hi"]
    assert row["mean_shift"] == pytest.approx(expected, abs=1.0)
    assert all(r["queries"] <= 30 for r in records)
    assert row["queries_per_paper"] == pytest.approx(sum(r["queries"] for r in records if r["target"] == "phrase") / 3)


def test_against_the_null_reviewer_the_held_out_interval_holds_zero_while_the_in_search_best_is_positive(finished):
    _, _, records, _, tidy, _ = finished
    row = attack_summary(tidy, records).set_index("target").loc["null"]
    assert row["in_search_shift"] > 0
    assert row["mean_lo"] <= 0 <= row["mean_hi"]
    # the phrase target's winners do not move the null reviewer either (transfer)
    transfer = transfer_matrix(tidy).set_index(["target", "reviewer"])
    assert transfer.loc[("phrase", "null"), "mean_lo"] <= 0 <= transfer.loc[("phrase", "null"), "mean_hi"]
    assert transfer.loc[("phrase", "phrase"), "mean_shift"] == attack_summary(tidy, records).set_index(
        "target").loc["phrase", "mean_shift"]


def test_no_kept_candidate_failed_validation(finished):
    _, _, records, _, _, _ = finished
    candidates = [c for r in records for rnd in r["rounds"][1:] for c in rnd["candidates"]]
    # the planted candidates (seeds 2 and 5: candidate 2 of rounds 1 and 2) of all 6 searches
    bad = [c for r in records for rnd in r["rounds"][1:3] for c in rnd["candidates"] if c["candidate"] == 2]
    assert len(bad) == 12 and all(not c["valid"] and c["score"] is None and not c["kept"] for c in bad)
    assert all("winner" not in c and c["reason"] for c in bad)
    assert all(c["valid"] for c in candidates if c["kept"] or c.get("winner"))


def test_search_reviews_never_share_a_cache_key_with_the_held_out_reviews(finished):
    _, _, _, _, tidy, calls = finished
    review_units = set(tidy["unit_key"])
    search_keys = {c["cache_key"] for c in calls if c["unit_key"] not in review_units}
    held_out_keys = {c["cache_key"] for c in calls if c["unit_key"] in review_units}
    assert search_keys and held_out_keys and not search_keys & held_out_keys
    paid = [c["cache_key"] for c in calls if c["status"] == "ok" and not c["cache_hit"]]
    assert len(paid) == len(set(paid))  # no answer paid for twice
    shifts = held_out_shifts(tidy)
    assert set(shifts["reviewer"]) == {"phrase", "null"} and len(shifts) == 3 * 2 * 2


def test_an_attack_rewriter_reads_only_the_repair_and_compile_project_settings(shared_data, tmp_path):
    from rhetorica.study.config import ConfigError
    from rhetorica.study.planner import rewriter_spec_hash

    def parsed(project: dict):
        spec = attack_spec(shared_data, tmp_path / "run")
        spec["rewriters"][0]["project"] = project
        return parse_study(spec).rewriters[0]

    default, fewer = parsed({}), parsed({"repair_rounds": 0, "compile_timeout_s": 30})
    assert (fewer.project.repair_rounds, fewer.project.compile_timeout_s) == (0, 30)
    assert rewriter_spec_hash(default, "attack:+") != rewriter_spec_hash(fewer, "attack:+")  # searched again
    with pytest.raises(ConfigError) as caught:
        parsed({"repair_rounds": 1, "max_paragraphs_per_file": 2})
    assert str(caught.value) == ("study: rewriters[0]: rewriter 'attacker' of kind 'attack' does not use "
                                 "project.max_paragraphs_per_file (it reads only project.compile_timeout_s, "
                                 "project.repair_rounds)")


def test_a_metric_the_target_form_lacks_is_refused_at_load_with_exit_2(shared_data, tmp_path):
    """``metric:`` is checked against every target's form when the study loads (before, each
    search failed at run time); ``run``, ``estimate`` and ``status`` exit 2 naming the rewriter,
    the option and the target's metrics."""
    from typer.testing import CliRunner

    from rhetorica.cli.app import app
    from rhetorica.study.config import ConfigError
    from tests.study.helpers import write_study

    spec = attack_spec(shared_data, tmp_path / "run", metric="presentation")  # a metric of iclr-2026, not of 000
    expected = ("rewriters[0]: rewriter 'attacker' of kind 'attack': options.metric: 'presentation' is not a metric "
                "of reviewer 'phrase' (form review-000@1; its metrics: overall, soundness, significance, evidence, "
                "clarity, confidence)")
    with pytest.raises(ConfigError) as info:
        parse_study(spec)
    assert expected in str(info.value)
    study = write_study(tmp_path / "study.yaml", spec)
    for command in ("run", "estimate", "status"):
        result = CliRunner().invoke(app, [command, str(study)], env={"COLUMNS": "400"})
        assert result.exit_code == 2, (command, result.output)
        assert " ".join(expected.split()) in " ".join(result.output.split()), (command, result.output)
    assert not (tmp_path / "run").exists()  # refused before anything ran
    # a metric every target has, and a target-restricted metric of that target's form only, load
    assert parse_study(attack_spec(shared_data, tmp_path / "run", metric="clarity")).rewriters[0].kind == "attack"
    mixed = attack_spec(shared_data, tmp_path / "run", metric="presentation", targets=["iclr"])
    mixed["reviewers"].append({"name": "iclr", "model": "mock/phrase", "protocol": "strict-iclr"})
    assert parse_study(mixed).rewriters[0].options.as_kwargs()["metric"] == "presentation"


def test_a_document_without_the_scope_section_fails_its_own_searches_only(shared_data, tmp_path):
    """A scope section title can only be checked per document: a paper without it fails its
    searches (``error``, the reason naming the section and the paper's sections); the others run."""
    papers = tmp_path / "papers"
    papers.mkdir()
    body = ("We count the edges of each graph in the collection, group the graphs by their size, and compare the "
            "counts with those of random graphs of the same size drawn from three standard models. ") * 3
    (papers / "with.md").write_text(f"# With\n\n## Abstract\n\nWe study graphs.\n\n## Method\n\n{body}\n",
                                    encoding="utf-8")
    (papers / "without.md").write_text(f"# Without\n\n## Abstract\n\nWe study trees.\n\n## Results\n\n{body}\n",
                                       encoding="utf-8")
    out = tmp_path / "run"
    spec = attack_spec(shared_data, out, scope=["method"], candidates=1, rounds=1, search_replicates=1,
                       max_queries=5)
    spec["documents"] = [{"path": str(papers / "with.md")}, {"path": str(papers / "without.md")}]
    spec["reviewers"] = spec["reviewers"][:1]
    runner = runner_for(spec, out, models())
    summary = asyncio.run(runner.run())
    rows = runner.store.rows("SELECT document_id, status, reason FROM variants ORDER BY document_id")
    runner.store.close()
    assert dict(summary.stage_statuses["attack"]) == {"ok": 1, "error": 1}
    assert [(r["document_id"], r["status"], r["reason"]) for r in rows] == [
        ("with", "ok", None),
        ("without", "error", "document 'without' has no non-empty section titled 'method' (its sections: "
                             "'Abstract', 'Results')")]
