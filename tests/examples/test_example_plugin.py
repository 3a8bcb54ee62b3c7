"""The example plug-in package, installed into a private folder: listed, its evaluator, its
condition and its dimension usable from a study without touching rhetorica's code."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from rhetorica.study.config import ConfigError, load_study
from tests.examples.plugin_install import PLUGIN, run_python


def test_rhetorica_list_shows_the_plugin_components_with_its_package_as_source(plugin_dir: Path) -> None:
    result = run_python(["-m", "rhetorica", "list", "--json"], plugin_dir)
    assert result.returncode == 0, result.stderr
    rows = {(r["kind"], r["name"]): r for r in json.loads(result.stdout)}
    ours = {key: row["source"] for key, row in rows.items() if row["source"] != "rhetorica"}
    assert ours == {("evaluator", "example-command"): "rhetorica-example-plugin",
                    ("evaluator", "lexicon"): "rhetorica-example-plugin",
                    ("dimension", "readability"): "rhetorica-example-plugin",
                    ("condition", "readability:+"): "rhetorica-example-plugin",
                    ("condition", "readability:-"): "rhetorica-example-plugin",
                    ("dimension", "formality"): "rhetorica-example-plugin",
                    ("condition", "formality:+"): "rhetorica-example-plugin",
                    ("condition", "formality:-"): "rhetorica-example-plugin",
                    ("provider", "example-scripted"): "rhetorica-example-plugin",
                    ("batch api", "example-scripted"): "rhetorica-example-plugin",
                    ("analysis table", "median_shift"): "rhetorica-example-plugin",
                    ("recipe", "biased-control"): "rhetorica-example-plugin",
                    ("recipe data step", "local-papers"): "rhetorica-example-plugin"}
    assert rows[("dimension", "readability")]["description"] == ("shift measure: minus Gunning Fog index "
                                                                 "(Gunning 1952)")
    assert rows[("dimension", "formality")]["description"] == "shift measure: (formal - informal markers)/1k"
    table = run_python(["-m", "rhetorica", "list", "--kind", "evaluator"], plugin_dir)
    assert table.returncode == 0 and "example-command" in table.stdout and "rhetorica-example-plugin" in table.stdout


# Runs inside the subprocess: the evaluator on a hand-made manuscript, under five commands.
_EVALUATE = textwrap.dedent('''
    import asyncio, json, sys
    from rhetorica.documents.models import Document, DocumentSource, Section
    from rhetorica.evaluation import Evaluator, Target
    from rhetorica.models.call import CallContext
    from rhetorica.registry import evaluators

    doc = Document(id="p", sections=[Section(title="Results", text=(
        "We trained 3 models. Each reached 91% accuracy. The third took 2 days. Nothing else changed."))],
        source=DocumentSource(path="x", parser="t", parser_version="0"))
    target = Target(document=doc, document_id="p", condition="original", rewriter="none", variant_key=None,
                    replicate=0)
    py = sys.executable
    commands = {
        "default": None,
        "malformed": [py, "-c", "print('{\\"overall\\": 11}')"],
        "error": [py, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"],
        "empty": [py, "-c", "pass"],
        "timeout": [py, "-c", "import time; time.sleep(5)"],
    }
    out = {}
    for label, command in commands.items():
        limit = 0.5 if label == "timeout" else 30
        evaluator = evaluators.get("example-command")("toy", command=command, timeout_s=limit)
        assert isinstance(evaluator, Evaluator)
        result = asyncio.run(evaluator.evaluate(target, CallContext()))
        out[label] = {"status": str(result.status), "reason": result.reason, "scores": result.scores}
    out["spec"] = evaluators.get("example-command")("toy").spec()
    print(json.dumps(out))
''')


def test_command_evaluator_reads_the_review_and_turns_failures_into_statuses(plugin_dir: Path) -> None:
    result = run_python(["-c", _EVALUATE], plugin_dir)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    # 4 sentences (the section heading joins the first), 3 with a digit: share 0.75 ->
    # overall 1 + round(6.75) = 8, evidence 1 + round(2.25) = 3.
    assert out["default"] == {"status": "ok", "reason": None, "scores": {
        "overall": 8.0, "soundness": 2.0, "significance": 2.0, "evidence": 3.0, "clarity": 2.0, "confidence": 1.0}}
    assert out["malformed"]["status"] == "malformed"
    assert "overall" in out["malformed"]["reason"] and out["malformed"]["scores"] == {}
    assert out["error"] == {"status": "error", "reason": "exit status 3: boom", "scores": {}}
    assert out["empty"] == {"status": "empty", "reason": "the command printed nothing", "scores": {}}
    assert out["timeout"] == {"status": "timeout", "reason": "no answer within 0.5 s", "scores": {}}
    spec = out["spec"]
    assert (spec["kind"], spec["script"], spec["form"], len(spec["script_sha256"])) == (
        "example-command", "rhetorica_example_plugin.reviewer_script", "review-000", 64)


_CONDITION = textwrap.dedent('''
    import json
    from rhetorica.rewriting.conditions import parse_condition, system_prompt
    from rhetorica.study.config import load_study
    from rhetorica.validation.shift import shift_checks
    from rhetorica.validation.validate import TextMeasures

    def fog(value):
        return TextMeasures(words=100, sentences=5, mtld=80.0, advanced_guiraud=5.0, gunning_fog=value,
                            hedges=1, boosters=1, hedges_per_1k=10.0, boosters_per_1k=10.0)

    (check,) = shift_checks("readability:+", fog(14.0), fog(11.5))
    config, _ = load_study(STUDY)
    print(json.dumps({
        "condition": parse_condition("readability:+|confidence:-").description,
        "prompt_has_plugin_text": "Style target: plainer prose." in system_prompt("readability:+"),
        "shift": [check.measure, check.original, check.variant, check.present],
        "minus_falls": shift_checks("readability:-", fog(14.0), fog(11.5))[0].present,
        "reviewers": [[r.name, r.kind, r.model_id] for r in config.reviewers],
        "conditions": config.conditions,
    }))
''')


def test_the_plugin_condition_has_its_instruction_and_shift_rule_and_the_study_loads(plugin_dir: Path) -> None:
    result = run_python(["-c", f"STUDY = {str(PLUGIN / 'study.yaml')!r}\n" + _CONDITION], plugin_dir)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["condition"] == ("plainer prose (Gunning Fog falls) + low expressed confidence "
                                "(more hedges, fewer boosters)")
    assert out["prompt_has_plugin_text"] is True
    assert out["shift"] == ["minus Gunning Fog index", -14.0, -11.5, True]  # Fog 14 -> 11.5 is plainer
    assert out["minus_falls"] is False
    assert out["reviewers"] == [["toy-command", "example-command", "example-command"],
                                ["null-control", "control", "control"]]
    assert out["conditions"] == ["readability:+"]


def test_without_the_plugin_its_names_are_errors_listing_the_known_ones() -> None:
    with pytest.raises(ConfigError) as caught:
        load_study(PLUGIN / "study.yaml")
    message = str(caught.value)
    assert "rewriters[0].conditions: unknown condition 'readability:+'; known: attack:+, attack:-, complexity:+, complexity:-, " in message
    assert "reviewers[0].kind: unknown evaluator 'example-command'; known: command, control, " in message


# Runs inside the subprocess: a study on the plug-in's formality:+ (a scripted rewrite, a control
# reviewer), validated with a constant embedder, then its report and the viewer's paper page.
_FORMALITY = textwrap.dedent('''
    import asyncio, json, sys
    from pathlib import Path
    import numpy as np
    import pandas as pd
    from rhetorica.report.render import write_report
    from rhetorica.report.viewer.pages import paper
    from rhetorica.rewriting.conditions import system_prompt
    from rhetorica.store.runs import STUDY_FILE, open_run_store
    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner

    class ConstantEmbedder:
        name, max_tokens = "constant", 512
        def count_tokens(self, text):
            return len(text.split())
        def embed(self, texts):
            return np.ones((len(texts), 4), dtype=np.float32) / 2.0

    tmp = Path(sys.argv[1])
    spec = {"name": "formality", "output_dir": str(tmp / "run"), "documents": [{"path": str(tmp / "paper.md")}],
            "rewriters": [{"name": "scripted", "kind": "llm", "model": "mock/formal", "conditions": ["formality:+"],
                           "options": {"script": [FORMAL]}}],
            "reviewers": [{"name": "null-control", "kind": "control", "options": {"noise_sd": 0.5}}],
            "replicates": 1, "validation": {"enabled": True}}
    config = parse_study(spec)
    runner = StudyRunner(config, tmp, embedder=ConstantEmbedder())
    (runner.run_dir / STUDY_FILE).write_text(config.model_dump_json(indent=2), encoding="utf-8")
    try:
        summary = asyncio.run(runner.run())
    finally:
        runner.store.close()
    write_report(runner.run_dir, n_resamples=200)
    store = open_run_store(runner.run_dir)
    try:
        (result,) = [json.loads(r[0]) for r in store.rows("SELECT result_json FROM checks")]
        page = paper(store, runner.run_dir, {"doc": ["paper"]})
    finally:
        store.close()
    shift = pd.read_csv(runner.run_dir / "tables" / "shift_checks.csv")
    print(json.dumps({
        "units": [summary.units_run, summary.model_calls],
        "prompt_has_plugin_text": "Style target: formal academic prose." in system_prompt("formality:+"),
        "measured": [result["original"]["dimensions"]["formality"], result["variant"]["dimensions"]["formality"]],
        "lexicon": result["variant"]["lexicon_versions"]["formality"],
        "passed": result["passed"], "reasons": result["reasons"],
        "table": shift[["condition", "part", "dimension", "direction", "measure", "present"]].to_dict("records"),
        "values": shift[["original", "variant"]].values.tolist(),
        "viewer": [v["check"]["shift"] for v in page["variants"]],
    }))
''')

INFORMAL = ("We got a lot of gains on the three datasets and it is pretty clear that the model works. We really think "
            "the results show that the method gets better accuracy than the baseline on all the things we tried.")
FORMAL = ("We obtained substantial gains on the three datasets; therefore, it is clear that the model works. Moreover, "
          "the results demonstrate that the method obtains better accuracy than the baseline on all the datasets we "
          "investigated.")


def test_a_study_on_the_plugin_dimension_runs_and_its_measure_reaches_checks_tables_and_viewer(
        plugin_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "paper.md").write_text(f"# Graph models\n\n## Results\n\n{INFORMAL}\n", encoding="utf-8")
    script = f"FORMAL = {FORMAL!r}\n" + _FORMALITY
    result = run_python(["-c", script, str(tmp_path)], plugin_dir)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    # rewrite, its check, the control's review of the original and of the variant; one model call
    assert out["units"] == [4, 1]
    assert out["prompt_has_plugin_text"] is True
    # informal: 40 words, 0 formal, 6 informal (got, a lot, pretty, really, gets, things): -6000/40;
    # formal: 35 words, 4 formal (therefore, moreover, demonstrate, obtains), 0 informal: 4000/35
    assert out["measured"] == [pytest.approx(-150.0), pytest.approx(4000 / 35)]
    assert out["lexicon"] == "1.0"
    assert out["passed"] is True and out["reasons"] == []
    assert out["table"] == [{"condition": "formality:+", "part": "formality:+", "dimension": "formality",
                             "direction": "+", "measure": "(formal - informal markers)/1k", "present": True}]
    assert out["values"] == [[pytest.approx(-150.0), pytest.approx(4000 / 35)]]
    assert out["viewer"] == [["(formal - informal markers)/1k: -150.00 → 114.29"]]
