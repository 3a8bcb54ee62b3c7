"""What a self-hosted chat-completions server caches of earlier prompts, asked of the server itself,
and the slot a request is meant for.

- :func:`probe_server_cache`: two cheap GETs at the server's root (the base URL without its ``/v1``).
  llama.cpp's server answers ``GET /props`` with JSON holding ``total_slots`` (its ``--parallel``):
  a slot cache with that many slots, each keeping the prompt it processed last. A vLLM server's
  ``GET /metrics`` (Prometheus text) holds metrics named ``vllm:...``: an automatic prefix cache
  shared by all requests. Anything else (an error, a timeout, another answer) is no known cache.
- :data:`CACHE_SLOT`: the slot the scheduler chose for the call being made
  (:mod:`rhetorica.study.scheduling`); a provider whose server takes llama.cpp's ``id_slot`` and
  ``cache_prompt`` request fields sends them from it.
"""

from __future__ import annotations

import json
from contextvars import ContextVar

import httpx

from rhetorica.models.redaction import redact_urls

CACHE_SLOT: ContextVar[int | None] = ContextVar("rhetorica_cache_slot", default=None)
"""The server slot (0-based) chosen for the calls of the current task, or ``None`` (no slot chosen)."""

PROBE_TIMEOUT_S = 5.0
"""Seconds each probe request may take."""


def server_root(base_url: str) -> str:
    """The server's root: ``base_url`` without a trailing ``/`` and ``/v1`` (``http://h:8080/v1`` ->
    ``http://h:8080``)."""
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


async def probe_server_cache(base_url: str, timeout_s: float = PROBE_TIMEOUT_S) -> tuple[str, int, str]:
    """Ask the server at ``base_url`` what it caches; never raises for what the server answers.

    Args:
        base_url: the chat-completions base URL (``http://host:port/v1``); credentials in it are
            used for the requests and redacted from the reason.
        timeout_s: seconds per request (> 0).

    Returns:
        ``(cache, slots, reason)``: ``("slots", n, ...)`` when ``GET /props`` answers JSON with an
        integer ``total_slots`` n >= 1 (llama.cpp's server); else ``("prefix", 1, ...)`` when
        ``GET /metrics`` answers 200 with text holding ``vllm:`` (vLLM); else ``("none", 1, ...)``.
        ``reason`` says what was asked and answered.
    """
    root = server_root(base_url)
    said: list[str] = []
    # httpx (a core dependency: the probe runs for every openai-compatible model, in any install)
    async with httpx.AsyncClient(timeout=timeout_s) as client:
        for path in ("/props", "/metrics"):
            try:
                response = await client.get(root + path)
                status, text = response.status_code, response.text
            except (httpx.HTTPError, OSError) as exc:
                said.append(f"GET {path}: {type(exc).__name__} {exc}".rstrip())
                continue
            if status != 200:
                said.append(f"GET {path}: HTTP {status}")
                continue
            if path == "/props":
                try:
                    slots = json.loads(text).get("total_slots")
                except (ValueError, AttributeError):
                    slots = None
                if isinstance(slots, int) and not isinstance(slots, bool) and slots >= 1:
                    return "slots", slots, f"GET /props: total_slots={slots}"
                said.append("GET /props: no total_slots")
            elif "vllm:" in text:
                return "prefix", 1, "GET /metrics: vllm: metrics"
            else:
                said.append("GET /metrics: no vllm: metrics")
    return "none", 1, redact_urls("; ".join(said))
