"""The ``http`` reviewer against a loopback endpoint: reviews, timeouts, HTTP errors, garbage, the key."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from rhetorica.models.store_log import StoreCallLog
from rhetorica.models.call import CallContext
from rhetorica.registry import evaluators
from rhetorica.reviewers.external import http as _http  # noqa: F401  (registers the kind)
from rhetorica.status import Status
from rhetorica.store.db import Store
from tests.reviewers.external.helpers import ICLR_JSON, evaluate, logged_calls


class Endpoint:
    """Loopback service; ``answers`` maps a path to (status, body, delay_s)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict, dict]] = []
        self.answers = {"/review": (200, ICLR_JSON, 0.0), "/wrapped": (200, json.dumps({"review": json.loads(ICLR_JSON)}), 0.0),
                        "/slow": (200, ICLR_JSON, 3.0), "/broken": (500, "internal error", 0.0),
                        "/garbage": (200, "<html>oops</html>", 0.0), "/moved": (307, "", 0.0), "/empty": (200, "", 0.0)}
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.received.append((self.path, dict(self.headers), body))
                status, text, delay = endpoint.answers[self.path]
                time.sleep(delay)
                data = text.encode()
                self.send_response(status)
                if status == 307:
                    self.send_header("Location", "http://example.invalid/review")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except BrokenPipeError:  # the client gave up (the timeout test)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    service = Endpoint()
    yield service
    service.server.shutdown()
    service.server.server_close()


def test_review_and_request_body(endpoint) -> None:
    result = evaluate(evaluators.get("http")("svc", url=endpoint.url("/review"), options={"effort": "high"}))
    assert (result.status, result.scores["overall"]) == (Status.OK, 6.0)
    path, headers, body = endpoint.received[0]
    assert body == {"format": "markdown", "document_id": "p1", "replicate": 0, "options": {"effort": "high"},
                    "manuscript": "# Spectral filters\n\n## Introduction\n\nWe prove it.\n"}
    assert "authorization" not in {k.lower() for k in headers}
    wrapped = evaluate(evaluators.get("http")("svc", url=endpoint.url("/wrapped"), response_field="review"))
    assert wrapped.status == Status.OK
    missing = evaluate(evaluators.get("http")("svc", url=endpoint.url("/review"), response_field="review"))
    assert (missing.status, missing.reason) == (Status.MALFORMED, "the response has no member 'review'")


def test_key_goes_only_to_its_endpoint_and_a_missing_key_is_an_error(endpoint, monkeypatch) -> None:
    monkeypatch.setenv("SVC_KEY", "sk-svc")
    evaluate(evaluators.get("http")("svc", url=endpoint.url("/review"), api_key_env="SVC_KEY"))
    assert endpoint.received[-1][1]["Authorization"] == "Bearer sk-svc"
    monkeypatch.delenv("SVC_KEY")
    result = evaluate(evaluators.get("http")("svc", url=endpoint.url("/review"), api_key_env="SVC_KEY"))
    assert (result.status, result.reason) == (Status.ERROR, "environment variable SVC_KEY (the service's key) is not set")
    assert len(endpoint.received) == 1  # nothing was sent without the key
    monkeypatch.setenv("SVC_KEY", "sk-svc")
    moved = evaluate(evaluators.get("http")("svc", url=endpoint.url("/moved"), api_key_env="SVC_KEY"))
    assert moved.status == Status.ERROR and moved.reason.startswith("HTTP 307: a redirect (not followed")


def test_failures_are_statuses(endpoint) -> None:
    slow = evaluate(evaluators.get("http")("svc", url=endpoint.url("/slow"), timeout_s=0.3))
    assert (slow.status, slow.reason) == (Status.TIMEOUT, "no answer from the endpoint within 0.3 s")
    broken = evaluate(evaluators.get("http")("svc", url=endpoint.url("/broken")))
    assert (broken.status, broken.reason) == (Status.ERROR, "HTTP 500: internal error")
    garbage = evaluate(evaluators.get("http")("svc", url=endpoint.url("/garbage")))
    assert garbage.status == Status.MALFORMED and garbage.reason.startswith("the answer is not JSON")
    assert evaluate(evaluators.get("http")("svc", url=endpoint.url("/empty"))).status == Status.EMPTY


def test_second_identical_request_is_a_cache_hit(endpoint, tmp_path) -> None:
    store = Store.in_dir(tmp_path / "run")
    context = CallContext(log=StoreCallLog(store), unit_key="u7")
    reviewer = evaluators.get("http")("svc", url=endpoint.url("/review"))
    assert evaluate(reviewer, context).scores == evaluate(reviewer, context).scores
    assert len(endpoint.received) == 1
    assert logged_calls(store.path) == [("u7", "http", "svc", "ok", 0), ("u7", "http", "svc", "ok", 1)]
    store.close()
