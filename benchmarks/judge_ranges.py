"""Share of ``ok`` judgements when the embedded model judges real reviews (issue 23.3: "remor and
revieweval answers >= 90% ok on the shared reviews").

Judges every review of ../shared/data (cheblienet_neurips2021 ``reviews.md``, chebnet_nips2016
``review/reviews.htm``, fma_ismir2017 ``ismir_review_*.txt``) with the embedded SmolLM2-135M model
on the REMOR and ReviewEval families, with the judge's defaults (packed family call, one repair
call, replicate 0), and prints per family: judgements by status, the share ``ok``, the metric values
left missing inside ``ok`` judgements (and why), and the seconds per judgement.

The output schema carries every metric's range; the 0-1 shares are asked as whole percentages
(:meth:`rhetorica.forms.Form.answer_form`), which llama.cpp's grammar bounds as an ``enum``.

Run from the repository root (about 1-2 minutes per family on one CPU thread):

    PYTHONPATH=src python benchmarks/judge_ranges.py            # every shared review
    PYTHONPATH=src python benchmarks/judge_ranges.py --smoke    # 1 review, a quick check
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from pathlib import Path

from rhetorica.documents.reviews import read_reviews
from rhetorica.evaluation import Target
from rhetorica.judges.judge import MISSING_METRICS, judge_factory
from rhetorica.models.call import CallContext

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "papers"
FAMILIES = ("remor", "revieweval")


def reviews() -> list:
    """Every shared review as a document, in a fixed order."""
    docs, _ = read_reviews([DATA / "cheblienet_neurips2021" / "reviews.md"], "cheblienet")
    more, _ = read_reviews([DATA / "chebnet_nips2016" / "review" / "reviews.htm"], "chebnet")
    ismir, _ = read_reviews(sorted((DATA / "fma_ismir2017").glob("ismir_review_*.txt")), "fma")
    return docs + more + ismir


def judge_all(family: str, docs: list, model: object) -> tuple[Counter[str], Counter[str], float]:
    """(statuses, missing-metric reasons, seconds per judgement) of ``family`` over ``docs``."""
    judge = judge_factory("bench", model=model, family=family)
    statuses: Counter[str] = Counter()
    missing: Counter[str] = Counter()
    started = time.perf_counter()
    for doc in docs:
        result = asyncio.run(judge.evaluate(Target(doc, doc.id, "original", "original", None, 0), CallContext()))
        statuses[str(result.status)] += 1
        for metric, why in result.artefacts.get(MISSING_METRICS, {}).items():
            missing[f"{metric}: {why}"] += 1
        if str(result.status) != "ok":
            missing[f"(whole judgement {result.status}) {str(result.reason)[:120]}"] += 1
    return statuses, missing, (time.perf_counter() - started) / max(1, len(docs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="1 review only (a quick check that every family still answers)")
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads (default 1)")
    args = parser.parse_args()
    from rhetorica.models.providers.embedded import EmbeddedModel

    model = EmbeddedModel(n_threads=args.threads)
    docs = reviews()[:1] if args.smoke else reviews()
    print(f"{len(docs)} shared reviews judged by the embedded model ({model.model}), families {', '.join(FAMILIES)}")
    for family in FAMILIES:
        statuses, missing, seconds = judge_all(family, docs, model)
        ok = statuses.get("ok", 0)
        print(f"{family:11} ok {ok}/{len(docs)} = {100 * ok / len(docs):.0f}%  statuses {dict(statuses)}  "
              f"{seconds:.1f} s/judgement")
        for reason, count in missing.most_common():
            print(f"    missing x{count}: {reason}")


if __name__ == "__main__":
    main()
