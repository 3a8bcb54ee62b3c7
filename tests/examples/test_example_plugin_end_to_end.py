"""One study that uses all four parts of the example plug-in — the ``lexicon`` reviewer kind, the
``formality`` dimension, the ``median_shift`` analysis table and the ``example-scripted`` provider
(live and through its batch API) — taken through the CLI with the plug-in installed and nothing of
rhetorica changed: ``list``, ``schema``, ``estimate``, ``status``, ``batch submit``/``collect``,
``run``, ``report`` (Markdown, LaTeX, HTML) and ``view`` (its pages over HTTP on loopback). A third
reviewer on an OpenAI model served by the loopback fake provider (``tests/models/fake_servers.py``)
has its review calls submitted to that server's batch API in the same ``batch submit``.

Every number below is computed by hand from the three small papers (the comments show how).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy.stats import bootstrap

from tests.examples.plugin_install import plugin_env
from tests.models.fake_servers import FakeServer

PAPERS = {
    "graph": ("Graph models", "We got a lot of gains on the three datasets and it is pretty clear that the model works. "
                              "We really think the results show that the method gets better accuracy than the "
                              "baseline on all the things we tried."),
    "sparse": ("Sparse attention", "It's clear that the pruning didn't hurt, and we got the same accuracy with half the "
                                   "stuff. The model runs faster and we've tested it on two tasks."),
    "nested": ("Nested parsing", "Our parser handles nested clauses. Accuracy rises on every benchmark we use."),
}
# The example-scripted rewrite: each listed phrase replaced at whole words (the provider's option).
SUBSTITUTIONS = {"got": "obtained", "a lot of": "substantial", "pretty clear": "clear", "really think": "conclude",
                 "show": "demonstrate", "gets": "obtains", "things": "datasets", "tried": "investigated",
                 "It's": "It is", "didn't": "did not", "stuff": "parameters", "we've": "we have"}
API_KEY = {"OPENAI_API_KEY": "sk-plugin-e2e-test-123456"}  # the loopback server's (never sent elsewhere)
LEXICON = {"words": ["obtained", "obtains", "demonstrate", "investigated", "therefore"], "base": 2,
           "points_per_word": 0.5}


def _cli(args: list[str], plugin_dir: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``rhetorica ARGS`` with the plug-in installed (wide console: no wrapped lines)."""
    env = plugin_env(plugin_dir) | API_KEY | {"COLUMNS": "250"}
    result = subprocess.run([sys.executable, "-m", "rhetorica", *args], env=env, cwd=cwd, capture_output=True,
                            text=True, check=False, timeout=600)
    assert result.returncode == 0, f"rhetorica {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result


def _status_rows(text: str) -> dict[str, list[str]]:
    """``rhetorica status``'s table: stage -> [units, ok, failed, pending]."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 5 and cells[0] in ("rewrite", "validate", "review"):
            rows[cells[0]] = cells[1:]
    return rows


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - the loopback viewer
        assert response.status == 200
        return response.read().decode("utf-8")


def _view_pages(run_dir: Path, plugin_dir: Path, paths: list[str]) -> dict[str, str]:
    """Start ``rhetorica view RUN --port 0``, fetch ``paths`` over HTTP, stop it."""
    env = plugin_env(plugin_dir) | {"PYTHONUNBUFFERED": "1"}
    viewer = subprocess.Popen([sys.executable, "-m", "rhetorica", "view", str(run_dir), "--port", "0", "--quiet"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = viewer.stdout.readline()  # type: ignore[union-attr]
        found = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert found, first + viewer.stderr.read()  # type: ignore[union-attr]
        return {path: _get(found[0] + path.lstrip("/")) for path in paths}
    finally:
        viewer.terminate()
        viewer.wait(timeout=30)


@pytest.fixture(scope="module")
def flow(plugin_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The study written and taken through every command once; each command's output by name."""
    with FakeServer(hang_s=1.0) as server:
        server.batch_polls_before_done = 0
        yield _take_through_commands(plugin_dir, tmp_path_factory, server)


def _take_through_commands(plugin_dir: Path, tmp_path_factory: pytest.TempPathFactory,
                           server: FakeServer) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("plugin-study")
    for doc_id, (title, text) in PAPERS.items():
        (folder / f"{doc_id}.md").write_text(f"# {title}\n\n## Results\n\n{text}\n", encoding="utf-8")
    batch_dir = str(folder / "batches")
    study = {
        "name": "plugin-e2e", "output_dir": "run",
        "documents": [{"path": f"{doc_id}.md", "id": doc_id} for doc_id in PAPERS],
        "rewriters": [{"name": "formalizer", "kind": "llm", "model": "example-scripted/mid",
                       "conditions": ["formality:+"],
                       "options": {"substitutions": SUBSTITUTIONS, "batch_dir": batch_dir}}],
        "reviewers": [{"name": "formal-words", "kind": "lexicon", "options": LEXICON},
                      {"name": "scripted-high", "model": "example-scripted/high", "options": {"batch_dir": batch_dir}},
                      {"name": "loopback", "model": "openai/gpt-4.1-mini",
                       "options": {"base_url": f"{server.url}/v1", "api_key_env": "OPENAI_API_KEY"}}],
        "replicates": 1,
        # the identity rewrite of "nested" fails its checks; kept, so that every paper is paired
        "validation": {"failed_variants": "include"},
    }
    (folder / "study.yaml").write_text(yaml.safe_dump(study, sort_keys=False), encoding="utf-8")
    out: dict[str, Any] = {"folder": folder, "run": folder / "run"}

    def cli(name: str, *args: str) -> str:
        out[name] = _cli(list(args), plugin_dir, folder).stdout
        return out[name]

    cli("list", "list", "--json")
    cli("schema", "schema")
    cli("estimate", "estimate", "study.yaml", "--json")
    cli("status_before", "status", "study.yaml")
    cli("submit_rewrites", "batch", "submit", "study.yaml")
    cli("collect_rewrites", "batch", "collect", "study.yaml")
    cli("submit_reviews", "batch", "submit", "study.yaml")
    cli("collect_reviews", "batch", "collect", "study.yaml")
    cli("run_output", "run", "study.yaml")
    cli("run_again", "run", "study.yaml")
    cli("status_after", "status", "study.yaml")
    out["live_requests"] = server.model_requests()
    for report in ("report.md", "report.html"):
        (out["run"] / report).unlink()
    cli("report", "report", "run")
    out["batch_files"] = sorted(Path(batch_dir).glob("*.jsonl"))
    out["pages"] = _view_pages(out["run"], plugin_dir, ["/", "/tables", "/paper?doc=graph", "/paper?doc=sparse",
                                                         "/paper?doc=graph&reviewer=formal-words",
                                                         "/paper?doc=graph&reviewer=scripted-high"])
    return out


def test_list_and_schema_show_all_four_parts(flow: dict[str, Any]) -> None:
    rows = {(r["kind"], r["name"]): r for r in json.loads(flow["list"])}
    for key in [("evaluator", "lexicon"), ("dimension", "formality"), ("condition", "formality:+"),
                ("condition", "formality:-"), ("analysis table", "median_shift"), ("provider", "example-scripted"),
                ("batch api", "example-scripted")]:
        assert rows[key]["source"] == "rhetorica-example-plugin", key
    assert sorted(rows[("evaluator", "lexicon")]["options"]) == ["base", "points_per_word", "words"]
    assert rows[("condition", "formality:+")]["description"] == "more formal register (no contractions, precise verbs)"
    assert rows[("provider", "example-scripted")]["options"] == {
        "batch_dir": "str | None (default None)", "max_concurrency": "int (default 8)",
        "substitutions": "dict[str, str] | None (default None)"}
    schema = json.loads(flow["schema"])
    assert set(schema["$defs"]["LexiconOptions"]["properties"]) == {"words", "base", "points_per_word"}
    assert "; example-scripted: batch_dir, max_concurrency, substitutions; " in (
        schema["$defs"]["ModelOptions"]["description"])
    conditions = schema["$defs"]["RewriterSpec_llm"]["properties"]["conditions"]["description"]
    assert ", formality:+, formality:-, " in conditions
    assert schema["properties"]["reviewers"]["items"]["discriminator"]["mapping"]["lexicon"] == (
        "#/$defs/ReviewerSpec_lexicon")


def test_estimate_counts_the_provider_calls_and_the_lexicon_units(flow: dict[str, Any]) -> None:
    estimate = json.loads(flow["estimate"])
    calls = {(r["stage"], r["model"]): r["calls"] for r in estimate["rows"]}
    # one rewrite per paper (each may be retried once when cut at its cap); each model reviewer reads 3
    # originals and 3 rewrites (each review may need one repair); the openai endpoint's structured-output
    # mode may take 2 probes; the lexicon reviewer makes no call, so it has no row (issue 37: the bound)
    assert calls == {("rewrite", "example-scripted/mid"): 3, ("rewrite truncation retries (at most)",
                                                              "example-scripted/mid"): 3,
                     ("review", "example-scripted/high"): 6, ("review repairs (at most)", "example-scripted/high"): 6,
                     ("review", "openai/gpt-4.1-mini"): 6, ("review repairs (at most)", "openai/gpt-4.1-mini"): 6,
                     ("structured-output probes (at most)", "openai/gpt-4.1-mini"): 2}
    # 3 rewrites + 3 checks + 3 reviewers x 3 papers x 2 arms
    assert (estimate["units_pending"], estimate["units_done"]) == (24, 0)
    # the plug-in provider declares itself free (ModelAPI.free): its calls cost $0, not "no price"
    costs = {(r["stage"], r["model"]): r["cost_usd"] for r in estimate["rows"]}
    assert costs[("rewrite", "example-scripted/mid")] == costs[("review", "example-scripted/high")] == 0.0
    assert costs[("review", "openai/gpt-4.1-mini")] > 0
    assert estimate["unpriced_models"] == []


def test_batch_submit_sends_the_plugin_provider_calls_to_its_batch_api(flow: dict[str, Any]) -> None:
    assert "Plan: 24 units, 24 pending." in flow["submit_rewrites"]
    assert re.search(r"example-scripted/mid: rewrite stage, 3 calls submitted as batch scripted-batch-[0-9a-f]{12}\.",
                     flow["submit_rewrites"])
    assert re.search(r"│ example-scripted/mid +│ collected │ 3 +│ ok: 3 ", flow["collect_rewrites"])
    # 5 review calls, not 6: the "nested" rewrite changed nothing, so its review is the original's call
    assert re.search(r"example-scripted/high: review stage, 5 calls submitted as batch scripted-batch-[0-9a-f]{12}\.",
                     flow["submit_reviews"])
    assert re.search(r"│ example-scripted/high +│ collected │ 5 +│ ok: 5 ", flow["collect_reviews"])
    # the OpenAI reviewer's 5 calls went to the loopback server's batch API in the same submit
    assert re.search(r"openai/gpt-4.1-mini: review stage, 5 calls submitted as batch batch_[0-9a-f]{12}\.",
                     flow["submit_reviews"])
    assert re.search(r"│ openai/gpt-4.1-mini +│ collected │ 5 +│ ok: 5 ", flow["collect_reviews"])
    # the provider answered both batches into its batch_dir: 3 + 5 results
    assert [len(p.read_text().splitlines()) for p in flow["batch_files"]] in ([3, 5], [5, 3])


def test_the_run_makes_no_model_call_after_the_batches_and_resumes_with_none(flow: dict[str, Any]) -> None:
    said = " ".join(flow["run_output"].split())
    assert "Ran 24 units (rewrite ok 3; validate failed 2, ok 1; review ok 18)" in said
    assert "0 model requests" in said
    assert "all 24 units were already in the store; 0 model calls" in " ".join(flow["run_again"].split())
    assert flow["live_requests"] == []  # the loopback server saw batches only, not one live call
    assert _status_rows(flow["status_before"]) == {"rewrite": ["3", "0", "0", "3"], "validate": ["3", "0", "0", "3"],
                                                   "review": ["18", "0", "0", "18"]}
    assert _status_rows(flow["status_after"]) == {"rewrite": ["3", "3", "0", "0"],
                                                  "validate": ["3", "1", "2 (failed: 2)", "0"],
                                                  "review": ["18", "18", "0", "0"]}


def test_the_rewrites_are_the_provider_substitutions(flow: dict[str, Any]) -> None:
    variants = pd.read_csv(flow["run"] / "tables" / "variants.csv")
    assert set(variants["document_id"]) == set(PAPERS)
    page = flow["pages"]["/paper?doc=graph"]
    # the diff shows the substitutions (whole words): "got" -> "obtained", "tried" -> "investigated"
    assert "obtained" in page and "investigated" in page


def test_the_lexicon_reviewer_and_the_scripted_reviewer_scores(flow: dict[str, Any]) -> None:
    table = pd.read_csv(flow["run"] / "tables" / "assessments.csv")
    got = {(r.reviewer, r.document_id, r.condition): (r.status, r.overall) for r in table.itertuples()}
    # formal-words: overall = round(2 + 0.5 * 100 * hits / words), words of the "Results" heading and text.
    # Originals hold none of the five words: 2. Rewrites:
    #   graph  37 words (1 + 36), 4 hits (obtained, demonstrate, obtains, investigated): 2 + 200/37 = 7.41 -> 7
    #   sparse 32 words (1 + 31), 1 hit (obtained): 2 + 50/32 = 3.56 -> 4
    #   nested unchanged: 2
    lexicon = {doc: got[("formal-words", doc, "formality:+")] for doc in PAPERS}
    assert lexicon == {"graph": ("ok", 7.0), "sparse": ("ok", 4.0), "nested": ("ok", 2.0)}
    assert {got[("formal-words", doc, "original")] for doc in PAPERS} == {("ok", 2.0)}
    # scripted-high answers review-000 at the top of each scale: overall 10 (1-10), soundness 4 (1-4),
    # confidence 5 (1-5), on every paper and arm
    high = table[table["reviewer"] == "scripted-high"]
    assert len(high) == 6 and set(high["status"]) == {"ok"}
    assert set(map(tuple, high[["overall", "soundness", "confidence"]].to_numpy())) == {(10.0, 4.0, 5.0)}


def test_the_formality_measure_reaches_checks_report_and_viewer(flow: dict[str, Any]) -> None:
    shift = pd.read_csv(flow["run"] / "tables" / "shift_checks.csv").set_index("document_id")
    # 1000 * (formal - informal markers) / words:
    #   graph original: 40 words, informal got, a lot, pretty, really, gets, things: -6000/40 = -150;
    #   graph rewrite: 36 words, formal demonstrate, obtains: 2000/36 = 55.56
    #   sparse original: 28 words, informal It's, didn't, got, stuff, we've: -5000/28 = -178.57; rewrite: 0/31 = 0
    #   nested: 12 words, no marker: 0 before and after (no shift)
    assert shift.loc["graph", ["original", "variant"]].tolist() == pytest.approx([-150.0, 2000 / 36])
    assert shift.loc["sparse", ["original", "variant"]].tolist() == pytest.approx([-5000 / 28, 0.0])
    assert shift.loc["nested", ["original", "variant"]].tolist() == pytest.approx([0.0, 0.0])
    assert shift["present"].to_dict() == {"graph": True, "nested": False, "sparse": True}
    assert set(shift["measure"]) == {"(formal - informal markers)/1k"}
    # the report's validation section: 3 checks, 2 present; means (-150 - 178.57 + 0) / 3 = -109.52
    # and (55.56 + 0 + 0) / 3 = 18.52
    markdown = (flow["run"] / "report.md").read_text(encoding="utf-8")
    row = next([c.strip() for c in line.strip("|").split("|")] for line in markdown.splitlines()
               if "| (formal - informal markers)/1k |" in line)
    assert row == ["formality:+", "formalizer", "formality:+", "(formal - informal markers)/1k", "3", "2", "-109.52",
                   "18.52"]
    latex = (flow["run"] / "tables" / "shift_checks.tex").read_text(encoding="utf-8")
    assert "formality:+ & formalizer & formality:+ & (formal - informal markers)/1k & 3 & 2 & -109.52 & 18.52" in latex
    html = (flow["run"] / "report.html").read_text(encoding="utf-8").split('<section id="validation">', 1)[1]
    assert '<td class="num">3</td><td class="num">2</td><td class="num">-109.52</td><td class="num">18.52</td>' in html
    assert "(formal - informal markers)/1k: -150.00 → 55.56" in flow["pages"]["/paper?doc=graph"]
    assert "(formal - informal markers)/1k: -178.57 → 0.00" in flow["pages"]["/paper?doc=sparse"]


MEDIAN_ROW = ("formal-words", 3, "2.00", "0.00", "5.00")


def test_the_median_shift_table_in_every_format(flow: dict[str, Any]) -> None:
    # formal-words' paired shifts: graph 7 - 2 = 5, sparse 4 - 2 = 2, nested 0; median 2. A resample
    # of three papers has median 0, 2 or 5, and 0 (and 5) with probability 7/27 > 2.5%: the 95%
    # percentile interval is [0, 5]. scripted-high never moves: median 0, no interval.
    oracle = bootstrap((np.array([5.0, 2.0, 0.0]),), np.median, n_resamples=5000, method="percentile",
                       random_state=np.random.default_rng(0)).confidence_interval
    assert (oracle.low, oracle.high) == (0.0, 5.0)
    table = pd.read_csv(flow["run"] / "tables" / "median_shift.csv")
    # the loopback reviewer's scores are the fake server's digest-filled answers: only its count is known
    assert table.loc[table["reviewer"] == "loopback", "n_papers"].tolist() == [3]
    assert table[table["reviewer"] != "loopback"].to_dict("records") == [
        {"reviewer": "formal-words", "n_papers": 3, "median_shift": 2.0, "median_shift_low": 0.0,
         "median_shift_high": 5.0},
        {"reviewer": "scripted-high", "n_papers": 3, "median_shift": 0.0, "median_shift_low": pytest.approx(np.nan,
                                                                                                            nan_ok=True),
         "median_shift_high": pytest.approx(np.nan, nan_ok=True)}]
    markdown = (flow["run"] / "report.md").read_text(encoding="utf-8")
    section = markdown.split("## Median paired shift per reviewer", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| formal-words") or line.startswith("| scripted-high")]
    assert rows == [["formal-words", "3", "2.00", "0.00", "5.00"], ["scripted-high", "3", "0.00", "–", "–"]]
    latex = (flow["run"] / "tables" / "median_shift.tex").read_text(encoding="utf-8")
    assert "formal-words & 3 & 2.00 [0.00, 5.00] \\\\" in latex
    assert "scripted-high & 3 & 0.00 [--, --] \\\\" in latex
    numbers = '<td class="num">3</td><td class="num">2.00</td><td class="num">0.00</td><td class="num">5.00</td></tr>'
    html = (flow["run"] / "report.html").read_text(encoding="utf-8")
    section = html.split('<section id="median_shift">', 1)[1].split("</section>", 1)[0]
    assert f'<tr><td class="text">formal-words</td>{numbers}' in section
    page = flow["pages"]["/tables"].split('<section id="table-median_shift">', 1)[1].split("</section>", 1)[0]
    assert "<h2>Median paired shift per reviewer</h2>" in page and f"<tr><td>formal-words</td>{numbers}" in page


def test_the_report_and_viewer_show_the_plugin_reviewers(flow: dict[str, Any]) -> None:
    # formal-words over the three papers: mean original 2, mean rewrite (7 + 4 + 2) / 3 = 4.33, the
    # rewrite higher on 2 of 3 (67%), one tie; sign test on the 2 untied papers, both up: p = 2 * 0.5^2 = 0.5;
    # at the threshold 4.5 only "graph" (2 -> 7) flips to accept: 1 of 3
    markdown = (flow["run"] / "report.md").read_text(encoding="utf-8")
    comparison = next([c.strip() for c in line.strip("|").split("|")] for line in markdown.splitlines()
                      if line.startswith("| formal-words") and "| original " in line and "4.33" in line)
    assert comparison[:9] == ["formal-words", "formality:+", "original", "3", "66.67", "0.00", "33.33", "∞", "0.500"]
    assert comparison[11:15] == ["33.33", "0.00", "4.33", "2.00"]
    overview = flow["pages"]["/"].split('<table id="headline"', 1)[1].split("</table>", 1)[0]
    row = overview.split("formal-words</a>", 1)[1].split("</tr>", 1)[0]
    values = re.findall(r'data-value="([^"]*)"', row)
    assert [float(v) for v in values[:5]] == pytest.approx([3, 2.0, 13 / 3, 7 / 3, 2 / 3])
    assert values[-1] == "0.5"
    # each review with its reviewer's model and form; the lexicon's own summary of its count
    # ("Results" and 40 words with none listed; the rewrite: 4 of 37, 100 * 4 / 37 = 10.81 per 100)
    graph = flow["pages"]["/paper?doc=graph&reviewer=formal-words"]
    assert "lexicon · protocol default · form review-000-overall@1" in graph
    assert "0 of 41 words are on the list (0.00 per 100)" in graph
    assert "4 of 37 words are on the list (10.81 per 100)" in graph
    scripted = flow["pages"]["/paper?doc=graph&reviewer=scripted-high"]
    assert "example-scripted/high · protocol default · form review-000@1" in scripted
