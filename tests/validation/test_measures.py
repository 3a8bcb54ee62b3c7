"""Per-text measures: every registered dimension's own measure lands in the mapping ``dimensions``."""

from __future__ import annotations

import pytest

from rhetorica.validation.measures import TextMeasures, measure_dimensions, measure_text


def test_measure_text_records_each_registered_measure_by_name_with_lexicon_versions() -> None:
    text = "We propose a novel method. It clearly outperforms the baseline. This may help."
    measured = measure_text(text)
    assert sorted(measured.dimensions) == ["complexity", "contribution", "evidence", "novelty", "register", "scope"]
    # 13 words; novelty: novel, outperforms; boosters: clearly; hedges: may
    assert measured.dimensions["novelty"] == pytest.approx(1000 * (2 + 1 - 1) / 13)
    # signpost "we propose" and no enumerated item
    assert measured.dimensions["contribution"] == pytest.approx(1000 / 13)
    assert measured.dimensions["evidence"] == 0.0
    assert measured.lexicon_versions == {"contribution": "2026.12-1", "metadiscourse": "2026.11-1",
                                         "novelty": "2026.12-1", "quantities": "2026.12-1",
                                         "register": "2026.12-1", "scope": "2026.12-1"}
    assert measure_dimensions("")[0] == {name: None for name in measured.dimensions}  # no words: undefined


def test_results_stored_by_earlier_versions_still_load() -> None:
    # an earlier rhetorica stored the six measures as a fixed 'rhetoric' object: it is ignored, not an error
    old = {"words": 1, "sentences": 1, "mtld": None, "advanced_guiraud": 1.0, "gunning_fog": 0.4, "hedges": 0,
           "boosters": 0, "hedges_per_1k": 0.0, "boosters_per_1k": 0.0,
           "rhetoric": {"novelty_stance": 0.0, "lexicon_versions": {}}}
    assert TextMeasures.model_validate(old).dimensions == {}
