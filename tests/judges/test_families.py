"""Metric families: the study's 29 content metrics, scales, bounds, rubrics, consistency."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.forms import FormError
from rhetorica.judges.families import (
    FAMILIES, REMOR, REVIEWEVAL, ROTTENREVIEWS, SCHOLARPEER, STUDY_FAMILIES, FamilyError, get_family, study_bounds,
)
from rhetorica.registry import metric_families


def test_study_families_count_to_the_papers_29_content_metrics() -> None:
    counts = {name: len(get_family(name).content_metrics) for name in STUDY_FAMILIES}
    assert counts == {"revieweval": 8, "remor": 7, "rottenreviews": 9, "scholarpeer": 5}
    assert sum(counts.values()) == 29
    assert len(study_bounds()) == 29
    assert "revutil" in FAMILIES and "revutil" not in STUDY_FAMILIES


def test_style_metrics_are_declared_but_not_content() -> None:
    style = {(f.name, m.name) for f in FAMILIES.values() for m in f.form.metrics if m.role == "style"}
    assert style == {("remor", "presentation_reporting"), ("rottenreviews", "technical_terms"),
                     ("rottenreviews", "clarity")}
    assert "clarity" not in {m.name for m in ROTTENREVIEWS.content_metrics}


def test_registered_in_the_metric_family_registry() -> None:
    assert metric_families.get("remor") is REMOR
    assert get_family("scholarpeer").unit == "reference"


def test_declared_scales_reject_out_of_range_values() -> None:
    good = {"comprehensiveness": 5, "objectivity": 0, "fairness": 3, "actionability": 2, "constructiveness": 4,
            "relevance_alignment": 1, "overall_quality": 100, "factual": True, "vague": "no",
            "technical_terms": 2, "clarity": 3}
    assert ROTTENREVIEWS.form.check_scores(good)["overall_quality"] == 100.0
    with pytest.raises(FormError, match="overall_quality: 101 is outside its range 0..100"):
        ROTTENREVIEWS.form.check_scores(good | {"overall_quality": 101})
    with pytest.raises(FormError, match="fairness: 2.5 is not a whole number"):
        ROTTENREVIEWS.form.check_scores(good | {"fairness": 2.5})
    with pytest.raises(FormError, match="criticism: 1.2 is outside"):
        REMOR.form.check_scores({m: 0.5 for m in REMOR.form.metric_names} | {"criticism": 1.2})


def test_equivalence_bounds_declared_and_overridable() -> None:
    assert study_bounds()["rottenreviews.overall_quality"] == 10.0
    assert study_bounds()["revieweval.literature_comparison"] == 0.3
    assert study_bounds(overrides={"remor.praise": 0.05})["remor.praise"] == 0.05
    with pytest.raises(FamilyError, match="no content metric 'remor.presentation_reporting'"):
        study_bounds(overrides={"remor.presentation_reporting": 0.2})
    with pytest.raises(FamilyError, match="must be > 0"):
        SCHOLARPEER.equivalence_bounds({"overall": 0})


def test_insight_counts_must_be_consistent() -> None:
    REVIEWEVAL.check_consistency({"actionable_insights": 3, "total_insights": 3})
    with pytest.raises(FormError, match=r"actionable_insights \(4\) exceeds total_insights \(3\)"):
        REVIEWEVAL.check_consistency({"actionable_insights": 4, "total_insights": 3})


def test_shipped_rubrics_cite_their_paper_and_name_every_metric() -> None:
    for family in FAMILIES.values():
        text = family.rubric()
        author = family.citation.split()[0].rstrip(",")
        assert author in text, family.name
        for metric in (family.point_form or family.form).metrics:
            assert metric.name in text, (family.name, metric.name)


def test_user_rubric_file_changes_the_version(tmp_path: Path) -> None:
    own = tmp_path / "original_prompt.txt"
    own.write_text("Rate the review's criticism.", encoding="utf-8")
    assert REMOR.rubric(own) == "Rate the review's criticism."
    assert REMOR.rubric_version(own).startswith("user:") and REMOR.rubric_version().startswith("v1:")
    (tmp_path / "empty.txt").write_text("  \n", encoding="utf-8")
    with pytest.raises(FamilyError, match="empty.txt: empty"):
        REMOR.rubric(tmp_path / "empty.txt")
