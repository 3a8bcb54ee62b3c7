"""What a provider-side prefix cache serves of a repeated prompt (issue 40), by hand."""

from __future__ import annotations

import pytest

from rhetorica.models.pricing import cached_prefix_tokens


@pytest.mark.parametrize(("provider", "tokens", "cached"), [
    ("openai", 1023, 0),        # below the 1,024-token minimum
    ("openai", 1024, 1024),
    ("openai", 1151, 1024),     # 127 past the minimum: no whole step
    ("openai", 1152, 1152),     # one 128-token step
    ("openai", 2000, 1920),     # 1,024 + 7 x 128
    ("anthropic", 2000, 2000),  # explicit breakpoints: the whole marked prompt
    ("anthropic", 900, 0),
    ("google", 5000, 5000),
])
def test_cached_prefix_by_the_providers_rule(provider: str, tokens: int, cached: int) -> None:
    assert cached_prefix_tokens(provider, tokens) == cached
