"""``rhetorica estimate STUDY.yaml``: calls, tokens and cost of a study before anything runs.

Reads the documents and plans the study exactly as ``rhetorica run`` does, builds every prompt the
run would send, counts its tokens, and prices the calls with the price table
(:mod:`rhetorica.models.pricing`). Makes no model call, needs no API key, writes nothing.

What is counted:
- LLM rewrites: one call per non-empty section chunk; output expected about as long as the input
  chunk (the integrity rules keep length within ~10%).
- Reviews: one call per (original or variant, reviewer, replicate); variants not yet written are
  assumed as long as their original and assumed to pass validation; variants that failed it are
  left out when the study excludes them; output tokens at the reviewer's ``max_tokens`` cap (an
  upper bound: reviews usually stop earlier).
- Units already in the run's store are left out (a resumed study only pays for what is pending).
- Repair attempts after malformed output and retries are not counted (each adds at most one call).

Token counts use the model layer's approximation (words x 1.35), so expect about +/-20% against a
provider's tokenizer.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import typer
from pydantic import BaseModel

from rhetorica.models.api import Usage


class EstimateRow(BaseModel):
    """Planned calls of one stage on one model.

    Attributes:
        stage: ``rewrite`` or ``review``.
        model: model id as in the study file.
        calls: pending calls (>= 0).
        input_tokens: prompt tokens over those calls.
        output_tokens: output tokens over those calls (expected for rewrites, cap for reviews).
        cost_usd: at standard rates; ``None`` when the model has no price.
        batch_cost_usd: at batch rates; ``None`` when unpriced.
    """

    stage: str
    model: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    batch_cost_usd: float | None = None


class StudyEstimate(BaseModel):
    """The whole estimate: rows, totals, units already done, unpriced models, the budget."""

    study: str
    rows: list[EstimateRow]
    units_done: int
    units_pending: int
    total_cost_usd: float
    total_batch_cost_usd: float
    unpriced_models: list[str]
    budget_usd: float | None
    problems: list[str]


def _price_parts(model_id: str) -> tuple[str, str]:
    from rhetorica.models.registry import split_model_id

    provider, model = split_model_id(model_id)
    return provider, model.partition("@")[0] if provider == "openai-compatible" else model


def _existing(run_dir: Path, exclude_failed_checks: bool) -> tuple[set[str], set[str], dict[str, Any]]:
    """Done rewrite keys, done review keys and the variants that will be reviewed, by unit key.

    Variants that failed validation are left out when the study excludes them from review.
    Empty when the run's store does not exist yet.
    """
    from rhetorica.store.db import STORE_FILENAME, Store

    if not (run_dir / STORE_FILENAME).exists():
        return set(), set(), {}
    from rhetorica.documents.models import Document

    store = Store.in_dir(run_dir)
    try:
        failed = (
            {r[0] for r in store.rows("SELECT variant_key FROM checks WHERE passed = 0")}
            if exclude_failed_checks
            else set()
        )
        variants = {
            row["unit_key"]: Document.model_validate_json(row["document_json"])
            for row in store.rows("SELECT unit_key, document_json FROM variants WHERE status = 'ok'")
            if row["unit_key"] not in failed
        }
        done_rewrites = store.existing_keys("variants")
        return done_rewrites, store.existing_keys("assessments"), variants
    finally:
        store.close()


def estimate_study(study: Path, prices: Path | None = None) -> StudyEstimate:
    """Plan ``study`` and estimate its pending calls, tokens and cost.

    Args:
        study: the study YAML file.
        prices: price override file (default ``$RHETORICA_PRICES`` or none).

    Raises:
        ConfigError: the study file is invalid, or its output_dir is a file or cannot be created.
        ValueError: the price override file is invalid.
    """
    from rhetorica.models.pricing import FREE_PROVIDERS, load_prices, price_usage
    from rhetorica.models.providers.mock import TEXT_MARKER, MockModel
    from rhetorica.reviewers.llm_reviewer import DEFAULT_REVIEW_TOKENS, manuscript_text
    from rhetorica.reviewers.protocols import get_protocol
    from rhetorica.reviewers.protocols import system_prompt as review_prompt
    from rhetorica.rewriting.conditions import system_prompt as rewrite_prompt
    from rhetorica.rewriting.conditions import task_prompt
    from rhetorica.rewriting.llm import split_chunks
    from rhetorica.study import planner
    from rhetorica.study.config import load_study
    from rhetorica.study.inputs import load_documents, resolve_run_dir

    config, base_dir = load_study(study)
    table = load_prices(prices)
    count = MockModel().count_tokens  # the model layer's token approximation
    run_dir = resolve_run_dir(config, base_dir)
    problem_rows: list[tuple[str, str, str]] = []
    # the runner's own document loading (no store is opened for it)
    documents = load_documents(config, base_dir, problem_rows)
    validation = getattr(config, "validation", None)
    exclude = bool(validation and validation.enabled and validation.failed_variants == "exclude")
    done_rewrites, done_reviews, variants = _existing(run_dir, exclude)

    sums: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    units_done = units_pending = 0
    rewrites = planner.rewrite_units(documents, config.rewriters)
    for unit in rewrites:
        if unit.key in done_rewrites:
            units_done += 1
            continue
        units_pending += 1
        rw = unit.rewriter
        if rw.kind != "llm" or rw.model is None:
            continue
        system = count(rewrite_prompt(unit.condition))
        for section in unit.document.sections:
            if not section.text.strip():
                continue
            for chunk in split_chunks(section.text, rw.max_chunk_words):
                row = sums[("rewrite", rw.served_model)]
                row[0] += 1
                row[1] += system + count(f"{task_prompt()}\n{TEXT_MARKER}\n{chunk}")
                row[2] += count(chunk)

    # reviews of originals and of variants already written: planned with their real keys and text
    inputs = planner.original_inputs(documents) + [
        (variants[u.key], u.condition, u.rewriter.name, u.key) for u in rewrites if u.key in variants
    ]
    # variants not written yet: no review of them can exist; assume the original's length (and that
    # they pass validation: an upper bound)
    inputs_pending = [(u.document, u.condition, u.rewriter.name, u.key) for u in rewrites if u.key not in done_rewrites]
    for units, may_be_done in (
        (planner.review_units(inputs, config.reviewers, config.replicates), True),
        (planner.review_units(inputs_pending, config.reviewers, config.replicates), False),
    ):
        for unit in units:
            if may_be_done and unit.key in done_reviews:
                units_done += 1
                continue
            units_pending += 1
            rv = unit.reviewer
            if rv.kind == "control":  # simulated: no model call
                continue
            text, _ = manuscript_text(unit.document, rv.max_input_words)
            row = sums[("review", rv.served_model)]
            row[0] += 1
            row[1] += count(review_prompt(get_protocol(rv.protocol))) + count(text)
            row[2] += rv.sampling.max_tokens or DEFAULT_REVIEW_TOKENS

    rows: list[EstimateRow] = []
    unpriced: list[str] = []
    for (stage, model_id), (calls, tokens_in, tokens_out) in sorted(sums.items()):
        provider, name = _price_parts(model_id)
        price = table.lookup(provider, name)
        row = EstimateRow(stage=stage, model=model_id, calls=calls, input_tokens=tokens_in, output_tokens=tokens_out)
        if provider in FREE_PROVIDERS:
            row.cost_usd = row.batch_cost_usd = 0.0
        elif price is None:
            if model_id not in unpriced:
                unpriced.append(model_id)
        else:
            # price per call so that long-context tiers apply per prompt, as providers bill them
            mean_in, mean_out = tokens_in / max(calls, 1), tokens_out / max(calls, 1)
            usage = Usage(input_tokens=round(mean_in), output_tokens=round(mean_out))
            row.cost_usd = price_usage(price, usage) * calls
            row.batch_cost_usd = price_usage(price, usage, batch=True) * calls
        rows.append(row)
    return StudyEstimate(
        study=config.name,
        rows=rows,
        units_done=units_done,
        units_pending=units_pending,
        total_cost_usd=sum(r.cost_usd or 0.0 for r in rows),
        total_batch_cost_usd=sum(r.batch_cost_usd or 0.0 for r in rows),
        unpriced_models=unpriced,
        budget_usd=config.budget_usd,
        problems=[f"{item}: {reason}" for _, item, reason in problem_rows],
    )


def _money(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"${value:,.2f}" if value >= 1 or value == 0 else f"${value:.4f}"


def estimate(
    study: Path = typer.Argument(..., help="Study YAML file.", exists=True, dir_okay=False),
    prices: Path | None = typer.Option(None, "--prices", help="Price override file (JSON or YAML)."),
    as_json: bool = typer.Option(False, "--json", help="Print the estimate as JSON."),
) -> None:
    """Print the calls, tokens and cost a study will need, before anything runs (no model calls)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from rhetorica.study.config import ConfigError

    console = Console()
    try:
        result = estimate_study(study, prices)
    except (ConfigError, ValueError) as exc:
        Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    table = Table(title=f"Estimate for study '{escape(result.study)}' (pending work only)")
    for column in ("Stage", "Model", "Calls", "Input tokens", "Output tokens", "Cost", "Batch cost"):
        table.add_column(column, justify="left" if column in ("Stage", "Model") else "right")
    for row in result.rows:
        table.add_row(
            row.stage,
            escape(row.model),
            f"{row.calls:,}",
            f"{row.input_tokens:,}",
            f"{row.output_tokens:,}",
            _money(row.cost_usd),
            _money(row.batch_cost_usd),
        )
    calls = sum(r.calls for r in result.rows)
    table.add_row(
        "total",
        "",
        f"{calls:,}",
        f"{sum(r.input_tokens for r in result.rows):,}",
        f"{sum(r.output_tokens for r in result.rows):,}",
        _money(result.total_cost_usd),
        _money(result.total_batch_cost_usd),
    )
    console.print(table)
    console.print(
        f"Units pending: {result.units_pending}; already done: {result.units_done}. Review output "
        "is counted at the max_tokens cap (an upper bound); token counts are approximate (+/-20%)."
    )
    for model_id in result.unpriced_models:
        console.print(
            f"[yellow]no price for {escape(model_id)}[/yellow]: counted as $0; add it to a price override file "
            "(--prices or RHETORICA_PRICES).",
            highlight=False,
        )
    for problem in result.problems:
        console.print(f"[yellow]problem[/yellow] {escape(str(problem))}", highlight=False)
    if result.budget_usd is not None:
        verdict = "within" if result.total_cost_usd <= result.budget_usd else "OVER"
        console.print(f"Budget {_money(result.budget_usd)}: estimate is {verdict} budget.")
