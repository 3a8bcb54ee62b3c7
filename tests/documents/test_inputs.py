"""The reviewer-input builder (issue 24 §1): one blinding for every evaluator input, with its audit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from rhetorica.documents import read_document
from rhetorica.documents.blinding import ANON_EMAIL, ANON_URL, IDENTITY_KEY, Identity
from rhetorica.documents.inputs import (
    ReviewerInput,
    identity_of,
    pdf_input,
    record_input,
    reviewer_input,
    text_input,
    with_identity,
)
from rhetorica.documents.models import Document, DocumentSource, RemovedItem, Section
from rhetorica.documents.pdf.redact import pdf_text
from rhetorica.models.call import CallContext
from rhetorica.reviewers.scicore.core import ScienceCore, core_document

SRC = DocumentSource(path="p.pdf", parser="test", parser_version="0")
AUTHORS = Identity(["Jane Roe"], ["jane.roe@quillfield.edu"], "FooNet: fast graphs")
READ = RemovedItem(item="author block", location="page 1, title block", text="Jane Roe, Quillfield University")


def _doc(text: str, **metadata: object) -> Document:
    return Document(id="p", title="FooNet: fast graphs", source=SRC, removed=[READ], metadata=dict(metadata),
                    sections=[Section(title="Introduction", text=text),
                              Section(title="Acknowledgements", text="We thank the Roe lab.")])


def test_the_builder_blinds_what_no_reader_blinded_and_audits_both() -> None:
    # a rewritten variant put a URL and an email back; the reader's identity is in the metadata
    doc = _doc("Code: https: //github.com/janeroe/foonet. Mail jane.roe@quillfield.edu for data. "
               "Baseline: github.com/pytorch/examples.", **{IDENTITY_KEY: AUTHORS.record()})
    found = reviewer_input(doc)
    assert found.role == "manuscript" and not found.truncated
    assert found.text == (f"# FooNet: fast graphs\n\n## Introduction\n\nCode: {ANON_URL}. Mail {ANON_EMAIL} for data. "
                          "Baseline: github.com/pytorch/examples.\n")
    assert [(r.item, r.text) for r in found.removed] == [
        ("author block", "Jane Roe, Quillfield University"),  # the reader's audit comes first
        ("identity URL", "https: //github.com/janeroe/foonet"),  # then the builder's, in text order
        ("email", "jane.roe@quillfield.edu"),
        ("acknowledgements section", "We thank the Roe lab."),
    ]
    assert found.removed[1].reason == "github.com account of an author"
    cut = reviewer_input(doc, max_words=6)  # "# FooNet: fast graphs ## Introduction" is 6 words
    assert cut.text == "# FooNet: fast graphs\n\n## Introduction\n" and cut.truncated
    # without a recorded identity the account is nobody's; emails still go
    assert ANON_URL not in reviewer_input(_doc("Code: github.com/janeroe/foonet.")).text


@pytest.mark.parametrize("path", ["papers/fma_ismir2017", "papers/gcrn_iclr2017", "pdfs/stable-nalu_iclr2020_main.pdf"])
def test_a_read_document_is_sent_as_read(shared_data: Path, path: str) -> None:
    # blinding twice removes nothing more: the builder sends exactly the reader's Markdown
    doc = read_document(shared_data / path)
    assert doc.metadata[IDENTITY_KEY]["names"]  # the reader kept the authors it found for the builder
    found = reviewer_input(doc)
    assert found.text == doc.to_markdown() and found.removed == doc.removed


def test_a_pdf_reader_gets_a_blinded_copy_of_a_shared_pdf(shared_data: Path, tmp_path: Path) -> None:
    # issue 24: the file a PDF-reading evaluator receives (pypdf, independent of PDFium, reads it)
    source = shared_data / "pdfs" / "stable-nalu_iclr2020_main.pdf"
    doc = read_document(source)
    sent = pdf_input(doc, source, tmp_path)
    reader = PdfReader(sent.path)
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    links = [str(a.get_object().get("/A", {}).get("/URI", "")) for page in reader.pages for a in page.get("/Annots") or []]
    for trace in ("Andreas Madsen", "Alexander Rosenberg Johansen", "amwebdk@gmail.com", "aler@dtu.dk",
                  "Computationally Demanding", "Technical University of Denmark", "github.com/AndreasMadsen"):
        assert trace not in text, trace
        assert not any(trace in link for link in links), trace
    assert "NEURAL ARITHMETIC UNITS" in text
    assert "Exact arithmetic operations of real numbers present a unique learning challenge" in text
    assert "https://github.com/pytorch/ examples/tree/master/mnist" in links  # cited work's link stays
    # its audit: the reader's removals, then what left the PDF: the name run, the code link
    assert sent.sent.removed[: len(doc.removed)] == doc.removed
    runs = [(r.location, r.text) for r in sent.sent.removed if r.item == "PDF text run"]
    assert ("page 1", "Andreas Madsen") in runs and ("page 1", "https://github.com/AndreasMadsen/") in runs
    # the URL is broken across two lines: one link rectangle per line
    assert [(r.location, r.text) for r in sent.sent.removed if r.item == "PDF annotation"] == [
        ("page 1", "https://github.com/AndreasMadsen/stable-nalu")] * 2
    assert sent.sent.text == pdf_text(sent.path)
    # the same source and audit give the same digest and file name (the copy's bytes carry a date)
    again = pdf_input(doc, source, tmp_path)
    assert (again.digest, again.path) == (sent.digest, sent.path)


def test_free_text_and_derived_documents_use_the_manuscripts_identity() -> None:
    doc = _doc("Body.", **{IDENTITY_KEY: AUTHORS.record()})
    feedback = text_input("weaknesses:\n- see https://github.com/janeroe/foonet", doc, "guided feedback")
    assert feedback.text == f"weaknesses:\n- see {ANON_URL}" and feedback.role == "guided feedback"
    assert [r.item for r in feedback.removed] == ["identity URL"]
    core = ScienceCore(problem="Graphs are slow.", claims=["FooNet (github.com/janeroe/foonet) is fast."])
    record = core_document(core, doc)
    assert identity_of(record).names == ["Jane Roe"]
    sent = reviewer_input(record)
    assert sent.role == "science record" and "janeroe" not in sent.text


def test_with_identity_blinds_a_compiled_pdf_with_its_sources_authors() -> None:
    pdf = _doc("Code at https://janeroe.github.io/foonet.")  # the PDF's title block named nobody
    blinded = with_identity(pdf, AUTHORS)
    assert blinded.sections[0].text == f"Code at {ANON_URL}."
    assert blinded.metadata[IDENTITY_KEY] == AUTHORS.record()
    assert [r.item for r in blinded.removed] == ["author block", "identity URL", "acknowledgements section"]
    assert with_identity(pdf, Identity()) is pdf


class _Log:
    def __init__(self) -> None:
        self.kept: list[tuple[str, ReviewerInput]] = []

    def record_input(self, unit_key: str, item: ReviewerInput) -> None:
        self.kept.append((unit_key, item))


def test_inputs_are_recorded_through_the_units_call_context() -> None:
    item = ReviewerInput(role="manuscript", text="x")
    log = _Log()
    assert record_input(CallContext(log=log, unit_key="u1"), item) is item  # type: ignore[arg-type]
    record_input(CallContext(), item)
    record_input(None, item)
    assert log.kept == [("u1", item)]
    assert item.input_hash != ReviewerInput(role="notice", text="x", removed=[READ]).input_hash


def test_a_documents_input_is_built_once_and_rebuilt_when_what_it_depends_on_changes() -> None:
    # every replicate of a review reads the same document: its blinded input is made once
    doc = _doc("Mail jane.roe@quillfield.edu for data.", **{IDENTITY_KEY: AUTHORS.record()})
    fresh = Document.model_validate_json(doc.model_dump_json())
    first = reviewer_input(doc)
    assert reviewer_input(doc) is first
    assert doc == fresh and fresh == doc  # what a document remembers never changes its equality
    assert reviewer_input(doc, max_words=3) is not first and reviewer_input(doc, role="review").role == "review"
    # new sections, another identity, another reader's audit: built again, never the remembered one
    changed = doc.model_copy(update={"sections": [Section(title="Introduction", text="Write to jane.roe@x.org.")]})
    assert reviewer_input(changed).text == f"# FooNet: fast graphs\n\n## Introduction\n\nWrite to {ANON_EMAIL}.\n"
    stranger = _doc("Jane Roe wrote this.", **{IDENTITY_KEY: Identity(["Jane Roe"]).record()})
    assert "[anonymized author] wrote this." in reviewer_input(stranger).text
    assert "Jane Roe wrote this." in reviewer_input(
        stranger.model_copy(update={"metadata": {}})).text  # no identity: the name stays
    doc.removed.append(RemovedItem(item="email", location="page 2", text="x@y.org"))
    assert [r.text for r in reviewer_input(doc).removed][:2] == ["Jane Roe, Quillfield University", "x@y.org"]
    assert first.input_hash == ReviewerInput(**first.model_dump()).input_hash
