"""A dataset paper whose manifest scores are off the rating scale is one problem; the others load."""

from __future__ import annotations

from pathlib import Path

from rhetorica.study.config import DocumentSpec
from rhetorica.study.inputs import _dataset_specs


def test_a_paper_with_off_scale_human_scores_is_a_problem_of_that_paper_only(tmp_path: Path) -> None:
    for paper in ("p1", "p2"):
        (tmp_path / paper).mkdir()
        (tmp_path / paper / "paper.md").write_text("# Title\n\nText.\n", encoding="utf-8")
    (tmp_path / "manifest.yaml").write_text(
        "name: d\nsource: s\npapers:\n"
        "  - {id: p1, markdown: p1/paper.md, human_scores: [6, 8]}\n"
        "  - {id: p2, markdown: p2/paper.md, human_scores: [6, 99]}\n", encoding="utf-8")
    problems: list[tuple[str, str, str]] = []
    specs = _dataset_specs(DocumentSpec(dataset=str(tmp_path)), tmp_path, problems)
    assert [(s.id, s.human_scores) for s in specs] == [("p1", [6.0, 8.0])]
    assert len(problems) == 1
    stage, item, reason = problems[0]
    assert (stage, item) == ("ingest", f"{tmp_path}:p2")
    assert "99 outside the rating scale 1-10" in reason
