"""The probe of a self-hosted server's prompt cache, against loopback servers: llama.cpp's ``/props``
(:class:`tests.models.cache_servers.SlotServer`), vLLM's ``/metrics``
(:class:`tests.models.cache_servers.PrefixCacheServer`), llama-cpp-python's ``/openapi.json``
title, a server with none of them, and none at all. The real llama-cpp-python server is probed in
tests/models/test_llama_cpp_server.py."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from rhetorica.models.server_cache import probe_server_cache, server_root
from tests.models.cache_servers import PrefixCacheServer, SlotServer
from tests.models.fake_servers import FakeServer


def test_server_root_drops_v1() -> None:
    assert server_root("http://h:8080/v1/") == "http://h:8080" and server_root("http://h:8080") == "http://h:8080"


def test_probe_maps_props_and_metrics_and_anything_else_to_none() -> None:
    async def probe(url: str) -> tuple[str, int, str]:
        return await probe_server_cache(url, timeout_s=2.0)

    with SlotServer(slots=3) as llama, PrefixCacheServer() as vllm, FakeServer() as other:
        assert asyncio.run(probe(f"{llama.url}/v1")) == ("slots", 3, "GET /props: total_slots=3")
        assert asyncio.run(probe(f"{vllm.url}/v1/")) == ("prefix", 1, "GET /metrics: vllm: metrics")
        assert asyncio.run(probe(f"{other.url}/v1")) == ("none", 1, "GET /props: HTTP 404; GET /metrics: HTTP 404; GET /openapi.json: HTTP 404")
        assert [r.path for r in llama.received] == ["/props"]
        assert [r.path for r in vllm.received] == ["/props", "/metrics"]
        assert [r.path for r in other.received] == ["/props", "/metrics", "/openapi.json"]
        gone = other.url
    kind, slots, reason = asyncio.run(probe(gone))  # stopped: the connection is refused
    assert (kind, slots) == ("none", 1) and reason.startswith("GET /props: ConnectError")  # httpx's name for a refused connection


@dataclass
class _OpenAPIServer(FakeServer):
    """A FastAPI-style server: ``GET /openapi.json`` answers ``{"info": {"title": title}}``."""

    title: Any = "\U0001f999 llama.cpp Python API"  # llama_cpp/server/app.py's FastAPI title

    def _route(self, method: str, path: str, body: Any, raw: bytes, rec: Any):  # type: ignore[no-untyped-def]
        if method == "GET" and path == "/openapi.json":
            return 200, {"openapi": "3.1.0", "info": {"title": self.title, "version": "0.1.0"}}, {}
        return super()._route(method, path, body, raw, rec)


def test_llama_cpp_python_server_is_one_slot_and_other_openapi_servers_are_none() -> None:
    # llama-cpp-python's server has neither /props nor /metrics; its OpenAPI title names it, and it
    # keeps one model state (one slot). Another FastAPI server, or a title that is not text, is none.
    async def probe(url: str) -> tuple[str, int, str]:
        return await probe_server_cache(url, timeout_s=2.0)

    reason = "GET /openapi.json: llama-cpp-python's server (one model state: one slot)"
    with _OpenAPIServer() as llama_python, _OpenAPIServer(title="My API") as fastapi, \
            _OpenAPIServer(title=["llama.cpp Python"]) as odd:
        assert asyncio.run(probe(f"{llama_python.url}/v1")) == ("slots", 1, reason)
        assert asyncio.run(probe(fastapi.url)) == (
            "none", 1, "GET /props: HTTP 404; GET /metrics: HTTP 404; GET /openapi.json: not llama-cpp-python's server")
        assert asyncio.run(probe(odd.url))[:2] == ("none", 1)
