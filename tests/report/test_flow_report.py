"""The study flow of real runs (mock models): every number checked against the store's own rows.

Studies: the demo-like study of :mod:`tests.study.helpers` (three shared papers, four rewrite arms,
two replicates), ``examples/study.yaml`` on the mock provider (validation on, control reviewers),
the judges study of :mod:`tests.report.judge_runs`, the same with one declared family answering
only malformed JSON, a small RobustReview-shaped study (standard, persistent and SciCore), and a
study whose worst-case searches, guided workflow and plain rewrites fail, each in its own stage.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

from rhetorica.models.providers.mock import MockModel
from rhetorica.report.render import write_report
from rhetorica.report.scorecard import UNDECIDED, check_run
from rhetorica.store.db import Store
from rhetorica.store.runs import STUDY_FILE
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner
from rhetorica.study.status import stage_failures
from tests.attack.scripted import PhraseReviewer, Proposer
from tests.attack.test_kind import OPTIONS
from tests.study.helpers import PAPERS, study_dict
from tests.study.test_guided import KEPT, _project, _rewriter
from tests.study.test_runner import BagOfWordsEmbedder

from .judge_runs import ANSWERS, TextJudge, judge_spec, run_judge_study
from .runs import run_study_summary

REPO = Path(__file__).resolve().parents[2]


def _run(spec: dict[str, Any], base: Path, factory: Any = None, embedder: Any = None) -> tuple[Path, Any]:
    config = parse_study(spec)
    runner = StudyRunner(config, base, **({"model_factory": factory} if factory else {}), embedder=embedder)
    (runner.run_dir / STUDY_FILE).write_text(config.model_dump_json(indent=2), encoding="utf-8")
    try:
        summary = asyncio.run(runner.run())
    finally:
        runner.store.close()
    return runner.run_dir, summary


def _sql(run: Path, query: str) -> list[tuple]:
    store = Store.open_readonly(run / "store.sqlite")
    try:
        return [tuple(r) for r in store.rows(query)]
    finally:
        store.close()


def _rows(flow: pd.DataFrame, stage: str) -> dict[tuple[str, str], dict[str, int]]:
    part = flow[flow["stage"] == stage]
    return {(r["arm"], r["configuration"]): {k: int(r[k]) for k in ("planned", "not_run", "failed", "produced",
                                                                     "excluded", "analysed")}
            for r in part.to_dict("records")}


def _exported(run: Path, data: Any) -> None:
    """tables/flow, flow_exclusions, effective_n: Parquet and CSV equal to the report's tables."""
    for name, table in (("flow", data.flow.flow), ("flow_exclusions", data.flow.exclusions),
                        ("effective_n", data.effective_n)):
        parquet = pd.read_parquet(run / "tables" / f"{name}.parquet")
        pd.testing.assert_frame_equal(parquet, table.reset_index(drop=True), check_dtype=False)
        assert len(pd.read_csv(run / "tables" / f"{name}.csv")) == len(table)
    md = (run / "report.md").read_text("utf-8")
    assert "## Study flow: planned, excluded and analysed units" in md and "](plots/flow.png)" in md
    assert (run / "plots" / "flow.png").read_bytes().startswith(b"\x89PNG")
    html = (run / "report.html").read_text("utf-8")
    assert 'id="flow"' in html or "Study flow" in html


def test_demo_like_study_flow_matches_the_store(shared_data: Path, tmp_path: Path) -> None:
    run, summary = _run(study_dict(shared_data, tmp_path / "run"), tmp_path)
    assert summary.problems == []
    data = write_report(run, n_resamples=50)
    flow = data.flow.flow
    rewrites = _rows(flow, "rewrite")
    for condition, rewriter, stored, ok in _sql(run, "SELECT condition, rewriter, COUNT(*), SUM(status = 'ok') "
                                                     "FROM variants GROUP BY condition, rewriter"):
        assert rewrites[(condition, rewriter)]["planned"] == stored == len(PAPERS)
        assert rewrites[(condition, rewriter)]["analysed"] == ok
    assert len(rewrites) == 4 and "validate" not in set(flow["stage"])  # validation disabled
    reviews = _rows(flow, "review")
    ok_variants = dict(_sql(run, "SELECT condition, SUM(status = 'ok') FROM variants GROUP BY condition"))
    for arm, stored, ok in _sql(run, "SELECT condition, COUNT(*), SUM(status = 'ok') FROM assessments "
                                     "GROUP BY condition"):
        row = reviews[(arm, "mock-reviewer")]
        inputs = len(PAPERS) if arm == "original" else ok_variants[arm]
        assert row["planned"] == 2 * inputs == stored and row["analysed"] == ok
    assert _rows(flow, "input")[("–", "documents")]["analysed"] == len(PAPERS)
    # Table 4's effective n: papers with both arms, reviews of them in both arms (2 replicates each)
    table4 = data.effective_n[data.effective_n["table"] == "comparison"]
    assert len(table4) == len(data.comparisons) and (table4["reviews"] == 2 * 2 * table4["papers"]).all()
    ties = (data.comparisons["pct_tie"] * data.comparisons["n_pairs"] / 100).round().astype(int)
    assert list(table4["nonzero"]) == list(data.comparisons["n_pairs"] - ties)
    # replicate spread of every metric of the form; the primary one equals the existing pooled-SD table
    spread = data.analysis["pooled_sd_metrics"].set_index("metric")
    assert {"overall", "soundness", "significance", "evidence", "clarity"} <= set(spread.index)
    assert spread.loc["overall", "pooled_sd"] == pytest.approx(data.analysis["pooled_sd"]["pooled_sd"].iloc[0])
    md = (run / "report.md").read_text("utf-8")
    assert "Every metric: pooled SD of replicates" in md
    assert "Papers: 3;" in md and "mock-reviewer (mock/reviewer, default protocol, sampling: temperature 0.7)" in md
    _exported(run, data)


def test_example_study_on_the_mock_provider(tmp_path: Path) -> None:
    spec = yaml.safe_load((REPO / "examples" / "study.yaml").read_text("utf-8"))
    for doc in spec["documents"]:
        doc["path"] = str((REPO / "examples" / doc["path"]).resolve())
    for reviewer in spec["reviewers"]:
        if reviewer.get("model"):
            reviewer["model"] = "mock/smol"
    spec["output_dir"] = str(tmp_path / "run")
    run, summary = _run(spec, tmp_path, embedder=BagOfWordsEmbedder())
    assert summary.problems == [], summary.problems
    data = write_report(run, n_resamples=50)
    flow = data.flow.flow
    checks = {(c, r): (n, passed) for c, r, n, passed in _sql(
        run, "SELECT condition, rewriter, COUNT(*), SUM(passed) FROM checks GROUP BY condition, rewriter")}
    validate = _rows(flow, "validate")
    assert len(checks) == len(validate) == 2  # confidence:+ and confidence:- of the rules rewriter
    for (condition, rewriter), (n, passed) in checks.items():
        row = validate[(condition, rewriter)]
        assert row["planned"] == n and row["analysed"] == passed and row["excluded"] == n - passed
    reviews = _rows(flow, "review")
    names = [r["name"] for r in spec["reviewers"]]
    assert {name for _, name in reviews} == set(names)
    for reviewer in names:
        for arm, (n, passed) in {("original", ""): (2, 2), **{(c, r): v for (c, r), v in checks.items()}}.items():
            row = reviews[(arm[0] if isinstance(arm, tuple) else arm, reviewer)]
            assert row["planned"] == 2 * passed  # two replicates of every input passed on
    stored = dict(((r, a), n) for r, a, n in _sql(run, "SELECT reviewer, condition, SUM(status = 'ok') FROM assessments "
                                                       "GROUP BY reviewer, condition"))
    for (arm, reviewer), row in reviews.items():
        assert row["analysed"] == stored.get((reviewer, arm), 0)
    _exported(run, data)


def test_judge_study_flow_and_table1_n(tmp_path: Path) -> None:
    run = run_judge_study(tmp_path)
    data = write_report(run, n_resamples=50)
    metric = data.flow.flow[data.flow.flow["stage"] == "metric"]
    assert len(metric) == 2 * 16 and (metric["planned"] == 3).all() and (metric["analysed"] == 3).all()
    table1 = data.analysis["judges"].set_index(["condition", "metric"])
    # by hand from ANSWERS: the same answer for the three reviews, so d != 0 on all three or none
    for condition in ("paraphrase", "polish:+"):
        for name in ("criticism", "praise", "examples"):
            moved = ANSWERS[name][condition] != ANSWERS[name]["original"]
            assert table1.loc[(condition, f"remor.{name}"), "wilcoxon_n"] == (3 if moved else 0)
        assert table1.loc[(condition, "rottenreviews.overall_quality"), "wilcoxon_n"] == 3
    assert (data.analysis["judges"]["alpha_bonferroni"] == 0.05 / 16).all()
    md = (run / "report.md").read_text("utf-8")
    assert "Reviews: 3 (of 2 paper(s))" in md and "Not computable (analysis failed" not in md
    assert "## Paired comparison of conditions" not in md and md.count("does not apply: every evaluator") == 1
    assert "Clustered analysis, condition paraphrase (d averaged per paper first, 2 paper(s))" in md
    assert "remor-judge (mock/text-judge, judge family remor, sampling: provider defaults)" in md
    effective = data.effective_n.set_index(["comparison", "metric"])
    assert effective.loc[("paraphrase vs original", "remor.criticism"), ["papers", "reviews", "pairs", "nonzero",
                                                                         "clusters"]].tolist() == [2, 3, 3, 3, 2]
    _exported(run, data)
    # rhetorica check works on a judge run: every metric not informative here (3 pairs) -> not enough data;
    # criticism's d = 0.2 three times: tied |d|, normal approximation T+ = 6, mean 3, variance
    # 3·4·7/24 − (27 − 3)/48 = 3, z = √3, p = 0.0833 at best; α' = 0.05 / 16
    result = check_run(run)
    assert result.verdict == UNDECIDED and result.exit_code == 3
    assert set(result.scorecard["reviewer"]) == {"remor-judge", "rotten-judge"}
    # every d the same value: TOST's t statistic is undefined (rule 2), named before the Wilcoxon's p
    assert ("not informative: remor.criticism (paraphrase: TOST is not computable: every one of the 3 differences "
            "is 0.2 (zero variance, the t statistic is undefined); the Wilcoxon p 0.0833 is not below "
            "α' = 0.00313)") in result.scorecard.set_index(
        "reviewer").loc["remor-judge", "reasons"]


def test_a_family_with_only_failures_keeps_its_place(tmp_path: Path) -> None:
    spec = judge_spec(tmp_path)
    spec["reviewers"][0]["options"]["model_options"] = {"script": ["this is not JSON"] * 40}  # remor-judge

    def factory(model_id: str, options: dict[str, Any]) -> Any:
        return MockModel(model="text-judge", **options) if options.get("script") else TextJudge(model="text-judge")

    run, summary = run_study_summary(spec, tmp_path, factory)
    assert summary.stage_statuses["review"] == {"ok": 9, "malformed": 5}  # stopped after 5 malformed answers
    data = write_report(run, n_resamples=50)
    table1 = data.analysis["judges"]
    remor = table1[table1["family"] == "remor"]
    assert len(remor) == 2 * 7 and (remor["n_pairs"] == 0).all() and (remor["classification"] == "not computable").all()
    assert remor["reason"].str.startswith("every stored rewrite judgement failed (malformed").all()
    assert (table1["alpha_bonferroni"] == 0.05 / 16).all()  # M = 16 declared metrics, as with every answer ok
    assert "M = 16 declared metrics (9 with a test)" in (run / "report.md").read_text("utf-8")
    tex = (run / "tables" / "judges_table1.tex").read_text("utf-8")
    assert "paraphrase & remor.criticism & remor & 0–1 & 0 & 0 & -- & -- & -- & not computable" in tex
    assert "review & original & remor-judge &  & 3 & 0 & 3 & 0 & 0 & 0 \\\\" in (run / "tables" / "flow.tex").read_text("utf-8")
    flow = data.flow.flow
    reviews = _rows(flow, "review")
    planned = _sql(run, "SELECT COUNT(*) FROM plan_units WHERE stage = 'review'")[0][0]
    stored = _sql(run, "SELECT COUNT(*) FROM assessments")[0][0]
    not_run = sum(r["not_run"] for r in reviews.values())
    assert not_run == planned - stored == 4  # 9 remor units planned, 5 run
    assert sum(r["failed"] for (_, c), r in reviews.items() if c == "remor-judge") == 5
    stop = data.flow.exclusions[(data.flow.exclusions["stage"] == "review") & (data.flow.exclusions["kind"] == "not run")]
    assert set(stop["configuration"]) == {"remor-judge"}
    assert stop["reason"].str.startswith("configuration stopped: all 5 reviews so far are malformed").all()
    metric = flow[(flow["stage"] == "metric") & flow["metric"].str.startswith("remor.")]
    assert len(metric) == 14 and (metric["analysed"] == 0).all() and (metric["planned"] == 3).all()
    assert (metric["not_run"] + metric["failed"] == 3).all()
    assert data.failures_line() == ("Failures: 5 unit(s) and 1 other problem(s) listed in the report; "
                                    "4 planned unit(s) not run (see the study flow).")


def test_robustreview_shaped_study(shared_data: Path, tmp_path: Path) -> None:
    spec = study_dict(shared_data, tmp_path / "run", replicates=1,
                      rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
                      reviewers=[{"name": "m-standard", "model": "mock/m", "protocol": "standard"},
                                 {"name": "m-persistent", "model": "mock/m", "protocol": "persistent"},
                                 {"name": "m-scicore", "kind": "scicore", "model": "mock/m",
                                  "options": {"require_valid_core": False}}])
    run, summary = _run(spec, tmp_path)
    assert summary.problems == [], summary.problems
    data = write_report(run, n_resamples=50)
    reviews = _rows(data.flow.flow, "review")
    extracts = _rows(data.flow.flow, "extract")  # SciCore's science-core extraction, one per text
    for arm, extractor, n, ok in _sql(run, "SELECT condition, extractor, COUNT(*), SUM(status = 'ok') FROM extracts "
                                           "GROUP BY condition, extractor"):
        assert extracts[(arm, extractor)]["planned"] == n == len(PAPERS) and extracts[(arm, extractor)]["analysed"] == ok
    stored = {(a, r): (n, ok) for r, a, n, ok in _sql(
        run, "SELECT reviewer, condition, COUNT(*), SUM(status = 'ok') FROM assessments GROUP BY reviewer, condition")}
    assert {c for _, c in reviews} == {"m-standard", "m-persistent", "m-scicore"}
    for key, row in reviews.items():
        n, ok = stored.get(key, (0, 0))
        assert row["planned"] == len(PAPERS) and row["planned"] - row["not_run"] == n and row["analysed"] == ok
    robust = data.effective_n[data.effective_n["table"] == "robustness"].set_index("configuration")
    for reviewer, row in data.analysis["robustness"].set_index("reviewer").iterrows():
        assert robust.loc[reviewer, "papers"] == row["n_papers"]
    _exported(run, data)


def _matches_the_store(run: Path, flow: pd.DataFrame) -> None:
    """Every rewrite, validate and review row against the store's own rows (arm = condition here:
    one rewriter per condition)."""
    rewrites = _rows(flow, "rewrite")
    variants = _sql(run, "SELECT condition, rewriter, COUNT(*), SUM(status = 'ok') FROM variants "
                         "GROUP BY condition, rewriter")
    assert len(rewrites) == len(variants) > 0
    for condition, rewriter, n, ok in variants:
        assert (rewrites[(condition, rewriter)]["planned"], rewrites[(condition, rewriter)]["analysed"]) == (n, ok)
    validate = _rows(flow, "validate")
    for condition, rewriter, n, passed in _sql(run, "SELECT condition, rewriter, COUNT(*), SUM(passed) FROM checks "
                                                    "GROUP BY condition, rewriter"):
        assert validate[(condition, rewriter)]["planned"] == n  # every ok variant validated
        assert validate[(condition, rewriter)]["analysed"] == n  # failed_variants: include passes every one on
    reviews = _rows(flow, "review")
    stored = _sql(run, "SELECT condition, reviewer, COUNT(*), SUM(status = 'ok') FROM assessments "
                       "GROUP BY condition, reviewer")
    assert len(stored) == len(reviews)
    for arm, reviewer, n, ok in stored:
        row = reviews[(arm, reviewer)]
        assert row["planned"] - row["not_run"] == n and row["analysed"] == ok


@pytest.mark.parametrize("demo", ["demo_study.yaml", "demo_judges.yaml"])
def test_the_packaged_demos_on_the_mock_provider(shared_data: Path, tmp_path: Path, demo: str) -> None:
    from importlib.resources import files

    spec = yaml.safe_load(files("rhetorica.data").joinpath(demo).read_text("utf-8"))
    for doc in spec["documents"]:
        for key in ("path", "reviews"):
            if key in doc:
                doc[key] = str(shared_data / doc[key])
    for configuration in spec["rewriters"] + spec["reviewers"]:
        if configuration.get("model"):
            configuration["model"] = "mock/smol"
    spec["output_dir"] = str(tmp_path / "run")
    run, summary = _run(spec, tmp_path, embedder=BagOfWordsEmbedder())
    assert summary.problems == [], summary.problems
    data = write_report(run, n_resamples=50)
    _matches_the_store(run, data.flow.flow)
    if demo == "demo_judges.yaml":  # 4 reviews of one paper, paraphrased; ScholarPeer's 5 metrics
        metric = data.flow.flow[data.flow.flow["stage"] == "metric"]
        table1 = data.analysis["judges"]
        assert list(metric["metric"]) == list(table1["metric"]) and len(metric) == 5
        assert list(metric["analysed"]) == list(table1["n_pairs"]) == [4] * 5
        assert "Reviews: 4 (of 1 paper(s))" in (run / "report.md").read_text("utf-8")
    _exported(run, data)


def test_the_figure_sums_metric_rows_beyond_its_bar_limit() -> None:
    from rhetorica.analysis.flow import FLOW_COLUMNS
    from rhetorica.report.flow import FIGURE_ROWS, flow_figure

    counts = {"planned": 3, "not_run": 0, "failed": 1, "produced": 2, "excluded": 0, "analysed": 2}
    rows = [{"stage": "review", "arm": "original", "configuration": "J", "metric": "", **counts}]
    rows += [{"stage": "metric", "arm": arm, "configuration": "J", "metric": f"f.m{i}", **counts}
             for arm in ("a", "b") for i in range(40)]
    assert len(rows) > FIGURE_ROWS
    fig = flow_figure(pd.DataFrame(rows, columns=FLOW_COLUMNS))
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["review · original · J", "metric · a · J · all metrics", "metric · b · J · all metrics"]
    widths = sorted({round(p.get_width()) for p in fig.axes[0].patches})
    assert widths == [0, 1, 2, 40, 80]  # per bar: analysed 2 / failed 1 (review), 80 / 40 (40 metrics summed)


def test_each_failure_is_counted_under_the_stage_that_made_it(tmp_path: Path) -> None:
    """Two one-paragraph LaTeX projects (tests/study/test_guided.py) and four rewriters:
    ``attacker`` (kind ``attack``) searches each paper against both reviewers within a section the
    papers lack: 2 papers x 2 targets = 4 ``attack`` errors; ``blank`` (kind ``llm``) answers empty:
    2 ``rewrite`` failures; ``para``'s guided rewrite echoes the joint text: 2 ``guided-rewrite``
    units discarded; ``bad``'s mock answers its two joint paragraphs, then nothing: its 2 reviews
    of the guided workflow fail (``guided-review`` errors; no guided rewrite is planned on them).
    All of them are rows of ``variants`` but the reviews. The report, read back from the run
    directory, and ``rhetorica run``'s count (:func:`stage_failures`) name the same stages."""
    second = _project(tmp_path / "paper2")
    other = "We study trees with a plain model and a long proof."
    (second / "main.tex").write_text((second / "main.tex").read_text().replace(KEPT, other).replace(
        "We study graphs with a plain model.", "We study trees with a plain model."))
    spec = {"name": "stages", "output_dir": str(tmp_path / "run"),
            "documents": [{"latex_project": str(_project(tmp_path / "paper1"))}, {"latex_project": str(second)}],
            "rewriters": [_rewriter("para"), _rewriter("bad"),
                          {"name": "attacker", "kind": "attack", "model": "mock/proposer", "conditions": ["attack:+"],
                           "options": OPTIONS | {"scope": ["Conclusion"]}},
                          {"name": "blank", "kind": "llm", "model": "mock/blank", "conditions": ["confidence:+"]}],
            "reviewers": [{"name": "phrase", "model": "mock/phrase"}, {"name": "null", "model": "mock/null"}],
            "replicates": 1, "validation": {"enabled": False}}
    found = {"mock/phrase": PhraseReviewer("phrase", effect=1.0), "mock/null": PhraseReviewer("null", effect=0.0),
             "mock/proposer": Proposer(), "mock/para": MockModel("para"),
             "mock/bad": MockModel("bad", script=[KEPT, KEPT]), "mock/blank": MockModel("blank", script=[{"empty": True}] * 2)}
    config = parse_study(spec)
    runner = StudyRunner(config, tmp_path, model_factory=lambda model_id, options: found[model_id],
                         embedder=BagOfWordsEmbedder())
    (runner.run_dir / STUDY_FILE).write_text(config.model_dump_json(indent=2), encoding="utf-8")
    try:
        asyncio.run(runner.run())
        counted = stage_failures(runner.store, runner.walked)
    finally:
        runner.store.close()
    expected = Counter({("attack", "error"): 4, ("rewrite", "empty"): 2, ("guided-rewrite", "discarded"): 2,
                        ("guided-review", "error"): 2})
    assert counted == expected  # what `rhetorica run` prints
    run = runner.run_dir
    assert sorted(_sql(run, "SELECT stage, status, COUNT(*) FROM variants GROUP BY stage, status")) == [
        ("attack", "error", 4), ("guided-rewrite", "discarded", 2), ("rewrite", "empty", 2), ("rewrite", "ok", 4)]

    data = write_report(run)  # reads only the run directory, as `rhetorica report` does later
    failures = data.failures
    assert Counter(zip(failures["stage"], failures["status"])) == expected
    reasons = failures.groupby("stage")["reason"].agg(set).to_dict()
    assert reasons["attack"] == {f"project '{p}' has no editable paragraph under a heading titled 'conclusion' "
                                 "(its headings: 'introduction')" for p in ("paper1", "paper2")}
    assert reasons["rewrite"] == {"section 1 (Introduction): empty output"}  # the source's \\section{Introduction}
    assert reasons["guided-rewrite"] == {"the rewrite changed nothing"}
    assert len(reasons["guided-review"]) == 1 and "mock script exhausted" in next(iter(reasons["guided-review"]))
    assert data.failures_line() == "Failures: 10 unit(s) and 0 other problem(s) listed in the report."

    flow = data.flow
    assert list(dict.fromkeys(flow.flow["stage"])) == ["input", "rewrite", "attack", "guided-review",
                                                      "guided-rewrite", "review"]  # the walk's order

    def failed(n: int, produced: int = 0) -> dict[str, int]:
        return {"planned": 2, "not_run": 0, "failed": n, "produced": produced, "excluded": 0, "analysed": 2 - n}

    assert _rows(flow.flow, "rewrite") == {("confidence:+", "blank"): failed(2), ("joint@bad", "bad"): failed(0, 2),
                                           ("joint@para", "para"): failed(0, 2)}
    assert _rows(flow.flow, "attack") == {("attack:+@attacker>null", "attacker>null"): failed(2),
                                          ("attack:+@attacker>phrase", "attacker>phrase"): failed(2)}
    assert _rows(flow.flow, "guided-review") == {("guided@bad", "bad"): failed(2), ("guided@para", "para"): failed(0, 2)}
    assert _rows(flow.flow, "guided-rewrite") == {("guided", "para"): failed(2)}
    out = flow.exclusions
    assert out[["stage", "configuration", "kind", "reason", "n"]].values.tolist() == [
        ["rewrite", "blank", "failed", "rewrite empty", 2],
        ["attack", "attacker>null", "failed", "attack error", 2],
        ["attack", "attacker>phrase", "failed", "attack error", 2],
        ["guided-review", "bad", "failed", "guided review error: the guided rewrite was not made", 2],
        ["guided-rewrite", "para", "failed", "guided-rewrite discarded", 2]]
    md = (run / "report.md").read_text("utf-8")
    assert "| attack         | paper1 / attack:+ / attacker\\>null" in md
