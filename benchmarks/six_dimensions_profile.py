"""Where the time of a six-dimension study run went: calls and seconds per stage.

Run: ``PYTHONPATH=src /work/main/.venv/bin/python benchmarks/six_dimensions_profile.py RUN_DIR``
after ``rhetorica run`` of a study with a ``latex-project`` or ``agent`` rewriter (e.g.
``examples/six_dimensions_embedded.yaml``). Reads the run's store (read-only) and the
``result.json`` of each project variant (:mod:`rhetorica.study.project_rewrite`) and prints one
row per stage:

- ``paragraph rewrites`` / ``repair rewrites``: the rewriter's model calls in the first attempt and
  in the repair attempts (count, summed latency);
- ``intermediate reviews``: the guided workflow's review of the joint variant, a unit of its own
  (:mod:`rhetorica.study.guided`): its model calls (count, summed latency);
- ``variant compiles``: every compile of a variant that passed the checker;
- ``variant PDF reads``: the PDF read of each accepted variant;
- ``reviews``: the model calls of the review stage (the study's reviewers), repair calls included;
- ``run wall time``: from the store's ``runs`` table (the latest run).

Seconds are wall-clock on the machine that ran the study (model calls: the provider's latency).

``--smoke`` (a few seconds; the test suite runs it): profiles a run it makes first, one shared paper
cut to 150 words, rewritten by the rule-based rewriter and reviewed by the mock provider (no project
variants, so the project rows are zero).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
from datetime import datetime
from pathlib import Path


def profile(run_dir: Path) -> list[tuple[str, int, float]]:
    """(stage, count, seconds) rows of one run directory (see the module docstring)."""
    rows: dict[str, list[float]] = {name: [0, 0.0] for name in (
        "paragraph rewrites", "repair rewrites", "variant compiles", "variant PDF reads")}
    for result in sorted((run_dir / "latex" / "variants").glob("*/result.json")):
        record = json.loads(result.read_text(encoding="utf-8"))
        for attempt in record.get("attempts", []):
            row = rows["paragraph rewrites" if attempt["number"] == 0 else "repair rewrites"]
            row[0] += attempt.get("calls", 0)
            row[1] += attempt.get("model_s", 0.0)
            if attempt.get("compile_s") is not None:
                rows["variant compiles"][0] += 1
                rows["variant compiles"][1] += attempt["compile_s"]
        if "read_s" in record:
            rows["variant PDF reads"][0] += 1
            rows["variant PDF reads"][1] += record["read_s"]
    with sqlite3.connect(f"file:{run_dir / 'store.sqlite'}?mode=ro", uri=True) as conn:
        guided = (conn.execute("SELECT COUNT(*), COALESCE(SUM(latency_s), 0) FROM model_calls WHERE unit_key IN "
                               "(SELECT unit_key FROM guided_reviews) AND cache_hit = 0").fetchone()
                  if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'guided_reviews'").fetchone() else (0, 0.0))
        calls, seconds = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(latency_s), 0) FROM model_calls "
            "WHERE unit_key IN (SELECT unit_key FROM assessments) AND cache_hit = 0").fetchone()
        started, finished = conn.execute(
            "SELECT started_at, finished_at FROM runs ORDER BY run_id DESC LIMIT 1").fetchone()
    out = [(name, int(n), s) for name, (n, s) in rows.items()]
    out.insert(2, ("intermediate reviews", int(guided[0]), float(guided[1])))
    out.append(("reviews", calls, seconds))
    if finished:
        wall = (datetime.fromisoformat(finished) - datetime.fromisoformat(started)).total_seconds()
        out.append(("run wall time", 1, wall))
    return out


def _smoke_run(run_dir: Path) -> Path:
    """Run a one-paper mock study into ``run_dir`` (see the module docstring)."""
    import asyncio

    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner

    paper = Path(__file__).resolve().parents[2] / "shared" / "data" / "papers" / "gcrn_iclr2017"
    config = parse_study({
        "name": "smoke", "output_dir": str(run_dir), "documents": [{"path": str(paper)}],
        "document_options": {"max_words": 150},
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
        "reviewers": [{"name": "mock", "model": "mock/reviewer"}], "replicates": 1,
        "validation": {"enabled": False},
    })
    runner = StudyRunner(config, run_dir)
    asyncio.run(runner.run())
    runner.store.close()
    return run_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path, nargs="?")
    parser.add_argument("--smoke", action="store_true", help="profile a one-paper mock run made first")
    args = parser.parse_args()
    if args.run_dir is None and not args.smoke:
        parser.error("RUN_DIR is required (or --smoke)")
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = _smoke_run(Path(tmp)) if args.smoke else args.run_dir
        print(f"{'stage':<22} {'count':>6} {'seconds':>9}")
        for name, count, seconds in profile(run_dir):
            print(f"{name:<22} {count:>6} {seconds:>9.1f}")


if __name__ == "__main__":
    main()
