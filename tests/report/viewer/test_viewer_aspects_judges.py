"""The viewer's paper page in headless Chromium: aspect mentions highlighted in the review texts
(a study run with a scripted reviewer and a scripted annotator) and judge metrics by family on a
review document's page (a judge study run with a scripted judge, :mod:`tests.report.judge_runs`),
with the overview's metric filter on ``family.metric``.

Every expected mark, count and score is written by hand from the scripts below; every page must log
no console error and no text from a review may become markup.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import REVIEW_000
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.providers.mock import MockModel
from rhetorica.models.registry import get_model
from rhetorica.registry import evaluators
from rhetorica.status import Status

from ...study.helpers import PAPERS, study_dict
from ..judge_runs import run_judge_study
from ..runs import run_study_summary
from .conftest import serve
from .test_viewer_chromium import _column, _follow, _severe

PAPER = PAPERS[0]
ELUCIDATION = "Definition/Description/Detail/Discussion/Explanation/Interpretation"  # the taxonomy's label
SUMMARY = "A clear paper. The method is sound, and the method is sound in every case."
STRENGTHS = ["The figures are well made and easy to read.", "Good baselines."]
WEAKNESS = "The <b>evaluation</b> is narrow & thin."
VARIANT_SUMMARY = "The method is sound."
#: (aspect, polarity, phrase) the annotator answers for the original's review, in this order: a
#: phrase found twice in the summary, listed twice; two overlapping phrases; a phrase that runs
#: across two list items (verified in the annotator's text, in no single shown text); markup-like text
TAGS = [("methodology", "positive", "method is sound"), ("methodology", "positive", "method is sound"),
        ("presentation", "positive", "figures are well made"),
        ("elucidation", "negative", "well made and easy to read"),
        ("presentation", "positive", "easy to read. - Good baselines"),
        ("experiment", "negative", "<b>evaluation</b> is narrow")]


class AspectReviewer:
    """A fixed review of the original, a one-sentence review of every rewrite (000 form)."""

    form = REVIEW_000

    def __init__(self, name: str) -> None:
        self.name = name

    def spec(self) -> dict[str, Any]:
        return {"kind": "viewer-aspect-reviewer"}

    async def evaluate(self, target: Target, context: Any) -> Evaluation:
        original = target.condition == "original"
        payload = {"summary": SUMMARY if original else VARIANT_SUMMARY, "strengths": STRENGTHS if original else [],
                   "weaknesses": [WEAKNESS] if original else [], "suggestions": [], "overall": 6 if original else 7,
                   "soundness": 3, "significance": 3, "evidence": 3, "clarity": 3, "confidence": 4}
        return Evaluation(Status.OK, scores=self.form.check_scores(payload), payload=payload)


evaluators.add("viewer-aspect-reviewer", AspectReviewer, description="test: a known review to highlight")


class Annotator(MockModel):
    """Answers every :data:`TAGS` entry whose phrase is in the review it reads (the stage verifies them)."""

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        review = " ".join(messages[-1].content.split())
        return json.dumps({"mentions": [{"aspect": a, "polarity": p, "phrase": phrase} for a, p, phrase in TAGS
                                        if phrase in review]})


def _factory(model_id: str, options: dict[str, Any]) -> Any:
    return Annotator(model="annotator") if model_id == "mock/annotator" else get_model(model_id, **options)


@pytest.fixture(scope="module")
def aspect_run(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    base = tmp_path_factory.mktemp("viewer-aspects")
    spec = study_dict(shared_data, base / "run", documents=[{"path": str(shared_data / "papers" / PAPER)}],
                      rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
                      reviewers=[{"name": "scripted", "kind": "viewer-aspect-reviewer"}], replicates=1,
                      aspects={"model": "mock/annotator"})
    run_dir, summary = run_study_summary(spec, base, _factory)
    assert summary.stage_statuses["annotate"] == {"ok": 2}, summary.problems
    return run_dir


@pytest.fixture(scope="module")
def aspect_viewer(aspect_run: Path) -> Iterator[str]:
    with serve(aspect_run) as url:
        yield url


MARKS = """
return Array.from(document.querySelectorAll(arguments[0] + ' mark.aspect')).map(m => [m.textContent,
    m.dataset.aspect, m.className, m.title, m.children.length]);
"""


def test_annotated_phrases_are_highlighted_in_place_and_the_rest_listed(chromium: Any, aspect_viewer: str) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium
    driver.get_log("browser")
    driver.get(aspect_viewer + f"paper?doc={PAPER}&variant=confidence%3A%2B%40rules&reviewer=scripted&rep=0")
    original = driver.find_element(By.ID, "review-0")
    # the texts read exactly as stored (the marks add no character)
    assert SUMMARY in original.text and STRENGTHS[0] in original.text and WEAKNESS in original.text
    assert driver.execute_script(MARKS, "#review-0") == [
        # the summary: both occurrences of the phrase, one mark each (the repeated mention is one mark)
        ["method is sound", "methodology", "aspect positive", "Methodology (positive)", 0],
        ["method is sound", "methodology", "aspect positive", "Methodology (positive)", 0],
        # two overlapping phrases cut at every boundary: "figures are " | "well made" | " and easy to read"
        ["figures are ", "presentation", "aspect positive", "Presentation (positive)", 0],
        ["well made", "presentation elucidation", "aspect mixed",
         f"Presentation (positive); {ELUCIDATION} (negative)", 0],
        [" and easy to read", "elucidation", "aspect negative", f"{ELUCIDATION} (negative)", 0],
        # text from the review that looks like markup stays text inside the mark
        ["<b>evaluation</b> is narrow", "experiment", "aspect negative", "Experiment (negative)", 0],
    ]
    assert original.find_elements(By.TAG_NAME, "b") == []
    # the phrase across two list items is verified but highlighted nowhere: listed
    assert [li.text for li in original.find_elements(By.CSS_SELECTOR, "ul.unlocated li")] == [
        "presentation (positive): “easy to read. - Good baselines”"]
    # legend: one row per aspect, mentions counted (the repeated mention twice), sorted by label
    legend = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
              for tr in original.find_elements(By.CSS_SELECTOR, "table.aspect-legend tbody tr")]
    assert legend == [[ELUCIDATION, "0", "1", "yes"], ["Experiment", "0", "1", "yes"],
                      ["Methodology", "2", "0", "yes"], ["Presentation", "2", "0", "yes"]]
    assert "6 verified mention(s)" in original.find_element(By.CSS_SELECTOR, "p.annotation").text
    # the rewrite's review: its one sentence holds the methodology phrase once
    assert driver.execute_script(MARKS, "#review-1") == [
        ["method is sound", "methodology", "aspect positive", "Methodology (positive)", 0]]
    assert _severe(driver) == []


@pytest.fixture(scope="module")
def judge_viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(run_judge_study(tmp_path_factory.mktemp("viewer-judges"))) as url:
        yield url


def _judge_table(driver: Any, judge: str) -> dict[str, list[str]]:
    """metric -> the cells after the metric column of the judge's table (scale, then value / Δ per version)."""
    rows = driver.execute_script(
        "return Array.from(document.querySelectorAll('table.judge-scores[data-judge=\"' + arguments[0] + '\"] tbody tr'))"
        ".map(r => Array.from(r.cells).map(c => c.textContent.trim()));", judge)
    return {r[3]: [r[2], *r[4:]] for r in rows}


def test_judge_scores_by_family_with_changes_and_the_family_metric_filter(chromium: Any, judge_viewer: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = chromium
    driver.get_log("browser")
    # overview: judge metrics are offered as family.metric (constructiveness is RottenReviews' here)
    driver.get(judge_viewer + "?metric=")
    choices = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "filter-metric")).options]
    assert "rottenreviews.overall_quality" in choices and "remor.criticism" in choices and "criticism" not in choices
    assert len(choices) == 1 + 8 + 11  # "any", REMOR's 8 metrics, RottenReviews' 11
    Select(driver.find_element(By.ID, "filter-metric")).select_by_value("rottenreviews.overall_quality")
    _follow(driver, "apply")
    assert "metric=rottenreviews.overall_quality" in driver.current_url
    # 3 reviews; overall quality 60 -> 70 (paraphrase) and 60 -> 85 (polish:+) on each
    assert _column(driver, "headline", 0) == ["rotten-judge", "rotten-judge"]
    assert _column(driver, "headline", 1) == ["paraphrase", "polish:+"]
    assert _column(driver, "headline", 3) == ["rottenreviews.overall_quality"] * 2
    assert _column(driver, "headline", 4) == ["3", "3"]
    assert _column(driver, "headline", 5) == ["60.00", "60.00"] and _column(driver, "headline", 7) == ["10.00", "25.00"]
    Select(driver.find_element(By.ID, "filter-metric")).select_by_value("remor.criticism")
    _follow(driver, "apply")
    assert _column(driver, "headline", 0) == ["remor-judge", "remor-judge"]
    assert _column(driver, "headline", 7) == ["0.20", "-0.10"]  # 0.30 -> 0.50 and 0.30 -> 0.20

    # the papers behind polish:+, then the second review of paper0 (review number 1)
    row = driver.find_element(By.XPATH, "//table[@id='headline']//tr[td[2][text()='polish:+']]")
    _follow(driver, row.find_element(By.CSS_SELECTOR, "a.cell-link"))
    assert sorted(_column(driver, "papers", 0)) == ["r0", "r1", "r2"]  # the pairs file's review ids, verbatim
    assert set(_column(driver, "papers", 5)) == {"remor.criticism"}
    driver.get(judge_viewer + "paper?doc=r1")
    families = [e.get_attribute("data-family") for e in driver.find_elements(By.CSS_SELECTOR, ".judge-family")]
    assert families == ["remor", "rottenreviews"]
    heads = driver.execute_script("return Array.from(document.querySelectorAll("
                                  "'table.judge-scores[data-judge=\"remor-judge\"] thead th')).map(h => h.textContent);")
    assert heads == ["Judge", "Replicate", "Family", "Metric", "Scale", "original", "paraphrase@gpt-x",
                     "Δ paraphrase@gpt-x", "polish:+@gpt-x", "Δ polish:+@gpt-x"]
    remor = _judge_table(driver, "remor-judge")
    assert list(remor) == ["remor.criticism", "remor.examples", "remor.importance_relevance", "remor.materials_methods",
                           "remor.praise", "remor.results_discussion", "remor.suggestions_solutions",
                           "remor.presentation_reporting (style)"]  # the family's declared order
    assert remor["remor.criticism"] == ["remor", "0–1", "0.30", "0.50", "+0.20", "0.20", "-0.10"]
    assert remor["remor.praise"] == ["remor", "0–1", "0.20", "0.20", "0.00", "0.50", "+0.30"]
    # review number 1: examples 0.10 + 0.20 x 1 on every version
    assert remor["remor.examples"] == ["remor", "0–1", "0.30", "0.30", "0.00", "0.30", "0.00"]
    rotten = _judge_table(driver, "rotten-judge")
    assert len(rotten) == 11
    assert rotten["rottenreviews.overall_quality"] == ["rottenreviews", "0–100", "60.00", "70.00", "+10.00", "85.00",
                                                       "+25.00"]
    assert rotten["rottenreviews.comprehensiveness"] == ["rottenreviews", "0–5", "3.00", "3.00", "0.00", "4.00", "+1.00"]
    assert rotten["rottenreviews.vague"] == ["rottenreviews", "yes/no", "0.00", "1.00", "+1.00", "0.00", "0.00"]
    assert _severe(driver) == []
