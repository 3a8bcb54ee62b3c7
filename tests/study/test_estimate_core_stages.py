"""``rhetorica estimate`` walks the extract and annotate stages: a SciCore configuration's pending
extraction units and an annotator's one call per review are counted."""

from __future__ import annotations

from pathlib import Path

import yaml

from rhetorica.study.estimate import estimate_study

from .helpers import PAPERS


def test_extractions_and_annotations_are_estimated(shared_data: Path, tmp_path: Path) -> None:
    study = {
        "name": "estimate-core", "output_dir": str(tmp_path / "run"),
        "documents": [str(shared_data / "papers" / PAPERS[0])], "document_options": {"max_words": 300},
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
        "reviewers": [{"name": "sci", "kind": "scicore", "model": "openai/gpt-4.1-mini",
                       "options": {"extract": {"max_tokens": 900}}},
                      {"name": "plain", "model": "openai/gpt-4.1-mini", "protocol": "standard",
                       "sampling": {"max_tokens": 500}}],
        "aspects": {"model": "openai/gpt-4.1-mini", "max_tokens": 700},
        "replicates": 2, "validation": {"enabled": False},
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study), encoding="utf-8")
    rows = {(r.stage, r.model): r for r in estimate_study(path).rows}
    # 2 texts (original + 1 rewrite) x 2 replicates: one extraction each, capped at 900 tokens
    extract = rows[("extract", "openai/gpt-4.1-mini")]
    assert (extract.calls, extract.output_tokens) == (4, 4 * 900)
    # reviews: SciCore two per unit, plain one per unit
    assert rows[("review", "openai/gpt-4.1-mini")].calls == 4 * 2 + 4
    # annotations: one per assumed review of both reviewers
    annotate = rows[("annotate", "openai/gpt-4.1-mini")]
    assert (annotate.calls, annotate.output_tokens) == (8, 8 * 700)
