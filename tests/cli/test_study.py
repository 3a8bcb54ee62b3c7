"""``rhetorica run``/``report``'s console headline (:mod:`rhetorica.cli.study`)."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app


def test_a_judge_study_prints_its_judges_classifications_not_an_empty_comparison_table(tmp_path: Path) -> None:
    """A judge study has no paired comparison of papers: the console printed that table empty; it
    now prints Table 1's classifications counted per condition and judge."""
    from tests.report.judge_runs import run_judge_study

    run = run_judge_study(tmp_path)
    result = CliRunner().invoke(app, ["report", str(run)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Paired comparison" not in result.output
    assert "Review-quality judges: metrics per classification" in " ".join(result.output.split())
    shown = {tuple(c.strip() for c in line.split("│")[1:-1])[:2]: [c.strip() for c in line.split("│")[1:-1]][2:]
             for line in result.output.splitlines() if line.startswith("│ ")}
    header = next(line for line in result.output.splitlines() if "Condition" in line)
    columns = [c.strip() for c in header.split("┃")[1:-1]][3:]
    with (run / "tables" / "judges.csv").open(encoding="utf-8") as handle:
        table1 = list(csv.DictReader(handle))
    expected = {}
    for (condition, judge), counts in Counter((r["condition"], r["judge"]) for r in table1).items():
        classes = Counter(r["classification"] for r in table1 if (r["condition"], r["judge"]) == (condition, judge))
        expected[(condition, judge)] = [str(counts)] + [str(classes[c.replace(" ", "_")]) for c in columns]
    assert shown == expected
    # by hand from the judge's answers: a paraphrase moves criticism by 0.2 (bound 0.1), overall quality by
    # 10 (bound 10: TOST cannot reject at the bound) and vague from no to yes: 3 non-zero differences, whose
    # smallest Wilcoxon p 2 / 2^3 never reaches the Bonferroni level; every other metric is one score level
    # throughout or d = 0 on 3 pairs (too few for the sign test): every metric not informative (issue 36)
    paraphrase = dict(zip(["Metrics", *columns], next(v for k, v in shown.items() if k[0] == "paraphrase")))
    assert columns == ["not informative"] and paraphrase["not informative"] == paraphrase["Metrics"] == "16"
