"""Human audit: sheets exported from imported pairs, filled, summarised (values by hand)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rhetorica.cli.app import app


def _dataset(tmp_path: Path) -> Path:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps({"paper_id": f"p{i // 2}", "review_id": f"r{i}", "original": f"Original {i}.",
                                           "rewrite": f"Rewrite {i}."}) for i in range(6)))
    out = tmp_path / "ds"
    assert CliRunner().invoke(app, ["dataset", "import", str(pairs), "--out", str(out), "--layout", "pairs"]).exit_code == 0
    return out


def _fill(path: Path, answers: list[tuple[str, str]]) -> None:
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for row, (faith, equiv) in zip(rows, answers, strict=True):
        row["faithfulness"], row["equivalent"] = faith, equiv
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_export_fill_summarise(tmp_path: Path) -> None:
    sheets = tmp_path / "sheets"
    result = CliRunner().invoke(app, ["audit", "export", str(_dataset(tmp_path)), "--out", str(sheets), "--n", "4"])
    assert result.exit_code == 0, result.output
    a, b = sheets / "audit_A.csv", sheets / "audit_B.csv"
    rows_a = list(csv.DictReader(a.open(encoding="utf-8")))
    assert len(rows_a) == 4 and [r["pair_id"] for r in rows_a] == [r["pair_id"] for r in csv.DictReader(b.open())]
    assert rows_a[0]["original"].endswith(".\n") and rows_a[0]["rewrite"].startswith("# Review")
    _fill(a, [("5", "yes"), ("4", "yes"), ("3", "no"), ("5", "yes")])
    _fill(b, [("5", "yes"), ("2", "yes"), ("3", "yes"), ("maybe", "no")])
    result = CliRunner().invoke(app, ["audit", "summary", str(a), str(b)])
    assert result.exit_code == 1  # 'maybe' is a listed problem, counted as missing
    assert "audit_B.csv:5: faithfulness 'maybe' is not one of 1-5" in result.output
    # A: mean (5+4+3+5)/4 = 4.25, 75% equivalent; B: mean (5+2+3)/3 = 3.33, 75% equivalent
    assert "annotator A: 4 pairs, mean faithfulness 4.25, equivalent 75%" in result.output
    assert "annotator B: 4 pairs, mean faithfulness 3.33, equivalent 75%" in result.output
    # faithfulness pairs rated by both: (5,5) (4,2) (3,3): within one 2/3, exact 2/3; equivalent: 2 of 4 equal
    assert "A vs B: within one point 67%, exact faithfulness 67%, exact 'equivalent' 50%" in result.output


def test_summary_needs_two_annotators(tmp_path: Path) -> None:
    sheets = tmp_path / "sheets"
    CliRunner().invoke(app, ["audit", "export", str(_dataset(tmp_path)), "--out", str(sheets)])
    assert CliRunner().invoke(app, ["audit", "summary", str(sheets / "audit_A.csv")]).exit_code == 2
    with pytest.raises(ValueError):
        from rhetorica.judges.audit import write_sheets

        write_sheets([], sheets, n=1, annotators=("A",))
