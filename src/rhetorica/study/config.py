"""Study configuration: the matrix documents x conditions x rewriters x reviewers x replicates.

Declared in YAML and validated with pydantic; unknown keys and wrong types are rejected with the
dotted path of the offending key (e.g. ``reviewers.0.protocl``). ``rhetorica schema`` prints the
JSON Schema of :class:`StudyConfig`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    PrivateAttr,
    ValidationError,
    field_serializer,
    field_validator,
    model_serializer,
    model_validator,
)

from rhetorica.files import TextFileError, read_text_file
from rhetorica.problems import format_validation_error
from rhetorica.validation.review_checks import ReviewCheckSettings
from rhetorica.labels import ORIGINAL, arm_label, split_arm
from rhetorica.models.breaker import BreakerSettings
from rhetorica.models.call import RetryPolicy
from rhetorica.kinds import evaluator_kind, rewriter_kind
from rhetorica.registry import UnknownComponentError, evaluators
from rhetorica.rewriting.conditions import UnknownConditionError, parse_condition
from rhetorica.reviewers.protocols import get_protocol
from rhetorica.scorecard_thresholds import DECISION_THRESHOLD, ScorecardThresholds
from rhetorica.study.project_settings import ProjectRewriteSettings, check_project_rewriter
from rhetorica.study.unique_yaml import DuplicateKeyError, load_unique
from rhetorica.validation.embeddings import DEFAULT_MODEL as DEFAULT_EMBEDDING_MODEL
from rhetorica.validation.validate import ValidationThresholds
from rhetorica.documents.latex.source import main_file_problem
from rhetorica.models.api import OPERATIONAL_OPTIONS
from rhetorica.models.errors import ModelError, UnknownProviderError
from rhetorica.models.redaction import redact_urls, userinfo_and_key_env
from rhetorica.models.url_check import url_problem
from rhetorica.models.registry import (
    provider_class,
    provider_names,
    provider_option_type_problems,
    split_model_id,
)


class ConfigError(ValueError):
    """A study file that cannot be used; the message names the file and each bad key."""


#: A logical model's name in the ``models:`` section (no ``/``: an inline id always has one).
MODEL_NAME_PATTERN = r"^[A-Za-z0-9_.:-]+$"


def _check_model_id(value: str) -> str:
    """Reject an inline model id (``<provider>/<model>[@url]``) whose provider is unknown (the
    registry's check, at load time); a name without ``/`` refers to the ``models:`` section and is
    checked against it by :class:`StudyConfig`."""

    if "/" not in value and re.match(MODEL_NAME_PATTERN, value):
        return value
    try:
        split_model_id(value)
    except UnknownProviderError as exc:
        raise ValueError(str(exc)) from exc
    _, at, url = value.partition("@")  # the model name holds no "@"; a URL may (credentials)
    try:
        url_in_id = at and provider_class(value.partition("/")[0]).url_in_model_id
    except ModelError:  # a provider whose package is missing: the run names the install
        url_in_id = False
    if url_in_id and (problem := url_problem(url)):
        raise ValueError(f"model {redact_urls(value)!r}: its URL {problem}")
    return value


def _shown_model_id(value: str | None, info: SerializationInfo) -> str | None:
    """Model ids as written to JSON (the run directory's study copy): URL credentials redacted."""

    return redact_urls(value) if value is not None and info.mode_is_json() else value


class _Strict(BaseModel):
    # allow_inf_nan=False: every float setting of a study is finite (YAML's .nan/.inf and the
    # strings "nan"/"inf" are rejected, naming the key); the nested threshold models of other
    # packages (scorecard, validation, control reviewers) set the same in their own config.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class ModelOptions(BaseModel):
    """Provider options of a reviewer or rewriter (``options:`` in the study file).

    Each provider accepts the subset named in its documentation (``rhetorica list``); a key the
    configuration's provider does not declare is rejected when the study is loaded, naming the key
    and the provider's options. Only the keys a study sets are passed on (and part of the unit
    keys); the others keep the provider's defaults. A ``kind: control`` reviewer takes its
    settings here instead (``noise_sd``, ``bias_arm``, ``preference_ratio``, ``integer_scores``,
    ``failure_rate``).
    """

    model_config = ConfigDict(extra="allow", allow_inf_nan=False)

    api_key_env: str | None = Field(
        default=None, description="environment variable holding this endpoint's key (openai-compatible: no key "
                                  "is sent without it; openai: required for a base_url other than OpenAI's)")
    base_url: str | None = Field(default=None, description="endpoint override (openai, anthropic, google)")
    max_concurrency: int | None = Field(default=None, ge=1, description="calls in flight at once on the endpoint")
    timeout_s: float | None = Field(default=None, gt=0, description="per-call time limit in seconds")
    requests_per_minute: float | None = Field(
        default=None, gt=0, description="request quota: no 60-s window carries more requests than this")
    tokens_per_minute: float | None = Field(
        default=None, gt=0, description="token quota (input + requested output tokens per 60-s window)")
    structured_output: Literal["auto", "json_schema", "json_object", "prompt", "tool"] | None = Field(
        default=None, description="structured-output mode: openai-compatible auto|json_schema|json_object|prompt "
                                  "(auto negotiates per endpoint); anthropic json_schema|tool")
    strict_schema: bool | None = Field(default=None, description="send JSON schemas in strict mode (openai)")
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] | None = Field(
        default=None, description="request field carrying the token cap (openai-compatible, openai)")
    extra_body: dict[str, Any] | None = Field(
        default=None, description="extra request fields, e.g. vLLM's top_k (openai-compatible, openai)")
    default_max_tokens: int | None = Field(default=None, ge=1, description="token cap when none is set (anthropic)")
    cache_system: bool | None = Field(default=None, description="prompt-cache the system prompt (anthropic)")
    cache_input: bool | None = Field(default=None, description="prompt-cache the document, the first user message (anthropic)")
    thinking_budget: int | None = Field(default=None, ge=0, description="thinking-token budget (google)")
    n_ctx: int | None = Field(default=None, ge=256, description="context window in tokens (embedded)")
    n_threads: int | None = Field(default=None, ge=1, description="CPU threads (embedded)")
    max_string_chars: int | None = Field(default=None, ge=1, description="bound on schema strings (embedded)")
    max_array_items: int | None = Field(default=None, ge=1, description="bound on schema arrays (embedded)")
    repeat_penalty: float | None = Field(default=None, gt=0, description="llama.cpp repetition penalty (embedded)")

    @model_validator(mode="after")
    def _one_credential(self) -> ModelOptions:

        for url_key in ("base_url", "url"):  # a provider's endpoint; an http reviewer's service
            value = self.as_kwargs().get(url_key)
            if isinstance(value, str) and (problem := userinfo_and_key_env(value, self.api_key_env)
                                           or url_problem(value)):
                raise ValueError(f"{url_key} {problem}")
        return self

    def as_kwargs(self) -> dict[str, Any]:
        """The options the study set (typed and untyped), as keyword arguments for the provider."""
        typed = {k: getattr(self, k) for k in self.model_fields_set if k in type(self).model_fields}
        return typed | dict(self.__pydantic_extra__ or {})

    @model_serializer(mode="wrap")
    def _only_set(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        dumped = handler(self)
        out = {k: v for k, v in dumped.items() if k in self.as_kwargs()}
        if info.mode_is_json():  # URLs (a provider's base_url, an http reviewer's url) without credentials

            out = {k: redact_urls(v) if isinstance(v, str) else v for k, v in out.items()}
        return out


def _option_problems(options: ModelOptions, owner: str, known: list[str] | tuple[str, ...]) -> None:
    """Raise for the first key of ``options`` that ``owner`` (``provider <name>`` or ``control
    reviewers``) does not declare.

    Raises:
        ValueError: ``options.<key>: unknown option for <owner> (known: ...)``.
    """
    for key in sorted(options.as_kwargs()):
        if key not in known:
            raise ValueError(f"options.{key}: unknown option for {owner} (known: {', '.join(known)})")


def _check_model_options(model: str | None, options: ModelOptions) -> None:
    """Check ``options`` against the declared options of ``model``'s provider (skipped when the
    provider's package is not installed: running it then fails with the install command)."""

    if model is None:
        return
    try:
        provider, _ = split_model_id(model)
        known = provider_class(provider).declared_options()
    except ModelError:
        return
    _option_problems(options, f"provider {provider}", known)
    extra = {k: v for k, v in options.as_kwargs().items() if k not in type(options).model_fields}
    if problems := provider_option_type_problems(provider, extra):
        raise ValueError("; ".join(problems))


#: Options that say where and how fast calls go: set per endpoint under ``endpoints:`` of a
#: declared model, not in its ``options``.
ENDPOINT_KEYS = ("base_url", "api_key_env", "max_concurrency", "timeout_s", "requests_per_minute", "tokens_per_minute")


class EndpointSpec(_Strict):
    """One endpoint (replica) of a declared model: where its calls go, with which key, how fast.

    Its key is read from ``api_key_env`` and sent to this endpoint only. Nothing here changes an
    answer, so nothing here is part of a cache or unit key.
    """

    base_url: str | None = Field(default=None, description="the endpoint's URL (required for openai-compatible; "
                                                           "openai, anthropic, google: default the vendor's)")
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                                    description="environment variable holding this endpoint's key")
    max_concurrency: int | None = Field(default=None, ge=1, description="calls in flight at once on this endpoint")
    timeout_s: float | None = Field(default=None, gt=0, description="per-call time limit in seconds")
    requests_per_minute: float | None = Field(default=None, gt=0, description="this endpoint's request quota")
    tokens_per_minute: float | None = Field(default=None, gt=0, description="this endpoint's token quota")

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and (problem := url_problem(value)):
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _one_credential(self) -> EndpointSpec:

        problem = userinfo_and_key_env(self.base_url, self.api_key_env)
        if problem:
            raise ValueError(f"base_url {problem}")
        return self

    @field_serializer("base_url")
    def _shown_url(self, value: str | None, info: SerializationInfo) -> str | None:
        return _shown_model_id(value, info)

    def settings(self) -> dict[str, Any]:
        """The keys this endpoint sets (URL as written, credentials included: for the provider only)."""
        return {k: getattr(self, k) for k in ENDPOINT_KEYS if getattr(self, k) is not None}


class ModelSpec(_Strict):
    """A logical model (one entry of ``models:``): provider, model and options once, served by one
    or more endpoints. Reviewers and rewriters name it in their ``model:``.

    Calls are spread over the healthy endpoints (:mod:`rhetorica.models.endpoints`); the cache key
    and the unit keys hold the provider, the model and the options that can change an answer
    (:meth:`output_spec`), never an endpoint.
    """

    provider: str
    model: str = Field(min_length=1)
    options: ModelOptions = Field(default_factory=ModelOptions, description="provider options, the same on every "
                                                                           "endpoint (endpoint settings go there)")
    endpoints: list[EndpointSpec] = Field(default_factory=lambda: [EndpointSpec()], min_length=1)
    cooldown_s: float = Field(default=30.0, ge=0, description="seconds an endpoint that failed with a connection "
                                                              "error, 5xx or timeout gets no calls")
    prompt_cache: Literal["prefix", "slots", "none"] | None = Field(
        default=None, description="what the servers keep of earlier prompts, for the order of replicates: prefix "
                                  "(a prefix cache shared by requests, e.g. vLLM's automatic prefix caching), "
                                  "slots (cache_slots slots, each keeping the last prompt it processed, e.g. "
                                  "llama.cpp's server with --parallel N), none; default: the provider's (an "
                                  "openai-compatible server is asked: GET /props, GET /metrics)")
    cache_slots: int = Field(default=1, ge=1, description="prompt_cache slots: the server's slots (llama.cpp's "
                                                          "--parallel); a group's replicates run on one slot")

    @field_validator("provider")
    @classmethod
    def _known_provider(cls, value: str) -> str:

        if value not in provider_names():
            raise ValueError(f"unknown provider {value!r}; known providers: {', '.join(provider_names())}")
        return value

    @model_validator(mode="after")
    def _endpoints_and_options(self) -> ModelSpec:
        if self.cache_slots != 1 and self.prompt_cache != "slots":
            raise ValueError(f"cache_slots: only with prompt_cache: slots (got prompt_cache: {self.prompt_cache})")
        for key in ENDPOINT_KEYS:
            if key in self.options.as_kwargs():
                raise ValueError(f"options.{key}: set per endpoint, under endpoints")
        _check_model_options(f"{self.provider}/{self.model}", self.options)
        declared = _declared_options(self.provider)
        for index, endpoint in enumerate(self.endpoints):
            if self.provider == "openai-compatible" and not endpoint.base_url:
                raise ValueError(f"endpoints[{index}].base_url: required for provider openai-compatible")
            for key in endpoint.settings():
                usable = key == "base_url" and self.provider == "openai-compatible"
                if declared is not None and key not in declared and not usable:
                    raise ValueError(f"endpoints[{index}].{key}: provider {self.provider} takes no {key}")
        return self

    def output_spec(self) -> dict[str, Any]:
        """What can change an answer: provider, model and the options but the operational ones
        (:data:`rhetorica.models.api.OPERATIONAL_OPTIONS`); no endpoint."""

        options = {k: v for k, v in self.options.as_kwargs().items() if k not in OPERATIONAL_OPTIONS}
        return {"provider": self.provider, "model": self.model, "options": options}


def _declared_options(provider: str) -> list[str] | None:
    """The options ``provider`` declares, or ``None`` when its package is not installed."""

    try:
        return provider_class(provider).declared_options()
    except ModelError:
        return None


class Sampling(_Strict):
    """Sampling parameters passed to the model (``None`` = provider default)."""

    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)


#: The rating scale of ``human_scores`` (the overall rating of review forms and control reviewers: 1-10).
HUMAN_SCORE_LOW, HUMAN_SCORE_HIGH = 1.0, 10.0


class DocumentSpec(_Strict):
    """One input: a LaTeX project folder, a .tex/.md/.txt/.pdf file or an archive (globs allowed),
    or a whole dataset folder built by ``rhetorica dataset`` (``dataset: DIR``).

    Relative paths are resolved against the folder of the study file. A dataset entry reads every
    paper of the dataset's manifest (or those listed in ``papers``) with its id, human scores and
    decision; ``prefer`` chooses which copy of a paper is read when it has several.
    """

    path: str | None = None
    dataset: str | None = None
    reviews: str | None = Field(default=None, description="review file(s) (glob allowed): CMT .htm, OpenReview "
                                                          ".md/.json, ISMIR .txt, JSONL (a paper or a review per "
                                                          "line); each review one document")
    pairs: str | None = Field(default=None, description="JSONL of (original, rewrite) review pairs: the originals "
                                                        "are documents, a rewriter of kind 'imported' gives the rewrites")
    paper: str | None = Field(default=None, description="paper id of a 'reviews' entry (default: its folder name; "
                                                     "JSONL lines that name their paper keep it)")
    latex_project: str | None = Field(default=None, description="a LaTeX project folder, compiled and read from its PDF")
    main: str | None = Field(default=None, description="latex_project only: its main file, relative to the project "
                                                       "folder (default: detected)")
    prefer: Literal["latex", "pdf", "markdown"] = "latex"
    papers: list[str] | None = None
    id: str | None = None
    human_scores: list[float] | None = None
    decision: str | None = None

    @model_validator(mode="after")
    def _path_or_dataset(self) -> DocumentSpec:
        given = [k for k in ("path", "dataset", "reviews", "pairs", "latex_project") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of 'path' (a file, folder or glob), 'dataset' (a dataset folder), "
                             "'reviews' (review files), 'pairs' (a JSONL of review pairs) and 'latex_project' "
                             "(a LaTeX project folder, compiled and reviewed from its PDF)")
        if self.latex_project is not None and not self.latex_project.strip():
            raise ValueError("latex_project: empty; name the project's folder (relative to the study file)")
        if self.main is not None and self.latex_project is None:
            raise ValueError("'main' names the main file of a 'latex_project' entry only")
        if self.main is not None and (Path(self.main).is_absolute() or ".." in Path(self.main).parts):
            raise ValueError(f"main: {self.main!r} must be a path inside the project folder, relative to it")
        if self.paper is not None and self.reviews is None:
            raise ValueError("'paper' names the paper of a 'reviews' entry only")
        if (self.reviews or self.pairs) and (self.id or self.human_scores or self.decision):
            raise ValueError("'id', 'human_scores' and 'decision' of reviews come from the review files")
        if self.dataset is not None and (self.id or self.human_scores or self.decision):
            raise ValueError("'id', 'human_scores' and 'decision' come from the dataset's manifest; "
                             "they cannot be set on a 'dataset' entry")
        outside = [s for s in self.human_scores or [] if not HUMAN_SCORE_LOW <= s <= HUMAN_SCORE_HIGH]
        if outside:
            raise ValueError(f"human_scores of {self.path!r}: {', '.join(f'{s:g}' for s in outside)} outside the "
                             f"rating scale {HUMAN_SCORE_LOW:g}-{HUMAN_SCORE_HIGH:g}")
        return self


class DocumentOptions(_Strict):
    """How documents are read (applies to every document of the study)."""

    cut_after_references: bool = True
    blind: bool = True
    max_words: int | None = Field(default=None, ge=50, description="keep the leading text up to this many words, cut at a paragraph boundary")
    hidden_text: Literal["keep", "drop"] = Field(
        default="drop", description="text no human reader sees (white, invisible, off-page, tiny): drop it from "
        "what reviewers read (default), or keep it to measure its effect; each span is warned about either way")


class _UsesModel(_Strict):
    """What reviewers and rewriters share about their ``model:``: an inline id
    (``<provider>/<model>[@url]``, a logical model with one endpoint) or the name of a declared
    model of the study's ``models:`` section (bound by :class:`StudyConfig`)."""

    _declared: ModelSpec | None = PrivateAttr(default=None)

    @property
    def declared_model(self) -> ModelSpec | None:
        """The ``models:`` entry ``model`` names, or ``None`` for an inline id (or no model)."""
        return self._declared

    @property
    def served_model(self) -> str | None:
        """``provider/model`` of what answers (no endpoint URL; for prices and tables), or ``None``."""
        if self._declared is not None:
            return f"{self._declared.provider}/{self._declared.model}"
        model = getattr(self, "model", None)
        if model is None:
            return None

        return redact_urls(model)

    def _output_dump(self, exclude: set[str]) -> dict[str, Any]:
        """The spec dump for unit keys, with a declared model's name replaced by its
        :meth:`ModelSpec.output_spec` (so its endpoints never enter a key; its options do)."""
        dumped = self.model_dump(exclude=exclude)
        if self._declared is not None:
            dumped["model"] = self._declared.output_spec()
        return dumped


class RewriterSpec(_UsesModel):
    """A rewriter and the conditions it produces.

    ``kind`` names a rewriter kind registered in :data:`rhetorica.registry.rewriters`
    (:mod:`rhetorica.study.rewriter_kinds`): ``rule-based`` is the deterministic confidence rewriter;
    ``llm`` needs ``model``; ``injection`` plants instructions (``injection:...`` conditions, no
    model; see :mod:`rhetorica.rewriting.injection`). Each condition must be one the kind produces.
    ``max_chunk_words`` splits long sections at paragraph boundaries for small-context models.
    ``latex-project`` and ``agent`` rewrite whole LaTeX projects (``latex_project`` documents) with
    the settings under ``project`` (:mod:`rhetorica.study.project_settings`).
    """

    name: str = Field(pattern=r"^[A-Za-z0-9_.:-]+$")
    kind: str = Field(default="llm", description="a registered rewriter kind (rhetorica list --kind rewriter)")
    model: str | None = None
    conditions: list[str] = Field(min_length=1)
    sampling: Sampling = Field(default_factory=Sampling, description="only what is set here is sent")
    max_chunk_words: int | None = Field(default=None, ge=20)
    options: ModelOptions = Field(default_factory=ModelOptions, description="provider options")
    project: ProjectRewriteSettings = Field(default_factory=ProjectRewriteSettings,
                                            description="latex-project and agent kinds only")

    _shown_model = field_serializer("model")(_shown_model_id)

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, value: list[str]) -> list[str]:
        bad: list[UnknownConditionError] = []
        for name in value:
            try:
                parse_condition(name)
            except UnknownConditionError as exc:
                bad.append(exc)
        if len(bad) == 1:
            raise ValueError(str(bad[0]))
        if bad:  # every bad name at once, the list of known ones said once
            known = next((e.known for e in bad if e.known), "")
            said = "; ".join(e.problem for e in bad)
            raise ValueError(f"{len(bad)} conditions cannot be used: {said}"
                             + (f"; known: {known} (combine with '|')" if known else ""))
        dupes = sorted({name for name in value if value.count(name) > 1})
        if dupes:
            raise ValueError(f"duplicate condition(s) {', '.join(map(repr, dupes))}: each condition is "
                             "listed once per rewriter")
        return value

    def output_spec(self) -> dict[str, Any]:
        """Everything about the rewriter that can change its variants: the whole spec but its
        ``name`` and ``conditions`` (what :func:`rhetorica.study.planner.rewriter_spec_hash` hashes
        with the condition); a declared model counts by its :meth:`ModelSpec.output_spec`."""
        unset = {"project"} if self.project == ProjectRewriteSettings() else set()  # keys of older studies stay
        return self._output_dump({"name", "conditions"} | unset)

    @field_validator("model")
    @classmethod
    def _known_provider(cls, value: str | None) -> str | None:
        return _check_model_id(value) if value is not None else value

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        try:
            rewriter_kind(value)
        except UnknownComponentError as exc:
            raise ValueError(str(exc)) from None
        return value

    @model_validator(mode="after")
    def _kind_produces_conditions(self) -> RewriterSpec:
        kind = rewriter_kind(self.kind)
        if kind.needs_model and not self.model:
            raise ValueError(f"rewriter {self.name!r} of kind {self.kind!r} needs a 'model'")
        for name in self.conditions:
            problem = kind.refuses(parse_condition(name))
            if problem:
                raise ValueError(f"rewriter {self.name!r} of kind {self.kind!r} {problem}")
        kind.check(self)
        problem = check_project_rewriter(self, kind)
        if problem:
            raise ValueError(f"rewriter {self.name!r} of kind {self.kind!r} {problem}")
        return self


class ReviewerSpec(_UsesModel):
    """A reviewer configuration: model + protocol (+ sampling, input limit, provider options).

    ``kind`` names an evaluator kind registered in :data:`rhetorica.registry.evaluators`
    (:class:`rhetorica.kinds.EvaluatorKind`; the built-ins are :mod:`rhetorica.study.evaluator_kinds`),
    which checks the configuration when the study loads and builds its evaluator for a run: ``llm``
    (a model reviews under ``protocol``; ``options`` are provider options), ``control``, ``judge``,
    or another kind (a plug-in's external system: built once at load with the reviewer's name and
    ``options`` to check them; a kind that reads with a model, such as ``scicore`` and
    ``reconstruct``, also gets ``model``, and its ``options`` are the evaluator's, not the
    provider's). ``kind: control`` is a simulated control reviewer (no model): ``options`` then holds
    :class:`rhetorica.reviewers.control_settings.ControlReviewer` settings (``noise_sd``, ``bias_arm``,
    ``preference_ratio``, ``integer_scores``); see :mod:`rhetorica.reviewers.control`.
    ``defence`` runs the hidden-instruction scan before each review: ``strip`` removes hidden
    spans, ``warn`` tells the model about them, ``none`` (default) does neither
    (:mod:`rhetorica.reviewers.defence`).
    """

    name: str = Field(pattern=r"^[A-Za-z0-9_.:-]+$")
    kind: str = Field(default="llm", description="llm, control or a registered evaluator kind "
                                                 "(rhetorica list --kind evaluator)")
    model: str | None = None
    protocol: str = "default"
    sampling: Sampling = Field(default_factory=Sampling)
    max_input_words: int | None = Field(default=None, ge=50, description="cut the manuscript text beyond this")
    options: ModelOptions = Field(default_factory=ModelOptions, description="provider options")
    defence: Literal["none", "strip", "warn"] = "none"
    soft_ratings: bool = Field(
        default=False,
        description="also store each integer score's soft rating: the model's probability over the "
                    "allowed levels from token log-probabilities, its expected score as "
                    "'<metric>.expected' (kinds llm and judge; missing, with the reason, where the "
                    "provider returns no log-probabilities)")
    cost_per_call_usd: float = Field(
        default=0.0, ge=0,
        description="what one call of an external reviewer (kinds command, http, python) costs in US dollars: "
                    "rhetorica estimate counts it per call (model calls are priced from their tokens instead)")

    _shown_model = field_serializer("model")(_shown_model_id)

    @field_validator("model")
    @classmethod
    def _known_provider(cls, value: str | None) -> str | None:
        return _check_model_id(value) if value is not None else value

    @model_validator(mode="after")
    def _checked_by_kind(self) -> ReviewerSpec:
        kind = evaluator_kind(self.kind)
        if self.soft_ratings and not kind.soft_ratings:
            able = " or ".join(repr(n) for n in evaluators.names() if evaluator_kind(n).soft_ratings)
            raise ValueError(f"reviewer {self.name!r}: soft_ratings applies to kind {able} only, not {self.kind!r}")
        if self.cost_per_call_usd and not kind.billed_per_call:
            able = " or ".join(repr(n) for n in evaluators.names() if evaluator_kind(n).billed_per_call)
            raise ValueError(f"reviewer {self.name!r}: cost_per_call_usd applies to kind {able} only (a {self.kind!r} "
                             "reviewer's calls are priced from their tokens)")
        kind.check(self)  # (rhetorica.kinds.EvaluatorKind.check)
        return self

    def output_spec(self) -> dict[str, Any]:
        """Everything about the reviewer configuration that can change its reviews but the scan
        version: the whole spec but its ``name`` (what
        :func:`rhetorica.study.planner.reviewer_spec_hash` hashes); a declared model counts by its
        :meth:`ModelSpec.output_spec`."""
        return self._output_dump({"name", "cost_per_call_usd"})

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        try:
            evaluator_kind(value)
        except UnknownComponentError:
            raise ValueError(f"unknown evaluator {value!r}; known: {', '.join(evaluators.names())}") from None
        return value

    @property
    def model_id(self) -> str:
        """The model id stored with every assessment: the declared model's name, or the inline id
        with the credentials written into its URL redacted (the kind, e.g. ``control`` or
        ``command``, for reviewers without a model)."""

        return redact_urls(self.model) if not evaluator_kind(self.kind).simulated and self.model else self.kind

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
        review: thresholds of the review-variant checks (review documents only;
            :class:`rhetorica.validation.review_checks.ReviewCheckSettings`, calibrated defaults).
    """

    enabled: bool = True
    thresholds: ValidationThresholds = Field(default_factory=ValidationThresholds)
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    failed_variants: Literal["exclude", "include"] = "exclude"
    review: ReviewCheckSettings = Field(default_factory=ReviewCheckSettings)


class JudgeAnalysisSettings(_Strict):
    """The review-metric study's analysis (:mod:`rhetorica.judges.analysis`; STUDIES.md §3).

    Attributes:
        alpha: family-wise level; each judge's tests use Bonferroni ``alpha / M`` over its M metrics.
        bounds: equivalence bound δ_m per ``<family>.<metric>``, overriding the family's declared one.
        include_style: also classify the style-targeted metrics (excluded by default, as the study did).
        cluster: unit the clustered analysis averages d to first (``paper`` or ``review``).
    """

    alpha: float = Field(default=0.05, gt=0, lt=1)
    bounds: dict[str, float] = Field(default_factory=dict)
    include_style: bool = False
    cluster: Literal["paper", "review"] = "paper"

    @field_validator("bounds")
    @classmethod
    def _positive(cls, value: dict[str, float]) -> dict[str, float]:
        for metric, bound in value.items():
            if not bound > 0:
                raise ValueError(f"bounds.{metric}: an equivalence bound must be > 0, got {bound}")
        return value


MIN_COVERED = 0.9
"""Default :attr:`SoftRatingSettings.min_covered`: an expected score enters the analysis when at
least this much of the probability at the value's position lies on allowed levels (issue 36).

Why 0.9: the mass not on a level could sit anywhere on the scale, so a renormalised expectation
can be off by up to ``(1 - covered) x (max - min)``: at 0.9 by at most 0.9 points on a 1-10 scale,
less than the one scale step soft ratings exist to resolve. Measured: the embedded SmolLM2-135M
reviewing 6 shared papers x 3 replicates (bare protocol, first 300 words, temperature 0.7,
max_tokens 200) gave 7 overall ratings (the others truncated or not reached in 25 min on 2 shared
cores) with covered mass 0.46, 0.44, 0.02, 0.47, 0.001, 0.00006, 0.49 (median 0.44, none above 0.5;
unresolved up to 0.29): its expected scores rest on under half of the probability and are left
out by default, as the issue's 3.10 with 0.46 unresolved (true expectation 2.0-6.6) should have been.
The mock and a confident provider (one token near probability 1) cover 1.0."""


class SoftRatingSettings(_Strict):
    """How the analysis uses soft ratings (expected scores, :mod:`rhetorica.reviewers.soft_ratings`).

    Attributes:
        min_covered: the smallest covered probability mass (0-1) an expected score needs to enter
            the analysis; below it the expected score is missing with its reason (``covered mass
            0.47 < 0.9``) in the study flow, never imputed
            (:func:`rhetorica.analysis.soft.apply_min_covered`). 0 keeps every expected score.
    """

    min_covered: float = Field(default=MIN_COVERED, ge=0, le=1)


class AspectSettings(_Strict):
    """The aspect-annotation stage (assessment -> annotation, :mod:`rhetorica.study.annotation`):
    an LLM tags each ``ok`` review with (aspect, polarity, exact phrase) over the 16 aspects of
    Lu, Kuznetsov & Gurevych (Findings of EMNLP 2025; :mod:`rhetorica.reviewers.aspects`).

    Attributes:
        model: the annotator: an inline id ``<provider>/<model>`` or a model of ``models:``.
        reviewers: names of the reviewer configurations whose reviews are annotated (default: all
            but ``kind: control`` ones, which write no review text).
        temperature: annotator sampling temperature (default 0: annotation is a measurement).
        max_tokens: cap on one annotation's answer (tokens, > 0).
    """

    model: str = Field(min_length=1)
    reviewers: list[str] | None = None
    temperature: float | None = Field(default=0.0, ge=0)
    max_tokens: int = Field(default=1500, gt=0)

    @field_validator("model")
    @classmethod
    def _known_provider(cls, value: str) -> str:
        return _check_model_id(value)


class LeftOutUnit(_Strict):
    """A unit a recipe's data step drew and left out of the study: its id and why."""

    id: str = Field(min_length=1)
    reason: str = Field(min_length=1)


class RecipeRef(_Strict):
    """The recipe a study was made from (``rhetorica recipe init``): the report then opens with the
    published numbers beside this run's (:mod:`rhetorica.recipes.comparison`).

    Attributes:
        name: a registered recipe (``rhetorica recipe list``).
        parameters: the template parameters the study was rendered with (models).
        sample: units of a pilot (``--sample N``); ``None`` = the paper's full design.
        left_out: units the recipe's data step drew but the study cannot use (a paper without
            the LaTeX source a LaTeX rewrite needs), each with its reason; the study flow counts
            them as not run.
    """

    name: str = Field(min_length=1)
    parameters: dict[str, str] = Field(default_factory=dict)
    sample: int | None = Field(default=None, ge=1)
    left_out: list[LeftOutUnit] = Field(default_factory=list)


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
        circuit_breaker: when an endpoint that keeps failing is paused and given up on
            (:class:`rhetorica.models.breaker.BreakerSettings`).
        retries: how often a call is tried again after a transient failure and how long one
            unit may wait on 429s (:class:`rhetorica.models.call.RetryPolicy`).
        validation: the validation stage's settings.
        scorecard: pass/fail thresholds of the report's scorecard
            (:class:`rhetorica.scorecard_thresholds.ScorecardThresholds`).
        soft_ratings: how the analysis uses expected scores (:class:`SoftRatingSettings`).
        aspects: the aspect-annotation stage's settings (:class:`AspectSettings`; ``None`` = none).
        id_scope: ``source`` (default): paper, review and rewrite ids of ``reviews``/``pairs``
            files as the source wrote them (a paper id met again for another paper is refused,
            naming both places); ``file``: each prefixed by its file (``<file>#<id>``,
            :func:`rhetorica.documents.ids.scoped`), so files that number their papers alike stay apart.
        recipe: the recipe the study was made from (:class:`RecipeRef`; ``None`` = none).
    """

    name: str
    output_dir: str = "runs/study"
    documents: list[DocumentSpec] = Field(min_length=1)
    models: dict[str, ModelSpec] = Field(
        default_factory=dict, description="logical models by name (provider, model, options, endpoints); "
                                          "reviewers and rewriters name them in 'model'")
    document_options: DocumentOptions = Field(default_factory=DocumentOptions)
    rewriters: list[RewriterSpec] = Field(default_factory=list)
    reviewers: list[ReviewerSpec] = Field(min_length=1)
    replicates: int = Field(default=1, ge=1, le=1000)
    decision_threshold: float = Field(default=DECISION_THRESHOLD, ge=1, le=10)
    comparisons: list[tuple[str, str]] | None = None
    budget_usd: float | None = Field(default=None, ge=0)
    concurrency: int = Field(default=4, ge=1, le=1024)
    circuit_breaker: BreakerSettings = Field(
        default_factory=BreakerSettings, description="pause an endpoint after transient failures within a window; "
                                                     "stop its configurations (units left pending) if it stays down")
    retries: RetryPolicy = Field(
        default_factory=RetryPolicy, description="attempts per call for transient failures (a 429 spends none) and "
                                                 "the seconds one unit may wait on 429s")
    validation: ValidationSettings = Field(default_factory=ValidationSettings)
    scorecard: ScorecardThresholds = Field(default_factory=ScorecardThresholds)
    judge_analysis: JudgeAnalysisSettings = Field(default_factory=JudgeAnalysisSettings)
    soft_ratings: SoftRatingSettings = Field(default_factory=SoftRatingSettings)
    aspects: AspectSettings | None = Field(default=None, description="aspect annotation of every ok review "
                                                                     "(an annotator model); absent = no annotation")
    id_scope: Literal["source", "file"] = Field(
        default="source", description="ids of reviews/pairs files: 'source' keeps them as written (a paper id met "
                                      "again for another paper is refused, naming both places); 'file' prefixes "
                                      "each with its file ('<file>#<id>') so files numbering papers alike stay apart")
    recipe: RecipeRef | None = Field(default=None, description="the published study this one reproduces "
                                                               "(written by 'rhetorica recipe init')")

    @field_validator("documents", mode="before")
    @classmethod
    def _paths_as_specs(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"path": v} if isinstance(v, str) else v for v in value]
        return value

    @field_validator("models")
    @classmethod
    def _model_names(cls, value: dict[str, ModelSpec]) -> dict[str, ModelSpec]:
        for name in value:
            if not re.match(MODEL_NAME_PATTERN, name):
                raise ValueError(f"model name {name!r} may hold only letters, digits and _ . : - (no '/': "
                                 "'<provider>/<model>' is the inline form)")
        return value

    @model_validator(mode="after")
    def _bind_models(self) -> StudyConfig:
        # runs before the checks below that compare rewriter specs (which count a declared model
        # by what it is, not by its name)
        for label, items in (("rewriters", self.rewriters), ("reviewers", self.reviewers)):
            for index, item in enumerate(items):
                if item.model is None or "/" in item.model:
                    item._declared = None
                    continue
                if item.model not in self.models:
                    known = ", ".join(sorted(self.models)) or "none declared"
                    raise ValueError(f"{label}[{index}].model: {item.model!r} is not a model of the models: section "
                                     f"({known}) nor an inline id '<provider>/<model>'")
                provider = (rewriter_kind if label == "rewriters" else evaluator_kind)(item.kind).provider_options
                if item.options.as_kwargs() and provider:  # provider options
                    raise ValueError(f"{label}[{index}].options: {label[:-1]} {item.name!r} uses the declared model "
                                     f"{item.model!r}; set options under models.{item.model}.options")
                item._declared = self.models[item.model]
        return self

    @model_validator(mode="after")
    def _temperatures_in_range(self) -> StudyConfig:
        # a temperature the provider's API refuses would fail every call of the configuration
        asked = [(f"{label}[{i}].sampling.temperature", item.model, item.sampling.temperature)
                 for label, items in (("rewriters", self.rewriters), ("reviewers", self.reviewers))
                 for i, item in enumerate(items)]
        if self.aspects is not None:
            asked.append(("aspects.temperature", self.aspects.model, self.aspects.temperature))
        for where, model, temperature in asked:
            if model is None or temperature is None:
                continue
            provider = self.models[model].provider if model in self.models else model.partition("/")[0]
            try:
                highest = provider_class(provider).temperature_max
            except ModelError:  # the provider's package is not installed: the run names the install
                continue
            if highest is not None and temperature > highest:
                raise ValueError(f"{where}: {temperature:g} is above {highest:g}, the highest provider {provider} "
                                 "accepts")
        return self

    @model_validator(mode="after")
    def _aspect_annotator(self) -> StudyConfig:
        if self.aspects is None:
            return self
        if "/" not in self.aspects.model and self.aspects.model not in self.models:
            raise ValueError(f"aspects.model: {self.aspects.model!r} is not a model of the models: section nor an "
                             "inline id '<provider>/<model>'")
        names = {r.name for r in self.reviewers}
        unknown = [n for n in self.aspects.reviewers or [] if n not in names]
        if unknown:
            raise ValueError(f"aspects.reviewers: {', '.join(unknown)} is not a reviewer of the study")
        return self

    @model_validator(mode="after")
    def _unique_names(self) -> StudyConfig:
        for label, items in (("rewriter", self.rewriters), ("reviewer", self.reviewers)):
            names = [i.name for i in items]
            dupes = sorted({n for n in names if names.count(n) > 1})
            if dupes:
                raise ValueError(f"duplicate {label} name(s): {', '.join(dupes)}")
        return self

    @model_validator(mode="after")
    def _distinct_rewriters(self) -> StudyConfig:
        # Two rewriters whose specs differ only in their names make byte-identical variants of a
        # condition they share (the rule-based and injection rewriters are deterministic; LLM
        # rewrites with the same model, prompt and sampling are the same cached call). Such arms
        # compare a text with itself, and their work units (keyed by content and spec, not by
        # name) would be one unit stored under the last rewriter's name: the study is refused.
        first: dict[tuple[str, str], str] = {}
        for index, rewriter in enumerate(self.rewriters):
            spec = json.dumps(rewriter.output_spec(), sort_keys=True, default=str)
            for condition in rewriter.conditions:
                other = first.setdefault((spec, condition), rewriter.name)
                if other != rewriter.name:
                    raise ValueError(
                        f"rewriters[{index}]: rewriter {rewriter.name!r} produces {condition} exactly as rewriter "
                        f"{other!r} does (same kind, model and settings; the name does not change a rewrite), so "
                        "the two arms would hold identical texts; remove one, or change its model or settings")
        return self

    @model_validator(mode="after")
    def _rewriters_fit_study(self) -> StudyConfig:
        for index, rewriter in enumerate(self.rewriters):
            try:
                rewriter_kind(rewriter.kind).check_study(rewriter, self)
            except ValueError as exc:
                raise ValueError(f"rewriters[{index}]: rewriter {rewriter.name!r} of kind {rewriter.kind!r}: {exc}") from None
        return self

    @model_validator(mode="after")
    def _project_rewriters_have_projects(self) -> StudyConfig:
        for index, rewriter in enumerate(self.rewriters):
            if not rewriter_kind(rewriter.kind).uses_project:
                continue
            for d, spec in enumerate(self.documents):
                if spec.latex_project is None:
                    key = next(k for k in ("path", "dataset", "reviews", "pairs") if getattr(spec, k) is not None)
                    raise ValueError(f"rewriters[{index}]: rewriter {rewriter.name!r} of kind {rewriter.kind!r} rewrites "
                                     f"LaTeX projects only, but documents[{d}] ({key} {getattr(spec, key)!r}) is not a "
                                     "latex_project entry")
        return self

    @model_validator(mode="after")
    def _review_pieces_have_reviews(self) -> StudyConfig:
        """Impossible combinations of review pieces and documents, refused at load (issue 23.6):
        an ``imported`` rewriter reads the rewrites of ``pairs`` entries only; a ``review``
        rewriter rewrites review documents only; a ``judge`` scores reviews, not manuscripts."""
        def first_not(allowed: tuple[str, ...]) -> tuple[int, str] | None:
            for d, spec in enumerate(self.documents):
                key = next(k for k in ("path", "dataset", "reviews", "pairs", "latex_project")
                           if getattr(spec, k) is not None)
                if key not in allowed:
                    return d, f"documents[{d}].{key} ({getattr(spec, key)!r})"
            return None

        for index, rewriter in enumerate(self.rewriters):
            allowed = rewriter_kind(rewriter.kind).document_entries
            bad = first_not(allowed) if allowed is not None else None
            if bad is not None:
                raise ValueError(f"rewriters[{index}].kind: rewriter {rewriter.name!r} of kind {rewriter.kind!r} "
                                 f"{rewriter_kind(rewriter.kind).document_need} {bad[1]}; use a "
                                 f"{' or '.join(allowed)} entry, or another rewriter kind")
        for index, reviewer in enumerate(self.reviewers):
            allowed = evaluator_kind(reviewer.kind).document_entries
            bad = first_not(allowed) if allowed is not None else None
            if bad is not None:
                raise ValueError(f"reviewers[{index}].kind: reviewer {reviewer.name!r} of kind {reviewer.kind!r} "
                                 f"{evaluator_kind(reviewer.kind).document_need}, and {bad[1]} is a manuscript; "
                                 f"give review documents ({' or '.join(allowed)} entries) or a paper reviewer")
        return self

    @model_validator(mode="after")
    def _comparable_arms(self) -> StudyConfig:
        if not self.comparisons:
            return self
        known = {ORIGINAL, *self.conditions}
        known |= {arm_label(c, r.name) for r in self.rewriters for c in r.conditions}
        for index, pair in enumerate(self.comparisons):
            for side in pair:
                if side not in known:
                    raise ValueError(f"comparisons[{index}]: {side!r} is neither 'original' nor a condition "
                                     f"a rewriter produces ({', '.join(sorted(known))})")
            if self._arm_label(pair[0]) == self._arm_label(pair[1]):
                raise ValueError(f"comparisons[{index}]: compares the arm {self._arm_label(pair[0])!r} with itself; "
                                 "name two different arms")
        return self

    def _arm_label(self, side: str) -> str:
        """The arm a comparison side names in the tables: ``condition@rewriter`` is labelled
        ``condition`` when that rewriter is the condition's only producer
        (:func:`rhetorica.store.export.arm_labels`)."""
        condition, rewriter = split_arm(side)
        producers = [r.name for r in self.rewriters if condition in r.conditions]
        return condition if rewriter and producers == [rewriter] else side

    @property
    def conditions(self) -> list[str]:
        """Every condition some rewriter produces, in declaration order."""
        seen: list[str] = []
        for rewriter in self.rewriters:
            seen.extend(c for c in rewriter.conditions if c not in seen)
        return seen


def load_study(path: str | Path) -> tuple[StudyConfig, Path]:
    """Read and validate a study YAML file.

    Returns:
        The config and the folder relative paths are resolved against.

    Raises:
        ConfigError: unreadable file, invalid YAML, a key given twice in one mapping (named with
            both lines), or invalid content (every bad key named; a
            ``latex_project``'s ``main`` that is not a LaTeX main file of its folder).
    """
    path = Path(path)
    try:
        text = read_text_file(path, "study file")
    except TextFileError as exc:
        raise ConfigError(str(exc)) from exc
    try:
        data = load_unique(text)
    except DuplicateKeyError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise ConfigError(f"{path}: not valid YAML{where}: {problem}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a study file must be a YAML mapping of keys to values")
    config = parse_study(data, source=str(path))

    for index, spec in enumerate(config.documents):
        if spec.latex_project is None or spec.main is None:
            continue
        root = Path(spec.latex_project)
        problem = main_file_problem((root if root.is_absolute() else path.resolve().parent / root).resolve(), spec.main)
        if problem:
            raise ConfigError(f"{path}: documents[{index}].main: {problem}")
    return config, path.resolve().parent


def parse_study(data: dict[str, Any], source: str = "study") -> StudyConfig:
    """Validate a study given as a mapping.

    Raises:
        ConfigError: with one line per bad key.
    """
    try:
        return StudyConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(source, exc)) from exc
