"""The example plug-in package, installed into a private folder: listed, its evaluator and its
condition usable from a study without touching rhetorica's code."""

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
                    ("condition", "readability:-"): "rhetorica-example-plugin"}
    assert rows[("dimension", "readability")]["description"] == ("shift measure: minus Gunning Fog index "
                                                                 "(Gunning 1952)")
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
    assert "rewriters[0].conditions: unknown condition 'readability:+'; known: complexity:+, complexity:-, " in message
    assert "reviewers[0].kind: unknown evaluator 'example-command'; known: command, control, " in message
