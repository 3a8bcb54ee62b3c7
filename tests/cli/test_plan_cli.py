"""``rhetorica plan`` argument checks."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()


def test_replicates_above_a_studys_cap_refused() -> None:
    result = runner.invoke(app, ["plan", "--ratio", "1.5", "--replicates", "1001", "--simulations", "0"])
    assert result.exit_code == 2
    assert "less than or equal to 1000" in " ".join(result.output.split())


@pytest.mark.parametrize("sd", ["0", "-1", "nan"])
def test_sd_rule_is_one_message(sd: str) -> None:
    result = runner.invoke(app, ["plan", "--ratio", "1.5", "--sd", sd, "--simulations", "0"])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: --sd must be a finite number > 0 (got {float(sd)})"


def test_pilot_plan_soft_and_integer(tmp_path) -> None:
    import json

    import numpy as np

    from tests.report.runs import make_run

    rng = np.random.default_rng(5)
    records, criteria, diffs = [], {}, []
    for i in range(30):
        base = rng.normal(6, 1)
        e0, e1 = base + rng.normal(0, 0.3), base + 0.1 + rng.normal(0, 0.3)
        for value in (e0, e1):
            criteria[len(records)] = {"overall.expected": float(value)}
            records.append(("r", f"p{i}", "original" if value == e0 else "confidence:+", int(np.clip(round(value), 1, 10))))
        diffs.append(e1 - e0)
    run = make_run(tmp_path / "run", records, criteria=criteria)
    result = runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.3", "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)
    assert row["reviewer"] == "r" and row["n_pairs"] == 30
    assert row["sd_soft"] == pytest.approx(np.std(diffs, ddof=1))
    assert row["papers_integer"] > row["papers_soft"] > 0
    assert row["ratio"] == pytest.approx(row["papers_integer"] / row["papers_soft"])


def test_pilot_needs_a_shift_and_ratio_is_required_without_pilot(tmp_path) -> None:
    result = runner.invoke(app, ["plan", "--pilot", str(tmp_path), "--simulations", "0"])
    assert result.exit_code == 2 and "--pilot needs --shift" in result.output
    result = runner.invoke(app, ["plan", "--simulations", "0"])
    assert result.exit_code == 2 and "--ratio is required" in result.output
    result = runner.invoke(app, ["plan", "--pilot", str(tmp_path / "none"), "--shift", "0.3"])
    assert result.exit_code == 2


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--alpha", "2", "--alpha must be in (0, 1) (got 2.0)"),
    ("--alpha", "nan", "--alpha must be in (0, 1) (got nan)"),
    ("--power", "1.5", "--power must be in (0, 1) (got 1.5)"),
])
def test_pilot_plan_checks_alpha_and_power_before_reading_the_run(tmp_path, option: str, value: str,
                                                                  message: str) -> None:
    """A bad level is named as the option, not as an internal function's arguments, and is refused
    before the pilot run is read (the folder here is not even a run)."""
    result = runner.invoke(app, ["plan", "--pilot", str(tmp_path), "--shift", "0.3", option, value])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {message}"


def test_pilot_plan_lists_every_bad_option_in_one_message(tmp_path) -> None:
    result = runner.invoke(app, ["plan", "--pilot", str(tmp_path), "--shift", "0", "--power", "0"])
    assert result.exit_code == 2
    assert result.output.strip() == ("error: --pilot needs --shift, a finite number of score points > 0 (got 0.0); "
                                     "--power must be in (0, 1) (got 0.0)")


def test_pilot_plan_for_a_named_metric(tmp_path) -> None:
    """--metric plans on that score: its SD of paired differences is the integer SD reported; a name
    the pilot does not have is one error naming it."""
    import json

    import numpy as np

    from tests.report.runs import make_run

    records, criteria, diffs = [], {}, []
    for i in range(12):
        s0, s1 = 1 + i % 4, 1 + (i * 7) % 4  # soundness of the original and of the rewrite
        for arm, s in (("original", s0), ("confidence:+", s1)):
            criteria[len(records)] = {"soundness": float(s)}
            records.append(("r", f"p{i}", arm, 5))
        diffs.append(s1 - s0)
    run = make_run(tmp_path / "run", records, criteria=criteria)
    result = runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.5", "--metric", "soundness", "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)
    assert row["n_pairs"] == 12 and row["sd_integer"] == pytest.approx(np.std(diffs, ddof=1))
    result = runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.5", "--metric", "bogus"])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: --metric 'bogus': the pilot run {run} has no score of that name"


def test_a_pilot_with_one_paper_per_pair_says_its_sd_is_not_estimable(tmp_path) -> None:
    """One paper, two compared pairs: each pair's one difference is its own mean, so no SD is left
    (before: 'SD d (integer) 0.000')."""
    import json

    from tests.report.runs import make_run

    records = [("r", "p0", "original", 5), ("r", "p0", "confidence:+", 6), ("r", "p0", "proficiency:+", 8)]
    run = make_run(tmp_path / "run", records)
    result = runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.5"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("│ r "))
    assert [c.strip() for c in row.split("│")[1:-1]] == ["r", "2", "not estimable", "not estimable", "n/a", "n/a",
                                                        "n/a"]
    assert "0.000" not in result.output
    assert ("r: the SD of paired differences is not estimable: each of its 2 difference(s) is the only paper of its "
            "compared pair, and each pair's own mean is removed; a pilot needs at least 2 papers in a compared "
            "pair") in " ".join(result.output.split())
    (data,) = json.loads(runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.5", "--json"]).output)
    assert (data["n_pairs"], data["df_integer"], data["sd_integer"], data["papers_integer"]) == (2, 0, None, None)


def test_ratio_with_a_pilot_is_refused_not_ignored(tmp_path) -> None:
    result = runner.invoke(app, ["plan", "--pilot", str(tmp_path), "--shift", "0.3", "--ratio", "1.5"])
    assert result.exit_code == 2
    assert " ".join(result.output.split()) == ("error: --ratio (1.5) does not apply with --pilot, which plans for a "
                                               "mean shift: give --shift (points), or drop --pilot to plan for a "
                                               "preference ratio")


def _pilot_rows(tmp_path, diffs: list[int], soft: bool):  # noqa: ANN202 - a run directory
    from tests.report.runs import make_run

    records, criteria = [], {}
    for i, d in enumerate(diffs):
        for arm, value in (("original", 5), ("confidence:+", 5 + d)):
            if soft:
                criteria[len(records)] = {"overall.expected": float(value)}
            records.append(("r", f"p{i}", arm, value))
    return make_run(tmp_path / "run", records, criteria=criteria)


def test_pilot_without_soft_ratings_says_why_soft_is_na(tmp_path) -> None:
    """Integer scores only: differences 1, 2, 0, 1, 3, 1 (SD 1.033) give a sign-test size; the soft
    and ratio cells are n/a, and the note says the pilot has no soft ratings."""
    import json

    run = _pilot_rows(tmp_path, [1, 2, 0, 1, 3, 1], soft=False)
    result = runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.5"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("│ r "))
    cells = [c.strip() for c in row.split("│")[1:-1]]
    assert cells[:4] == ["r", "6", "1.033", "n/a"] and cells[4].isdigit() and cells[5:] == ["n/a", "n/a"]
    assert ("r: n/a where not computable: Wilcoxon (soft scores): the pilot has no soft ratings (expected "
            "scores) of this score") in " ".join(result.output.split())
    (data,) = json.loads(runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.5", "--json"]).output)
    assert data["papers_soft"] is None and data["why"].startswith("Wilcoxon (soft scores): the pilot has no soft")


def test_pilot_with_equal_differences_says_sd_is_zero(tmp_path) -> None:
    """Every paper moves by exactly 1: SD 0 on both scales, so neither test has a size, and says so."""
    run = _pilot_rows(tmp_path, [1, 1, 1, 1], soft=True)
    result = runner.invoke(app, ["plan", "--pilot", str(run), "--shift", "0.5"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert ("r: n/a where not computable: sign test (integer scores): every paired difference equals its pair's "
            "mean (SD 0), so no sample size follows; Wilcoxon (soft scores): every paired difference equals its "
            "pair's mean (SD 0), so no sample size follows") in text


def test_ratio_plan_says_why_power_is_na() -> None:
    skipped = runner.invoke(app, ["plan", "--ratio", "1.5", "--simulations", "0"], env={"COLUMNS": "200"})
    assert skipped.exit_code == 0 and "n/a: not simulated (--simulations 0)" in skipped.output
    huge = runner.invoke(app, ["plan", "--ratio", "1.01", "--simulations", "0"], env={"COLUMNS": "200"})
    assert huge.exit_code == 0 and "> 5000" in huge.output
    assert "n/a: more than 5000 papers needed" in huge.output
