"""Attack success against the target's own noise (issue 36 §2), end to end over the six shared papers.

One study, three targets, each searched against by the scripted proposer (it plants "remarkably
robust" under the ``presentation`` move, tests/attack/scripted.py):

- ``phrase``: overall = round(4 + 2 × phrases + N(0, 0.6)): rewards the planted phrase;
- ``null``: the same reviewer with effect 0: its noise is seeded by the text, so it ignores what
  the text says (text-blind);
- ``control``: the simulated null reviewer (a latent quality per paper + N(0, 1.5) per review,
  integer scores; no model call, no text read).

After each search the target re-reviews the original 4 times (the study's replicates, as many as
the winner's held-out reviews). A text-blind target's winners flip no more often than its
re-reviews: success (winner flip rate − re-review flip rate, paired) has an exact interval holding
0, and the scorecard does not fail it on flips; the phrase target's success interval lies above 0.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from rhetorica.analysis.attack import TRAJECTORY, attack_summary, rereview_means
from rhetorica.analysis.scorecard import FAIL, UNDECIDED, scorecard
from rhetorica.attack.kind import REREVIEW_REPLICATE_BASE, SEARCH_REPLICATE_BASE
from rhetorica.store.db import Store
from rhetorica.store.export import assessments_table
from rhetorica.study.config import parse_study
from rhetorica.study.estimate import estimate_study
from rhetorica.study.runner import StudyRunner
from tests.attack.scripted import PhraseReviewer, Proposer
from tests.study.test_runner import BagOfWordsEmbedder

PAPERS = ("cheblienet_neurips2021", "chebnet_nips2016", "fma_ismir2017", "gcrn_iclr2017", "scipy-1.0",
          "stable-nalu_iclr2020")
REPLICATES = 4
THRESHOLD = 5.0  # the phrase target scores an original about 4 (a mean of 4.75 occurs), a winner 6 or more
OPTIONS = {"candidates": 2, "rounds": 2, "search_replicates": 2, "max_queries": 10, "moves": ["presentation"]}


def spec(shared_data: Path, out: Path) -> dict:
    return {"name": "noise-baseline", "output_dir": str(out),
            "documents": [{"path": str(shared_data / "papers" / p)} for p in PAPERS],
            "document_options": {"max_words": 400}, "replicates": REPLICATES, "decision_threshold": THRESHOLD,
            "validation": {"enabled": True},
            "rewriters": [{"name": "attacker", "kind": "attack", "model": "mock/proposer", "conditions": ["attack:+"],
                           "options": OPTIONS}],
            "reviewers": [{"name": "phrase", "model": "mock/phrase"}, {"name": "null", "model": "mock/null"},
                          {"name": "control", "kind": "control", "options": {"noise_sd": 1.5,
                                                                             "integer_scores": True}}]}


@pytest.fixture(scope="module")
def finished(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    out = tmp_path_factory.mktemp("noise") / "run"
    models = {"mock/phrase": PhraseReviewer("phrase", effect=2.0), "mock/null": PhraseReviewer("null", effect=0.0),
              "mock/proposer": Proposer()}
    config = parse_study(spec(shared_data, out))
    study_file = out.parent / "study.yaml"
    study_file.write_text(yaml.safe_dump(spec(shared_data, out)), encoding="utf-8")
    estimate = estimate_study(study_file)  # before the run: every call is pending
    runner = StudyRunner(config, out.parent, model_factory=lambda model_id, options: models[model_id],
                         embedder=BagOfWordsEmbedder())
    summary = asyncio.run(runner.run())
    runner.store.close()
    store = Store.open_readonly(out / "store.sqlite")
    try:
        records = [json.loads(v) for _, name, v in store.artefact_rows() if name == TRAJECTORY]
        tidy = assessments_table(store)
        calls = [dict(r) for r in store.rows("SELECT * FROM model_calls")]
    finally:
        store.close()
    return summary, records, tidy, calls, estimate


def test_every_search_re_reviewed_its_original_as_often_as_the_winner_is_reviewed(finished) -> None:
    summary, records, tidy, _, _ = finished
    assert dict(summary.stage_statuses["attack"]) == {"ok": 18} and not summary.problems
    assert len(records) == 18 and all(len(r["rereview_scores"]) == REPLICATES for r in records)
    assert all(s is not None for r in records for s in r["rereview_scores"])
    held_out = tidy[(tidy["condition"] == "attack:+") & (tidy["reviewer"] == tidy["rewriter"].str.split(">").str[1])]
    assert set(held_out.groupby(["document_id", "reviewer"]).size()) == {REPLICATES}
    assert set(tidy["replicate"]) == set(range(REPLICATES))  # the study's own replicates: none of the search's


def test_re_reviews_are_new_calls_with_their_own_cache_keys(finished) -> None:
    _, records, tidy, calls, _ = finished
    review_units = set(tidy["unit_key"])
    search_units = {c["unit_key"] for c in calls} - review_units
    held_out = {c["cache_key"] for c in calls if c["unit_key"] in review_units}
    in_search = {c["cache_key"] for c in calls if c["unit_key"] in search_units}
    assert held_out and in_search and not held_out & in_search
    # per phrase search: 2·2 proposals + its queries + 4 re-reviews were asked for (answered or cached)
    phrase = [r for r in records if r["target"] == "phrase"]
    asked = sum(r["queries"] + len(r["rereview_scores"]) + 4 for r in phrase)
    phrase_units = {c["unit_key"] for c in calls if c["unit_key"] in search_units and c["model"] == "phrase"}
    assert len(phrase_units) == 6
    asked_stored = sum(1 for c in calls if c["unit_key"] in phrase_units)
    assert asked_stored == asked
    for unit in phrase_units:  # every review call of a search is its own request: the re-reviews of the
        keys = [c["cache_key"] for c in calls if c["unit_key"] == unit and c["model"] == "phrase"]
        assert len(keys) == len(set(keys)) == 10 + REPLICATES  # original's search reviews are not reused
    assert SEARCH_REPLICATE_BASE + 50 <= REREVIEW_REPLICATE_BASE  # search_replicates is at most 50


def test_the_estimate_counts_the_re_reviews_and_bounds_the_calls_made(finished) -> None:
    _, records, tidy, calls, estimate = finished
    planned: dict[str, int] = {}
    for row in estimate.rows:  # one row per (stage, model)
        planned[row.stage] = planned.get(row.stage, 0) + row.calls
    # per search: k·T = 4 proposals (each paper's abstract is one chunk at 400 words), min(k·T·r + r, 10) = 10
    # search reviews and 4 re-reviews by an LLM target; the control target makes no call
    assert planned["attack"] == 6 * (4 + 10 + 4) * 2 + 6 * 4
    made = {c["unit_key"] for c in calls} - set(tidy["unit_key"])
    assert planned["attack"] >= sum(1 for c in calls if c["unit_key"] in made)


def test_text_blind_targets_succeed_no_more_than_their_re_reviews(finished) -> None:
    _, records, tidy, _, _ = finished
    table = attack_summary(tidy, records, THRESHOLD).set_index("target")
    for target in ("null", "control"):
        row = table.loc[target]
        assert row["n_baseline"] == row["n_eligible"] > 0
        assert row["success_lo"] <= 0 <= row["success_hi"], row.to_dict()
        assert row["success_p"] >= 0.05
    phrase = table.loc["phrase"]
    assert (phrase["n_eligible"], phrase["n_flipped"], phrase["n_noise_flipped"]) == (6, 6, 0)
    assert phrase["success_rate"] == 1.0 and phrase["success_lo"] == pytest.approx(2 * 0.025 ** (1 / 6) - 1)
    assert phrase["success_lo"] > 0


def test_the_scorecard_judges_flips_beyond_the_re_reviews(finished) -> None:
    _, records, tidy, _, _ = finished
    noise = rereview_means(records)
    with_baseline = scorecard(tidy, decision_threshold=THRESHOLD, rereviews=noise).set_index("reviewer")

    for target in ("null", "control"):
        assert with_baseline.loc[target, "verdict_flips"] != FAIL
        assert with_baseline.loc[target, "verdict"] != FAIL, with_baseline.loc[target, "reasons"]
    # the phrase reviewer: 6 of 6 winners of each search flipped (every search planted the phrase), no
    # re-review did: 100% beyond its noise, but the exact
    # interval at the Bonferroni level (3 pairs of the original) still reaches below the 10% bound:
    # six papers cannot decide; the lower bound is 2·(0.05/3/2)^(1/6) − 1
    phrase = with_baseline.loc["phrase"]
    assert phrase["flip_pct"] == 100.0 and phrase["flip_pair"].endswith(" vs original")
    assert phrase["flip_pct_low"] == pytest.approx(100 * (2 * (0.05 / 3 / 2) ** (1 / 6) - 1))
    assert phrase["verdict_flips"] == UNDECIDED and "beyond re-review noise" in phrase["reasons"]
