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
    result = diagnostics_to_tidy(*files, reviewer="sys", condition="soundness:-")
    df = result.table
    base, pert = files
    assert [str(p) for p in result.problems] == [
        f"{base}:6: not valid JSON (Expecting property name enclosed in double quotes)",
        f"{base}:7: no 'id' field",
        f"{base}:8: duplicate id 'a' ignored",
        f"{base} id 'only_base': unpaired: no row with this id in {pert}",
        f"{base} id 'only_base': soundness_score: missing",
        f"{pert} id 'c': soundness_score: missing",
        f"{pert} id 'd': overall_score: 11 is outside overall's range 1-10",
        f"{pert} id 'only_pert': unpaired: no row with this id in {base}",
        f"{pert} id 'only_pert': soundness_score: missing",
    ]
    assert d_reason(df) == "overall_score: 11 is outside overall's range 1-10"
    d_row = df[(df["document_id"] == "d") & (df["arm"] == "soundness:-")].iloc[0]
    assert d_row["status"] == "malformed" and math.isnan(d_row["overall"])  # 11 is out of range
    r = compare_arms(df, "soundness:-", "original").iloc[0]
    # pairs a (6 vs 8), b (5 vs 6), c (5 vs 5); d perturbed missing; only_* unpaired
    assert r["n_pairs"] == 3
    assert r["pct_second_higher"] == pytest.approx(200 / 3)
    assert r["missing_first"] == 2 and r["missing_second"] == 1
    assert r["flips_second_accept_pct"] == pytest.approx(0.0)


def d_reason(df) -> str:  # type: ignore[no-untyped-def]
    return df.loc[(df["document_id"] == "d") & (df["arm"] != "original"), "reason"].iloc[0]


def test_unreadable_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="missing.jsonl"):
        compare_diagnostics(tmp_path / "missing.jsonl", tmp_path / "missing.jsonl")


@pytest.fixture
def rating_files(tmp_path: Path) -> tuple[Path, Path]:
    # OpenReview-style rating strings, as ICLR reviews write them
    base = write(tmp_path / "baseline.jsonl", [
        {"id": "p1", "overall_score": "6: marginally above the acceptance threshold", "soundness_score": "3 good"},
        {"id": "p2", "overall_score": "Score: 7", "soundness_score": 3},
        {"id": "p3", "overall_score": "10: top 5% of accepted papers", "soundness_score": "4/5"},
        {"id": "p4", "overall_score": "weak accept (6)", "soundness_score": 2},
        {"id": "p5", "overall_score": 5, "soundness_score": "2: fair"},
    ])
    pert = write(tmp_path / "perturbed.jsonl", [
        {"id": "p1", "overall_score": "5: marginally below the acceptance threshold", "soundness_score": "2 fair"},
        {"id": "p2", "overall_score": "Score: 8", "soundness_score": 3},
        {"id": "p3", "overall_score": "8: accept, good paper", "soundness_score": 4},
        {"id": "p4", "overall_score": 6, "soundness_score": 2},
        {"id": "p5", "overall_score": "6-8", "soundness_score": True},
    ])
    return base, pert


def test_rating_strings_read_as_their_leading_score(rating_files: tuple[Path, Path]) -> None:
    base, pert = rating_files
    result = diagnostics_to_tidy(base, pert, condition="clarity:+")
    overall = result.table.set_index(["arm", "document_id"])["overall"]
    # before the fix every string below was NaN (a silent gap) and p4/p5 were malformed unexplained
    assert overall[("original", "p1")] == 6 and overall[("original", "p2")] == 7
    assert overall[("original", "p3")] == 10  # two digits: not 1, not 5
    assert overall[("clarity:+", "p1")] == 5 and overall[("clarity:+", "p3")] == 8
    soundness = result.table.set_index(["arm", "document_id"])["soundness"]
    assert soundness[("original", "p1")] == 3 and soundness[("original", "p5")] == 2
    assert math.isnan(soundness[("original", "p3")])  # "4/5" is not on the 1-4 scale
    statuses = result.table.set_index(["arm", "document_id"])["status"]
    assert statuses[("original", "p4")] == "malformed" and statuses[("clarity:+", "p5")] == "malformed"
    assert [str(p) for p in result.problems] == [
        f"{base} id 'p3': soundness_score: '4/5' is on a scale up to 5, not up to 4",
        f"{base} id 'p4': overall_score: 'weak accept (6)' does not start with a score",
        f"{pert} id 'p5': overall_score: '6-8' holds more than one number where the score is (a range or a list?)",
        f"{pert} id 'p5': soundness_score: True is true/false, not a score",
    ]
    # the overall problems are the malformed rows' reasons; the soundness ones leave the row ok
    assert [p.unit_key for p in result.problems] == [None, "import:original:p4", "import:clarity:+:p5", None]
    reasons = result.table.set_index(["arm", "document_id"])["reason"]
    assert reasons[("original", "p4")] == "overall_score: 'weak accept (6)' does not start with a score"


def test_compare_reads_rating_strings_and_lists_the_rest(rating_files: tuple[Path, Path]) -> None:
    base, pert = rating_files
    out = compare_diagnostics(base, pert)
    overall = next(d for d in out.score_deltas if d.field == "overall_score")
    # p1 6->5, p2 7->8, p3 10->8; p4 unreadable baseline, p5 unreadable perturbed
    assert (overall.n, overall.n_up, overall.n_down, overall.n_same) == (3, 1, 2, 0)
    assert overall.mean_baseline == pytest.approx(23 / 3) and overall.mean_delta == pytest.approx(-2 / 3)
    soundness = next(d for d in out.score_deltas if d.field == "soundness_score")
    # p1 3->2, p2 3->3, p3 "4/5" read as 4 (compare keeps the file's scale) ->4, p4 2->2; p5 True
    assert (soundness.n, soundness.mean_delta) == (4, pytest.approx(-1 / 4))
    assert out.problems == [
        f"{base} id 'p4': overall_score: 'weak accept (6)' does not start with a score",
        f"{pert} id 'p5': overall_score: '6-8' holds more than one number where the score is (a range or a list?)",
        f"{pert} id 'p5': soundness_score: True is true/false, not a score",
    ]


def test_a_sub_score_absent_from_a_whole_file_is_one_problem(tmp_path: Path) -> None:
    base = write(tmp_path / "b.jsonl", [{"id": "x", "overall_score": 6}, {"id": "y", "overall_score": 4}])
    pert = write(tmp_path / "p.jsonl", [{"id": "x", "overall_score": 5, "soundness_score": 3},
                                        {"id": "y", "overall_score": 4}])
    result = diagnostics_to_tidy(base, pert)
    assert [str(p) for p in result.problems] == [
        f"{base}: soundness_score: absent from every row (no soundness imported)",
        f"{pert} id 'y': soundness_score: missing",
    ]
    assert list(result.table["status"]) == ["ok"] * 4


def test_bad_field_maps_and_condition_rejected(files: tuple[Path, Path]) -> None:
    with pytest.raises(ValueError, match="exactly one diagnostics field to 'overall'"):
        diagnostics_to_tidy(*files, field_map={"soundness_score": "soundness"})
    with pytest.raises(ValueError, match="presentation: not a rhetorica score"):
        diagnostics_to_tidy(*files, field_map={"overall_score": "overall", "presentation_score": "presentation"})
    with pytest.raises(ValueError, match="cannot be called 'original'"):
        diagnostics_to_tidy(*files, condition="original")


def test_unpaired_ids_are_problems_and_disjoint_or_empty_files_refused(tmp_path: Path) -> None:
    base = write(tmp_path / "b.jsonl", [{"id": "x", "overall_score": 6}, {"id": "y", "overall_score": 4}])
    pert = write(tmp_path / "p.jsonl", [{"id": "x", "overall_score": 5}, {"id": "z", "overall_score": 7}])
    result = diagnostics_to_tidy(base, pert, field_map={"overall_score": "overall"})
    assert [str(p) for p in result.problems] == [f"{base} id 'y': unpaired: no row with this id in {pert}",
                                                 f"{pert} id 'z': unpaired: no row with this id in {base}"]
    disjoint = write(tmp_path / "d.jsonl", [{"id": "q", "overall_score": 5}])
    with pytest.raises(ValueError, match="no id is in both"):
        diagnostics_to_tidy(base, disjoint)
    empty = write(tmp_path / "e.jsonl", [])
    with pytest.raises(ValueError, match="e.jsonl: no usable row"):
        diagnostics_to_tidy(base, empty)


def test_an_unknown_score_name_is_named(files: tuple[Path, Path]) -> None:
    with pytest.raises(ValueError, match="field_map maps to foo: not a rhetorica score"):
        diagnostics_to_tidy(*files, field_map={"overall_score": "foo"})
