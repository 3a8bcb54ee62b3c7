"""RobustReview measures: ICC(1) / ICC(A,1) vs pingouin, SPR identity, brute-force discriminability."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from rhetorica.analysis.robustness import (
    discriminability,
    discriminability_interval,
    icc_a1,
    one_way,
    robustness_table,
)

from .helpers import rows

ARMS = ["original", "confidence:+", "confidence:-", "joint"]


def random_study(seed: int, n_papers: int = 12, noise: float = 0.7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    quality = rng.uniform(2, 9, n_papers)
    recs = []
    for i, q in enumerate(quality):
        for j, arm in enumerate(ARMS):
            recs.append(
                (
                    "R",
                    f"p{i}",
                    arm,
                    float(np.clip(np.round(q + 0.3 * j + rng.normal(0, noise)), 1, 10)),
                )
            )
    df = rows(recs)
    df["human_score"] = df["document_id"].map({f"p{i}": float(q) for i, q in enumerate(quality)})
    return df


@pytest.mark.filterwarnings("ignore:The inplace keyword")  # raised inside pingouin, not by us
def test_icc1_and_icca1_match_pingouin() -> None:
    pg = pytest.importorskip("pingouin")  # GPL-3.0: test-only oracle, never imported by src
    df = random_study(1)
    icc = pg.intraclass_corr(df, targets="document_id", raters="arm", ratings="overall")
    # pingouin < 0.7 labels the rows ICC1 / ICC2, 0.7 labels them ICC(1,1) / ICC(A,1)
    icc = icc.replace({"Type": {"ICC(1,1)": "ICC1", "ICC(A,1)": "ICC2"}}).set_index("Type")
    ow = one_way(df["overall"].to_numpy(), df["document_id"].to_numpy())
    assert ow.icc1 == pytest.approx(icc.loc["ICC1", "ICC"], rel=1e-10)
    wide = df.pivot(index="document_id", columns="arm", values="overall").to_numpy()
    assert icc_a1(wide) == pytest.approx(icc.loc["ICC2", "ICC"], rel=1e-10)
    out = robustness_table(df).iloc[0]
    assert out["icc1"] == pytest.approx(icc.loc["ICC1", "ICC"], rel=1e-10)
    assert out["icc_a1"] == pytest.approx(icc.loc["ICC2", "ICC"], rel=1e-10)


def test_one_way_hand_computed_and_spr_identity() -> None:
    # papers A: 2, 4; B: 6, 8 -> means 3, 7, grand 5; MSB = 2*(4+4)/1 = 16; MSW = (1+1+1+1)/2 = 2
    ow = one_way(np.array([2.0, 4.0, 6.0, 8.0]), ["A", "A", "B", "B"])
    assert (ow.msb, ow.msw, ow.k0) == (16.0, 2.0, 2.0)
    assert ow.icc1 == pytest.approx(14 / 18)
    assert ow.spr == pytest.approx(math.sqrt(7 / 2))
    assert ow.icc1 == pytest.approx(ow.spr**2 / (1 + ow.spr**2))


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_spr_identity_on_unbalanced_data(seed: int) -> None:
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(15), rng.integers(2, 6, 15))
    y = rng.normal(0, 1, 15)[groups] * 2 + rng.normal(0, 1, len(groups))
    ow = one_way(y, groups)
    assert ow.icc1 > 0
    assert ow.icc1 == pytest.approx(ow.spr**2 / (1 + ow.spr**2), rel=1e-12)


def test_icc_a1_hand_computed() -> None:
    # rows (papers) 1,2,3 scored by two arms; arm 2 adds +1 everywhere
    y = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    # MSR = 2 * ((1.5-3.5)^2 + 0 + 2^2) / 2 = 8; MSC = 3 * (0.25 + 0.25) / 1 = 1.5; MSE = 0
    assert icc_a1(y) == pytest.approx(8 / (8 + 0 + 2 * 1.5 / 3))


def brute_force_disc(orig: np.ndarray, groups: list[list[float]]) -> float:
    vals = []
    for i, j in itertools.permutations(range(len(orig)), 2):
        if orig[i] > orig[j]:
            s = [1.0 if a > b else 0.5 if a == b else 0.0 for a in groups[i] for b in groups[j]]
            vals.append(np.mean(s))
    return float(np.mean(vals))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_discriminability_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 9
    orig = rng.integers(1, 11, n).astype(float)
    groups = [list(rng.integers(1, 11, rng.integers(1, 5)).astype(float)) for _ in range(n)]
    vals = np.concatenate(groups)
    paper = np.repeat(np.arange(n), [len(g) for g in groups])
    assert discriminability(orig, vals, paper) == pytest.approx(
        brute_force_disc(orig, groups), rel=1e-12
    )


def test_discriminability_edge_cases() -> None:
    # every original ties: no ordered pair, the denominator is 0 -> not computable (never chance 0.5)
    assert math.isnan(discriminability(np.array([5.0, 5.0]), np.array([3.0, 7.0]), [0, 1]))
    assert math.isnan(discriminability(np.array([5.0]), np.array([3.0]), [0]))
    # perfect ordering
    assert discriminability(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0]), [0, 1, 2]) == 1.0


def test_table_drift_and_human_alignment_hand_computed() -> None:
    recs = [
        ("R", "p1", "original", 4),
        ("R", "p1", "joint", 5),
        ("R", "p1", "confidence:+", 4),
        ("R", "p2", "original", 7),
        ("R", "p2", "joint", 6),
        ("R", "p2", "confidence:+", 9),
        ("R", "p3", "original", 2),
        ("R", "p3", "joint", 2),
        ("R", "p3", "confidence:+", None),
    ]
    df = rows(recs, status={8: "truncated"})
    df["human_score"] = df["document_id"].map({"p1": 5.0, "p2": 6.0, "p3": 2.5})
    out = robustness_table(df).iloc[0]
    drifts = np.array([1, 0, -1, 2, 0])  # (joint, conf+) for p1, p2; joint for p3
    assert out["mad"] == pytest.approx(np.abs(drifts).mean())
    assert out["drift_sd"] == pytest.approx(np.std(drifts, ddof=1))
    assert out["human_mae"] == pytest.approx((1 + 1 + 0.5) / 3)
    assert out["human_spearman"] == pytest.approx(1.0)
    assert out["n_human"] == 3 and out["n_papers"] == 3
    # ordered pairs by originals: p2 > p1 > p3; rewrites p2 {6,9} vs p1 {5,4}: 1.0;
    # p2 vs p3 {2}: 1.0; p1 vs p3: 1.0
    assert out["discriminability"] == 1.0
    assert not out["false_robustness"]


def test_collapsed_reviewer_is_flagged_false_robust() -> None:
    rng = np.random.default_rng(0)
    recs = []
    for i in range(30):
        for arm in ARMS:
            recs.append(("collapsed", f"p{i}", arm, float(5 + (rng.random() < 0.1))))
    out = robustness_table(rows(recs)).iloc[0]
    assert out["mad"] <= 0.25
    assert abs(out["discriminability"] - 0.5) <= 0.05
    assert out["false_robustness"]


def test_spr_is_infinite_when_every_variant_of_a_paper_scores_the_same_non_integer_mean() -> None:
    # Paper A's three arms each average five replicates (5, 5, 5, 6, 6) = 5.4, paper B's are all 7.
    # Means 5.4 and 7, grand 6.2, deviations +-0.8: MSB = 3 (0.64 + 0.64) / 1 = 3.84, MSW = 0 exactly,
    # k0 = 3 -> SPR = inf, ICC(1) = 1. In floats 5.4 + 5.4 + 5.4 = 16.2 / 3 = 5.400000000000001, which
    # left MSW ~1e-31 and SPR ~1e15 instead of inf.
    ow = one_way(np.array([5.4] * 3 + [7.0] * 3), ["A"] * 3 + ["B"] * 3)
    assert ow.msw == 0.0 and ow.msb == pytest.approx(3.84) and ow.k0 == 3.0
    assert ow.spr == math.inf and ow.icc1 == 1.0
    recs, rep = [], {}
    for arm in ("original", "confidence:+", "confidence:-"):
        for doc, reps in (("A", (5, 5, 5, 6, 6)), ("B", (7, 7, 7, 7, 7))):
            for r, value in enumerate(reps):
                rep[len(recs)] = r
                recs.append(("R", doc, arm, value))
    out = robustness_table(rows(recs, replicate=rep)).iloc[0]
    assert out["spr"] == math.inf and out["icc1"] == 1.0 and out["mad"] == 0.0


def test_spr_keeps_a_small_real_within_paper_variance() -> None:
    # A: 5, 5.001; B: 7, 7.001 -> MSW = 2 * 2 * 0.0005^2 / 2 = 5e-7, MSB = 2 * 2 * 1 = 4, k0 = 2:
    # s_b^2 = (4 - 5e-7) / 2, SPR = sqrt(s_b^2 / MSW) = sqrt(3999999.5) = 1999.999875
    ow = one_way(np.array([5.0, 5.001, 7.0, 7.001]), ["A", "A", "B", "B"])
    assert ow.msw == pytest.approx(5e-7, rel=1e-6)
    assert ow.spr == pytest.approx(math.sqrt((4 - 5e-7) / 2 / 5e-7), rel=1e-6)


def test_discriminability_interval_two_papers_exact_bootstrap() -> None:
    # Two papers, the better one's rewrite above the other's: D = 1. A resample holds both papers
    # (prob 1/2: D* = 1) or two copies of one (originals tie, no ordered pair: no statistic, left
    # out), so every resample with a statistic gives 1 and the interval is [1, 1].
    point, low, high = discriminability_interval(np.array([4.0, 7.0]), np.array([4.5, 6.5]), np.array([0, 1]),
                                                 n_resamples=4000, seed=3)
    assert (point, low, high) == (1.0, 1.0, 1.0)


def test_discriminability_interval_point_equals_discriminability_and_brackets_it() -> None:
    rng = np.random.default_rng(7)
    original = rng.uniform(2, 9, 30)
    paper = np.repeat(np.arange(30), 3)
    values = np.round(original[paper] + rng.normal(0, 1.0, 90))
    point, low, high = discriminability_interval(original, values, paper, n_resamples=500)
    assert point == pytest.approx(discriminability(original, values, paper), rel=1e-12)
    assert 0.5 < low < point < high <= 1.0
    again = discriminability_interval(original, values, paper, n_resamples=500)
    assert again == (point, low, high)  # seeded


def test_reviewer_tables_equal_each_reviewers_pivot_of_its_paper_scores() -> None:
    from rhetorica.analysis.paired import paper_scores
    from rhetorica.analysis.robustness import _reviewer_tables

    df = rows(
        [("a", "d1", "original", 5), ("a", "d1", "x", 6), ("a", "d2", "original", 3), ("a", "d2", "x", None),
         ("a", "d3", "original", None), ("a", "d3", "x", None),  # d3: no score under any arm
         ("b", "d1", "original", 7), ("b", "d2", "original", 4), ("b", "d1", "x", None),  # b: no score under x
         ("c", "d1", "original", None)],  # c: no score at all
        status={3: "error", 4: "error", 5: "error", 8: "error", 9: "error"},
    )
    ps = paper_scores(df, "overall").dropna(subset=["overall"])
    tables = dict(_reviewer_tables(df, "overall"))
    assert list(tables) == ["a", "b", "c"] and tables["c"].empty
    for reviewer, part in ps.groupby("reviewer"):
        expected = part.pivot(index="document_id", columns="arm", values="overall")
        pd.testing.assert_frame_equal(tables[reviewer], expected, check_exact=True)
    assert tables["a"].to_numpy().tolist()[0] == [5.0, 6.0] and list(tables["b"].columns) == ["original"]
    out = robustness_table(df).set_index("reviewer")
    assert out.loc["a", "n_papers"] == 2 and out.loc["a", "n_variants"] == 3 and out.loc["c", "n_papers"] == 0
    assert out.loc["a", "mad"] == 1.0 and math.isnan(out.loc["b", "mad"])


def test_false_robustness_is_not_computable_without_mad_and_discriminability() -> None:
    """Generated configurations: one paper; rewrites but no original; 2-8 papers with every original
    tied (before: 'yes' or 'no' from 0.5); 2-8 ordered papers whose rewrites copy the original (MAD 0,
    discriminability 1 -> no) or are all 5 (discriminability 0.5, MAD by hand). ``None`` exactly
    where MAD or discriminability is NaN."""
    none = decided = 0
    for n in range(1, 9):
        cases = {
            "rewrites_only": ([], [(f"p{i}", 4.0) for i in range(n)], None),
            "tied": ([(f"p{i}", 6.0) for i in range(n)], [(f"p{i}", 6.0 + (i % 2) * 0.1) for i in range(n)], None),
            "copied": ([(f"p{i}", float(1 + i)) for i in range(n)], [(f"p{i}", float(1 + i)) for i in range(n)],
                       None if n == 1 else False),
            "flat": ([(f"p{i}", 4.5 + 0.1 * i) for i in range(n)], [(f"p{i}", 5.0) for i in range(n)],
                     None if n == 1 else bool(np.mean([abs(0.5 - 0.1 * i) for i in range(n)]) <= 0.25)),
        }
        for name, (originals, rewrites, expected) in cases.items():
            recs = [("R", d, "original", s) for d, s in originals] + [("R", d, "confidence:+", s) for d, s in rewrites]
            out = robustness_table(rows(recs)).iloc[0]
            if expected is None:
                assert out["false_robustness"] is None, (n, name)
                assert math.isnan(out["mad"]) or math.isnan(out["discriminability"])
                none += 1
            else:
                assert out["false_robustness"] is not None and bool(out["false_robustness"]) == expected, (n, name)
                decided += 1
    assert (none, decided) == (18, 14)  # 8 rewrites_only + 8 tied + copied and flat at n = 1
