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


def test_stored_failures_are_counted_under_the_stage_whose_units_failed(shared_data, tmp_path):
    """Attack searches are variants rows like rewrites, but their failures count under ``attack``
    (they were all counted under ``rewrite``); a plain rewrite's failure stays ``rewrite``; after a
    rerun the counts are those of the stored units, not of the run."""
    from collections import Counter

    from rhetorica.models.providers.mock import MockModel
    from rhetorica.study.status import stage_failures
    from tests.attack.test_kind import attack_spec, models, runner_for

    out = tmp_path / "run"
    spec = attack_spec(shared_data, out, scope=["Conclusion"])  # none of the 3 papers has one: 3 x 2 targets
    spec["rewriters"].append({"name": "blank", "kind": "llm", "model": "mock/blank", "conditions": ["confidence:+"]})
    found = models() | {"mock/blank": MockModel("blank", script=[{"empty": True}] * 3)}
    runner = runner_for(spec, out, found)
    asyncio.run(runner.run())
    assert [stage.name for stage, _ in runner.walked] == ["rewrite", "attack", "validate", "review"]
    expected = Counter({("attack", "error"): 6, ("rewrite", "empty"): 3})
    assert stage_failures(runner.store, runner.walked) == expected
    runner.store.close()
    runner = runner_for(spec, out, found)
    summary = asyncio.run(runner.run())
    assert summary.units_run == 0 and stage_failures(runner.store, runner.walked) == expected
    runner.store.close()
