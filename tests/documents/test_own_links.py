"""The authors' own links by their sentence (issue 35 item 5): generated sentences of both kinds.

Own: first-person release or possession of an artefact, or an impersonal release with no sign of
someone else's work. Others': the same URLs cited as another group's work (citation marker, "et
al.", "their", "released by", "we use ..."). Every URL below names no author, so only the sentence
decides.
"""

from __future__ import annotations

import itertools

import pytest

from rhetorica.documents.blinding import ANON_URL, Identity, scrub_text
from rhetorica.documents.models import RemovedItem
from rhetorica.documents.own_links import own_release

URLS = ["https://github.com/jr7/graphnet", "https://gitlab.com/qx-lab/tool", "https://huggingface.co/zz9/reader-base",
        "https://zenodo.org/record/7712345", "https://sites.google.com/view/proj-x"]
ARTEFACTS = ["code", "implementation", "data set", "models", "source code", "pretrained weights"]
OWN = [
    "We release our {a} at {u}.",
    "Our {a} is available at {u}.",
    "We make the {a} publicly available at {u}.",
    "The {a} will be released at {u} upon acceptance.",
    "All our {a} can be found at {u}.",
    "1 We open-source the {a} at {u}",
]
OTHERS = [
    "Smith et al. released their {a} at {u}.",
    "We use the {a} of [12] at {u}.",
    "We build on the {a} provided by Lee and Kim at {u}.",
    "The {a} from (Garcia, 2019) is available at {u}.",
    "Baselines rely on their {a}, hosted at {u}.",
    "We adopted the {a} of prior work [3, 4] ({u}).",
]


def own_sentences() -> list[str]:
    return [t.format(a=a, u=u) for t, a, u in itertools.product(OWN, ARTEFACTS, URLS)]


def others_sentences() -> list[str]:
    return [t.format(a=a, u=u) for t, a, u in itertools.product(OTHERS, ARTEFACTS, URLS)]


def _url_span(text: str) -> tuple[int, int]:
    url = next(u for u in URLS if u in text)
    start = text.index(url)
    return start, start + len(url)


def test_the_generated_sets_have_their_sizes() -> None:
    assert (len(own_sentences()), len(others_sentences())) == (6 * 6 * 5, 6 * 6 * 5)


def test_every_own_link_is_recognised_and_anonymised() -> None:
    missed = [s for s in own_sentences() if own_release(s, *_url_span(s)) is None]
    assert missed == []
    for sentence in own_sentences()[::7]:
        removed: list[RemovedItem] = []
        out = scrub_text(sentence, Identity(), "section 'Code'", removed)
        assert ANON_URL in out and not any(u in out for u in URLS)
        assert removed[0].reason.startswith("presented as the authors' own: ")


def test_every_link_to_others_work_is_kept() -> None:
    anonymised = [s for s in others_sentences() if own_release(s, *_url_span(s)) is not None]
    assert anonymised == []
    for sentence in others_sentences()[::7]:
        removed: list[RemovedItem] = []
        assert scrub_text(sentence, Identity(), "section 'Code'", removed) == sentence and removed == []


@pytest.mark.parametrize(("text", "own"), [
    # the cue belongs to the URL's own sentence, not to the one before it
    ("We release our code. The MNIST loader of [2] is at https://github.com/zz9/loader.", False),
    ("Experiments use SciPy [4].\nWe release the code at\nhttps://github.com/jr7/graphnet", True),
    ("See the project page https://sites.google.com/view/proj-x for videos.", True),
    ("Code: https://github.com/jr7/graphnet", False),  # a bare label says nothing about whose it is
    # an impersonal cue belongs to the URL right after it, not to another URL of the sentence
    ("Code is available at https://github.com/jr7/graphnet and uses https://numpy.org.", True),
    ("Code is available at [anonymized URL] and uses https://numpy.org.", False),
])
def test_the_sentence_decides(text: str, own: bool) -> None:
    start = text.index("https://")
    end = start + len(text[start:].split()[0].rstrip("."))
    assert (own_release(text, start, end) is not None) is own


def test_references_keep_their_links() -> None:
    text = "[7] J. Smith. Our code is available at https://github.com/jr7/graphnet. 2020."
    assert scrub_text(text, Identity(), "section 'References'", [], cited=True) == text
