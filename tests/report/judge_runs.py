"""A finished review-metric (judge) study for report and viewer tests, run through the study runner.

Three imported human reviews (two of ``paper0``, one of ``paper1``), each with a ``paraphrase`` and
a ``polish:+`` rewrite, scored by two judge configurations on the mock provider: ``remor-judge``
(REMOR, 8 metrics) and ``rotten-judge`` (RottenReviews, 11 metrics). The judge answers by the text
it is shown (so the order of the calls does not matter): every metric at its scale's minimum
(booleans no), except the values of :data:`ANSWERS`, keyed by metric then version, plus
:data:`EXAMPLES_PER_REVIEW` x k on ``examples`` for review number k. Expected numbers in the tests
are written from these tables by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.providers.mock import MockModel
from rhetorica.models.registry import get_model

from .runs import run_study_summary

TEXTS = {
    "original": "Review number {k}. The method is sound but the evaluation on dataset {k} is thin.",
    "paraphrase": "This is review {k}. The approach is solid, yet the experiments on dataset {k} are limited.",
    "polish:+": "Review number {k}. The method is rigorous, although the evaluation on dataset {k} could be broader.",
}
#: metric -> version -> the judge's answer
ANSWERS: dict[str, dict[str, Any]] = {
    "criticism": {"original": 0.30, "paraphrase": 0.50, "polish:+": 0.20},
    "praise": {"original": 0.20, "paraphrase": 0.20, "polish:+": 0.50},
    "examples": {"original": 0.10, "paraphrase": 0.10, "polish:+": 0.10},
    "overall_quality": {"original": 60, "paraphrase": 70, "polish:+": 85},
    "comprehensiveness": {"original": 3, "paraphrase": 3, "polish:+": 4},
    "vague": {"original": False, "paraphrase": True, "polish:+": False},
}
EXAMPLES_PER_REVIEW = 0.20
JUDGES = {"remor-judge": "remor", "rotten-judge": "rottenreviews"}


def version_of(text: str) -> tuple[str, int]:
    """(version, review number k) of a judged review text."""
    version = "paraphrase" if "approach is solid" in text else "polish:+" if "rigorous" in text else "original"
    return version, int(re.search(r"(?:number|review) (\d+)\.", text).group(1))  # type: ignore[union-attr]


class TextJudge(MockModel):
    """Answers a judge call from the review it is shown (see the module docstring)."""

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        version, k = version_of(messages[-1].content)
        answer: dict[str, Any] = {}
        for name, schema in (config.json_schema or {})["properties"].items():
            if name in ANSWERS:
                answer[name] = ANSWERS[name][version]
            else:
                answer[name] = False if schema.get("type") == "boolean" else schema.get("minimum", 0)
        if "examples" in answer:
            answer["examples"] = round(answer["examples"] + EXAMPLES_PER_REVIEW * k, 2)
        # a 0-1 share is asked as a whole percentage (rhetorica.forms.Form.answer_form), stored divided by 100
        return json.dumps({name: round(v * 100) if isinstance(v, float) else v for name, v in answer.items()})


def factory(model_id: str, options: dict[str, Any]) -> Any:
    return TextJudge(model="text-judge") if model_id == "mock/text-judge" else get_model(model_id, **options)


def judge_spec(tmp: Path) -> dict[str, Any]:
    """The study: pairs file written under ``tmp``, run directory ``tmp/run``."""
    lines = []
    for k, paper in enumerate(["paper0", "paper0", "paper1"]):
        for condition in ("paraphrase", "polish:+"):
            lines.append(json.dumps({"review_id": f"r{k}", "paper_id": paper, "rewriter": "gpt-x",
                                     "condition": condition, "original": TEXTS["original"].format(k=k),
                                     "rewrite": TEXTS[condition].format(k=k)}))
    pairs = tmp / "pairs.jsonl"
    pairs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"name": "judges-viewer", "output_dir": str(tmp / "run"), "documents": [{"pairs": str(pairs)}],
            "rewriters": [{"name": "gpt-x", "kind": "imported", "conditions": ["paraphrase", "polish:+"]}],
            "reviewers": [{"name": name, "kind": "judge", "model": "mock/text-judge", "options": {"family": family}}
                          for name, family in JUDGES.items()],
            "validation": {"enabled": False}, "concurrency": 2}


def run_judge_study(tmp: Path) -> Path:
    """Run :func:`judge_spec` in this process and save its ``study.json``; returns the run directory."""
    run_dir, summary = run_study_summary(judge_spec(tmp), tmp, factory)
    assert summary.stage_statuses["review"] == {"ok": 18}, summary.problems
    return run_dir
