"""``rhetorica list``: the built-in components with kind, name, source and description."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()


def test_json_lists_every_kind_of_built_in() -> None:
    result = runner.invoke(app, ["list", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    names = {(r["kind"], r["name"]) for r in rows}
    assert {("rewriter", "rule-based"), ("rewriter", "llm"), ("rewriter", "injection"),
            ("dimension", "confidence"), ("dimension", "proficiency"), ("dimension", "injection"),
            ("condition", "confidence:+"), ("condition", "proficiency:-"),
            ("protocol", "strict"), ("form", "iclr-2026"), ("provider", "openai-compatible")} <= names
    rule = next(r for r in rows if (r["kind"], r["name"]) == ("rewriter", "rule-based"))
    assert rule == {"kind": "rewriter", "name": "rule-based", "source": "rhetorica",
                    "description": "deterministic confidence rewriter (hedge/booster rules)"}
    assert all(r["description"] for r in rows)


def test_kind_filter_and_table() -> None:
    result = runner.invoke(app, ["list", "--kind", "dimension", "--json"])
    assert result.exit_code == 0
    names = [r["name"] for r in json.loads(result.output)]
    assert names == sorted(names)  # every registered dimension, each once, in name order
    assert {"confidence", "proficiency", "injection", "novelty", "scope", "evidence", "contribution", "register",
            "complexity"} <= set(names)
    table = runner.invoke(app, ["list", "--kind", "protocol"])
    assert table.exit_code == 0 and "strict" in table.output and "Source" in table.output


def test_unknown_kind_exits_2_listing_the_kinds() -> None:
    result = runner.invoke(app, ["list", "--kind", "widgets"])
    assert result.exit_code == 2
    assert "unknown kind of component 'widgets'; known: analysis table, batch api, condition, dimension, evaluator, form" in result.output


def test_kind_spellings_with_hyphens_underscores_and_plurals_are_accepted() -> None:
    exact = runner.invoke(app, ["list", "--kind", "metric family", "--json"])
    assert exact.exit_code == 0, exact.output
    families = json.loads(exact.output)
    assert families and {r["kind"] for r in families} == {"metric family"}
    for spelling in ("metric-family", "metric_family", "Metric-Families", "metric families"):
        other = runner.invoke(app, ["list", "--kind", spelling, "--json"])
        assert other.exit_code == 0, (spelling, other.output)
        assert json.loads(other.output) == families
    evaluators = json.loads(runner.invoke(app, ["list", "--kind", "evaluators", "--json"]).output)
    assert {r["kind"] for r in evaluators} == {"evaluator"} and {"control", "python"} <= {r["name"] for r in evaluators}


def test_providers_are_listed_with_their_options() -> None:
    result = runner.invoke(app, ["list", "--kind", "provider", "--json"])
    assert result.exit_code == 0, result.output
    mock = next(r for r in json.loads(result.output) if r["name"] == "mock")
    assert mock["options"] == {"latency_s": "float (default 0.0)", "max_concurrency": "int (default 8)",
                               "script": "list[str | dict[str, Any]] | None (default None)"}


def test_listing_imports_no_provider_sdk() -> None:
    """``rhetorica list`` in a fresh interpreter lists every provider's options (read from the
    provider classes) without importing their SDKs: each provider module imports its SDK inside the
    calls that need it. Before, the three SDKs were imported (about 2 of the command's 4 s of CPU)."""
    import importlib.util

    from tests.cli.test_app_lazy import loaded_modules

    sdks = ("openai", "anthropic", "google.genai")
    assert all(importlib.util.find_spec(m) is not None for m in sdks)  # installed, so a listing could load them
    status, text, modules = loaded_modules("list", "--kind", "provider", "--json")
    assert status == 0
    rows = {r["name"]: r for r in json.loads(text)}
    for provider in ("openai", "openai-compatible", "anthropic", "google"):  # their classes were read
        assert "api_key_env" in rows[provider]["options"], provider
    assert "rhetorica.models.providers.anthropic_provider" in modules
    assert sorted(m for m in modules if any(m == s or m.startswith(s + ".") for s in sdks)) == []
