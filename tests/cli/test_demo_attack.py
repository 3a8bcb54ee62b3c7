"""``rhetorica demo attack`` (issue 27 §1, "Done when"): abstract-only worst-case searches against the
embedded reviewer on one shared paper, in both directions (issue 36: one of them is eligible
whatever the reviewer thinks of the original, so the success rate is never empty).

The packaged study (``rhetorica/data/demo_attack.yaml``) is checked without a model: it parses, and
``rhetorica estimate`` bounds its calls by hand: per search (attack:+ and attack:-) k·T = 2·2 = 4
proposals (the 132-word abstract is one chunk), min(k·T·r + r, max_queries) = min(2·2·2 + 2, 10) =
10 search reviews and 2 re-reviews of the original by the target (the study's replicates); then the
ordinary review stage: 1 reviewer × 2 held-out replicates × (original + 2 winners) = 6 reviews of at
most 450 output tokens each.

The embedded test runs the demo itself (SmolLM2-135M through llama.cpp; a few minutes on 2 cores):
``pytest -m embedded tests/cli/test_demo_attack.py``.
"""

from __future__ import annotations

import json
import sqlite3
from importlib.resources import files
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from rhetorica.attack.kind import attack_options
from rhetorica.cli.app import app
from rhetorica.cli.demo import DEMOS
from rhetorica.study.config import parse_study
from rhetorica.study.estimate import estimate_study

runner = CliRunner()


def _spec(shared_data: Path, out: Path) -> dict:
    study_file, _ = DEMOS["attack"]
    spec = yaml.safe_load(files("rhetorica.data").joinpath(study_file).read_text("utf-8"))
    for doc in spec["documents"]:
        doc["path"] = str(shared_data / doc["path"])
    spec["output_dir"] = str(out)
    return spec


def test_the_packaged_study_parses_as_an_abstract_only_search_of_one_paper(shared_data: Path, tmp_path: Path) -> None:
    config = parse_study(_spec(shared_data, tmp_path / "run"), source="demo_attack.yaml")
    assert len(config.documents) == 1 and [r.kind for r in config.rewriters] == ["attack"]
    options = attack_options(config.rewriters[0])
    assert (options.scope, options.candidates, options.rounds, options.search_replicates,
            options.max_queries) == ("abstract", 2, 2, 2, 10)
    assert [r.model for r in config.reviewers] == ["embedded/smollm2-135m"]


def test_the_estimate_bounds_the_search_and_the_held_out_reviews(shared_data: Path, tmp_path: Path) -> None:
    study = tmp_path / "study.yaml"
    study.write_text(yaml.safe_dump(_spec(shared_data, tmp_path / "run")), encoding="utf-8")
    result = estimate_study(study)
    assert result.problems == []
    calls = {row.stage: row.calls for row in result.rows}
    # per search: 4 proposals, at most 10 search reviews and 2 re-reviews of the original; every review
    # (search, re-review or plain) may need one repair of its structured answer
    assert calls == {"attack": 2 * (4 + 10 + 2), "attack repairs (at most)": 2 * (10 + 2), "review": 2 * 3,
                     "review repairs (at most)": 2 * 3}
    review = next(row for row in result.rows if row.stage == "review")
    assert review.output_tokens == 6 * 450  # the reviewer's max_tokens bounds each review


@pytest.mark.embedded
def test_the_demo_runs_a_search_and_reports_it(shared_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "demo-attack"
    result = runner.invoke(app, ["demo", "attack", "--out", str(out), "--data", str(shared_data)])
    assert result.exit_code == 0, result.output
    assert f"View it: rhetorica view {out}" in " ".join(result.output.split())
    with sqlite3.connect(out / "store.sqlite") as conn:
        raws = conn.execute("SELECT value_json FROM artefacts WHERE name = 'attack_trajectory'").fetchall()
    records = [json.loads(raw) for (raw,) in raws]
    assert sorted(r["direction"] for r in records) == ["+", "-"]
    for record in records:
        assert record["target"] == "smollm2-default" and len(record["rereview_scores"]) == 2
        assert record["queries"] <= 10 and [r["round"] for r in record["rounds"]][0] == 0
        assert all(c["valid"] for r in record["rounds"] for c in r["candidates"] if c["kept"])
    from rhetorica.analysis.attack import attack_summary, held_out_shifts
    from rhetorica.store.db import Store
    from rhetorica.store.export import assessments_table

    store = Store.open_readonly(out / "store.sqlite")
    try:
        tidy = assessments_table(store)
    finally:
        store.close()
    if len(held_out_shifts(tidy)) == 2:  # both winners and the original reviewed: one direction can flip it
        assert attack_summary(tidy, records, 4.5)["n_eligible"].sum() == 1
    md = (out / "report.md").read_text("utf-8")
    section = md[md.index("## Worst-case attacks"):].split("\n## ")[0]
    assert "| `gcrn_iclr2017` | smollm2-default | +" in " ".join(section.split())  # an id verbatim (code span)
    assert "best of many noisy reviews" in section and (out / "plots" / "attack_trajectory.png").is_file()
