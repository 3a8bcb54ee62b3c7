"""Downloads that survive rate limits, over httpx: cached files are never fetched again; a 429 or a
5xx answer is retried after its ``Retry-After`` (capped), and a source that keeps answering 429 is
left for a later run."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path

import httpx

from rhetorica.files import write_atomic

MAX_FILE_BYTES = 200 * 2**20
#: answers worth another try: rate limited, or the server (or a proxy before it) failed
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """How one GET is retried.

    Attributes:
        max_retries: further attempts after an answer in :data:`RETRY_STATUSES` (0 = one attempt).
        max_wait_s: cap on one wait, seconds (``Retry-After`` included).
        backoff_s: first wait when the answer names none; doubled on each further retry.
        connect_retries: further attempts after a connection could not be opened (never more
            than ``max_retries``).
    """

    max_retries: int = 3
    max_wait_s: float = 60.0
    backoff_s: float = 0.5
    connect_retries: int = 1

    def wait_s(self, retry: int, retry_after: str | None) -> float:
        """Seconds to wait before retry number ``retry`` (1-based): the ``Retry-After`` header
        (seconds or an HTTP date, RFC 9110 §10.2.3) when it parses, else ``backoff_s * 2**(retry-1)``;
        at most ``max_wait_s``, never negative."""
        asked = parse_retry_after(retry_after)
        wait = asked if asked is not None else self.backoff_s * 2 ** (retry - 1)
        return max(0.0, min(wait, self.max_wait_s))


NO_RETRY = RetryPolicy(max_retries=0, connect_retries=0)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds asked by a ``Retry-After`` header (``"120"`` or ``"Wed, 21 Oct 2015 07:28:00 GMT"``);
    ``None`` when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return (when - (now or datetime.now(timezone.utc))).total_seconds()


def fetch_bytes(http: httpx.Client, url: str, *, params: Mapping[str, str] | None = None,
                headers: Mapping[str, str] | None = None, policy: RetryPolicy = NO_RETRY,
                max_bytes: int = MAX_FILE_BYTES, sleep: Callable[[float], None] = time.sleep) -> bytes:
    """GET ``url``, streaming, at most ``max_bytes``, retried as ``policy`` says.

    Raises:
        httpx.HTTPStatusError: a non-2xx answer (the last one, once the retries are spent).
        httpx.TransportError: the connection failed (the last failure, once the retries are spent).
        ValueError: the body is larger than ``max_bytes`` (reading stops there).
    """
    retries = connects = 0
    while True:
        try:
            with http.stream("GET", url, params=params, headers=headers) as response:
                if response.status_code in RETRY_STATUSES and retries < policy.max_retries:
                    retries += 1
                    wait = policy.wait_s(retries, response.headers.get("Retry-After"))
                else:
                    response.raise_for_status()
                    return _read_capped(response, url, max_bytes)
        except httpx.ConnectError:
            if connects >= policy.connect_retries or retries >= policy.max_retries:
                raise
            connects += 1
            retries += 1
            wait = policy.wait_s(retries, None)
        sleep(wait)


def _read_capped(response: httpx.Response, url: str, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise ValueError(f"{url}: larger than {max_bytes // 2**20} MiB")
        chunks.append(chunk)
    return b"".join(chunks)


@dataclass
class DownloadLog:
    """What a download pass did: files fetched now, found in place, left pending, and failures."""

    fetched: list[str] = field(default_factory=list)
    cached: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    rate_limited: bool = False


def download_pdfs(http: httpx.Client, pdf_url: str, targets: dict[str, Path], log: DownloadLog, *,
                  policy: RetryPolicy, headers: Mapping[str, str] | None = None,
                  sleep: Callable[[float], None] = time.sleep) -> None:
    """Fetch each ``note id -> path`` PDF that is not on disk yet (``GET pdf_url?id=<note id>``, as
    OpenReview serves them).

    After a 429 that the retries could not outlast, the remaining PDFs are left pending
    (``log.rate_limited``) for a later run; other failures are recorded per id.
    """
    for note_id, path in targets.items():
        if path.is_file() and path.stat().st_size > 0:
            log.cached.append(note_id)
            continue
        if log.rate_limited:
            log.pending.append(note_id)
            continue
        try:
            data = fetch_bytes(http, pdf_url, params={"id": note_id}, headers=headers, policy=policy, sleep=sleep)
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code == 429:
                log.rate_limited = True
                log.pending.append(note_id)
            else:
                log.failed[note_id] = f"HTTP {exc.response.status_code} {exc.response.reason_phrase}"
            continue
        except (httpx.HTTPError, ValueError) as exc:
            log.failed[note_id] = f"{type(exc).__name__}: {exc}"
            continue
        if not data.startswith(b"%PDF"):
            log.failed[note_id] = "the server's answer is not a PDF"
            continue
        write_atomic(path, data)
        log.fetched.append(note_id)


def download_file(http: httpx.Client, url: str, path: Path, max_bytes: int = MAX_FILE_BYTES,
                  policy: RetryPolicy = NO_RETRY) -> None:
    """GET ``url`` into ``path`` atomically, streaming, at most ``max_bytes`` (see :func:`fetch_bytes`).

    Raises:
        httpx.HTTPStatusError: non-2xx answer. httpx.TransportError: no connection.
        ValueError: larger than ``max_bytes``.
    """
    write_atomic(path, fetch_bytes(http, url, policy=policy, max_bytes=max_bytes))
