"""The guided workflow's review is its own unit of the graph: joint variant -> review -> guided rewrite.

A one-paragraph LaTeX project whose paragraph holds the mock's text marker: the mock echoes what
follows the last marker of a rewrite call, so the joint rewrite keeps only the paragraph's second
half (a change that passes the checker and compiles), and a rewrite of that text echoes it
unchanged (the guided variant is then ``discarded``: "the rewrite changed nothing"). A call with an
output schema (the review) gets a valid review filled from the mock's hash. So each chain of a
``latex-project`` rewriter makes exactly three calls: the joint paragraph, the review of the joint
variant, the guided paragraph. The study's reviewer is a control (no calls). A ``bad`` rewriter's
mock has a one-answer script: its joint paragraph, then "mock script exhausted" (a permanent
error) for its review; a new process starts the script again.

With ``RHETORICA_BASELINE_SRC`` set to the code before the review was a unit, that code writes the
store that this code resumes.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rhetorica.report.flow import store_flow
from rhetorica.store.db import Store
from rhetorica.study import graph
from rhetorica.study.config import load_study
from rhetorica.study.estimate import estimate_study
from rhetorica.study.guided import GuidedReviewStage, GuidedRewriteStage
from rhetorica.study.project_rewrite import variant_dir
from rhetorica.study.runner import StudyRunner
from rhetorica.study.status import study_status
from tests.study.helpers import write_study

ROOT = Path(__file__).resolve().parents[2]
KEPT = "We study graphs with a plain model and a short proof."
PARAGRAPH = f"We study graphs with a plain model. Section text: {KEPT}"


def _project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n"
                                   f"{PARAGRAPH}\n\\end{{document}}\n")
    return root


def _rewriter(name: str, **options) -> dict:
    spec = {"name": name, "kind": "latex-project", "model": f"mock/{name}", "conditions": ["joint", "guided"],
            "project": {"repair_rounds": 0}}
    return spec | ({"options": options} if options else {})


def _study(tmp_path: Path, *rewriters: dict) -> Path:
    spec = {"name": "guided", "output_dir": str(tmp_path / "run"),
            "documents": [{"latex_project": str(_project(tmp_path / "paper"))}],
            "rewriters": list(rewriters), "reviewers": [{"name": "c", "kind": "control"}],
            "replicates": 1, "validation": {"enabled": False}}
    return write_study(tmp_path / "study.yaml", spec)


def _run(study: Path, **kwargs):
    config, base = load_study(study)
    runner = StudyRunner(config, base)
    try:
        return asyncio.run(runner.run(**kwargs))
    finally:
        runner.store.close()


def _rows(run_dir: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(run_dir / "store.sqlite") as conn:
        return conn.execute(sql).fetchall()


def _calls_per_key(run_dir: Path) -> list[int]:
    """How often each cache key was sent to a model (cache hits not counted)."""
    return [n for (n,) in _rows(run_dir, "SELECT COUNT(*) FROM model_calls WHERE cache_hit = 0 GROUP BY cache_key")]


def test_the_review_is_a_unit_between_the_joint_variant_and_the_guided_rewrite(tmp_path):
    study = _study(tmp_path, _rewriter("para"))
    config, base = load_study(study)
    runner = StudyRunner(config, base)
    try:
        steps = list(graph.walk(config, runner.load_documents([]), None, assume_pending=True))
    finally:
        runner.store.close()
    assert [s.stage.name for s in steps] == ["rewrite", "guided-review", "guided-rewrite", "review"]
    joint = next(u for u in steps[0].units if u.condition.name == "joint")
    [review] = steps[1].waiting
    [guided] = steps[2].waiting
    assert steps[1].edges == [(joint.key, review.key)] and steps[2].edges == [(review.key, guided.key)]
    # status and estimate count the review as a unit of its own, with its one call
    counts = {s.stage: (s.units, s.pending) for s in study_status(config, base).stages}
    # the original, the joint and the guided variant are reviewed (one control reviewer)
    assert counts == {"rewrite": (1, 1), "guided-review": (1, 1), "guided-rewrite": (1, 1), "review": (3, 3)}
    rows = {r.stage: r.calls for r in estimate_study(study).rows}
    # one paragraph per rewrite (and its retry if truncated); the review and its repair if invalid
    assert rows == {"rewrite": 1, "guided-review": 1, "guided-rewrite": 1, "rewrite truncation retries (at most)": 1,
                    "guided-review repairs (at most)": 1, "guided-rewrite truncation retries (at most)": 1}


def test_guided_chain_runs_its_review_then_a_rewrite_that_makes_only_rewrite_calls(tmp_path):
    study = _study(tmp_path, _rewriter("para"))
    summary = _run(study)
    run_dir = tmp_path / "run"
    assert summary.model_calls == 3
    [(joint_key, joint_status)] = _rows(run_dir, "SELECT unit_key, status FROM variants WHERE condition = 'joint'")
    [(review_key, variant_key, status, record)] = _rows(
        run_dir, "SELECT unit_key, variant_key, status, record_json FROM guided_reviews")
    assert (joint_status, variant_key, status) == ("ok", joint_key, "ok")
    [(guided_key, guided_status, reason)] = _rows(run_dir, "SELECT unit_key, status, reason FROM variants "
                                                           "WHERE condition = 'guided'")
    assert (guided_status, reason) == ("discarded", "the rewrite changed nothing")  # the echo of the joint text
    calls = dict(_rows(run_dir, "SELECT unit_key, COUNT(*) FROM model_calls GROUP BY unit_key"))
    assert calls == {joint_key: 1, review_key: 1, guided_key: 1}
    params = [json.loads(p) for (p,) in _rows(run_dir, f"SELECT params_json FROM model_calls "
                                                       f"WHERE unit_key = '{guided_key}'")]
    assert [p.get("stop") for p in params] == [["\n\n"]]  # a paragraph rewrite, not a review
    # the guided unit was shown the review's record, kept in its folder
    assert json.loads((variant_dir(run_dir, guided_key) / "review.json").read_text()) == json.loads(record)
    # run again: nothing pending, no call
    again = _run(study)
    assert (again.units_run, again.model_calls, again.units_skipped) == (0, 0, 5)


def test_a_failed_review_stops_only_its_guided_chain_and_the_flow_says_why(tmp_path):
    study = _study(tmp_path, _rewriter("para"), _rewriter("bad", script=[KEPT]))
    summary = _run(study)
    run_dir = tmp_path / "run"
    assert summary.stopped_configurations == {}
    reviews = {r: (s, reason) for r, s, reason in _rows(run_dir, "SELECT rewriter, status, reason FROM guided_reviews")}
    assert reviews["para"] == ("ok", None)
    status, reason = reviews["bad"]
    assert status == "error" and "mock script exhausted" in reason
    variants = sorted(_rows(run_dir, "SELECT rewriter, condition, status FROM variants"))
    assert variants == [("bad", "joint", "ok"), ("para", "guided", "discarded"), ("para", "joint", "ok")]
    # status: the bad chain's guided rewrite is not planned; its review counts as failed
    config, base = load_study(study)
    counts = {s.stage: (s.units, s.done, dict(s.failed)) for s in study_status(config, base).stages}
    assert counts["guided-review"] == (2, 2, {"error": 1})
    assert counts["guided-rewrite"] == (1, 1, {"discarded": 1})
    # the flow counts the failed review under the guided arm of its rewriter, with why
    store = Store.open_readonly(run_dir / "store.sqlite")
    try:
        flow = store_flow(store, config)
    finally:
        store.close()
    rows = flow.flow[flow.flow["stage"] == "guided-review"].set_index("configuration")
    assert rows.loc["bad", ["planned", "failed", "produced"]].tolist() == [1, 1, 0]
    assert rows.loc["para", ["planned", "failed", "produced"]].tolist() == [1, 0, 1]
    why = flow.exclusions[flow.exclusions["stage"] == "guided-review"]
    assert why[["configuration", "kind", "reason", "n"]].values.tolist() == [
        ["bad", "failed", "guided review error: the guided rewrite was not made", 1]]
    # a failed review is not asked again unless failures are retried
    assert _run(study).model_calls == 0
    _retried_from_cache(study, run_dir)


def _retried_from_cache(study: Path, run_dir: Path) -> None:
    """``--retry-failed`` asks the bad review again (its script restarted: the paragraph as the
    answer, malformed, then the repair call finds the script exhausted: 2 calls) and re-runs the
    discarded guided rewrite, whose one call the cache answers."""
    retried = _run(study, retry_failed=True)
    assert (retried.model_calls, retried.cache_hits) == (2, 1)
    assert _rows(run_dir, "SELECT status FROM guided_reviews WHERE rewriter = 'bad'") == [("malformed",)]


def test_a_run_killed_before_a_unit_is_stored_resumes_without_calling_twice(tmp_path, monkeypatch):
    study = _study(tmp_path, _rewriter("para"))
    run_dir = tmp_path / "run"
    for stage in (GuidedReviewStage, GuidedRewriteStage):  # killed after the unit's call, before its commit
        with monkeypatch.context() as patch:
            patch.setattr(stage, "save", lambda self, store, row: (_ for _ in ()).throw(KeyboardInterrupt()))
            with pytest.raises(KeyboardInterrupt):
                _run(study)
    assert _rows(run_dir, "SELECT COUNT(*) FROM variants WHERE condition = 'guided'") == [(0,)]
    summary = _run(study)
    # run 2 stored the review (its call from the cache of run 1); run 3 the guided rewrite (its call from
    # the cache of run 2), then the control reviews of the original and the joint variant
    assert (summary.model_calls, summary.cache_hits, summary.units_run) == (0, 1, 1 + 2)
    assert _calls_per_key(run_dir) == [1, 1, 1]  # joint, review, guided: each sent once over the three runs


def _baseline_run(study: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{os.environ['RHETORICA_BASELINE_SRC']}{os.pathsep}{ROOT}"}
    done = subprocess.run([sys.executable, "-c", "from rhetorica.cli.app import main; main()", "run", str(study)],
                          env=env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr  # 1: a unit failed (the bad chain's review)


@pytest.mark.skipif(not os.environ.get("RHETORICA_BASELINE_SRC"), reason="RHETORICA_BASELINE_SRC not set")
def test_a_store_of_the_old_layout_resumes_with_zero_calls(tmp_path):
    study = _study(tmp_path, _rewriter("para"), _rewriter("bad", script=[KEPT]))
    run_dir = tmp_path / "run"
    _baseline_run(study)
    old = dict(_rows(run_dir, "SELECT rewriter, unit_key FROM variants WHERE condition = 'guided'"))
    artefacts = {k: json.loads(v) for k, v in _rows(run_dir, "SELECT unit_key, value_json FROM artefacts "
                                                             "WHERE name = 'intermediate_review'")}
    assert set(artefacts) == set(old.values())  # the old layout: the review inside the guided unit
    sent_before = _rows(run_dir, "SELECT cache_key FROM model_calls WHERE cache_hit = 0 ORDER BY cache_key")
    summary = _run(study)
    assert (summary.model_calls, summary.units_run) == (0, 2)  # the two reviews, taken over
    # the guided variants keep their keys; the reviews moved to their own rows, as the old code made them
    assert dict(_rows(run_dir, "SELECT rewriter, unit_key FROM variants WHERE condition = 'guided'")) == old
    moved = {r: (s, json.loads(rec)) for r, s, rec in _rows(run_dir, "SELECT rewriter, status, record_json "
                                                                     "FROM guided_reviews")}
    for rewriter, key in old.items():
        assert moved[rewriter][1] == {k: v for k, v in artefacts[key].items() if k != "upstream"}
    assert (moved["para"][0], moved["bad"][0]) == ("ok", "error")
    assert _rows(run_dir, "SELECT COUNT(*) FROM artefacts") == [(0,)]
    assert _rows(run_dir, "SELECT cache_key FROM model_calls WHERE cache_hit = 0 ORDER BY cache_key") == sent_before
    # failures retried: the discarded guided rewrite runs again from the old run's cache
    _retried_from_cache(study, run_dir)


@pytest.mark.skipif(not os.environ.get("RHETORICA_BASELINE_SRC"), reason="RHETORICA_BASELINE_SRC not set")
def test_the_review_and_guided_units_send_the_calls_the_old_guided_unit_sent(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    studies = [_study(folder, _rewriter("para"), _rewriter("bad", script=[KEPT])) for folder in (old, new)]
    _baseline_run(studies[0])
    _run(studies[1])
    keys = [_rows(folder / "run", "SELECT cache_key, status FROM model_calls ORDER BY cache_key") for folder in (old, new)]
    assert len(keys[1]) == 5 and keys[0] == keys[1]  # para: joint, review, guided; bad: joint, review
