"""How often the embedded model's science cores pass SciCore's checks (issue 15 §3).

For each shared paper given, its first ``--words`` words are given to the science-core extraction
(:func:`rhetorica.reviewers.scicore.extract.extract_core`) with the embedded model (SmolLM2-135M,
temperature 0, ``--max-tokens`` output tokens), and the validation against the manuscript is
reported: the status, how many numbers the core writes, which of them the manuscript does not
state, and each claim's lexical support (:mod:`rhetorica.reviewers.scicore.support`).

It measures the checks on real model output, not the model: a 135M model is expected to invent
numbers and claims, and the point is that the checks name them.

Set-up: ``make install-demo`` (the embedded model). Run:
``.venv/bin/python benchmarks/bench_scicore_embedded.py [--data ../shared/data] [--papers chebnet_nips2016]
[--words 600] [--max-tokens 2500] [--show]``. One block per paper on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from rhetorica.documents.options import ReadOptions
from rhetorica.documents.reader import read_path
from rhetorica.models.providers.embedded import EmbeddedModel
from rhetorica.reviewers.scicore.extract import ExtractOptions, extract_core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--papers", nargs="+", default=["chebnet_nips2016"])
    parser.add_argument("--words", type=int, default=600)
    parser.add_argument("--max-tokens", type=int, default=2500)
    parser.add_argument("--show", action="store_true", help="also print each core as JSON")
    parser.add_argument("--smoke", action="store_true",
                        help="a few seconds: 200 words, the mock provider instead of the embedded model")
    args = parser.parse_args()
    model = EmbeddedModel(n_threads=1)
    if args.smoke:
        from rhetorica.models.providers.mock import MockModel

        print("smoke: the embedded model is not called; the extraction and its checks run on the mock provider")
        args.words, model = 200, MockModel(model="extractor")
    options = ExtractOptions(temperature=0.0, max_tokens=args.max_tokens, max_input_words=args.words)
    for name in args.papers:
        document = read_path(args.data / "papers" / name, name, ReadOptions())
        started = time.perf_counter()
        result = asyncio.run(extract_core(document, model, None, options=options))
        print(f"## {name} ({args.words} words): {result.status} in {time.perf_counter() - started:.0f} s")
        if result.checks is not None:
            checks = result.checks
            print(f"numbers written: {checks.numbers_checked}; not in the manuscript: "
                  f"{', '.join(f'{n.number} ({n.location})' for n in checks.new_numbers) or 'none'}")
            print(f"claim support: {', '.join(f'{s:.2f}' for s in checks.claim_support)} "
                  f"(threshold {checks.threshold:g}; {len(checks.unsupported_claims)} unsupported)")
        else:
            print(f"no core: {result.reason}")
        if args.show and result.core is not None:
            print(result.core.model_dump_json(indent=1))


if __name__ == "__main__":
    main()
