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
