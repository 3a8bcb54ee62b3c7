"""The embedded model as a judge (issue 23.3): the answer schema's ranges reach llama.cpp's grammar, so
SmolLM2-135M answers every REMOR share inside 0..100 and the judgement is ``ok``.

llama-cpp-python's JSON-schema converter ignores ``minimum``/``maximum`` (a TODO in its
``llama_grammar.py``, version 0.3.36) but compiles an ``enum``; the embedded provider turns each
bounded integer range of the schema into that enum (checked below without a model), which is why a
0-1 share is asked as a whole percentage."""

from __future__ import annotations

import asyncio

import pytest

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.evaluation import Target
from rhetorica.judges.judge import judge_factory
from rhetorica.models.call import CallContext

REVIEW = Document(id="r1", kind="review", title="Review 1", source=DocumentSource(path="t", parser="t", parser_version="0"),
                  sections=[Section(title="Review", text="The method is sound. The baselines in Table 2 are outdated; "
                                                          "please add an ablation of the filter order K.")])


def test_every_bounded_integer_of_the_asked_schema_becomes_an_enum() -> None:
    pytest.importorskip("llama_cpp")
    from rhetorica.models.providers.embedded import bounded_schema

    judge = judge_factory("j", model="mock/j", family="remor")
    schema = bounded_schema(judge.calls(Target(REVIEW, "r1", "original", "original", None, 0))[0].schema(), 240, 3)
    assert all(p["enum"] == list(range(101)) for p in schema["properties"].values())


@pytest.mark.embedded
def test_the_embedded_judge_answers_inside_the_declared_ranges() -> None:
    pytest.importorskip("llama_cpp")
    from rhetorica.models.providers.embedded import EmbeddedModel

    judge = judge_factory("j", model=EmbeddedModel(n_threads=1, n_ctx=2048), family="remor")
    result = asyncio.run(judge.evaluate(Target(REVIEW, "r1", "original", "original", None, 0), CallContext()))
    assert result.status == "ok" and result.artefacts == {}, result.reason
    assert set(result.scores) == set(judge.form.metric_names)
    assert all(0 <= v <= 1 and round(v * 100, 6).is_integer() for v in result.scores.values())
