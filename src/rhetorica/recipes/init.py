"""``rhetorica recipe init``: build a recipe's corpus, write its study and price it before it runs.

:func:`init_recipe` runs the recipe's data step into ``DIR/data`` (``DIR/recipe.json``, written
before it starts, makes a folder whose data step stopped half-way one a re-run resumes), renders the study template with
the parameters into ``DIR/study.yaml`` (validated like any study), records what it did in
``DIR/recipe.json`` and estimates the bill (:func:`rhetorica.study.estimate.estimate_study`) of the
corpus it built. The other scale — the paper's full design after a ``--sample N`` pilot, or a pilot
of :data:`PILOT_UNITS` after a full build — is extrapolated per unit (papers or original reviews)
from the measured one and labelled so; every figure of the estimate is linear in the units.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import yaml
from pydantic import ValidationError

from rhetorica.files import write_atomic
from rhetorica.kinds import evaluator_kind
from rhetorica.models.errors import ModelError
from rhetorica.models.registry import split_model_id
from rhetorica.recipes.data_steps import DataResult, refuse_unused_inputs, run_data_step
from rhetorica.recipes.model import Recipe, RecipeError
from rhetorica.registry import UnknownComponentError, recipes
from rhetorica.study.config import ConfigError, ReviewerSpec, load_study
from rhetorica.study.estimate import estimate_study

RECIPE_FILE = "recipe.json"
"""What ``init`` records in the recipe folder (recipe, parameters, sample, units, data summary)."""
STUDY_FILE = "study.yaml"
PILOT_UNITS = 10
"""Units of the pilot estimate printed after a full ``init``."""


def get_recipe(name: str) -> Recipe:
    """The registered recipe ``name``.

    Raises:
        RecipeError: no such recipe (the message lists the known ones).
    """
    try:
        return recipes.get(name)
    except UnknownComponentError as exc:
        raise RecipeError(str(exc)) from exc


def resolve_parameters(recipe: Recipe, given: Mapping[str, str]) -> dict[str, str]:
    """The template parameters: the recipe's defaults overridden by ``given``.

    A parameter whose default is a model id (``provider/model``) is a model: its value must name a
    registered provider too, checked here, before ``init`` writes anything.

    Raises:
        RecipeError: a parameter the recipe does not have, one without a default left unset, or a
            model parameter whose value is no usable model id (``--judge: unknown provider 'x' in model id 'x/y' …``).
    """
    unknown = sorted(set(given) - set(recipe.parameters))
    if unknown:
        raise RecipeError(f"recipe {recipe.name!r} has no parameter {', '.join(map(repr, unknown))}; "
                          f"its parameters: {', '.join(recipe.parameters) or 'none'}")
    values = {name: given.get(name, spec.default) for name, spec in recipe.parameters.items()}
    unset = [name for name, value in values.items() if not value]
    if unset:
        raise RecipeError(f"recipe {recipe.name!r}: give --{unset[0].replace('_', '-')} (no default)")
    for name, value in values.items():
        if _is_model_id(recipe.parameters[name].default) and value:
            try:
                split_model_id(value)
            except ModelError as exc:
                raise RecipeError(f"--{name.replace('_', '-')}: {exc}") from exc
    return values  # type: ignore[return-value]


def _is_model_id(value: str | None) -> bool:
    try:
        split_model_id(value or "")
    except ModelError:
        return False
    return True


def render_study(recipe: Recipe, parameters: Mapping[str, str], variables: Mapping[str, Any],
                 sample: int | None) -> str:
    """The study YAML text of ``recipe`` (Jinja2; an undefined variable is an error, never empty).

    Raises:
        RecipeError: the template needs a variable neither the parameters nor the data step give.
    """
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                                     autoescape=False)  # noqa: S701 - YAML, values quoted by tojson
    try:
        return environment.from_string(recipe.study).render(**variables, **parameters, sample=sample)
    except jinja2.TemplateError as exc:
        raise RecipeError(f"recipe {recipe.name!r}: its study template cannot be rendered: {exc}") from exc


def needs_reference(recipe: Recipe, parameters: Mapping[str, str], sample: int | None) -> bool:
    """Whether the study of ``recipe`` has a reviewer that compares each review with another review of
    its paper (:meth:`rhetorica.kinds.EvaluatorKind.reference_need`), read from its template rendered
    before the data step (its variables undefined: a loop over one runs no time); a template that
    cannot be read so is taken to have none (the study written after the data step is checked whole)."""
    environment = jinja2.Environment(undefined=jinja2.Undefined, autoescape=False)  # noqa: S701 - YAML
    try:
        data = yaml.safe_load(environment.from_string(recipe.study).render(**parameters, sample=sample))
        specs = [ReviewerSpec.model_validate(entry) for entry in data.get("reviewers") or []]
    except (jinja2.TemplateError, TypeError, AttributeError, yaml.YAMLError, ValidationError):
        return False
    return any(evaluator_kind(spec.kind).reference_need(spec) for spec in specs)


@dataclass
class Estimate:
    """One scale of the bill: calls, tokens, cost by model, and whether it was extrapolated.

    Attributes:
        label: ``full design (504 papers)`` or ``pilot (10 papers)``.
        units: papers (or original reviews) at this scale.
        rows: per (stage, model): ``calls``, ``input_tokens``, ``output_tokens``, ``cost_usd``,
            ``cached_cost_usd``, ``batch_cost_usd`` (USD; ``None`` where unpriced).
        extrapolated_from: units of the measured estimate this one was scaled from (``None``: measured).
        minutes_at_limits: model -> minutes its calls take at its declared requests_per_minute
            (``models:`` entries with endpoint limits; models without a declared limit are absent).
        warnings: the measured estimate's warnings (:attr:`rhetorica.study.estimate.StudyEstimate.warnings`).
    """

    label: str
    units: int
    rows: list[dict[str, Any]]
    extrapolated_from: int | None = None
    minutes_at_limits: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass
class InitResult:
    """What ``init`` did: the study file, the data step's result and the two estimates."""

    study: Path
    data: DataResult
    estimates: list[Estimate]
    warnings: list[str] = field(default_factory=list)


def _unusable(folder: Path, exc: OSError) -> RecipeError:
    return RecipeError(f"{folder}: cannot be a recipe folder ({exc.strerror or exc}); choose another folder")


def _check_folder(folder: Path, recipe: Recipe) -> None:
    try:
        if folder.exists() and not folder.is_dir():
            raise RecipeError(f"{folder}: is a file, not a folder; choose a folder for the recipe")
        if not folder.exists() or not any(folder.iterdir()):
            return
    except OSError as exc:
        raise _unusable(folder, exc) from exc
    record = folder / RECIPE_FILE
    if not record.is_file():
        raise RecipeError(f"{folder}: not empty and not a recipe folder (no {RECIPE_FILE}); choose a new folder")
    try:
        previous = json.loads(record.read_text(encoding="utf-8")).get("recipe")
    except (OSError, ValueError) as exc:
        raise RecipeError(f"{record}: unreadable ({exc}); choose a new folder") from exc
    if previous != recipe.name:
        raise RecipeError(f"{folder}: holds recipe {previous!r}, not {recipe.name!r}; choose a new folder")


def _made_by_init(folder: Path) -> list[Path]:
    """What ``init`` is about to create in ``folder`` and may remove again: the topmost missing
    folder of its path (all of it is new), else the record and the data folder it lacks."""
    missing = next((p for p in [*reversed(folder.parents), folder] if not p.exists()), None)
    if missing is not None:
        return [missing]
    return [path for path in (folder / RECIPE_FILE, folder / "data") if not path.exists()]


def _remove(paths: list[Path]) -> None:
    """Remove ``paths`` (files or folders this command created), leaving what was there before."""
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _rate_minutes(study: Any, calls: Mapping[str, int]) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, spec in study.models.items():
        limits = [e.requests_per_minute for e in spec.endpoints if e.requests_per_minute]
        for model, n in calls.items():
            if limits and (model == name or model.endswith(f"/{spec.model}")):
                out[model] = n / sum(limits)
    return out


def _scaled(rows: list[dict[str, Any]], factor: float) -> list[dict[str, Any]]:
    scaled = []
    for row in rows:
        scaled.append({k: (round(v * factor) if isinstance(v, int) and not isinstance(v, bool)
                           else v * factor if isinstance(v, float) else v) for k, v in row.items()})
    return scaled


def estimate_scales(recipe: Recipe, study_path: Path, units: int, sample: int | None) -> list[Estimate]:
    """The measured estimate of ``study_path`` and the other scale extrapolated per unit.

    ``units`` are the units of the written study (its papers or original reviews, not those the data
    step drew and left out): the other scale is the measured rows times ``other units / units``.

    Raises:
        rhetorica.study.config.ConfigError: the written study is invalid (a recipe defect).
    """
    measured = estimate_study(study_path)
    rows = [row.model_dump(include={"stage", "model", "calls", "input_tokens", "output_tokens", "cost_usd",
                                    "cached_cost_usd", "batch_cost_usd"}) for row in measured.rows]
    config, _ = load_study(study_path)
    unit = recipe.data.unit
    scale = "pilot" if sample else "full design"
    here = Estimate(f"{scale} ({units} {unit}, measured)", units, rows, warnings=list(measured.warnings))
    other_units = recipe.data.full_size if sample else min(PILOT_UNITS, recipe.data.full_size)
    other = Estimate(f"{'full design' if sample else 'pilot'} ({other_units} {unit}, extrapolated)", other_units,
                     _scaled(rows, other_units / units) if units else [], extrapolated_from=units)
    for estimate in (here, other):
        calls: dict[str, int] = {}
        for row in estimate.rows:
            calls[row["model"]] = calls.get(row["model"], 0) + int(row["calls"])
        estimate.minutes_at_limits = _rate_minutes(config, calls)
    return [here, other]


def init_recipe(name: str, folder: Path, *, parameters: Mapping[str, str] | None = None, sample: int | None = None,
                source: Path | None = None, endpoints: Mapping[str, str] | None = None,
                data_options: Mapping[str, Any] | None = None, estimate: bool = True) -> InitResult:
    """Build the corpus of recipe ``name`` in ``folder``, write its study and estimate it.

    Args:
        name: a registered recipe.
        folder: the recipe folder (new, empty, or an earlier ``init`` of the same recipe: resumed).
        parameters: template parameters (models) overriding the recipe's defaults.
        sample: units of a pilot of the same design (``None``: the paper's full design).
        source: a local copy of data the user downloaded (recipes whose data has no licence).
        endpoints: API base URLs for the data step (a mirror; tests: a recorded loopback server).
        data_options: options of the data step that replace the recipe's (``venue``: the same design
            on another venue); the design lines of the report then name the paper's.
        estimate: also estimate the bill (the CLI always does).

    Raises:
        RecipeError: unknown recipe or parameter (a model parameter naming no known provider), a folder
            holding something else or that cannot be one (a file, not creatable or writable), an input the data
            step does not use (``source``, an endpoint), a data step that cannot start (what this call created
            is removed again: the folder is left as it was), or a template that renders an invalid study
            (the message says which).
    """
    recipe = get_recipe(name)
    values = resolve_parameters(recipe, parameters or {})
    if sample is not None and sample < 1:
        raise RecipeError(f"--sample must be at least 1 (got {sample})")
    _check_folder(folder, recipe)
    options = {**recipe.data.options, **(data_options or {})}
    if needs_reference(recipe, values, sample):
        options.setdefault("paired_reviews", True)
    refuse_unused_inputs(recipe.data.kind, options, source=source, endpoints=endpoints or {})
    record = {"recipe": recipe.name, "parameters": values, "sample": sample}
    made = _made_by_init(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not (folder / RECIPE_FILE).is_file():  # a data step that stops half-way leaves a folder a re-run resumes
            write_atomic(folder / RECIPE_FILE, json.dumps({**record, "units": None, "data": ["data step not finished"]},
                                                          indent=2, ensure_ascii=False).encode("utf-8") + b"\n")
    except OSError as exc:
        raise _unusable(folder, exc) from exc
    try:
        data = run_data_step(recipe.data.kind, folder / "data", options, sample=sample, source=source,
                             endpoints=endpoints or {})
    except RecipeError:  # the step refused its inputs before building anything: nothing to resume
        _remove(made)
        raise
    study_path = folder / STUDY_FILE
    previous = study_path.read_bytes() if study_path.is_file() else None
    write_atomic(study_path, render_study(recipe, values, data.variables, sample).encode("utf-8"))
    try:
        load_study(study_path)
    except ConfigError as exc:  # put back the study file this command replaced (or remove the one it wrote)
        if previous is None:
            study_path.unlink()
        else:
            write_atomic(study_path, previous)
        raise RecipeError(f"recipe {recipe.name!r} renders an invalid study: {exc}") from exc
    write_atomic(folder / RECIPE_FILE, json.dumps(
        {**record, "units": data.units, "data": data.summary, "problems": data.problems}, indent=2, ensure_ascii=False).encode("utf-8") + b"\n")
    warnings = [] if data.units else [f"the data step built no {recipe.data.unit}: the study has nothing to run"]
    left_out = len(data.variables.get("left_out") or [])
    if sample is not None and 0 < data.units < sample:
        why = (f"{left_out} of those drawn are left out (see the study flow)" if left_out
               else f"the source gives only {data.units} {recipe.data.unit}")
        warnings.append(f"--sample {sample}: {why}; the pilot has {data.units}")
    estimates = estimate_scales(recipe, study_path, data.units, sample) if estimate and data.units else []
    warnings += [w for e in estimates for w in e.warnings]
    return InitResult(study_path, data, estimates, warnings)


def recipe_study(folder: Path) -> Path:
    """The study file of a recipe folder written by ``init``.

    Raises:
        RecipeError: ``folder`` is a file, cannot be read, or holds no recipe (``init`` first).
    """
    path = folder / STUDY_FILE
    try:
        if folder.exists() and not folder.is_dir():
            raise RecipeError(f"{folder}: is a file, not a recipe folder; give the folder 'rhetorica recipe init' wrote")
        found = (folder / RECIPE_FILE).is_file() and path.is_file()
    except OSError as exc:
        raise _unusable(folder, exc) from exc
    if not found:
        raise RecipeError(f"{folder}: no recipe here; run 'rhetorica recipe init NAME {folder}' first")
    return path
