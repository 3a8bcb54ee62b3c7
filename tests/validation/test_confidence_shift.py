"""The intended shift on real papers: rule-based confidence rewrites, validated and summarised."""

from __future__ import annotations

import pandas as pd
import pytest

from rhetorica.documents.models import Document
from rhetorica.rewriting.rule_based import rewrite_document
from rhetorica.validation.spans import compare_spans
from rhetorica.validation.summary import summarise_by_condition
from rhetorica.validation.validate import measure_text, validate_variant, validation_row

CONDITIONS = ("confidence:+", "confidence:-")


def _body(doc: Document) -> str:
    return "\n\n".join(s.text for s in doc.sections)


def test_confidence_rewrites_move_markers_and_keep_spans(
    shared_papers: dict[str, Document],
) -> None:
    for name, doc in shared_papers.items():
        plus, minus = (rewrite_document(doc, c) for c in CONDITIONS)
        up, down = measure_text(_body(plus)), measure_text(_body(minus))
        assert up.boosters_per_1k is not None and down.boosters_per_1k is not None
        assert up.hedges_per_1k is not None and down.hedges_per_1k is not None
        assert up.boosters_per_1k > down.boosters_per_1k, name
        assert up.hedges_per_1k < down.hedges_per_1k, name
        for variant in (plus, minus):
            assert compare_spans(_body(doc), _body(variant)).missing == [], name


def test_confidence_rewrites_pass_validation_and_summarise(  # type: ignore[no-untyped-def]
    shared_papers: dict[str, Document], embedder
) -> None:
    rows = []
    # Abstract + introduction (keeps the test fast).
    for name in ("stable-nalu_iclr2020", "gcrn_iclr2017"):
        full = shared_papers[name]
        doc = full.model_copy(update={"sections": full.sections[:2]})
        for condition in CONDITIONS:
            result = validate_variant(doc, rewrite_document(doc, condition), embedder=embedder, condition=condition)
            assert [c.present for c in result.shift] == [True], (name, condition)
            assert result.passed, (name, condition, result.reasons)
            assert result.semantic_similarity is not None and result.semantic_similarity > 0.95
            assert result.tfidf_cosine is not None and result.tfidf_cosine > 0.95
            rows.append(validation_row(result, condition=condition, rewriter="rule-based"))
    table = summarise_by_condition(pd.DataFrame(rows)).set_index("condition")
    assert list(table.index) == ["original", *CONDITIONS]
    assert (
        table.loc["confidence:+", "boosters_per_1k"] > table.loc["confidence:-", "boosters_per_1k"]
    )
    assert table.loc["confidence:+", "hedges_per_1k"] < table.loc["confidence:-", "hedges_per_1k"]
    assert table.loc["confidence:+", "protected_spans_kept"] == pytest.approx(1.0)
    assert table.loc["confidence:-", "n_passed"] == 2


def test_a_rewrite_that_changes_nothing_fails_validation(  # type: ignore[no-untyped-def]
    shared_papers: dict[str, Document], embedder
) -> None:
    full = shared_papers["chebnet_nips2016"]
    doc = full.model_copy(update={"sections": full.sections[:2]})
    unchanged = doc.model_copy(deep=True)  # what a rewriter that changes nothing returns
    result = validate_variant(doc, unchanged, embedder=embedder, condition="confidence:+")
    assert result.identical and not result.passed
