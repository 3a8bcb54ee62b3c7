"""The registered ``attack`` table in a report built from a finished attack study's store."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rhetorica.analysis.attack import attack_summary
from rhetorica.attack.table import ATTACK_TABLE
from rhetorica.report.build import collect
from rhetorica.report.sections import registered_sections
from tests.attack.test_kind import models, runner_for, stored
from tests.attack.test_stage import kill_spec
from tests.study.helpers import save_run_study


def test_the_report_shows_the_attack_table_first_in_the_attacks_section(shared_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    runner = runner_for(kill_spec(shared_data, out), out, models())
    asyncio.run(runner.run())
    runner.store.close()
    save_run_study(runner.config, out)  # what `rhetorica run` saves and the report reads
    records, _, tidy, _ = stored(out)
    data = collect(out, n_resamples=200)
    table = data.analysis["attack"]
    expected = attack_summary(tidy, records, 4.5)  # the study's default decision threshold
    assert list(table["target"]) == ["phrase"] and table["n_searches"].tolist() == [3]
    assert table.equals(expected)
    attacks = next(s for s in registered_sections(data.analysis, data.unavailable) if s.key == ATTACK_TABLE.section)
    assert attacks.title == ATTACK_TABLE.title  # its own section, which the search tables join (report.attack)
    assert attacks.tables[0].headers[:3] == ["Target", "Direction", "Papers (held-out)"]
    assert "attack" not in {s.key for s in registered_sections(data.analysis, data.unavailable)}
