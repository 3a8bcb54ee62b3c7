"""Scorecard thresholds as the ``scorecard`` section of a study YAML."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from rhetorica.study.config import ConfigError, parse_study

from ..study.helpers import study_dict


def test_study_yaml_sets_scorecard_thresholds(tmp_path: Path, shared_data: Path) -> None:
    config = parse_study(study_dict(shared_data, tmp_path, scorecard={"max_flip_pct": 20, "alpha": 0.05}))
    assert config.scorecard.max_flip_pct == 20.0 and config.scorecard.alpha == 0.05
    assert config.scorecard.max_abs_log_ratio == pytest.approx(math.log(1.5))
    assert config.scorecard.threshold is None  # falls back to the study's decision_threshold


def test_scorecard_typo_and_range_name_the_key(tmp_path: Path, shared_data: Path) -> None:
    with pytest.raises(ConfigError) as info:
        parse_study(study_dict(shared_data, tmp_path, scorecard={"max_flip": 20, "min_discriminability": 1.5}))
    message = str(info.value)
    assert "scorecard.max_flip: unknown key" in message
    assert "scorecard.min_discriminability" in message


def test_scorecard_thresholds_module_imports_no_numeric_stack() -> None:
    # The study configuration reads the thresholds from rhetorica.scorecard_thresholds; the scorecard
    # itself (report/analysis) now imports its statistics at module level (issue 25: no hidden imports).
    code = ("import sys, rhetorica.scorecard_thresholds; "
            "print(sorted(m for m in ('numpy', 'pandas', 'rhetorica.analysis.paired') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
