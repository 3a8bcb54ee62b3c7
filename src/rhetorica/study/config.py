"""Study configuration: the matrix documents x conditions x rewriters x reviewers x replicates.

Declared in YAML and validated with pydantic; unknown keys and wrong types are rejected with the
dotted path of the offending key (e.g. ``reviewers.0.protocl``). ``rhetorica schema`` prints the
JSON Schema of :class:`StudyConfig`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from rhetorica.rewriting.conditions import parse_condition
from rhetorica.reviewers.protocols import get_protocol
from rhetorica.report.scorecard import ScorecardThresholds
from rhetorica.validation.embeddings import DEFAULT_MODEL as DEFAULT_EMBEDDING_MODEL
from rhetorica.validation.validate import ValidationThresholds


class ConfigError(ValueError):
    """A study file that cannot be used; the message names the file and each bad key."""


def _check_model_id(value: str) -> str:
    """Reject a model id whose provider is unknown (the registry's check, at load time)."""
    from rhetorica.models.errors import UnknownProviderError
    from rhetorica.models.registry import split_model_id

    try:
        split_model_id(value)
    except UnknownProviderError as exc:
        raise ValueError(str(exc)) from exc
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Sampling(_Strict):
    """Sampling parameters passed to the model (``None`` = provider default)."""

    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)


class DocumentSpec(_Strict):
    """One input: a LaTeX project folder, a .tex/.md/.txt/.pdf file or an archive; globs allowed.

    Relative paths are resolved against the folder of the study file.
    """

    path: str
    id: str | None = None
    human_scores: list[float] | None = None
    decision: str | None = None


class DocumentOptions(_Strict):
    """How documents are read (applies to every document of the study)."""

    cut_after_references: bool = True
    blind: bool = True
    max_words: int | None = Field(default=None, ge=50, description="keep the leading text up to this many words, cut at a paragraph boundary")


class RewriterSpec(_Strict):
    """A rewriter and the conditions it produces.

    ``kind: rule-based`` is the deterministic confidence rewriter; ``kind: llm`` needs ``model``.
    ``max_chunk_words`` splits long sections at paragraph boundaries for small-context models.
    """

    name: str = Field(pattern=r"^[A-Za-z0-9_.:-]+$")
    kind: Literal["llm", "rule-based"] = "llm"
    model: str | None = None
    conditions: list[str] = Field(min_length=1)
    sampling: Sampling = Field(default_factory=lambda: Sampling(temperature=0.0))
    max_chunk_words: int | None = Field(default=None, ge=20)
    options: dict[str, Any] = Field(default_factory=dict, description="provider options")

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, value: list[str]) -> list[str]:
        for name in value:
            parse_condition(name)
        return value

    @field_validator("model")
    @classmethod
    def _known_provider(cls, value: str | None) -> str | None:
        return _check_model_id(value) if value is not None else value

    @model_validator(mode="after")
    def _model_for_llm(self) -> RewriterSpec:
        if self.kind == "llm" and not self.model:
            raise ValueError(f"rewriter {self.name!r} of kind 'llm' needs a 'model'")
        if self.kind == "rule-based":
            bad = [c for c in self.conditions if c not in ("confidence:+", "confidence:-")]
            if bad:
                raise ValueError(f"the rule-based rewriter only produces confidence:+ and confidence:-, not {bad}")
        return self


class ReviewerSpec(_Strict):
    """A reviewer configuration: model + protocol (+ sampling, input limit, provider options).

    ``kind: control`` is a simulated control reviewer (no model): ``options`` then holds
    :class:`rhetorica.analysis.controls.ControlReviewer` settings (``noise_sd``, ``bias_arm``,
    ``preference_ratio``, ``integer_scores``); see :mod:`rhetorica.reviewers.control`.
    """

    name: str = Field(pattern=r"^[A-Za-z0-9_.:-]+$")
    kind: Literal["llm", "control"] = "llm"
    model: str | None = None
    protocol: str = "default"
    sampling: Sampling = Field(default_factory=Sampling)
    max_input_words: int | None = Field(default=None, ge=50, description="cut the manuscript text beyond this")
    options: dict[str, Any] = Field(default_factory=dict, description="provider options")

    @field_validator("model")
    @classmethod
    def _known_provider(cls, value: str | None) -> str | None:
        return _check_model_id(value) if value is not None else value

    @model_validator(mode="after")
    def _model_or_control(self) -> ReviewerSpec:
        if self.kind == "llm" and not self.model:
            raise ValueError(f"reviewer {self.name!r} of kind 'llm' needs a 'model'")
        if self.kind == "control":
            from rhetorica.analysis.controls import ControlReviewer

            ControlReviewer(name=self.name, **self.options)  # raises with the bad setting named
        return self

    @property
    def model_id(self) -> str:
        """The model id stored with every assessment (``control`` for control reviewers)."""
        return self.model if self.kind == "llm" and self.model else "control"

    @field_validator("protocol")
    @classmethod
    def _known_protocol(cls, value: str) -> str:
        get_protocol(value)
        return value


class ValidationSettings(_Strict):
    """The validation stage: thresholds and what happens to variants that fail them.

    Attributes:
        enabled: validate every variant before it is reviewed.
        thresholds: pass/fail thresholds (:class:`rhetorica.validation.validate.ValidationThresholds`).
        embedding_model: sentence-transformers model for semantic integrity.
        failed_variants: ``exclude`` (default) — a failing variant is not reviewed and not analysed;
            ``include`` — it is reviewed and analysed, marked ``variant_passed = 0`` in the tables.
    """

    enabled: bool = True
    thresholds: ValidationThresholds = Field(default_factory=ValidationThresholds)
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    failed_variants: Literal["exclude", "include"] = "exclude"


class StudyConfig(_Strict):
    """A whole study.

    Attributes:
        name: study name.
        output_dir: run directory (store, tables, report); relative to the study file.
        documents: inputs (paths or globs).
        document_options: reading options.
        rewriters: rewriters with their conditions.
        reviewers: reviewer configurations.
        replicates: independent reviews per (document, reviewer) (>= 1).
        decision_threshold: overall score above which a paper counts as accepted (1-10 scale).
        comparisons: condition pairs for the comparison table; default: each condition vs the
            original and the two directions of each dimension.
        budget_usd: stop making new paid calls once this much has been spent.
        concurrency: work units in flight at once.
        validation: the validation stage's settings.
        scorecard: pass/fail thresholds of the report's scorecard
            (:class:`rhetorica.report.scorecard.ScorecardThresholds`).
    """

    name: str
    output_dir: str = "runs/study"
    documents: list[DocumentSpec] = Field(min_length=1)
    document_options: DocumentOptions = Field(default_factory=DocumentOptions)
    rewriters: list[RewriterSpec] = Field(default_factory=list)
    reviewers: list[ReviewerSpec] = Field(min_length=1)
    replicates: int = Field(default=1, ge=1, le=1000)
    decision_threshold: float = Field(default=4.5, ge=1, le=10)
    comparisons: list[tuple[str, str]] | None = None
    budget_usd: float | None = Field(default=None, ge=0)
    concurrency: int = Field(default=4, ge=1, le=1024)
    validation: ValidationSettings = Field(default_factory=ValidationSettings)
    scorecard: ScorecardThresholds = Field(default_factory=ScorecardThresholds)

    @field_validator("documents", mode="before")
    @classmethod
    def _paths_as_specs(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"path": v} if isinstance(v, str) else v for v in value]
        return value

    @model_validator(mode="after")
    def _unique_names(self) -> StudyConfig:
        for label, items in (("rewriter", self.rewriters), ("reviewer", self.reviewers)):
            names = [i.name for i in items]
            dupes = sorted({n for n in names if names.count(n) > 1})
            if dupes:
                raise ValueError(f"duplicate {label} name(s): {', '.join(dupes)}")
        return self

    @model_validator(mode="after")
    def _comparable_arms(self) -> StudyConfig:
        if not self.comparisons:
            return self
        known = {"original", *self.conditions}
        known |= {f"{c}@{r.name}" for r in self.rewriters for c in r.conditions}
        for index, pair in enumerate(self.comparisons):
            for side in pair:
                if side not in known:
                    raise ValueError(f"comparisons[{index}]: {side!r} is neither 'original' nor a condition "
                                     f"a rewriter produces ({', '.join(sorted(known))})")
        return self

    @property
    def conditions(self) -> list[str]:
        """Every condition some rewriter produces, in declaration order."""
        seen: list[str] = []
        for rewriter in self.rewriters:
            seen.extend(c for c in rewriter.conditions if c not in seen)
        return seen


def format_validation_error(source: str, exc: ValidationError) -> str:
    """One line per problem: ``<source>: <key path>: <problem>``, e.g. ``study.yaml: reviewers[0].protocl:
    unknown key`` (list positions count from 0)."""
    lines = []
    for err in exc.errors():
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".") or "(top level)"
        msg = "unknown key" if err["type"] == "extra_forbidden" else err["msg"].removeprefix("Value error, ")
        lines.append(f"{source}: {loc}: {msg}")
    return "\n".join(lines)


def load_study(path: str | Path) -> tuple[StudyConfig, Path]:
    """Read and validate a study YAML file.

    Returns:
        The config and the folder relative paths are resolved against.

    Raises:
        ConfigError: unreadable file, invalid YAML, or invalid content (every bad key named).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read study file ({exc.strerror})") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise ConfigError(f"{path}: not valid YAML{where}: {problem}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a study file must be a YAML mapping of keys to values")
    return parse_study(data, source=str(path)), path.resolve().parent


def parse_study(data: dict[str, Any], source: str = "study") -> StudyConfig:
    """Validate a study given as a mapping.

    Raises:
        ConfigError: with one line per bad key.
    """
    try:
        return StudyConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(source, exc)) from exc
