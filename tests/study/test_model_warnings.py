"""Warnings at load about provider options that override what rhetorica negotiates or sets."""

from __future__ import annotations

from rhetorica.study.config import parse_study
from rhetorica.study.model_warnings import option_warnings


def test_extra_body_response_format_is_warned_about_once_per_configuration():
    config = parse_study({
        "name": "w", "documents": ["x.md"],
        "models": {"served": {"provider": "openai-compatible", "model": "m",
                              "options": {"extra_body": {"response_format": {"type": "json_object"}}},
                              "endpoints": [{"base_url": "http://127.0.0.1:9/v1"}]}},
        "reviewers": [
            {"name": "inline", "model": "openai-compatible/m@http://127.0.0.1:9/v1",
             "options": {"extra_body": {"response_format": {"type": "json_object"}, "top_k": 5}}},
            {"name": "declared", "model": "served"},
            {"name": "plain", "model": "openai-compatible/m@http://127.0.0.1:9/v1", "protocol": "brief"},
            {"name": "control", "kind": "control"},
        ]})
    found = option_warnings(config)
    assert [(stage, item) for stage, item, _ in found] == [("study", "reviewer inline"), ("study", "reviewer declared")]
    assert all(reason.startswith("warning: options.extra_body.response_format overrides") for _, _, reason in found)


def test_rhetorica_run_prints_the_warning_at_load_before_any_unit(tmp_path, monkeypatch):
    import yaml
    from typer.testing import CliRunner

    from rhetorica.cli.app import app

    monkeypatch.setenv("COLUMNS", "300")
    study = tmp_path / "study.yaml"
    study.write_text(yaml.safe_dump({
        "name": "w", "output_dir": str(tmp_path / "run"), "documents": [str(tmp_path / "missing.md")],
        "reviewers": [{"name": "inline", "model": "openai-compatible/m@http://127.0.0.1:9/v1",
                       "options": {"extra_body": {"response_format": {"type": "json_object"}}}}]}))
    result = CliRunner().invoke(app, ["run", str(study)])
    lines = result.output.splitlines()
    warned = [i for i, line in enumerate(lines) if "reviewer inline: options.extra_body.response_format overrides" in line]
    unreadable = [i for i, line in enumerate(lines) if "missing.md" in line]
    # once at load, once again with the run's problems; the first comes before the unreadable input is told
    assert len(warned) == 2 and unreadable and warned[0] < unreadable[0], result.output
    assert result.exit_code == 1
