"""What a recipe is: a published study, reproducible in one command (ARCHITECTURE.md, "Plug-ins").

A recipe file (YAML; the built-in ones are package data under ``rhetorica/data/recipes``) holds

- ``parameters``: the models the paper used, left as parameters (``--reviewer openai/gpt-5-mini``);
- ``data``: the data step that builds the paper's corpus from public sources (a registered
  :data:`rhetorica.recipes.data_steps.DATA_STEPS` kind and its options) and what ``--sample N`` keeps;
- ``study``: the study template, a Jinja2 text rendered with the parameters and the data step's
  outputs into ``study.yaml``;
- ``design``: the paper's design, one line per aspect, so that the report can say where a run differs;
- ``published``: the paper's headline numbers as data, each with its table, its location in the
  text and the exact evidence string of the study text it was read from (checked by a test against
  ``shared/seeds``), and the measure of a run that is computed the same way
  (:mod:`rhetorica.recipes.comparison`).

Errors: :class:`RecipeError` names the file and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class RecipeError(ValueError):
    """A recipe file that cannot be used, or a recipe folder without its recipe (message names it)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Parameter(_Strict):
    """One parameter of the study template (a model, mostly).

    Attributes:
        default: the value the paper used, where a provider offers that model (``None``: required).
        help: what it is, for ``rhetorica recipe show`` and ``--help``.
    """

    default: str | None = None
    help: str = ""


class DataStep(_Strict):
    """How ``rhetorica recipe init`` builds the corpus (:mod:`rhetorica.recipes.data_steps`).

    Attributes:
        kind: a registered data step (``openreview``, ``review-pairs`` …).
        options: the step's options (venue, papers per bin, …), as the paper used them.
        full_size: units of the paper's corpus (papers, or reviews for a review study).
        unit: what ``full_size`` and ``--sample N`` count (``papers``, ``reviews``).
    """

    kind: str
    options: dict[str, Any] = Field(default_factory=dict)
    full_size: int = Field(ge=1)
    unit: str = "papers"


class Measure(_Strict):
    """The measure of a run that corresponds to a published number (:mod:`rhetorica.recipes.comparison`).

    Attributes:
        kind: ``paired`` (Table-4 comparison), ``conditional`` (Table 5), ``judge_class`` (judge
            Table 1 class), ``judge_shift`` (judge Table 1 mean difference), ``judge_agreement``
            (metrics two judges classify the same), ``change`` (change versus the original),
            ``robustness`` (RobustReview metrics), ``protocol_shift`` (mean overall score of one
            reviewer configuration minus another's on the originals), ``validation`` (Table 2).
        select: which rows of the run's table (column -> value; ``reviewer``, ``first``,
            ``second``, ``given``, ``metric``, ``condition`` …).
    """

    kind: str
    select: dict[str, Any] = Field(default_factory=dict)


class Published(_Strict):
    """One row of a published table, as data.

    Attributes:
        id: unique within the recipe.
        label: what the row is, in words (``Claude Sonnet 4.6, high vs low confidence``).
        table: the paper's table or figure (``Table 4``).
        location: where in the text (section); the plain-text copies carry no page numbers.
        design: the paper's set-up for this row (its reviewer model, prompt) when it differs from
            a run's (``Claude Sonnet 4.6, Default prompt``).
        evidence: an exact string of the study text (``shared/seeds``) that holds every numeric
            value (a class may be stated by a count; ``note`` then says how it follows).
        note: how a value follows from the evidence when the text does not state it row by row.
        values: statistic -> the published value (a number, or a text such as ``"<0.001"``,
            ``"robust"``).
        measure: the run's corresponding measure.
        agree: how a run's value is said to agree: ``class`` (equal text), ``direction`` (same
            side of ``null`` as the published value), ``interval`` (the published value inside the
            run's interval, else direction), ``significance`` (both below or both at/above 0.05).
        null: the no-effect value for ``direction`` (1 for a ratio, 0 for a difference).
    """

    id: str
    label: str
    table: str
    location: str
    design: str = ""
    evidence: str
    note: str = ""
    values: dict[str, int | float | str]
    measure: Measure
    agree: dict[str, Literal["class", "direction", "interval", "significance"]] = Field(default_factory=dict)
    null: float = 0.0


class Recipe(_Strict):
    """A published study as one file (see the module docstring).

    Attributes:
        name: the name users type (``judge-robustness``).
        study_id: the study's number in ``shared/STUDIES.md`` / ``shared/seeds`` (``003``).
        title: the paper's title.
        citation: authors/venue as the study text gives them (no sentence of it copied).
        summary: one line for ``rhetorica recipe list``.
        parameters: template parameters by name.
        data: the data step.
        design: the paper's design by aspect (``papers``, ``reviewers`` …) -> one line.
        study: the study template (Jinja2 text of a study YAML).
        published: the headline numbers.
        agreement: how the side-by-side summarises agreement (one sentence).
    """

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    study_id: str
    title: str
    citation: str
    summary: str
    parameters: dict[str, Parameter] = Field(default_factory=dict)
    data: DataStep
    design: dict[str, str] = Field(default_factory=dict)
    study: str
    published: list[Published] = Field(default_factory=list)
    agreement: str = ""

    @model_validator(mode="after")
    def _unique_ids(self) -> Recipe:
        seen: set[str] = set()
        for row in self.published:
            if row.id in seen:
                raise ValueError(f"published id {row.id!r} appears twice")
            seen.add(row.id)
            for stat in row.agree:
                if stat not in row.values:
                    raise ValueError(f"published {row.id!r}: agree names {stat!r}, which is not among its values")
        return self


def load_recipe(path: Path) -> Recipe:
    """Read and validate one recipe file.

    Raises:
        RecipeError: unreadable file, not YAML, or not a valid recipe (the message names the file
            and the first invalid field).
    """
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise RecipeError(f"{path}: cannot read the recipe: {exc}") from exc
    if not isinstance(raw, dict):
        raise RecipeError(f"{path}: a recipe is a YAML mapping")
    try:
        return Recipe.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise RecipeError(f"{path}: {where}: {first['msg']}") from exc
