"""A loopback HTTP server that speaks the OpenAI, Anthropic and Gemini wire formats, with faults.

Used by the provider tests, the study-level fault/kill tests and ``benchmarks/bench_providers.py``.
It binds 127.0.0.1 on a free port and never touches the network.

Routes:
- OpenAI: ``POST /v1/chat/completions``; batch: ``POST /v1/files``, ``GET /v1/files/{id}/content``,
  ``POST /v1/batches``, ``GET /v1/batches/{id}``.
- Anthropic: ``POST /v1/messages``; batch: ``POST /v1/messages/batches``,
  ``GET /v1/messages/batches/{id}``, ``GET /v1/messages/batches/{id}/results``.
- Gemini: ``POST /v1beta/models/{model}:generateContent``; batch:
  ``POST /v1beta/models/{model}:batchGenerateContent``, ``GET /v1beta/batches/{id}``.

Faults (names accepted in ``script`` entries and by ``fault_fn``): ``rate_limit`` (429 with
``Retry-After``), ``server_error`` (500), ``timeout`` (answers after ``hang_s``), ``malformed_body``
(200 with a body that is not JSON), ``truncated`` (length stop with cut text),
``truncated_reasoning`` (length stop, no content, reasoning tokens), ``refusal``,
``content_filter``, ``malformed_content`` (ok stop, text that is not JSON), ``empty``,
``context_overflow`` (400), ``auth`` (401), ``not_found`` (404), ``quota`` (429 insufficient_quota),
``invalid_request`` (400 naming ``response_format``), ``validation_500`` (llama-cpp-python's 500 for a
``response_format`` type it does not take), ``vllm_context_overflow`` (vLLM's 400 wording).

Rate limit (``rate_limit=(n, window_s)``): at most ``n`` model requests are answered in any sliding
window of ``window_s`` seconds; the others get 429 with ``Retry-After`` (seconds until the oldest
answered request leaves the window). With ``rate_headers`` every answer carries
``x-ratelimit-remaining-requests`` and ``x-ratelimit-reset-requests`` the way OpenAI sends them
(the reset: until the window is empty again).
``reject_formats`` lists ``response_format`` types answered with ``validation_500``.
"""

from __future__ import annotations

import email
import hashlib
import json
import math
import re
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rhetorica.models.providers.mock import fill_schema

FAULTS = (
    "rate_limit",
    "server_error",
    "timeout",
    "malformed_body",
    "truncated",
    "truncated_reasoning",
    "refusal",
    "content_filter",
    "malformed_content",
    "empty",
    "context_overflow",
    "auth",
    "not_found",
    "quota",
    "invalid_request",
    "validation_500",
    "vllm_context_overflow",
)


@dataclass
class Received:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    fault: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float = float("inf")  # when the answer was written (inf: never)


def _words(text: str) -> int:
    return len(text.split())


@dataclass
class FakeServer:
    """The loopback server. Use as a context manager or call :meth:`start` / :meth:`stop`.

    Args:
        latency_s: fixed delay before each model answer (benchmarks).
        hang_s: how long a ``timeout`` fault waits before answering.
        retry_after: value of the ``Retry-After`` header on ``rate_limit`` faults.
        script: faults (or ``None`` = answer normally) consumed one per model request, in order;
            a dict entry ``{"fault": ..., "text": ..., "usage": {...}}`` also overrides the answer
            (its ``"usage_block"``, any JSON value, replaces a chat-completions answer's whole ``usage``);
            its ``"logprobs"`` (chat completions' ``logprobs.content`` items) are returned to a
            chat-completions request that asks for them; its ``"reshape"`` (a function of the
            rendered answer, any kind) returns the body sent instead (a JSON value, or ``bytes`` as is).
        fault_fn: called with (request index, body) when the script is empty; returns a fault
            name, a script entry (dict) or None.
        batch_polls_before_done: status polls a batch reports "in progress" before it is done.
    """

    latency_s: float = 0.0
    hang_s: float = 2.0
    retry_after: str = "0"
    script: list[Any] = field(default_factory=list)
    fault_fn: Callable[[int, Any], str | None] | None = None
    batch_polls_before_done: int = 1
    rate_limit: tuple[int, float] | None = None
    rate_headers: bool = False
    reject_formats: tuple[str, ...] = ()
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._model_requests = 0
        self._files: dict[str, bytes] = {}
        self._batches: dict[str, dict[str, Any]] = {}
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._answered: deque[float] = deque()  # monotonic times of requests let through the rate limit
        self.rate_limited = 0  # requests answered 429 by the rate limit

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> FakeServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                return

            def setup(self) -> None:
                super().setup()
                # headers and body go out in two writes; without this, Nagle + delayed ACK add ~40 ms
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_GET(self) -> None:
                server._dispatch(self, "GET")

            def do_POST(self) -> None:
                server._dispatch(self, "POST")

        class Server(ThreadingHTTPServer):
            request_queue_size = 256  # the default backlog of 5 drops connections at concurrency 64
            daemon_threads = True

        self._httpd = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def model_requests(self, kind: str | None = None) -> list[Received]:
        """Requests that asked for a generation (``kind`` = openai | anthropic | gemini)."""
        out = []
        for r in self.received:
            k = _kind(r.path)
            if k is not None and (kind is None or k == kind):
                out.append(r)
        return out

    # -- dispatch -------------------------------------------------------------------------------
    def _dispatch(self, h: BaseHTTPRequestHandler, method: str) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        if len(raw) < length:  # the client went away while sending: no request was made
            h.close_connection = True
            return
        path = h.path.split("?", 1)[0]
        body: Any = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw
        rec = Received(method, path, {k.lower(): v for k, v in h.headers.items()}, body)
        with self._lock:
            self.received.append(rec)
        try:
            status, payload, headers = self._route(method, path, body, raw, rec)
        except Exception as exc:  # a bug in the fake must be visible, not a hang
            status, payload, headers = 599, {"error": {"message": f"fake server bug: {exc!r}"}}, {}
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
            for k, v in headers.items():
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        rec.finished = time.monotonic()

    def _route(self, method: str, path: str, body: Any, raw: bytes, rec: Received):
        kind = _kind(path)
        if kind is not None and method == "POST":
            return self._generate(kind, path, body, rec)
        if method == "POST" and path == "/v1/files":
            return self._openai_upload(raw, rec.headers.get("content-type", ""))
        m = re.fullmatch(r"/v1/files/([^/]+)/content", path)
        if m and method == "GET":
            return 200, self._files[m[1]], {"Content-Type": "application/octet-stream"}
        if path == "/v1/batches" and method == "POST":
            return self._openai_batch_create(body)
        m = re.fullmatch(r"/v1/batches/([^/]+)", path)
        if m and method == "GET":
            return self._openai_batch_get(m[1])
        if path == "/v1/messages/batches" and method == "POST":
            return self._anthropic_batch_create(body)
        m = re.fullmatch(r"/v1/messages/batches/([^/]+)(/results)?", path)
        if m and method == "GET":
            return self._anthropic_batch_get(m[1], bool(m[2]))
        m = re.fullmatch(r"/v1beta/models/([^/:]+):batchGenerateContent", path)
        if m and method == "POST":
            return self._gemini_batch_create(m[1], body)
        m = re.fullmatch(r"/v1beta/(batches/[^/]+)", path)
        if m and method == "GET":
            return self._gemini_batch_get(m[1])
        return 404, {"error": {"message": f"no route {method} {path}", "type": "not_found"}}, {}

    def _next_fault(self, body: Any) -> dict[str, Any]:
        with self._lock:
            index = self._model_requests
            self._model_requests += 1
            entry = self.script.pop(0) if self.script else None
        if entry is None and self.fault_fn is not None:
            entry = self.fault_fn(index, body)
        if entry is None or isinstance(entry, str):
            return {"fault": entry}
        return dict(entry)

    # -- generation -----------------------------------------------------------------------------
    def _rate_check(self) -> tuple[bool, dict[str, str]]:
        """(allowed, headers) under ``rate_limit``, counting this request when allowed."""
        if self.rate_limit is None:
            return True, {}
        limit, window = self.rate_limit
        with self._lock:
            now = time.monotonic()
            while self._answered and self._answered[0] <= now - window:
                self._answered.popleft()
            allowed = len(self._answered) < limit
            if allowed:
                self._answered.append(now)
            else:
                self.rate_limited += 1
            # Retry-After: until one slot frees; the reset header (OpenAI: "time until the rate limit
            # resets to its initial state"): until the whole window is free again
            slot = max(self._answered[0] + window - now, 0.0) if self._answered else 0.0
            full = max(self._answered[-1] + window - now, 0.0) if self._answered else 0.0
            remaining = limit - len(self._answered)

        def ms(seconds: float) -> int:  # rounded up: a client that waits this long is let through
            return math.ceil(seconds * 1000) + 1

        headers = {"Retry-After": f"{ms(slot) / 1000:.3f}"} if not allowed else {}
        if self.rate_headers:
            headers |= {"x-ratelimit-limit-requests": str(limit), "x-ratelimit-remaining-requests": str(remaining),
                        "x-ratelimit-reset-requests": f"{ms(full)}ms"}
        return allowed, headers

    def _generate(self, kind: str, path: str, body: Any, rec: Received):
        allowed, rate_headers = self._rate_check()
        if not allowed:
            rec.fault = "rate_limited"
            return 429, _error_body(kind, 429, "Rate limit reached for requests", "rate_limit_exceeded"), rate_headers
        plan = self._next_fault(body)
        fault = plan.get("fault")
        rf_type = ((body or {}).get("response_format") or {}).get("type") if isinstance(body, dict) else None
        if fault is None and rf_type in self.reject_formats:
            fault = "validation_500"
        rec.fault = fault
        if self.latency_s:
            time.sleep(self.latency_s)
        if fault == "timeout":
            time.sleep(self.hang_s)
        if fault == "malformed_body":
            return 200, b'{"id": "x", "choices": [ {"message": ', {}
        error = _ERRORS.get(fault or "")
        if error is not None:
            status, message, code = error
            headers = {"Retry-After": self.retry_after} if fault == "rate_limit" else {}
            return status, _error_body(kind, status, message, code), headers | rate_headers
        return 200, self._answer(kind, path, body, plan), rate_headers

    def answer_text(self, kind: str, body: dict[str, Any]) -> str:
        """The normal answer: a schema-filling JSON object, or the last user text echoed (a schema
        stated only in the instructions, as in ``prompt`` mode, is filled too)."""
        schema = _schema_of(kind, body) or _instructed_schema(_messages_of(kind, body))
        digest = hashlib.sha256(json.dumps(_messages_of(kind, body), sort_keys=True).encode()).digest()
        if schema is not None:
            return json.dumps(fill_schema(schema, digest))
        texts = _messages_of(kind, body)
        return f"echo: {texts[-1][:200]}" if texts else "ok"

    def _answer(self, kind: str, path: str, body: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
        fault = plan.get("fault")
        text = plan.get("text", self.answer_text(kind, body))
        finish = "stop"
        reasoning = 0
        if fault == "truncated":
            text, finish = text[: max(1, len(text) // 2)], "length"
        elif fault == "truncated_reasoning":
            text, finish, reasoning = "", "length", 64
        elif fault == "malformed_content":
            text = "Here is my review: it is good."
        elif fault == "empty":
            text = ""
        elif fault in ("refusal", "content_filter"):
            finish = fault
        prompt = sum(_words(t) for t in _messages_of(kind, body))
        usage = {
            "input": prompt,
            "output": _words(text) + reasoning,
            "cached": 0,
            "reasoning": reasoning,
            "cache_write": 0,
        }
        usage.update(plan.get("usage", {}))
        model = _model_of(kind, path, body)
        data = _RENDER[kind](model, text, finish, usage, body)
        if kind == "openai" and "usage_block" in plan:
            data["usage"] = plan["usage_block"]
        if kind == "openai" and body.get("logprobs") and "logprobs" in plan:
            data["choices"][0]["logprobs"] = {"content": plan["logprobs"]}
        if "reshape" in plan:
            return plan["reshape"](data)
        return data

    # -- OpenAI batch ---------------------------------------------------------------------------
    def _openai_upload(self, raw: bytes, content_type: str):
        message = email.message_from_bytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
        content = next(part.get_payload(decode=True) for part in message.walk() if part.get_filename())
        file_id = f"file-{uuid.uuid4().hex[:12]}"
        self._files[file_id] = content
        return (
            200,
            {
                "id": file_id,
                "object": "file",
                "bytes": len(content),
                "created_at": int(time.time()),
                "filename": "batch.jsonl",
                "purpose": "batch",
                "status": "processed",
            },
            {},
        )

    def _openai_batch_create(self, body: dict[str, Any]):
        batch_id = f"batch_{uuid.uuid4().hex[:12]}"
        lines = [json.loads(x) for x in self._files[body["input_file_id"]].decode().splitlines() if x.strip()]
        self._batches[batch_id] = {"kind": "openai", "lines": lines, "polls": 0, "input_file_id": body["input_file_id"]}
        return 200, self._openai_batch_obj(batch_id), {}

    def _openai_batch_obj(self, batch_id: str) -> dict[str, Any]:
        b = self._batches[batch_id]
        done = b["polls"] > self.batch_polls_before_done
        obj = {
            "id": batch_id,
            "object": "batch",
            "endpoint": "/v1/chat/completions",
            "completion_window": "24h",
            "input_file_id": b["input_file_id"],
            "created_at": int(time.time()),
            "status": "completed" if done else "in_progress",
            "request_counts": {"total": len(b["lines"]), "completed": len(b["lines"]) if done else 0, "failed": 0},
        }
        if done:
            if "output_file_id" not in b:
                out = []
                for line in b["lines"]:
                    plan = self._next_fault(line["body"])
                    fault = plan.get("fault")
                    if fault in _ERRORS:
                        status, message, code = _ERRORS[fault]
                        resp = {
                            "status_code": status,
                            "request_id": "r",
                            "body": _error_body("openai", status, message, code),
                        }
                    else:
                        resp = {
                            "status_code": 200,
                            "request_id": "r",
                            "body": self._answer("openai", "/v1/chat/completions", line["body"], plan),
                        }
                    out.append(json.dumps({"id": "x", "custom_id": line["custom_id"], "response": resp, "error": None}))
                file_id = f"file-{uuid.uuid4().hex[:12]}"
                self._files[file_id] = ("\n".join(reversed(out)) + "\n").encode()
                b["output_file_id"] = file_id
            obj["output_file_id"] = b["output_file_id"]
        return obj

    def _openai_batch_get(self, batch_id: str):
        if batch_id not in self._batches:
            return 404, _error_body("openai", 404, "no such batch", None), {}
        self._batches[batch_id]["polls"] += 1
        return 200, self._openai_batch_obj(batch_id), {}

    # -- Anthropic batch ------------------------------------------------------------------------
    def _anthropic_batch_create(self, body: dict[str, Any]):
        batch_id = f"msgbatch_{uuid.uuid4().hex[:12]}"
        self._batches[batch_id] = {"kind": "anthropic", "requests": body["requests"], "polls": 0}
        return 200, self._anthropic_batch_obj(batch_id), {}

    def _anthropic_batch_obj(self, batch_id: str) -> dict[str, Any]:
        b = self._batches[batch_id]
        done = b["polls"] > self.batch_polls_before_done
        n = len(b["requests"])
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if done else "in_progress",
            "request_counts": {
                "processing": 0 if done else n,
                "succeeded": n if done else 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2026-01-01T00:00:00Z",
            "expires_at": "2026-01-02T00:00:00Z",
            "ended_at": "2026-01-01T01:00:00Z" if done else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.url}/v1/messages/batches/{batch_id}/results" if done else None,
        }

    def _anthropic_batch_get(self, batch_id: str, results: bool):
        if batch_id not in self._batches:
            return 404, _error_body("anthropic", 404, "no such batch", None), {}
        b = self._batches[batch_id]
        if not results:
            b["polls"] += 1
            return 200, self._anthropic_batch_obj(batch_id), {}
        if "results" not in b:
            out = []
            for req in b["requests"]:
                plan = self._next_fault(req["params"])
                if plan.get("fault") in _ERRORS:
                    status, message, code = _ERRORS[plan["fault"]]
                    result = {"type": "errored", "error": _error_body("anthropic", status, message, code)}
                else:
                    result = {
                        "type": "succeeded",
                        "message": self._answer("anthropic", "/v1/messages", req["params"], plan),
                    }
                out.append(json.dumps({"custom_id": req["custom_id"], "result": result}))
            b["results"] = ("\n".join(reversed(out)) + "\n").encode()
        return 200, b["results"], {"Content-Type": "application/x-jsonl"}

    # -- Gemini batch ---------------------------------------------------------------------------
    def _gemini_batch_create(self, model: str, body: dict[str, Any]):
        name = f"batches/{uuid.uuid4().hex[:12]}"
        requests = body["batch"]["inputConfig"]["requests"]["requests"]
        self._batches[name] = {"kind": "gemini", "model": model, "requests": requests, "polls": 0}
        return 200, self._gemini_batch_obj(name), {}

    def _gemini_batch_obj(self, name: str) -> dict[str, Any]:
        b = self._batches[name]
        done = b["polls"] > self.batch_polls_before_done
        meta: dict[str, Any] = {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
            "name": name,
            "model": f"models/{b['model']}",
            "state": "BATCH_STATE_SUCCEEDED" if done else "BATCH_STATE_RUNNING",
        }
        op: dict[str, Any] = {"name": name, "metadata": meta, "done": done}
        if done:
            if "output" not in b:
                items = []
                for req in b["requests"]:
                    plan = self._next_fault(req["request"])
                    item: dict[str, Any] = {"metadata": req.get("metadata", {})}
                    if plan.get("fault") in _ERRORS:
                        status, message, _ = _ERRORS[plan["fault"]]
                        item["error"] = {"code": status, "message": message}
                    else:
                        item["response"] = self._answer(
                            "gemini", f"/v1beta/models/{b['model']}:generateContent", req["request"], plan
                        )
                    items.append(item)
                b["output"] = items
            op["response"] = {
                "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput",
                "inlinedResponses": {"inlinedResponses": b["output"]},
            }
            meta["output"] = {"inlinedResponses": {"inlinedResponses": b["output"]}}
        return op

    def _gemini_batch_get(self, name: str):
        if name not in self._batches:
            return 404, _error_body("gemini", 404, "no such batch", None), {}
        self._batches[name]["polls"] += 1
        return 200, self._gemini_batch_obj(name), {}


_ERRORS: dict[str, tuple[int, str, str | None]] = {
    "rate_limit": (429, "Rate limit reached for requests", "rate_limit_exceeded"),
    "quota": (429, "You exceeded your current quota", "insufficient_quota"),
    "server_error": (500, "The server had an error while processing your request", None),
    "context_overflow": (
        400,
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
        "context_length_exceeded",
    ),
    "auth": (401, "Incorrect API key provided", "invalid_api_key"),
    "not_found": (404, "The model does not exist", "model_not_found"),
    "invalid_request": (400, "Invalid value for 'response_format': json_schema is not supported", None),
    "vllm_context_overflow": (
        400,
        "The decoder prompt (length 9121) is longer than the maximum model length of 8192. Make sure that "
        "`max_model_len` is no smaller than the number of text tokens.",
        None,
    ),
    "validation_500": (
        500,
        "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
        "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}]",
        None,
    ),
}


def _instructed_schema(texts: list[str]) -> dict[str, Any] | None:
    """A JSON Schema written into the instructions after "JSON Schema:" (prompt-mode calls)."""
    for text in texts:
        _, marker, rest = text.partition("JSON Schema:")
        if marker:
            try:
                return json.loads(rest.strip().splitlines()[0])
            except (ValueError, IndexError):
                return None
    return None

_GEMINI_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
}
_ANTHROPIC_TYPE = {
    400: "invalid_request_error",
    401: "authentication_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
}


def _error_body(kind: str, status: int, message: str, code: str | None) -> dict[str, Any]:
    if kind == "anthropic":
        if code == "context_length_exceeded":
            message = "prompt is too long: 210000 tokens > 200000 maximum"
        return {"type": "error", "error": {"type": _ANTHROPIC_TYPE.get(status, "api_error"), "message": message}}
    if kind == "gemini":
        if code == "context_length_exceeded":
            message = "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."
        return {"error": {"code": status, "message": message, "status": _GEMINI_STATUS.get(status, "UNKNOWN")}}
    return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}


def _kind(path: str) -> str | None:
    if path == "/v1/chat/completions":
        return "openai"
    if path == "/v1/messages":
        return "anthropic"
    if re.fullmatch(r"/v1beta/models/[^/:]+:generateContent", path):
        return "gemini"
    return None


def _messages_of(kind: str, body: dict[str, Any]) -> list[str]:
    if kind == "openai":
        return [m["content"] for m in body.get("messages", [])]
    if kind == "anthropic":
        system = body.get("system") or []
        texts = [b["text"] for b in system] if isinstance(system, list) else [system]
        for m in body.get("messages", []):
            c = m["content"]
            texts.extend([b["text"] for b in c if b.get("type") == "text"] if isinstance(c, list) else [c])
        return texts
    texts = [p["text"] for p in (body.get("systemInstruction") or {}).get("parts", [])]
    for c in body.get("contents", []):
        texts.extend(p["text"] for p in c.get("parts", []))
    return texts


def _schema_of(kind: str, body: dict[str, Any]) -> dict[str, Any] | None:
    if kind == "openai":
        rf = body.get("response_format") or {}
        if rf.get("type") == "json_object":
            return rf.get("schema")
        return (rf.get("json_schema") or {}).get("schema") if rf.get("type") == "json_schema" else None
    if kind == "anthropic":
        tools = body.get("tools") or []
        if tools:
            return tools[0]["input_schema"]
        return ((body.get("output_config") or {}).get("format") or {}).get("schema")
    gc = body.get("generationConfig") or {}
    return gc.get("responseJsonSchema") or gc.get("responseSchema")


def _model_of(kind: str, path: str, body: dict[str, Any]) -> str:
    if kind == "gemini":
        return path.split("/models/")[1].split(":")[0]
    return str(body.get("model"))


def _render_openai(model: str, text: str, finish: str, usage: dict[str, int], body: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text, "refusal": None}
    if finish == "refusal":
        message = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
        finish = "stop"
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:8]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": f"{model}-served",
        "system_fingerprint": "fp_fake",
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {
            "prompt_tokens": usage["input"],
            "completion_tokens": usage["output"],
            "total_tokens": usage["input"] + usage["output"],
            "prompt_tokens_details": {"cached_tokens": usage["cached"]},
            "completion_tokens_details": {"reasoning_tokens": usage["reasoning"]},
        },
    }


def _render_anthropic(model: str, text: str, finish: str, usage: dict[str, int], body: Any) -> dict[str, Any]:
    stop = {"stop": "end_turn", "length": "max_tokens", "refusal": "refusal", "content_filter": "refusal"}[finish]
    content: list[dict[str, Any]] = []
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and finish == "stop" and body.get("tools"):
        content.append({"type": "tool_use", "id": "toolu_1", "name": "output", "input": parsed})
    elif text:
        content.append({"type": "text", "text": text})
    cached, write = usage["cached"], usage["cache_write"]
    return {
        "id": f"msg_{uuid.uuid4().hex[:8]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {
            "input_tokens": usage["input"] - cached - write,
            "output_tokens": usage["output"],
            "cache_read_input_tokens": cached,
            "cache_creation_input_tokens": write,
        },
    }


def _render_gemini(model: str, text: str, finish: str, usage: dict[str, int], body: Any) -> dict[str, Any]:
    reason = {"stop": "STOP", "length": "MAX_TOKENS", "refusal": "SAFETY", "content_filter": "SAFETY"}[finish]
    candidate: dict[str, Any] = {"finishReason": reason, "index": 0}
    if text:
        candidate["content"] = {"role": "model", "parts": [{"text": text}]}
    meta = {
        "promptTokenCount": usage["input"],
        "candidatesTokenCount": usage["output"] - usage["reasoning"],
        "totalTokenCount": usage["input"] + usage["output"],
    }
    if usage["cached"]:
        meta["cachedContentTokenCount"] = usage["cached"]
    if usage["reasoning"]:
        meta["thoughtsTokenCount"] = usage["reasoning"]
    return {"candidates": [candidate], "usageMetadata": meta, "modelVersion": model}


_RENDER = {"openai": _render_openai, "anthropic": _render_anthropic, "gemini": _render_gemini}
