"""External command reviewers that hang, crash, print garbage or score off the scale, in a study:
each failure is that unit's status, the others' reviews are stored, the study completes."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from rhetorica.report.render import write_report
from rhetorica.store.db import Store
from rhetorica.store.export import assessments_table
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner

from .helpers import PAPERS, save_run_study, study_dict

SCRIPT = """\
import json, sys, time
mode, manuscript = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
review = {"summary": "s", "strengths": ["a"], "weaknesses": ["b"], "questions": [], "overall": 6,
          "soundness": 3, "presentation": 2, "contribution": 3, "confidence": 4}
if mode == "hang":
    time.sleep(120)
elif mode == "crash":
    print("reviewer exploded", file=sys.stderr)
    sys.exit(3)
elif mode == "garbage":
    print("I liked it, a solid paper.")
elif mode == "off-scale":
    print(json.dumps(review | {"overall": 12}))
else:
    print(json.dumps(review | {"summary": f"{len(manuscript.split())} words read"}))
"""

MODES = ("fine", "hang", "crash", "garbage", "off-scale")


def test_each_failure_is_data_and_the_study_completes(shared_data: Path, tmp_path: Path) -> None:
    script = tmp_path / "reviewer.py"
    script.write_text(SCRIPT, encoding="utf-8")
    reviewers = [{"name": mode, "kind": "command",
                  "options": {"args": [sys.executable, str(script), mode, "{input}"], "form": "iclr-2026",
                              "timeout_s": 2}} for mode in MODES]
    spec = study_dict(shared_data, tmp_path / "run", documents=[{"path": str(shared_data / "papers" / PAPERS[0])}],
                      rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
                      reviewers=reviewers, replicates=1)
    config = parse_study(spec)
    summary = asyncio.run(StudyRunner(config, tmp_path).run())
    save_run_study(config, tmp_path / "run")
    assert summary.stopped_configurations == {} and summary.problems == []
    assert summary.stage_statuses["review"] == {"ok": 2, "timeout": 2, "error": 2, "malformed": 4}
    store = Store.in_dir(tmp_path / "run")
    try:
        table = assessments_table(store)
    finally:
        store.close()
    by = {(r.reviewer, r.condition): r for r in table.itertuples()}
    for condition in ("original", "confidence:+"):
        assert by[("fine", condition)].status == "ok" and by[("fine", condition)].overall == 6.0
        assert by[("hang", condition)].status == "timeout"
        assert by[("crash", condition)].status == "error" and "status 3" in by[("crash", condition)].reason
        assert by[("garbage", condition)].status == "malformed"
        off = by[("off-scale", condition)]
        assert off.status == "malformed" and "12 is outside its range 1..10" in off.reason
        assert all(table.loc[table["reviewer"] != "fine", "overall"].isna())  # never clipped, never imputed
    data = write_report(tmp_path / "run", n_resamples=100)
    assert data.failure_counts == (8, 0)
