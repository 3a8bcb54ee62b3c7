"""What a self-hosted chat-completions server caches of earlier prompts, asked of the server itself,
and the slot a request is meant for.

- :func:`probe_server_cache`: up to three cheap GETs at the server's root (the base URL without its ``/v1``).
  llama.cpp's server answers ``GET /props`` with JSON holding ``total_slots`` (its ``--parallel``):
  a slot cache with that many slots, each keeping the prompt it processed last. A vLLM server's
  ``GET /metrics`` (Prometheus text) holds metrics named ``vllm:...``: an automatic prefix cache
  shared by all requests. llama-cpp-python's server (``python -m llama_cpp.server``: no ``/props``)
  names itself in ``GET /openapi.json`` (``info.title`` "... llama.cpp Python API"): it serves one
  model state at a time and evaluates only what follows the prefix a prompt shares with the one
  before, so it is a slot cache with one slot. Anything else (an error, a timeout, another answer)
  is no known cache.
- :data:`CACHE_SLOT`: the slot the scheduler chose for the call being made
  (:mod:`rhetorica.study.scheduling`); a provider whose server takes llama.cpp's ``id_slot`` and
  ``cache_prompt`` request fields sends them from it.
"""

from __future__ import annotations

import asyncio
import json
import re
from contextvars import ContextVar

import httpx

from rhetorica.models.redaction import redact_urls

CACHE_SLOT: ContextVar[int | None] = ContextVar("rhetorica_cache_slot", default=None)
"""The server slot (0-based) chosen for the calls of the current task, or ``None`` (no slot chosen)."""

LLAMA_CPP_PYTHON = "llama.cpp Python"
"""What llama-cpp-python's server's OpenAPI title holds ("🦙 llama.cpp Python API", llama_cpp/server/app.py)."""

MAX_SLOTS = 65536
"""The most ``total_slots`` taken as a slot count (llama.cpp's ``--parallel``; a larger number is no
server's: the probe says so and assumes no cache)."""

PROBE_MAX_BYTES = 1 << 20
"""Bytes of an answer the probe reads (1 MiB: llama.cpp's ``/props``, vLLM's ``/metrics`` and an
OpenAPI document are tens of kB)."""

VLLM_METRIC = re.compile(r"^(?:# (?:HELP|TYPE) )?vllm:[A-Za-z_:][A-Za-z0-9_:]*[ {]", re.M)
"""A line of Prometheus text exposition naming a ``vllm:`` metric (a sample, or its HELP/TYPE line)."""

PROBE_TIMEOUT_S = 5.0
"""Seconds each probe request may take."""


def server_root(base_url: str) -> str:
    """The server's root: ``base_url`` without a trailing ``/`` and ``/v1`` (``http://h:8080/v1`` ->
    ``http://h:8080``)."""
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


async def probe_server_cache(base_url: str, timeout_s: float = PROBE_TIMEOUT_S) -> tuple[str, int, str]:
    """Ask the server at ``base_url`` what it caches (up to three GETs); never raises for what the
    server answers.

    Args:
        base_url: the chat-completions base URL (``http://host:port/v1``); credentials in it are
            used for the requests and redacted from the reason.
        timeout_s: seconds each request may take in all, its answer read to the end (> 0); an
            answer is read up to :data:`PROBE_MAX_BYTES`.

    Returns:
        ``(cache, slots, reason)``: ``("slots", n, ...)`` when ``GET /props`` answers JSON with an
        integer ``total_slots`` 1 <= n <= :data:`MAX_SLOTS` (llama.cpp's server); else
        ``("prefix", 1, ...)`` when ``GET /metrics`` answers Prometheus text with a metric named
        ``vllm:...`` (vLLM); else ``("slots", 1, ...)`` when ``GET /openapi.json`` answers JSON
        whose ``info.title`` holds ``llama.cpp Python`` (llama-cpp-python's server); else
        ``("none", 1, ...)``. ``reason`` says what was asked and answered.
    """
    root = server_root(base_url)
    said: list[str] = []
    # httpx (a core dependency: the probe runs for every openai-compatible model, in any install)
    async with httpx.AsyncClient(timeout=timeout_s) as client:
        for path in ("/props", "/metrics", "/openapi.json"):
            try:
                status, text = await asyncio.wait_for(_get(client, root + path), timeout_s)
            except asyncio.TimeoutError:  # before OSError: on Python 3.11 it is the builtin TimeoutError
                said.append(f"GET {path}: no whole answer in {timeout_s:g} s")
                continue
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
                if isinstance(slots, int) and not isinstance(slots, bool) and 1 <= slots <= MAX_SLOTS:
                    return "slots", slots, f"GET /props: total_slots={slots}"
                said.append("GET /props: no total_slots" if not isinstance(slots, int) or isinstance(slots, bool)
                            else f"GET /props: total_slots out of 1..{MAX_SLOTS}")
            elif path == "/metrics":
                if VLLM_METRIC.search(text):
                    return "prefix", 1, "GET /metrics: vllm: metrics"
                said.append("GET /metrics: no vllm: metrics")
            elif LLAMA_CPP_PYTHON in _title(text):
                return "slots", 1, "GET /openapi.json: llama-cpp-python's server (one model state: one slot)"
            else:
                said.append("GET /openapi.json: not llama-cpp-python's server")
    return "none", 1, redact_urls("; ".join(said))


async def _get(client: httpx.AsyncClient, url: str) -> tuple[int, str]:
    """``(status, text)`` of ``GET url``, the text read up to :data:`PROBE_MAX_BYTES` (the rest is
    left unread: no answer the probe reads is longer)."""
    async with client.stream("GET", url) as response:
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) >= PROBE_MAX_BYTES:
                break
        return response.status_code, bytes(body[:PROBE_MAX_BYTES]).decode("utf-8", errors="replace")


def _title(text: str) -> str:
    """``info.title`` of an OpenAPI document's JSON text, ``""`` when it has none."""
    try:
        info = json.loads(text).get("info")
    except (ValueError, AttributeError):
        return ""
    title = info.get("title") if isinstance(info, dict) else None
    return title if isinstance(title, str) else ""
