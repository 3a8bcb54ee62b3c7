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
