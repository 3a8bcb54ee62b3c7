"""Attack analysis on a hand-built tidy table: held-out success (Clopper–Pearson), shifts (t
interval), the biased in-search shift, transfer, trajectories; intervals checked against hand
computations and the scipy/statsmodels oracles."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy.stats import beta, binomtest, t
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

from rhetorica.analysis.attack import (
    SUMMARY_COLUMNS,
    attack_summary,
    excess_flip_interval,
    flip_counts,
    mean_interval,
    rereview_means,
    success_interval,
    trajectory_frame,
    transfer_matrix,
)


def test_clopper_pearson_against_closed_forms_and_literature():
    # x = 0: lower 0, upper 1 - (alpha/2)^(1/n); x = 1 of 2: [1 - sqrt(0.975), sqrt(0.975)]
    assert success_interval(0, 5) == pytest.approx((0.0, 0.0, 1 - 0.025 ** (1 / 5)))
    assert success_interval(1, 2) == pytest.approx((0.5, 1 - math.sqrt(0.975), math.sqrt(0.975)))
    # 3/10: [0.0667, 0.6525], the Beta(3, 8) 2.5% and Beta(4, 7) 97.5% quantiles
    rate, lo, hi = success_interval(3, 10)
    assert (rate, round(lo, 4), round(hi, 4)) == (0.3, 0.0667, 0.6525)
    assert (lo, hi) == pytest.approx((beta.ppf(0.025, 3, 8), beta.ppf(0.975, 4, 7)))
    assert (lo, hi) == pytest.approx(proportion_confint(3, 10, alpha=0.05, method="beta"))
    assert all(math.isnan(v) for v in success_interval(0, 0))


def test_t_interval_by_hand():
    # 1..4: mean 2.5, s = 1.290994, se = 0.645497, t(0.975, 3) = 3.182446 -> half width 2.054260
    mean, lo, hi = mean_interval([1, 2, 3, 4])
    assert (mean, round(lo, 4), round(hi, 4)) == (2.5, 0.4457, 4.5543)
    assert (lo, hi) == pytest.approx(t.interval(0.95, 3, loc=2.5, scale=math.sqrt(5 / 3) / 2))
    assert mean_interval([2.0]) == (2.0, pytest.approx(math.nan, nan_ok=True), pytest.approx(math.nan, nan_ok=True))
    # s = 0: the t interval is not computable (was [3, 3])
    assert mean_interval([3.0, 3.0]) == (3.0, pytest.approx(math.nan, nan_ok=True), pytest.approx(math.nan, nan_ok=True))


def _tidy() -> pd.DataFrame:
    rows = []

    def add(doc, condition, rewriter, reviewer, scores, status="ok", passed=None):
        for score in scores:
            rows.append({"unit_key": f"u{len(rows)}", "document_id": doc, "condition": condition, "rewriter": rewriter,
                         "reviewer": reviewer, "status": status, "overall": score if status == "ok" else math.nan,
                         "variant_passed": passed})

    for doc, original, attacked in (("p1", [4, 4], [6, 5]), ("p2", [3, 5], [4, 4]), ("p3", [6, 6], [7, 7])):
        add(doc, "original", "none", "a", original)
        add(doc, "attack:+", "attacker>a", "a", attacked, passed=1)
    add("p3", "attack:+", "attacker>a", "a", [None], status="malformed", passed=1)  # never imputed
    for doc, attacked in (("p1", 5), ("p2", 6), ("p3", 4)):  # the other reviewer: transfer
        add(doc, "original", "none", "b", [5])
        add(doc, "attack:+", "attacker>a", "b", [attacked], passed=1)
    add("p1", "attack:-", "attacker>b", "b", [1], passed=0)  # failed validation: left out
    add("p1", "confidence:+", "rules", "a", [9])  # not an attack
    return pd.DataFrame(rows)


RECORDS = [
    {"document": "p1", "target": "a", "direction": "+", "original_score": 4.0, "best_in_search_score": 6.0,
     "queries": 10, "cost_usd": 0.1, "rounds": []},
    {"document": "p2", "target": "a", "direction": "+", "original_score": 4.5, "best_in_search_score": 5.0,
     "queries": 20, "cost_usd": 0.2, "rounds": []},
    {"document": "p3", "target": "a", "direction": "+", "original_score": 6.0, "best_in_search_score": 8.0,
     "queries": 30, "cost_usd": 0.3, "rounds": []},
    {"document": "p1", "target": "b", "direction": "-", "original_score": 5.0, "best_in_search_score": 4.0,
     "queries": 8, "cost_usd": None, "rounds": []},
]


def test_summary_by_hand():
    table = attack_summary(_tidy(), RECORDS, 4.5)
    assert list(table.columns) == SUMMARY_COLUMNS and list(table["target"]) == ["a", "b"]
    a = table.iloc[0]
    # shifts 1.5, 0, 1 (p3's malformed review left out); s = 0.763763, se = 0.440959, t(0.975, 2) = 4.302653
    assert (a["n_papers"], a["n_eligible"], a["n_flipped"]) == (3, 2, 1)  # p1 4 -> 5.5 flips; p2 4 -> 4 does not
    assert a["flip_rate"] == 0.5
    # no record carries re-reviews: no paper has a noise baseline, so no success is claimed
    assert (a["n_baseline"], a["n_noise_flipped"]) == (0, 0) and math.isnan(a["success_rate"])
    assert (a["mean_shift"], round(a["mean_lo"], 4), round(a["mean_hi"], 4)) == (pytest.approx(2.5 / 3), -1.0640, 2.7306)
    assert a["max_shift"] == 1.5 and a["in_search_shift"] == pytest.approx(1.5)  # (2 + 0.5 + 2) / 3
    assert (a["n_searches"], a["queries_per_paper"], a["cost_per_paper"]) == (3, 20.0, pytest.approx(0.2))
    b = table.iloc[1]  # its only winner failed validation: no held-out pair, the search still counted
    assert (b["direction"], b["n_papers"], b["n_eligible"], b["n_searches"]) == ("-", 0, 0, 1)
    assert math.isnan(b["mean_shift"]) and math.isnan(b["success_rate"]) and b["in_search_shift"] == -1.0
    assert b["cost_per_paper"] == 0.0


def test_down_direction_flips_accepted_papers_and_max_is_the_minimum():
    tidy = pd.DataFrame([
        {"unit_key": "1", "document_id": "p", "condition": "original", "rewriter": "none", "reviewer": "a",
         "status": "ok", "overall": 6},
        {"unit_key": "2", "document_id": "p", "condition": "attack:-", "rewriter": "x>a", "reviewer": "a",
         "status": "ok", "overall": 4},
        {"unit_key": "3", "document_id": "q", "condition": "original", "rewriter": "none", "reviewer": "a",
         "status": "ok", "overall": 7},
        {"unit_key": "4", "document_id": "q", "condition": "attack:-", "rewriter": "x>a", "reviewer": "a",
         "status": "ok", "overall": 6}])
    row = attack_summary(tidy, threshold=4.5).iloc[0]
    assert (row["n_eligible"], row["n_flipped"], row["max_shift"], row["mean_shift"]) == (2, 1, -2.0, -1.5)
    # attack:- from 6 and 7: p's winner 4 flips down, its re-review 5 does not; q's winner 6 does not,
    # its re-review 4.5 does (4.5 is not above the threshold)
    assert flip_counts([6, 7], [4, 6], [5.0, 4.5], 4.5, "-") == {
        "eligible": 2, "flipped": 1, "baseline": 2, "noise_flipped": 1, "only_winner": 1, "only_rereview": 1}
    assert math.isnan(row["in_search_shift"]) and row["n_searches"] == 0


def test_transfer_long_form():
    table = transfer_matrix(_tidy()).set_index(["target", "reviewer"])
    assert list(table.index) == [("a", "a"), ("a", "b")]
    b = table.loc[("a", "b")]  # shifts 0, 1, -1: s = 1, se = 1/sqrt(3)
    assert (b["n"], b["mean_shift"]) == (3, 0.0)
    assert (b["mean_lo"], b["mean_hi"]) == pytest.approx((-t.ppf(0.975, 2) / math.sqrt(3), t.ppf(0.975, 2) / math.sqrt(3)))


def test_trajectory_frame():
    record = {"document": "p", "target": "a", "direction": "+", "queries": 6, "cost_usd": 0.0, "rounds": [
        {"round": 0, "candidates": [{"candidate": 0, "move": None, "valid": True, "score": 4.0, "kept": True}]},
        {"round": 1, "candidates": [{"candidate": 0, "move": "presentation", "valid": False, "score": None,
                                     "reason": "TF-IDF", "kept": False},
                                    {"candidate": 1, "move": "presentation", "valid": True, "score": 5.0,
                                     "kept": True}]}]}
    frame = trajectory_frame([record])
    assert list(frame["round"]) == [0, 1, 1] and list(frame["kept"]) == [True, False, True]
    assert math.isnan(frame["score"][1]) and frame["reason"][1] == "TF-IDF" and set(frame["queries"]) == {6}


def test_a_winner_that_did_not_improve_counts_by_its_held_out_decision_only():
    """Two ``attack:+`` searches kept a winner although no candidate beat the original in the search
    (outcome "no candidate improved on the original"): p's held-out reviews move it the wrong way
    (4 -> 3: eligible, not flipped, shift -1); q's held-out reviews happen to cross 4.5 (4 -> 5:
    flipped, as any held-out flip in the attacked direction is). Success 1 of 2, mean shift 0."""
    rows = [("p", "original", "none", 4), ("p", "attack:+", "x>a", 3),
            ("q", "original", "none", 4), ("q", "attack:+", "x>a", 5)]
    tidy = pd.DataFrame([{"unit_key": str(i), "document_id": d, "condition": c, "rewriter": r, "reviewer": "a",
                          "status": "ok", "overall": v} for i, (d, c, r, v) in enumerate(rows)])
    records = [{"document": d, "target": "a", "direction": "+", "original_score": 4.0, "best_in_search_score": 3.5,
                "queries": 6, "outcome": "no candidate improved on the original", "rounds": []} for d in "pq"]
    row = attack_summary(tidy, records, 4.5).iloc[0]
    assert (row["n_papers"], row["n_eligible"], row["n_flipped"], row["flip_rate"]) == (2, 2, 1, 0.5)
    assert (row["mean_shift"], row["max_shift"], row["in_search_shift"]) == (0.0, 1.0, -0.5)


def test_excess_flip_interval_by_hand_and_against_mcnemar():
    # b = 6 of m = 6 discordant, n = 6: CP lower of 6/6 is 0.025^(1/6); d = 1, lower 2*0.025^(1/6) - 1
    d, lo, hi, p = excess_flip_interval(6, 0, 6)
    assert (d, hi) == (1.0, 1.0) and lo == pytest.approx(2 * 0.025 ** (1 / 6) - 1) and lo > 0
    assert p == pytest.approx(2 * 0.5 ** 6)  # 0.03125
    # b = 1, c = 1 of n = 4: d = 0; CP of 1/2 is [1 - sqrt(.975), sqrt(.975)], scaled by m/n = 1/2
    assert excess_flip_interval(1, 1, 4) == pytest.approx((0.0, 0.5 * (1 - 2 * math.sqrt(0.975)),
                                                           0.5 * (2 * math.sqrt(0.975) - 1), 1.0))
    u = 1 - 0.025 ** (1 / 5)  # no discordant paper of 5: |d| <= the discordant share, at most u
    assert excess_flip_interval(0, 0, 5) == pytest.approx((0.0, -u, u, 1.0))
    assert all(math.isnan(v) for v in excess_flip_interval(0, 0, 0))
    with pytest.raises(ValueError, match="at most n"):
        excess_flip_interval(3, 3, 5)
    checked = 0
    for b in range(16):
        for c in range(16):
            if b + c == 0:
                continue
            n = b + c + 2
            d, lo, hi, p = excess_flip_interval(b, c, n)
            oracle = mcnemar([[1, b], [c, 1]], exact=True).pvalue  # statsmodels' exact McNemar
            assert p == pytest.approx(oracle) and p == pytest.approx(binomtest(b, b + c, 0.5).pvalue)
            assert (lo > 0 or hi < 0) == (oracle < 0.05)  # the interval holds 0 exactly when the test keeps H0
            m = b + c
            plo = beta.ppf(0.025, b, m - b + 1) if b else 0.0
            phi = beta.ppf(0.975, b + 1, m - b) if b < m else 1.0
            assert (d, lo, hi) == pytest.approx(((b - c) / n, m / n * (2 * plo - 1), m / n * (2 * phi - 1)))
            checked += 1
    assert checked == 255


def test_success_is_measured_beyond_the_rereview_flips_by_hand():
    """p1: original 4 -> winner 5.5 flips, re-reviews 4 and 5 (mean 4.5, not accepted: no flip);
    p2: 4 -> 4 no flip, re-reviews 5, 5 flip. b = 1, c = 1 of 2: success 0 with the CP interval
    of 1 of 2 mapped to d, McNemar p = 1; p3 (original 6) is not eligible."""
    records = [dict(r) for r in RECORDS]
    for record, scores in zip(records, ([4, 5], [5, 5], [3, 3], [9])):
        record["rereview_scores"] = scores
        record["metric"] = "overall"
    records[0]["rereview_scores"] = [4, None, 5]  # a failed re-review stays out
    a = attack_summary(_tidy(), records, 4.5).iloc[0]
    assert (a["n_eligible"], a["n_flipped"], a["n_baseline"], a["n_noise_flipped"]) == (2, 1, 2, 1)
    assert (a["flip_rate"], a["noise_rate"], a["success_rate"], a["success_p"]) == (0.5, 0.5, 0.0, 1.0)
    assert (a["success_lo"], a["success_hi"]) == pytest.approx((1 - 2 * math.sqrt(0.975), 2 * math.sqrt(0.975) - 1))
    means = rereview_means(records).set_index(["document_id", "reviewer"])
    assert means.loc[("p1", "a"), "rereview"] == 4.5 and means.loc[("p1", "a"), "n_rereviews"] == 2
    assert means.loc[("p1", "b"), "rereview"] == 9.0  # each target's re-reviews are its own
