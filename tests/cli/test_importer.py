"""``rhetorica import diagnostics`` writes a run directory; ``rhetorica report`` reads it like any other."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def pair(tmp_path: Path, last_perturbed: object = 6) -> tuple[Path, Path]:
    base = write(tmp_path / "baseline.jsonl", [
        {"id": "p1", "overall_score": "6: marginally above the acceptance threshold", "soundness_score": "3 good"},
        {"id": "p2", "overall_score": "Score: 7", "soundness_score": 3},
        {"id": "p3", "overall_score": "10: top 5% of accepted papers", "soundness_score": 4},
        {"id": "p4", "overall_score": "3: reject, not good enough", "soundness_score": 2},
    ])
    pert = write(tmp_path / "perturbed.jsonl", [
        {"id": "p1", "overall_score": "4: possibly reject", "soundness_score": "2 fair"},
        {"id": "p2", "overall_score": "Score: 8", "soundness_score": 3},
        {"id": "p3", "overall_score": "8: accept, good paper", "soundness_score": 4},
        {"id": "p4", "overall_score": last_perturbed, "soundness_score": 2},
    ])
    return base, pert


def test_import_then_report(tmp_path: Path) -> None:
    base, pert = pair(tmp_path)
    run_dir = tmp_path / "run"
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(run_dir),
                                 "--condition", "soundness:-", "--reviewer", "sys"])
    assert result.exit_code == 0, result.output
    assert "Imported 8 assessments" in result.output and "problem" not in result.output
    assert {p.name for p in run_dir.iterdir()} >= {"store.sqlite", "study.json", "tables"}
    table = pd.read_csv(run_dir / "tables" / "assessments.csv")
    got = {(r.arm, r.document_id): (r.status, r.overall, r.soundness) for r in table.itertuples()}
    assert got == {
        ("original", "p1"): ("ok", 6.0, 3.0), ("original", "p2"): ("ok", 7.0, 3.0),
        ("original", "p3"): ("ok", 10.0, 4.0), ("original", "p4"): ("ok", 3.0, 2.0),
        ("soundness:-", "p1"): ("ok", 4.0, 2.0), ("soundness:-", "p2"): ("ok", 8.0, 3.0),
        ("soundness:-", "p3"): ("ok", 8.0, 4.0), ("soundness:-", "p4"): ("ok", 6.0, 2.0),
    }

    report = runner.invoke(app, ["report", str(run_dir)])
    assert report.exit_code == 0, report.output
    md = (run_dir / "report.md").read_text("utf-8")
    # soundness:- vs original, papers p1..p4: -2, +1, -2, +3 -> A higher on 2 of 4, B on 2: ratio 1;
    # flips at 4.5: p1 accepted -> rejected (B accepted only), p4 rejected -> accepted (A only);
    # mixed model (one score per paper and arm): arm effect = mean(d) = 0 -> 0.00, Wald z = 0 -> p 1.00
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in md.splitlines()
            if line.startswith("| sys ")]
    cells = next(r for r in rows if r[1:3] == ["soundness:-", "original"])
    assert cells[:15] == ["sys", "soundness:-", "original", "4", "50.00", "50.00", "0.00", "1.00", "1.000",
                          "0.00", "1.00", "25.00", "25.00", "6.50", "6.50"]
    assert (run_dir / "report.html").exists()


def test_import_with_unreadable_scores_lists_them_and_exits_1(tmp_path: Path) -> None:
    base, pert = pair(tmp_path, last_perturbed="weak accept (6)")
    run_dir = tmp_path / "run"
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(run_dir)])
    assert result.exit_code == 1
    assert f"problem {pert} id 'p4': overall_score: 'weak accept (6)' does not start with a score" in (
        " ".join(result.output.split()))
    report = runner.invoke(app, ["report", str(run_dir)])
    assert report.exit_code == 0, report.output
    md = (run_dir / "report.md").read_text("utf-8")
    failures = md[md.index("## Failures"):]
    assert "p4 / perturbed / external / rep 0" in failures
    assert "overall_score: 'weak accept (6)' does not start with a score" in failures  # verbatim, in a code span


def test_import_refuses_a_used_run_dir_and_bad_map(tmp_path: Path) -> None:
    base, pert = pair(tmp_path)
    used = tmp_path / "used"
    used.mkdir()
    (used / "store.sqlite").write_bytes(b"")
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(used)])
    assert result.exit_code == 2
    assert "not an empty directory; import into a new run directory" in " ".join(result.output.split())
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(tmp_path / "r"),
                                 "--map", "overall_score"])
    assert result.exit_code == 2 and "expected FIELD=SCORE" in result.output
    result = runner.invoke(app, ["import", "diagnostics", str(tmp_path / "nope.jsonl"), str(pert),
                                 "--out", str(tmp_path / "r2")])
    assert result.exit_code == 2 and "nope.jsonl: cannot read diagnostics file" in " ".join(result.output.split())


def test_empty_files_give_one_error_and_write_nothing(tmp_path: Path) -> None:
    base, pert = write(tmp_path / "b.jsonl", []), write(tmp_path / "p.jsonl", [])
    run_dir = tmp_path / "run"
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(run_dir)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "b.jsonl: no usable row" in " ".join(result.output.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.jsonl", "p.jsonl"]  # no run dir, no staging dir
    base, pert = pair(tmp_path)
    assert runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(run_dir)]).exit_code == 0


def test_unpaired_ids_are_listed(tmp_path: Path) -> None:
    base = write(tmp_path / "b.jsonl", [{"id": "x", "overall_score": 6, "soundness_score": 3},
                                        {"id": "y", "overall_score": 4, "soundness_score": 2}])
    pert = write(tmp_path / "p.jsonl", [{"id": "x", "overall_score": 5, "soundness_score": 3},
                                        {"id": "z", "overall_score": 7, "soundness_score": 3}])
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(tmp_path / "run")])
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert f"problem {base} id 'y': unpaired: no row with this id in {pert}" in text
    assert f"problem {pert} id 'z': unpaired: no row with this id in {base}" in text
    disjoint = write(tmp_path / "d.jsonl", [{"id": "q", "overall_score": 5, "soundness_score": 3}])
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(disjoint), "--out", str(tmp_path / "r2")])
    assert result.exit_code == 2 and "no id is in both" in " ".join(result.output.split())
    assert not (tmp_path / "r2").exists()


def test_decision_threshold_bounds(tmp_path: Path) -> None:
    base, pert = pair(tmp_path)
    for bad in ("nan", "1e9", "0.5", "inf"):
        run_dir = tmp_path / f"run-{bad}"
        result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(run_dir),
                                     "--decision-threshold", bad])
        assert result.exit_code == 2, (bad, result.output)
        assert "expected a number from 1 to 10" in " ".join(result.output.split()) and not run_dir.exists()
    run_dir = tmp_path / "run-10"
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(run_dir),
                                 "--decision-threshold", "10"])
    assert result.exit_code == 0 and json.loads((run_dir / "study.json").read_text())["decision_threshold"] == 10


def test_messages_quote_paths_and_name_the_problem(tmp_path: Path) -> None:
    base, pert = pair(tmp_path)
    spaced = tmp_path / "run one"
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(spaced)])
    assert result.exit_code == 0
    assert f"Report: rhetorica report '{spaced}'\n" in result.output
    afile = tmp_path / "afile"
    afile.write_text("x")
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(afile)])
    assert result.exit_code == 2 and f"{afile}: is a file" in " ".join(result.output.split())
    result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(tmp_path / "r"),
                                 "--map", "overall_score=foo"])
    assert result.exit_code == 2 and "field_map maps to foo: not a rhetorica score" in " ".join(result.output.split())


def test_blank_condition_or_reviewer_is_refused_naming_it(tmp_path: Path) -> None:
    """Generated: 5 blank labels x {--condition, --reviewer}: exit 2, one error naming the option's label,
    nothing written; a label with text around spaces is kept."""
    base, pert = pair(tmp_path)
    refused = 0
    for option in ("--condition", "--reviewer"):
        for k, blank in enumerate(("", " ", "\t", "   ", " \t ")):
            out = tmp_path / f"run{option}{k}"
            result = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(out), option, blank])
            name = option.removeprefix("--")
            assert result.exit_code == 2, (option, blank, result.output)
            assert f"error: {name} {blank!r}: empty; the imported {name} needs a label" in result.output
            assert not out.exists()
            refused += 1
    assert refused == 10
    kept = runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(tmp_path / "ok"),
                               "--condition", " soundness:- "])
    assert kept.exit_code in (0, 1), kept.output


def test_a_file_that_is_not_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    """Generated: a 6-line baseline or perturbed file with one Latin-1 byte on line 1..6: exit 2, the
    error names the file and that line; nothing written (12 cases)."""
    base, pert = pair(tmp_path)
    cases = 0
    for which in ("baseline", "perturbed"):
        source = (base if which == "baseline" else pert).read_text(encoding="utf-8").splitlines()
        source += ['{"id": "p5", "overall_score": 5}', '{"id": "p6", "overall_score": 6}']
        for bad_line in range(1, 7):
            lines = [line.encode("utf-8") for line in source]
            lines[bad_line - 1] = lines[bad_line - 1][:-1] + b', "note": "caf\xe9"}'
            path = tmp_path / f"{which}{bad_line}.jsonl"
            path.write_bytes(b"\n".join(lines) + b"\n")
            args = [str(path), str(pert)] if which == "baseline" else [str(base), str(path)]
            out = tmp_path / f"out_{which}{bad_line}"
            result = runner.invoke(app, ["import", "diagnostics", *args, "--out", str(out)])
            assert result.exit_code == 2, result.output
            assert f"{path}: line {bad_line}: not UTF-8 text (byte 0xe9 at offset " in result.output.replace("\n", "")
            assert not out.exists()
            cases += 1
    assert cases == 12


def test_imported_documents_are_the_flow_input(tmp_path: Path) -> None:
    """The input row counts the imported ids (4 papers), not 0: the import stores a stand-in document per id."""
    base, pert = pair(tmp_path)
    run_dir = tmp_path / "run"
    assert runner.invoke(app, ["import", "diagnostics", str(base), str(pert), "--out", str(run_dir)]).exit_code == 0
    assert runner.invoke(app, ["report", str(run_dir)]).exit_code == 0
    flow = pd.read_csv(run_dir / "tables" / "flow.csv")
    row = flow[flow["stage"] == "input"].iloc[0]
    assert (row["planned"], row["produced"], row["analysed"]) == (4, 4, 4)
    ids = pd.read_csv(run_dir / "tables" / "ids.csv")
    assert ids["document_id"].tolist() == ["p1", "p2", "p3", "p4"] and {Path(s).name for s in ids["source"]} == {"baseline.jsonl"}
