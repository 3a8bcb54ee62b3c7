"""Time every analysis table on 100,000 synthetic assessments (target: all under 5 s on 2 cores).

Set-up: ``make install-demo`` (the core install suffices; ``.venv/bin/pip install -e ".[bench]"``
holds every benchmark's needs).
Run: ``.venv/bin/python benchmarks/bench_analysis.py [--papers 500] [--reviewers 10]``.
Prints one line per table (fastest of ``--repeat`` runs: wall-clock and process CPU seconds, so a
busy machine inflates the numbers less) and the totals. Data come from the control reviewers
(:mod:`rhetorica.analysis.controls`): 10 reviewers x 500 papers x 10 arms (original, four
single conditions, the 2x2 compound rewrites, joint) x 2 replicates = 100,000 assessments.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pandas as pd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=500)
    parser.add_argument("--reviewers", type=int, default=10)
    parser.add_argument("--replicates", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="runs per table; the fastest counts")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 20 papers, 2 reviewers, one run each")
    args = parser.parse_args()
    if args.smoke:
        args.papers, args.reviewers, args.repeat = 20, 2, 1

    from rhetorica.analysis.change import movement_by_initial_score, paired_change
    from rhetorica.analysis.controls import ControlReviewer, simulate_assessments
    from rhetorica.analysis.equivalence import judge_reliability
    from rhetorica.analysis.paired import (
        comparison_table,
        criterion_table,
        default_pairs,
        difference_magnitude,
    )
    from rhetorica.analysis.power import plan_study
    from rhetorica.analysis.robustness import robustness_table
    from rhetorica.analysis.variance import pooled_sd
    from rhetorica.analysis.scorecard import scorecard

    singles = ["confidence:+", "confidence:-", "proficiency:+", "proficiency:-"]
    compound = [f"confidence:{c}|proficiency:{p}" for c in "+-" for p in "+-"]
    arms = ["original", *singles, *compound, "joint"]
    reviewers = [
        ControlReviewer(
            name=f"reviewer{i}",
            noise_sd=0.4 + 0.1 * (i % 5),
            integer_scores=i % 2 == 0,
            bias_arm="confidence:+" if i % 3 == 0 else None,
            preference_ratio=1.5 if i % 3 == 0 else 1.0,
            failure_rate=0.02,
        )
        for i in range(args.reviewers)
    ]
    t0 = time.perf_counter()
    df = simulate_assessments(args.papers, arms, reviewers, replicates=args.replicates, seed=0)
    print(f"simulate {len(df):,} assessments: {time.perf_counter() - t0:.2f} s (not counted)")

    rng = np.random.default_rng(0)
    n_docs, metrics = (20 if args.smoke else 200), [f"metric{m}" for m in range(29)]
    base = rng.normal(50, 10, (2, len(metrics), n_docs))
    judge = pd.DataFrame(
        [
            (
                f"r{d}",
                arm,
                f"judge{j}",
                metrics[m],
                base[j, m, d] + (rng.normal(0.5, 2) if arm == "rewrite" else 0),
            )
            for j in range(2)
            for m in range(len(metrics))
            for d in range(n_docs)
            for arm in ("original", "rewrite")
        ],
        columns=["document_id", "arm", "judge", "metric", "score"],
    )
    pairs = default_pairs(arms)
    n_studies = 50 if args.smoke else 2000
    tasks: list[tuple[str, Callable[[], object]]] = [
        ("comparison_table (Table 4)", lambda: comparison_table(df, pairs)),
        (
            "comparison_table given (Table 5)",
            lambda: [
                comparison_table(df, [("proficiency:+", "proficiency:-")], given=g)
                for g in ("confidence:+", "confidence:-")
            ],
        ),
        ("criterion_table", lambda: criterion_table(df, pairs)),
        ("difference_magnitude", lambda: difference_magnitude(df, pairs)),
        ("paired_change (5,000 bootstrap)", lambda: paired_change(df)),
        ("movement_by_initial_score", lambda: movement_by_initial_score(df)),
        ("pooled_sd", lambda: pooled_sd(df)),
        ("robustness_table", lambda: robustness_table(df)),
        ("scorecard", lambda: scorecard(df)),
        (f"judge_reliability ({len(judge):,} judgements)", lambda: judge_reliability(judge, 2.0)),
        (
            f"plan_study ({n_studies:,} simulated studies)",
            lambda: plan_study(1.5, n_studies=n_studies),
        ),
    ]
    wall_total = cpu_total = 0.0
    print(f"{'table':45s} {'wall s':>7s} {'cpu s':>7s}")
    for name, task in tasks:
        walls, cpus = [], []
        for _ in range(args.repeat):
            w0, c0 = time.perf_counter(), time.process_time()
            task()
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
        wall_total += min(walls)
        cpu_total += min(cpus)
        print(f"{name:45s} {min(walls):7.2f} {min(cpus):7.2f}")
    print(f"{'total':45s} {wall_total:7.2f} {cpu_total:7.2f}")


if __name__ == "__main__":
    main()
