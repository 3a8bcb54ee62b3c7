"""Review-variant validation on the real reviews of ../shared/data and on hand-made ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.documents.reviews import read_reviews
from rhetorica.validation.review_checks import (
    LENGTH_BOUNDS, ReviewCheckSettings, StatedScore, check_review_variant,
    ownership_margins, similarity_matrix, review_points, review_structure, weakness_points,
)
from rhetorica.validation.integrity import cosine_matrix

EMBEDDING_THRESHOLD = ReviewCheckSettings().min_point_similarity

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
    # "Quality: ...", "Clarity: ..." open labelled blocks of the "Main review" field; the label is not in the point
    assert [p.section for p in points] == ["Quality", "Quality", "Clarity", "Clarity", "Originality and Significance",
                                           "Limitations and societal impact"]
    assert points[0].text == "I checked most of the mathematical details from the paper."
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
    settings = ReviewCheckSettings(min_point_words=3, tfidf_min_point_similarity=0.30)  # short points checked too
    result = check_review_variant(review, review.model_copy(update={"sections": cut}), length_bounds=(0.5, 1.5),
                                  settings=settings)
    assert [p.text for p in result.missing] == [victim]
    assert not result.ok and result.problems[0].startswith("other point without a counterpart")


def test_changed_scores_and_recommendation_are_reported(shared_data: Path) -> None:
    review = cheblienet(shared_data)[0]
    changed = review.model_copy(update={"metadata": review.metadata | {"scores": {"rating": 6.0, "confidence": 3.0}}})
    assert check_review_variant(review, changed).problems == ["score 'rating' changed: 4.0 -> 6.0"]
    a = doc([("Review", "Solid work overall. Rating: 6 (weak accept). The proofs look right to me.")])
    b = doc([("Review", "Solid work overall. Rating: 7 (accept). The proofs look right to me.")])
    result = check_review_variant(a, b)
    assert result.problems == ["rating changed: 6 -> 7"] and result.failed == ["scores"]
    # a pairs file's rating field (Document.human_scores) and confidence field
    first = a.model_copy(update={"human_scores": [5.0], "metadata": a.metadata | {"confidence": 4}})
    moved = a.model_copy(update={"human_scores": [8.0], "metadata": a.metadata | {"confidence": 3}})
    assert check_review_variant(first, moved).problems == [
        "rating changed: 5 -> 8 (rating field)", "confidence changed: 4 -> 3 (confidence field)"]


def test_length_bounds_per_condition() -> None:
    a = doc([("Review", "The method is sound but the evaluation uses only two small datasets.")])
    longer = doc([("Review", a.sections[0].text + " The method is sound, but the evaluation uses only two small "
                                                 "datasets, which is the main weakness.")])
    assert (a.word_count, longer.word_count) == (12, 29)
    low, high = LENGTH_BOUNDS["paraphrase"]
    assert high < 29 / 12 and check_review_variant(a, longer).problems == [
        f"length ratio 2.42 outside {low:g}-{high:g}"]
    assert check_review_variant(a, longer, length_bounds=(0.5, 2.5)).ok
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
    assert similarity_matrix(points, reworded, embedder).max(axis=1).min() > EMBEDDING_THRESHOLD
    assert similarity_matrix(points, others, embedder).max() < EMBEDDING_THRESHOLD
    a = doc([("Weaknesses", "\n".join(f"- {p}" for p in points))])
    b = doc([("Weaknesses", "\n".join(f"- {p}" for p in reversed(reworded[:2])))])
    result = check_review_variant(a, b, embedder=embedder, length_bounds=(0.3, 2),
                                  settings=ReviewCheckSettings(min_point_words=3))  # points[2] has 9 words
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
    # 8 points; of 24 words or more (the default minimum) only the expertise sentence (28 words): the introduction
    # sentence has 23, the second summary sentence and the typo 18, the first summary and the limitations 15
    assert len(result.similarities) == 1 and min(result.similarities) > EMBEDDING_THRESHOLD
    cut = [Section(title=t, text=x.replace(" Apart from a minor typo in the definition of left-invariance (line 190), "
                                           "everything appears correct.", "")) for t, x in REWRITE_OF_CHEBLIENET_2]
    cut_rewrite = original.model_copy(update={"sections": cut})
    assert check_review_variant(original, cut_rewrite, embedder=embedder).ok  # the typo (18 words) is not checked
    result = check_review_variant(original, cut_rewrite, embedder=embedder,
                                  settings=ReviewCheckSettings(min_point_words=12))
    assert [p.text for p in result.missing] == [
        "Except for a small typo on the left-invariance definition on line 190, all other details seem to be correct."]


# Hand-written review pairs (issue 23): an ICLR-2023-style review as one text field, the way a pairs file holds it.
FIELDS = """References:
[1] Li, Y., Yu, R., Shahabi, C. and Liu, Y. Diffusion convolutional recurrent neural network. ICLR 2018.
[2] Wu, Z., Pan, S., Long, G. Graph WaveNet for deep spatial-temporal graph modeling. IJCAI 2019.

Recommendation:
5: marginally below the acceptance threshold

Confidence:
4: You are confident in your assessment, but not absolutely certain."""  # kept verbatim by the rewrite

ORIGINAL_REVIEW = """Summary Of The Paper:
The paper proposes a graph neural network for traffic forecasting that learns the adjacency matrix jointly with the \
predictor, and evaluates it on two public sensor datasets.

Strength And Weaknesses:
=== Strengths ===
- The method is simple and trains in under an hour on one GPU.
- The forecasting error on both datasets is lower than that of the five baselines.

=== Weaknesses ===
- There is no ablation that removes the learned adjacency, so its contribution is unclear.
- The baselines stop in 2021, and recent diffusion-based forecasters are not compared at all.
- It is hard for me to accept the authors' motivation for the second experiment, which uses synthetic traffic.

**Questions**
Why is the forecasting horizon fixed to one hour?

""" + FIELDS

FAITHFUL_REWRITE = """Summary of the Paper:
This work introduces a graph neural network for traffic forecasting in which the adjacency matrix is learned together \
with the predictor; it is tested on two public sensor datasets.

Strengths and Weaknesses:
— Strengths —
- The approach is straightforward and trains within an hour on a single GPU.
- On both datasets its forecasting error is below that of all five baselines.

— Weaknesses —
- No ablation removes the learned adjacency, which leaves its contribution unclear.
- The most recent baselines date from 2021; diffusion-based forecasters are missing from the comparison.
- I find it difficult to accept the motivation given for the second experiment, which relies on synthetic traffic.

## Questions
What is the reason for fixing the forecasting horizon to one hour?

""" + FIELDS

DATASETS = ("METR-LA", "PEMS-BAY", "PEMS04", "PEMS08", "NYC Taxi", "Chicago Bike", "Seattle Loop", "London Bus")
LONG_ORIGINAL = " ".join(  # one list item of about 900 model tokens: longer than all-MiniLM-L6-v2's window of 254
    f"On {name} the paper reports a mean absolute error of {2 + k / 10:.1f} at the {15 * (k % 4 + 1)}-minute horizon, "
    f"but the split of {name} into training and test weeks is not described, so leakage between adjacent weeks "
    f"cannot be ruled out for experiment {k + 1}."
    for k, name in enumerate(DATASETS * 3))
LONG_REWRITE = " ".join(
    f"For experiment {k + 1}, the authors give a mean absolute error of {2 + k / 10:.1f} on {name} at a horizon of "
    f"{15 * (k % 4 + 1)} minutes, yet they never explain how {name} was divided into training and test weeks, which "
    f"leaves possible leakage between neighbouring weeks open."
    for k, name in enumerate(DATASETS * 3))


def text_review(text: str, scores: dict | None = None) -> Document:
    return doc([("Review", text)], scores)


@pytest.fixture(scope="module")
def embedder():  # type: ignore[no-untyped-def]
    from rhetorica.validation.embeddings import load_embedder

    return load_embedder()


def test_headers_reference_lines_and_score_fields_are_not_points() -> None:
    structure = review_structure(text_review(ORIGINAL_REVIEW))
    assert [(p.kind, p.section) for p in structure.points] == [
        ("other", "Summary Of The Paper"), ("strength", "Strengths"), ("strength", "Strengths"),
        ("weakness", "Weaknesses"), ("weakness", "Weaknesses"), ("weakness", "Weaknesses"),
        ("question", "Questions")]
    assert structure.points[-1].text == "Why is the forecasting horizon fixed to one hour?"
    assert structure.scores == [
        StatedScore("rating", 5.0, "reject", "5: marginally below the acceptance threshold"),
        StatedScore("confidence", 4.0, None, "4: You are confident in your assessment, but not absolutely certain.")]


def test_faithful_rewrite_with_headers_references_and_a_long_paragraph_passes(embedder) -> None:  # type: ignore[no-untyped-def]
    assert embedder.count_tokens(LONG_ORIGINAL) > 700 > embedder.max_tokens
    with pytest.raises(ValueError, match="exceeds all-MiniLM-L6-v2's limit of 254"):
        embedder.embed([LONG_ORIGINAL])  # what the check used to send the encoder
    original = text_review(ORIGINAL_REVIEW.replace("**Questions**", f"- {LONG_ORIGINAL}\n\n**Questions**"))
    rewrite = text_review(FAITHFUL_REWRITE.replace("## Questions", f"- {LONG_REWRITE}\n\n## Questions"))
    result = check_review_variant(original, rewrite, embedder=embedder)
    assert result.ok, result.problems
    # the summary (26 words) and the long item have 24 words or more (the default minimum); the motivation weakness
    # has 18, the strengths and the other weaknesses 13-14, the question 9
    assert len(result.similarities) == 2 and min(result.similarities) >= EMBEDDING_THRESHOLD
    assert result.unstated == [] and result.method == "embedding:all-MiniLM-L6-v2"


def test_planted_rating_and_confidence_changes_fail_on_the_scores(embedder) -> None:  # type: ignore[no-untyped-def]
    original = text_review(ORIGINAL_REVIEW)
    rating = text_review(FAITHFUL_REWRITE.replace("5: marginally below", "8: marginally below"))
    result = check_review_variant(original, rating, embedder=embedder)
    assert result.failed == ["scores"] and result.problems == ["rating changed: 5 -> 8"]
    confidence = text_review(FAITHFUL_REWRITE.replace("4: You are confident", "2: You are confident"))
    assert check_review_variant(original, confidence, embedder=embedder).problems == ["confidence changed: 4 -> 2"]
    inline = text_review(FAITHFUL_REWRITE.replace("Recommendation:\n5:", "**Recommendation:** 6:"))
    assert check_review_variant(original, inline, embedder=embedder).problems == ["rating changed: 5 -> 6"]


# The calibrated defaults keep false rejections of published LLM rewrites within 5% and so catch few single-point
# changes (benchmarks/review_checks_calibration.py prints the trade-off); a study whose rewrites stay as close as
# this hand-written one (lowest counterpart 0.80; the deleted weakness 0.54, the added strength 0.51) sets 0.6.
STRICT = ReviewCheckSettings(min_point_words=3, min_point_similarity=0.6, min_added_similarity=0.6)


def test_the_faithful_rewrite_passes_the_strict_thresholds_too(embedder) -> None:  # type: ignore[no-untyped-def]
    result = check_review_variant(text_review(ORIGINAL_REVIEW), text_review(FAITHFUL_REWRITE), embedder=embedder,
                                  settings=STRICT)
    assert result.ok, result.problems


def test_a_deleted_weakness_fails_on_the_points(embedder) -> None:  # type: ignore[no-untyped-def]
    deleted = "- The most recent baselines date from 2021; diffusion-based forecasters are missing from the comparison.\n"
    assert deleted in FAITHFUL_REWRITE
    result = check_review_variant(text_review(ORIGINAL_REVIEW), text_review(FAITHFUL_REWRITE.replace(deleted, "")),
                                  embedder=embedder, settings=STRICT)
    assert result.failed == ["points"]
    assert [p.text for p in result.missing] == [
        "The baselines stop in 2021, and recent diffusion-based forecasters are not compared at all."]
    assert result.problems[0].startswith("weakness point without a counterpart (best cosine")


def test_an_added_strength_fails_on_the_added_points(embedder) -> None:  # type: ignore[no-untyped-def]
    claim = "- The paper also proves that the learned adjacency recovers the true road network with high probability."
    rewrite = FAITHFUL_REWRITE.replace("\n\n— Weaknesses —", f"\n{claim}\n\n— Weaknesses —")
    result = check_review_variant(text_review(ORIGINAL_REVIEW), text_review(rewrite), embedder=embedder,
                                  settings=STRICT)
    assert result.failed == ["added"] and [p.text for p in result.added] == [claim[2:]]
    assert result.added[0].kind == "strength" and result.problems[0].startswith("strength point added")


def test_a_reversed_recommendation_fails_and_prose_accept_does_not(embedder) -> None:  # type: ignore[no-untyped-def]
    original = text_review(ORIGINAL_REVIEW.replace("5: marginally below the acceptance threshold", "Weak Reject"))
    reversed_ = text_review(FAITHFUL_REWRITE.replace("5: marginally below the acceptance threshold", "Weak Accept"))
    result = check_review_variant(original, reversed_, embedder=embedder)
    assert result.failed == ["recommendation"] and result.problems == ["recommendation changed: reject -> accept"]
    # "accept" in prose is no recommendation: the rewrite words it differently and passes
    prose = FAITHFUL_REWRITE.replace("I find it difficult to accept the motivation given for",
                                     "I am not convinced by the motivation given for")
    assert "accept the" not in prose
    assert check_review_variant(text_review(ORIGINAL_REVIEW), text_review(prose), embedder=embedder).ok


def test_a_rating_line_left_out_is_noted_not_failed() -> None:
    rewrite = FAITHFUL_REWRITE.replace("Recommendation:\n5: marginally below the acceptance threshold\n\n", "")
    result = check_review_variant(text_review(ORIGINAL_REVIEW), text_review(rewrite), length_bounds=(0.5, 2))
    assert result.unstated == ["rating"] and "scores" not in result.failed


def test_the_threshold_is_a_study_setting(embedder) -> None:  # type: ignore[no-untyped-def]
    from rhetorica.study.config import ValidationSettings

    settings = ValidationSettings.model_validate(
        {"review": {"min_point_similarity": 0.99, "min_point_words": 3, "min_point_ownership": None}}).review
    assert settings.thresholds(True) == (0.99, ReviewCheckSettings().min_added_similarity)
    assert settings.min_point_ownership is None and settings.min_added_ownership == ReviewCheckSettings().min_added_ownership
    result = check_review_variant(text_review(ORIGINAL_REVIEW), text_review(FAITHFUL_REWRITE), embedder=embedder,
                                  settings=settings)
    assert result.threshold == 0.99 and result.failed == ["points"] and len(result.missing) == 7
    with pytest.raises(ValueError, match="min_point_similarity"):
        ValidationSettings.model_validate({"review": {"min_point_similarity": 1.5}})
    with pytest.raises(ValueError, match="min_added_ownership"):
        ValidationSettings.model_validate({"review": {"min_added_ownership": 2.5}})


def test_review_thresholds_are_part_of_review_validation_keys_only() -> None:
    from rhetorica.documents.models import Document as Doc
    from rhetorica.study.config import ValidationSettings
    from rhetorica.study.planner import Variant, validate_units

    review = text_review(ORIGINAL_REVIEW)
    paper = Doc(id="p", kind="manuscript", source=SRC, sections=[Section(title="Intro", text="A paper.")])
    variants = [Variant(review, review, "paraphrase", "rw", "k1"), Variant(paper, paper, "confidence:+", "rw", "k2")]
    default = [u.key for u in validate_units(variants, ValidationSettings())]
    stricter = [u.key for u in validate_units(variants, ValidationSettings(review={"min_point_similarity": 0.6}))]
    assert default[0] != stricter[0] and default[1] == stricter[1]


def test_ownership_margins_by_hand() -> None:
    # rows: original points, columns: rewrite candidates; row 2's own counterpart was deleted, so its best
    # cosine (0.5) goes to column 1, the counterpart of row 1
    similarity = np.array([[0.9, 0.2, 0.5],
                           [0.3, 0.8, 0.55],
                           [0.4, 0.5, 0.45]])
    # row 0: column 0, 0.9 - max(0.3, 0.4); row 1: column 1, 0.8 - max(0.2, 0.5);
    # row 2: its best is column 2, 0.45 - 0.55 (owned by row 1 by 0.1)
    assert ownership_margins(similarity) == pytest.approx([0.5, 0.3, -0.1])
    # a tie on a column: both rows own it with margin 0; one row alone has no competitor: -2, the cosine decides
    assert ownership_margins(np.array([[0.5, 0.1], [0.5, 0.2]])) == pytest.approx([0.0, 0.1])
    assert ownership_margins(np.array([[0.3, 0.7]])) == pytest.approx([-2.0])
    with pytest.raises(ValueError, match="at least one row"):
        ownership_margins(np.zeros((0, 2)))


def test_cosine_matrix_by_hand() -> None:
    original = np.array([[1.0, 0.0], [3.0, 4.0]])
    variant = np.array([[0.0, 2.0], [1.0, 1.0]])
    assert cosine_matrix(original, variant) == pytest.approx(np.array([[0.0, 1 / np.sqrt(2)],
                                                                        [0.8, 7 / (5 * np.sqrt(2))]]))


SPLIT_ORIGINAL = """Strengths:
- Training converges within twenty epochs on commodity graphics hardware.

Weaknesses:
- Hyperparameter sensitivity goes unreported, and confidence intervals are absent from every table.
- Theorem 2 silently requires bounded Lipschitz constants throughout."""

# the rewrite reorders the weaknesses and splits the first into two sentences, each of which matches the original
# point less than 0.9 (TF-IDF) but is owned by it: no other original point shares its words
SPLIT_REWRITE = """Weaknesses:
- Theorem 2 silently requires bounded Lipschitz constants throughout.
- Hyperparameter sensitivity goes unreported. Confidence intervals are absent from every table.

Strengths:
- Training converges within twenty epochs on commodity graphics hardware."""

OWNED = ReviewCheckSettings(min_point_words=3, tfidf_min_point_similarity=0.9, min_point_ownership=0.0)


def test_a_split_reordered_rewrite_owns_its_counterparts_and_passes() -> None:
    original, rewrite = text_review(SPLIT_ORIGINAL), text_review(SPLIT_REWRITE)
    result = check_review_variant(original, rewrite, settings=OWNED)
    assert result.ok, result.problems
    split = result.points[1]
    assert split.text.startswith("Hyperparameter") and result.similarities[1] < 0.9 and result.margins[1] > 0
    # the cosine alone (no ownership) calls the split point missing
    cosine_only = OWNED.model_copy(update={"min_point_ownership": None})
    assert [p.text for p in check_review_variant(original, rewrite, settings=cosine_only).missing] == [split.text]


def test_a_deleted_weakness_owns_nothing_and_is_missing() -> None:
    # every remaining rewrite point is a verbatim copy of another original point (cosine 1 to its owner), so the
    # deleted one's margin is its cosine to that copy minus 1: negative, whatever the threshold's leeway
    deleted = SPLIT_REWRITE.replace("- Hyperparameter sensitivity goes unreported. Confidence intervals are absent "
                                    "from every table.\n", "")
    result = check_review_variant(text_review(SPLIT_ORIGINAL), text_review(deleted), settings=OWNED,
                                  length_bounds=(0.3, 2))
    assert [p.text for p in result.missing] == [
        "Hyperparameter sensitivity goes unreported, and confidence intervals are absent from every table."]
    assert result.margins[1] < 0 and result.failed == ["points"]
    assert result.problems[0].startswith("weakness point without a counterpart (best cosine ")
    assert result.problems[0].endswith(f"(owns nothing: ownership margin {result.margins[1]:.2f} < 0.00)")


def test_an_added_sentence_inside_a_list_item_is_checked_on_its_own() -> None:
    claim = "Moreover a user study with five hundred participants confirms every claim."
    rewrite = SPLIT_ORIGINAL.replace("graphics hardware.", f"graphics hardware. {claim}")
    settings = ReviewCheckSettings(min_added_words=3, tfidf_min_added_similarity=0.5, min_added_ownership=0.0)
    result = check_review_variant(text_review(SPLIT_ORIGINAL), text_review(rewrite), settings=settings,
                                  length_bounds=(0.3, 2))
    # the item's first sentence is the original point verbatim; the claim, a sentence of its own, matches nothing
    assert [p.text for p in result.added] == [claim] and result.added[0].kind == "strength"
    assert [p.text for p in result.rewrite_points][:2] == [
        "Training converges within twenty epochs on commodity graphics hardware.", claim]
    assert result.failed == ["added"]


def test_a_review_of_one_short_sentence_is_checked_on_its_scores_and_length_only() -> None:
    # "Clear contributions." has two words: no point to look for; before, the check raised "no text
    # to check", stored as an error that --retry-failed could never mend
    original = doc([("Review", "Clear contributions.")], scores={"rating": 6})
    kept = check_review_variant(original, doc([("Review", "Contributions clear.")], scores={"rating": 6}))
    assert kept.ok and kept.points == [] and kept.missing == [] and kept.length_ratio == 1.0
    changed = check_review_variant(original, doc([("Review", "Contributions clear.")], scores={"rating": 3}))
    assert changed.failed == ["scores"] and changed.problems == ["score 'rating' changed: 6 -> 3"]
    with pytest.raises(ValueError, match="review r: no text to check"):
        check_review_variant(doc([("Review", "")]), doc([("Review", "Contributions clear.")]))


def test_a_rating_line_stated_twice_is_a_score_field_not_an_added_point() -> None:
    # a published GPT-5 rewrite (PeerPrism, NeurIPS 2022) repeats its rating line after a blank line;
    # the second copy was read as an "added point" and the faithful rewrite was rejected
    value = ("6: Weak Accept: Technically solid, moderate-to-high impact paper, with no major concerns with "
             "respect to evaluation, resources, reproducibility, ethical considerations.")
    body = "Limitations:\n- The authors acknowledge that the model may inherit the risks of GRU models.\n\nRating:\n"
    original = text_review(body + value)
    twice = text_review(body + value + "\n\n" + value)
    structure = review_structure(twice)
    assert [(s.label, s.value, s.recommendation) for s in structure.scores] == [("rating", 6.0, "accept")] * 2
    assert [p.text for p in structure.points] == [
        "The authors acknowledge that the model may inherit the risks of GRU models."]
    assert check_review_variant(original, twice).ok
    changed = text_review(body + value + "\n\n" + value.replace("6: Weak Accept", "8: Strong Accept"))
    assert check_review_variant(original, changed).problems == ["rating changed: 6 -> 6, 8"]
    # a line after the value that does not read as one ends the field: it is a point again
    explained = review_structure(text_review(body + value + "\nThe rating reflects the limited evaluation on "
                                             "two small benchmarks only."))
    assert [p.section for p in explained.points][-1] == "Rating" and len(explained.scores) == 1


def test_score_fields_inside_a_one_paragraph_review_are_read_wherever_they_stand() -> None:
    # a generated corpus of one-paragraph reviews: prose sentences, other "Label: text" sentences and 1-3
    # score fields at random sentence positions, with the field's label and value written in several ways;
    # each review's rewrite keeps the text and changes one field's value. A fresh user's review
    # "Strong paper. Strengths: ... Weaknesses: ... Rating: 8." rewritten to "Rating: 3." passed (no
    # rating read after the first "Strengths:")
    import random

    rng = random.Random(7)
    prose = ["The method is novel and well motivated.", "Experiments cover three benchmarks.",
             "The writing could be improved in places.", "Proofs in the appendix look correct.",
             "Strengths: the theory is sound.", "Weaknesses: a missing ablation on the loss.",
             "Summary: a graph method for molecules.", "Questions: why this kernel width?"]
    labels = {"rating": ["Rating", "Overall rating", "Score", "**Rating**", "Recommendation"],
              "confidence": ["Confidence", "**Confidence**"], "soundness": ["Soundness"]}
    forms = ["{}", "{}/10", "{}: good paper", "{} (out of 10)"]
    cases = 0
    for _ in range(200):
        fields = rng.sample(sorted(labels), rng.randint(1, 3))
        values = {name: rng.randint(1, 9) for name in fields}
        sentences = rng.sample(prose, rng.randint(1, 5))
        slots = sorted(rng.sample(range(len(sentences) + len(fields)), len(fields)))
        changed = rng.choice(fields)
        new_value = values[changed] % 9 + 1
        texts = []
        for value_of_changed in (values[changed], new_value):
            parts, fields_left, prose_left = [], list(fields), list(sentences)
            for position in range(len(sentences) + len(fields)):
                if position in slots:
                    name = fields_left.pop(0)
                    value = value_of_changed if name == changed else values[name]
                    form = forms[(position + len(name)) % len(forms)]
                    parts.append(f"{labels[name][position % len(labels[name])]}: {form.format(value)}.")
                else:
                    parts.append(prose_left.pop(0))
            texts.append(" ".join(parts))
        result = check_review_variant(text_review(texts[0]), text_review(texts[1]))
        assert f"{changed} changed: {values[changed]} -> {new_value}" in result.problems, (texts, result.problems)
        assert check_review_variant(text_review(texts[0]), text_review(texts[0])).problems == [], texts[0]
        cases += 1
    assert cases == 200
