"""The aiohttp request path of the chat-completions providers: URL joining, the proxy read once from
the environment, and no credential in the poster's repr."""

from __future__ import annotations

import pytest
from yarl import URL

from rhetorica.models.providers.json_http import JSONPoster, endpoint_url, env_proxy


@pytest.mark.parametrize(("base", "joined"), [
    ("http://h:9/v1", "http://h:9/v1/chat/completions"),
    ("http://h:9/v1/", "http://h:9/v1/chat/completions"),
    ("http://u:pw@h:9/v1?key=k&alt=json", "http://u:pw@h:9/v1/chat/completions?key=k&alt=json"),
])
def test_endpoint_url_appends_the_path_and_keeps_query_and_userinfo(base: str, joined: str) -> None:
    assert str(endpoint_url(base, "chat/completions")) == joined


def test_env_proxy_follows_the_proxy_variables_and_no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "all_proxy",
                 "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert env_proxy(URL("https://api.example.org/v1")) is None
    monkeypatch.setenv("https_proxy", "http://proxy.local:3128")
    monkeypatch.setenv("no_proxy", "internal.example.org")
    assert env_proxy(URL("https://api.example.org/v1")) == "http://proxy.local:3128"
    assert env_proxy(URL("https://internal.example.org/v1")) is None
    assert env_proxy(URL("http://api.example.org/v1")) is None  # no http_proxy set


def test_the_poster_repr_shows_no_url() -> None:
    poster = JSONPoster(URL("http://u:pw-secret@h:9/v1/chat/completions?key=k-secret"))
    assert "secret" not in repr(poster) and "secret" not in str(poster)
