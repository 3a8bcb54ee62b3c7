"""Reviews as study documents: the three shared review sources read in a study with exact counts,
and review variants checked in the validate stage (TF-IDF counterparts, shift rule)."""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents.models import Section
from rhetorica.study.config import parse_study
from rhetorica.study.inputs import load_documents


def test_three_shared_review_sources_read_in_a_study(shared_data: Path) -> None:
    config = parse_study({
        "name": "r", "documents": [
            {"reviews": "papers/chebnet_nips2016/review/reviews.htm"},
            {"reviews": "papers/cheblienet_neurips2021/reviews.md"},
            {"reviews": "papers/fma_ismir2017/ismir_review_*.txt", "paper": "fma"}],
        "reviewers": [{"name": "j", "kind": "judge", "model": "mock/j", "options": {"family": "remor"}}]})
    problems: list[tuple[str, str, str]] = []
    docs = load_documents(config, shared_data, problems)
    assert [p for p in problems if not p[2].startswith("warning")] == []
    by_paper: dict[str, list[str]] = {}
    for d in docs:
        assert d.kind == "review"
        by_paper.setdefault(d.paper_id, []).append(d.id)
    assert {k: len(v) for k, v in by_paper.items()} == {"chebnet_nips2016": 6, "cheblienet_neurips2021": 4, "fma": 4}
    cheblie = [d.human_scores for d in docs if d.paper_id == "cheblienet_neurips2021"]
    assert cheblie == [[4], [6], [4], [5]]  # the OpenReview ratings, read by hand from reviews.md


def test_review_variant_checks_pass_a_faithful_rewrite_and_fail_a_dropped_point() -> None:
    from rhetorica.documents.reviews.model import review_document
    from rhetorica.judges.study import validate_review

    original = review_document("p", 1, {"strengths": "- The proofs in Section 3 are complete and easy to follow.",
                                        "weaknesses": "- The experiments use only two small datasets.\n"
                                                      "- No comparison with spectral baselines is given."},
                               rating=6, confidence=3, source="t", parser="t", parser_version="1")
    kept = original.model_copy(update={"sections": [
        Section(title="Strengths", text="- The proofs in Section 3 are complete and easy to follow, clearly."),
        Section(title="Weaknesses", text="- The experiments use only two small datasets.\n"
                                         "- No comparison with spectral baselines is given at all.")]})
    dropped = original.model_copy(update={"sections": [
        Section(title="Strengths", text="- The proofs in Section 3 are complete and easy to follow."),
        Section(title="Weaknesses", text="- The experiments use only two small datasets, sadly, in the end.")]})
    from rhetorica.validation.review_checks import ReviewCheckSettings

    # the study's validation.review thresholds reach the checks: these short points are checked (the calibrated
    # defaults check points of 12+ words and leave TF-IDF point checks off, issue 23)
    settings = ReviewCheckSettings(min_point_words=3, tfidf_min_point_similarity=0.3)
    ok = validate_review(original, kept, "paraphrase", settings=settings)
    assert ok.passed is True and ok.status == "ok"
    bad = validate_review(original, dropped, "paraphrase", settings=settings)
    assert bad.passed is False and bad.status == "failed" and any("spectral baselines" in r for r in bad.reasons)
    assert validate_review(original, dropped, "paraphrase").passed is True  # the defaults: TF-IDF point checks off


def test_judge_without_family_is_a_config_error() -> None:
    import pytest

    from rhetorica.study.config import ConfigError

    with pytest.raises(ConfigError, match="options.family"):
        parse_study({"name": "r", "documents": ["x.md"],
                     "reviewers": [{"name": "j", "kind": "judge", "model": "mock/j", "options": {}}]})


def test_rewrite_prompt_leaves_out_the_review_number_and_an_echoed_label_is_dropped() -> None:
    # The demo's 135M rewriter, shown "# Review 2", went on with an invented "# Review 3" until
    # max_tokens (truncated); the number is rhetorica's, not the reviewer's text.
    from rhetorica.documents.reviews.model import review_document
    from rhetorica.judges.study import review_from_text, review_messages

    original = review_document("p", 2, {"summary": "A graph method.", "weaknesses": "Few baselines."},
                               rating=6, confidence=3, source="t", parser="t", parser_version="1")
    user = review_messages(original, "paraphrase")[1].content
    assert user == "The review to rewrite:\n\n## Summary\n\nA graph method.\n\n## Weaknesses\n\nFew baselines.\n"
    variant = review_from_text(original, "The review to rewrite:\n\n## Summary\n\nA method on graphs.")
    assert [(s.title, s.text) for s in variant.sections] == [("Summary", "A method on graphs.")]
