"""``study_status`` walks the unit graph: checks not made yet are assumed to pass."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rhetorica.study.config import load_study
from rhetorica.study.estimate import estimate_study
from rhetorica.study.runner import StudyRunner
from rhetorica.study.status import study_status
from tests.study.helpers import study_dict, write_study

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def test_reviews_of_unchecked_variants_are_current_not_superseded(tmp_path):
    spec = study_dict(DATA, tmp_path / "run", replicates=1)
    spec["documents"] = spec["documents"][:1]
    study = write_study(tmp_path / "study.yaml", spec)
    config, base = load_study(study)
    runner = StudyRunner(config, base)
    asyncio.run(runner.run())  # 4 rewrites, (1 + 4) reviews; validation disabled
    runner.store.close()
    spec["validation"] = {"enabled": True, "failed_variants": "exclude"}
    write_study(study, spec)
    config, base = load_study(study)
    found = study_status(config, base)
    counts = {s.stage: (s.units, s.done, s.pending) for s in found.stages}
    # the 4 variants wait for their checks; their stored reviews stay current (a check not made
    # yet is assumed to pass, as the estimate assumes), so nothing is superseded
    assert counts == {"rewrite": (4, 4, 0), "validate": (4, 0, 4), "review": (5, 5, 0)}
    assert found.superseded.empty
    estimate = estimate_study(study)
    assert (estimate.units_pending, estimate.units_done) == (4, 9)
