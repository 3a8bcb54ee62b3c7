"""Downloads that survive rate limits: cached files are never fetched again; a 429 is retried after
its ``Retry-After`` (capped), and a source that keeps answering 429 is left for a later run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhetorica.files import write_atomic
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

MAX_FILE_BYTES = 200 * 2**20


@dataclass
class DownloadLog:
    """What a download pass did: files fetched now, found in place, left pending, and failures."""

    fetched: list[str] = field(default_factory=list)
    cached: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    rate_limited: bool = False


def capped_retry(max_retries: int, max_wait_s: float) -> Any:
    """A urllib3 ``Retry`` for GETs on 429/5xx that honours ``Retry-After`` up to ``max_wait_s``."""

    class _CappedRetry(Retry):
        def get_retry_after(self, response: Any) -> float | None:
            found = super().get_retry_after(response)
            return None if found is None else min(found, max_wait_s)

    return _CappedRetry(total=max_retries, connect=1, backoff_factor=0.5, backoff_max=max_wait_s,
                        status_forcelist=[429, 500, 502, 503, 504], raise_on_status=False,
                        respect_retry_after_header=True)


def use_capped_retry(client: Any, url_prefix: str, max_retries: int, max_wait_s: float) -> None:
    """Mount :func:`capped_retry` on ``client.session`` for URLs starting with ``url_prefix``."""

    client.session.mount(url_prefix, HTTPAdapter(max_retries=capped_retry(max_retries, max_wait_s)))


def is_rate_limited(exc: BaseException) -> bool:
    """True for an ``openreview-py`` error (or any error text) that reports HTTP 429."""
    text = str(exc)
    return "429" in text or "Too Many Requests" in text or "RateLimit" in text


def download_pdfs(client: Any, targets: dict[str, Path], log: DownloadLog) -> None:
    """Fetch each ``note id -> path`` PDF that is not on disk yet (``client.get_pdf``).

    After a rate-limit answer that the retries could not outlast, the remaining PDFs are left
    pending (``log.rate_limited``) for a later run; other failures are recorded per id.
    """
    for note_id, path in targets.items():
        if path.is_file() and path.stat().st_size > 0:
            log.cached.append(note_id)
            continue
        if log.rate_limited:
            log.pending.append(note_id)
            continue
        try:
            data = client.get_pdf(note_id)
        except Exception as exc:  # noqa: BLE001 - the client raises its own exception type
            if is_rate_limited(exc):
                log.rate_limited = True
                log.pending.append(note_id)
            else:
                log.failed[note_id] = f"{type(exc).__name__}: {exc}"
            continue
        if not data.startswith(b"%PDF"):
            log.failed[note_id] = "the server's answer is not a PDF"
            continue
        if len(data) > MAX_FILE_BYTES:
            log.failed[note_id] = f"PDF larger than {MAX_FILE_BYTES // 2**20} MiB"
            continue
        write_atomic(path, data)
        log.fetched.append(note_id)


def download_file(http: Any, url: str, path: Path, max_bytes: int = MAX_FILE_BYTES) -> None:
    """GET ``url`` (an ``httpx.Client``) into ``path`` atomically, streaming, at most ``max_bytes``.

    Raises:
        httpx.HTTPStatusError: non-2xx answer. ValueError: larger than ``max_bytes``.
    """
    chunks: list[bytes] = []
    size = 0
    with http.stream("GET", url) as response:
        response.raise_for_status()
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > max_bytes:
                raise ValueError(f"{url}: larger than {max_bytes // 2**20} MiB")
            chunks.append(chunk)
    write_atomic(path, b"".join(chunks))
