"""Credentials written into URLs: find them and replace them with ``***`` wherever a URL is shown.

A user may put a credential into an endpoint URL instead of an environment variable:
``http://user:secret@host/v1`` (RFC 3986 §3.2.1 userinfo) or ``https://host/v1?key=secret``
(query parameters such as Gemini's ``key``, or ``token`` / ``api_key`` / ``access_token``). The
URL still works for the request, but everything that stores or prints it (model ids in the store,
the study JSON in the run directory, CLI output, the report, error messages) shows it through
:func:`redact_urls`.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

#: Query parameter names that carry a credential (compared case-insensitively).
SECRET_QUERY_PARAMS = frozenset(
    {"key", "api_key", "apikey", "api-key", "token", "access_token", "auth", "password", "secret", "sig",
     "signature", "x-api-key"}
)

_URL = re.compile(r"[a-z][a-z0-9+.-]*://[^\s\"'<>]+", re.IGNORECASE)
_USERINFO = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<userinfo>[^/?#@]*)@", re.IGNORECASE)


def url_secrets(url: str) -> list[str]:
    """The credentials written into ``url``: its userinfo (``user:pass``) and the values of its
    secret query parameters, in order of appearance (empty list when none).

    Args:
        url: an absolute URL (anything else yields no secrets).
    """
    found: list[str] = []
    match = _USERINFO.match(url)
    if match and match["userinfo"]:
        found.append(match["userinfo"])
    try:
        query = urlsplit(url).query
    except ValueError:
        return found
    for name, value in parse_qsl(query, keep_blank_values=False):
        if name.lower() in SECRET_QUERY_PARAMS and value:
            found.append(value)
    return found


def has_userinfo(url: str) -> bool:
    """Whether ``url`` carries ``user:pass@`` (RFC 3986 userinfo), which HTTP clients send as
    basic authentication in place of any bearer key."""
    match = _USERINFO.match(url)
    return bool(match and match["userinfo"])


def userinfo_and_key_env(url: str | None, api_key_env: str | None) -> str | None:
    """The refusal when ``url`` carries userinfo and ``api_key_env`` names a key too (the URL's
    credentials would silently replace the key); ``None`` when at most one is given."""
    if url and api_key_env and has_userinfo(url):
        return f"{redact_url(url)!r} carries credentials in its URL and names api_key_env {api_key_env!r}: give one"
    return None


def redact_url(url: str) -> str:
    """``url`` with its userinfo replaced by ``***`` and the values of secret query parameters by
    ``***`` (``http://u:p@h/v1?key=s&x=1`` -> ``http://***@h/v1?key=***&x=1``)."""
    out = _USERINFO.sub(lambda m: f"{m['scheme']}***@" if m["userinfo"] else m[0], url, count=1)
    if "?" not in out:
        return out
    head, _, rest = out.partition("?")
    query, hash_mark, fragment = rest.partition("#")
    parts = []
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        if eq and value and name.lower() in SECRET_QUERY_PARAMS:
            pair = f"{name}=***"
        parts.append(pair)
    return f"{head}?{'&'.join(parts)}{hash_mark}{fragment}"


def redact_urls(text: str) -> str:
    """``text`` with every URL in it passed through :func:`redact_url` (other text unchanged)."""
    if "://" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        url = match[0]
        core = url.rstrip(".,;:)]}")  # sentence punctuation after a URL is not part of it
        return redact_url(core) + url[len(core):]

    return _URL.sub(one, text)
