"""The review-metric examples load as studies, and the imported-pairs example reads its pairs."""

from __future__ import annotations

from pathlib import Path

from rhetorica.study.config import load_study
from rhetorica.study.inputs import load_documents

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_judges_study_example_loads() -> None:
    config, _ = load_study(EXAMPLES / "judges_study.yaml")
    judges = [r for r in config.reviewers if r.kind == "judge"]
    assert len(judges) == 8 and {r.options.as_kwargs()["family"] for r in judges} == {
        "revieweval", "remor", "rottenreviews", "scholarpeer"}
    assert config.rewriters[0].conditions == ["paraphrase", "polish:+"]


def test_imported_pairs_example_reads_two_originals_with_two_rewrites_each() -> None:
    config, base = load_study(EXAMPLES / "judges_imported_pairs.yaml")
    problems: list[tuple[str, str, str]] = []
    docs = load_documents(config, base, problems)
    assert problems == []
    assert [d.id for d in docs] == ["r1", "r2"]  # the pairs file's review ids, verbatim
    assert [sorted(r["rewriter"] for r in d.metadata["imported_rewrites"]) for d in docs] == [
        ["gpt-4o", "llama-3-70b"], ["gpt-4o", "llama-3-70b"]]
