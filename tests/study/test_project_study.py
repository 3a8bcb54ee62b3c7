"""The six-dimension study on whole LaTeX projects, end to end through the mock reviewer.

The rewriter is an external agent command (``tests/study/scripted_project_agent.py``): wording only
(passes the checker, compiles) or one fault (dropped ``\\cite``, altered number, edited math,
``\\write18``) that its repair leaves in place. Expected values come from outside the code under
test: the fault messages from the fault injectors of ``tests/rewriting/latex_project/conftest.py``
(plain searches of the source), the main table's changes recomputed from the store's raw scores.
Compiles take seconds each: the two smallest projects, few conditions except in one test.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from rhetorica.report.render import write_report
from rhetorica.documents.latex.project import load_project
from rhetorica.rewriting.six_dimensions import condition_names
from rhetorica.study import graph
from rhetorica.study.config import load_study
from rhetorica.study.project_rewrite import variant_dir
from rhetorica.study.runner import StudyRunner
from tests.rewriting.latex_project.conftest import FAULTS
from tests.study.helpers import write_study
from tests.study.scripted_project_agent import PHRASES

REPO = Path(__file__).resolve().parents[2]
AGENT = REPO / "tests" / "study" / "scripted_project_agent.py"
PROJECTS = ("gcrn_iclr2017", "chebnet_nips2016")
TWELVE = condition_names()


def _agent(name: str, mode: str, conditions: list[str]) -> dict:
    return {"name": name, "kind": "agent", "model": "mock/reviewer", "conditions": conditions,
            "project": {"command": [sys.executable, str(AGENT), "{project}", mode], "env_allow": ["PYTHONPATH"],
                        "repair_rounds": 1}}


MOCK_REVIEWERS = [{"name": "standard", "model": "mock/reviewer", "protocol": "standard"},
                  {"name": "strict", "model": "mock/reviewer", "protocol": "strict-iclr"}]


def _run(tmp_path: Path, shared_data: Path, monkeypatch, papers: tuple[str, ...], rewriters: list[dict],
         reviewers: list[dict] = MOCK_REVIEWERS) -> StudyRunner:
    monkeypatch.setenv("PYTHONPATH", f"{REPO / 'src'}:{REPO}")
    spec = {"name": "six-dim", "output_dir": str(tmp_path / "run"),
            "documents": [{"latex_project": str(shared_data / "papers" / p)} for p in papers],
            "rewriters": rewriters,
            "reviewers": reviewers,
            "replicates": 1, "validation": {"enabled": False}}
    config, base = load_study(write_study(tmp_path / "study.yaml", spec))
    runner = StudyRunner(config, base)
    (runner.run_dir / "study.json").write_text(config.model_dump_json(indent=2), encoding="utf-8")
    asyncio.run(runner.run())
    return runner


def _rows(run_dir: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(run_dir / "store.sqlite") as conn:
        return conn.execute(sql).fetchall()


def test_all_conditions_and_workflows_on_two_projects(tmp_path, shared_data, monkeypatch):
    conditions = [*TWELVE, "joint", "recursive:2", "guided"]
    runner = _run(tmp_path, shared_data, monkeypatch, PROJECTS, [_agent("script", "wording", conditions)])
    run_dir = runner.run_dir
    variants = _rows(run_dir, "SELECT unit_key, document_id, condition, status, reason FROM variants")
    assert len(variants) == 2 * 15
    assert {(v[3], v[4]) for v in variants} == {("ok", None)}
    for key, doc, condition, _, _ in variants:
        folder = variant_dir(run_dir, key)
        diff = (folder / "variant.diff").read_text()
        assert diff.startswith("--- a/") and "+" in diff
        assert (folder / "variant.pdf").stat().st_size > 0 and (folder / "project").is_dir()
    # the reviewers read the compiled PDFs: the agent's lead-in phrases are in the variant text
    docs = _rows(run_dir, "SELECT v.condition, v.document_json FROM variants v")
    for condition, document_json in docs:
        text = " ".join(s["text"] for s in json.loads(document_json)["sections"])
        assert any(p.strip().rstrip(",").lower() in text.lower() for p in PHRASES), condition
    # recursive:2 and guided were built on the joint variant of the same paper (graph edges)
    joint = {d: k for k, d, c, _, _ in variants if c == "joint"}
    for key, doc, condition, _, _ in variants:
        result = json.loads((variant_dir(run_dir, key) / "result.json").read_text())
        assert result["upstream"] == (joint[doc] if condition in ("recursive:2", "guided") else None)
        if condition == "guided":
            review = json.loads((variant_dir(run_dir, key) / "review.json").read_text())
            assert review["status"] == "ok" and review["payload"]["weaknesses"]
    # guided: joint -> the review of joint (a unit of its own) -> the guided rewrite
    steps = list(graph.walk(runner.config, runner.load_documents([]), runner.store))
    assert [s.stage.name for s in steps] == ["rewrite", "rewrite-2", "guided-review", "guided-rewrite", "review"]
    assert sorted(up for up, _ in steps[1].edges) == sorted(joint.values())
    assert sorted(up for up, _ in steps[2].edges) == sorted(joint.values())
    guided = {k for k, _, c, _, _ in variants if c == "guided"}
    assert {up for up, _ in steps[3].edges} == {u.key for u in steps[2].units} and len(steps[3].edges) == 2
    assert {k for _, k in steps[3].edges} == guided
    # every original and variant reviewed under both protocols
    statuses = _rows(run_dir, "SELECT status, COUNT(*) FROM assessments GROUP BY status")
    assert statuses == [("ok", (2 + 30) * 2)]
    # the main table: novelty:+ under Standard = mean over the two papers of (variant - original)
    # overall (no human scores: one stratum), from the raw scores
    raw = _rows(run_dir, "SELECT a.document_id, a.condition, a.reviewer, s.value FROM assessments a "
                         "JOIN scores s ON s.unit_key = a.unit_key WHERE s.metric = 'overall'")
    score = {(d, c, r): v for d, c, r, v in raw}
    expected = sum(score[(p, "novelty:+", "standard")] - score[(p, "original", "standard")] for p in PROJECTS) / 2
    write_report(run_dir, n_resamples=200)
    report = (run_dir / "report.md").read_text()
    assert "## Six-dimension study: change by dimension, direction, reviewer and rewriter" in report
    row = next(line for line in report.splitlines()
               if line.startswith("| novelty ") and "| + " in line and "| standard " in line)
    assert f"| {expected:.2f} [" in row.replace("\\[", "[")
    assert "Variants: 30 ok." in report


def test_faulty_rewrites_are_sent_back_with_the_violation_and_discarded(tmp_path, shared_data, monkeypatch):
    paper = "gcrn_iclr2017"
    rewriters = [_agent(f"fault-{name.replace('_', '-')}", name, ["novelty:+"]) for name in FAULTS]
    runner = _run(tmp_path, shared_data, monkeypatch, (paper,), rewriters)
    run_dir = runner.run_dir
    variants = {r: (k, s, reason) for k, r, s, reason in _rows(run_dir, "SELECT unit_key, rewriter, status, reason FROM variants")}
    for name, fault in FAULTS.items():
        message = fault(load_project(shared_data / "papers" / paper)).message
        key, status, reason = variants[f"fault-{name.replace('_', '-')}"]
        assert (status, reason) == ("discarded", message)
        repair = (variant_dir(run_dir, key) / "attempts" / "attempt-1-agent" / "instruction.txt").read_text()
        assert repair.rstrip().endswith(f"- {message}")
    # discarded variants are never reviewed; nothing the \write18 asked for exists anywhere
    assert _rows(run_dir, "SELECT DISTINCT condition FROM assessments") == [("original",)]
    assert not list(tmp_path.rglob("pwned"))
    write_report(run_dir, n_resamples=100)
    report = (run_dir / "report.md").read_text()
    assert "Variants: 4 discarded." in report
    # every compile note of the baseline is in the section's note, figure boxes included
    note = report[report.index("Baselines compiled with substitutes for missing files: "):].split("\n")[0]
    note = note.replace("\\_", "_")  # Markdown escapes underscores
    assert note.count(f"papers/{paper} ({paper}): ") == 1  # one entry per project
    assert "nips_2017.sty: substitute package" in note
    assert note.count("missing figure drawn as a box") == 10


def test_latex_project_kind_rewrites_the_first_paragraphs_of_each_file(tmp_path, shared_data, monkeypatch):
    first = load_project(shared_data / "papers" / "gcrn_iclr2017").paragraphs()[:2]
    # the abstract (a comment line inside it does not split it), then the introduction's first paragraph
    assert first[0].text.lstrip().startswith("This paper introduces") and first[1].text.lstrip().startswith("Many")
    # wording only: a lead-in before each paragraph (no command, math or number touched)
    script = ["In short, t" + first[0].text.lstrip()[1:], "Indeed, m" + first[1].text.lstrip()[1:]]
    rewriter = {"name": "lead-in", "kind": "latex-project", "model": "mock/lead-in", "conditions": ["scope:-"],
                "options": {"script": script}, "project": {"max_paragraphs_per_file": 2}}
    runner = _run(tmp_path, shared_data, monkeypatch, ("gcrn_iclr2017",), [rewriter])
    [(key, status)] = _rows(runner.run_dir, "SELECT unit_key, status FROM variants")
    assert status == "ok"
    calls = _rows(runner.run_dir, f"SELECT COUNT(*) FROM model_calls WHERE unit_key = '{key}'")
    assert calls == [(2,)]  # gcrn has one manuscript file: its first two editable paragraphs
    diff = (variant_dir(runner.run_dir, key) / "variant.diff").read_text()
    assert "+\tIn short, this paper introduces Graph Convolutional Recurrent" in diff
    assert "+Indeed, many real-world data can be cast as structured sequences" in diff
    # result.json times each stage of the unit (benchmarks/six_dimensions_profile.py sums them)
    result = json.loads((variant_dir(runner.run_dir, key) / "result.json").read_text())
    [attempt] = result["attempts"]
    assert attempt["calls"] == 2 and attempt["compiled"] == "ok"
    assert attempt["rewrite_s"] >= attempt["model_s"] >= 0 and attempt["compile_s"] > 0 and result["read_s"] > 0


def test_a_paragraph_rewrite_cut_at_its_token_cap_twice_is_truncated_not_error(tmp_path, shared_data, monkeypatch):
    # the embedded example's novelty:- unit: SmolLM2 ran past the cap on both seeds; the unit's
    # status is the model's (truncated, as the section-level LLM rewriter reports it), not error
    cut = {"text": "An endless rewrite", "finish_reason": "length"}
    rewriter = {"name": "cut", "kind": "latex-project", "model": "mock/cut", "conditions": ["novelty:-"],
                "options": {"script": [cut, cut]}, "project": {"max_paragraphs_per_file": 1}}
    runner = _run(tmp_path, shared_data, monkeypatch, ("gcrn_iclr2017",), [rewriter])
    [(key, status, reason)] = _rows(runner.run_dir, "SELECT unit_key, status, reason FROM variants")
    assert (status, reason) == ("truncated", "paragraph rewrite: truncated: finish_reason=length")
    seeds = _rows(runner.run_dir, f"SELECT status, params_json FROM model_calls WHERE unit_key = '{key}' ORDER BY call_id")
    assert [(s, json.loads(p)["seed"]) for s, p in seeds] == [("truncated", 0), ("truncated", 1)]


def test_guided_review_reads_at_most_the_words_it_is_given(tmp_path, shared_data, monkeypatch):
    rewriter = _agent("script", "wording", ["joint", "guided"])
    rewriter["project"]["review_max_input_words"] = 100
    runner = _run(tmp_path, shared_data, monkeypatch, ("gcrn_iclr2017",), [rewriter])
    [(key,)] = _rows(runner.run_dir, "SELECT unit_key FROM variants WHERE condition = 'guided' AND status = 'ok'")
    review = json.loads((variant_dir(runner.run_dir, key) / "review.json").read_text())
    assert review["status"] == "ok" and review["input_truncated"] is True  # gcrn's text is far over 100 words
    [(joint,)] = _rows(runner.run_dir, "SELECT unit_key FROM variants WHERE condition = 'joint'")
    [(variant_key, truncated, stored)] = _rows(runner.run_dir, "SELECT variant_key, input_truncated, record_json "
                                                               "FROM guided_reviews")
    assert (variant_key, truncated, json.loads(stored)) == (joint, 1, review)


def test_a_malformed_intermediate_review_is_kept_and_no_guided_rewrite_is_planned(tmp_path, shared_data, monkeypatch):
    import pandas as pd

    first = load_project(shared_data / "papers" / "gcrn_iclr2017").paragraphs()[0].text.strip()
    # joint: its one paragraph back unchanged (passes); guided: the review answers prose twice
    # (first answer and the repair call): malformed. A second rewrite would exhaust the script.
    rewriter = {"name": "scripted", "kind": "latex-project", "model": "mock/scripted", "conditions": ["joint", "guided"],
                "options": {"script": [first, "I liked it.", "Still no JSON."]}, "project": {"max_paragraphs_per_file": 1}}
    runner = _run(tmp_path, shared_data, monkeypatch, ("gcrn_iclr2017",), [rewriter])
    rows = {c: (k, s, r) for k, c, s, r in _rows(runner.run_dir, "SELECT unit_key, condition, status, reason FROM variants")}
    assert list(rows) == ["joint"] and rows["joint"][1:] == ("ok", None)  # no guided rewrite on a failed review
    [(key, variant_key, status, reason)] = _rows(runner.run_dir, "SELECT unit_key, variant_key, status, reason "
                                                                 "FROM guided_reviews")
    assert (variant_key, status) == (rows["joint"][0], "malformed") and reason
    assert _rows(runner.run_dir, f"SELECT COUNT(*) FROM model_calls WHERE unit_key = '{key}'") == [(2,)]
    assert [p.name for p in (runner.run_dir / "latex" / "variants").iterdir()] == [rows["joint"][0]]
    # the failed review is evidence: stored as its own unit, exported, in the report and its flow
    write_report(runner.run_dir, n_resamples=100)
    reviews = pd.read_csv(runner.run_dir / "tables" / "guided_reviews.csv")
    [record] = reviews.to_dict("records")
    assert (record["unit_key"], record["rewriter"], record["document_id"], record["arm"], record["status"]) == (
        key, "scripted", "gcrn_iclr2017", "guided", "malformed")
    review = json.loads(record["record_json"])
    assert (review["status"], review["raw_text"]) == ("malformed", "Still no JSON.")
    report = (runner.run_dir / "report.md").read_text()
    assert "Guided workflow: the rewriting model's review of the compiled joint variant" in report
    assert "| malformed " in report
    assert "guided review malformed: the guided rewrite was not made" in report


def test_workflows_need_their_upstream_condition_and_agents_a_command(tmp_path):
    from rhetorica.study.config import ConfigError, parse_study

    base = {"name": "s", "documents": [{"latex_project": "p"}], "reviewers": [{"name": "c", "kind": "control"}]}
    with pytest.raises(ConfigError, match="lists 'recursive:3' without 'recursive:2'"):
        parse_study({**base, "rewriters": [{"name": "r", "kind": "latex-project", "model": "mock/echo",
                                            "conditions": ["joint", "recursive:3"]}]})
    with pytest.raises(ConfigError, match="needs project.command"):
        parse_study({**base, "rewriters": [{"name": "r", "kind": "agent", "conditions": ["joint"]}]})
    with pytest.raises(ConfigError, match="needs a 'model' for 'guided'"):
        parse_study({**base, "rewriters": [{"name": "r", "kind": "agent", "conditions": ["joint", "guided"],
                                            "project": {"command": ["true"]}}]})


def _parse_rewriter(rewriter: dict, documents: list | None = None):
    from rhetorica.study.config import parse_study

    return parse_study({"name": "s", "documents": documents or [{"latex_project": "p"}],
                        "reviewers": [{"name": "c", "kind": "control"}], "rewriters": [rewriter]})


@pytest.mark.parametrize(("project", "problem"), [
    ({"command": ["true"], "instruction_via": "file"},
     "rewriter 'a' of kind 'agent' has project.instruction_via 'file' but no {instruction_file} in project.command "
     "to receive it"),
    ({"command": ["true", "{project}", "{instructions}"]},
     "rewriter 'a' of kind 'agent' has unknown placeholder(s) {instructions} in project.command (known: {project}, "
     "{instruction_file})"),
    ({"command": ["no-such-agent-program-xyz"]},
     "rewriter 'a' of kind 'agent' runs 'no-such-agent-program-xyz' (project.command), which is not found on PATH"),
    ({"command": ["/no/such/agent"]},
     "rewriter 'a' of kind 'agent' runs '/no/such/agent' (project.command), which is not an executable file"),
    ({"command": ["bin/agent"]},
     "rewriter 'a' of kind 'agent' runs the relative path 'bin/agent' (project.command): give an absolute path or a "
     "name on PATH (the agent runs in the project copy)"),
    ({"command": ["true"], "max_paragraphs_per_file": 2},
     "rewriter 'a' of kind 'agent' does not use project.max_paragraphs_per_file (a setting of the other project kind)"),
])
def test_agent_settings_are_checked_at_load(project, problem):
    from rhetorica.study.config import ConfigError

    with pytest.raises(ConfigError) as caught:
        _parse_rewriter({"name": "a", "kind": "agent", "conditions": ["joint"], "project": project})
    assert str(caught.value) == f"study: rewriters[0]: {problem}"
    assert _parse_rewriter({"name": "a", "kind": "agent", "conditions": ["joint"],
                            "project": {"command": [sys.executable, "{project}"], "instruction_via": "stdin"}})


def test_project_settings_on_another_kind_and_project_kinds_on_other_documents_are_load_errors():
    from rhetorica.study.config import ConfigError

    with pytest.raises(ConfigError) as caught:
        _parse_rewriter({"name": "l", "kind": "llm", "model": "mock/echo", "conditions": ["confidence:+"],
                         "project": {"repair_rounds": 1}})
    assert str(caught.value) == ("study: rewriters[0]: rewriter 'l' of kind 'llm' does not use 'project' settings "
                                 "(only the latex-project and agent kinds do)")
    with pytest.raises(ConfigError) as caught:
        _parse_rewriter({"name": "p", "kind": "latex-project", "model": "mock/echo", "conditions": ["joint"]},
                        [{"latex_project": "p"}, {"path": "paper.tex"}])
    assert str(caught.value) == ("study: rewriters[0]: rewriter 'p' of kind 'latex-project' rewrites LaTeX projects "
                                 "only, but documents[1] (path 'paper.tex') is not a latex_project entry")


def test_a_rewrite_that_changes_nothing_is_discarded_not_reviewed(tmp_path, shared_data, monkeypatch):
    # the mock echoes each paragraph back; the no-op agent edits nothing
    echo = {"name": "echo", "kind": "latex-project", "model": "mock/echo", "conditions": ["scope:-"],
            "project": {"max_paragraphs_per_file": 2, "repair_rounds": 1}}
    noop = {"name": "noop", "kind": "agent", "conditions": ["scope:-"],
            "project": {"command": [sys.executable, "-c", "pass"], "repair_rounds": 0}}
    runner = _run(tmp_path, shared_data, monkeypatch, ("gcrn_iclr2017",), [echo, noop])
    rows = _rows(runner.run_dir, "SELECT rewriter, status, reason, unit_key FROM variants ORDER BY rewriter")
    assert [r[:3] for r in rows] == [("echo", "discarded", "the rewrite changed nothing"),
                                     ("noop", "discarded", "the rewrite changed nothing")]
    echo_key = rows[0][3]
    # the repair was told, and sent every chosen paragraph again: 2 + 2 calls
    assert _rows(runner.run_dir, f"SELECT COUNT(*) FROM model_calls WHERE unit_key = '{echo_key}'") == [(4,)]
    result = json.loads((variant_dir(runner.run_dir, echo_key) / "result.json").read_text())
    assert [(a["messages"], a["compiled"]) for a in result["attempts"]] == [(["the rewrite changed nothing"], None)] * 2
    assert _rows(runner.run_dir, "SELECT DISTINCT condition FROM assessments") == [("original",)]



def test_a_saved_study_json_with_every_setting_parses_again():
    # study.json holds every field, defaults included: a default 'project' block on an llm rewriter
    # and the agent-only defaults on a latex-project rewriter are not settings the user gave
    from rhetorica.study.config import StudyConfig, parse_study

    first = _parse_rewriter({"name": "p", "kind": "latex-project", "model": "mock/echo", "conditions": ["joint"],
                             "project": {"max_paragraphs_per_file": 2}})
    second = StudyConfig.model_validate_json(first.model_dump_json())
    assert second.rewriters[0].project.max_paragraphs_per_file == 2
    llm = parse_study({"name": "s", "documents": [{"path": "paper.md"}],
                       "rewriters": [{"name": "l", "kind": "llm", "model": "mock/echo", "conditions": ["confidence:+"]}],
                       "reviewers": [{"name": "c", "kind": "control"}]})
    assert parse_study(json.loads(llm.model_dump_json())).rewriters[0].kind == "llm"


def test_an_identity_url_split_across_lines_reaches_no_reviewer(tmp_path, shared_data, monkeypatch):
    # issue 24 §1/§3: a URL broken across a line survived in the compiled-PDF text every reviewer read.
    # Planted in a copy of a shared project: in the abstract as "https:" + line break + "//github...",
    # in a footnote hyphenated across a line ("md-" + line break + "eff"). mdeff is the second
    # author's account (initial + start of the surname, Michaël Defferrard).
    data = tmp_path / "data"
    shutil.copytree(shared_data / "papers" / "gcrn_iclr2017", data / "papers" / "gcrn_iclr2017")
    tex = data / "papers" / "gcrn_iclr2017" / "paper.tex"
    source = tex.read_text()
    abstract_line = "\tdata structured by an arbitrary graph. \n"
    footnoted = "Many real-world data can be cast as structured sequences"
    assert source.count(abstract_line) == 1 and source.count(footnoted) == 1
    source = source.replace(abstract_line, "\tdata structured by an arbitrary graph. Our code is available at https:\n"
                                           "\t//github.com/mdeff/stgcrn-code.\n")
    source = source.replace(footnoted, "Many real-world data\\footnote{Code and data: github.com/md-\neff/stgcrn-code} "
                                       "can be cast as structured sequences")
    tex.write_text(source)
    runner = _run(tmp_path, data, monkeypatch, ("gcrn_iclr2017",),
                  [_agent("script", "wording", ["novelty:+", "joint", "guided"])])
    run_dir = runner.run_dir
    assert {s for (s,) in _rows(run_dir, "SELECT status FROM variants")} == {"ok"}
    inputs = _rows(run_dir, "SELECT u.unit_key, u.role, i.text, i.removed_json FROM unit_inputs u "
                            "JOIN reviewer_inputs i ON i.input_hash = u.input_hash")
    reviews = _rows(run_dir, "SELECT unit_key FROM assessments")
    assert len(reviews) == 2 * 4  # the original and three variants, two protocols
    # every review and the guided workflow's intermediate review and feedback kept what they read
    assert {k for (k,) in reviews} <= {k for k, _, _, _ in inputs}
    assert {r for _, r, _, _ in inputs} == {"manuscript", "guided feedback"}
    for _, _, text, removed in inputs:
        squeezed = re.sub(r"[\s\-]", "", text).lower()  # no trace, however the PDF broke the line
        assert "mdeff" not in squeezed and "stgcrn" not in squeezed
    # the audit of each manuscript the reviewers read names both removals and why
    manuscripts = [json.loads(removed) for _, role, _, removed in inputs if role == "manuscript"]
    for audit in manuscripts:
        urls = [r for r in audit if r["item"] == "identity URL" and "stgcrn" in r["text"]]
        assert len(urls) == 2 and {r["reason"] for r in urls} == {"github.com account of an author"}
        assert any(r["text"].startswith("https: //github.com/mdeff") for r in urls)


def test_an_expl3_shell_command_and_a_pipe_test_are_refused_with_their_lines(tmp_path, shared_data, monkeypatch):
    """Issue 35: both passed as ok variants before; now each is discarded, never reviewed, with the
    new commands and the pipe named on the line the agent added them (after the first paragraph)."""
    paper = "gcrn_iclr2017"
    rewriters = [_agent("expl3", "attempt:expl3-shell-now", ["novelty:+"]),
                 _agent("pipe-test", "attempt:iffileexists-pipe", ["novelty:+"])]
    runner = _run(tmp_path, shared_data, monkeypatch, (paper,), rewriters)
    first = load_project(shared_data / "papers" / paper).paragraphs()[0]
    at = f"{first.file}:{first.end_line + 1}"
    rule = ("a rewrite may use only the commands and environments the original's text uses, and prose markup "
            "(\\emph, \\textbf, \\footnote, ...)")
    expected = {
        "expl3": " | ".join(f"{at}: command: new command '{name}': {rule}"
                            for name in ("\\ExplSyntaxOn", "\\sys", "\\ExplSyntaxOff")),
        "pipe-test": (f"{at}: command: new command '\\IfFileExists': {rule} | "
                      f"{at}: dangerous: '{{|\"touch pwned\"' names a pipe: a file name starting with '|' is a shell "
                      "command (run whenever shell escape is on)"),
    }
    rows = _rows(runner.run_dir, "SELECT rewriter, status, reason FROM variants")
    assert {r: (s, reason) for r, s, reason in rows} == {name: ("discarded", reason) for name, reason in expected.items()}
    assert _rows(runner.run_dir, "SELECT DISTINCT condition FROM assessments") == [("original",)]


def test_a_pdf_reviewer_reviews_every_accepted_latex_variant_from_its_blinded_pdf(tmp_path, shared_data, monkeypatch):
    """Issue 35 item 4: six dimensions, one condition each; a ``command`` reviewer with ``input: pdf``
    copies every PDF it is given. All 7 (the original and 6 variants) are reviewed from a PDF, none
    naming an author or an email (pypdf: text layer, document information, link targets)."""
    from pypdf import PdfReader

    from tests.reviewers.external.helpers import ICLR_JSON

    received = tmp_path / "received"
    received.mkdir()
    code = ("import shutil, sys, uuid; shutil.copy(sys.argv[1], sys.argv[2] + '/' + uuid.uuid4().hex + '.pdf'); "
            f"print({ICLR_JSON!r})")
    reader = {"name": "pdf-reader", "kind": "command",
              "options": {"input": "pdf", "args": [sys.executable, "-c", code, "{input}", str(received)]}}
    six = [c for c in TWELVE if c.endswith(":+")]
    assert len(six) == 6
    runner = _run(tmp_path, shared_data, monkeypatch, ("gcrn_iclr2017",), [_agent("script", "tagged", six)], [reader])
    variants = _rows(runner.run_dir, "SELECT condition, status FROM variants")
    assert sorted(variants) == sorted((c, "ok") for c in six)
    assessed = _rows(runner.run_dir, "SELECT condition, status FROM assessments")
    assert sorted(assessed) == sorted([("original", "ok")] + [(c, "ok") for c in six])
    assert len({h for (h,) in _rows(runner.run_dir, "SELECT content_hash FROM variants")}) == 6  # all distinct
    pdfs = sorted(received.iterdir())
    assert len(pdfs) == 7

    def everything(pdf: Path) -> str:  # text layer, document information and link targets, folded
        found = PdfReader(pdf)
        parts = [page.extract_text() or "" for page in found.pages]
        parts += [str(v) for v in (found.metadata or {}).values()]
        parts += [str(a.get_object().get("/A", {}).get("/URI", "")) for page in found.pages for a in page.get("/Annots") or []]
        return re.sub(r"[^0-9a-z]", "", " ".join(parts).casefold())

    # the author block's full names and emails (the references cite "P. Vandergheynst" as anyone else)
    traces = ["Yougjoo Seo", "Pierre Vandergheynst", "Xavier Bresson", "youngjoo.seo", "pierre.vandergheynst",
              "xbresson@ntu.edu.sg", "epfl.ch"]
    folded = [re.sub(r"[^0-9a-z]", "", t.casefold()) for t in traces]
    (baseline,) = (runner.run_dir / "latex" / "baselines").glob("*/paper.pdf")
    assert all(t in everything(baseline) for t in folded)  # the compiled original names them all
    for pdf in pdfs:
        text = everything(pdf)
        assert "graphconvolutionalrecurrent" in text  # the paper is there
        assert [t for t, f in zip(traces, folded) if f in text] == [], pdf.name
