"""The report's worst-case attack section (issue 27 §1) on a hand-written search store
(:mod:`tests.report.attack_runs`): the numbers shown are the fixture's hand-computed ones."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from rhetorica.report.attack import HELD_OUT_NOTE, IN_SEARCH, attack_records, trajectory_figure
from rhetorica.report.render import write_report
from rhetorica.store.db import Store

from .attack_runs import HOSTILE, TRAJECTORIES, make_attack_run, variant_key
from .runs import make_run


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = make_attack_run(tmp_path_factory.mktemp("attack") / "run")
    write_report(run, n_resamples=50)
    return run


def _md_rows(text: str, first_cell: str) -> list[list[str]]:
    """The cells of the Markdown table rows starting with ``first_cell``, Markdown escapes removed."""
    return [[re.sub(r"\\(.)", r"\1", c.strip()) for c in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith(f"| {first_cell}")]


def test_each_search_shows_its_held_out_shift_beside_the_biased_in_search_numbers(report: Path) -> None:
    md = (report / "report.md").read_text("utf-8")
    section = md[md.index("## Worst-case attacks"):]
    # paper, target, direction, rounds, queries, cost, stopped, in-search outcome, rev-a's held-out original,
    # winner and shift (6-4, 5.5-5), in-search original, best and their difference (7-4.5, 6.5-5), from the
    # trajectories
    assert _md_rows(section, "p1")[0] == ["p1", "rev-a", "+", "2", "10", "0.25", "rounds", "improved on the original",
                                          "4.00", "6.00", "2.00", "4.50", "7.00", "2.50"]
    assert _md_rows(section, "p2")[0] == ["p2", "rev-a", "+", "2", "12", "0.35", "budget", "improved on the original",
                                          "5.00", "5.50", "0.50", "5.00", "6.50", "1.50"]
    assert "In-search shift (biased)" in section and HELD_OUT_NOTE in section and IN_SEARCH in section


def test_the_transfer_matrix_gives_each_reviewers_held_out_shift_of_the_targets_winners(report: Path) -> None:
    md = (report / "report.md").read_text("utf-8")
    section = md[md.index("**Transfer matrix:"):]
    # rev-a's shifts 2 and 0.5: mean 1.25, SE 0.75; rev-b's 1 and 0: mean 0.5, SE 0.5; t(0.975, 1 df) = 12.7062
    assert _md_rows(section, "rev-a")[0] == ["rev-a", "+", "1.25 [-8.28, 10.78] (n 2)", "0.50 [-5.85, 6.85] (n 2)"]
    assert "| Searched against (target)   | Direction   | Reviewed by rev-a" in section
    tex = (report / "tables" / "attack_transfer.tex").read_text("utf-8")
    assert "rev-a & + & 1.25 [-8.28, 10.78] (n 2) & 0.50 [-5.85, 6.85] (n 2)" in tex
    searches = (report / "tables" / "attack_searches.tex").read_text("utf-8")
    assert "p1 & rev-a & + & 2 & 10 & 4.00 & 6.00 & 2.00 & 4.50 & 7.00 & 2.50" in searches and "biased" in searches


def test_the_trajectory_figure_is_drawn_and_linked(report: Path) -> None:
    png = (report / "plots" / "attack_trajectory.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    md = (report / "report.md").read_text("utf-8")
    assert "(plots/attack_trajectory.png)" in md[md.index("## Worst-case attacks"):]
    html = (report / "report.html").read_text("utf-8")
    attack = html[html.index('<section id="attacks">'):].split("</section>")[0]
    assert '<figure id="figure-attack_trajectory"><img src="data:image/png;base64,' in attack


def test_the_trajectory_lines_are_the_kept_candidates_scores_per_round() -> None:
    from rhetorica.analysis.attack import trajectory_frame
    import matplotlib.pyplot as plt

    fig = trajectory_figure(trajectory_frame(list(TRAJECTORIES.values())))
    try:
        lines = {line.get_label(): list(line.get_ydata()) for line in fig.axes[0].get_lines()}
    finally:
        plt.close(fig)
    # p1 keeps a better candidate each round; p2 keeps none in round 2, so its line stays at 6.5
    assert lines == {"p1 → rev-a (+)": [4.5, 5.5, 7.0], "p2 → rev-a (+)": [5.0, 6.5, 6.5]}


def test_a_figure_without_kept_scores_says_why() -> None:
    frame = pd.DataFrame({"document": ["p"], "target": ["r"], "direction": ["+"], "round": [0], "candidate": [0],
                          "score": [None], "valid": [False], "reason": ["x"], "kept": [False]})
    with pytest.raises(ValueError, match="no kept candidate has a score"):
        trajectory_figure(frame)


def test_untrusted_trajectory_text_is_escaped_in_html(tmp_path: Path) -> None:
    run = make_attack_run(tmp_path / "run")
    store = Store.in_dir(run)
    try:  # a hostile stop reason, as a broken or malicious search might store it
        row = dict(store.rows("SELECT * FROM variants WHERE unit_key = ?", (variant_key("p2"),))[0])
        row.pop("created_at")
        store.save_variant(row, {"attack_trajectory": {**TRAJECTORIES["p2"], "stopped": HOSTILE}})
    finally:
        store.close()
    write_report(run, n_resamples=50)
    html = (run / "report.html").read_text("utf-8")
    assert HOSTILE not in html and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html


def test_a_study_without_attack_rewriters_shows_no_search(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("r", "p1", "original", 5), ("r", "p1", "confidence:+", 6)])
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    assert "Each search" not in md and "Transfer matrix" not in md and "attack_trajectory.png" not in md
    assert not (run / "plots" / "attack_trajectory.png").exists()


def test_an_attack_study_before_any_finished_search_says_so(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("r", "p1", "original", 5)],
                   study={"rewriters": [{"name": "attacker", "kind": "attack", "model": "mock/attacker",
                                         "conditions": ["attack:+"]}]})
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    section = md[md.index("## Worst-case attacks"):].split("\n## ")[0]
    assert "No search to show (no search has finished yet (no winning variant with its trajectory))." in section


def test_records_carry_the_winners_key_and_a_broken_artefact_is_named() -> None:
    artefacts = pd.DataFrame({"unit_key": ["v1", "v2"], "reviewer": ["a→r", "x"], "document_id": ["p", "p"],
                              "arm": ["attack:+", "x"], "replicate": [0, 0],
                              "name": ["attack_trajectory", "intermediate_review"],
                              "value_json": [json.dumps(TRAJECTORIES["p1"]), "{}"]})
    records = attack_records(artefacts)
    assert [(r["variant_key"], r["arm"], r["best_in_search_score"]) for r in records] == [("v1", "attack:+", 7.0)]
    with pytest.raises(ValueError, match="variant v1: its attack_trajectory artefact is not a JSON object"):
        attack_records(artefacts.assign(value_json=["[1]", "{}"]))


def test_the_search_table_of_a_study_without_searches_is_empty_whatever_its_forms() -> None:
    """A judge study mixing forms with different primary metrics has no searches: its search table
    is empty (the viewer's /attacks page answered 500 when the held-out shifts were computed anyway)."""
    from rhetorica.report.attack import search_table

    tidy = pd.DataFrame({"form": ["judge-revieweval@1", "judge-rottenreviews@1"], "metric": ["a", "b"],
                         "value": [1.0, 2.0]})
    table = search_table(tidy, [])
    assert table.empty
    assert list(table.columns) == ["document", "target", "direction", "rounds", "queries", "cost_usd", "stopped",
                                   "outcome", "held_out_original", "held_out_winner", "held_out_shift", "original_score",
                                   "best_in_search_score", "in_search_shift", "variant_key"]


def test_a_search_whose_winner_did_not_improve_says_so_in_its_row() -> None:
    """A search that kept its best candidate although none beat the original (here: every candidate
    scored above the original of an ``attack:-`` search) shows that outcome beside its numbers; a
    record stored before the outcome was kept shows none."""
    from rhetorica.attack.search import NO_IMPROVEMENT
    from rhetorica.report.attack import search_table

    tidy = pd.DataFrame([
        {"unit_key": f"u{i}", "document_id": "p", "condition": c, "rewriter": r, "reviewer": "a", "status": "ok",
         "overall": v} for i, (c, r, v) in enumerate([("original", "none", 5), ("attack:-", "x>a", 6)])])
    record = {"document": "p", "target": "a", "direction": "-", "attacker": "x", "original_score": 5.0,
              "best_in_search_score": 6.2, "queries": 6, "stopped": "rounds", "outcome": NO_IMPROVEMENT,
              "rounds": [{"round": 0}, {"round": 1}], "variant_key": "v"}
    old = {k: v for k, v in record.items() if k != "outcome"}
    table = search_table(tidy, [record, old])
    assert list(table["outcome"])[0] == "no candidate improved on the original" and pd.isna(table["outcome"][1])
    assert table[["held_out_shift", "in_search_shift"]].iloc[0].tolist() == [1.0, pytest.approx(1.2)]


def test_the_summary_gives_success_beyond_the_targets_re_review_flips(report: Path) -> None:
    """rev-a (module docstring of tests/report/attack_runs.py): p1 eligible, its winner flipped, its
    re-reviews (4, 5: mean 4.5) did not; success 1 with the exact interval [2·0.025 − 1, 1], p = 1."""
    md = (report / "report.md").read_text("utf-8")
    section = md[md.index("## Worst-case attacks"):]
    assert _md_rows(section, "rev-a")[0] == ["rev-a", "+", "2", "1/1", "0/1", "1.00 [-0.95, 1.00]", "1.00",
                                             "1.25 [-8.28, 10.78]", "2.00", "2.00", "11.00", "0.30"]
    tex = (report / "tables" / "attack.tex").read_text("utf-8")
    assert "rev-a & + & 2 & 1/1 & 0/1 & 1.00 [-0.95, 1.00] & 1.000 &" in tex
