"""The probe of a self-hosted server's prompt cache, against loopback servers: llama.cpp's ``/props``
(:class:`tests.models.cache_servers.SlotServer`), vLLM's ``/metrics``
(:class:`tests.models.cache_servers.PrefixCacheServer`), a server with neither, and none at all."""

from __future__ import annotations

import asyncio

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
        assert asyncio.run(probe(f"{other.url}/v1")) == ("none", 1, "GET /props: HTTP 404; GET /metrics: HTTP 404")
        assert [r.path for r in llama.received] == ["/props"]
        assert [r.path for r in vllm.received] == ["/props", "/metrics"]
        gone = other.url
    kind, slots, reason = asyncio.run(probe(gone))  # stopped: the connection is refused
    assert (kind, slots) == ("none", 1) and reason.startswith("GET /props: ConnectError")  # httpx's name for a refused connection
