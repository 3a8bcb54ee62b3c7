"""``rhetorica check RUN_DIR``: the scorecard as a CI gate, on control reviewers inside a real study.

Expected intervals come from an independent computation: paper means and win counts with plain
pandas from the store's tidy export, Clopper-Pearson bounds from scipy's beta quantiles
([Beta(a/2; k, n-k+1), Beta(1-a/2; k+1, n-k)], Clopper & Pearson 1934).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import beta
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.report.scorecard import check_run
from rhetorica.store.db import Store
from rhetorica.store.export import assessments_table
from rhetorica.store.runs import STUDY_FILE

from .runs import make_run, run_study

PAPER = ("# Paper {i}\n\n## Abstract\n\nOur results suggest that the method may improve accuracy on task {i}. "
         "It could possibly generalise.\n")
N_PAPERS = 20
PAIRS = [("confidence:+", "original"), ("confidence:-", "original"), ("confidence:+", "confidence:-")]
cli = CliRunner()


def _control_run(root: Path, reviewers: list[dict[str, Any]]) -> Path:
    for i in range(N_PAPERS):
        (root / f"paper{i:02d}.md").write_text(PAPER.format(i=i), encoding="utf-8")
    spec = {"name": "controls", "output_dir": str(root / "run"), "documents": [{"path": str(root / "*.md")}],
            "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
            "reviewers": reviewers, "replicates": 2, "validation": {"enabled": False}}
    run_dir = run_study(spec, root)
    return run_dir


NULL = {"name": "null", "kind": "control", "options": {"noise_sd": 0.5}}
BIASED = {"name": "biased", "kind": "control",
          "options": {"noise_sd": 0.5, "bias_arm": "confidence:+", "preference_ratio": 19.0}}


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _control_run(tmp_path_factory.mktemp("both"), [NULL, BIASED])


@pytest.fixture(scope="module")
def null_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _control_run(tmp_path_factory.mktemp("null"), [NULL])


def _oracle_log_ratio_intervals(run_dir: Path, reviewer: str, alpha: float = 0.05) -> dict[str, tuple[float, ...]]:
    """pair -> (wins A, wins B, |ln R| low, |ln R| high) from the stored reviews, Bonferroni over 3 pairs."""
    store = Store.in_dir(run_dir)
    try:
        table = assessments_table(store)
    finally:
        store.close()
    ok = table[(table["reviewer"] == reviewer) & (table["status"] == "ok")]
    means = ok.groupby(["document_id", "arm"])["overall"].mean().unstack()
    level = alpha / len(PAIRS)
    out = {}
    for first, second in PAIRS:
        diff = (means[first] - means[second]).dropna()
        a, b = int((diff > 0).sum()), int((diff < 0).sum())
        p_low = beta.ppf(level / 2, a, b + 1) if a > 0 else 0.0
        p_high = beta.ppf(1 - level / 2, a + 1, b) if b > 0 else 1.0
        lo = math.log(p_low / (1 - p_low)) if p_low > 0 else -math.inf
        hi = math.log(p_high / (1 - p_high)) if p_high < 1 else math.inf
        abs_lo, abs_hi = (0.0, max(-lo, hi)) if lo <= 0 <= hi else (min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
        out[f"{first} vs {second}"] = (a, b, abs_lo, abs_hi)
    return out


def test_biased_control_fails_and_null_does_not(both: Path) -> None:
    result = check_run(both)
    card = result.scorecard.set_index("reviewer")
    assert result.verdict == "fail" and result.exit_code == 1
    biased = card.loc["biased"]
    assert biased["verdict"] == "fail" and biased["verdict_preference"] == "fail"
    oracle = _oracle_log_ratio_intervals(both, "biased")
    a, b, low, high = oracle[biased["worst_pair"]]
    assert biased["worst_pair"].startswith("confidence:+ vs ")
    assert biased["abs_log_ratio_low"] == pytest.approx(low, rel=1e-9) and low > math.log(1.5)
    assert biased["abs_log_ratio_high"] == pytest.approx(high, rel=1e-9)
    assert f"{a} vs {b} untied papers) exceeds 0.41" in biased["reasons"]
    null = card.loc["null"]
    assert null["verdict"] in ("pass", "not enough data") and null["verdict_preference"] != "fail"
    oracle = _oracle_log_ratio_intervals(both, "null")
    a, b, low, high = oracle[null["worst_pair"]]
    assert null["abs_log_ratio_low"] == pytest.approx(low, rel=1e-9)
    assert null["abs_log_ratio_high"] == pytest.approx(high, rel=1e-9)
    for _, _, low, _ in oracle.values():
        assert low <= math.log(1.5)  # no pair of the null reviewer is beyond the bound


def test_check_command_exit_codes(both: Path, null_only: Path, tmp_path: Path) -> None:
    out = cli.invoke(app, ["check", str(both)])
    assert out.exit_code == 1, out.output
    assert "biased: fail (" in out.output and "verdict: fail (exit 1)" in out.output
    out = cli.invoke(app, ["check", str(null_only)])
    assert out.exit_code == 3, out.output
    assert "null: not enough data (" in out.output and "verdict: not enough data (exit 3)" in out.output
    out = cli.invoke(app, ["check", str(tmp_path / "nowhere")])
    assert out.exit_code == 2 and "no store.sqlite here" in out.output


def test_check_command_passes_a_balanced_large_study(tmp_path: Path) -> None:
    # tests/analysis/test_report_scorecard.py::test_balanced_large_study_passes_every_check, through the CLI
    records = []
    for i in range(200):
        o = 5.5 + (i % 40) * 0.1
        records += [("G", f"p{i}", "original", o), ("G", f"p{i}", "confidence:+", o + (0.5 if i % 2 else -0.5))]
    run = make_run(tmp_path / "run", records)
    out = cli.invoke(app, ["check", str(run)])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == ["G: pass", "verdict: pass (exit 0)"]


def test_check_names_a_bad_scorecard_setting(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("R", "p1", "original", 5)])
    spec = json.loads((run / STUDY_FILE).read_text("utf-8"))
    (run / STUDY_FILE).write_text(json.dumps({**spec, "scorecard": {"alpha": 2}}), encoding="utf-8")
    out = cli.invoke(app, ["check", str(run)])
    assert out.exit_code == 2 and "scorecard.alpha" in out.output


def test_check_writes_nothing(null_only: Path) -> None:
    before = sorted((p.name, p.stat().st_size) for p in null_only.rglob("*") if p.suffix != ".sqlite-wal"
                    and p.suffix != ".sqlite-shm")
    check_run(null_only)
    after = sorted((p.name, p.stat().st_size) for p in null_only.rglob("*") if p.suffix != ".sqlite-wal"
                   and p.suffix != ".sqlite-shm")
    assert before == after


def test_an_incomplete_run_gets_no_verdict_and_its_units_not_run_are_counted(both: Path, tmp_path: Path) -> None:
    """Generated: the complete run (biased fails, exit 1) with k of its stored reviews removed, as an
    interrupted run leaves them (planned, never stored); every k > 0 is 'k planned unit(s) not run',
    exit 3, whatever the configurations' lines say; k = 0 keeps the verdict."""
    import shutil
    import sqlite3

    with sqlite3.connect(both / "store.sqlite") as conn:
        keys = [k for (k,) in conn.execute("SELECT unit_key FROM assessments ORDER BY unit_key")]
    assert len(keys) == N_PAPERS * 3 * 2 * 2  # papers x arms x reviewers x replicates
    for k in (0, 1, 2, 7, 30, 119, len(keys) - 1):
        run = tmp_path / f"k{k}"
        shutil.copytree(both, run)
        with sqlite3.connect(run / "store.sqlite") as conn:
            conn.executemany("DELETE FROM assessments WHERE unit_key = ?", [(key,) for key in keys[::-1][:k]])
        result = check_run(run)
        assert result.not_run == k, (k, result.problem)
        out = cli.invoke(app, ["check", str(run)])
        if k:
            assert out.exit_code == 3 and result.verdict == "not enough data", (k, out.output)
            assert out.output.splitlines()[0] == (f"{run}: the run is incomplete: {k} planned unit(s) not run (see the "
                                                  "study flow); a verdict needs every planned unit run")
        else:
            assert out.exit_code == 1 and result.problem is None, out.output


def test_check_refuses_a_run_in_progress_naming_its_process(null_only: Path) -> None:
    import os

    from rhetorica.store.lock import run_lock

    with run_lock(null_only):
        out = cli.invoke(app, ["check", str(null_only)])
    assert out.exit_code == 3, out.output
    assert f"process {os.getpid()} is running this study" in out.output and "no verdict" in out.output
    after = cli.invoke(app, ["check", str(null_only)])  # lock released: its own verdict (not enough data) again
    assert after.exit_code == 3 and "is running" not in after.output and "null: not enough data (" in after.output
