"""The intended-shift check: direction of the rewritten dimension's measure, identical variants."""

from __future__ import annotations

import pytest

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.rewriting.conditions import UnknownConditionError
from rhetorica.validation.shift import shift_checks
from rhetorica.validation.validate import TextMeasures, ValidationThresholds, validate_variant


def measures(boosters: float, hedges: float, ag: float | None) -> TextMeasures:
    return TextMeasures(words=1000, sentences=50, mtld=80.0, advanced_guiraud=ag, gunning_fog=15.0,
                        hedges=int(hedges), boosters=int(boosters), hedges_per_1k=hedges, boosters_per_1k=boosters)


def test_confidence_uses_boosters_minus_hedges() -> None:
    before, after = measures(6.0, 5.0, 5.0), measures(7.0, 3.0, 5.0)  # stance 1.0 -> 4.0
    (plus,) = shift_checks("confidence:+", before, after)
    assert (plus.original, plus.variant, plus.present) == (1.0, 4.0, True)
    (minus,) = shift_checks("confidence:-", before, after)
    assert minus.present is False
    assert shift_checks("confidence:+", before, before)[0].present is False  # no movement is no shift


def test_proficiency_uses_advanced_guiraud_and_compound_conditions_check_each_part() -> None:
    before, after = measures(6.0, 5.0, 5.8), measures(3.0, 9.0, 4.9)
    checks = shift_checks("confidence:-|proficiency:-", before, after)
    assert [(c.condition, c.measure, c.present) for c in checks] == [
        ("confidence:-", "boosters/1k - hedges/1k", True), ("proficiency:-", "Advanced Guiraud", True)]
    assert shift_checks("proficiency:+", before, measures(3.0, 9.0, None))[0].present is False  # undefined


def test_unknown_condition_is_an_error() -> None:
    with pytest.raises(UnknownConditionError):
        shift_checks("tone:+", measures(1, 1, 1), measures(1, 1, 1))


class ConstantEmbedder:
    name = "constant"
    max_tokens = 512

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def embed(self, texts):
        import numpy as np

        return np.ones((len(texts), 4), dtype=np.float32) / 2.0


def doc(text: str) -> Document:
    return Document(id="p", sections=[Section(title="A", text=text)],
                    source=DocumentSource(path="x", parser="t", parser_version="0"))


def test_identical_variant_fails_and_shift_is_reported() -> None:
    text = "The method may improve accuracy and could help. It suggests a gain."
    same = validate_variant(doc(text), doc(text), embedder=ConstantEmbedder(), condition="confidence:+")
    assert same.identical and not same.passed
    assert same.reasons == ["variant is identical to its original: the rewrite changed nothing"]
    bolder = "The method will improve accuracy and can help. It demonstrates a gain."
    moved = validate_variant(doc(text), doc(bolder), embedder=ConstantEmbedder(), condition="confidence:+")
    assert moved.shift[0].present and "intended shift" not in " ".join(moved.reasons)
    wrong = validate_variant(doc(text), doc(bolder), embedder=ConstantEmbedder(), condition="confidence:-")
    assert any(r.startswith("intended shift absent: confidence:- needs boosters/1k - hedges/1k to fall")
               for r in wrong.reasons)
    lenient = validate_variant(doc(text), doc(text), ValidationThresholds(require_intended_shift=False),
                               embedder=ConstantEmbedder(), condition="confidence:+")
    assert lenient.passed


def test_every_dimension_is_registered_with_its_shift_rule() -> None:
    from rhetorica.registry import dimensions

    rules = {e.name: (e.value.shift.measure, e.value.shift.function is None) for e in dimensions.entries()
             if e.source == "rhetorica"}
    assert rules["confidence"] == ("boosters/1k - hedges/1k", False)
    assert rules["proficiency"] == ("Advanced Guiraud", False)
    assert rules["injection"][1] is True  # explicitly: no stylistic shift expected


def test_injection_conditions_get_no_directional_check() -> None:
    assert shift_checks("injection:hidden-body-command-score", measures(6.0, 5.0, 5.0), measures(1.0, 9.0, 2.0)) == []
