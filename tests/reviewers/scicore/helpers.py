"""Shared pieces of the SciCore tests: a small manuscript, a faithful science core of it, reviews."""

from __future__ import annotations

import json

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.evaluation import Target
from rhetorica.models.cache import CallLog
from rhetorica.store.db import Store

DOC = Document(
    id="p1", title="Spectral filters on graphs",
    sections=[
        Section(title="Introduction", text="We propose Chebyshev spectral filters for graph convolutional networks. "
                                           "The filters are strictly localized and their cost is linear in the "
                                           "number of edges."),
        Section(title="Experiments", text="On MNIST, a dataset of 70,000 digits, the graph network reaches 99.14% "
                                          "accuracy against 99.33% for a classical CNN. Training uses mini-batches "
                                          "of size 100 and a dropout rate of .5."),
        Section(title="Limitations", text="The filters are isotropic."),
    ],
    source=DocumentSource(path="p1.md", parser="test", parser_version="0"))
TARGET = Target(document=DOC, document_id="p1", condition="original", rewriter="original", variant_key=None,
                replicate=0)

#: A core faithful to DOC: five numbers, all in the manuscript (70000 = 70,000; 0.5 = .5).
CORE = {
    "problem": "The manuscript addresses convolutional networks on graphs.",
    "claims": ["The manuscript states that the proposed Chebyshev spectral filters are strictly localized.",
               "The manuscript states that the cost of the filters is linear in the number of edges."],
    "formulation": [], "methods": ["The manuscript describes Chebyshev spectral filters."], "assumptions": [],
    "evidence": ["The manuscript compares the graph network with a classical CNN on MNIST."],
    "results": ["The manuscript reports 99.14% accuracy on MNIST (70000 digits) against 99.33% for a classical CNN."],
    "contributions": [],
    "reproducibility": ["The manuscript states mini-batches of size 100 and a dropout rate of 0.5."],
    "limitations": ["The manuscript states that the filters are isotropic."],
}


def core_json(**changes: object) -> str:
    return json.dumps(CORE | changes)


def review_json(overall: int, **changes: object) -> str:
    """A review on the iclr-2026 form."""
    return json.dumps({"summary": "s", "strengths": ["a"], "weaknesses": ["b"], "questions": [], "overall": overall,
                       "soundness": 3, "presentation": 2, "contribution": 3, "confidence": 4} | changes)


def store_log(store: Store) -> CallLog:
    """The store as a call context's log.

    Main after the h-models merge adapts the store with ``models.store_log.StoreCallLog``; this
    branch's base uses the store itself. Drop the fallback once the branches are merged.
    """
    try:
        from rhetorica.models.store_log import StoreCallLog
    except ImportError:
        return store  # type: ignore[return-value]
    return StoreCallLog(store)
