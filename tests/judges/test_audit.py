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
    assert "annotator A: 4 rows, faithfulness rated on 4 (mean 4.25), equivalent rated on 4 (75%)" in result.output
    assert "annotator B: 4 rows, faithfulness rated on 3 (mean 3.33), equivalent rated on 4 (75%)" in result.output
    # faithfulness pairs rated by both: (5,5) (4,2) (3,3): within one 2/3, exact 2/3; equivalent: 2 of 4 equal
    assert "A vs B: within one point 67%, exact faithfulness 67%, exact 'equivalent' 50%" in result.output


def test_summary_needs_two_annotators(tmp_path: Path) -> None:
    sheets = tmp_path / "sheets"
    CliRunner().invoke(app, ["audit", "export", str(_dataset(tmp_path)), "--out", str(sheets)])
    assert CliRunner().invoke(app, ["audit", "summary", str(sheets / "audit_A.csv")]).exit_code == 2
    with pytest.raises(ValueError):
        from rhetorica.judges.audit import write_sheets

        write_sheets([], sheets, n=1, annotators=("A",))


@pytest.mark.parametrize("names, message", [
    ("../../escaped,B", "'../../escaped': use 1-64 ASCII letters, digits, '_' or '-'"),
    ("\u00dcn\u00ef <b>,B", "'\u00dcn\u00ef <b>': use 1-64 ASCII letters"),
    ("A,A", "annotator name(s) given twice: A"),
])
def test_export_refuses_unsafe_or_repeated_annotator_names(tmp_path: Path, names: str, message: str) -> None:
    sheets = tmp_path / "sheets"
    result = CliRunner().invoke(app, ["audit", "export", str(_dataset(tmp_path)), "--out", str(sheets),
                                      "--annotators", names])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert message in result.output
    assert not sheets.exists() and not (tmp_path.parent / "escaped.csv").exists()


def test_export_to_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("keep")
    result = CliRunner().invoke(app, ["audit", "export", str(_dataset(tmp_path)), "--out", str(afile)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert f"{afile}: is a file; --out needs a folder" in result.output and afile.read_text() == "keep"


def test_summary_lists_unusable_sheets_and_counts_rated_answers(tmp_path: Path) -> None:
    sheets = tmp_path / "sheets"
    CliRunner().invoke(app, ["audit", "export", str(_dataset(tmp_path)), "--out", str(sheets), "--n", "3",
                             "--annotators", "A,B,C"])
    a, b, c = (sheets / f"audit_{x}.csv" for x in "ABC")
    _fill(a, [("5", "yes"), ("x", "yes"), ("", "")])
    _fill(b, [("4", "no"), ("4", "maybe"), ("3", "yes")])
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("id,score\n1,5\n")
    result = CliRunner().invoke(app, ["audit", "summary", str(empty), str(a)])
    assert result.exit_code == 2  # one usable sheet left: no agreement
    assert f"{empty}: no pair_id, faithfulness, equivalent column" in " ".join(result.output.split())
    result = CliRunner().invoke(app, ["audit", "summary", str(a), str(wrong), str(b)])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert f"{wrong}: no pair_id, faithfulness, equivalent column" in text
    # A: 3 rows, faithfulness 5 only (x invalid, 3rd blank), equivalent yes, yes; B: faithfulness 4, 4, 3
    # (mean 3.67), equivalent no, yes (maybe invalid) -> 50%
    assert "annotator A: 3 rows, faithfulness rated on 1 (mean 5.00), equivalent rated on 2 (100%)" in text
    assert "annotator B: 3 rows, faithfulness rated on 3 (mean 3.67), equivalent rated on 2 (50%)" in text
    header_only = tmp_path / "header.csv"
    header_only.write_text(",".join(["pair_id", "annotator", "original", "rewrite", "faithfulness", "equivalent",
                                     "comment"]) + "\n")
    result = CliRunner().invoke(app, ["audit", "summary", str(a), str(b), str(header_only)])
    assert result.exit_code == 1 and f"{header_only}: no rows; sheet skipped" in " ".join(result.output.split())
