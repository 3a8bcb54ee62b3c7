"""The report's header names every reviewer configuration; the failure count splits units from
other problems."""

from __future__ import annotations

from pathlib import Path

from rhetorica.report.render import write_report
from rhetorica.study.config import parse_study

from .runs import make_run

RECORDS = [("m", "p1", "original", 5.0), ("m", "p1", "confidence:+", None),
           ("m", "p2", "original", 4.0), ("m", "p2", "confidence:+", 6.0)]


def _reviewers() -> list[dict]:
    """The reviewers as ``rhetorica run`` writes them to ``study.json``."""
    study = parse_study({
        "name": "s", "documents": ["papers/*"],
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
        "reviewers": [
            {"name": "ctl-null", "kind": "control"},
            {"name": "ctl-bias", "kind": "control", "options": {
                "noise_sd": 1, "bias_arm": "confidence:+", "preference_ratio": 3, "integer_scores": True,
                "failure_rate": 0.1}},
            {"name": "m", "model": "mock/reviewer", "protocol": "strict"},
        ]})
    return study.model_dump(mode="json")["reviewers"]


def test_control_reviewers_are_shown_as_control_with_their_settings(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", RECORDS, study={"reviewers": _reviewers()}, status={1: "malformed"})
    write_report(run)
    shown = ("Reviewers: ctl-null (control: noise_sd 0.5, bias_arm none, preference_ratio 1, integer_scores false, "
             "failure_rate 0); ctl-bias (control: noise_sd 1, bias_arm confidence:+, preference_ratio 3, "
             "integer_scores true, failure_rate 0.1); m (mock/reviewer, strict protocol, sampling: provider defaults).")
    assert f"<p>{shown}</p>" in (run / "report.html").read_text("utf-8")
    assert shown.replace("_", "\\_") in (run / "report.md").read_text("utf-8").splitlines()


def test_failures_count_units_and_other_problems_apart(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", RECORDS, status={1: "malformed"},
                   problems=[("ingest", "papers/a.tex", "error", "duplicate document path"),
                             ("budget", "s", "error", "budget reached")])
    data = write_report(run)
    assert len(data.failures) == 3 and data.failure_counts == (1, 2)
    assert data.failures_line() == "Failures: 1 unit(s) and 2 other problem(s) listed in the report."
