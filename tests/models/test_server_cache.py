"""The probe of a self-hosted server's prompt cache, against loopback servers: llama.cpp's ``/props``
(:class:`tests.models.cache_servers.SlotServer`), vLLM's ``/metrics``
(:class:`tests.models.cache_servers.PrefixCacheServer`), llama-cpp-python's ``/openapi.json``
title, a server with none of them, and none at all. The real llama-cpp-python server is probed in
tests/models/test_llama_cpp_server.py."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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


@dataclass
class _Answers(FakeServer):
    """A server answering each GET path with the given bytes (200) and 404 elsewhere."""

    answers: Any = None

    def _route(self, method: str, path: str, body: Any, raw: bytes, rec: Any):  # type: ignore[no-untyped-def]
        if method == "GET" and path in (self.answers or {}):
            return 200, self.answers[path], {"Content-Type": "text/plain"}
        return super()._route(method, path, body, raw, rec)


def _props(value: str) -> bytes:
    return ('{"total_slots": ' + value + ', "default_generation_settings": {"n_ctx": 4096}}').encode()


# total_slots as llama.cpp's /props could hold it; the expected slot count, or None for no cache
SLOT_VALUES = [("1", 1), ("3", 3), ("65536", 65536), ("0", None), ("-2", None), ("65537", None),
               ("1000000000000000000", None), ("1" + "0" * 400, None), ("2.0", None), ("2.5", None),
               ('"4"', None), ("true", None), ("null", None), ("[2]", None), ('{"n": 2}', None), ("NaN", None)]
PROMETHEUS = b"# HELP vllm:num_requests_running Number of requests.\n# TYPE vllm:num_requests_running gauge\n" \
             b'vllm:num_requests_running{model_name="m"} 0.0\n'
# /metrics answers: (body, a vLLM server's)
METRICS = [(PROMETHEUS, True), (b'vllm:gpu_cache_usage_perc{model_name="m"} 0.1\n', True),
           (b"<html><body>our vllm: notes</body></html>", False), (b"text mentioning vllm: in a sentence", False),
           (b"# HELP python_gc_objects_collected_total Objects.\npython_gc_objects_collected_total 1.0\n", False),
           (b"", False), (b"\xff\xfe\x00garbage vllm:", False)]


def test_props_total_slots_is_a_slot_count_only_within_range() -> None:
    # a generated set of total_slots values: only an integer 1..65536 is a slot count; anything
    # else (a huge or non-positive number, a float, a string, bool, null, a list, an object,
    # invalid JSON) is no known cache, said in the reason; the probe then goes on asking
    for value, slots in SLOT_VALUES:
        with _Answers(answers={"/props": _props(value)}) as server:
            kind, got, reason = asyncio.run(probe_server_cache(server.url, timeout_s=2.0))
        assert (kind, got) == (("slots", slots) if slots else ("none", 1)), (value, reason)
        assert len(reason) < 200, reason  # a 401-digit number is not printed


def test_metrics_is_vllm_only_when_prometheus_text_names_a_vllm_metric() -> None:
    for body, vllm in METRICS:
        with _Answers(answers={"/metrics": body}) as server:
            kind, _, reason = asyncio.run(probe_server_cache(server.url, timeout_s=2.0))
        assert kind == ("prefix" if vllm else "none"), (body[:40], reason)


def test_probe_reads_at_most_a_mebibyte_of_an_answer() -> None:
    # a 64 MiB /metrics whose vLLM metric comes after the first MiB: not read, so not found
    body = b"# filler\n" * (64 * 1024 * 1024 // 9) + PROMETHEUS
    with _Answers(answers={"/metrics": body}) as server:
        kind, _, _ = asyncio.run(probe_server_cache(server.url, timeout_s=5.0))
    assert kind == "none"


class _Trickle(ThreadingHTTPServer):
    """Answers every GET 200 with headers at once, then one byte of body a second."""

    daemon_threads = True

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self.send_response(200)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                try:
                    for _ in range(1000):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                        time.sleep(1.0)
                except OSError:
                    return

        super().__init__(("127.0.0.1", 0), Handler)


def test_a_server_that_trickles_its_answer_is_given_up_per_request() -> None:
    # each read gets a byte within the read timeout, so only a deadline on the whole request ends
    # it: three requests of 1 s each, then "none"
    server = _Trickle()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        started = time.monotonic()
        kind, _, reason = asyncio.run(probe_server_cache(f"http://127.0.0.1:{server.server_port}/v1", timeout_s=1.0))
        took = time.monotonic() - started
    finally:
        server.shutdown()
        server.server_close()
    assert kind == "none" and reason.count("no whole answer in 1 s") == 3, reason
    assert took < 6.0, took
