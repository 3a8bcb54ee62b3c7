"""A comparison with no usable pair shows '–' and why, never a p-value (issue 36 item 5): five
papers, every review under ``confidence:+`` refused and paper p4's original refused too, so no
paper is scored under both: missing under the rewrite 4, under the original 0, under both 1."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.report.render import write_report

from .runs import make_run

REASON = ("reviewer R, confidence:+ vs original: no test (no paper scored under both; missing under confidence:+ 4, "
          "under original 0, under both 1)")


def _run(tmp_path: Path) -> Path:
    records = [("R", f"p{i}", arm, 6.0) for i in range(5) for arm in ("original", "confidence:+")]
    refused = {2 * i + 1: "refused" for i in range(5)} | {8: "refused"}  # every rewrite; p4's original
    return make_run(tmp_path / "run", records, status=refused)


def test_n_0_shows_a_dash_and_the_reason_in_markdown_html_and_terminal(tmp_path: Path) -> None:
    run = _run(tmp_path)
    data = write_report(run, n_resamples=20)
    row = data.comparisons.iloc[0]
    assert (row["n_pairs"], row["missing_first"], row["missing_second"], row["missing_both"]) == (0, 4, 0, 1)
    md = (run / "report.md").read_text("utf-8")
    lines = md.splitlines()
    at = next(i for i, line in enumerate(lines) if "Sign test p" in line and "Missing A" in line)
    cells = [c.strip() for c in lines[at].strip("|").split("|")]
    line = lines[at + 2]  # the comparison's one row
    values = dict(zip(cells, [c.strip() for c in line.strip("|").split("|")]))
    assert values["Papers"] == "0" and values["Sign test p"] == "–"
    assert (values["Missing A"], values["Missing B"], values["Missing both"]) == ("4", "0", "1")
    assert "No test: " + REASON in md
    html = (run / "report.html").read_text("utf-8")
    assert "No test: " + REASON in html and "1.000" not in re.sub(r"\s+", " ", html.split("Paired comparison")[1][:4000])
    out = CliRunner().invoke(app, ["report", str(run)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    flat = " ".join(out.output.split())
    assert "p –: " + REASON in flat and "1.000" not in flat
