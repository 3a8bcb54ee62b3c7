"""Whether a model's or service's URL can be called at all, checked when a study loads (so a bad
URL is one line naming its model before anything runs, never a raw error mid-run)."""

from __future__ import annotations

from urllib.parse import urlsplit

from rhetorica.models.redaction import redact_url


def url_problem(url: str) -> str | None:
    """What is wrong with ``url`` as an endpoint, or ``None``: the scheme must be ``http`` or
    ``https``, the host present and the port (when given) a number in 1..65535
    (:func:`urllib.parse.urlsplit`). The message quotes the URL with its credentials redacted."""
    shown = redact_url(url)
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError for a port that is not a number in 0..65535
    except ValueError as exc:
        return f"{shown!r} is not a valid URL ({exc})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{shown!r} is not an http:// or https:// URL with a host"
    if port == 0:
        return f"{shown!r} is not a valid URL (port 0; a port is 1..65535)"
    return None
