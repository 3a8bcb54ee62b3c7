"""Loopback OpenAI-style servers that cache prompts the way self-hosted servers do, and count the
prompt tokens they evaluate. Tokens are the words of a request's messages, in order.

- :class:`SlotServer`: llama.cpp's server with ``--parallel N`` (N = 1: also ``python -m
  llama_cpp.server``). Each of its N slots answers one request at a time and keeps the prompt it
  processed last; a request evaluates only the tokens after their longest common prefix with that
  prompt. A request naming ``id_slot`` waits for that slot; any other takes a free slot (the one
  whose kept prompt shares the longest prefix with it, the lowest number on a tie). It answers
  ``GET /props`` with ``total_slots`` and reports ``timings.prompt_n`` (evaluated) and
  ``timings.cache_n`` (reused) as llama.cpp does. A whole prompt found on the slot evaluates 0
  tokens here (llama.cpp evaluates its last token again).
- :class:`PrefixCacheServer`: vLLM's automatic prefix caching with a limited capacity. Requests run
  at once; a prompt is cut into blocks of ``block`` tokens, a block known by its whole prefix; a
  request reuses the leading blocks the cache holds when it arrives, and its blocks enter the cache
  once it has been answered; the least recently used blocks leave when more than ``capacity``
  tokens are held. It answers ``GET /metrics`` with ``vllm:`` metrics and reports the reused tokens
  in ``usage.prompt_tokens_details.cached_tokens``.

Used by ``tests/study/test_prompt_cache_schedule.py`` and ``benchmarks/bench_prefix_cache.py``
(``--server slots | vllm``; it puts the repository root on ``sys.path``).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from tests.models.fake_servers import FakeServer, _messages_of


def _common_prefix(a: list[str], b: list[str]) -> int:
    return len(os.path.commonprefix([a, b]))


@dataclass
class Served:
    """One answered request: its slot (``None`` for the prefix cache), prompt digest, tokens, and
    the tokens it evaluated."""

    slot: int | None
    prompt: str
    tokens: int
    evaluated: int


@dataclass
class _Counting(FakeServer):
    """Shared bookkeeping: :attr:`served` in the order requests were answered."""

    served: list[Served] = field(default_factory=list)

    @property
    def evaluated(self) -> int:
        """Prompt tokens evaluated over all requests."""
        return sum(s.evaluated for s in self.served)

    @property
    def full_reuse(self) -> int:
        """Requests that evaluated none of their prompt."""
        return sum(s.evaluated == 0 for s in self.served)

    @property
    def requests(self) -> int:
        return len(self.served)

    @staticmethod
    def _words(kind: str, body: Any) -> tuple[list[str], str]:
        words = " ".join(_messages_of(kind, body)).split()
        return words, hashlib.sha256(" ".join(words).encode()).hexdigest()[:16]


@dataclass
class SlotServer(_Counting):
    """llama.cpp's server with ``slots`` slots (see the module docstring)."""

    slots: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        self._kept: list[list[str]] = [[] for _ in range(self.slots)]
        self._busy = [False] * self.slots
        self._turn = threading.Condition()

    def _route(self, method: str, path: str, body: Any, raw: bytes, rec: Any):  # type: ignore[no-untyped-def]
        if method == "GET" and path == "/props":
            return 200, {"total_slots": self.slots, "default_generation_settings": {"n_ctx": 4096}}, {}
        return super()._route(method, path, body, raw, rec)

    def _take(self, words: list[str], wanted: Any) -> int:
        with self._turn:
            while True:
                if isinstance(wanted, int) and 0 <= wanted < self.slots:
                    free = [wanted] if not self._busy[wanted] else []
                else:
                    free = [k for k in range(self.slots) if not self._busy[k]]
                if free:
                    slot = max(free, key=lambda k: (_common_prefix(words, self._kept[k]), -k))
                    self._busy[slot] = True
                    return slot
                self._turn.wait()

    def _generate(self, kind: str, path: str, body: Any, rec: Any):  # type: ignore[no-untyped-def]
        words, digest = self._words(kind, body)
        slot = self._take(words, body.get("id_slot"))
        try:
            common = _common_prefix(words, self._kept[slot])
            status, payload, headers = super()._generate(kind, path, body, rec)
            if status == 200:
                payload["timings"] = {"prompt_n": len(words) - common, "cache_n": common}
                self._kept[slot] = words
                with self._lock:
                    self.served.append(Served(slot, digest, len(words), len(words) - common))
            return status, payload, headers
        finally:
            with self._turn:
                self._busy[slot] = False
                self._turn.notify_all()


@dataclass
class PrefixCacheServer(_Counting):
    """vLLM's automatic prefix cache holding at most ``capacity`` tokens in blocks of ``block``."""

    block: int = 16
    capacity: int = 256

    def __post_init__(self) -> None:
        super().__post_init__()
        self._blocks: OrderedDict[str, None] = OrderedDict()  # block key -> None, least recently used first

    @property
    def full_reuse(self) -> int:
        """Requests that evaluated only their last partial block (a whole prompt's blocks were cached)."""
        return sum(s.evaluated < self.block for s in self.served)

    def _route(self, method: str, path: str, body: Any, raw: bytes, rec: Any):  # type: ignore[no-untyped-def]
        if method == "GET" and path == "/metrics":
            text = f"# TYPE vllm:prefix_cache_hits_total counter\nvllm:prefix_cache_hits_total {self.full_reuse}\n"
            return 200, text.encode(), {"Content-Type": "text/plain; version=0.0.4"}
        return super()._route(method, path, body, raw, rec)

    def _keys(self, words: list[str]) -> list[str]:
        return [hashlib.sha256(" ".join(words[: end]).encode()).hexdigest()
                for end in range(self.block, len(words) + 1, self.block)]

    def _generate(self, kind: str, path: str, body: Any, rec: Any):  # type: ignore[no-untyped-def]
        words, digest = self._words(kind, body)
        keys = self._keys(words)
        with self._lock:
            hits = 0
            for key in keys:
                if key not in self._blocks:
                    break
                self._blocks.move_to_end(key)
                hits += 1
        cached = hits * self.block
        status, payload, headers = super()._generate(kind, path, body, rec)
        if status == 200:
            payload["usage"]["prompt_tokens_details"]["cached_tokens"] = cached
            with self._lock:
                for key in keys:
                    self._blocks[key] = None
                    self._blocks.move_to_end(key)
                while len(self._blocks) * self.block > self.capacity:
                    self._blocks.popitem(last=False)
                self.served.append(Served(None, digest, len(words), len(words) - cached))
        return status, payload, headers
