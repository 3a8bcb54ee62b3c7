"""Impossible combinations of review pieces and documents are refused when the study is loaded
(issue 23.6): one line naming the keys, exit 2 from the CLI, nothing run."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.study.config import ConfigError, parse_study

JUDGE = {"name": "j", "kind": "judge", "model": "mock/j", "options": {"family": "remor"}}


def study(documents: list[dict], rewriter_kind: str, reviewers: list[dict] | None = None) -> dict:
    return {"name": "s", "documents": documents,
            "rewriters": [{"name": "rw", "kind": rewriter_kind, "conditions": ["paraphrase"],
                           **({"model": "mock/m"} if rewriter_kind == "review" else {})}],
            "reviewers": reviewers or [JUDGE]}


def test_imported_rewriter_needs_pairs_entries() -> None:
    with pytest.raises(ConfigError) as err:
        parse_study(study([{"pairs": "p.jsonl"}, {"reviews": "r.md"}], "imported"), source="s.yaml")
    assert str(err.value) == ("s.yaml: rewriters[0].kind: rewriter 'rw' of kind 'imported' stores the rewrites of "
                              "'pairs' entries and has none to store for documents[1].reviews ('r.md'); use a pairs "
                              "entry, or another rewriter kind")
    assert parse_study(study([{"pairs": "p.jsonl"}], "imported")).rewriters[0].kind == "imported"


def test_review_rewriter_and_judge_need_review_documents() -> None:
    with pytest.raises(ConfigError, match=r"s: rewriters\[0\]\.kind: rewriter 'rw' of kind 'review' rewrites review "
                                          r"documents and cannot rewrite documents\[0\]\.path \('paper\.md'\)"):
        parse_study(study([{"path": "paper.md"}], "review"), source="s")
    with pytest.raises(ConfigError, match=r"s: reviewers\[0\]\.kind: reviewer 'j' of kind 'judge' scores reviews, "
                                          r"and documents\[0\]\.path \('paper\.md'\) is a manuscript"):
        parse_study({"name": "s", "documents": [{"path": "paper.md"}], "reviewers": [JUDGE]}, source="s")
    assert parse_study(study([{"reviews": "r.md"}], "review")).reviewers[0].kind == "judge"


def test_the_cli_exits_2_before_running_anything(tmp_path: Path) -> None:
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study([{"reviews": "r.md"}], "imported") | {"output_dir": str(tmp_path / "run")}),
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 2
    assert "rewriters[0].kind: rewriter 'rw' of kind 'imported'" in " ".join(result.output.split())
    assert not (tmp_path / "run").exists()
