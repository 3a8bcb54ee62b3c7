"""Scripted judges through imported pairs, the judge evaluator and the clustered analysis: one
metric shifted by the rewrite, one exactly equivalent, one noisy, get the expected classes."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pandas as pd

from rhetorica.analysis.clustered import clustered_reliability
from rhetorica.evaluation import Target
from rhetorica.judges.families import study_bounds
from rhetorica.judges.judge import judge_factory
from rhetorica.documents.reviews.pairs import read_review_pairs
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.call import CallContext


class ScriptedJudge(ModelAPI):
    """Answers RottenReviews from the review text: comprehensiveness +1 on a polished rewrite,
    objectivity the same on both, fairness random noise; every other metric fixed."""

    provider, model = "test", "scripted-judge"

    def __init__(self) -> None:
        self.noise = random.Random(11)

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        polished = "POLISHED" in messages[-1].content
        answer = {"comprehensiveness": 3 + polished, "objectivity": 2, "fairness": self.noise.randint(0, 5),
                  "actionability": 2, "constructiveness": 2, "relevance_alignment": 2, "overall_quality": 50,
                  "factual": True, "vague": False, "technical_terms": 2, "clarity": 2}
        return ModelOutput(provider=self.provider, model=self.model, text=json.dumps(answer))


def test_shifted_equivalent_and_noisy_metrics_get_their_classes(tmp_path: Path) -> None:
    lines = [json.dumps({"paper_id": f"paper{p}", "review_id": f"p{p}r{r}", "original": f"Review {r} of paper {p}.",
                         "rewrite": f"POLISHED review {r} of paper {p}, version {k}.", "rewriter": f"m{k}"})
             for p in range(15) for r in range(2) for k in range(2)]
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    imported = read_review_pairs(path)
    judge = judge_factory("rr", model=ScriptedJudge(), family="rottenreviews")
    rows = []
    for doc in imported.originals + imported.variants:
        variant = doc.id if "original_id" in doc.metadata else None
        target = Target(doc, doc.metadata.get("original_id", doc.id), "original" if variant is None else "paraphrase",
                        "original", variant, 0)
        result = asyncio.run(judge.evaluate(target, CallContext()))
        assert result.status == "ok"
        rows += [{"paper_id": doc.paper_id, "document_id": target.document_id, "variant": variant,
                  "arm": "original" if variant is None else "rewrite", "judge": "rr", "metric": m, "score": v,
                  "status": "ok"} for m, v in result.scores.items() if m in ("comprehensiveness", "objectivity",
                                                                             "fairness")]
    table = pd.DataFrame(rows)
    bounds = {m.split(".")[1]: b for m, b in study_bounds(("rottenreviews",)).items()}
    for level, n_units in (("pair", 60), ("paper", 15)):
        result = clustered_reliability(table, bounds, level=level).set_index("metric")
        assert (result["n_pairs"] == n_units).all()
        assert result.loc["comprehensiveness", "classification"] == "sensitive"  # d = +1 everywhere, δ = 0.5
        assert result.loc["comprehensiveness", "mean_diff"] == 1.0
        # objectivity is 2 in every judgement (d = 0 everywhere): no verdict, never robust (issue 36)
        assert result.loc["objectivity", "classification"] == "not_informative"
        assert result.loc["objectivity", "reason"] == "no variation: every judgement scored 2"
        assert result.loc["fairness", "classification"] == "inconclusive"  # noise on 0-5 with δ = 0.5
