"""The review-metric study end to end through the CLI (``rhetorica run`` + ``rhetorica report``).

Scripted judge (mock provider, answers consumed in unit order with ``concurrency: 1``): ten
imported (original, rewrite) review pairs of five papers, judged on the REMOR family (7 content
metrics, so Bonferroni α = 0.05 / 7 ≈ 0.00714). The judge answers each 0-1 share as a whole
percentage (the integer scale the output schema can bound), stored divided by 100; review i's
original scores ``BASE + i`` percent on every metric, so each metric tells the ten reviews apart
(issue 36: a metric that never varies is not informative, one that does not tell reviews apart
is false robustness). Expected classes, by hand:

- ``criticism`` shifted: d_i = 0.20 + 0.01 i (all positive, distinct): exact Wilcoxon p = 2 / 2^10
  = 0.00195 < α; mean 0.245 > δ = 0.1, so TOST cannot reject -> **sensitive**;
- ``praise`` (and three others) exactly equal: no non-zero d, so the Wilcoxon test is not
  computable, and every d is 0 (zero variance), so TOST's t statistic is undefined: p NaN for
  both -> **not informative** with that reason (it was robust by a TOST p of 0), and Figure 1
  says these 4 rows are not placed;
- ``suggestions_solutions`` shifted a little: d_i = 0.01 (i + 1): Wilcoxon p = 2 / 2^10 = 0.00195;
  mean 0.055, SD 0.0303, TOST t = (0.1 − 0.055) / (0.0303 / √10) ≈ 4.70, df 9 -> p ≈ 0.0006 < α;
  discriminability 1 -> **sensitive and robust**;
- ``examples`` noisy: d = ±0.20..0.45 with alternating signs, mean −0.005, SD ≈ 0.33: TOST t ≈ 0.9
  (p ≈ 0.19) and Wilcoxon p ≈ 1 -> **inconclusive**.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()
NOISE = [35, -30, 25, -40, 30, -25, 45, -35, 20, -30]  # percent
BASE = {"criticism": 30, "examples": 40, "importance_relevance": 40, "materials_methods": 40,
        "praise": 20, "results_discussion": 30, "suggestions_solutions": 30, "presentation_reporting": 10}


def _answers() -> list[str]:
    originals = [{m: v + i for m, v in BASE.items()} for i in range(10)]
    rewrites = [{**o, "criticism": o["criticism"] + 20 + i, "examples": o["examples"] + NOISE[i],
                 "suggestions_solutions": o["suggestions_solutions"] + 1 + i, "presentation_reporting": 90}
                for i, o in enumerate(originals)]
    originals, rewrites = [json.dumps(o) for o in originals], [json.dumps(r) for r in rewrites]
    return originals + rewrites  # review units run originals first, then the variants, in document order


def _pairs(path: Path) -> Path:
    lines = []
    for i in range(10):
        lines.append(json.dumps({
            "review_id": f"r{i}", "paper_id": f"paper{i // 2}", "rewriter": "gpt-x", "condition": "paraphrase",
            "original": f"Review number {i}. The method is sound but the evaluation on dataset {i} is thin.",
            "rewrite": f"This is review {i}. The approach is solid, yet the experiments on dataset {i} are limited."}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _study(tmp_path: Path) -> Path:
    spec = {
        "name": "judges-scripted", "output_dir": str(tmp_path / "run"),
        "documents": [{"pairs": str(_pairs(tmp_path / "pairs.jsonl"))}],
        "rewriters": [{"name": "gpt-x", "kind": "imported", "conditions": ["paraphrase"]}],
        "reviewers": [{"name": "remor-judge", "kind": "judge", "model": "mock/scripted-judge",
                       "options": {"family": "remor", "model_options": {"script": _answers()}}}],
        "validation": {"enabled": False}, "concurrency": 1,
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def test_scripted_judge_gets_the_four_classes_through_the_cli(tmp_path: Path) -> None:
    study = _study(tmp_path)
    first = runner.invoke(app, ["run", str(study)])
    assert first.exit_code == 0, first.output
    report = runner.invoke(app, ["report", str(tmp_path / "run")])
    assert report.exit_code == 0, report.output
    table = pd.read_csv(tmp_path / "run" / "tables" / "judges.csv")
    classes = dict(zip(table["metric"], table["classification"]))
    copied = ("remor.praise", "remor.importance_relevance", "remor.materials_methods", "remor.results_discussion")
    assert classes == {"remor.criticism": "sensitive", "remor.suggestions_solutions": "sensitive_and_robust",
                       "remor.examples": "inconclusive", **dict.fromkeys(copied, "not_informative")}
    # style metric presentation_reporting left out
    for metric in copied:
        row = table.set_index("metric").loc[metric]
        assert pd.isna(row["tost_p"]) and pd.isna(row["wilcoxon_p"])
        assert row["reason"].startswith("TOST is not computable: every one of the 10 differences is 0 (zero variance")
    row = table.set_index("metric").loc["remor.criticism"]
    assert row["n_pairs"] == 10 and abs(row["wilcoxon_p"] - 2 / 2**10) < 1e-12
    assert abs(row["mean_diff"] - 0.245) < 1e-9 and abs(row["alpha_bonferroni"] - 0.05 / 7) < 1e-12
    md = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "Table 1" in md and "`remor.suggestions_solutions`" in md and "sensitive and robust" in md
    assert (tmp_path / "run" / "tables" / "judges_table1.tex").is_file()
    assert (tmp_path / "run" / "plots" / "judges_pvalues.png").stat().st_size > 1000
    assert ("4 metric row(s) with a p not computable (no non-zero difference, or every difference equal) "
            "not placed") in md


def test_imported_pairs_are_judged_without_any_rewrite_call(tmp_path: Path) -> None:
    study = _study(tmp_path)
    first = runner.invoke(app, ["run", str(study)])
    assert first.exit_code == 0, first.output
    runner.invoke(app, ["report", str(tmp_path / "run")])
    calls = pd.read_csv(tmp_path / "run" / "tables" / "model_calls.csv")
    assert len(calls) == 20  # 10 originals + 10 imported rewrites judged; no rewrite call
    variants = pd.read_csv(tmp_path / "run" / "tables" / "variants.csv")
    assert len(variants) == 10 and set(variants["status"]) == {"ok"}
    again = runner.invoke(app, ["run", str(study)])
    assert again.exit_code == 0 and "0 model calls" in again.output
