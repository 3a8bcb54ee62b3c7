"""The RobustReview benchmark on a small scale (issue 15, "Done when"): four reviewer configurations —
the embedded model under Standard and under Persistent, SciCore over the embedded model, and the
example command reviewer against a loopback OpenAI-compatible server — on three shared papers and
two rule-based conditions; the report writes the Table-1-shaped robustness table and the
stability-versus-discrimination scatter.

Embedded (SmolLM2-135M on CPU through llama.cpp; a few minutes): ``pytest -m embedded``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from rhetorica.analysis.robustness import ROBUSTNESS_COLUMNS
from rhetorica.report.render import write_report
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner
from tests.models.fake_servers import FakeServer
from tests.study.helpers import save_run_study

from .helpers import PAPERS

pytestmark = pytest.mark.embedded

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "reviewers" / "openai_compatible_reviewer.py"
EMBEDDED = "embedded/smollm2-135m"


class ReviewingServer(FakeServer):
    """Answers every chat request with an AI-Scientist review whose Overall (1-10) follows a digest
    of the manuscript it was sent: a stand-in system that reads the text."""

    def answer_text(self, kind: str, body: dict[str, Any]) -> str:
        manuscript = body["messages"][-1]["content"]
        overall = 1 + hashlib.sha256(manuscript.encode()).digest()[0] % 10
        return json.dumps({"Summary": "s", "Strengths": ["a"], "Weaknesses": ["b"], "Questions": [],
                           "Limitations": "l", "Soundness": 3, "Presentation": 3, "Contribution": 2,
                           "Overall": overall, "Confidence": 3, "Decision": "Accept" if overall >= 6 else "Reject"})


def study(shared_data: Path, out: Path, url: str) -> dict[str, Any]:
    review = {"max_tokens": 450}
    return {
        "name": "robustreview-small",
        "output_dir": str(out),
        "documents": [{"path": str(shared_data / "papers" / p)} for p in PAPERS],
        "document_options": {"max_words": 150},
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
        "reviewers": [
            {"name": "smol-standard", "model": EMBEDDED, "protocol": "standard", "max_input_words": 120,
             "sampling": {"temperature": 0.7, **review}},
            {"name": "smol-persistent", "model": EMBEDDED, "protocol": "persistent", "max_input_words": 120,
             "sampling": {"temperature": 0.7, **review}},
            {"name": "smol-scicore", "kind": "scicore", "model": EMBEDDED,
             "options": {"require_valid_core": False, "review": {"temperature": 0.7, **review},
                         "extract": {"max_tokens": 600, "max_input_words": 120}}},
            {"name": "example-command", "kind": "command",
             "options": {"args": [sys.executable, str(SCRIPT), "{input}", "--base-url", f"{url}/v1", "--model",
                                  "rev-1", "--seed", "{replicate}", "--max-tokens", "400"],
                         "adapter": "ai-scientist", "timeout_s": 60}},
        ],
        "replicates": 1,
        "concurrency": 2,
        "validation": {"enabled": False},
    }


def test_four_configurations_give_the_table_and_the_scatter(shared_data: Path, tmp_path: Path) -> None:
    with ReviewingServer() as server:
        config = parse_study(study(shared_data, tmp_path / "run", server.url))
        summary = asyncio.run(StudyRunner(config, tmp_path).run())
    save_run_study(config, tmp_path / "run")  # what `rhetorica run` saves and the report reads
    assert summary.stopped_configurations == {} and summary.problems == [], summary.problems
    assert sum(summary.stage_statuses["review"].values()) == 4 * 9  # 3 papers x (original + 2 rewrites)
    data = write_report(tmp_path / "run", n_resamples=200)
    table = pd.read_csv(tmp_path / "run" / "tables" / "robustness.csv")
    assert list(table.columns) == ROBUSTNESS_COLUMNS
    assert sorted(table["reviewer"]) == ["example-command", "smol-persistent", "smol-scicore", "smol-standard"]
    # the command reviewer answers all 9 inputs: its row is fully computed (no human scores: MAE/rho missing)
    command = table.set_index("reviewer").loc["example-command"]
    assert (command["n_papers"], command["n_variants"]) == (3, 9)
    assert 0.0 <= command["discriminability"] <= 1.0 and command["mad"] >= 0.0
    assert pd.isna(command["human_mae"]) and command["n_human"] == 0
    assert (tmp_path / "run" / "plots" / "stability.png").stat().st_size > 1000
    scores = data.tables["scores"]
    sci = scores[(scores["reviewer"] == "smol-scicore") & scores["value"].notna()]
    if len(sci):  # SciCore's ok assessments carry both branch scores and their mean
        wide = sci.pivot(index="unit_key", columns="metric", values="value")
        assert ((wide["overall_full"] + wide["overall_core"]) / 2 == wide["overall"]).all()
    print("\n" + table.to_string())  # the Table-1 rows (shown with pytest -s)
    print(f"statuses: {dict(summary.stage_statuses['review'])}; wall {summary.wall_time_s:.1f} s")
