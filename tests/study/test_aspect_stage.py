"""The aspect-annotation stage in a study: scripted reviews (a registered test evaluator that writes
a known review per paper and condition) annotated by a scripted annotator (the mock provider,
answering by the review's text); the net-polarity differences are hand-computed below."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import REVIEW_000
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.providers.mock import MockModel
from rhetorica.models.registry import get_model
from rhetorica.registry import evaluators
from rhetorica.report.render import write_report
from rhetorica.status import Status
from rhetorica.store.db import Store
from rhetorica.store.export import annotations_table, mentions_table
from rhetorica.study.config import ConfigError, parse_study
from rhetorica.study.runner import StudyRunner

from .helpers import PAPERS, save_run_study, study_dict

FIRST, SECOND = PAPERS[0], PAPERS[1]
#: overall score per condition; the second paper one point higher
OVERALL = {"original": 6, "confidence:+": 8, "confidence:-": 3}


class ScriptedReviewer:
    """Writes a fixed review per (paper, condition) on the 000 form."""

    form = REVIEW_000

    def __init__(self, name: str) -> None:
        self.name = name

    def spec(self) -> dict[str, Any]:
        return {"kind": "scripted-aspect-reviewer"}

    async def evaluate(self, target: Target, context: Any) -> Evaluation:
        strengths = {"original": ["The method is sound."], "confidence:+": ["The writing is very clear."],
                     "confidence:-": []}[target.condition]
        if target.document_id == FIRST and target.condition == "confidence:+":
            strengths = [*strengths, "The figures are well made."]
        weaknesses = ["The writing is hesitant."] if target.condition == "confidence:-" else []
        overall = OVERALL[target.condition] + (target.document_id == SECOND)
        payload = {"summary": f"A review of {target.document_id}.", "strengths": strengths, "weaknesses": weaknesses,
                   "suggestions": [], "overall": overall, "soundness": 3, "significance": 3, "evidence": 3,
                   "clarity": 3, "confidence": 4}
        return Evaluation(Status.OK, scores=self.form.check_scores(payload), payload=payload)


evaluators.add("scripted-aspect-reviewer", ScriptedReviewer, description="test: a known review per paper and arm")

#: phrase in the review -> (aspect, polarity) the annotator tags it with
TAGS = {"writing is very clear": ("presentation", "positive"), "figures are well made": ("presentation", "positive"),
        "writing is hesitant": ("presentation", "negative"), "method is sound": ("methodology", "positive")}


class ScriptedAnnotator(MockModel):
    """Answers each annotation with the tags of the phrases its review holds, plus one phrase that is
    in no review (must be dropped as unverified) and one unknown aspect (must be rejected)."""

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        review = messages[-1].content
        mentions = [{"aspect": a, "polarity": p, "phrase": phrase} for phrase, (a, p) in TAGS.items() if phrase in review]
        mentions += [{"aspect": "result", "polarity": "negative", "phrase": "the results are weak"},
                     {"aspect": "vibes", "polarity": "positive", "phrase": "A review of"}]
        return json.dumps({"mentions": mentions})


def factory(model_id: str, options: dict[str, Any]):
    return ScriptedAnnotator(model="annotator") if model_id == "mock/annotator" else get_model(model_id, **options)


def study(shared_data: Path, out: Path, **aspects: Any) -> dict[str, Any]:
    return study_dict(shared_data, out, documents=[{"path": str(shared_data / "papers" / p)} for p in (FIRST, SECOND)],
                      rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
                      reviewers=[{"name": "scripted", "kind": "scripted-aspect-reviewer"}], replicates=1,
                      aspects={"model": "mock/annotator", **aspects}, concurrency=2)


def test_scripted_annotations_give_exact_net_polarity_deltas_and_drop_a_phrase_not_in_the_review(
        shared_data: Path, tmp_path: Path) -> None:
    config = parse_study(study(shared_data, tmp_path / "run"))
    runner = StudyRunner(config, tmp_path, model_factory=factory)
    summary = asyncio.run(runner.run())
    assert summary.stage_statuses["annotate"] == {"ok": 6}, summary.problems
    store = Store.in_dir(tmp_path / "run")
    try:
        annotations, mentions = annotations_table(store), mentions_table(store)
    finally:
        store.close()
    # every review: one phrase not in the review dropped, one unknown aspect rejected, never stored
    assert annotations["n_unverified"].tolist() == [1] * 6 and annotations["n_rejected"].tolist() == [1] * 6
    assert sorted(annotations["n_mentions"]) == [1, 1, 1, 1, 1, 2]
    assert "the results are weak" not in set(mentions["phrase"]) and "vibes" not in set(mentions["aspect"])
    assert len(mentions) == 7

    save_run_study(config, tmp_path / "run")
    data = write_report(tmp_path / "run", n_resamples=200)
    diff = data.analysis["aspect_differences"].set_index(["aspect", "first", "second"])
    # presentation, confidence:+ minus confidence:-: first paper 2 - (-1) = 3, second 1 - (-1) = 2
    row = diff.loc[("presentation", "confidence:+", "confidence:-")]
    assert (row["mean_difference"], row["n_papers"]) == (2.5, 2)
    assert row["sd"] == pytest.approx(np.sqrt(0.5))
    # presentation vs the original: 2 - 0 and 1 - 0; methodology: 0 - 1 on both papers
    assert diff.loc[("presentation", "confidence:+", "original"), "mean_difference"] == 1.5
    assert diff.loc[("methodology", "confidence:-", "original"), "mean_difference"] == -1.0
    assert "result" not in set(data.analysis["aspect_differences"]["aspect"])  # never mentioned: not shown
    counts = data.analysis["aspect_counts"].iloc[0]
    assert (counts["annotated"], counts["mentions"], counts["unverified"], counts["rejected"]) == (6, 7, 6, 6)
    # overall against the share of positive mentions (1, 1, 0 per paper): an independent oracle (numpy)
    share = data.analysis["aspect_share"].set_index("reviewer").loc["all"]
    overall = [6, 8, 3, 7, 9, 4]
    positive = [1.0, 1.0, 0.0, 1.0, 1.0, 0.0]
    assert share["n_reviews"] == 6 and share["r"] == pytest.approx(np.corrcoef(overall, positive)[0, 1])
    assert (tmp_path / "run" / "plots" / "aspects.png").stat().st_size > 1000
    assert "What reviews argue" in (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert len(pd.read_csv(tmp_path / "run" / "tables" / "mentions.csv")) == 7


def test_a_rerun_annotates_nothing_again(shared_data: Path, tmp_path: Path) -> None:
    config = parse_study(study(shared_data, tmp_path / "run"))
    asyncio.run(StudyRunner(config, tmp_path, model_factory=factory).run())
    again = asyncio.run(StudyRunner(config, tmp_path, model_factory=factory).run())
    assert again.units_run == 0 and again.model_calls == 0


def test_control_reviewers_are_not_annotated_unless_named(shared_data: Path, tmp_path: Path) -> None:
    spec = study(shared_data, tmp_path / "run")
    spec["reviewers"].append({"name": "ctrl", "kind": "control"})
    asyncio.run(StudyRunner(parse_study(spec), tmp_path, model_factory=factory).run())
    store = Store.in_dir(tmp_path / "run")
    annotated = store.rows("SELECT a.reviewer, COUNT(*) AS n FROM annotations n JOIN assessments a "
                           "ON a.unit_key = n.assessment_key GROUP BY a.reviewer")
    store.close()
    assert [(r["reviewer"], r["n"]) for r in annotated] == [("scripted", 6)]  # 2 papers x 3 versions


def test_an_unknown_annotator_or_reviewer_is_a_configuration_error(shared_data: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="aspects.model: 'nowhere' is not a model"):
        parse_study(study(shared_data, tmp_path / "run") | {"aspects": {"model": "nowhere"}})
    with pytest.raises(ConfigError, match="aspects.reviewers: ghost is not a reviewer"):
        parse_study(study(shared_data, tmp_path / "run", reviewers=["ghost"]))
