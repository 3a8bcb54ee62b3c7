"""Published vs this run (:mod:`rhetorica.recipes.comparison`) on hand-made run tables."""

from __future__ import annotations

import pandas as pd
import pytest

from rhetorica.recipes.comparison import RunValue, agreement_summary, agrees, design_lines, published_vs_run
from rhetorica.registry import recipes

JUDGE, SECOND = "openai/gpt-5-mini", "google/gemini-2.5-flash"
ROBUST = {"revieweval.total_insights", "revieweval.actionable_insights", "revieweval.actionability_score",
          "remor.criticism", "remor.materials_methods", "remor.results_discussion"}


def _table1(classes: dict[str, str], agree: set[str]) -> pd.DataFrame:
    """Judge Table 1 by hand: the primary judge's class per metric, the second judge agreeing on ``agree``."""
    rows = [{"judge": JUDGE, "metric": m, "classification": c, "n_pairs": 40, "mean_diff": 0.5 if "overall" in m else 0.1,
             "reason": None, "second_judge": SECOND, "second_class": c if m in agree else "inconclusive",
             "agree": m in agree} for m, c in classes.items()]
    return pd.DataFrame(rows)


def _metrics() -> list[str]:
    return [r.measure.select["metric"] for r in recipes.get("judge-robustness").published if r.measure.kind == "judge_class"]


def test_judge_recipe_agreement_count_from_a_hand_made_table() -> None:
    metrics = _metrics()
    # hand-made classes: every metric sensitive except two of the six published robust ones (robust), and
    # comprehensiveness inconclusive: agreeing with the paper = 23 - 1 sensitive + 2 robust = 24
    classes = {m: "sensitive" for m in metrics}
    classes["revieweval.total_insights"] = classes["remor.criticism"] = "robust"
    classes["rottenreviews.comprehensiveness"] = "inconclusive"
    second_agrees = set(metrics[:20])
    side = published_vs_run(recipes.get("judge-robustness"), {"judge": JUDGE, "second_judge": SECOND},
                            {"judges": _table1(classes, second_agrees)})
    klass = side[side["statistic"] == "class"]
    assert len(klass) == 29 and int(klass["agree"].sum()) == 24
    disagreeing = set(klass.loc[~klass["agree"].astype(bool), "id"])
    assert disagreeing == {"class.rottenreviews.comprehensiveness"} | {
        f"class.{m}" for m in ROBUST - {"revieweval.total_insights", "remor.criticism"}}
    counts = side.set_index("id")
    assert counts.loc["counts.sensitive", "run"] == 26 and counts.loc["counts.robust", "run"] == 2
    assert counts.loc["agreement.judges", "run"] == 20 and counts.loc["agreement.judges", "n"] == 29
    # the paper's shifts are positive; the hand-made ones too (0.1 and 0.5): direction agrees
    assert counts.loc["shift.rottenreviews.comprehensiveness", "agree"] is True
    assert agreement_summary(side).startswith("26 of 31 compared values agree")


def test_paired_rows_agree_by_direction_and_significance() -> None:
    comparisons = pd.DataFrame([
        {"reviewer": "reviewer-default", "first": "proficiency:+", "second": "proficiency:-", "given": None,
         "n_pairs": 30, "preference_ratio": 1.5, "sign_test_p": 0.2, "flips_first_accept_pct": 10.0,
         "flips_second_accept_pct": 3.3},
        {"reviewer": "reviewer-default", "first": "confidence:+", "second": "confidence:-", "given": None,
         "n_pairs": 30, "preference_ratio": 0.8, "sign_test_p": 0.5, "flips_first_accept_pct": 0.0,
         "flips_second_accept_pct": 6.7}])
    side = published_vs_run(recipes.get("style-over-substance"), {}, {"paired": comparisons}).set_index(["id", "statistic"])
    # Gpt-5.5 native vs non-native: 1.3x, p 0.15 -> same direction (>1), both not significant
    assert side.loc[("t4.proficiency.gpt-5-5", "ratio"), "agree"] is True
    assert side.loc[("t4.proficiency.gpt-5-5", "p"), "agree"] is True
    assert side.loc[("t4.proficiency.gpt-5-5", "ratio"), "run"] == 1.5
    # Claude Sonnet 4.6 native vs non-native: 0.9x -> the other side of 1
    assert side.loc[("t4.proficiency.claude-sonnet-4-6", "ratio"), "agree"] is False
    # Gpt-5.5 high vs low confidence: 2.7x, p < 0.001 -> run 0.8, p 0.5: neither agrees
    assert side.loc[("t4.confidence.gpt-5-5", "ratio"), "agree"] is False
    assert side.loc[("t4.confidence.gpt-5-5", "p"), "agree"] is False
    assert side.loc[("t4.confidence.gpt-5-5", "flips_first"), "run"] == 0.0
    # flips carry no agreement rule; Table 8's brief prompt was not run: not measured, never compared
    assert pd.isna(side.loc[("t4.confidence.gpt-5-5", "flips_first"), "agree"])
    brief = side.loc[("t8.proficiency.brief", "ratio")]
    assert pd.isna(brief["run"]) and pd.isna(brief["agree"]) and "no paired comparison" in brief["note"]


@pytest.mark.parametrize(("rule", "published", "run", "null", "expected"), [
    ("class", "robust", "Robust", 0.0, True),
    ("class", "robust", "sensitive", 0.0, False),
    ("direction", 1.3, 1.01, 1.0, True),
    ("direction", 1.3, 1.0, 1.0, False),      # no effect is no direction
    ("direction", -1.36, -0.2, 0.0, True),
    ("direction", "negative", 0.4, 0.0, False),
    ("significance", "<0.001", 0.03, 0.0, True),
    ("significance", 0.15, 0.049, 0.0, False),
    ("significance", 0.15, 0.05, 0.0, True),  # 0.05 is not below 0.05
    ("interval", 0.383, (0.1, 0.2, 0.5), 0.0, True),
    ("interval", 0.383, (0.1, 0.05, 0.2), 0.0, False),
])
def test_agreement_rules(rule: str, published: float | str, run: object, null: float, expected: bool) -> None:
    value = RunValue(*run) if isinstance(run, tuple) else RunValue(run)
    assert agrees(rule, published, value, null) is expected


def test_no_run_value_is_never_compared() -> None:
    assert agrees("class", "robust", RunValue(None, note="not measured"), 0.0) is None


def test_design_lines_say_where_the_run_differs() -> None:
    lines = design_lines(recipes.get("judge-robustness"), {"judge": "mock/j", "second_judge": "mock/k"}, 20, 20)
    first = lines.iloc[0]
    assert first["published"] == "674 reviews" and first["run"] == "20 reviews analysed (a pilot: --sample 20) — fewer than the paper's"
    params = lines[lines["aspect"].str.startswith("parameter")].set_index("aspect")["run"].to_dict()
    assert params == {"parameter judge": "mock/j", "parameter second_judge": "mock/k"}


NOT_COMPUTABLE = {"scholarpeer.novelty_assessment", "scholarpeer.technical_critique", "scholarpeer.coverage",
                  "scholarpeer.constructiveness", "scholarpeer.overall"}
TOO_FEW = "2 pairs: too few for the Wilcoxon test to reach alpha"


def _tiny_table1(first: dict[str, str], second: dict[str, str]) -> pd.DataFrame:
    """Table 1 of a 2-pair pilot by hand: the five scholarpeer metrics not computable (no pair), every other
    metric ``not_informative`` unless ``first`` / ``second`` give it a class; ``agree`` as the analysis wrote
    it before (False wherever a judge has no verdict)."""
    rows = []
    for m in _metrics():
        if m in NOT_COMPUTABLE:
            rows.append({"judge": JUDGE, "metric": m, "classification": None, "n_pairs": 0, "mean_diff": None,
                         "reason": "no usable pair", "second_judge": SECOND, "second_class": None, "agree": False})
            continue
        one, two = first.get(m, "not_informative"), second.get(m, "not_informative")
        rows.append({"judge": JUDGE, "metric": m, "classification": one, "n_pairs": 2,
                     "mean_diff": -1.0 if m == "rottenreviews.overall_quality" else 0.2,
                     "reason": TOO_FEW if one == "not_informative" else None, "second_judge": SECOND,
                     "second_class": two, "agree": one == two != "not_informative"})
    return pd.DataFrame(rows)


def test_a_not_informative_class_is_not_measured_and_never_compared() -> None:
    side = published_vs_run(recipes.get("judge-robustness"), {"judge": JUDGE, "second_judge": SECOND},
                            {"judges": _tiny_table1({}, {})})
    rows = side.set_index("id").assign(note=side["note"].str.split("; ").str[0].values)  # the run's part
    klass = side[side["statistic"] == "class"]
    assert len(klass) == 29 and klass["run"].isna().all() and klass["agree"].isna().all()
    assert rows.loc["class.remor.praise", "note"] == f"remor.praise: not informative ({TOO_FEW})"
    assert rows.loc["class.scholarpeer.overall", "note"] == "scholarpeer.overall: no usable pair (no usable pair)"
    assert pd.isna(rows.loc["counts.sensitive", "run"]) and rows.loc["counts.sensitive", "note"] == (
        f"judge {JUDGE} could classify none of its 29 metrics in this run (each not informative or not computable)")
    assert pd.isna(rows.loc["agreement.judges", "run"])
    assert rows.loc["agreement.judges", "note"] == "both judges could classify 0 of 24 metrics (the rest not informative)"
    # the shifts of two not informative metrics (+0.2, -1.0 on two pairs) are shown, never given a direction verdict
    for shift in ("shift.rottenreviews.comprehensiveness", "shift.rottenreviews.overall_quality"):
        assert pd.isna(rows.loc[shift, "agree"]) and pd.isna(rows.loc[shift, "run"])
    assert side.set_index("id").loc["shift.rottenreviews.overall_quality", "note"].startswith(
        f"rottenreviews.overall_quality: not informative ({TOO_FEW}); mean difference -1.000 not compared")
    assert agreement_summary(side) == "No value of this run is comparable with a published one (34 not measured)."


def test_judge_agreement_counts_only_metrics_both_judges_could_classify() -> None:
    # 4 metrics classified by both (3 the same), 2 classified by the first only, 18 by neither
    first = {"remor.praise": "sensitive", "remor.examples": "sensitive", "rottenreviews.vague": "sensitive",
             "remor.criticism": "robust", "rottenreviews.factual": "sensitive", "rottenreviews.fairness": "sensitive"}
    second = {"remor.praise": "sensitive", "remor.examples": "sensitive", "rottenreviews.vague": "sensitive",
              "remor.criticism": "sensitive"}
    rows = published_vs_run(recipes.get("judge-robustness"), {"judge": JUDGE, "second_judge": SECOND},
                            {"judges": _tiny_table1(first, second)})
    rows = rows.set_index("id").assign(note=rows["note"].str.split("; ").str[0].values)
    assert rows.loc["agreement.judges", "run"] == 3 and rows.loc["agreement.judges", "n"] == 4
    assert rows.loc["agreement.judges", "note"] == "both judges could classify 4 of 24 metrics (the rest not informative)"
    assert (rows.loc["counts.sensitive", "run"], rows.loc["counts.sensitive", "n"]) == (5, 6)
    assert (rows.loc["counts.robust", "run"], rows.loc["counts.robust", "n"]) == (1, 6)
    assert rows.loc["counts.robust", "note"] == "of the 6 of 29 metrics this run could classify"
    assert rows.loc["class.remor.criticism", "agree"] is True and rows.loc["class.remor.examples", "agree"] is True
    assert pd.isna(rows.loc["class.remor.results_discussion", "agree"])


def test_sign_test_without_an_untied_paper_is_never_compared() -> None:
    """Generated: 1..10 papers, every one scored the same under both arms (constant or per-paper
    levels): the run's p is not computable (NaN), so the significance rule compares nothing and
    the summary counts it as not measured; one untied paper makes it computable (p = 1 from
    binomtest(1, 1) is a tested p, compared)."""
    from scipy.stats import binomtest

    from rhetorica.analysis.paired import compare_arms
    from tests.analysis.helpers import rows

    recipe = recipes.get("style-over-substance")
    compared = 0
    for n in range(1, 11):
        for untied in (0, 1):
            for level in (3, None):
                records = [("reviewer-default", f"p{i}", arm, level or 1 + i % 10)
                           for i in range(n) for arm in ("proficiency:+", "proficiency:-")]
                if untied:
                    records[0] = ("reviewer-default", "p0", "proficiency:+", 10)
                    records[1] = ("reviewer-default", "p0", "proficiency:-", 1)
                table = compare_arms(rows(records), "proficiency:+", "proficiency:-")
                side = published_vs_run(recipe, {}, {"paired": table}).set_index(["id", "statistic"])
                p = side.loc[("t4.proficiency.gpt-5-5", "p")]
                if untied:
                    assert p["run"] == binomtest(1, 1, 0.5).pvalue and p["agree"] is not None
                    compared += 1
                else:
                    assert pd.isna(p["run"]) and p["agree"] is None
                    assert f"none of the {n} paired papers is untied" in p["note"]
                    ruled = side[side["agree"].notna()]
                    assert ("t4.proficiency.gpt-5-5", "p") not in ruled.index
    assert compared == 20


def test_a_metric_without_a_verdict_has_neither_class_nor_shift_compared() -> None:
    """Generated judge Table 1s: every published judge metric takes each of the 6 classes and a
    missing one in turn (7 tables x 23 metrics), shifts of both signs: class and mean_diff are
    compared exactly where the class carries a verdict (not not_informative, not missing)."""
    recipe = recipes.get("judge-robustness")
    metrics = _metrics()
    shift_ids = {r.id for r in recipe.published if r.measure.kind == "judge_shift"}
    classes = ["sensitive", "robust", "sensitive_and_robust", "inconclusive", "false_robustness",
               "not_informative", None]
    compared = uncompared = 0
    for k, klass in enumerate(classes):
        table = _table1({m: klass for m in metrics}, set())
        table["mean_diff"] = [(-1) ** i * 0.5 for i in range(len(table))]
        side = published_vs_run(recipe, {"judge": JUDGE, "second_judge": SECOND}, {"judges": table})
        rows = side[side["id"].isin(shift_ids) | (side["statistic"] == "class")]
        if klass in (None, "not_informative"):
            assert rows["agree"].isna().all() and rows["run"].isna().all()
            assert rows.loc[rows["statistic"] == "mean_diff", "note"].str.contains("not compared").all()
            uncompared += len(rows)
        else:
            assert rows["agree"].notna().all()
            compared += len(rows)
    per_table = len(metrics) + len(shift_ids)
    assert (compared, uncompared) == (5 * per_table, 2 * per_table)


def test_protocol_shift_has_no_interval_when_every_paper_differs_by_the_same_amount() -> None:
    """Generated: 2..8 papers whose original reviews by ``a`` score c above ``b``'s (c = 0, 1, -2)
    on every paper: sd 0, so no paired t interval (before: [c, c], and a published c agreed by
    equality); the 'interval' rule then compares by direction. With one paper off by one more,
    the interval is scipy's ttest_rel interval."""
    from scipy import stats

    from rhetorica.recipes.comparison import MEASURES

    cases = 0
    for n in range(2, 9):
        for c in (0.0, 1.0, -2.0):
            for varied in (False, True):
                second = [float(1 + i % 4) for i in range(n)]
                first = [s + c + (1.0 if varied and i == 0 else 0.0) for i, s in enumerate(second)]
                rows = [{"reviewer": r, "document_id": f"p{i}", "arm": "original", "status": "ok", "overall": v}
                        for r, scores in (("a", first), ("b", second)) for i, v in enumerate(scores)]
                value = MEASURES["protocol_shift"]({"assessments": pd.DataFrame(rows)},
                                                   {"first": "a", "second": "b"})["mean_diff"]
                assert value.n == n and value.value == pytest.approx(sum(first) / n - sum(second) / n)
                if varied:
                    ref = stats.ttest_rel(first, second).confidence_interval(0.95)
                    assert (value.low, value.high) == pytest.approx((ref.low, ref.high))
                else:
                    assert value.low is None and value.high is None
                    assert value.note == f"every one of the {n} papers differs by {c:g}: no paired t interval (zero variance)"
                    assert agrees("interval", c + 0.5, value, 0.0) is (c != 0)  # direction, not [c, c]
                cases += 1
    assert cases == 42
