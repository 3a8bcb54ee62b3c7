"""Judge calls per review with family packing vs one call per metric (issue 13: "a 29-metric study
costs a handful of calls per review, not 29").

Plans every study family's judge calls (plus RevUtil's) on the real reviews of ../shared/data
(:meth:`rhetorica.judges.judge.Judge.calls`: the first-attempt calls, before any repair; no model is
called) and prints, per family and in total, the calls per review under ``packing="family"`` and
``packing="metric"`` (RevUtil: one packed list vs one call per weakness point), and the prompt words
(system + user messages) per review.

Run from the repository root:

    PYTHONPATH=src python benchmarks/judge_packing.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rhetorica.documents.reviews import read_reviews
from rhetorica.evaluation import Target
from rhetorica.judges.families import FAMILIES
from rhetorica.judges.judge import judge_factory
from rhetorica.models.providers.mock import MockModel

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "papers"


def reviews() -> list:
    docs, _ = read_reviews([DATA / "cheblienet_neurips2021" / "reviews.md"], "cheblienet")
    more, _ = read_reviews([DATA / "chebnet_nips2016" / "review" / "reviews.htm"], "chebnet")
    return docs + more


def measure(family: str, packing: str, docs: list) -> tuple[int, int, int]:
    """(reviews, first-attempt calls, prompt words) over ``docs``."""
    judge = judge_factory("bench", model=MockModel(), family=family,
                          **({"packing": packing} if FAMILIES[family].unit != "point" else {}),
                          **({"per_point_calls": packing == "metric"} if FAMILIES[family].unit == "point" else {}))
    calls = []
    for i, doc in enumerate(docs):
        reference = docs[(i + 1) % len(docs)]
        calls += judge.calls(Target(doc, doc.id, "original", "original", None, 0, reference=reference))
    words = sum(len(c.system.split()) + len(c.user.split()) for c in calls)
    return len(docs), len(calls), words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few seconds: two reviews")
    args = parser.parse_args()
    docs = reviews()[:2] if args.smoke else reviews()
    print(f"{len(docs)} real reviews (cheblienet_neurips2021, chebnet_nips2016)")
    print(f"{'family':14} {'metrics':>7} {'packed calls/review':>20} {'per-metric calls/review':>24} "
          f"{'packed words/review':>20} {'per-metric words/review':>24}")
    totals = [0, 0, 0, 0]
    for name, family in FAMILIES.items():
        _, packed_calls, packed_words = measure(name, "family", docs)
        _, single_calls, single_words = measure(name, "metric", docs)
        n = len(docs)
        if family.in_study:
            for k, v in enumerate((packed_calls, single_calls, packed_words, single_words)):
                totals[k] += v
        print(f"{name:14} {len(family.form.metrics):>7} {packed_calls / n:>20.2f} {single_calls / n:>24.2f} "
              f"{packed_words / n:>20.0f} {single_words / n:>24.0f}"
              + ("" if family.in_study else "   (not in the 29; per point: packed list vs one call per point)"))
    n = len(docs)
    print(f"{'study (29+3)':14} {'':>7} {totals[0] / n:>20.2f} {totals[1] / n:>24.2f} {totals[2] / n:>20.0f} "
          f"{totals[3] / n:>24.0f}")


if __name__ == "__main__":
    main()
