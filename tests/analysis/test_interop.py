"""Import of ai-reviewer-diagnostics baseline/perturbed JSONL files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from rhetorica.analysis.interop import compare_diagnostics, diagnostics_to_tidy
from rhetorica.analysis.paired import compare_arms


def write(path: Path, rows: list[object], extra_lines: list[str] = ()) -> Path:
    lines = [json.dumps(r) for r in rows] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    base = write(
        tmp_path / "baseline.jsonl",
        [
            {"id": "a", "overall_score": 8, "soundness_score": 4, "final_decision": "Accept"},
            {"id": "b", "overall_score": 6, "soundness_score": 3, "final_decision": "Weak Accept"},
            {
                "id": "c",
                "overall_score": "5",
                "soundness_score": 3,
                "final_decision": "Weak Reject",
            },
            {"id": "d", "overall_score": 4, "soundness_score": 2, "final_decision": "Reject"},
            {"id": "only_base", "overall_score": 3},
        ],
        ["{not json", '{"overall_score": 2}', '{"id": "a", "overall_score": 1}'],
    )
    pert = write(
        tmp_path / "perturbed.jsonl",
        [
            {"id": "a", "overall_score": 6, "soundness_score": 2, "final_decision": "Weak Accept"},
            {"id": "b", "overall_score": 5, "soundness_score": 2, "final_decision": "Weak  Reject"},
            {
                "id": "c",
                "overall_score": 5,
                "soundness_score": None,
                "final_decision": "Weak Reject",
            },
            {"id": "d", "overall_score": 11, "soundness_score": 2, "final_decision": None},
            {"id": "only_pert", "overall_score": 7},
        ],
    )
    return base, pert


def test_deltas_and_transitions_hand_computed(files: tuple[Path, Path]) -> None:
    out = compare_diagnostics(*files)
    assert out.n_matched == 4
    assert out.only_baseline == ["only_base"] and out.only_perturbed == ["only_pert"]
    assert len(out.problems) == 3
    assert "baseline.jsonl:6: not valid JSON" in out.problems[0]
    assert out.problems[1].endswith(":7: no 'id' field")
    assert "duplicate id 'a'" in out.problems[2]
    deltas = {d.field: d for d in out.score_deltas}
    assert set(deltas) == {"overall_score", "soundness_score"}
    overall = deltas["overall_score"]  # a: -2, b: -1, c: 0, d: +7 (the file's value, unvalidated)
    assert (overall.n, overall.n_up, overall.n_down, overall.n_same) == (4, 1, 2, 1)
    assert overall.mean_delta == pytest.approx(4 / 4)
    assert overall.mean_abs_delta == pytest.approx(10 / 4)
    sound = deltas["soundness_score"]  # c has no perturbed value: a -2, b -1, d 0
    assert sound.n == 3 and sound.mean_delta == pytest.approx(-1.0)
    assert (out.n_decisions, out.n_changed) == (3, 2)  # d has no perturbed decision
    got = {(t.baseline, t.perturbed): t.count for t in out.transitions}
    assert got == {
        ("Accept", "Weak Accept"): 1,
        ("Weak Accept", "Weak Reject"): 1,  # whitespace normalised
        ("Weak Reject", "Weak Reject"): 1,
    }


def test_to_tidy_feeds_paired_analysis(files: tuple[Path, Path]) -> None:
    df = diagnostics_to_tidy(*files, reviewer="sys", condition="soundness:-")
    d_row = df[(df["document_id"] == "d") & (df["arm"] == "soundness:-")].iloc[0]
    assert d_row["status"] == "malformed" and math.isnan(d_row["overall"])  # 11 is out of range
    r = compare_arms(df, "soundness:-", "original").iloc[0]
    # pairs a (6 vs 8), b (5 vs 6), c (5 vs 5); d perturbed missing; only_* unpaired
    assert r["n_pairs"] == 3
    assert r["pct_second_higher"] == pytest.approx(200 / 3)
    assert r["missing_first"] == 2 and r["missing_second"] == 1
    assert r["flips_second_accept_pct"] == pytest.approx(0.0)


def test_unreadable_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="missing.jsonl"):
        compare_diagnostics(tmp_path / "missing.jsonl", tmp_path / "missing.jsonl")
