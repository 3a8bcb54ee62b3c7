"""Calls, tokens and cost of a study before anything runs (``rhetorica estimate STUDY.yaml``).

Reads the documents and walks the study's unit graph as ``rhetorica run`` does
(:func:`rhetorica.study.graph.walk`), builds every prompt the run would send with the stages' own
prompt builders (:meth:`rhetorica.study.stages.Stage.calls`), counts its tokens, and prices the calls with the price table
(:mod:`rhetorica.models.pricing`). Makes no model call, needs no API key, writes nothing.

The estimate is an upper bound of the calls a run makes (the call log's requests, transport
retries aside) and of their cost. Every call a unit may make is counted, in a row of its own term
(``<stage> <term> (at most)``) when only some answers call for it:

- LLM rewrites: one call per non-empty section chunk, output at the cap the call is sent with
  (:func:`rhetorica.study.planned_calls.rewrite_cap`); term ``truncation retries``: the second
  seed a truncated chunk gets.
- LaTeX-project rewrites (``latex-project``; :func:`rhetorica.study.project_rewrite.planned_calls`):
  one call per chosen paragraph (at most ``project.max_paragraphs_per_file`` per manuscript file)
  and unit — each condition and ``joint`` once, ``recursive:<n>`` once more per pass on top of the
  pass before, ``guided`` the rewriting model's review of the joint variant (stage ``guided-review``)
  and its second rewrite (stage ``guided-rewrite``); term ``repair rounds``: every chosen paragraph
  again per round; term ``truncation retries``. ``agent`` rewriters make no call of rhetorica's but
  the guided review.
- Worst-case searches (rewriter kind ``attack``, stage ``attack``;
  :meth:`rhetorica.attack.kind.AttackRewriter.planned_calls`): per (document, target, direction)
  ``k·T`` proposals (one call per chunk of the sections in scope) and
  ``min(k·T·r + r, max_queries)`` reviews by the target as its kind plans them (repairs, external
  calls); a search stopped by its budget, or whose candidates fail validation, makes fewer. Its
  winners' held-out reviews are the review rows.
- Reviews: one call per (original or variant, reviewer, replicate); variants not yet written are
  assumed as long as their original and assumed to pass validation; variants that failed it are
  left out when the study excludes them; output tokens at the reviewer's ``max_tokens`` cap.
  Term ``repairs``: the one repair call an invalid structured answer gets (reviews, judges, core
  extraction, the guided review), its input the first request plus the first answer at its cap
  and a :data:`~rhetorica.study.planned_calls.REPAIR_NOTE_TOKENS` note.
- External reviewers (``command``, ``http``, ``python``): one call per review unit, model
  ``<kind>:<reviewer>``, at the reviewer's ``cost_per_call_usd`` (default $0).
- Structured-output probes (row :data:`PROBES_ROW`): a provider that negotiates its mode
  (OpenAI-compatible, mode not pinned) may have each mode but the last rejected once per endpoint,
  each as large as the largest structured request.
- Units already in the run's store are left out (a resumed study only pays for what is pending).
- Not counted: transport retries of a failed request (rate limits, server errors; the settings'
  attempts bound them). LaTeX projects are compiled to read their baseline (a compile the run
  directory already holds is reused; any other goes to a temporary folder, removed after).

Input tokens are the requests as sent, counted as the budget reserves them
(:mod:`rhetorica.models.request_size`: the model's own tokenizer where one is at hand offline,
else its family's calibrated characters-per-token ratio; the schema, extras and chat template
included).

Costs, per row: at list prices; with the model's prompt cache (:func:`rhetorica.study.scheduling.prompt_cache`:
a call whose prompt repeats an earlier call's on the same model — the replicates of one input and
configuration, which the runner sends right after the first — reads from a ``prefix`` cache what
:func:`rhetorica.models.pricing.cached_prefix_tokens` says (nothing below
:data:`rhetorica.models.pricing.MIN_CACHED_PREFIX_TOKENS` tokens; OpenAI in 128-token steps), and the
first call of such a prompt pays the cache-write rate where the model has one; a ``slots`` server
reuses the whole repeated prompt (the runner sends a group's replicates to one slot back to back);
``none`` reuses nothing, and so does an openai-compatible server whose cache the run would ask it
for: ``estimate`` sends no request); at
batch prices; and at batch prices with the cache where the price table has a batch cached-input
rate (the provider documents that the two discounts combine), else ``None``.

Warnings (:attr:`StudyEstimate.warnings`): calls (each term's apart) whose request and output cap
may exceed the model's known context window (:func:`context_window`: the embedded model's ``n_ctx``, 8,192 tokens by default),
and models the price table does not know (counted as $0; the closest priced names of that provider
are suggested, since a mistyped model name is the usual cause).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from rhetorica.models.api import Usage
from rhetorica.hashing import content_hash
from rhetorica.models.pricing import (MIN_CACHED_PREFIX_TOKENS, cached_prefix_rule, cached_prefix_tokens, load_prices,
                                       price_usage)
from rhetorica.models.errors import ModelError
from rhetorica.models.registry import provider_class, provider_is_free, split_model_id
from rhetorica.problems import WARNING_PREFIX, is_warning
from rhetorica.store.db import STORE_FILENAME, Store
from rhetorica.study import graph, scheduling
from rhetorica.study.config import load_study
from rhetorica.study.inputs import load_documents, resolve_run_dir
from rhetorica.study.scanning import StoreScanCache
from rhetorica.study.stages import reference_warnings
import difflib
import tempfile


class EstimateRow(BaseModel):
    """Planned calls of one stage on one model.

    Attributes:
        stage: a stage of the walk (``rewrite``, ``rewrite-2``, ``review``, ...), ``<stage> <term>
            (at most)`` for the calls of one term of the bound (``repairs``, ``truncation
            retries``, ``repair rounds``), or :data:`PROBES_ROW`.
        model: model id as in the study file (``<kind>:<reviewer>`` for an external reviewer).
        calls: pending calls (>= 0).
        input_tokens: prompt tokens over those calls.
        output_tokens: output tokens over those calls (each call's cap).
        cached_input_tokens: of ``input_tokens``, those expected from the provider's prompt cache.
        cache_write_tokens: of ``input_tokens``, those expected to be written to it (billed).
        cost_usd: at standard rates; ``None`` when the model has no price.
        cached_cost_usd: at standard rates with the prompt cache; ``None`` when unpriced.
        batch_cost_usd: at batch rates; ``None`` when unpriced.
        batch_cached_cost_usd: at batch rates with the prompt cache; ``None`` when unpriced or when
            the provider does not document that the two discounts combine.
    """

    stage: str
    model: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = None
    cached_cost_usd: float | None = None
    batch_cost_usd: float | None = None
    batch_cached_cost_usd: float | None = None


class StudyEstimate(BaseModel):
    """The whole estimate: rows, totals, units already done, unpriced models, the budget, the input
    problems (a document or line left out: ``rhetorica run`` would exit 1) and the warnings (inputs
    read with a note, as ``rhetorica run`` lists them; context windows exceeded; models without a
    price)."""

    study: str
    rows: list[EstimateRow]
    units_done: int
    units_pending: int
    total_cost_usd: float
    total_cached_cost_usd: float
    total_batch_cost_usd: float
    total_batch_cached_cost_usd: float
    """Batch with the cache where the provider combines them, plain batch elsewhere."""
    unpriced_models: list[str]
    budget_usd: float | None
    problems: list[str]
    warnings: list[str] = []
    bound_terms: dict[str, int] = {}
    """Calls per term of the bound: ``planned`` (the calls every unit makes), then each term's
    (``repairs``, ``truncation retries``, ``repair rounds``, ``structured-output probes``,
    ``external calls``), in that order of first appearance."""


#: Context windows (tokens) of models whose window rhetorica knows, by model id. SmolLM2-135M was
#: trained with 8,192 tokens (its model card), the embedded provider's default ``n_ctx``.
KNOWN_CONTEXT_WINDOWS: dict[str, int] = {"embedded/smollm2-135m": 8192}


def context_window(model_id: str, options: dict[str, object] | None = None) -> int | None:
    """The context window of ``model_id`` in tokens: an ``n_ctx`` option (embedded), else
    :data:`KNOWN_CONTEXT_WINDOWS`; ``None`` when unknown (no warning is then possible)."""
    n_ctx = (options or {}).get("n_ctx")
    if isinstance(n_ctx, int):
        return n_ctx
    return KNOWN_CONTEXT_WINDOWS.get(model_id)


def _model_options(config: object) -> dict[str, dict[str, object]]:
    """Model id -> the options a reviewer or rewriter of the study gives it (first one wins)."""
    found: dict[str, dict[str, object]] = {}
    for item in [*getattr(config, "rewriters", []), *getattr(config, "reviewers", [])]:
        model = getattr(item, "model", None)
        options = getattr(item, "options", None)
        if isinstance(model, str) and options is not None and hasattr(options, "as_kwargs"):
            given = options.as_kwargs()
            nested = given.get("model_options")  # a judge's model options
            found.setdefault(model, {**given, **(nested if isinstance(nested, dict) else {})})
    return found


def unpriced_warning(model_id: str, known: list[str]) -> str:
    """The warning for a model without a price: counted as $0, and the closest of ``known``
    (priced ``provider/model`` names) when one is close, since a mistyped name is the usual cause."""

    provider = model_id.partition("/")[0]
    close = difflib.get_close_matches(model_id.partition("@")[0], [k for k in known if k.startswith(f"{provider}/")],
                                      n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else f"; the price table knows no {provider} model like it"
    return (f"no price for {model_id}: counted as $0{hint} (a model the table lacks: add it to a price override "
            "file, --prices or RHETORICA_PRICES)")


#: The row of the structured-output probes an endpoint may get (:func:`_probe_requests`).
PROBES_ROW = "structured-output probes (at most)"


def _probe_requests(config: Any, model_id: str, options: dict[str, object]) -> int:
    """Requests an endpoint may reject while its structured-output mode is found
    (:mod:`rhetorica.models.negotiation`: each mode but the last is rejected at most once per
    endpoint and run), over the endpoints of ``model_id``; 0 for a provider that does not
    negotiate or a pinned mode (``structured_output`` or ``extra_body.response_format``)."""
    provider = model_id.partition("/")[0]
    try:
        modes = provider_class(provider).negotiated_modes
    except ModelError:  # an unknown provider, or one whose extra is not installed: the run reports it
        return 0
    declared = next((m for m in getattr(config, "models", {}).values()
                     if f"{m.provider}/{m.model}" == model_id), None)
    if declared is not None:
        options = {**options, **declared.options.as_kwargs()}
    extra = options.get("extra_body")
    pinned = options.get("structured_output") not in (None, "auto") or (
        isinstance(extra, dict) and "response_format" in extra)
    if not modes or pinned:
        return 0
    endpoints = len(declared.endpoints) if declared is not None else 1
    return (len(modes) - 1) * endpoints


def _price_parts(model_id: str) -> tuple[str, str]:

    provider, model = split_model_id(model_id)
    return provider, model.partition("@")[0] if provider == "openai-compatible" else model


def assumed_reuse(model: str, models: Mapping[str, Any]) -> str:
    """What :func:`estimate_study` assumes a repeated prompt of ``model`` (a declared name or a
    ``provider/...`` id) reads from its server's cache, in the report's words: the cache model
    (:func:`rhetorica.study.scheduling.cache_model`) without a probe, since the estimate sends no
    request (an undeclared openai-compatible server: ``none (not asked of the server)``)."""
    cache = scheduling.cache_model(model, models)
    spec = models.get(model)
    provider = spec.provider if spec is not None else model.split("/", 1)[0]
    if cache.kind == "slots":
        return "slots: a repeated prompt, whole"
    if cache.kind == "prefix":
        return f"prefix: a repeated prompt {cached_prefix_rule(provider)}"
    return "none (not asked of the server)" if cache.source == "not probed" else "none"


def estimate_study(study: Path, prices: Path | None = None) -> StudyEstimate:
    """Plan ``study`` and estimate its pending calls, tokens and cost.

    Args:
        study: the study YAML file.
        prices: price override file (default ``$RHETORICA_PRICES`` or none).

    Raises:
        ConfigError: the study file is invalid, or its output_dir is a file or cannot be created.
        ValueError: the price override file is invalid.
    """


    config, base_dir = load_study(study)
    table = load_prices(prices)
    run_dir = resolve_run_dir(config, base_dir)
    problem_rows: list[tuple[str, str, str]] = []
    scratch = tempfile.TemporaryDirectory(prefix="rhetorica-estimate-")  # baselines compiled for the estimate
    path = run_dir / STORE_FILENAME
    store = Store.open_readonly(path) if path.is_file() else None

    # (row, model) -> [calls, input tokens, output tokens, cached input, cache-write input, fixed cost]
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0.0])
    structured: dict[str, int] = {}  # model sent an output schema -> its largest such request (tokens)
    external: set[str] = set()  # external reviewers (``<kind>:<name>``), at their cost per call
    sent: set[str] = set()  # prompts (model, messages) an earlier call sent: the cache holds them
    options = _model_options(config)
    # (stage, model) -> [calls over the model's context window, largest call's tokens, window]
    over: dict[tuple[str, str], list[int]] = {}
    units_done = units_pending = 0
    try:
        # the runner's own document loading; hidden-text scans read from the run's scan cache
        documents = load_documents(config, base_dir, problem_rows, run_dir=run_dir, compile_dir=Path(scratch.name),
                                   scan_cache=StoreScanCache(store, writable=False))
        problem_rows += reference_warnings(config, documents)
        for step in graph.walk(config, documents, store, assume_pending=True):
            stage = step.stage
            done = stage.finished(store, False) if store is not None else set()
            # units waiting on an upstream unit cannot be done; their text is assumed (the original's)
            pending = [u for u in step.units if u.key not in done] + step.waiting
            units_done += len(step.units) + len(step.waiting) - len(pending)
            units_pending += len(pending)
            for unit in pending:
                for call in stage.calls(unit):
                    declared = config.models.get(call.model)  # a stage that names a declared model (aspects: gpt)
                    if declared is not None:
                        call = replace(call, model=f"{declared.provider}/{declared.model}")
                    label = f"{stage.name} {call.term} (at most)" if call.term else stage.name
                    row = sums[(label, call.model)]
                    tokens = call.input_tokens()
                    row[0] += 1
                    row[1] += tokens
                    row[2] += call.output_tokens
                    if call.fixed_cost_usd is not None:
                        row[5] += call.fixed_cost_usd
                        external.add(call.model)
                        continue
                    if call.schema is not None:
                        structured[call.model] = max(structured.get(call.model, 0), tokens)
                    cache = scheduling.prompt_cache(unit, config.models).kind
                    if cache != "none" and (tokens >= MIN_CACHED_PREFIX_TOKENS or cache == "slots"):
                        # the same prompt of the same input (a pending variant's text is assumed)
                        prompt = content_hash(call.model, scheduling.prompt_group(unit) or unit.key,
                                              [(m.role, m.content) for m in call.messages])
                        if prompt in sent:  # a provider's prefix cache by its rule; a slot whole
                            row[3] += (tokens if cache == "slots"
                                       else cached_prefix_tokens(call.model.split("/", 1)[0], tokens))
                        elif cache == "prefix":
                            row[4] += tokens  # the first call writes the cache (billed where the model says)
                        sent.add(prompt)
                    window = context_window(call.model, options.get(call.model))
                    if window is not None and tokens + call.output_tokens > window:
                        seen = over.setdefault((label, call.model), [0, 0, window])
                        seen[0] += 1
                        seen[1] = max(seen[1], tokens + call.output_tokens)
    finally:
        if store is not None:
            store.close()
        scratch.cleanup()

    for model_id, largest in sorted(structured.items()):
        probes = _probe_requests(config, model_id, options.get(model_id, {}))
        if probes:  # a rejected probe is sent as large as the call it negotiates for: at most the largest
            sums[(PROBES_ROW, model_id)] = [probes, largest * probes, 0, 0, 0, 0.0]

    rows: list[EstimateRow] = []
    unpriced: list[str] = []
    for (stage_name, model_id), (calls, tokens_in, tokens_out, cached, first, fixed) in sorted(sums.items()):
        calls, tokens_in, tokens_out, cached, first = int(calls), int(tokens_in), int(tokens_out), int(cached), int(first)
        row = EstimateRow(stage=stage_name, model=model_id, calls=calls, input_tokens=tokens_in,
                          output_tokens=tokens_out, cached_input_tokens=cached)
        if model_id in external:
            row.cost_usd = row.cached_cost_usd = row.batch_cost_usd = row.batch_cached_cost_usd = fixed
            rows.append(row)
            continue
        provider, name = _price_parts(model_id)
        price = table.lookup(provider, name)
        if provider_is_free(provider):
            row.cost_usd = row.cached_cost_usd = row.batch_cost_usd = row.batch_cached_cost_usd = 0.0
        elif price is None:
            if model_id not in unpriced:
                unpriced.append(model_id)
        else:
            # price per call so that long-context tiers apply per prompt, as providers bill them
            mean_in, mean_out = tokens_in / max(calls, 1), tokens_out / max(calls, 1)
            usage = Usage(input_tokens=round(mean_in), output_tokens=round(mean_out))
            row.cost_usd = price_usage(price, usage) * calls
            row.batch_cost_usd = price_usage(price, usage, batch=True) * calls
            if price.cache_write_input is not None:  # the provider bills writing the cache
                row.cache_write_tokens = first
            cache_usage = usage.model_copy(update={"cached_tokens": round(cached / max(calls, 1))})
            write = round(row.cache_write_tokens / max(calls, 1))
            row.cached_cost_usd = price_usage(price, cache_usage, cache_write_tokens=write) * calls
            if price.batch_cached_input is not None:
                row.batch_cached_cost_usd = price_usage(price, cache_usage, batch=True, cache_write_tokens=write) * calls
        rows.append(row)
    terms: dict[str, int] = {"planned": 0}
    for row in rows:
        term = ("structured-output probes" if row.stage == PROBES_ROW else "external calls" if row.model in external
                else row.stage.partition(" ")[2].removesuffix(" (at most)") or "planned")
        terms[term] = terms.get(term, 0) + row.calls
    return StudyEstimate(
        study=config.name,
        bound_terms=terms,
        rows=rows,
        units_done=units_done,
        units_pending=units_pending,
        total_cost_usd=sum(r.cost_usd or 0.0 for r in rows),
        total_cached_cost_usd=sum(r.cached_cost_usd or 0.0 for r in rows),
        total_batch_cost_usd=sum(r.batch_cost_usd or 0.0 for r in rows),
        total_batch_cached_cost_usd=sum(
            (r.batch_cached_cost_usd if r.batch_cached_cost_usd is not None else r.batch_cost_usd) or 0.0
            for r in rows),
        unpriced_models=unpriced,
        budget_usd=config.budget_usd,
        problems=[f"{item}: {reason}" for _, item, reason in problem_rows if not is_warning(reason)],
        warnings=[*(f"{item}: {reason[len(WARNING_PREFIX):]}" for _, item, reason in problem_rows
                    if is_warning(reason)),
                  *(f"{n} {stage_name} call(s) to {model_id} need more than its {window:,}-token context window "
                    f"(largest about {largest:,} tokens, prompt and output): they will come back truncated or fail; "
                    "shorten the documents (document_options.max_words) or give the model a larger window"
                    for (stage_name, model_id), (n, largest, window) in sorted(over.items())),
                  *(unpriced_warning(m, sorted(table.models)) for m in unpriced)],
    )
