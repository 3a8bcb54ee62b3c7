"""The mock provider's answer seed: SHA-256 of the messages' JSON (json.dumps is the oracle)."""

from __future__ import annotations

import hashlib
import json

import pytest

from rhetorica.models.api import ChatMessage
from rhetorica.models.providers.mock import _digest


@pytest.mark.parametrize("messages", [
    [],
    [ChatMessage(role="user", content="x")],
    [ChatMessage(role="system", content='quote " backslash \\ é \u2028 tab\t'),
     ChatMessage(role="user", content="# Paper\n\n" + "word " * 2000)],
])
@pytest.mark.parametrize("seed", [None, 0, 7])
def test_digest_is_the_sha256_of_the_messages_json_and_seed(messages: list[ChatMessage], seed: int | None) -> None:
    payload = json.dumps([m.model_dump() for m in messages], sort_keys=True) + f"|{seed}"
    expected = hashlib.sha256(payload.encode()).digest()
    assert _digest(messages, seed) == expected
    assert _digest(messages, seed) == expected  # again, from the remembered message JSON
