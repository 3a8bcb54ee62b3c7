"""A judge study with soft ratings, run through the study runner on a scripted provider whose
top-k log-probabilities are fixed: Table 1's soft columns (Markdown, HTML, LaTeX) and the soft n of
the study flow, every number written by hand from :class:`SoftJudge`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.stats import wilcoxon

from rhetorica.analysis.flow import NO_SOFT_RATING, SOFT_TEST
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.report.render import write_report

from .judge_runs import TextJudge, judge_spec, version_of
from .runs import run_study_summary

NO_LOGPROBS = "the response carried no token log-probabilities"


def comprehensiveness_top(version: str, k: int) -> list[tuple[str, float]]:
    """The top tokens at comprehensiveness's value (the written value first)."""
    if version == "original":
        return [("3", 0.6), ("2", 0.4)]  # 2.6
    if version == "paraphrase":
        return [("3", 0.6 - 0.1 * k), ("4", 0.4 + 0.1 * k)]  # 3.4, 3.5, (3.6)
    return [("4", 0.5 + 0.1 * k), ("5", 0.5 - 0.1 * k)]  # 4.5, 4.4, 4.3


class SoftJudge(TextJudge):
    """:class:`TextJudge` with log-probabilities: comprehensiveness's value token has the
    alternatives of :func:`comprehensiveness_top`, every other token is certain; the paraphrase
    of review 2 comes back without log-probabilities."""

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> Any:
        text = super()._default_answer(messages, config)
        version, k = version_of(messages[-1].content)
        if version == "paraphrase" and k == 2:
            return {"text": text, "logprobs": []}
        at = text.index('"comprehensiveness": ') + len('"comprehensiveness": ')
        top = comprehensiveness_top(version, k)
        assert text[at] == top[0][0]
        return {"text": text, "logprobs": [
            {"token": text[:at], "logprob": 0.0},
            {"token": top[0][0], "logprob": math.log(top[0][1]), "top": [[t, math.log(p)] for t, p in top]},
            {"token": text[at + 1:], "logprob": 0.0}]}


def factory(model_id: str, options: dict[str, Any]) -> Any:
    assert model_id == "mock/soft-judge"
    return SoftJudge(model="soft-judge")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    tmp = tmp_path_factory.mktemp("soft-judges")
    spec = judge_spec(tmp)
    spec["reviewers"] = [{"name": "rotten-judge", "kind": "judge", "model": "mock/soft-judge", "soft_ratings": True,
                          "options": {"family": "rottenreviews"}}]
    run, summary = run_study_summary(spec, tmp, factory)
    assert summary.stage_statuses["review"] == {"ok": 9}, summary.problems
    return run, write_report(run, n_resamples=200)


D_PARAPHRASE = np.array([3.4 - 2.6, 3.5 - 2.6])  # reviews 0 and 1 (review 2: no log-probabilities)
D_POLISH = np.array([4.5 - 2.6, 4.4 - 2.6, 4.3 - 2.6])


def test_table1_soft_columns_by_hand(report) -> None:
    _, data = report
    table = data.analysis["judges"].set_index(["condition", "metric"])
    row = table.loc[("paraphrase", "rottenreviews.comprehensiveness")]
    assert (row["n_pairs"], row["wilcoxon_n"]) == (3, 0)  # the integers tie (3 and 3)
    assert (row["soft_n_pairs"], row["soft_nonzero"]) == (2, 2)
    assert row["soft_median_diff"] == pytest.approx(0.85) and row["soft_mean_diff"] == pytest.approx(0.85)
    assert row["soft_wilcoxon_p"] == pytest.approx(wilcoxon(D_PARAPHRASE).pvalue)  # 0.5: n = 2, both positive
    assert row["soft_ci_low"] <= 0.85 <= row["soft_ci_high"]
    polish = table.loc[("polish:+", "rottenreviews.comprehensiveness")]
    assert (polish["soft_n_pairs"], polish["soft_median_diff"]) == (3, pytest.approx(1.8))
    assert polish["soft_wilcoxon_p"] == pytest.approx(wilcoxon(D_POLISH).pvalue)  # 0.25
    # overall quality: every token certain, so the expected score is the integer one (70 - 60)
    overall = table.loc[("paraphrase", "rottenreviews.overall_quality")]
    assert (overall["soft_n_pairs"], overall["soft_median_diff"]) == (2, pytest.approx(10.0))
    # a yes/no label has no soft rating: every soft column missing
    assert np.isnan(table.loc[("paraphrase", "rottenreviews.factual"), "soft_n_pairs"])


def test_table1_soft_columns_in_markdown_html_and_latex(report) -> None:
    run, _ = report
    md = (run / "report.md").read_text("utf-8")
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in md.splitlines()]
    header = next(r for r in rows if r[0] == "Metric")
    assert header[6:15] == ["Wilcoxon p", "δ", "TOST p", "Soft pairs", "Soft non-zero d", "Soft median Δ",
                            r"Soft mean Δ \[95% CI\]", "Soft Wilcoxon p", "Class"]
    line = next(r for r in rows if r[0] == "rottenreviews.comprehensiveness" and r[3:5] == ["3", "0"])
    # the bootstrap means of d = (0.8, 0.9) are 0.8, 0.85 or 0.9, each extreme with probability 1/4:
    # the 95% interval is [0.8, 0.9]
    assert line[9:14] == ["2", "2", "0.850", r"0.850 \[0.800, 0.900\]", "0.5000"]
    assert "Soft columns: the same pairs with S the expected score" in md
    html = (run / "report.html").read_text("utf-8")
    assert '<th class="num">Soft Wilcoxon p</th>' in html
    assert ('<td class="num">2</td><td class="num">2</td><td class="num">0.850</td>'
            '<td class="text">0.850 [0.800, 0.900]</td><td class="num">0.5000</td>') in html
    tex = (run / "tables" / "judges_table1.tex").read_text("utf-8")
    assert r"$n_s$" in tex and r"Soft $p_{\mathrm{W}}$" in tex
    line = next(x for x in tex.splitlines() if x.startswith("paraphrase & rottenreviews.comprehensiveness &"))
    # 3 pairs, every integer difference 0 (TOST degenerate): not informative, never robust (issue 36)
    assert "& 2 & 0.850 & 0.850 [0.800, 0.900] & 0.500 & not informative" in line


def test_the_flow_counts_the_soft_n_and_why_judgements_lack_one(report) -> None:
    _, data = report
    eff = data.effective_n
    soft = eff[eff["test"] == SOFT_TEST].set_index(["comparison", "metric"])
    row = soft.loc[("paraphrase vs original", "rottenreviews.comprehensiveness.expected")]
    # soft pairs: reviews 0 and 1, both of paper0; the paraphrase judgement of review 2 has none
    assert [row[c] for c in ("papers", "reviews", "pairs", "nonzero", "missing")] == [1, 2, 2, 2, 1]
    assert row["missing_reasons"] == f"{NO_LOGPROBS} (1)"
    polish = soft.loc[("polish:+ vs original", "rottenreviews.comprehensiveness.expected")]
    assert [polish[c] for c in ("papers", "reviews", "pairs", "nonzero", "missing")] == [2, 3, 3, 3, 0]
    assert polish["missing_reasons"] == ""
    # no soft row for a metric without soft ratings (yes/no labels)
    assert ("paraphrase vs original", "rottenreviews.factual.expected") not in soft.index
    integer = eff[eff["test"] != SOFT_TEST].set_index(["comparison", "metric"])
    assert integer.loc[("paraphrase vs original", "rottenreviews.comprehensiveness"), "pairs"] == 3
    assert NO_SOFT_RATING not in " ".join(eff["missing_reasons"])


def test_the_judgement_stores_expected_scores_and_reasons(report) -> None:
    run, _ = report
    import pandas as pd

    scores = pd.read_csv(run / "tables" / "scores.csv")
    soft = scores[scores["metric"] == "comprehensiveness.expected"]
    assert sorted(soft["value"].round(6)) == [2.6, 2.6, 2.6, 3.4, 3.5, 4.3, 4.4, 4.5]
    artefacts = pd.read_csv(run / "tables" / "artefacts.csv")
    reasons = [json.loads(v)["comprehensiveness"]["reason"] for v in
               artefacts.loc[artefacts["name"] == "soft_ratings", "value_json"]]
    assert reasons.count(NO_LOGPROBS) == 1 and reasons.count(None) == 8


def test_a_second_judge_model_with_only_failures_gets_a_report(tmp_path: Path) -> None:
    """Two judge models, the second (RottenReviews, 9 classified metrics) answering only malformed
    JSON: the report is written (it raised 'judge … is not in the reliability table'), the second
    judge's metrics are in the pair-level classification and the study flow with n = 0 and the
    reason, and Table 1's caption says so."""
    from rhetorica.models.registry import get_model

    spec = judge_spec(tmp_path)
    spec["reviewers"][1] |= {"model": "mock/judge2", "options": {"family": "rottenreviews", "model_options": {
        "script": ["not json"] * 40}}}

    def factory(model_id: str, options: dict[str, Any]) -> Any:
        return TextJudge(model="text-judge") if model_id == "mock/text-judge" else get_model(model_id, **options)

    run, summary = run_study_summary(spec, tmp_path, factory)
    assert summary.stage_statuses["review"] == {"ok": 9, "malformed": 5}  # rotten stopped after 5 malformed
    data = write_report(run, n_resamples=50)
    every = data.analysis["judges_all"]
    bad = every[every["judge"] == "mock/judge2"]
    assert len(bad) == 2 * 9 and (bad["n_pairs"] == 0).all() and (bad["classification"] == "not computable").all()
    assert bad["reason"].str.startswith("every stored rewrite judgement failed (malformed").all()
    assert (data.analysis["judges"]["second_judge"] == "mock/judge2").all()
    effective = data.effective_n[data.effective_n["configuration"] == "mock/judge2"]
    assert len(effective) == 18 and (effective[["papers", "reviews", "pairs", "nonzero"]] == 0).all().all()
    md = (run / "report.md").read_text("utf-8")
    assert md.count("(judge mock/judge2: n = 0 for its 9 declared metrics — every stored rewrite judgement "
                    "failed (malformed") == 2  # one Table 1 per condition


def test_a_judge_studys_means_count_papers_and_reviews_apart(tmp_path: Path) -> None:
    """3 reviews of 2 papers (r0, r1 of paper0; r2 of paper1), each judged once per version: the
    means and form tables say Papers 2 and Reviews 3 (they said Papers 3); means over reviews."""
    from .judge_runs import run_judge_study

    run = run_judge_study(tmp_path)
    data = write_report(run, n_resamples=50)
    means = data.condition_means.set_index(["reviewer", "arm"])
    row = means.loc[("rotten-judge", "paraphrase")]
    assert (row["papers"], row["reviews"], row["ok"], row["failed"]) == (2, 3, 3, 0)
    assert row["mean_overall"] == pytest.approx(70.0)  # overall_quality 70 for every paraphrase
    forms = data.analysis["forms"]
    criticism = forms[(forms["reviewer"] == "remor-judge") & (forms["metric"] == "criticism")].set_index("arm")
    assert criticism.loc["original", ["papers", "reviews"]].tolist() == [2, 3]
    md = (run / "report.md").read_text("utf-8")
    assert "| Judge configuration | Condition | Papers | Reviews | OK judgements |" in " ".join(md.split())
