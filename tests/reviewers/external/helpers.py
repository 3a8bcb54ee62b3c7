"""Shared pieces of the external-reviewer tests: one manuscript, its target, a valid review."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.evaluation import Evaluation, Target
from rhetorica.models.call import CallContext

DOC = Document(id="p1", title="Spectral filters", sections=[Section(title="Introduction", text="We prove it.")],
               source=DocumentSource(path="p1.md", parser="test", parser_version="0"))
TARGET = Target(document=DOC, document_id="p1", condition="original", rewriter="original", variant_key=None,
                replicate=0)
#: A valid review on the iclr-2026 form.
ICLR_REVIEW = {"summary": "s", "strengths": ["a"], "weaknesses": ["b"], "questions": [], "overall": 6,
               "soundness": 3, "presentation": 2, "contribution": 3, "confidence": 4}
ICLR_JSON = json.dumps(ICLR_REVIEW)


def evaluate(evaluator, context: CallContext | None = None, target: Target = TARGET) -> Evaluation:
    return asyncio.run(evaluator.evaluate(target, context or CallContext()))


def logged_calls(path: Path) -> list[tuple]:
    """(unit_key, provider, model, status, cache_hit) of every logged call, in order."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT unit_key, provider, model, status, cache_hit FROM model_calls "
                            "ORDER BY call_id").fetchall()
    finally:
        conn.close()
