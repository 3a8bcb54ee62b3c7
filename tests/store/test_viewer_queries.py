"""The viewer's store queries on a hand-written store: paired cells computed by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.store import viewer_queries as q
from rhetorica.store.db import Store
from rhetorica.store.plan import record_plan

from ..report.runs import make_run

# p1: original 4 and 6 (mean 5) vs 7 -> +2; p2: 6 vs 5 -> -1; p3: 5 vs 5 -> tie; p4: its rewrite's
# review was refused -> no pair.
RECORDS = [("r", "p1", "original", 4), ("r", "p1", "original", 6), ("r", "p1", "confidence:+", 7),
           ("r", "p2", "original", 6), ("r", "p2", "confidence:+", 5),
           ("r", "p3", "original", 5), ("r", "p3", "confidence:+", 5),
           ("r", "p4", "original", 3), ("r", "p4", "confidence:+", None)]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    run = make_run(tmp_path / "run", RECORDS, replicates={1: 1}, status={8: "refused"},
                   criteria={2: {"clarity": 4}, 0: {"clarity": 2}, 1: {"clarity": 3}})
    return Store.in_dir(run)


def test_headline_cell_is_the_paired_comparison_of_paper_means(store: Store) -> None:
    cells = q.headline_cells(store, q.CellFilter(metric="overall"))
    assert len(cells) == 1
    c = cells[0]
    assert (c["reviewer"], c["condition"], c["rewriter"], c["metric"], c["n_papers"]) == ("r", "confidence:+", "rw",
                                                                                          "overall", 3)
    assert c["mean_original"] == pytest.approx(16 / 3) and c["mean_variant"] == pytest.approx(17 / 3)
    assert c["mean_diff"] == pytest.approx(1 / 3)
    assert (c["variant_higher"], c["original_higher"], c["ties"]) == (1, 1, 1)


def test_every_metric_has_its_cell_and_filters_narrow(store: Store) -> None:
    cells = {c["metric"]: c for c in q.headline_cells(store)}
    assert set(cells) == {"overall", "clarity"}
    assert cells["clarity"]["n_papers"] == 1 and cells["clarity"]["mean_diff"] == pytest.approx(4 - 2.5)
    assert q.headline_cells(store, q.CellFilter(reviewer="other")) == []
    assert q.headline_cells(store, q.CellFilter(condition="confidence:-")) == []
    assert len(q.headline_cells(store, q.CellFilter(rewriter="rw", metric="overall"))) == 1


def test_reviews_of_failed_variants_are_left_out_when_asked(store: Store) -> None:
    store.insert("checks", {"unit_key": "c2", "variant_key": "v-p2-confidence:+", "document_id": "p2",
                            "condition": "confidence:+", "rewriter": "rw", "passed": 0, "reasons_json": "[]",
                            "result_json": "{}"})
    kept = q.headline_cells(store, q.CellFilter(metric="overall", exclude_failed=True))[0]
    assert (kept["n_papers"], kept["mean_diff"]) == (2, pytest.approx(1.0))  # p1 +2, p3 0
    everything = q.headline_cells(store, q.CellFilter(metric="overall", exclude_failed=False))[0]
    assert everything["n_papers"] == 3


def test_only_the_current_plan_is_read(store: Store) -> None:
    keys = [f"u{i}" for i in range(len(RECORDS)) if i != 1]  # p1's second original replicate superseded
    record_plan(store, "review", keys)
    c = q.headline_cells(store, q.CellFilter(metric="overall"))[0]
    assert c["mean_diff"] == pytest.approx((3 - 1 + 0) / 3)
    assert [a["unit_key"] for a in q.assessment_rows_of(store, "p1")] == ["u0", "u2"]


def test_cell_papers_largest_difference_first(store: Store) -> None:
    rows = q.cell_papers(store, q.CellFilter(metric="overall"))
    assert [(r["document_id"], r["original"], r["variant"], r["diff"]) for r in rows] == [
        ("p1", 5.0, 7.0, 2.0), ("p2", 6.0, 5.0, -1.0), ("p3", 5.0, 5.0, 0.0)]


def test_paper_queries(store: Store) -> None:
    rows = q.assessment_rows_of(store, "p4")
    assert [(r["condition"], r["status"], r["reason"]) for r in rows] == [
        ("original", "ok", None), ("confidence:+", "refused", "scripted failure")]
    assert q.scores_of(store, "p1", "r") == [("u0", "clarity", 2.0), ("u0", "overall", 4.0), ("u1", "clarity", 3.0),
                                             ("u1", "overall", 6.0), ("u2", "clarity", 4.0), ("u2", "overall", 7.0)]
    assert q.reviewers_of(store, "p1") == ["r"] and q.document_row(store, "nope") is None
    assert q.first_documents(store, 2) == ["p1", "p2"]
    assert q.facet_values(store) == {"condition": ["confidence:+"], "rewriter": ["rw"], "reviewer": ["r"],
                                     "form": ["review-000@1"], "metric": ["clarity", "overall"]}


def _annotation(store: Store, key: str, assessment: str, mentions: list[tuple[str, str, str]]) -> None:
    store.save_annotation({"unit_key": key, "assessment_key": assessment, "annotator": "mock/a", "taxonomy": "t",
                           "status": "ok", "n_mentions": len(mentions)}, mentions)


def test_annotations_of_an_assessment_in_stored_order_current_plan_and_limit(store: Store) -> None:
    _annotation(store, "a-old", "u0", [("novelty", "negative", "not new")])
    _annotation(store, "a-new", "u0", [("methodology", "positive", "sound"), ("presentation", "negative", "unclear")])
    _annotation(store, "a-other", "u1", [("result", "positive", "strong")])
    _annotation(store, "a-none", "u2", [])
    found = q.annotations_of(store, "u0")
    assert [a["unit_key"] for a in found] == ["a-new", "a-old"]
    assert [(m["position"], m["aspect"], m["polarity"], m["phrase"]) for m in found[0]["mentions"]] == [
        (0, "methodology", "positive", "sound"), (1, "presentation", "negative", "unclear")]
    assert q.annotations_of(store, "u2")[0]["mentions"] == [] and q.annotations_of(store, "u9") == []
    assert [len(a["mentions"]) for a in q.annotations_of(store, "u0", limit=2)] == [2]  # rows read in all
    record_plan(store, "annotate", ["a-new", "a-other"])  # the old annotation is no longer current
    assert [a["unit_key"] for a in q.annotations_of(store, "u0")] == ["a-new"]


def test_cell_filter_on_a_set_of_reviewers(tmp_path: Path) -> None:
    # judge j1: p1 5 -> 7 (+2), p2 4 -> 4; judge j2: p1 1 -> 0 (-1)
    run = make_run(tmp_path / "run", [("j1", "p1", "original", 5), ("j1", "p1", "confidence:+", 7),
                                      ("j1", "p2", "original", 4), ("j1", "p2", "confidence:+", 4),
                                      ("j2", "p1", "original", 1), ("j2", "p1", "confidence:+", 0)])
    store = Store.in_dir(run)
    try:
        cells = q.headline_cells(store, q.CellFilter(metric="overall", reviewers=("j1",)))
        assert [(c["reviewer"], c["n_papers"], c["mean_diff"]) for c in cells] == [("j1", 2, 1.0)]
        both = q.headline_cells(store, q.CellFilter(metric="overall", reviewers=("j1", "j2")))
        assert [(c["reviewer"], c["mean_diff"]) for c in both] == [("j1", 1.0), ("j2", -1.0)]
        assert q.headline_cells(store, q.CellFilter(metric="overall", reviewers=())) == []
        assert q.headline_cells(store, q.CellFilter(reviewer="j2", metric="overall", reviewers=("j1",))) == []
    finally:
        store.close()
