"""The six-dimension study with the embedded model as rewriter and reviewer (issue 14, "Done when":
"the same study runs with the embedded model as rewriter on one project limited to a few
paragraphs per file ... the report says why per variant").

A trimmed copy of ``examples/six_dimensions_embedded.yaml``: its rewriter, reviewers and project
settings as they are, the conditions cut to ``joint`` and ``guided`` (the two code paths: a
paragraph rewrite, and the intermediate review with its second rewrite), plus the scripted agent
of ``tests/study/scripted_project_agent.py`` dropping a ``\\cite`` on ``novelty:+`` so that one
variant is certainly discarded. Whatever SmolLM2 writes, every variant's outcome must be recorded
with its reason and the report must list each reason; the baseline is reviewed under Standard
and Strict on the ICLR-2026 form (overall 1-10, soundness/presentation/contribution 1-4,
confidence 1-5: the ICLR 2026 reviewer form).

Embedded (SmolLM2-135M on CPU through llama.cpp; about two minutes on 2 shared cores):
``pytest -m embedded tests/study/test_six_dimensions_embedded.py``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path

import pytest
import yaml

from rhetorica.report.render import write_report
from rhetorica.documents.latex.project import load_project
from rhetorica.study.config import parse_study
from rhetorica.study.project_rewrite import variant_dir
from rhetorica.study.runner import StudyRunner
from tests.rewriting.latex_project.conftest import FAULTS

pytestmark = pytest.mark.embedded

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "six_dimensions_embedded.yaml"
AGENT = REPO / "tests" / "study" / "scripted_project_agent.py"
PAPER = "gcrn_iclr2017"
#: The ICLR 2026 reviewer form's scales.
RANGES = {"overall": (1, 10), "soundness": (1, 4), "presentation": (1, 4), "contribution": (1, 4), "confidence": (1, 5)}
FAILED = {"discarded", "truncated", "refused", "empty", "timeout", "error"}


def _rows(run_dir: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(run_dir / "store.sqlite") as conn:
        return conn.execute(sql).fetchall()


def _plain(text: str) -> str:
    """Markdown cell text without its escapes (and the source's own backslashes)."""
    return text.replace("\\", "")


def test_embedded_rewrites_are_checked_compiled_reviewed_and_every_outcome_explained(shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", f"{REPO / 'src'}:{REPO}")
    spec = yaml.safe_load(EXAMPLE.read_text())
    spec["output_dir"] = str(tmp_path / "run")
    spec["documents"] = [{"latex_project": str(shared_data / "papers" / PAPER)}]
    [smol] = spec["rewriters"]
    smol["conditions"] = ["joint", "guided"]
    spec["rewriters"].append({"name": "drops-cite", "kind": "agent", "conditions": ["novelty:+"],
                              "project": {"command": [sys.executable, str(AGENT), "{project}", "drop_cite"],
                                          "env_allow": ["PYTHONPATH"], "repair_rounds": 1}})
    config = parse_study(spec)
    runner = StudyRunner(config, tmp_path)
    (runner.run_dir / "study.json").write_text(config.model_dump_json(indent=2), encoding="utf-8")
    summary = asyncio.run(runner.run())
    run_dir = runner.run_dir

    # every variant has an outcome: ok with its compiled PDF, or a failure status with its reason;
    # guided is planned only on an accepted joint variant and an ok review of it (a unit of its own)
    variants = {(rw, c): (k, s, r) for k, rw, c, s, r in
                _rows(run_dir, "SELECT unit_key, rewriter, condition, status, reason FROM variants")}
    joint_ok = variants[("smollm2", "joint")][1] == "ok"
    reviewed = _rows(run_dir, "SELECT variant_key, status FROM guided_reviews")
    review_ok = joint_ok and reviewed == [(variants[("smollm2", "joint")][0], "ok")]
    expected = {("smollm2", "joint"), ("drops-cite", "novelty:+")} | ({("smollm2", "guided")} if review_ok else set())
    assert set(variants) == expected
    for (rw, condition), (key, status, reason) in variants.items():
        if status == "ok":
            assert reason is None and (variant_dir(run_dir, key) / "variant.pdf").stat().st_size > 0
        else:
            assert status in FAILED and reason, (rw, condition, status)
    fault = FAULTS["drop_cite"](load_project(shared_data / "papers" / PAPER)).message
    assert variants[("drops-cite", "novelty:+")][1:] == ("discarded", fault)
    if joint_ok:  # the review of the joint variant is kept whatever became of it
        [(variant_key, _)] = reviewed
        assert variant_key == variants[("smollm2", "joint")][0]

    # the report's six-dimension section lists each variant with the reason of each failure
    write_report(run_dir, n_resamples=200)
    report = (run_dir / "report.md").read_text()
    section = report.split("## Six-dimension study")[1].split("\n## ")[0]
    outcome = section.split("**Every project variant's outcome**")[1]
    for (rw, condition), (_, status, reason) in variants.items():
        [line] = [ln for ln in outcome.splitlines() if f"| {_plain(condition)} " in _plain(ln) and f"| {rw} " in ln]
        assert f"| {status} " in line
        if status != "ok":
            assert _plain(reason) in _plain(line)

    # the baseline reviewed under both protocols, scores on the ICLR-2026 form's scales
    original = _rows(run_dir, "SELECT a.reviewer, a.status, a.protocol, s.metric, s.value FROM assessments a "
                              "JOIN scores s ON s.unit_key = a.unit_key WHERE a.condition = 'original'")
    assert {(r, st, p) for r, st, p, _, _ in original} == {("smollm2-standard", "ok", "standard"),
                                                           ("smollm2-strict", "ok", "strict-iclr")}
    for reviewer in ("smollm2-standard", "smollm2-strict"):
        scores = {m: v for r, _, _, m, v in original if r == reviewer}
        assert set(scores) == set(RANGES)
        for metric, (low, high) in RANGES.items():
            assert low <= scores[metric] <= high and float(scores[metric]).is_integer(), (reviewer, metric)
    # every accepted variant reviewed under both, each outcome recorded; discarded ones never
    reviewed = _rows(run_dir, "SELECT condition, rewriter, reviewer, status FROM assessments WHERE condition != 'original'")
    accepted = {(c, rw) for (rw, c), (_, s, _) in variants.items() if s == "ok"}
    assert {(c, rw) for c, rw, _, _ in reviewed} == accepted
    assert len(reviewed) == 2 * len(accepted)
    print(f"\nvariants: {json.dumps({f'{rw}/{c}': s for (rw, c), (_, s, _) in variants.items()})}; "
          f"wall {summary.wall_time_s:.1f} s")
