"""The study flow from hand-built tidy tables: every count written by hand from the rows below."""

from __future__ import annotations

import pandas as pd
import pytest

from rhetorica.analysis.flow import EXCLUDED, FAILED, NOT_RUN, check_label, effective_n, study_flow

STUDY = {"reviewers": [{"name": "R", "model": "mock/r"}, {"name": "S", "model": "mock/s"}], "replicates": 2,
         "validation": {"failed_variants": "exclude"}}
VARIANTS = pd.DataFrame([
    {"unit_key": "v1", "document_id": "d1", "condition": "confidence:+", "rewriter": "rules", "status": "ok"},
    {"unit_key": "v2", "document_id": "d2", "condition": "confidence:+", "rewriter": "rules", "status": "malformed"},
    {"unit_key": "v3", "document_id": "d1", "condition": "confidence:-", "rewriter": "rules", "status": "ok"},
    {"unit_key": "v4", "document_id": "d2", "condition": "confidence:-", "rewriter": "rules", "status": "ok"},
])
VALIDATION = pd.DataFrame([
    {"variant_key": "v1", "passed": False, "validated": True,
     "reasons": "semantic similarity 0.500 < 0.850; length ratio 2.00 outside [0.75, 1.25]"},
    {"variant_key": "v3", "passed": True, "validated": True, "reasons": ""},
    {"variant_key": "v4", "passed": False, "validated": False, "reasons": "embedding failed: text too long"},
])


def _assessment(key: str, reviewer: str, doc: str, arm: str, replicate: int, status: str = "ok") -> dict:
    return {"unit_key": key, "reviewer": reviewer, "document_id": doc, "arm": arm, "replicate": replicate,
            "status": status}


ASSESSMENTS = pd.DataFrame([
    _assessment("a1", "R", "d1", "original", 0), _assessment("a2", "R", "d1", "original", 1),
    _assessment("a3", "R", "d2", "original", 0), _assessment("a4", "R", "d2", "original", 1, "malformed"),
    _assessment("a5", "R", "d1", "confidence:-", 0), _assessment("a6", "R", "d1", "confidence:-", 1, "refused"),
])
PROBLEMS = pd.DataFrame([
    {"stage": "ingest", "item": "x.pdf", "status": "error", "reason": "document has no text"},
    {"stage": "ingest", "item": "y.tex", "status": "error", "reason": "warning: substitute class used"},
    {"stage": "review", "item": "S", "status": "error",
     "reason": "configuration stopped, its remaining units were not run: bad key"},
])


def _flow():
    return study_flow(STUDY, documents=pd.DataFrame({"document_id": ["d1", "d2"]}), variants=VARIANTS,
                      validation=VALIDATION, assessments=ASSESSMENTS, analysed=ASSESSMENTS, problems=PROBLEMS,
                      planned={"rewrite": None, "review": None})


def _row(flow, stage: str, arm: str, configuration: str) -> dict:
    rows = flow.flow[(flow.flow["stage"] == stage) & (flow.flow["arm"] == arm)
                     & (flow.flow["configuration"] == configuration)]
    assert len(rows) == 1, rows
    return {k: int(v) for k, v in rows.iloc[0].items() if k in ("planned", "not_run", "failed", "produced",
                                                                 "excluded", "analysed")}


def _exclusions(flow, stage: str, arm: str, configuration: str) -> set[tuple[str, str, int]]:
    out = flow.exclusions[(flow.exclusions["stage"] == stage) & (flow.exclusions["arm"] == arm)
                          & (flow.exclusions["configuration"] == configuration)]
    return {(k, r, int(n)) for k, r, n in zip(out["kind"], out["reason"], out["n"])}


def test_each_stage_counts_and_reasons_by_hand() -> None:
    flow = _flow()
    # 2 documents read + 1 unreadable (the warning is not a problem); both have an analysed review
    assert _row(flow, "input", "–", "documents") == {"planned": 3, "not_run": 0, "failed": 1, "produced": 2,
                                                     "excluded": 0, "analysed": 2}
    assert _exclusions(flow, "input", "–", "documents") == {(FAILED, "unreadable input: document has no text", 1)}
    assert _row(flow, "rewrite", "confidence:+", "rules") == {"planned": 2, "not_run": 0, "failed": 1, "produced": 1,
                                                              "excluded": 0, "analysed": 1}
    assert _exclusions(flow, "rewrite", "confidence:+", "rules") == {(FAILED, "rewrite malformed", 1)}
    # v1 failed two checks: counted once, under its first
    assert _row(flow, "validate", "confidence:+", "rules") == {"planned": 1, "not_run": 0, "failed": 0,
                                                               "produced": 1, "excluded": 1, "analysed": 0}
    assert _exclusions(flow, "validate", "confidence:+", "rules") == {
        (EXCLUDED, "failed validation: semantic similarity", 1)}
    # v4's check could not be made: a failed unit, left out under `exclude`
    assert _row(flow, "validate", "confidence:-", "rules") == {"planned": 2, "not_run": 0, "failed": 1,
                                                               "produced": 1, "excluded": 0, "analysed": 1}
    assert _exclusions(flow, "validate", "confidence:-", "rules") == {
        (FAILED, "could not be validated: embedding failed: text too long", 1)}
    # R: originals 2 documents x 2 replicates; confidence:- 1 variant passed on x 2; confidence:+ none
    assert _row(flow, "review", "original", "R") == {"planned": 4, "not_run": 0, "failed": 1, "produced": 3,
                                                     "excluded": 0, "analysed": 3}
    assert _row(flow, "review", "confidence:-", "R") == {"planned": 2, "not_run": 0, "failed": 1, "produced": 1,
                                                         "excluded": 0, "analysed": 1}
    assert _row(flow, "review", "confidence:+", "R")["planned"] == 0
    # S was stopped before any review: n = 0 with the reason, nothing disappears
    assert _row(flow, "review", "original", "S") == {"planned": 4, "not_run": 4, "failed": 0, "produced": 0,
                                                     "excluded": 0, "analysed": 0}
    assert _exclusions(flow, "review", "original", "S") == {(NOT_RUN, "configuration stopped: bad key", 4)}


def test_planned_minus_exclusions_is_analysed_on_every_row() -> None:
    flow = _flow()
    sums = flow.exclusions.groupby(["stage", "arm", "configuration", "metric"])["n"].sum()
    for row in flow.flow.itertuples(index=False):
        assert row.planned - sums.get((row.stage, row.arm, row.configuration, row.metric), 0) == row.analysed
        assert row.planned == row.not_run + row.failed + row.produced


def test_an_unattributable_plan_remainder_is_one_row() -> None:
    # the recorded review plan has 13 units; the design places 4 + 2 + 0 + 4 + 2 + 0 = 12 - stored 6 ...
    flow = study_flow(STUDY, documents=pd.DataFrame({"document_id": ["d1", "d2"]}), variants=VARIANTS,
                      validation=VALIDATION, assessments=ASSESSMENTS, analysed=ASSESSMENTS, problems=PROBLEMS,
                      planned={"rewrite": 4, "review": 9})
    # ... 9 - 6 stored = 3 not stored, the design says 4 + 2 = 6: the remainder is not placed by arm
    assert _row(flow, "review", "(any)", "(any)") == {"planned": 3, "not_run": 3, "failed": 0, "produced": 0,
                                                      "excluded": 0, "analysed": 0}
    assert _row(flow, "review", "original", "S")["planned"] == 0


def test_variants_of_other_stages_are_rows_of_their_own_stage_in_walk_order() -> None:
    """v2 and v4 stored by the ``attack`` and ``rewrite-2`` stages: their rows (and v2's failure)
    are under those stages, placed after ``rewrite`` as the study's walk orders them; the
    ``(any)`` remainder of the variants' plan (5 planned - 4 stored) stays ``rewrite``."""
    variants = VARIANTS.assign(stage=["rewrite", "attack", "rewrite", "rewrite-2"],
                               condition=["confidence:+", "attack:+", "confidence:-", "recursive:2"])
    flow = study_flow(STUDY, documents=pd.DataFrame({"document_id": ["d1", "d2"]}), variants=variants,
                      validation=VALIDATION.iloc[0:0], assessments=ASSESSMENTS, analysed=ASSESSMENTS,
                      problems=PROBLEMS, planned={"rewrite": 5, "review": None},
                      stages=["rewrite", "rewrite-2", "attack", "validate", "review"])
    variant_rows = flow.flow[~flow.flow["stage"].isin(["input", "review"])]
    assert variant_rows[["stage", "arm"]].values.tolist() == [
        ["rewrite", "confidence:+"], ["rewrite", "confidence:-"], ["rewrite", "(any)"], ["rewrite-2", "recursive:2"],
        ["attack", "attack:+"], ["validate", "attack:+"], ["validate", "confidence:+"], ["validate", "confidence:-"],
        ["validate", "recursive:2"]]
    assert _row(flow, "attack", "attack:+", "rules") == {"planned": 1, "not_run": 0, "failed": 1, "produced": 0,
                                                         "excluded": 0, "analysed": 0}
    assert _exclusions(flow, "attack", "attack:+", "rules") == {(FAILED, "attack malformed", 1)}
    assert _row(flow, "rewrite-2", "recursive:2", "rules")["produced"] == 1
    assert _row(flow, "rewrite", "(any)", "(any)")["not_run"] == 1


@pytest.mark.parametrize(("reason", "label"), [
    ("semantic similarity 0.812 < 0.850", "semantic similarity"),
    ("3 protected span(s) missing: $x$, 2.1", "protected span(s) missing"),
    ("length ratio 2.00 outside [0.75, 1.25]", "length ratio"),
    ("variant is identical to its original: the rewrite changed nothing", "variant is identical to its original"),
    ("weakness point without a counterpart (best cosine 0.30 < 0.32): 'The baselines (2021) are old'",
     "weakness point without a counterpart"),
    ("rating changed: 5 -> 8 (rating field)", "rating changed"),
])
def test_check_label(reason: str, label: str) -> None:
    assert check_label(reason) == label


def test_effective_n_of_a_comparison_and_a_judge_metric() -> None:
    comparisons = pd.DataFrame([{"reviewer": "R", "first": "confidence:-", "second": "original", "given": None,
                                 "score": "overall", "n_pairs": 4, "pct_tie": 25.0}])
    analysed = pd.DataFrame([_assessment(f"k{i}", "R", f"d{i % 4}", arm, i // 4)
                             for i, arm in enumerate(["original"] * 8 + ["confidence:-"] * 4)])
    judges = pd.DataFrame([{"condition": "paraphrase", "judge": "J", "metric": "f.m", "n_pairs": 3, "wilcoxon_n": 2}])
    clustered = pd.DataFrame([{"condition": "paraphrase", "judge": "J", "metric": "f.m", "n_pairs": 2}])
    pairs = pd.DataFrame([
        {"judge": "J", "metric": "f.m", "condition": c, "arm": a, "paper_id": p, "document_id": d, "status": "ok",
         "score": 1.0}
        for c, a, p, d in [("original", "original", "P1", "r1"), ("original", "original", "P1", "r2"),
                           ("original", "original", "P2", "r3"), ("paraphrase", "rewrite", "P1", "r1"),
                           ("paraphrase", "rewrite", "P1", "r2"), ("paraphrase", "rewrite", "P2", "r3")]])
    out = effective_n(comparisons=comparisons, analysed=analysed, judges=judges, judges_clustered=clustered,
                      judge_pairs=pairs)
    table4 = out[out["table"] == "comparison"].iloc[0]
    # 4 papers, one tied; 8 original reviews (2 replicates) + 4 rewrite reviews of those papers
    assert (table4["papers"], table4["nonzero"], table4["reviews"]) == (4, 3, 12)
    table1 = out[out["table"] == "judges"].iloc[0]
    assert (table1["pairs"], table1["nonzero"], table1["papers"], table1["reviews"], table1["clusters"]) == (3, 2, 2, 3, 2)


def test_a_review_variant_failing_its_checks_is_excluded_not_failed() -> None:
    variants = pd.DataFrame([{"unit_key": "v1", "document_id": "r1", "condition": "paraphrase", "rewriter": "gpt",
                              "status": "ok"},
                             {"unit_key": "v2", "document_id": "r2", "condition": "paraphrase", "rewriter": "gpt",
                              "status": "ok"}])
    validation = pd.DataFrame([  # review checks carry no measures (validated False) but are results
        {"variant_key": "v1", "passed": False, "validated": False, "review": True,
         "reasons": "recommendation changed: accept -> reject"},
        {"variant_key": "v2", "passed": True, "validated": False, "review": True, "reasons": ""}])
    flow = study_flow({"reviewers": [], "validation": {}}, documents=pd.DataFrame({"document_id": ["r1", "r2"]}),
                      variants=variants, validation=validation, assessments=pd.DataFrame(columns=ASSESSMENTS.columns),
                      analysed=pd.DataFrame(columns=ASSESSMENTS.columns), problems=pd.DataFrame(),
                      planned={})
    assert _row(flow, "validate", "paraphrase", "gpt") == {"planned": 2, "not_run": 0, "failed": 0, "produced": 2,
                                                           "excluded": 1, "analysed": 1}
    assert _exclusions(flow, "validate", "paraphrase", "gpt") == {(EXCLUDED, "failed validation: recommendation changed", 1)}


NOLOG = "provider 'nolog' returns no token log-probabilities"
#: (document, arm, overall, overall.expected or None, soft artefact reason or None); replicates by order
SOFT_RECORDS = [
    ("d0", "original", 6, 6.2, None), ("d0", "original", 6, 6.4, None), ("d0", "confidence:+", 6, 6.8, None),
    ("d1", "original", 5, 5.0, None), ("d1", "confidence:+", 5, 5.0, None),
    ("d2", "original", 7, 7.1, None), ("d2", "confidence:+", 7, None, NOLOG),
    ("d3", "original", 4, 4.2, None), ("d3", "confidence:+", 5, 4.9, None),
    ("d4", "original", 6, None, None), ("d4", "confidence:+", 6, 6.3, None),
]


def test_soft_n_of_the_comparison_table_from_a_store(tmp_path) -> None:
    from rhetorica.analysis.flow import NO_SOFT_RATING, SOFT_N_COLUMNS, SOFT_TEST
    from rhetorica.report.build import collect
    from tests.report.runs import make_run

    records = [("R", doc, arm, overall) for doc, arm, overall, _, _ in SOFT_RECORDS]
    criteria = {i: {"overall.expected": e} for i, (*_, e, _) in enumerate(SOFT_RECORDS) if e is not None}
    artefacts = {i: {"soft_ratings": {"overall": {"expected": None, "reason": why}}}
                 for i, (*_, why) in enumerate(SOFT_RECORDS) if why}
    run = make_run(tmp_path / "run", records, criteria=criteria, artefacts=artefacts, replicates={1: 1})
    data = collect(run, n_resamples=50)
    soft = data.effective_n[data.effective_n["test"] == SOFT_TEST]
    assert list(data.effective_n.columns[-2:]) == SOFT_N_COLUMNS
    [row] = soft.to_dict("records")
    # by hand: papers with a mean expected score in both arms d0 (6.3 vs 6.8), d1 (5.0 vs 5.0), d3 (4.2 vs 4.9)
    assert (row["metric"], row["papers"], row["pairs"], row["nonzero"]) == ("overall.expected", 3, 3, 2)
    assert row["reviews"] == 7  # d0: 3, d1: 2, d3: 2
    # the integer test read d2's rewrite review (no log-probabilities) and d4's original (no soft rating stored)
    assert row["missing"] == 2
    assert row["missing_reasons"] == f"{NO_SOFT_RATING} (1); {NOLOG} (1)"
    assert data.comparisons.iloc[0]["soft_n_pairs"] == 3
    sign = data.effective_n[data.effective_n["test"] == "sign test"].iloc[0]
    assert (sign["papers"], sign["nonzero"], sign["missing_reasons"]) == (5, 1, "")


def test_effective_n_without_soft_ratings_keeps_its_columns() -> None:
    from rhetorica.analysis.flow import EFFECTIVE_N_COLUMNS

    comparisons = pd.DataFrame([{"reviewer": "R", "first": "confidence:-", "second": "original", "given": None,
                                 "score": "overall", "n_pairs": 1, "pct_tie": 0.0}])
    analysed = pd.DataFrame([_assessment("k1", "R", "d1", "original", 0),
                             _assessment("k2", "R", "d1", "confidence:-", 0)])
    assert list(effective_n(comparisons=comparisons, analysed=analysed).columns) == EFFECTIVE_N_COLUMNS


def test_soft_ratings_asked_for_but_never_returned_are_a_row_with_n_0_and_the_reason(tmp_path) -> None:
    """A reviewer with ``soft_ratings: true`` on a provider without log-probabilities: no review has
    an expected score, so the comparison table has no soft columns; the n table still has the soft
    test's row, n = 0, every review the sign test read counted as missing with the recorded reason
    (before: no row at all, and the report said nothing)."""
    from rhetorica.analysis.flow import SOFT_TEST
    from rhetorica.report.build import collect
    from rhetorica.report.flow import flow_section
    from tests.report.runs import make_run

    records = [("R", doc, arm, overall) for doc, arm, overall, _, _ in SOFT_RECORDS]
    artefacts = {i: {"soft_ratings": {"overall": {"expected": None, "reason": NOLOG}}} for i in range(len(SOFT_RECORDS))}
    run = make_run(tmp_path / "run", records, artefacts=artefacts, replicates={1: 1})
    data = collect(run, n_resamples=50)
    assert "soft_n_pairs" not in data.comparisons.columns
    [row] = data.effective_n[data.effective_n["test"] == SOFT_TEST].to_dict("records")
    assert (row["metric"], row["papers"], row["reviews"], row["pairs"], row["nonzero"]) == ("overall.expected", 0, 0,
                                                                                            0, 0)
    assert (row["missing"], row["missing_reasons"]) == (11, f"{NOLOG} (11)")  # the 11 reviews of the 5 papers
    shown = flow_section(data).tables[-1]
    assert "Why no soft rating" in shown.headers and f"{NOLOG} (11)" in [str(r[-1]) for r in shown.rows]


def test_a_judge_with_soft_ratings_and_no_expected_score_has_its_soft_row() -> None:
    """Table 1 without soft columns (no judgement carried an expected score): the soft row of each
    metric the judge was asked for, n = 0, the judgements the Wilcoxon test used counted by reason."""
    from rhetorica.analysis.flow import SOFT_TEST

    judges = pd.DataFrame([{"condition": "paraphrase", "judge": "J", "metric": "f.m", "n_pairs": 2, "wilcoxon_n": 2}])
    pairs = pd.DataFrame([
        {"judge": "J", "metric": "f.m", "condition": c, "arm": a, "paper_id": p, "document_id": d, "status": "ok",
         "score": 1.0, "unit_key": k, "expected": float("nan")}
        for c, a, p, d, k in [("original", "original", "P1", "r1", "o1"), ("original", "original", "P2", "r2", "o2"),
                              ("paraphrase", "rewrite", "P1", "r1", "w1"), ("paraphrase", "rewrite", "P2", "r2", "w2")]])
    reasons = pd.DataFrame({"unit_key": ["o1", "o2", "w1", "w2"], "metric": "m", "reason": [NOLOG] * 3 + ["other"]})
    out = effective_n(judges=judges, judge_pairs=pairs, soft_reasons=reasons)
    [row] = out[out["test"] == SOFT_TEST].to_dict("records")
    assert (row["metric"], row["pairs"], row["nonzero"], row["papers"], row["reviews"]) == ("f.m.expected", 0, 0, 0, 0)
    assert (row["missing"], row["missing_reasons"]) == (4, f"{NOLOG} (3); other (1)")
    # a judge that never asked (no recorded reason) has no soft row
    assert SOFT_TEST not in set(effective_n(judges=judges, judge_pairs=pairs,
                                            soft_reasons=reasons.iloc[0:0])["test"])


def test_inputs_not_scanned_in_full_are_a_scan_row_with_their_reasons() -> None:
    problems = pd.concat([PROBLEMS, pd.DataFrame([
        {"stage": "scan", "item": "d1 / original / –", "status": "error",
         "reason": "warning: not scanned: 'd1.pdf' p. 2: no text layer"},
        {"stage": "scan", "item": "d2 / original / –", "status": "error",
         "reason": "warning: not scanned: 'd2.pdf' p. 1: no text layer"},
        {"stage": "scan", "item": "d2 / confidence:- / rules", "status": "error", "reason": "scan failed (boom)"},
    ])], ignore_index=True)
    flow = study_flow(STUDY, documents=pd.DataFrame({"document_id": ["d1", "d2"]}), variants=VARIANTS,
                      validation=VALIDATION, assessments=ASSESSMENTS, analysed=ASSESSMENTS, problems=problems,
                      planned={"rewrite": None, "review": None})
    assert _row(flow, "scan", "–", "inputs") == {"planned": 3, "not_run": 0, "failed": 3, "produced": 0,
                                                 "excluded": 0, "analysed": 0}
    assert _exclusions(flow, "scan", "–", "inputs") == {(FAILED, "not scanned: 'd1.pdf' p. 2: no text layer", 1),
                                                        (FAILED, "not scanned: 'd2.pdf' p. 1: no text layer", 1),
                                                        (FAILED, "scan failed (boom)", 1)}
    assert "scan" not in set(_flow().flow["stage"])  # no row when every scan read everything


def test_a_pair_missing_on_both_sides_has_its_own_reason_never_one_sides() -> None:
    """Issue 36: four rewrites of four reviews judged on metric f.m: r1 analysed, r2 only the original
    scored (rewrite: metric missing), r3 only the rewrite (original malformed), r4 neither (rewrite
    metric missing, original malformed): one exclusion each, the last as 'both sides missing'."""
    docs = ["r1", "r2", "r3", "r4"]
    variants = pd.DataFrame([{"unit_key": f"v{d}", "document_id": d, "condition": "paraphrase", "rewriter": "x",
                              "status": "ok"} for d in docs])
    rewrite = {"r1": ("ok", 3.0), "r2": ("ok", None), "r3": ("ok", 4.0), "r4": ("ok", None)}
    original = {"r1": ("ok", 2.0), "r2": ("ok", 2.0), "r3": ("malformed", None), "r4": ("malformed", None)}
    pairs = pd.DataFrame(
        [{"judge": "J", "metric": "f.m", "arm": "rewrite", "variant": f"v{d}", "document_id": d, "paper_id": d,
          "condition": "paraphrase", "status": rewrite[d][0], "score": rewrite[d][1]} for d in docs]
        + [{"judge": "J", "metric": "f.m", "arm": "original", "variant": "", "document_id": d, "paper_id": d,
            "condition": "original", "status": original[d][0], "score": original[d][1]} for d in docs])
    flow = study_flow({"reviewers": [{"name": "J", "model": "mock/j"}], "validation": {"enabled": False}},
                      documents=pd.DataFrame({"document_id": docs}), variants=variants, validation=pd.DataFrame(),
                      assessments=pd.DataFrame(columns=["unit_key", "reviewer", "document_id", "arm", "status"]),
                      analysed=pd.DataFrame(columns=["unit_key", "reviewer", "document_id", "arm", "status"]),
                      problems=pd.DataFrame(), planned={}, judge_pairs=pairs, declared_metrics={"J": ["f.m"]})
    row = flow.flow[flow.flow["stage"] == "metric"].iloc[0]
    assert (row["planned"], row["analysed"], row["failed"], row["excluded"]) == (4, 1, 2, 1)
    assert _exclusions(flow, "metric", "paraphrase", "J") == {
        (EXCLUDED, "metric missing from the rewrite's ok judgement", 1),
        (FAILED, "original judgement malformed", 1),
        (FAILED, "both sides missing: rewrite metric missing, original judgement malformed", 1)}


def test_a_review_without_a_pdf_for_a_pdf_reader_is_excluded_with_its_reason_never_failed() -> None:
    """Issue 35.4: a reviewer reading PDFs and a document without one: the review is stored
    ``discarded`` with the reason; the flow counts it under excluded with that reason (d1's two
    replicates of the original), never under failed."""
    reason = ("no PDF of this document for a reviewer that reads PDFs (only LaTeX-project variants and originals "
              "read from a PDF have one)")
    rows = [_assessment(f"p{k}", "R", "d1", "original", k, "discarded") for k in (0, 1)]
    assessments = pd.DataFrame(rows).assign(reason=[f"d1 (original): {reason}"] * 2)
    flow = study_flow({"reviewers": [{"name": "R", "kind": "command"}], "validation": {"enabled": False}},
                      documents=pd.DataFrame({"document_id": ["d1"]}), variants=VARIANTS.iloc[0:0],
                      validation=pd.DataFrame(), assessments=assessments, analysed=assessments.iloc[0:0],
                      problems=pd.DataFrame(), planned={"rewrite": None, "review": None})
    assert _exclusions(flow, "review", "original", "R") == {(EXCLUDED, reason, 2)}
    assert _row(flow, "review", "original", "R")["failed"] == 0


def test_input_reasons_are_kept_whole_with_their_quoted_ids() -> None:
    """The trial's reasons: quoted ids and apostrophes stay as written (they were cut to '…'); the same
    reason twice is one row of 2."""
    clash = ("b2.jsonl:1: paper id '0' was given at a.jsonl:1 to another paper (forum_id 'F1' there, 'F2' here); "
             "left out (ids are kept as the source wrote them: give each paper its own paper_id across the study's "
             "files, or set the study's id_scope: file)")
    problems = pd.concat([PROBLEMS, pd.DataFrame([
        {"stage": "ingest", "item": "p/a", "status": "error", "reason": "duplicate document id 'paper'; give it an 'id'"},
        {"stage": "ingest", "item": "q/a", "status": "error", "reason": "duplicate document id 'paper'; give it an 'id'"},
        {"stage": "ingest", "item": "b2.jsonl", "status": "error", "reason": clash},
    ])], ignore_index=True)
    flow = study_flow(STUDY, documents=pd.DataFrame({"document_id": ["d1", "d2"]}), variants=VARIANTS,
                      validation=VALIDATION, assessments=ASSESSMENTS, analysed=ASSESSMENTS, problems=problems,
                      planned={"rewrite": None, "review": None})
    failed = {e for e in _exclusions(flow, "input", "–", "documents") if e[0] == FAILED}
    assert failed == {(FAILED, "unreadable input: document has no text", 1),
                      (FAILED, "unreadable input: duplicate document id 'paper'; give it an 'id'", 2),
                      (FAILED, f"unreadable input: {clash}", 1)}


def test_units_a_recipe_left_out_are_input_rows_not_run_with_their_reasons() -> None:
    """Generated: 0..29 papers a recipe's data step drew and left out, spread over three reasons in
    turn; each is planned and not run on the input row, counted under its reason; the documents'
    own counts (d1, d2 read, x.pdf unreadable, both analysed) are unchanged."""
    reasons = ["no LaTeX source (no arXiv record with a matching title)", "no LaTeX source (no PDF in the dataset)",
               "no LaTeX source (download failed)"]
    for k in range(30):
        left_out = [{"id": f"P{i}", "reason": reasons[i % 3]} for i in range(k)]
        flow = study_flow({**STUDY, "recipe": {"name": "r", "left_out": left_out}},
                          documents=pd.DataFrame({"document_id": ["d1", "d2"]}), variants=VARIANTS,
                          validation=VALIDATION, assessments=ASSESSMENTS, analysed=ASSESSMENTS, problems=PROBLEMS,
                          planned={"rewrite": None, "review": None})
        assert _row(flow, "input", "–", "documents") == {"planned": 3 + k, "not_run": k, "failed": 1, "produced": 2,
                                                         "excluded": 0, "analysed": 2}, k
        per_reason = [len(range(j, k, 3)) for j in range(3)]  # i % 3 == j for i < k
        assert _exclusions(flow, "input", "–", "documents") == {
            (FAILED, "unreadable input: document has no text", 1),
            *((NOT_RUN, f"left out by the recipe's data step: {reasons[j]}", per_reason[j])
              for j in range(3) if per_reason[j])}, k
