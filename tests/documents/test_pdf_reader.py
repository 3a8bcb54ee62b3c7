"""PDF reader on the real PDFs in ../shared/data/pdfs (default backend: pdfium)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents import read_document


@pytest.fixture(scope="module")
def acl(pdfs_dir: Path):
    return read_document(pdfs_dir / "2020.acl-main.447.pdf")


@pytest.fixture(scope="module")
def nalu(pdfs_dir: Path):
    return read_document(pdfs_dir / "stable-nalu_iclr2020_main.pdf")


@pytest.fixture(scope="module")
def scipy_pdf(pdfs_dir: Path):
    return read_document(pdfs_dir / "scipy-1.0_paper.pdf")


def test_acl_two_column_sections_and_blinding(acl) -> None:
    assert acl.id == "2020.acl-main.447"
    assert acl.title == "S2ORC: The Semantic Scholar Open Research Corpus"
    assert [s.title for s in acl.sections if s.level == 1] == [
        "Abstract", "Introduction", "Constructing the corpus", "The S2ORC dataset", "Evaluation",
        "Pretraining BERT on S2ORC", "Applications of S2ORC", "Related work", "Conclusion",
    ]
    assert ("Processing PDFs", 2) in [(s.title, s.level) for s in acl.sections]
    assert acl.sections[0].text.startswith(
        "We introduce S2ORC,^1 a large corpus of 81.1M English-language academic papers spanning many "
        "academic disciplines."
    )
    markdown = acl.to_markdown()
    for identity in ["Kyle Lo", "Lucy Lu Wang", "Daniel S. Weld", "allenai.org", "Allen Institute",
                     "University of Washington", "github.com/allenai", "Proceedings of the 58th"]:
        assert identity not in markdown, identity
    assert acl.metadata["two_column_pages"] >= 12 and acl.metadata["cut_at"] == "References"
    assert acl.venue == "ACL 2020"
    # acknowledgements (before the references) removed with an audit entry; appendix cut
    assert "ONR grant" not in markdown and "PDF filters" not in markdown
    items = {r.item for r in acl.removed}
    assert {"author block", "venue note", "page number", "acknowledgements section", "identity URL"} <= items
    page_numbers = next(r for r in acl.removed if r.item == "page number")
    assert page_numbers.location == "pages 1-15"
    assert page_numbers.text == ", ".join(str(n) for n in range(4969, 4984))
    assert acl.source.parser == "rhetorica-pdf/pdfium" and acl.source.parser_version.startswith("pypdfium2 ")
    assert len(acl.source.text_hash or "") == 32


def test_acl_known_paragraphs_in_reading_order(acl) -> None:
    text = "\n\n".join(s.text for s in acl.sections)
    paragraph = (
        "In this paper, we describe the construction of S2ORC (§2). We provide summary statistics of "
        "the corpus (§3) and evaluate the data quality (§4). We then evaluate a BERT model pretrained "
        "on S2ORC (§5), and discuss potential applications to a variety of NLP and analysis tasks over "
        "academic text (§6). Finally, we compare S2ORC with other publicly-available academic text "
        "corpora (§7)."
    )
    assert paragraph in text.split("\n\n")
    # left column of page 1, then the right column, then page 2
    anchors = [
        "Different types of resources have been used to support research over academic papers.",
        "PubMed Central,^3 CiteSeerX (Giles et al., 1998),^4 and the ACL Anthology",
        "Yet, existing corpora are not without their limitations.",
        paragraph,
    ]
    positions = [text.index(a) for a in anchors]
    assert positions == sorted(positions)
    assert "Figure 1: Inline citations and references to figures and tables are annotated in S2ORC’s " \
           "structured full text." in text


def test_nalu_pdf_facts(nalu) -> None:
    assert nalu.title == "NEURAL ARITHMETIC UNITS"
    markdown = nalu.to_markdown()
    assert nalu.sections[0].title == "Abstract"
    assert nalu.sections[0].text.startswith(
        "Exact arithmetic operations of real numbers present a unique learning challenge for machine "
        "learning models."
    )
    for identity in ["Andreas Madsen", "Alexander Rosenberg Johansen", "amwebdk@gmail.com", "aler@dtu.dk",
                     "Technical University of Denmark", "Computationally Demanding",
                     "github.com/AndreasMadsen", "Published as a conference paper"]:
        assert identity not in markdown, identity
    assert ("identity URL", "https://github.com/AndreasMadsen/stable-nalu") in {(r.item, r.text) for r in nalu.removed}
    venue = next(r for r in nalu.removed if r.item == "venue note")
    assert (venue.location, venue.text) == ("pages 1-30", "Published as a conference paper at ICLR 2020")
    assert nalu.venue == "ICLR 2020"
    # no References heading (the bibliography did not compile): the lettered appendix is cut
    assert nalu.metadata["cut_at"] == "appendix 'Gradient derivatives'"
    assert "Figure 1: Visualization of NMU for a single output scalar z_1, this construction repeats for " \
           "every element in the output vector z." in markdown
    # an equation of section 2.6 kept inline at its position, its subscripts (nested ones too) marked
    assert "NMU : z_{h_l} = " in markdown and "( W_{h_{l−1},h_l} z_{h_{l−1}} + 1 − W_{h_{l−1},h_l} ) (12)" in markdown
    assert "Table 1: Shows the success-rate, when the model converged, and the sparsity error for all " \
           "weight matrices, with 95% confidence interval." in markdown


def test_scipy_pdf_sections_match_latex(scipy_pdf) -> None:
    assert [s.title for s in scipy_pdf.sections if s.level == 1] == [
        "Abstract", "Introduction", "Background", "Architecture and implementation choices",
        "Key technical improvements", "Project organization and community", "Discussion", "Data Availability",
    ]
    assert ("SciPy Begins", 2) in [(s.title, s.level) for s in scipy_pdf.sections]
    markdown = scipy_pdf.to_markdown()
    for identity in ["Matt Haberland", "Tyler Reddy", "Quansight", "scipy.articles@gmail.com", "3/22"]:
        assert identity not in markdown, identity
