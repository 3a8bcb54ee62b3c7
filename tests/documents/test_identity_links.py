"""Identity links (issue 11 §3): URLs that identify the authors or their lab become a placeholder;
DOIs, arXiv ids and tool/dataset URLs stay. Rule: ``rhetorica.documents.blinding.Identity``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents import read_document
from rhetorica.documents.blinding import ANON_URL, Identity, blind_sections, scrub_text
from rhetorica.documents.models import RemovedItem, Section

IDENTITY = Identity(["Jane Roe", "Michaël Defferrard"], ["jane.roe@cs.quillfield.edu", "mdeff@epfl.ch"], "SciPy 1.0: a library")


@pytest.mark.parametrize(("url", "identifies"), [
    ("https://github.com/janeroe", True),                      # user page: surname in the account
    ("https://github.com/mdeff/cnn_graph", True),              # repository of an email account
    ("https://github.com/quillfield-ml/tools", True),          # lab org named like the email domain
    ("https://gitlab.com/epfl-lts2/pygsp", True),
    ("https://github.com/somebody/scipy", True),               # the paper's own project
    ("https://jroe.github.io/blog", True),                     # initial + surname
    ("https://github.com/jdoe", False),                        # somebody else
    ("https://janeroe.github.io", True),
    ("https://people.quillfield.edu/~jane.roe/", True),        # homepage with the surname
    ("https://www.quillfield.edu/people/roe-jane", False),     # 'roe' too short to be sure
    ("https://people.epfl.ch/michael.defferrard", True),       # institutional page naming an author
    ("https://doi.org/10.1145/3292500.3330701", False),        # DOI of cited work
    ("https://arxiv.org/abs/1606.09375", False),               # arXiv id of cited work
    ("https://github.com/pytorch/examples", False),            # a tool
    ("http://calab1.ucsd.edu/~datasets/cal500/", False),       # a data set
])
def test_identity_rule(url: str, identifies: bool) -> None:
    assert IDENTITY.is_identity_url(url) is identifies


def test_names_in_the_body_are_blinded_and_audited() -> None:
    removed: list[RemovedItem] = []
    text = ("Jane Roe, Michaël Defferrard. 2026. A paper. In Proc. X.\n\n"
            "As shown by Roe et al., this works. Jane Roe wrote the code at https://github.com/janeroe/x.")
    out = scrub_text(text, IDENTITY, "section 'A'", removed)
    assert out == f"As shown by Roe et al., this works. [anonymized author] wrote the code at {ANON_URL}."
    assert [(r.item, r.text) for r in removed] == [
        ("author list", "Jane Roe, Michaël Defferrard. 2026. A paper. In Proc. X."),
        ("author name", "Jane Roe"),
        ("identity URL", "https://github.com/janeroe/x"),
    ]


@pytest.mark.parametrize(("path", "anonymized", "kept"), [
    ("papers/fma_ismir2017", {"https://github.com/mdeff/fma"}, {"http://tagatune.org/"}),
    ("papers/scipy-1.0", {"https://github.com/scipy"}, set()),
    ("papers/stable-nalu_iclr2020", {"https://github.com/AndreasMadsen/stable-nalu"},
     {"https://github.com/pytorch/examples/tree/master/mnist"}),
    ("pdfs/scipy-1.0_paper.pdf", {"https://github.com/scipy"}, set()),
    ("pdfs/stable-nalu_iclr2020_main.pdf", {"https://github.com/AndreasMadsen/stable-nalu"},
     {"https://github.com/pytorch/examples/tree/master/mnist"}),
    ("pdfs/2020.acl-main.447.pdf",
     {"https://github.com/allenai/s2orc/", "https://github.com/allenai/scienceparse", "https://github.com/allenai/scibert"},
     {"https://github.com/kermitt2/grobid", "https://github.com/google-research/bert", "https://arxiv.org"}),
])
def test_shared_projects(shared_data: Path, path: str, anonymized: set[str], kept: set[str]) -> None:
    doc = read_document(shared_data / path)
    markdown = doc.to_markdown()
    assert {r.text for r in doc.removed if r.item == "identity URL"} >= anonymized
    for url in anonymized:
        assert url not in markdown
    for url in kept:
        assert url in markdown


# Issue 24 §3: identity links as a PDF prints them. Each row: the text, what must go (exact audit
# text), and the text after blinding (written by hand).
@pytest.mark.parametrize(("text", "gone", "after"), [
    # a scheme broken by a line end ("https:" at the end of a line, "//github..." on the next)
    ("Code at https: //github.com/janeroe/tool. Next.", "https: //github.com/janeroe/tool",
     f"Code at {ANON_URL}. Next."),
    ("Code at https://\ngithub.com/janeroe/tool.", "https://\ngithub.com/janeroe/tool", f"Code at {ANON_URL}."),
    # hyphenated across a line, then joined by the PDF reader with a space
    ("See github.com/md-\neff/gcrn for code.", "github.com/md-\neff/gcrn", f"See {ANON_URL} for code."),
    ("See github.com/md- eff/gcrn for code.", "github.com/md- eff/gcrn", f"See {ANON_URL} for code."),
    # split mid-word with no hyphen: joined only because the joined account is an author's
    ("See https://github.com/md\neff/gcrn here.", "https://github.com/md\neff/gcrn", f"See {ANON_URL} here."),
    # continued after a slash on the next line
    ("See https://github.com/mdeff/\ncnn_graph.", "https://github.com/mdeff/\ncnn_graph", f"See {ANON_URL}."),
    # no scheme
    ("Code: github.com/quillfield-ml/tools and more.", "github.com/quillfield-ml/tools", f"Code: {ANON_URL} and more."),
    # the paper's project page (title "SciPy 1.0: a library")
    ("Docs at scipy.github.io/devdocs.", "scipy.github.io/devdocs", f"Docs at {ANON_URL}."),
])
def test_identity_links_as_printed(text: str, gone: str, after: str) -> None:
    removed: list[RemovedItem] = []
    assert scrub_text(text, IDENTITY, "section 'A'", removed) == after
    assert [(r.item, r.text) for r in removed] == [("identity URL", gone)]
    assert removed[0].reason is not None


@pytest.mark.parametrize("text", [
    "A tool: github.com/pytorch/examples and https: //github.com/jdoe/x.",     # somebody else's
    "The word github.com/md eff/x is not joined: md+eff is Defferrard's but 'md' alone is no account",
    "Cited: https://doi.org/10.1145/3292500.3330701 [4] and arXiv:1606.09375 (Defferrard et al., 2016).",
    "Data at http://calab1.ucsd.edu/~datasets/cal500/ and https://some-lab.github.io/bench.",
])
def test_cited_work_and_others_links_stay(text: str) -> None:
    removed: list[RemovedItem] = []
    out = scrub_text(text, IDENTITY, "section 'A'", removed)
    if "md eff" in text:  # joined: the joined account is an author's
        assert [r.text for r in removed] == ["github.com/md eff/x"]
        return
    assert (out, removed) == (text, [])


ACM_BLOCK = ("Permission to make digital or hard copies of all or part of this work for personal or classroom use is "
             "granted without fee. CHI '23, April 23-28, 2023, Hamburg, Germany. © 2023 Copyright held by the "
             "owner/author(s). ACM ISBN 978-1-4503-9421-5/23/04. https://doi.org/10.1145/3544548.3581234")


def test_own_doi_isbn_and_arxiv_id_go_cited_ones_stay() -> None:
    removed: list[RemovedItem] = []
    text = (f"{ACM_BLOCK}\n\narXiv:2106.01234v2 [cs.LG] 12 Jun 2021\n\nWe build on prior work "
            "(https://doi.org/10.1145/3292500.3330701) and our earlier report 10.5555/own.2020.1.")
    own = Identity(["Jane Roe"], [], "", ["10.5555/own.2020.1"])
    out = scrub_text(text, own, "section 'A'", removed)
    assert out == (ACM_BLOCK.replace("978-1-4503-9421-5/23/04", "[anonymized identifier]")
                   .replace("https://doi.org/10.1145/3544548.3581234", ANON_URL)
                   + "\n\n[anonymized identifier]\n\nWe build on prior work "
                   "(https://doi.org/10.1145/3292500.3330701) and our earlier report [anonymized identifier].")
    assert [(r.item, r.text) for r in removed] == [
        ("own arXiv id", "arXiv:2106.01234v2 [cs.LG] 12 Jun 2021"),
        ("own DOI", "https://doi.org/10.1145/3544548.3581234"),
        ("own ISBN", "978-1-4503-9421-5/23/04"),
        ("own DOI", "10.5555/own.2020.1"),
    ]


def test_the_references_keep_identifiers_and_blinding_twice_removes_nothing_more() -> None:
    sections = [Section(title="Introduction", text=f"{ACM_BLOCK}\n\nCode: https: //github.com/janeroe/x."),
                Section(title="References", text="[1] J. Doe. A paper. https://doi.org/10.1145/3544548.3581234. "
                                                 "ISBN 978-1-4503-9421-5. arXiv:2106.01234v2 [cs.LG] 12 Jun 2021")]
    removed: list[RemovedItem] = []
    once = blind_sections(sections, IDENTITY, removed)
    assert once[1] == sections[1]  # cited work: the own-identifier rules are off in the references
    assert [r.item for r in removed] == ["identity URL", "own DOI", "own ISBN"]
    again: list[RemovedItem] = []
    assert blind_sections(once, IDENTITY, again) == once and again == []


def test_identity_record_round_trip() -> None:
    record = IDENTITY.record()
    assert record == {"names": ["Jane Roe", "Michaël Defferrard"], "emails": ["jane.roe@cs.quillfield.edu", "mdeff@epfl.ch"],
                      "title": "SciPy 1.0: a library"}
    back = Identity.from_record(record)
    assert (back.names, back.emails, back.title, back.projects) == (IDENTITY.names, IDENTITY.emails, IDENTITY.title,
                                                                    IDENTITY.projects)
    assert not Identity.from_record(None) and not Identity.from_record({"names": "not a list"})
    merged = Identity(["Jane Roe"]).merged(Identity(["Jane Roe", "Ann Lee"], ["a@b.org"], "T", ["10.1/x.y"]))
    assert merged.record() == {"names": ["Jane Roe", "Ann Lee"], "emails": ["a@b.org"], "title": "T",
                               "own_ids": ["10.1/x.y"]}


def test_an_unseen_pdfs_footnote_releasing_the_authors_code_is_anonymised(tmp_path: Path) -> None:
    # issue 35 item 5: the handle 'jr7' names no author, only the footnote's sentence says whose it is
    from tests.documents.pdf_factory import write_pdf

    body = ["We study message passing on sparse graphs and report results on four benchmarks.",
            "Our method improves accuracy over the strongest baseline on every task we tried.",
            "The baselines follow the implementation of [12] at https://github.com/pyg-team/pytorch_geometric."]
    page = [(150, 740, 18, True, "Sparse Message Passing"), (200, 715, 11, False, "Jane Roe and Michael Moe"),
            (72, 680, 12, True, "1 Introduction")]
    page += [(72, 660 - 12 * k, 10, False, line) for k, line in enumerate(body * 4)]
    page += [(72, 90, 8, False, "1 The code and trained models are released at https://github.com/jr7/sparse-mp.")]
    doc = read_document(write_pdf(tmp_path / "unseen.pdf", [page]))
    markdown = doc.to_markdown()
    assert "github.com/jr7" not in markdown and ANON_URL in markdown
    assert "https://github.com/pyg-team/pytorch_geometric" in markdown  # cited work stays
    (own,) = [r for r in doc.removed if "jr7" in r.text]
    assert own.reason is not None and own.reason.startswith("presented as the authors' own: ")
