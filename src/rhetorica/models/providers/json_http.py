"""POST a JSON body, read the answer's bytes: the live request path of the chat-completions
providers, on aiohttp.

aiohttp is used here instead of the provider SDK because the client's CPU per call is what bounds
a study's throughput on a small machine: on the loopback benchmark (benchmarks/bench_providers.py)
the openai SDK over httpx spent 1.7-2.5 ms of CPU per call and httpx alone about 1.0-1.7 ms,
aiohttp 0.2-0.7 ms. The SDK client stays for batch jobs (:mod:`rhetorica.models.batch`).

One :class:`aiohttp.ClientSession` is kept per event loop (:class:`LoopBoundClient`) and closed
when the loop shuts down. Credentials in the URL's userinfo are sent as HTTP Basic auth (aiohttp
reads them from the URL), and then no ``Authorization`` header is added.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Mapping
from typing import Any

import aiohttp
from yarl import URL

from rhetorica.models.providers.common import LoopBoundClient

#: connections kept per session at least (calls are bounded upstream by the connection's semaphore)
MIN_CONNECTIONS = 100


def endpoint_url(base_url: str, path: str) -> URL:
    """``base_url`` with ``path`` appended to its path; its query (e.g. ``?key=``) and userinfo kept."""
    url = URL(base_url)
    return url.with_path(url.path.rstrip("/") + "/" + path.lstrip("/"), keep_query=True)


def env_proxy(url: URL) -> str | None:
    """The proxy the environment (``HTTPS_PROXY``, ``HTTP_PROXY``, ``NO_PROXY`` ...) sets for
    ``url``, or ``None``."""
    if url.host is None or urllib.request.proxy_bypass(url.host):
        return None
    return urllib.request.getproxies().get(url.scheme)


class JSONPoster:
    """POSTs JSON bodies to one URL over a pooled session per event loop.

    Args:
        url: the full request URL (userinfo, if any, becomes Basic auth); kept inside this object
            only (its ``repr`` shows no credential).
        max_connections: connections the pool may open (at least :data:`MIN_CONNECTIONS`).
    """

    def __init__(self, url: URL, max_connections: int = MIN_CONNECTIONS) -> None:
        self._url = url
        self._limit = max(MIN_CONNECTIONS, max_connections)
        self._sessions: LoopBoundClient[aiohttp.ClientSession] = LoopBoundClient(self._new, _close)

    def _new(self) -> aiohttp.ClientSession:
        # the environment's proxy for this URL is read once here: aiohttp's trust_env would read
        # the proxy variables and ~/.netrc again on a worker thread for every request
        return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=self._limit), proxy=env_proxy(self._url))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<url>)"

    async def post(
        self, body: Mapping[str, Any], *, bearer: str | None, timeout_s: float
    ) -> tuple[int, Mapping[str, str], bytes]:
        """Send ``body`` as JSON; (HTTP status, response headers, response body bytes).

        Args:
            bearer: key sent as ``Authorization: Bearer <key>``; ignored when the URL has userinfo.
            timeout_s: wall-clock limit for the whole request, seconds.

        Raises:
            TimeoutError: no complete answer within ``timeout_s``.
            aiohttp.ClientError: the connection failed or broke.
        """
        headers = {"Content-Type": "application/json"}
        if bearer is not None and self._url.user is None:
            headers["Authorization"] = f"Bearer {bearer}"
        session = self._sessions.get()
        async with session.post(self._url, data=json.dumps(body), headers=headers,
                                timeout=aiohttp.ClientTimeout(total=timeout_s)) as response:
            return response.status, response.headers, await response.read()


async def _close(session: aiohttp.ClientSession) -> None:
    await session.close()
