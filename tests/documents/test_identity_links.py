"""Identity links (issue 11 §3): URLs that identify the authors or their lab become a placeholder;
DOIs, arXiv ids and tool/dataset URLs stay. Rule: ``rhetorica.documents.blinding.Identity``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents import read_document
from rhetorica.documents.blinding import ANON_URL, Identity, scrub_text
from rhetorica.documents.models import RemovedItem

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
