"""Review-variant validation on the real reviews of ../shared/data and on hand-made ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.documents.reviews import read_reviews
from rhetorica.judges.review_checks import (
    EMBEDDING_THRESHOLD, check_review_variant, counterpart_similarities, review_points, weakness_points,
)

SRC = DocumentSource(path="t", parser="test", parser_version="0")


def doc(sections: list[tuple[str, str]], scores: dict | None = None) -> Document:
    return Document(id="r", kind="review", source=SRC, sections=[Section(title=t, text=x) for t, x in sections],
                    metadata={"scores": scores or {}})


def cheblienet(shared_data: Path) -> list[Document]:
    docs, problems = read_reviews([shared_data / "papers/cheblienet_neurips2021/reviews.md"], "cheblienet")
    assert problems == []
    return docs


def test_points_by_section_list_items_and_headings() -> None:
    review = doc([("Strengths", "Two things stand out here.\n- Clear method.\n- Strong results on three benchmarks."),
                  ("Weaknesses", "1. The baselines are outdated and\n   need updating.\n2. No ablation of K is given."),
                  ("Main review", "### Questions\nWhy is K fixed to five? How does the cost scale?")])
    points = review_points(review)
    assert [(p.kind, p.text) for p in points] == [
        ("strength", "Two things stand out here."),
        ("strength", "Strong results on three benchmarks."),  # "Clear method." has two words: not a point
        ("weakness", "The baselines are outdated and need updating."),
        ("weakness", "No ablation of K is given."),
        ("question", "Why is K fixed to five?"),
        ("question", "How does the cost scale?"),
    ]


def test_weakness_points_of_a_real_review_without_a_weakness_field(shared_data: Path) -> None:
    review = cheblienet(shared_data)[1]  # Summary, Main review, Limitations and societal impact
    points = weakness_points(review)
    assert len(points) == 6 and {p.section for p in points} == {"Main review", "Limitations and societal impact"}
    assert points[1].text == ("Except for a small typo on the left-invariance definition on line 190, "
                              "all other details seem to be correct.")
    structured = doc([("Strengths", "- Clear method and writing."), ("Weaknesses", "- The baselines are outdated.")])
    assert [p.text for p in weakness_points(structured)] == ["The baselines are outdated."]


def test_identity_and_reordered_rewrites_pass_on_real_reviews(shared_data: Path) -> None:
    for review in cheblienet(shared_data):
        assert check_review_variant(review, review).ok
    review = cheblienet(shared_data)[1]
    reordered = review.model_copy(update={"sections": list(reversed(review.sections))})
    result = check_review_variant(review, reordered)
    assert result.ok and result.method == "tfidf" and min(result.similarities) == pytest.approx(1.0)


def test_a_dropped_point_is_reported_missing(shared_data: Path) -> None:
    review = cheblienet(shared_data)[1]
    main = next(s for s in review.sections if s.title == "Main review")
    victim = review_points(review.model_copy(update={"sections": [main]}))[2].text
    cut = [s.model_copy(update={"text": " ".join(s.text.split()).replace(victim, "")}) if s is main else s
           for s in review.sections]
    result = check_review_variant(review, review.model_copy(update={"sections": cut}), length_bounds=(0.5, 1.5))
    assert [p.text for p in result.missing] == [victim]
    assert not result.ok and result.problems[0].startswith("other point without a counterpart")


def test_changed_scores_and_recommendation_are_reported(shared_data: Path) -> None:
    review = cheblienet(shared_data)[0]
    changed = review.model_copy(update={"metadata": review.metadata | {"scores": {"rating": 6.0, "confidence": 3.0}}})
    assert check_review_variant(review, changed).problems == ["score 'rating' changed: 4.0 -> 6.0"]
    a = doc([("Review", "Solid work overall. Rating: 6 (weak accept). The proofs look right to me.")])
    b = doc([("Review", "Solid work overall. Rating: 7 (accept). The proofs look right to me.")])
    problems = check_review_variant(a, b).problems
    assert problems == ["written score 'rating' 6 not found in the rewrite (it has 7)",
                        "recommendation changed: ['weak accept'] -> ['accept']"]


def test_length_bounds_per_condition() -> None:
    a = doc([("Review", "The method is sound but the evaluation uses only two small datasets.")])
    longer = doc([("Review", a.sections[0].text + " Please extend the evaluation.")])
    assert (a.word_count, longer.word_count) == (12, 16)
    assert check_review_variant(a, longer, condition="polish").ok
    assert check_review_variant(a, longer).problems == ["length ratio 1.33 outside 0.8-1.25"]
    with pytest.raises(ValueError, match="no default length bounds for condition 'summarise'"):
        check_review_variant(a, a, condition="summarise")


def test_embedding_counterparts_separate_rewordings_from_other_points() -> None:
    from rhetorica.validation.embeddings import load_embedder

    points = ["The experiments use only two small datasets, so the claims of generality are not supported.",
              "The baselines in Table 2 are outdated.", "The paper is clearly written and easy to follow."]
    reworded = ["Because the evaluation covers just two small datasets, the generality claims lack support.",
                "Table 2 compares against old baselines only.", "The writing is clear and the paper reads easily."]
    others = ["The related work section omits spectral methods from before 2015.",
              "The proof of Theorem 1 assumes a connected graph without saying so.", "Code is not released."]
    embedder = load_embedder()
    assert min(counterpart_similarities(points, reworded, embedder)) > EMBEDDING_THRESHOLD
    assert max(counterpart_similarities(points, others, embedder)) < EMBEDDING_THRESHOLD
    a = doc([("Weaknesses", "\n".join(f"- {p}" for p in points))])
    b = doc([("Weaknesses", "\n".join(f"- {p}" for p in reversed(reworded[:2])))])
    result = check_review_variant(a, b, embedder=embedder, length_bounds=(0.3, 2))
    assert result.method == "embedding:all-MiniLM-L6-v2" and [p.text for p in result.missing] == [points[2]]


REWRITE_OF_CHEBLIENET_2 = [  # written by hand for this test: same points, new wording and order
    ("Summary", "ChebLieNet, proposed here, generalises ChebNet to a group-equivariant network on manifolds. "
                "Group equivariance is obtained by encoding an anisotropic left-invariant Riemannian distance "
                "on the graph's edges."),
    ("Main review", "Clarity: On the whole, the paper reads very clearly. The authors do a good job of presenting the "
                    "various components of their network, and both the introduction and the related-work section are nicely "
                    "written.\n\nQuality: I went through most of the mathematics. Apart from a minor typo in the "
                    "definition of left-invariance (line 190), everything appears correct.\n\n"
                    "Originality and Significance: The paper lies outside my own research area, so I lack the "
                    "expertise to judge its originality or significance."),
    ("Limitations and societal impact", "Section 5 of the paper discusses the limitations and possible "
                                        "negative societal impact."),
]


def test_hand_paraphrase_of_a_real_review_passes_and_a_dropped_point_fails(shared_data: Path) -> None:
    from rhetorica.validation.embeddings import load_embedder

    original = cheblienet(shared_data)[1]
    rewrite = original.model_copy(update={"sections": [Section(title=t, text=x) for t, x in REWRITE_OF_CHEBLIENET_2]})
    embedder = load_embedder()
    result = check_review_variant(original, rewrite, embedder=embedder)
    assert result.ok, result.problems
    assert len(result.similarities) == 8 and min(result.similarities) > EMBEDDING_THRESHOLD
    cut = [Section(title=t, text=x.replace(" Apart from a minor typo in the definition of left-invariance (line 190), "
                                           "everything appears correct.", "")) for t, x in REWRITE_OF_CHEBLIENET_2]
    result = check_review_variant(original, original.model_copy(update={"sections": cut}), embedder=embedder)
    assert [p.text for p in result.missing] == [
        "Except for a small typo on the left-invariance definition on line 190, all other details seem to be correct."]
