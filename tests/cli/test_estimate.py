"""``rhetorica estimate`` as a user sees it: a narrow terminal never cuts a model id or a number, and a
note about an input that was read (a file of review rewrites) is a warning with exit 0, while a line
left out is a problem with exit 1, as ``rhetorica run`` exits."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.study.estimate import estimate_study

runner = CliRunner()
MODEL = "openai-compatible/qwen@http://127.0.0.1:9/v1"
REWRITE_LINE = {"paper_id": 0, "reviews": [{"review_id": "r1", "original_text": "Weak baselines. " * 400,
                                            "text": "The baselines are weak. " * 400}]}


def write(tmp_path: Path, lines: list[bytes]) -> Path:
    (tmp_path / "reviews.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    study = {"name": "e", "output_dir": str(tmp_path / "run"), "documents": [{"reviews": "reviews.jsonl"}],
             "reviewers": [{"name": "j", "kind": "judge", "model": MODEL, "options": {"family": "remor"}}],
             "validation": {"enabled": False}}
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study), encoding="utf-8")
    return path


def test_a_narrow_terminal_shows_whole_model_ids_and_numbers(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    study = write(tmp_path, [json.dumps(REWRITE_LINE).encode()])
    row = estimate_study(study).rows[0]
    assert row.input_tokens >= 1000  # 800 words of review: a number with a thousands separator
    out = runner.invoke(app, ["estimate", str(study)], env={"COLUMNS": "80"})
    line = next(x for x in out.output.splitlines() if x.startswith("│ review"))
    cells = [c.strip() for c in line.strip("│").split("│")]
    assert cells[:5] == ["review", MODEL, "1", f"{row.input_tokens:,}", f"{row.output_tokens:,}"]
    assert "…" not in out.output


def test_a_rewrites_file_is_a_warning_and_a_refused_line_a_problem(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    study = write(tmp_path, [json.dumps(REWRITE_LINE).encode()])
    out = runner.invoke(app, ["estimate", str(study)], env={"COLUMNS": "200"})
    text = " ".join(out.output.split())
    assert out.exit_code == 0, out.output
    assert "warning reviews.jsonl: " in text and "1 of 1 review(s) are rewrites" in text and "problem" not in text
    bad = write(tmp_path, [json.dumps(REWRITE_LINE).encode(), json.dumps(REWRITE_LINE).encode()])
    out = runner.invoke(app, ["estimate", str(bad)], env={"COLUMNS": "200"})
    assert out.exit_code == 1
    assert f"problem reviews.jsonl: {tmp_path / 'reviews.jsonl'}:2: duplicate of line 1; left out" in out.output


def test_the_terms_of_the_bound_are_said(tmp_path: Path, monkeypatch) -> None:
    """One judge call on an OpenAI-compatible endpoint: the bound is that call, its repair, and the
    two structured-output modes the endpoint may reject (json_schema, json_object)."""
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    study = write(tmp_path, [json.dumps(REWRITE_LINE).encode()])
    out = runner.invoke(app, ["estimate", str(study)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "An upper bound: 4 calls = 1 planned + 1 repairs + 2 structured-output probes" in text
    assert "│ review repairs (at most)" in out.output and "│ structured-output probes (at most)" in out.output
