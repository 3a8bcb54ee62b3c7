"""The validation section (Table 2 of 'Style over Substance') from rows in the store's checks table."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.report.data import fmt
from rhetorica.report.render import write_report
from rhetorica.store.db import Store
from rhetorica.validation.validate import VariantValidation, validate_variant, validation_row

from .runs import make_run
from .test_content import md_table

ORIGINAL_TEXT = (
    "We propose a spectral filter for graphs \\cite{defferrard2016}. It may improve accuracy on citation "
    "networks, and the results suggest that localisation matters. The method perhaps generalises to other "
    "domains, although we have only tested 3 datasets."
)
CONFIDENT_TEXT = (
    "We propose a spectral filter for graphs \\cite{defferrard2016}. It clearly improves accuracy on citation "
    "networks, and the results demonstrate that localisation matters. The method certainly generalises to "
    "other domains, although we have only tested 3 datasets."
)
BROKEN_TEXT = "We propose a filter. It works."  # drops the citation, the number and most of the text


class BagOfWordsEmbedder:
    """Tiny deterministic embedder (hashed bag of words, L2-normalised) standing in for MiniLM."""

    name = "bag-of-words-test"
    max_tokens = 200

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def _doc(text: str) -> Document:
    return Document(id="d1", title="Spectral filters", sections=[Section(title="Introduction", text=text)],
                    source=DocumentSource(path="d1.tex", parser="test", parser_version="0"))


@pytest.fixture(scope="module")
def results() -> dict[str, VariantValidation]:
    original, embedder = _doc(ORIGINAL_TEXT), BagOfWordsEmbedder()
    return {"confidence:+": validate_variant(original, _doc(CONFIDENT_TEXT), embedder=embedder),
            "confidence:-": validate_variant(original, _doc(BROKEN_TEXT), embedder=embedder)}


def _insert_checks(run: Path, results: dict[str, VariantValidation]) -> None:
    store = Store.in_dir(run)
    try:
        for condition, result in results.items():
            store.insert("checks", {
                "unit_key": f"c-{condition}", "variant_key": f"v-d1-{condition}", "document_id": "d1",
                "condition": condition, "rewriter": "rules", "passed": int(result.passed),
                "reasons_json": json.dumps(result.reasons), "result_json": result.model_dump_json()})
        reason = "could not validate: variant has 2 sections, original has 1"  # as the runner records it
        store.insert("checks", {
            "unit_key": "c-prof", "variant_key": "v-d1-prof", "document_id": "d1", "condition": "proficiency:-",
            "rewriter": "echo", "passed": 0, "reasons_json": json.dumps([reason]),
            "result_json": json.dumps({"error": reason})})
    finally:
        store.close()


def test_validation_table2_and_failed_variants(tmp_path: Path, results: dict[str, VariantValidation]) -> None:
    assert results["confidence:+"].passed and not results["confidence:-"].passed
    run = make_run(tmp_path / "run", [("R", "d1", "original", 5), ("R", "d1", "confidence:+", 6)],
                   study={"validation": {"enabled": True}})
    _insert_checks(run, results)
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    rows = md_table(md, "Validation of the rewrites")
    header = rows[0]
    by_condition = {r[0]: dict(zip(header, r, strict=True)) for r in rows[1:]}
    expected = validation_row(results["confidence:+"], condition="confidence:+", rewriter="rules")
    plus = by_condition["confidence:+"]
    assert plus["Variants"] == "1" and plus["Passed"] == "1"
    assert plus["Hedges /1k"] == fmt(expected["hedges_per_1k"]) and plus["Boosters /1k"] == fmt(expected["boosters_per_1k"])
    assert plus["MTLD"] == fmt(expected["mtld"]) and plus["Semantic sim."] == fmt(expected["semantic_similarity"], 3)
    # the original row: the originals' measures, counted once per document, no integrity values
    assert by_condition["original"]["Hedges /1k"] == fmt(expected["original_hedges_per_1k"])
    assert by_condition["original"]["Semantic sim."] == "–" and by_condition["original"]["Passed"] == "–"
    # the variant that could not be validated counts as a variant that did not pass, with no measures
    assert by_condition["proficiency:-"]["Passed"] == "0" and by_condition["proficiency:-"]["MTLD"] == "–"
    failed = md_table(md, "Validation of the rewrites", index=1)
    assert [r[1:4] for r in failed[1:]] == [["confidence:-", "rules", "failed"],
                                            ["proficiency:-", "echo", "not validated"]]
    assert "protected span(s) missing" in failed[1][4] and "length ratio" in failed[1][4]
    assert failed[2][4] == "could not validate: variant has 2 sections, original has 1"
    exported = pd.read_csv(run / "tables" / "validation.csv")
    assert len(exported) == 3 and set(exported["condition"]) == {"confidence:+", "confidence:-", "proficiency:-"}
    assert len(pd.read_parquet(run / "tables" / "validation.parquet")) == 3
    assert r"\begin{tabular}" in (run / "tables" / "validation.tex").read_text("utf-8")


def test_empty_checks_table_says_so(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("R", "d1", "original", 5)], study={"validation": {"enabled": True}})
    data = write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    assert data.validation.empty
    assert "_Not computable (no variant has been validated (no rows in the store's checks table))._" in md
    assert not (run / "tables" / "validation.csv").exists()


def test_intended_shifts_are_summarised_per_condition_in_markdown_and_latex(tmp_path: Path) -> None:
    original, embedder = _doc(ORIGINAL_TEXT), BagOfWordsEmbedder()
    result = validate_variant(original, _doc(CONFIDENT_TEXT), embedder=embedder, condition="confidence:+")
    (check,) = result.shift  # the stored check is the input here: its measure and values
    run = make_run(tmp_path / "run", [("R", "d1", "original", 5), ("R", "d1", "confidence:+", 6)],
                   study={"validation": {"enabled": True}})
    _insert_checks(run, {"confidence:+": result})
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    rows = md_table(md, "Validation of the rewrites", index=1)
    assert rows[0] == ["Condition", "Rewriter", "Intended shift", "Measure", "Variants", "Shift present",
                       "Mean original", "Mean rewrite"]
    # one variant: the means are its own values; the variant that could not be validated has no check
    assert rows[1:] == [["confidence:+", "rules", "confidence:+", check.measure, "1", "1" if check.present else "0",
                         fmt(check.original), fmt(check.variant)]]
    latex = (run / "tables" / "shift_checks.tex").read_text("utf-8")
    assert f"confidence:+ & rules & confidence:+ & {check.measure} & 1 & {int(check.present)} & " in latex


def test_passed_review_variants_are_not_listed_as_failed() -> None:
    """Review variants (checks ``kind: review``) carry no style measures by design: the two that
    passed are not 'failed or lacking measures'; the one whose review checks failed is listed as
    failed with its reason; a manuscript variant that could not be validated stays listed."""
    from rhetorica.report.validation import failed_variants, validation_table

    def row(doc: str, passed: bool, reasons: list[str], result: dict) -> dict:
        return {"unit_key": f"c-{doc}", "variant_key": f"v-{doc}", "document_id": doc, "condition": "paraphrase",
                "rewriter": "gpt", "passed": int(passed), "reasons_json": json.dumps(reasons),
                "result_json": json.dumps(result)}

    checks = pd.DataFrame([row("r1", True, [], {"kind": "review"}), row("r2", True, [], {"kind": "review"}),
                           row("r3", False, ["recommendation changed"], {"kind": "review"}),
                           row("p1", False, ["boom"], {"error": "boom"})])
    failed = failed_variants(validation_table(checks))
    assert failed.values.tolist() == [["p1", "paraphrase", "gpt", "not validated", "boom"],
                                      ["r3", "paraphrase", "gpt", "failed", "recommendation changed"]]


def test_review_variants_show_their_checks_not_not_computable(tmp_path: Path) -> None:
    """Issue 36: a judge study's validation section said 'Not computable (no stored validation result
    carries measures)' while its review checks had passed. Three review variants checked: two passed,
    one failed two checks; the section shows 2 of 3 and the failing checks, never 'not computable'."""
    run = make_run(tmp_path / "run", [("R", "r1", "original", 5.0), ("R", "r1", "paraphrase", 5.0)])
    reasons = {"v1": [], "v2": [], "v3": ["recommendation changed: accept -> reject", "length ratio 1.60 > 1.25"]}
    store = Store.in_dir(run)
    try:
        for key, found in reasons.items():
            store.replace_check({"unit_key": f"c-{key}", "variant_key": key, "document_id": "r1",
                                 "condition": "paraphrase", "rewriter": "gpt-x", "passed": int(not found),
                                 "reasons_json": json.dumps(found), "result_json": json.dumps({"kind": "review"})})
    finally:
        store.close()
    write_report(run, n_resamples=20)
    md = (run / "report.md").read_text("utf-8")
    section = md.split("## Validation of the rewrites")[1].split("\n## ")[0]
    assert "Not computable" not in section
    assert "Review checks: 2 of 3 review variants passed" in section
    rows = md_table(md, "Validation of the rewrites")
    assert rows[0] == ["Condition", "Rewriter", "Variants", "Passed", "Failed", "Failing checks"]
    assert rows[1] == ["paraphrase", "gpt-x", "3", "2", "1", "length ratio (1); recommendation changed (1)"]
