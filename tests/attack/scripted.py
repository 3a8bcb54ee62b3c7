"""Scripted models for the attack tests: a reviewer whose score rises with a planted phrase (plus
seeded noise) and a proposer that plants it under the ``presentation`` move."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from rhetorica.marker import TEXT_MARKER
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.providers.mock import MockModel, _digest, fill_schema

PHRASE = "remarkably robust"
SENTENCES = ("The findings are remarkably robust.", "Our results are remarkably robust.",
             "These effects are remarkably robust.", "The gains are remarkably robust.")
NEUTRAL = ("Indeed, this is the setting.", "This is the setting here.", "We keep this setting.",
           "The setting is this one.", "Here the setting holds.")
BASE = 4  # integer: E[round(BASE + k*EFFECT + noise)] = BASE + k*EFFECT for symmetric noise
NOISE_SD = 0.6


def _last_user(messages: list[ChatMessage]) -> str:
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


class PhraseReviewer(MockModel):
    """Review-000 answers whose overall = round(BASE + effect * (count of PHRASE) + N(0, NOISE_SD)),
    clipped to 1-10; the noise is seeded by the messages and the seed (the replicate)."""

    def __init__(self, model: str = "phrase-reviewer", effect: float = 1.0, **kwargs: Any) -> None:
        super().__init__(model=model, **kwargs)
        self.effect = effect

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        assert config.json_schema is not None
        digest = _digest(messages, config.seed)
        answer = fill_schema(config.json_schema, digest)
        count = _last_user(messages).lower().count(PHRASE)
        noise = np.random.default_rng(int.from_bytes(digest[:8], "big")).normal(0.0, NOISE_SD)
        answer["overall"] = int(min(10, max(1, round(BASE + self.effect * count + noise))))
        answer["weaknesses"] = ["the claims are stated without emphasis"]
        return json.dumps(answer)


class Proposer(MockModel):
    """Rewrites a chunk: under the ``presentation`` move appends a sentence holding PHRASE once, under
    any other move a neutral sentence (each chosen by the seed); for a seed in ``bad_seeds`` returns PHRASE forty times (fails the
    integrity checks, would score highest)."""

    def __init__(self, model: str = "proposer", bad_seeds: frozenset[int] = frozenset(), **kwargs: Any) -> None:
        super().__init__(model=model, **kwargs)
        self.bad_seeds = bad_seeds

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        chunk = _last_user(messages).rpartition(TEXT_MARKER)[2].strip()
        if config.seed in self.bad_seeds:
            return " ".join([PHRASE] * 40)
        system = messages[0].content
        seed = config.seed or 0
        added = (SENTENCES[seed % len(SENTENCES)] if "improve the presentation" in system
                 else NEUTRAL[seed % len(NEUTRAL)])
        return f"{chunk} {added}"
