"""The science core: a structured, attributed record of what a manuscript says (STUDIES.md §4).

SciCore's second branch reviews this record instead of the manuscript (issue 15 §3). The record
separates the science from its presentation: each field holds short statements in objective
third-person language that attribute their content to the manuscript ("The manuscript states
…", "The manuscript reports …"), so that the record carries no confidence, novelty or hedging of
its own.

Fields (each a list of short statements, ``problem`` one paragraph):

- ``problem``: the question or task the manuscript addresses and why it matters, as stated.
- ``claims``: the manuscript's central claims, one per item.
- ``formulation``: the formal set-up, definitions, objectives and the steps of any derivation
  or proof, as given.
- ``methods``: the proposed method and the experimental procedure.
- ``assumptions``: assumptions the method, theory or experiments rely on (stated ones; implicit
  ones only where the manuscript's text shows them).
- ``evidence``: what is offered in support of each claim (experiments, proofs, ablations,
  comparisons, analyses), with the data sets and baselines named.
- ``results``: the reported results with their numbers exactly as written in the manuscript.
- ``contributions``: the contributions the manuscript lists for itself.
- ``reproducibility``: details needed to reproduce the work (data, code, hyper-parameters,
  compute, seeds) as stated, and what the manuscript says is not provided.
- ``limitations``: limitations the manuscript acknowledges.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from rhetorica.documents.inputs import identity_metadata
from rhetorica.documents.models import Document, DocumentSource, Section

#: Longest statement accepted in any field (characters).
STATEMENT_CHARS = 1500
#: Most statements accepted in one list field.
STATEMENTS_PER_FIELD = 25

Statement = Annotated[str, StringConstraints(max_length=STATEMENT_CHARS)]
Statements = Annotated[list[Statement], Field(max_length=STATEMENTS_PER_FIELD)]


class ScienceCore(BaseModel):
    """One manuscript's science core (see the module docstring for each field).

    Raises:
        pydantic.ValidationError: a missing ``problem``, an unknown key, a statement that is not a
            string, longer than :data:`STATEMENT_CHARS` or a list longer than
            :data:`STATEMENTS_PER_FIELD`.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    problem: str = Field(min_length=1, max_length=STATEMENT_CHARS * 2)
    claims: Annotated[Statements, Field(min_length=1)]
    formulation: Statements = []
    methods: Statements = []
    assumptions: Statements = []
    evidence: Statements = []
    results: Statements = []
    contributions: Statements = []
    reproducibility: Statements = []
    limitations: Statements = []

    def statements(self) -> list[tuple[str, str]]:
        """Every statement as ``(location, text)``: ``("problem", …)``, ``("claims[0]", …)`` …"""
        out = [("problem", self.problem)]
        for name in LIST_FIELDS:
            out.extend((f"{name}[{i}]", text) for i, text in enumerate(getattr(self, name)))
        return out


#: Every field in record order with its heading in the rendered record; ``LIST_FIELDS`` are all but ``problem``.
HEADINGS: dict[str, str] = {
    "problem": "Problem",
    "claims": "Claims",
    "formulation": "Formulation and derivations",
    "methods": "Methods",
    "assumptions": "Assumptions",
    "evidence": "Evidence",
    "results": "Results",
    "contributions": "Stated contributions",
    "reproducibility": "Reproducibility details",
    "limitations": "Limitations",
}
LIST_FIELDS: tuple[str, ...] = tuple(HEADINGS)[1:]


def core_schema() -> dict[str, Any]:
    """JSON schema of a :class:`ScienceCore` answer (sent as the structured-output schema).

    Every field is required in the schema (an empty list says "the manuscript states none"), so
    grammar-constrained decoders produce all of them. String lengths are checked on the answer
    (:class:`ScienceCore`), not declared here: a ``maxLength`` of this size makes llama.cpp's
    JSON-schema grammar fail to build.
    """
    text = {"type": "string"}
    properties: dict[str, Any] = {"problem": {"type": "string"}}
    for name in LIST_FIELDS:
        properties[name] = {"type": "array", "items": text, "maxItems": STATEMENTS_PER_FIELD}
    properties["claims"]["minItems"] = 1
    return {"title": "science-core", "type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


def core_document(core: ScienceCore, manuscript: Document) -> Document:
    """The record as a :class:`Document` a reviewer reads: one section per non-empty field.

    The title says it is a science record of the manuscript's title; list fields become Markdown
    bullet lists (no numbering: the rendering adds no digits of its own). The document keeps the
    manuscript's id and source, with ``metadata["science_record_of"]`` = the manuscript's content
    hash.
    """
    sections = [Section(title=HEADINGS["problem"], text=core.problem.strip())]
    for name in LIST_FIELDS:
        items = [s.strip() for s in getattr(core, name) if s.strip()]
        if items:
            sections.append(Section(title=HEADINGS[name], text="\n".join(f"- {s}" for s in items)))
    title = f"Science record: {manuscript.title}" if manuscript.title else "Science record"
    source = DocumentSource(path=manuscript.source.path, parser="scicore-record", parser_version="1")
    return Document(id=manuscript.id, title=title, sections=sections, source=source,
                    metadata={"science_record_of": manuscript.content_hash, **identity_metadata(manuscript)})
