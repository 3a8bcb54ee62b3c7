"""The built-in recipes: four registered files whose published numbers are those of the study texts.

The study texts are ``../shared/seeds/<id>_*.txt``; each published row's evidence must be an exact
string of its study's text and must hold every number of the row (so a mistyped value fails)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rhetorica.recipes.model import RecipeError, load_recipe
from rhetorica.registry import recipes

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
BUILTIN = {"style-over-substance": "000", "six-dimensions": "001", "judge-robustness": "003", "robustreview": "004"}


def _seed(study_id: str) -> str:
    found = sorted(SEEDS.glob(f"{study_id}_*.txt"))
    if not found:
        pytest.fail(f"study text {study_id} not found in {SEEDS}; tests need ../shared/seeds beside the repo")
    return found[0].read_text(encoding="utf-8")


def _written(value: int | float, evidence: str) -> bool:
    """Whether ``value`` is written in ``evidence``: an integer as a whole number, a decimal with
    1-3 decimals (its magnitude: the texts state a decrease as a positive amount)."""
    if isinstance(value, int):
        return re.search(rf"(?<![\d.]){value}(?![\d.])", evidence) is not None
    return any(f"{abs(value):.{d}f}" in evidence for d in (1, 2, 3))


def test_the_four_recipes_are_registered_with_their_study() -> None:
    assert {name: recipes.get(name).study_id for name in BUILTIN} == BUILTIN


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_published_numbers_are_the_study_texts(name: str) -> None:
    recipe = recipes.get(name)
    text = _seed(recipe.study_id)
    assert recipe.published, name
    for row in recipe.published:
        assert row.evidence in text, f"{name} {row.id}: evidence not in the study text: {row.evidence!r}"
        for stat, value in row.values.items():
            if isinstance(value, str) and value.startswith("<"):
                assert value in row.evidence, (row.id, stat)
            elif not isinstance(value, str):
                assert _written(value, row.evidence), (
                    f"{name} {row.id}: {stat} = {value} is not in its evidence {row.evidence!r}")
            else:  # a class or direction stated by a count or a sentence: the row says how it follows
                assert row.note or value.lower() in row.evidence.lower(), (row.id, stat)


def test_tables_carried_per_recipe() -> None:
    """What the note reports: the tables each recipe carries and how many values."""
    carried = {name: sorted({row.table for row in recipes.get(name).published}) for name in BUILTIN}
    assert carried["style-over-substance"] == [
        "Appendix C, per-reviewer Default vs Biased table", "Table 2", "Table 4", "Table 5", "Table 8"]
    assert carried["judge-robustness"] == ["Table 1"]
    counts = {name: sum(len(r.values) for r in recipes.get(name).published) for name in BUILTIN}
    # Table 4: 12 rows x 4 values; Table 8: 9 x 4; Table 5: 18 x 2; Table 2: 4 x 7; Appendix C: 6 x 3
    assert counts["style-over-substance"] == 48 + 36 + 36 + 28 + 18
    # 29 metric classes + 2 class counts + judge agreement + 2 shifts
    assert counts["judge-robustness"] == 34


def test_judge_recipe_classes_match_the_texts_counts() -> None:
    """23 sensitive and 6 robust of 29 (the study's counts), the robust ones those it names."""
    rows = [r for r in recipes.get("judge-robustness").published if r.measure.kind == "judge_class"]
    classes = [r.values["class"] for r in rows]
    assert (len(rows), classes.count("sensitive"), classes.count("robust")) == (29, 23, 6)
    assert {r.measure.select["metric"] for r in rows if r.values["class"] == "robust"} == {
        "revieweval.total_insights", "revieweval.actionable_insights", "revieweval.actionability_score",
        "remor.criticism", "remor.materials_methods", "remor.results_discussion"}


def test_a_bad_recipe_file_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad Name\nstudy_id: '9'\ntitle: t\ncitation: c\nsummary: s\nstudy: 'x'\n"
                   "data: {kind: openreview, full_size: 3}\n", encoding="utf-8")
    with pytest.raises(RecipeError, match=r"bad\.yaml: name: String should match pattern"):
        load_recipe(bad)
    bad.write_text("- a list\n", encoding="utf-8")
    with pytest.raises(RecipeError, match="a recipe is a YAML mapping"):
        load_recipe(bad)
