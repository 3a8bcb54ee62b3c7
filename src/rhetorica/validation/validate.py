"""Validate one variant against its original: all measures, thresholds, pass/fail with reasons."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.documents.models import Document
from rhetorica.rewriting.conditions import Condition, parse_condition
from rhetorica.validation.embeddings import DEFAULT_MODEL, Embedder, load_embedder
from rhetorica.validation.integrity import passage_similarities, tfidf_cosine_tokens
from rhetorica.validation.measures import TextMeasures, measure_text
from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon
from rhetorica.validation.shift import ShiftCheck, shift_checks
from rhetorica.validation.spans import SpanReport, compare_spans
from rhetorica.tokenizer import tokenize
from rhetorica.wording import counted

MEASURES = (
    "words",
    "mtld",
    "advanced_guiraud",
    "gunning_fog",
    "boosters_per_1k",
    "hedges_per_1k",
)
"""Per-text measures, in Table-2 order (``words`` first)."""


class ValidationThresholds(BaseModel):
    """Pass/fail thresholds for a variant (a study config section).

    Defaults are deliberately lenient guards against broken rewrites, not targets: faithful rewrites
    score far above them (the 'Style over Substance' study reports similarities of about 0.99).

    Attributes:
        min_semantic_similarity: lowest passage-level semantic similarity, in [-1, 1]
            (default 0.90).
        min_passage_similarity: lowest best-match similarity allowed for any single original
            passage (catches one dropped or rewritten-away paragraph that the mean hides);
            ``None`` (default) does not check it.
        min_tfidf_cosine: lowest TF-IDF cosine on uni+bigrams, in [0, 1] (default 0.60; style
            rewrites change wording, so this sits well below the semantic threshold).
        require_protected_spans: fail when any protected span of the original is missing.
        max_length_ratio_deviation: largest allowed ``|variant words / original words - 1|``
            (default 0.20: the studies' rewriters are told to keep length).
        context_limit_tokens: reviewer context limit or cut point in tokens; a variant that
            crosses it while its original does not fails (``None``: no check).
        require_intended_shift: fail a variant identical to its original, and one whose measure of
            the rewritten dimension did not move in the intended direction
            (:mod:`rhetorica.validation.shift`; checked when the condition is given).
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    min_semantic_similarity: float = Field(default=0.90, ge=-1.0, le=1.0)
    min_passage_similarity: float | None = Field(default=None, ge=-1.0, le=1.0)
    min_tfidf_cosine: float = Field(default=0.60, ge=0.0, le=1.0)
    require_protected_spans: bool = True
    max_length_ratio_deviation: float = Field(default=0.20, ge=0.0)
    context_limit_tokens: int | None = Field(default=None, ge=1)
    require_intended_shift: bool = True


class VariantValidation(BaseModel):
    """Everything measured for one variant, and the verdict.

    Attributes:
        document_id: the shared id of original and variant.
        original_hash: content hash of the original.
        variant_hash: content hash of the variant.
        original: measures of the original.
        variant: measures of the variant.
        semantic_similarity: passage-level similarity, ``None`` if a side has no text.
        min_passage_similarity: the worst original passage's best-match similarity.
        embedding_model: name of the embedding model used.
        tfidf_cosine: TF-IDF cosine, ``None`` if a side has no words.
        protected: protected-span comparison.
        length_ratio: variant words / original words (``None`` if the original has none).
        original_tokens: token count of the original (``count_tokens`` of its Markdown).
        variant_tokens: token count of the variant.
        crosses_context_limit: the variant crosses ``context_limit_tokens`` and the original not.
        lexicon_version: version of the hedge/booster lexicon.
        condition: the rewrite condition, when given.
        identical: the variant's text equals the original's (the rewrite changed nothing).
        shift: directional checks of the intended shift (empty without a condition).
        thresholds: thresholds applied.
        passed: whether every check passed.
        reasons: one sentence per failed check (empty when passed).
    """

    document_id: str
    original_hash: str
    variant_hash: str
    original: TextMeasures
    variant: TextMeasures
    semantic_similarity: float | None
    min_passage_similarity: float | None = None
    embedding_model: str
    tfidf_cosine: float | None
    protected: SpanReport
    length_ratio: float | None
    original_tokens: int
    variant_tokens: int
    crosses_context_limit: bool
    lexicon_version: str
    condition: str | None = None
    identical: bool = False
    shift: list[ShiftCheck] = Field(default_factory=list)
    thresholds: ValidationThresholds
    passed: bool
    reasons: list[str]


class CheckVerdict(BaseModel):
    """What a variant validator decides (:func:`validate_variant`'s result, a document kind's
    validator of :data:`rhetorica.registry.variant_validators`): the validate stage makes the
    variant's ``checks`` row of it.

    Attributes:
        passed: the variant passed every check.
        reasons: why it did not (empty when it passed).
        result_json: the whole result as JSON (the ``checks`` row's ``result_json``).
        error: the variant could not be checked at all (``passed`` is then false).
    """

    model_config = ConfigDict(frozen=True)

    passed: bool
    reasons: list[str]
    result_json: str
    error: bool = False

    @property
    def status(self) -> str:
        """The validate unit's status: ``error``, ``ok`` (passed) or ``failed``."""
        return "error" if self.error else "ok" if self.passed else "failed"


class ValidationFailure(BaseModel):
    """A variant that could not be validated (bad input or a failed measure); never imputed.

    Attributes:
        document_id: id of the original.
        error: one sentence naming the problem.
    """

    document_id: str
    error: str


def approximate_tokens(text: str) -> int:
    """Rough model-token count: ``ceil(characters / 4)``.

    OpenAI's rule of thumb for English (about four characters per token); pass a real tokenizer's
    counter to :func:`validate_variant` for a specific reviewer model.

    Args:
        text: any text.

    Returns:
        Estimated tokens (>= 0).
    """
    return math.ceil(len(text) / 4)


def _body(document: Document) -> list[str]:
    return [section.text for section in document.sections]


def _num(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.2f}"


def _check_pair(original: Document, variant: Document) -> None:
    if variant.id != original.id:
        raise ValueError(f"variant id {variant.id!r} differs from original id {original.id!r}")
    if len(variant.sections) != len(original.sections):
        raise ValueError(
            f"document {original.id!r}: variant has {counted(len(variant.sections), 'section')}, "
            f"original has {len(original.sections)}"
        )


def _reasons(v: dict[str, Any], t: ValidationThresholds) -> list[str]:
    reasons: list[str] = []
    sim = v["semantic_similarity"]
    if sim is None:
        reasons.append("semantic similarity undefined: a side has no text")
    elif sim < t.min_semantic_similarity:
        reasons.append(f"semantic similarity {sim:.3f} < {t.min_semantic_similarity:.3f}")
    worst = v["min_passage_similarity"]
    if worst is not None and t.min_passage_similarity is not None:
        if worst < t.min_passage_similarity:
            reasons.append(
                f"least preserved passage similarity {worst:.3f} < {t.min_passage_similarity:.3f}"
            )
    tfidf = v["tfidf_cosine"]
    if tfidf is None:
        reasons.append("TF-IDF cosine undefined: a side has no words")
    elif tfidf < t.min_tfidf_cosine:
        reasons.append(f"TF-IDF cosine {tfidf:.3f} < {t.min_tfidf_cosine:.3f}")
    spans: SpanReport = v["protected"]
    if t.require_protected_spans and spans.missing:
        shown = ", ".join(f"{s.kind} {s.value!r}" for s in spans.missing[:5])
        more = f" (+{len(spans.missing) - 5} more)" if len(spans.missing) > 5 else ""
        reasons.append(f"{len(spans.missing)} protected span(s) missing: {shown}{more}")
    ratio = v["length_ratio"]
    dev = t.max_length_ratio_deviation
    if ratio is None:
        reasons.append("length ratio undefined: the original has no words")
    elif abs(ratio - 1.0) > dev:
        reasons.append(f"length ratio {ratio:.2f} outside [{1 - dev:.2f}, {1 + dev:.2f}]")
    if v["crosses_context_limit"]:
        reasons.append(
            f"variant ({counted(v['variant_tokens'], 'token')}) crosses the context limit of "
            f"{counted(t.context_limit_tokens, 'token')} that the original ({v['original_tokens']}) does not"
        )
    return reasons


def validate_variant(
    original: Document,
    variant: Document,
    thresholds: ValidationThresholds | None = None,
    *,
    embedder: Embedder | None = None,
    count_tokens: Callable[[str], int] = approximate_tokens,
    condition: Condition | str | None = None,
) -> VariantValidation:
    """Measure a variant against its original and decide pass/fail.

    Measures: lexical and metadiscourse measures of both texts (:func:`measure_text` on the
    section bodies joined by blank lines; headings excluded), semantic similarity
    (:func:`rhetorica.validation.integrity.semantic_similarity`, with the worst passage's
    similarity alongside), TF-IDF cosine
    (:func:`rhetorica.validation.integrity.tfidf_cosine`), protected spans
    (:func:`rhetorica.validation.spans.compare_spans`), length ratio and the context-limit guard.

    Args:
        original: the original document.
        variant: its rewrite: same id, same number of sections.
        thresholds: pass/fail thresholds (default :class:`ValidationThresholds`).
        embedder: embedding model; default :func:`rhetorica.validation.embeddings.load_embedder`
            (all-MiniLM-L6-v2, loaded once per process).
        count_tokens: token counter for the context-limit guard (default
            :func:`approximate_tokens`), applied to each document's Markdown.
        condition: the rewrite condition, for the intended-shift check.

    Returns:
        :class:`VariantValidation`.

    Raises:
        ValueError: if the ids or the section counts differ.
        ImportError: if no embedder is given and the ``validation`` extra is missing.
    """
    _check_pair(original, variant)
    limits = thresholds if thresholds is not None else ValidationThresholds()
    model = embedder if embedder is not None else load_embedder(DEFAULT_MODEL)
    before, after = _body(original), _body(variant)
    words_before = tokenize("\n\n".join(before))
    words_after = tokenize("\n\n".join(after))
    measures_before, measures_after = measure_text(words_before), measure_text(words_after)
    tokens_before = count_tokens(original.to_markdown())
    tokens_after = count_tokens(variant.to_markdown())
    limit = limits.context_limit_tokens
    best = passage_similarities(before, after, model)
    values: dict[str, Any] = {
        "semantic_similarity": None if best is None else float(best.mean()),
        "min_passage_similarity": None if best is None else float(best.min()),
        "tfidf_cosine": tfidf_cosine_tokens(words_before, words_after),
        "protected": compare_spans(words_before, words_after),
        "length_ratio": (
            measures_after.words / measures_before.words if measures_before.words else None
        ),
        "original_tokens": tokens_before,
        "variant_tokens": tokens_after,
        "crosses_context_limit": limit is not None and tokens_after > limit >= tokens_before,
    }
    reasons = _reasons(values, limits)
    identical = original.content_hash == variant.content_hash
    parts = parse_condition(condition).parts if condition else ()
    shift = shift_checks(condition, measures_before, measures_after) if condition else []
    direction = {part.name: part.direction for part in parts}
    if limits.require_intended_shift:
        if identical:
            reasons.append("variant is identical to its original: the rewrite changed nothing")
        else:
            reasons.extend(
                f"intended shift absent: {c.condition} needs {c.measure} to "
                f"{'rise' if direction[c.condition] == '+' else 'fall'} (original {_num(c.original)}, "
                f"variant {_num(c.variant)})"
                for c in shift if not c.present)
    return VariantValidation(
        document_id=original.id,
        original_hash=original.content_hash,
        variant_hash=variant.content_hash,
        original=measures_before,
        variant=measures_after,
        embedding_model=model.name,
        lexicon_version=load_metadiscourse_lexicon().version,
        condition=condition,
        identical=identical,
        shift=shift,
        thresholds=limits,
        passed=not reasons,
        reasons=reasons,
        **values,
    )


def validate_many(
    pairs: Iterable[tuple[Document, Document]],
    thresholds: ValidationThresholds | None = None,
    *,
    embedder: Embedder | None = None,
    count_tokens: Callable[[str], int] = approximate_tokens,
) -> list[VariantValidation | ValidationFailure]:
    """Validate many (original, variant) pairs; a bad pair becomes a :class:`ValidationFailure`.

    Args:
        pairs: (original, variant) documents.
        thresholds: as in :func:`validate_variant`.
        embedder: as in :func:`validate_variant` (loaded once for the batch when ``None``).
        count_tokens: as in :func:`validate_variant`.

    Returns:
        One result per pair, in order.

    Raises:
        ImportError: if no embedder is given and the ``validation`` extra is missing.
    """
    model = embedder if embedder is not None else load_embedder(DEFAULT_MODEL)
    results: list[VariantValidation | ValidationFailure] = []
    for original, variant in pairs:
        try:
            results.append(
                validate_variant(
                    original, variant, thresholds, embedder=model, count_tokens=count_tokens
                )
            )
        except (ValueError, RuntimeError) as exc:
            results.append(ValidationFailure(document_id=original.id, error=str(exc)))
    return results


def validation_row(
    validation: VariantValidation, *, condition: str, rewriter: str
) -> dict[str, Any]:
    """Flatten a :class:`VariantValidation` into one tidy row (input of
    :func:`rhetorica.validation.summary.summarise_by_condition`).

    Args:
        validation: the result.
        condition: rewrite condition name (e.g. ``"confidence:+"``).
        rewriter: rewriter name.

    Returns:
        Dict with ``document_id``, ``condition``, ``rewriter``, the variant's measures under their
        names (:data:`MEASURES`), the original's as ``original_<measure>``, ``semantic_similarity``,
        ``min_passage_similarity``, ``tfidf_cosine``, ``protected_spans_kept`` (fraction),
        ``protected_missing``, ``protected_added``, ``length_ratio``, ``crosses_context_limit``,
        ``passed`` and ``reasons`` (joined by ``"; "``).
    """
    row: dict[str, Any] = {
        "document_id": validation.document_id,
        "condition": condition,
        "rewriter": rewriter,
    }
    for name in MEASURES:
        row[name] = getattr(validation.variant, name)
    for name in MEASURES:
        row[f"original_{name}"] = getattr(validation.original, name)
    row.update(
        semantic_similarity=validation.semantic_similarity,
        min_passage_similarity=validation.min_passage_similarity,
        tfidf_cosine=validation.tfidf_cosine,
        protected_spans_kept=validation.protected.kept_fraction,
        protected_missing=len(validation.protected.missing),
        protected_added=len(validation.protected.added),
        length_ratio=validation.length_ratio,
        crosses_context_limit=validation.crosses_context_limit,
        passed=validation.passed,
        reasons="; ".join(validation.reasons),
    )
    return row
