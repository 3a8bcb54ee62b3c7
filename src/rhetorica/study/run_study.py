"""The study a run directory holds, read once and validated: what ``rhetorica report``, ``check``
and ``view`` read instead of the raw ``study.json``.

A run of ``rhetorica run`` saves its :class:`~rhetorica.study.config.StudyConfig` there (every
setting, defaults included); ``rhetorica import diagnostics`` saves an :class:`ImportedStudy`
(no documents or reviewers were declared: the assessments came from another tool). Both load as a
:class:`~rhetorica.study.config.StudyConfig`, so every default is the study model's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from rhetorica.problems import format_validation_error
from rhetorica.store.runs import STUDY_FILE, read_run_study
from rhetorica.study.config import ConfigError, StudyConfig, _Strict, parse_study


class ImportSource(_Strict):
    """Where an imported run's assessments came from (``rhetorica import diagnostics``)."""

    format: Literal["ai-reviewer-diagnostics"]
    baseline: str
    perturbed: str
    field_map: dict[str, str]


class ImportedStudy(_Strict):
    """The ``study.json`` of an imported run: its name, source, the one compared pair
    ``(condition, original)`` and the acceptance threshold (1-10, as
    :attr:`StudyConfig.decision_threshold`)."""

    name: str
    imported_from: ImportSource
    comparisons: list[tuple[str, str]] = Field(min_length=1, max_length=1)
    decision_threshold: float = Field(ge=1, le=10)

    def as_study(self) -> StudyConfig:
        """The import as a :class:`StudyConfig` with no documents, rewriters or reviewers declared
        (the import ran no stage; its reviewer and arms are the stored assessments'), every other
        setting the study model's default. Built without the study's checks, which need declared
        rewriters for a compared condition."""
        return StudyConfig.model_construct(name=self.name, documents=[], reviewers=[],
                                           comparisons=self.comparisons, decision_threshold=self.decision_threshold)


def load_run_study(run_dir: Path) -> StudyConfig:
    """The validated study of the run in ``run_dir`` (``RUN_DIR/study.json``).

    Raises:
        rhetorica.study.config.ConfigError: ``RUN_DIR/study.json: ...`` when the file is missing,
            unreadable or not a JSON object, or one line per bad key when it is not a valid study
            (nor an imported run's study).
    """
    path = run_dir / STUDY_FILE
    if not path.is_file():
        raise ConfigError(f"{path}: missing; a run directory holds the study 'rhetorica run' saved there")
    try:
        data = read_run_study(run_dir)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    if "imported_from" in data:
        try:
            return ImportedStudy.model_validate(data).as_study()
        except ValidationError as exc:
            raise ConfigError(format_validation_error(str(path), exc)) from exc
    return parse_study(data, source=str(path))
