"""The report's Failures table (``report.build._failures``): every current unit stored with a status
other than ``ok``, of every stage that stores units, and every problem of the run."""

from __future__ import annotations

import random

import pandas as pd

from rhetorica.report.build import _failures

STATUSES = ("ok", "malformed", "error", "refused", "discarded")


def _tables(rng: random.Random) -> tuple[dict[str, pd.DataFrame], dict[str, int]]:
    """Random stored units of each stage, and the failed ones counted by hand per stage."""
    def statuses(n: int) -> list[str]:
        return [rng.choice(STATUSES) for _ in range(n)]

    n = {name: rng.randrange(0, 8) for name in ("variants", "assessments", "extracts", "annotations", "problems")}
    v, a, e, an = statuses(n["variants"]), statuses(n["assessments"]), statuses(n["extracts"]), statuses(n["annotations"])
    tables = {
        "variants": pd.DataFrame({"document_id": [f"d{i}" for i in range(len(v))], "condition": "novelty:+",
                                  "rewriter": "rw", "stage": "rewrite", "status": v, "reason": "r"}),
        "assessments": pd.DataFrame({"document_id": [f"d{i}" for i in range(len(a))], "arm": "original",
                                     "reviewer": "R", "replicate": 0, "status": a, "reason": "r"}),
        "extracts": pd.DataFrame({"document_id": [f"d{i}" for i in range(len(e))],
                                  "condition": ["original" if i % 2 else "novelty:+" for i in range(len(e))],
                                  "rewriter": [None if i % 2 else "rw" for i in range(len(e))],
                                  "extractor": "mock/x", "replicate": 0, "status": e, "reason": "r"}),
        "annotations": pd.DataFrame({"assessment_key": [f"a{i}" for i in range(len(an))], "annotator": "ann",
                                     "status": an, "reason": "r"}),
        "problems": pd.DataFrame({"stage": "ingest", "item": [f"x{i}.pdf" for i in range(n["problems"])],
                                  "status": "error", "reason": "unreadable"}),
    }
    tables = {name: df.astype(object) if df.empty else df for name, df in tables.items()}  # as read from SQL
    expected = {"rewrite": sum(s != "ok" for s in v), "review": sum(s != "ok" for s in a),
                "extract": sum(s != "ok" for s in e), "annotate": sum(s != "ok" for s in an),
                "ingest": n["problems"]}
    return tables, expected


def test_every_failed_unit_of_every_stage_is_a_row() -> None:
    rng = random.Random(12)
    cases = extract_rows = 0
    for _ in range(60):
        tables, expected = _tables(rng)
        out = _failures(tables)
        counted = out["stage"].value_counts().to_dict()
        assert counted == {stage: n for stage, n in expected.items() if n}, (counted, expected)
        assert len(out) == sum(expected.values())
        extract_rows += expected["extract"]
        cases += 1
    assert cases == 60 and extract_rows > 0


def test_a_failed_extraction_is_named_by_paper_arm_extractor_and_replicate() -> None:
    tables, _ = _tables(random.Random(0))
    tables["extracts"] = pd.DataFrame({"document_id": ["P19"], "condition": ["original"], "rewriter": [None],
                                       "extractor": ["mock/reviewer"], "replicate": [0], "status": ["malformed"],
                                       "reason": ["the science core fails its checks"]})
    row = _failures(tables).query("stage == 'extract'").iloc[0]
    assert (row["item"], row["status"], row["reason"]) == ("P19 / original / mock/reviewer / rep 0", "malformed",
                                                           "the science core fails its checks")
