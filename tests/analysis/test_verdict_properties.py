"""Property-based tests of the verdicts (issue 36 item 6), over generated scores and stores:

- every count of the flow's metric stage equals a direct count of the generated judgements, and a
  comparison's pairs + missing A + missing B + missing both equal the reviewer's papers;
- a constant metric is never robust (nor sensitive, nor anything but not informative);
- swapping the arms flips every signed statistic and keeps every p-value;
- a tied pair never changes the sign test (nor a zero difference the Wilcoxon test).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rhetorica.analysis.equivalence import NOT_INFORMATIVE, judge_reliability, wilcoxon_signed_rank
from rhetorica.analysis.flow import EXCLUDED, FAILED, NOT_RUN, study_flow
from rhetorica.analysis.paired import compare_arms

from .helpers import rows

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STATES = st.sampled_from(["usable", "missing", "malformed", "absent"])


@SETTINGS
@given(st.lists(st.tuples(STATES, STATES), min_size=1, max_size=12))
def test_flow_metric_counts_equal_the_generated_judgements(sides: list[tuple[str, str]]) -> None:
    """Rewrite i of review i: each side usable (ok with a score), missing (ok, no score), malformed
    or never stored; the flow's row and exclusions equal the direct counts."""
    docs = [f"r{i}" for i in range(len(sides))]
    variants = pd.DataFrame([{"unit_key": f"v{d}", "document_id": d, "condition": "paraphrase", "rewriter": "x",
                              "status": "ok"} for d in docs])
    records = []
    for d, (rewrite, original) in zip(docs, sides):
        for arm, state in (("rewrite", rewrite), ("original", original)):
            if state != "absent":
                records.append({"judge": "J", "metric": "f.m", "arm": arm, "variant": f"v{d}" if arm == "rewrite" else "",
                                "document_id": d, "paper_id": d, "condition": "paraphrase" if arm == "rewrite"
                                else "original", "status": "malformed" if state == "malformed" else "ok",
                                "score": 3.0 if state == "usable" else np.nan})
    pairs = pd.DataFrame(records, columns=["judge", "metric", "arm", "variant", "document_id", "paper_id", "condition",
                                           "status", "score"])
    empty = pd.DataFrame(columns=["unit_key", "reviewer", "document_id", "arm", "status"])
    flow = study_flow({"reviewers": [{"name": "J", "model": "mock/j"}], "validation": {"enabled": False}},
                      documents=pd.DataFrame({"document_id": docs}), variants=variants, validation=pd.DataFrame(),
                      assessments=empty, analysed=empty, problems=pd.DataFrame(), planned={}, judge_pairs=pairs,
                      declared_metrics={"J": ["f.m"]})
    row = flow.flow[flow.flow["stage"] == "metric"].iloc[0]
    out = flow.exclusions[flow.exclusions["stage"] == "metric"]
    both_bad = sum(r != "usable" and o != "usable" for r, o in sides)
    one_bad = sum((r == "usable") != (o == "usable") for r, o in sides)
    assert row["planned"] == len(sides)
    assert row["analysed"] == sum(r == o == "usable" for r, o in sides)
    assert row["planned"] - out["n"].sum() == row["analysed"]
    assert out.loc[out["reason"].str.startswith("both sides missing"), "n"].sum() == both_bad
    assert out.loc[~out["reason"].str.startswith("both sides missing"), "n"].sum() == one_bad
    failed = sum("malformed" in pair for pair in sides)
    not_run = sum("absent" in pair and "malformed" not in pair for pair in sides)
    assert (row["failed"], row["not_run"]) == (failed, not_run)
    assert set(out["kind"]) <= {EXCLUDED, FAILED, NOT_RUN}


SCORE = st.one_of(st.none(), st.integers(1, 10))


@SETTINGS
@given(st.lists(st.tuples(SCORE, SCORE), min_size=1, max_size=15))
def test_pairs_and_missing_counts_add_up_to_the_papers(scores: list[tuple[int | None, int | None]]) -> None:
    records = [("R", f"p{i}", arm, s) for i, pair in enumerate(scores) for arm, s in zip(("A", "B"), pair)]
    status = {i: "refused" for i, r in enumerate(records) if r[3] is None}
    df = rows(records, status=status)
    if df.loc[df["status"] == "ok", "arm"].nunique() < 2:
        return  # an arm without any score is not in the data: compare_arms refuses it
    r = compare_arms(df, "A", "B").iloc[0]
    assert r["n_pairs"] == sum(a is not None and b is not None for a, b in scores)
    assert r["missing_first"] == sum(a is None and b is not None for a, b in scores)
    assert r["missing_second"] == sum(a is not None and b is None for a, b in scores)
    assert r["missing_both"] == sum(a is None and b is None for a, b in scores)
    assert r["n_pairs"] + r["missing_first"] + r["missing_second"] + r["missing_both"] == len(scores)
    untied = sum(a is not None and b is not None and a != b for a, b in scores)
    assert (untied == 0) == math.isnan(r["sign_test_p"])  # no untied pair: the sign test is not computable


def _two_arm(original: list[float], rewrite: list[float]) -> pd.DataFrame:
    recs = [(f"d{i}", arm, "j", "m", s) for i, (o, w) in enumerate(zip(original, rewrite))
            for arm, s in (("original", o), ("rewrite", w))]
    return pd.DataFrame(recs, columns=["document_id", "arm", "judge", "metric", "score"])


@SETTINGS
@given(st.integers(0, 100), st.integers(1, 60), st.floats(0.05, 20), st.floats(0.001, 0.2), st.integers(1, 30))
def test_a_constant_metric_is_never_robust(value: int, n: int, bound: float, alpha: float, m: int) -> None:
    out = judge_reliability(_two_arm([float(value)] * n, [float(value)] * n), bound, alpha=alpha,
                            n_tests={"j": m}).iloc[0]
    assert out["classification"] == NOT_INFORMATIVE
    assert out["reason"] == f"no variation: every judgement scored {value}"


PAIRED = st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=2, max_size=25)


@SETTINGS
@given(PAIRED, st.floats(0.1, 3))
def test_swapping_arms_flips_signed_statistics_and_keeps_every_p(pairs: list[tuple[int, int]], bound: float) -> None:
    original, rewrite = [float(a) for a, _ in pairs], [float(b) for _, b in pairs]
    ab = judge_reliability(_two_arm(original, rewrite), bound).iloc[0]
    ba = judge_reliability(_two_arm(rewrite, original), bound).iloc[0]
    assert ba["mean_diff"] == pytest.approx(-ab["mean_diff"], abs=1e-12)
    assert ba["wilcoxon_p"] == pytest.approx(ab["wilcoxon_p"], rel=1e-9, nan_ok=True)
    assert (np.isnan(ab["tost_p"]) and np.isnan(ba["tost_p"])) or ba["tost_p"] == pytest.approx(ab["tost_p"], rel=1e-9)
    assert ba["classification"] == ab["classification"]
    n = int(ab["wilcoxon_n"])  # T+ of one direction is T- of the other: they add up to n(n+1)/2
    assert ab["wilcoxon_stat"] + ba["wilcoxon_stat"] == pytest.approx(n * (n + 1) / 2)
    df = rows([("R", f"p{i}", arm, s) for i, (a, b) in enumerate(pairs) for arm, s in (("A", a or 1), ("B", b or 1))])
    first, second = compare_arms(df, "A", "B").iloc[0], compare_arms(df, "B", "A").iloc[0]
    assert second["sign_test_p"] == pytest.approx(first["sign_test_p"], rel=1e-12, nan_ok=True)
    assert (second["pct_first_higher"], second["pct_second_higher"]) == pytest.approx(
        (first["pct_second_higher"], first["pct_first_higher"]))
    assert (second["mean_first"], second["mean_second"]) == pytest.approx((first["mean_second"], first["mean_first"]))
    assert (second["flips_first_accept_pct"], second["flips_second_accept_pct"]) == pytest.approx(
        (first["flips_second_accept_pct"], first["flips_first_accept_pct"]))


@SETTINGS
@given(PAIRED, st.integers(1, 10), st.integers(1, 5))
def test_a_tied_pair_never_changes_the_sign_test(pairs: list[tuple[int, int]], tie: int, copies: int) -> None:
    scored = [(max(a, 1), max(b, 1)) for a, b in pairs]
    records = [("R", f"p{i}", arm, s) for i, (a, b) in enumerate(scored) for arm, s in (("A", a), ("B", b))]
    extra = [("R", f"t{k}", arm, tie) for k in range(copies) for arm in ("A", "B")]
    before, after = compare_arms(rows(records), "A", "B").iloc[0], compare_arms(rows(records + extra), "A", "B").iloc[0]
    assert after["n_pairs"] == before["n_pairs"] + copies
    assert after["sign_test_p"] == pytest.approx(before["sign_test_p"], rel=0, abs=0, nan_ok=True)
    d = np.array([b - a for a, b in scored], dtype=float)
    assert wilcoxon_signed_rank(np.r_[d, np.zeros(copies)]).pvalue == pytest.approx(
        wilcoxon_signed_rank(d).pvalue, rel=0, abs=0, nan_ok=True)
