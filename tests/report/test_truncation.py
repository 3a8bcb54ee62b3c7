"""The report says which reviewer configurations read a manuscript cut by ``max_input_words``."""

from __future__ import annotations

from pathlib import Path

from rhetorica.report.render import write_report

from .runs import make_run, run_study
from .test_content import md_table


def test_cut_inputs_are_listed_per_reviewer_and_document(tmp_path: Path) -> None:
    records = [("short", "p1", "original", 5), ("short", "p1", "confidence:+", 6),  # 0, 1: both cut
               ("short", "p2", "original", 6), ("short", "p2", "confidence:+", None),  # 3 cut, refused
               ("full", "p1", "original", 5), ("full", "p1", "confidence:+", 5)]  # never cut
    study = {"reviewers": [{"name": "short", "model": "mock/r", "max_input_words": 400},
                           {"name": "full", "model": "mock/r"}]}
    run = make_run(tmp_path / "run", records, study=study, status={3: "refused"}, truncated={0, 1, 3},
                   titles={"p1": "Spectral graph networks"})
    write_report(run, n_resamples=20)
    md = (run / "report.md").read_text("utf-8")
    assert md.index("## Scorecard") < md.index("## Reviewer input cut by max_input_words") < md.index(
        "## Paired comparison")
    assert ("1 reviewer configuration(s) (short) read only the first 'Words kept' words of 2 document(s)"
            in md.replace("\\", ""))
    assert md_table(md, "Reviewer input cut by max_input_words") == [
        ["Reviewer", "Words kept", "Document", "Title", "Conditions cut", "Reviews cut", "Reviews"],
        ["short", "400", "p1", "Spectral graph networks", "confidence:+, original", "2", "2"],
        ["short", "400", "p2", "p2", "confidence:+", "1", "2"],
    ]


def test_no_cut_input_no_section(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("R", "p1", "original", 5), ("R", "p1", "confidence:+", 6)])
    write_report(run, n_resamples=20)
    assert "max_input_words" not in (run / "report.md").read_text("utf-8")


def test_a_study_with_max_input_words_reports_its_cut_inputs(tmp_path: Path, shared_data: Path) -> None:
    from ..study.helpers import study_dict

    # papers cut to 400 words at ingest; the reviewer reads 60 of them, so every review is of a cut input
    spec = study_dict(shared_data, tmp_path / "run", replicates=1, rewriters=[
        {"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}], reviewers=[
        {"name": "short", "model": "mock/reviewer", "max_input_words": 60}])
    run_dir = run_study(spec, Path.cwd())
    write_report(run_dir, n_resamples=20)
    rows = md_table((run_dir / "report.md").read_text("utf-8"), "Reviewer input cut by max_input_words")
    assert [r[:3] + r[4:] for r in rows[1:]] == [
        ["short", "60", doc, "confidence:+, original", "2", "2"]
        for doc in ("chebnet_nips2016", "fma_ismir2017", "gcrn_iclr2017")]
