"""Paired Table-4 statistics against hand computations and scipy's binomtest."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from rhetorica.analysis.paired import (
    compare_arms,
    comparison_table,
    criterion_table,
    default_pairs,
    difference_magnitude,
    no_test_reasons,
    paper_scores,
    sign_test,
    sign_test_pvalues,
)

from .helpers import rows

# (first, second) paper scores of reviewer R: 8 first-higher, 2 second-higher, 2 ties.
PAIRS = [
    (5, 4),
    (6, 3),
    (7, 6),
    (8, 7),
    (4, 3),
    (3, 2),
    (9, 5),
    (6, 5),
    (4, 5),
    (2, 3),
    (5, 5),
    (4, 4),
]


def table4_data() -> pd.DataFrame:
    recs = []
    for i, (a, b) in enumerate(PAIRS):
        recs += [("R", f"p{i}", "confidence:+", a), ("R", f"p{i}", "confidence:-", b)]
    return rows(recs)


def test_sign_test_hand_values() -> None:
    assert sign_test(8, 2) == 0.109375
    assert sign_test(2, 8) == 0.109375
    assert sign_test(10, 0) == 2 / 1024
    assert sign_test(5, 5) == 1.0
    assert math.isnan(sign_test(0, 0))  # no untied pair: not computable, never p = 1
    assert sign_test(1, 0) == 1.0


# (0, 0) has no untied pair, which binomtest cannot take (n = 0); test_sign_test_hand_values covers it.
@pytest.mark.parametrize(("a", "b"), [(a, b) for a in range(0, 31, 3) for b in (0, 1, 7, 19, 40) if a + b > 0])
def test_sign_test_matches_scipy_binomtest(a: int, b: int) -> None:
    assert sign_test(a, b) == pytest.approx(binomtest(a, a + b, 0.5).pvalue, rel=1e-12)


def test_sign_test_rejects_bad_counts() -> None:
    with pytest.raises(ValueError, match="n_first"):
        sign_test(-1, 3)
    with pytest.raises(ValueError, match="n_second"):
        sign_test_pvalues([1, 2], [2.5, 1])


def test_compare_arms_hand_computed_table4_row() -> None:
    out = compare_arms(table4_data(), "confidence:+", "confidence:-")
    assert len(out) == 1
    r = out.iloc[0]
    assert r["reviewer"] == "R" and r["first"] == "confidence:+" and r["second"] == "confidence:-"
    assert r["n_pairs"] == 12
    assert r["pct_first_higher"] == pytest.approx(800 / 12)
    assert r["pct_second_higher"] == pytest.approx(200 / 12)
    assert r["pct_tie"] == pytest.approx(200 / 12)
    assert r["preference_ratio"] == pytest.approx(4.0)
    assert r["sign_test_p"] == 0.109375
    # first accepted & second rejected at 4.5: (5,4), (6,3); the reverse: (4,5).
    assert r["flips_first_accept_pct"] == pytest.approx(200 / 12)
    assert r["flips_second_accept_pct"] == pytest.approx(100 / 12)
    assert r["mean_first"] == pytest.approx(63 / 12)
    assert r["mean_second"] == pytest.approx(52 / 12)
    assert r["missing_first"] == 0 and r["missing_second"] == 0


def test_swapping_arms_mirrors_the_row() -> None:
    df = table4_data()
    ab = compare_arms(df, "confidence:+", "confidence:-").iloc[0]
    ba = compare_arms(df, "confidence:-", "confidence:+").iloc[0]
    assert ba["pct_first_higher"] == ab["pct_second_higher"]
    assert ba["flips_first_accept_pct"] == ab["flips_second_accept_pct"]
    assert ba["preference_ratio"] == pytest.approx(0.25)
    assert ba["sign_test_p"] == ab["sign_test_p"]


def test_threshold_is_strict_and_configurable() -> None:
    df = rows([("R", "p", "A", 5), ("R", "p", "B", 4), ("R", "p", "B", 5)], replicate={2: 1})
    r = compare_arms(df, "A", "B").iloc[0]  # B averages to 4.5, which is not accepted
    assert r["flips_first_accept_pct"] == 100.0
    r = compare_arms(df, "A", "B", threshold=5.0).iloc[0]  # 5 > 5 is false: nobody accepted
    assert r["flips_first_accept_pct"] == 0.0 and r["flips_second_accept_pct"] == 0.0


def test_replicates_averaged_and_failed_rows_ignored() -> None:
    df = rows(
        [
            ("R", "p1", "A", 4),
            ("R", "p1", "A", 6),
            ("R", "p1", "A", 9),  # malformed: its score must not count
            ("R", "p1", "B", 5),
        ],
        replicate={1: 1, 2: 2},
        status={2: "malformed"},
    )
    ps = paper_scores(df).set_index(["document_id", "arm"])
    assert ps.loc[("p1", "A"), "overall"] == 5.0
    assert ps.loc[("p1", "A"), "n_ok"] == 2
    assert ps.loc[("p1", "A"), "n_assessments"] == 3
    r = compare_arms(df, "A", "B").iloc[0]
    assert r["pct_tie"] == 100.0 and r["n_pairs"] == 1


def test_missing_sides_are_counted_not_paired() -> None:
    df = rows(
        [
            ("R", "p1", "A", 6),
            ("R", "p1", "B", 5),
            ("R", "p2", "A", 7),
            ("R", "p2", "B", None),  # failed review: B missing for p2
            ("R", "p3", "B", 3),  # A never produced for p3
            ("R", "p4", "A", None),  # both sides failed: in neither count
            ("R", "p4", "B", None),
        ],
        status={3: "timeout", 5: "error", 6: "refused"},
    )
    r = compare_arms(df, "A", "B").iloc[0]
    assert r["n_pairs"] == 1
    assert r["missing_first"] == 1 and r["missing_second"] == 1
    assert r["mean_first"] == 6.0 and r["mean_second"] == 5.0


def test_ratio_edge_cases_and_reviewer_without_pairs() -> None:
    df = rows(
        [
            ("all_wins", "p1", "A", 6),
            ("all_wins", "p1", "B", 5),
            ("all_ties", "p1", "A", 5),
            ("all_ties", "p1", "B", 5),
            ("no_pairs", "p1", "A", 5),
        ]
    )
    out = compare_arms(df, "A", "B").set_index("reviewer")
    assert out.loc["all_wins", "preference_ratio"] == math.inf
    assert math.isnan(out.loc["all_ties", "preference_ratio"])
    assert math.isnan(out.loc["all_ties", "sign_test_p"])  # every pair ties: no sign test
    assert out.loc["no_pairs", "n_pairs"] == 0
    assert math.isnan(out.loc["no_pairs", "pct_first_higher"])
    assert out.loc["no_pairs", "missing_second"] == 1


def test_given_selects_compound_arms_in_any_component_order() -> None:
    recs = []
    for i, (a, b) in enumerate(PAIRS):
        recs += [
            ("R", f"p{i}", "confidence:+|proficiency:+", a),
            ("R", f"p{i}", "proficiency:-|confidence:+", b),
            ("R", f"p{i}", "confidence:-|proficiency:+", b),
            ("R", f"p{i}", "confidence:-|proficiency:-", a),
        ]
    df = rows(recs)
    hi = compare_arms(df, "proficiency:+", "proficiency:-", given="confidence:+").iloc[0]
    lo = compare_arms(df, "proficiency:+", "proficiency:-", given="confidence:-").iloc[0]
    assert hi["given"] == "confidence:+" and hi["first"] == "proficiency:+"
    assert hi["preference_ratio"] == pytest.approx(4.0)
    assert lo["preference_ratio"] == pytest.approx(0.25)
    with pytest.raises(ValueError, match="no arm combines 'proficiency:\\+' with 'joint'"):
        compare_arms(df, "proficiency:+", "proficiency:-", given="joint")


def test_errors_name_the_problem() -> None:
    df = table4_data()
    with pytest.raises(ValueError, match="arm 'novelty:\\+' is not in the data"):
        compare_arms(df, "novelty:+", "confidence:-")
    with pytest.raises(ValueError, match="lacks column"):
        compare_arms(df.drop(columns=["reviewer"]), "confidence:+", "confidence:-")
    bad = df.copy()
    bad.loc[3, "overall"] = 11.0
    with pytest.raises(ValueError, match="'u3': overall=11.0 lies outside"):
        compare_arms(bad, "confidence:+", "confidence:-")
    bad.loc[3, "status"] = "malformed"  # a failed row's value is never read
    assert compare_arms(bad, "confidence:+", "confidence:-").iloc[0]["n_pairs"] == 11


def test_comparison_table_matches_direct_computation_on_random_data() -> None:
    rng = np.random.default_rng(7)
    recs = []
    for reviewer in ("r1", "r2"):
        for d in range(40):
            for arm in ("original", "confidence:+", "confidence:-"):
                for _ in range(2):
                    recs.append((reviewer, f"d{d}", arm, float(rng.integers(1, 11))))
    df = rows(recs)
    pairs = default_pairs(df["arm"])
    out = comparison_table(df, pairs)
    assert list(zip(out["first"], out["second"])) == [
        ("confidence:+", "original"),
        ("confidence:+", "original"),
        ("confidence:-", "original"),
        ("confidence:-", "original"),
        ("confidence:+", "confidence:-"),
        ("confidence:+", "confidence:-"),
    ]
    means = df.groupby(["reviewer", "document_id", "arm"])["overall"].mean().unstack()
    for _, r in out.iterrows():
        m = means.loc[r["reviewer"]]
        a, b = m[r["first"]], m[r["second"]]
        wins, losses = int((a > b).sum()), int((a < b).sum())
        assert r["pct_first_higher"] == pytest.approx(100 * wins / 40)
        assert r["sign_test_p"] == pytest.approx(binomtest(wins, wins + losses).pvalue, rel=1e-12)
        assert r["flips_second_accept_pct"] == pytest.approx(100 * ((b > 4.5) & (a <= 4.5)).mean())


def test_default_pairs() -> None:
    arms = [
        "original",
        "confidence:+",
        "confidence:-",
        "proficiency:+",
        "joint",
        "confidence:+|proficiency:-",
        "confidence:+@a",
        "confidence:-@a",
        "original",
    ]
    assert default_pairs(arms) == [
        ("confidence:+", "original"),
        ("confidence:+@a", "original"),
        ("confidence:+|proficiency:-", "original"),
        ("confidence:-", "original"),
        ("confidence:-@a", "original"),
        ("joint", "original"),
        ("proficiency:+", "original"),
        ("confidence:+", "confidence:-"),
        ("confidence:+@a", "confidence:-@a"),
    ]
    assert default_pairs(["confidence:+", "confidence:-"]) == [("confidence:+", "confidence:-")]


def test_difference_magnitude_hand_computed() -> None:
    out = difference_magnitude(table4_data(), [("confidence:+", "confidence:-")]).iloc[0]
    # d = 1,3,1,1,1,1,4,1,-1,-1,0,0
    assert out["n_pairs"] == 12
    assert out["mean_diff"] == pytest.approx(11 / 12)
    assert out["mean_abs_diff"] == pytest.approx(15 / 12)
    assert out["share_within_1"] == pytest.approx(10 / 12)
    assert out["share_ge_2"] == pytest.approx(2 / 12)


def test_criterion_table_uses_each_criterion() -> None:
    df = table4_data()
    df["soundness"] = np.where(df["arm"] == "confidence:+", 3.0, 2.0)
    df["clarity"] = np.where(df["arm"] == "confidence:+", 2.0, 3.0)
    out = criterion_table(df, [("confidence:+", "confidence:-")], criteria=["soundness", "clarity"])
    assert list(out["score"]) == ["soundness", "clarity"]
    assert list(out["pct_first_higher"]) == [100.0, 0.0]
    assert out["preference_ratio"].iloc[0] == math.inf
    assert out["preference_ratio"].iloc[1] == 0.0


def test_null_key_is_named() -> None:
    df = table4_data()
    df.loc[5, "reviewer"] = None
    with pytest.raises(ValueError, match="'u5': column 'reviewer' is missing"):
        paper_scores(df)


def test_conditional_pairs_for_2x2_arms() -> None:
    from rhetorica.analysis.arms import conditional_pairs

    arms = [
        "original",
        "confidence:+|proficiency:+",
        "proficiency:-|confidence:+",
        "confidence:-|proficiency:+",
        "joint",
        "confidence:+|proficiency:+@x",  # its partners are missing: no triple for rewriter x
    ]
    assert conditional_pairs(arms) == [
        ("confidence:+", "confidence:-", "proficiency:+"),
        ("proficiency:+", "proficiency:-", "confidence:+"),
    ]


def test_key_groups_of_the_same_arrow_columns_computed_once_and_redone_after_a_change() -> None:
    pytest.importorskip("pyarrow")
    from rhetorica.analysis.paired import key_groups

    df = pd.DataFrame({
        "reviewer": pd.array(["r2", "r1", "r2", "r1"], dtype="string[pyarrow]"),
        "document_id": pd.array(["d1", "d1", "d2", "d1"], dtype="string[pyarrow]"),
        "arm": pd.array(["original", "x", "x", "x"], dtype="string[pyarrow]"),
    })
    first = key_groups(df)
    assert key_groups(df) is first and key_groups(df.copy()) is first  # the same immutable arrays
    # groups in sorted key order: (r1,d1,x) x2, (r2,d1,original), (r2,d2,x)
    assert first.inverse.tolist() == [1, 0, 2, 0]
    df.loc[1, "arm"] = "original"  # a new array under the arm column: grouped again
    again = key_groups(df)
    assert again is not first and again.inverse.tolist() == [2, 0, 3, 1]
    assert again.inverse.tolist() == df.groupby(["reviewer", "document_id", "arm"], sort=True).ngroup().tolist()
    objects = df.astype(object)  # mutable numpy columns: never reused
    assert key_groups(objects) is not key_groups(objects)


@pytest.mark.parametrize("dtype", ["str", object])
def test_grouped_wide_scores_equal_the_pivot_of_paper_scores(dtype) -> None:
    from rhetorica.analysis.paired import grouped_wide_scores, key_groups, paper_frame, wide_scores

    df = pd.DataFrame({
        "reviewer": ["r2", "r1", "r2", "r1", "r1", "r2"],
        "document_id": ["d2", "d1", "d2", "d1", "d3", "d1"],
        "arm": ["x", "original", "x", "x", "x", "original"],
    }).astype(dtype)
    v = np.array([4.0, 6.0, 5.0, np.nan, 7.0, np.nan])  # (r1, d1, x) and (r2, d1, original): no ok score
    g = key_groups(df)
    expected = wide_scores(paper_frame(g, v, "overall"), "overall")
    got = grouped_wide_scores(g, v)
    pd.testing.assert_frame_equal(got.table, expected.table, check_exact=True)
    assert got.reviewers == expected.reviewers == ["r1", "r2"]
    assert got.codes.tolist() == expected.codes.tolist() == [0, 0, 1, 1]
    # rows (r1,d1) (r1,d3) (r2,d1) (r2,d2); replicates of (r2, d2, x) averaged; NaN where no ok score or no review
    assert got.table["original"].tolist()[0] == 6.0 and np.isnan(got.table["original"].tolist()[1:]).all()
    x = got.table["x"].to_numpy()
    assert x[1] == 7.0 and x[3] == 4.5 and np.isnan(x[[0, 2]]).all()


def test_a_paper_missing_on_both_sides_has_its_own_count_and_no_pair_no_p() -> None:
    """Issue 36: the paper with both sides failed is 'missing both' (the four counts add up to the
    reviewer's 4 papers); a reviewer whose every A review was refused has no test: p NaN, never 1."""
    df = rows([("R", "p1", "A", 6), ("R", "p1", "B", 5), ("R", "p2", "A", 7), ("R", "p2", "B", None),
               ("R", "p3", "B", 3), ("R", "p4", "A", None), ("R", "p4", "B", None)],
              status={3: "timeout", 5: "error", 6: "refused"})
    r = compare_arms(df, "A", "B").iloc[0]
    assert (r["n_pairs"], r["missing_first"], r["missing_second"], r["missing_both"]) == (1, 1, 1, 1)
    refused = rows([("S", f"p{i}", arm, 5) for i in range(5) for arm in ("A", "B")],
                   status={2 * i: "refused" for i in range(5)})
    refused.loc[refused["document_id"] == "p4", "status"] = "refused"  # p4: B refused too
    s = compare_arms(refused, "A", "B").iloc[0]
    assert (s["n_pairs"], s["missing_first"], s["missing_second"], s["missing_both"]) == (0, 4, 0, 1)
    assert math.isnan(s["sign_test_p"])
    assert no_test_reasons(compare_arms(refused, "A", "B")) == [
        "reviewer S, A vs B: no test (no paper scored under both; missing under A 4, under B 0, under both 1)"]
    assert no_test_reasons(compare_arms(df, "A", "B")) == []


def _degenerate_cases() -> list[tuple[str, list[tuple[str, str, str, float | None]], int, int]]:
    """Generated degenerate paired inputs: ``(name, records, wins of A, wins of B)``, the counts known
    by construction. All ties (constant or per-paper levels), one untied pair among ties, papers
    scored under one arm only, zero papers."""
    cases = []
    for n in range(1, 9):
        for level in (1, 5, 10):
            cases.append((f"const{n}_{level}", [("R", f"p{i}", arm, level) for i in range(n) for arm in "AB"], 0, 0))
        cases.append((f"levels{n}", [("R", f"p{i}", arm, 1 + i % 10) for i in range(n) for arm in "AB"], 0, 0))
        ties = [("R", f"p{i}", arm, 3 + i % 5) for i in range(1, n) for arm in "AB"]
        cases.append((f"oneup{n}", [("R", "p0", "A", 7), ("R", "p0", "B", 4), *ties], 1, 0))
        cases.append((f"onedown{n}", [("R", "p0", "A", 2), ("R", "p0", "B", 4), *ties], 0, 1))
        cases.append((f"unpaired{n}", [("R", f"p{i}", "A", 5) for i in range(n)] + [("R", "q", "B", 5)], 0, 0))
    cases.append(("zero", [("R", "p0", "A", None), ("R", "p0", "B", None)], 0, 0))
    return cases


def test_sign_test_is_not_computable_exactly_when_no_pair_is_untied() -> None:
    cases = _degenerate_cases()
    not_computable = 0
    for name, records, wins, losses in cases:
        r = compare_arms(rows(records), "A", "B").iloc[0]
        if wins + losses == 0:
            assert math.isnan(r["sign_test_p"]), name
            not_computable += 1
        else:
            assert r["sign_test_p"] == pytest.approx(binomtest(wins, wins + losses, 0.5).pvalue), name
    # 8 sizes x 7 shapes + zero papers; not computable: 8 x (3 constant + levels + unpaired) + zero
    assert len(cases) == 57 and not_computable == 41
