"""validate_variant / validate_many / validation_row on real papers (first sections, for speed)."""

from __future__ import annotations

import pytest

from rhetorica.documents.models import Document, Section
from rhetorica.validation.validate import (
    ValidationFailure,
    ValidationThresholds,
    VariantValidation,
    approximate_tokens,
    validate_many,
    validate_variant,
    validation_row,
)


@pytest.fixture(scope="module")
def original(shared_papers: dict[str, Document]) -> Document:
    doc = shared_papers["chebnet_nips2016"]
    return doc.model_copy(update={"sections": doc.sections[:3]})


def _edit(doc: Document, old: str, new: str) -> Document:
    sections = [
        Section(title=s.title, text=s.text.replace(old, new), level=s.level) for s in doc.sections
    ]
    return doc.model_copy(update={"sections": sections})


def test_identical_variant_has_perfect_integrity_but_no_shift(original: Document, embedder) -> None:  # type: ignore[no-untyped-def]
    result = validate_variant(original, original, embedder=embedder)
    # Every integrity check passes; the only failure is that the rewrite changed nothing.
    assert result.identical and not result.passed
    assert result.reasons == ["variant is identical to its original: the rewrite changed nothing"]
    assert result.semantic_similarity == pytest.approx(1.0, abs=1e-5)
    assert result.tfidf_cosine == pytest.approx(1.0)
    assert result.protected.kept_fraction == 1.0 and result.length_ratio == 1.0
    assert result.original == result.variant
    assert result.embedding_model == "all-MiniLM-L6-v2"
    assert result.lexicon_version == "2026.11-1"


def test_both_sides_measured_on_their_own_text_hand_counted(original: Document, embedder) -> None:  # type: ignore[no-untyped-def]
    tiny = original.model_copy(update={"sections": [Section(title="Intro", text="The cat may sit. The cat sat.", level=1)]})
    variant = _edit(tiny, "may sit", "clearly sat")
    result = validate_variant(tiny, variant, embedder=embedder)
    # original: 7 words, 2 sentences, hedge "may" (Hyland) -> 1000/7 per 1k; no word of 3 syllables ->
    # Fog 0.4 * 7/2 = 1.4. MTLD forward: TTR falls to 4/6 < 0.72 at the 2nd "cat" (1 factor), "sat" leaves
    # TTR 1 (partial 0) -> 7/1; backward: 5/7 < 0.72 at the last word -> 7/1; MTLD 7. Types the, cat, may,
    # sit, sat: only "sat" lies outside the 2,000 most frequent forms -> AG 1/sqrt(7).
    o = result.original
    assert (o.words, o.sentences, o.hedges, o.boosters) == (7, 2, 1, 0)
    assert o.hedges_per_1k == pytest.approx(1000 / 7) and o.boosters_per_1k == 0.0
    assert o.gunning_fog == pytest.approx(1.4) and o.mtld == pytest.approx(7.0)
    assert o.advanced_guiraud == pytest.approx(1 / 7**0.5)
    # variant "The cat clearly sat. The cat sat.": booster "clearly", no hedge; forward factor ends at
    # the 2nd "cat" (4/6), backward at the 2nd "cat" too (4/6), the last word alone is a partial 0 -> 7;
    # types the, cat, clearly, sat -> AG 1/sqrt(7) again.
    v = result.variant
    assert (v.words, v.sentences, v.hedges, v.boosters) == (7, 2, 0, 1)
    assert v.boosters_per_1k == pytest.approx(1000 / 7) and v.gunning_fog == pytest.approx(1.4)
    assert v.mtld == pytest.approx(7.0) and v.advanced_guiraud == pytest.approx(1 / 7**0.5)


def test_broken_variant_fails_with_one_reason_per_check(original: Document, embedder) -> None:  # type: ignore[no-untyped-def]
    text = original.sections[1].text
    cite = text[text.index("\\cite{") : text.index("}", text.index("\\cite{")) + 1]
    variant = _edit(original, cite, "")
    padded = variant.sections[2].text + (" Moreover, the method is robust." * 400)
    variant.sections[2] = Section(title=variant.sections[2].title, text=padded, level=2)
    limit = approximate_tokens(original.to_markdown()) + 10
    thresholds = ValidationThresholds(context_limit_tokens=limit, min_tfidf_cosine=0.9)
    result = validate_variant(original, variant, thresholds, embedder=embedder)
    assert not result.passed
    assert any(s.kind == "citation_key" for s in result.protected.missing)
    joined = "\n".join(result.reasons)
    assert "protected span(s) missing: citation_key" in joined
    assert "length ratio" in joined and "outside [0.80, 1.20]" in joined
    assert f"crosses the context limit of {limit} tokens" in joined
    assert "TF-IDF cosine" in joined
    assert result.crosses_context_limit
    # only the span check fails when the thresholds relax everything else
    lenient = ValidationThresholds(
        min_semantic_similarity=-1.0, min_tfidf_cosine=0.0, max_length_ratio_deviation=100.0
    )
    relaxed = validate_variant(original, variant, lenient, embedder=embedder)
    assert len(relaxed.reasons) == 1 and relaxed.reasons[0].startswith("1 protected span(s)")


def test_one_replaced_paragraph_is_caught_by_the_passage_threshold(  # type: ignore[no-untyped-def]
    original: Document, embedder
) -> None:
    sections = list(original.sections)
    paragraphs = sections[1].text.split("\n\n")
    paragraphs[0] = "The weather is lovely today and we drove to the stadium."
    sections[1] = Section(title=sections[1].title, text="\n\n".join(paragraphs), level=1)
    variant = original.model_copy(update={"sections": sections})
    lenient = ValidationThresholds(max_length_ratio_deviation=1.0, require_protected_spans=False)
    result = validate_variant(original, variant, lenient, embedder=embedder)
    assert result.min_passage_similarity is not None and result.semantic_similarity is not None
    assert result.min_passage_similarity < 0.8 and result.semantic_similarity > 0.9
    assert result.passed  # the mean alone hides the lost paragraph ...
    strict = lenient.model_copy(update={"min_passage_similarity": 0.8})
    caught = validate_variant(original, variant, strict, embedder=embedder)
    assert not caught.passed and caught.reasons[0].startswith("least preserved passage similarity")


def test_mismatched_pairs_raise_and_batches_continue(original: Document, embedder) -> None:  # type: ignore[no-untyped-def]
    other_id = original.model_copy(update={"id": "other"})
    fewer = original.model_copy(update={"sections": original.sections[:2]})
    with pytest.raises(ValueError, match="differs from original id"):
        validate_variant(original, other_id, embedder=embedder)
    with pytest.raises(ValueError, match="variant has 2 sections, original has 3"):
        validate_variant(original, fewer, embedder=embedder)
    from rhetorica.rewriting.rule_based import rewrite_document

    hedged = rewrite_document(original, "confidence:-")
    results = validate_many([(original, fewer), (original, hedged)], embedder=embedder)
    assert isinstance(results[0], ValidationFailure) and "2 sections" in results[0].error
    assert isinstance(results[1], VariantValidation) and results[1].passed


def test_validation_row_is_flat_and_complete(original: Document, embedder) -> None:  # type: ignore[no-untyped-def]
    result = validate_variant(original, _edit(original, "graph", "network"), embedder=embedder)
    row = validation_row(result, condition="confidence:+", rewriter="rule-based")
    assert row["document_id"] == "chebnet_nips2016" and row["condition"] == "confidence:+"
    assert row["mtld"] == result.variant.mtld and row["original_mtld"] == result.original.mtld
    assert row["protected_spans_kept"] == result.protected.kept_fraction
    assert row["semantic_similarity"] == result.semantic_similarity
    assert row["passed"] == result.passed
    assert all(not isinstance(v, (dict, list)) for v in row.values())


def test_threshold_ranges_are_validated() -> None:
    with pytest.raises(ValueError):
        ValidationThresholds(min_tfidf_cosine=1.5)
    with pytest.raises(ValueError):
        ValidationThresholds(context_limit_tokens=0)
