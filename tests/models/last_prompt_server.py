"""A loopback OpenAI-style server with one slot that keeps the prompt it processed last, as
``python -m llama_cpp.server`` (llama-cpp-python) does: requests are answered one at a time, and each
evaluates only the tokens after its longest common prefix with the previous request's prompt.

Tokens are the words of the request's messages, in order. Used by
``tests/study/test_prompt_cache_schedule.py`` and ``benchmarks/bench_prefix_cache.py --server last-prompt``
(which puts the repository root on ``sys.path``).
"""

from __future__ import annotations

import threading
from typing import Any

from tests.models.fake_servers import FakeServer, _messages_of


class LastPromptServer(FakeServer):
    """:class:`FakeServer` with one slot keeping the last prompt; counts what it evaluated.

    Attributes:
        evaluated: prompt tokens evaluated over all requests (each request's tokens minus its common
            prefix with the previous request's).
        full_reuse: requests whose whole prompt was the previous request's.
        requests: requests answered.
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        self._slot = threading.Lock()
        self._last: list[str] = []
        self.evaluated = 0
        self.full_reuse = 0
        self.requests = 0

    def _generate(self, kind: str, path: str, body: Any, rec: Any):  # type: ignore[no-untyped-def]
        with self._slot:  # one request at a time, as the server's one model
            words = " ".join(_messages_of(kind, body)).split()
            common = 0
            for a, b in zip(words, self._last):
                if a != b:
                    break
                common += 1
            self.evaluated += len(words) - common
            self.full_reuse += common == len(words)
            self.requests += 1
            self._last = words
            return super()._generate(kind, path, body, rec)
