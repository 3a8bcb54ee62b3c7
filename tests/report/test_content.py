"""Report content on hand-built studies whose every number is computed by hand in the comments."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from rhetorica.report.render import write_report

from .runs import make_run

# Paper-level overall scores of reviewer R (one replicate each):
#   original:     p1 4, p2 5, p3 6, p4 7
#   confidence:+  p1 5, p2 6, p3 7, p4 6
# d = A - B = +1, +1, +1, -1 -> A higher 3/4 = 75 %, B higher 25 %, ties 0 %, ratio 3.00,
# sign test 2 * P(X <= 1 | n=4) = 2 * 5/16 = 0.625; flips at 4.5: p1 is accepted as A (5) and
# rejected as B (4) -> 25 % one way, 0 % the other; means 6.00 and 5.50.
# Mixed model (paper random intercept, one score per paper and arm = a paired design): the arm
# effect is mean(d) = 0.50; REML gives residual variance var(d)/2 = 0.5 (var(d) = 1), so
# SE = sqrt(2 * 0.5 / 4) = 0.5, z = 1 and the Wald p = 2 * (1 - Phi(1)) = 0.3173 -> 0.32.
ORIGINAL = {"p1": 4, "p2": 5, "p3": 6, "p4": 7}
REWRITE = {"p1": 5, "p2": 6, "p3": 7, "p4": 6}
# soundness: original 2, 2, 3, 3; rewrite 3, 3, 3, 2 -> A higher 2/4, B 1/4, tie 1/4, ratio 2.00,
# p = 2 * P(X <= 1 | n=3) = 1.000; means 2.75 and 2.50.
SOUND_ORIGINAL = {"p1": 2, "p2": 2, "p3": 3, "p4": 3}
SOUND_REWRITE = {"p1": 3, "p2": 3, "p3": 3, "p4": 2}
# human means 3, 5, 6, 8: |4-3| + 0 + 0 + |7-8| -> MAE 0.50; ranks agree -> Spearman 1.00.
HUMAN = {"p1": 3.0, "p2": 5.0, "p3": 6.0, "p4": 8.0}


def _records() -> tuple[list[tuple[str, str, str, float | None]], dict[int, dict[str, float]]]:
    records, criteria = [], {}
    for arm, overall, sound in (("original", ORIGINAL, SOUND_ORIGINAL), ("confidence:+", REWRITE, SOUND_REWRITE)):
        for doc in overall:
            criteria[len(records)] = {"soundness": sound[doc]}
            records.append(("R", doc, arm, overall[doc]))
    return records, criteria


def md_text(cell: str) -> str:
    """What a Markdown renderer shows for a cell: a whole-cell code span's text as written (a
    table's ``\\|`` a pipe), else escaped inline text (backslash escapes, entities)."""
    code = re.fullmatch(r"(`+) ?(.*?) ?\1", cell)
    if code:
        return code.group(2).replace("\\|", "|")
    return html.unescape(re.sub(r"\\([\\`*_\[\]|<>&])", r"\1", cell))


def md_table(markdown: str, heading: str, index: int = 0) -> list[list[str]]:
    """Cells of the ``index``-th table under ``## heading`` (header row included), unescaped."""
    part = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"((?:^\|.*\|$\n?)+)", part, flags=re.M)
    lines = [line for line in blocks[index].strip().splitlines() if not re.match(r"^\|[-| ]+\|$", line)]
    return [[md_text(c.strip()) for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]


@pytest.fixture(scope="module")
def hand_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    records, criteria = _records()
    run = make_run(tmp_path_factory.mktemp("hand") / "run", records, criteria=criteria, human=HUMAN)
    write_report(run, n_resamples=200)
    return run, (run / "report.md").read_text("utf-8")


def test_table4_row_is_the_hand_computation(hand_run: tuple[Path, str]) -> None:
    _, md = hand_run
    rows = md_table(md, "Paired comparison of conditions (overall score)")
    assert rows[0][:4] == ["Reviewer", "A", "B", "Papers"]
    assert rows[1:] == [["R", "confidence:+", "original", "4", "75.00", "25.00", "0.00", "3.00", "0.625",
                         "0.50", "0.32", "25.00", "0.00", "6.00", "5.50", "0", "0", "0"]]  # missing A, B, both


def test_criterion_ratio_and_magnitude(hand_run: tuple[Path, str]) -> None:
    _, md = hand_run
    assert md_table(md, "Per-criterion preference ratios")[1:] == [
        ["R", "soundness", "confidence:+", "original", "4", "50.00", "25.00", "25.00", "2.00", "1.000", "2.75",
         "2.50"]]
    # d = 1, 1, 1, -1: mean 0.50, mean |d| 1.00, all within 1 point, none >= 2
    assert md_table(md, "Magnitude of paired differences")[1:] == [
        ["R", "confidence:+", "original", "4", "0.50", "1.00", "1.00", "0.00"]]


def test_change_with_one_paper_per_stratum_has_no_interval(hand_run: tuple[Path, str]) -> None:
    _, md = hand_run
    # Each human stratum holds one paper, so every stratified resample would equal the sample: no stratum
    # holds two papers to resample (analysis.bootstrap.resamplable), so no interval is shown.
    # Weak accept (>= 6): rewrite 0,1,1,1 -> 0.75; original 0,0,1,1 -> 0.50.
    assert md_table(md, "Change versus the original")[1] == [
        "R", "confidence:+", "original", "4", "4", "0.50 [no interval]", "1.00 [no interval]", "0.75", "0.50",
        "0.25 [no interval]"]


def test_robustness_with_human_alignment(hand_run: tuple[Path, str]) -> None:
    _, md = hand_run
    header, row = md_table(md, "Rhetorical robustness")
    cells = dict(zip(header, row, strict=True))
    # drifts 1, 1, 1, -1: MAD 1.00, SD (ddof 1) 1.00. Discriminability over rewrites 5, 6, 7, 6 of
    # papers ordered 4 < 5 < 6 < 7: pairs (1,2) 1, (1,3) 1, (1,4) 1, (2,3) 1, (2,4) 1/2, (3,4) 0 -> 4.5/6.
    assert cells["MAD ↓"] == "1.00" and cells["Drift SD ↓"] == "1.00"
    assert cells["Discriminability ↑"] == "0.75"
    assert cells["Human MAE ↓"] == "0.50" and cells["Spearman ↑"] == "1.00"
    assert cells["Papers with human scores"] == "4" and cells["False robustness"] == "no"


def test_scorecard_undecided_with_reasons_near_the_top(hand_run: tuple[Path, str]) -> None:
    _, md = hand_run
    assert md.index("## Scorecard") < md.index("## Paired comparison")
    header, row = md_table(md, "Scorecard per reviewer configuration")
    cells = dict(zip(header, row, strict=True))
    # Four papers decide nothing. |ln R| = ln 3 = 1.10; 95% Clopper-Pearson interval of p for 3 of 4 is
    # [Beta(.025; 3, 2), Beta(.975; 4, 1)] = [0.1941, 0.99369] -> ln R in [-1.42, 5.06] -> |ln R| in [0, 5.06].
    # Flips 1 of 4 = 25%: [Beta(.025; 1, 4), Beta(.975; 2, 3)] = [0.6%, 80.6%]. No failure in 4 and 4
    # reviews: Newcombe's interval of the difference is +-(Wilson upper of 0/4) = +-1.96^2 / (4 + 1.96^2)
    # = +-49.0 points. Discriminability 0.75 from 4 papers, fewer than the 10 the bootstrap needs.
    assert cells["Verdict"] == "not enough data"
    assert cells["Preference |ln R|"] == "not enough data (1.10 [0.00, 5.06]), confidence:+ vs original"
    assert cells["Flips (%)"] == "not enough data (25.0 [0.6, 80.6])"
    assert cells["Discriminability"].startswith("not enough data (0.75 [")
    assert cells["Failure-rate gap (pts)"] == "not enough data (0.0 [0.0, 49.0])"
    assert cells["Reasons"] == (
        "|ln preference ratio| 1.10, 95% interval [0.00, 5.06] (confidence:+ vs original; 3 vs 1 untied papers) "
        "straddles 0.41: not enough data; decision flips (%) 25.0, 95% interval [0.6, 80.6] (confidence:+ vs "
        "original; 1 of 4 papers) straddles 10%: not enough data; discriminability 0.75 from 4 papers: not "
        "enough data (the bootstrap decides from 10 papers); failure-rate gap (points) 0.0, 95% interval "
        "[0.0, 49.0] (confidence:+ vs original; 0/4 vs 0/4 reviews failed) straddles 5: not enough data")


def test_sections_that_do_not_apply_are_left_out(hand_run: tuple[Path, str]) -> None:
    _, md = hand_run
    assert "Reviewer variance" not in md  # one replicate
    assert "Table 5" not in md  # no 2x2 compound arms
    assert "## Validation" not in md  # validation disabled in this study


def test_files_plots_and_latex(hand_run: tuple[Path, str]) -> None:
    run, md = hand_run
    for name in ("flow", "preference", "differences", "forest", "stability"):
        png = (run / "plots" / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and f"](plots/{name}.png)" in md
    html = (run / "report.html").read_text("utf-8")
    assert html.count('src="data:image/png;base64,') == 5
    assert not re.search(r"""(src|href)=["']?(https?:|//|plots/)""", html)
    tex = (run / "tables" / "comparison.tex").read_text("utf-8")
    assert r"\toprule" in tex and r"\bottomrule" in tex
    assert (r"confidence:+ vs original & R & 4 & 75.0 & 25.0 & 0.0 & 3.00 & 0.625 & 25.0 & 0.0 & 6.00 & 5.50 \\"
            in tex)
    for name in ("scorecard", "criteria", "magnitude", "change", "robustness"):
        assert r"\begin{tabular}" in (run / "tables" / f"{name}.tex").read_text("utf-8")
    assert not (run / "tables" / "pooled_sd.tex").exists()


def test_scorecard_thresholds_come_from_the_study(tmp_path: Path) -> None:
    records, _ = _records()
    # Bounds wider than every interval of test_scorecard_undecided_with_reasons_near_the_top: |ln R| <= 5.06,
    # flips <= 80.6%, failure gap <= 49.0 points, discriminability >= 0 from 4 papers on: all pass.
    study = {"scorecard": {"max_abs_log_ratio": 5.1, "max_flip_pct": 81.0, "min_discriminability": 0.0,
                           "max_failure_gap_pct": 49.1, "min_papers": 4}}
    run = make_run(tmp_path / "run", records, study=study)
    data = write_report(run, n_resamples=50)
    assert data.thresholds.max_abs_log_ratio == 5.1 and data.thresholds.min_papers == 4
    assert bool(data.scorecard.iloc[0]["passed"]) and data.scorecard.iloc[0]["verdict"] == "pass"
    header, row = md_table((run / "report.md").read_text("utf-8"), "Scorecard per reviewer configuration")
    assert dict(zip(header, row, strict=True))["Verdict"] == "pass"


def test_pooled_sd_shown_with_replicates(tmp_path: Path) -> None:
    # original p1 twice (4, 6) and p2 twice (5, 5): pooled variance (2 + 0) / (4 - 2) = 1 -> SD 1.00
    records = [("R", "p1", "original", 4), ("R", "p1", "original", 6), ("R", "p2", "original", 5),
               ("R", "p2", "original", 5), ("R", "p1", "confidence:+", 5), ("R", "p2", "confidence:+", 5)]
    run = make_run(tmp_path / "run", records, replicates={1: 1, 3: 1}, study={"replicates": 2})
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    assert md_table(md, "Reviewer variance (pooled SD of replicates)")[1:] == [["R", "2", "4", "1.00"]]
    assert r"R & 2 & 4 & 1.00 \\" in (run / "tables" / "pooled_sd.tex").read_text("utf-8")


def test_conditional_table_for_compound_arms(tmp_path: Path) -> None:
    # given confidence:+, proficiency:+ scores p1 6, p2 7 and proficiency:- p1 5, p2 7:
    # A higher on p1, tie on p2 -> 50 / 0 / 50, ratio inf, p = 1; means 6.50 and 6.00.
    scores = {"confidence:+|proficiency:+": (6, 7), "confidence:+|proficiency:-": (5, 7),
              "confidence:-|proficiency:+": (5, 6), "confidence:-|proficiency:-": (5, 6), "original": (5, 6)}
    records = [("R", doc, arm, s[i]) for arm, s in scores.items() for i, doc in enumerate(("p1", "p2"))]
    run = make_run(tmp_path / "run", records)
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    rows = md_table(md, "Conditional comparison given the other dimension (Table 5)")
    assert rows[0][:4] == ["Reviewer", "Given", "A", "B"]
    assert ["R", "confidence:+", "proficiency:+", "proficiency:-", "2", "50.00", "0.00", "50.00", "∞",
            "1.000", "0.00", "0.00", "6.50", "6.00", "0", "0", "0"] in rows
    assert (run / "tables" / "conditional.tex").exists()
