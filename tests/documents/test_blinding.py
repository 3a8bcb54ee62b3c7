"""find_urls on texts with and without a URL, including letters that re.IGNORECASE folds to ASCII."""

from __future__ import annotations

import pytest

from rhetorica.documents.blinding import find_urls


@pytest.mark.parametrize(("text", "spans"), [
    ("plain text only, no address at all.", []),
    ("HTTPS://Example.org/x.", [(0, 21)]),  # any case; the sentence's full stop left out
    ("docs at WWW.EXAMPLE.COM/A", [(8, 25)]),
    ("see ſ www.example.org", [(6, 21)]),  # a long s elsewhere in the text
    # the regex matches case-insensitively: dotless i and the Kelvin sign count as i and k
    ("code at g\u0131thub.com/a/b now", [(8, 22)]),
    ("at bitbuc\u212aet.org/a/b", [(3, 20)]),
    ("pages at user.GitHub.io/site", [(9, 28)]),
])
def test_find_urls_spans(text: str, spans: list[tuple[int, int]]) -> None:
    assert find_urls(text) == spans
