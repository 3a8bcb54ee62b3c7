"""A study whose reviewer sets ``soft_ratings: true``: expected scores reach the store, the tidy
table and the comparison table; the unit keys of a reviewer without the setting do not change."""

from __future__ import annotations

import json

import pytest

from rhetorica.study.config import parse_study
from rhetorica.study.planner import reviewer_spec_hash
from tests.report.runs import run_study_summary
from tests.study.helpers import study_dict

DATA = __import__("pathlib").Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _spec(tmp_path, soft: bool) -> dict:
    reviewer = {"name": "mock-reviewer", "model": "mock/reviewer", "sampling": {"temperature": 0.7}}
    return study_dict(DATA, tmp_path / "out", reviewers=[reviewer | ({"soft_ratings": True} if soft else {})],
                      rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
                      replicates=1)


def test_soft_ratings_reach_store_tidy_table_and_comparison(tmp_path) -> None:
    from rhetorica.analysis.summary import study_tables
    from rhetorica.store.export import artefacts_table, assessments_table
    from rhetorica.store.runs import open_run_store

    run_dir, summary = run_study_summary(_spec(tmp_path, True), tmp_path)
    assert summary.units_run > 0
    store = open_run_store(run_dir)
    try:
        df, artefacts = assessments_table(store), artefacts_table(store)
    finally:
        store.close()
    ok = df[df["status"] == "ok"]
    # the mock answers with one certain token per character: each expected score is the integer one
    assert len(ok) == 6 and (ok["overall.expected"] == ok["overall"]).all()
    assert (ok["clarity.expected"] == ok["clarity"]).all()
    soft = json.loads(artefacts[artefacts["name"] == "soft_ratings"].iloc[0]["value_json"])
    assert soft["overall"]["covered"] == 1.0 and soft["overall"]["reason"] is None
    table = study_tables(ok)["comparison"]
    row = table.iloc[0]
    assert row["soft_n_pairs"] == row["n_pairs"] == 3
    assert row["soft_mean_diff"] == pytest.approx(row["mean_first"] - row["mean_second"])


def test_setting_off_keeps_the_reviewer_key_and_on_changes_it(tmp_path) -> None:
    off, on = (parse_study(_spec(tmp_path, soft)).reviewers[0] for soft in (False, True))
    plain = parse_study(study_dict(DATA, tmp_path / "out")).reviewers[0]
    assert reviewer_spec_hash(off) == reviewer_spec_hash(plain)
    assert reviewer_spec_hash(on) != reviewer_spec_hash(off)


def test_soft_ratings_only_for_kinds_that_read_logprobs(tmp_path) -> None:
    spec = _spec(tmp_path, False)
    spec["reviewers"] = [{"name": "control", "kind": "control", "soft_ratings": True}]
    with pytest.raises(Exception, match="soft_ratings applies to kind 'judge' or 'llm' only, not 'control'"):
        parse_study(spec)
