"""URLs that a paper presents as its own code, data or page, recognised by the sentence around them.

A link need not name an author to reveal one: "We release our code at https://github.com/jr7/gnn"
points a reviewer at the authors' account. :func:`own_release` reads the sentence (or footnote) that
holds a URL — from the previous sentence end, or the previous line break followed by a footnote
marker, to the next — as a small grammar:

- **ownership**: first person with an artefact or a release — a first-person possessive before an
  artefact noun within three words ("our code", "our project page", "my implementation"), or a
  first-person subject with a release verb ("we release", "we make ... available", "we open-source",
  "we provide", "we publish", "we share", "we host"); or an impersonal release of an artefact ("code
  is available at", "the implementation is released on", "data and models can be found at",
  "project page"; a bare label such as "Code: URL" is not enough);
- **someone else's work**: a citation marker (``[12]``, ``[3, 4]``, ``(Smith et al., 2020)``,
  "et al."), a third-person possessive before an artefact ("their code"), an agent phrase
  ("released by", "provided by", "implementation of"), or first-person *use* of it ("we use",
  "we adopt", "we build on", "we follow").

A URL is the authors' own when the sentence has a first-person ownership cue (possessive or
release), or an impersonal one right before the URL ("available at URL": so that another URL of the
same sentence, "code at URL1 and https://numpy.org", is not) and no sign of someone else's work. Artefacts: code, source code,
implementation, software, package, library, toolkit, repository, data, dataset, benchmark, corpus,
models, weights, checkpoints, demo, website, web page, project page, homepage, supplementary material,
videos, results, appendix. Measured on generated sentences of both kinds
(``tests/documents/test_own_links.py``).
"""

from __future__ import annotations

import re

_ARTEFACT = (r"(?:source\s+code|code(?:base)?s?|implementations?|software|packages?|librar(?:y|ies)|toolkits?|tools?|"
             r"repositor(?:y|ies)|repos?|data(?:sets?)?|benchmarks?|corpus|corpora|models?|weights|checkpoints?|"
             r"demos?|websites?|web\s*pages?|project\s+(?:page|website|site)s?|home\s*pages?|pages?|"
             r"supplementary(?:\s+materials?)?|videos?|results|appendix|scripts?|experiments)")
_RELEASE = (r"(?:release[sd]?|releasing|make|made|making|open-?source[sd]?|provide[sd]?|providing|publish(?:ed)?|"
            r"share[sd]?|sharing|host(?:s|ed)?|publicly\s+release|put|post(?:ed)?|upload(?:ed)?|distribute[sd]?|"
            r"open|opened)")
_OWN_FIRST = re.compile(
    r"\b(?:our|my)\s+(?:[\w-]+\s+){0,3}?" + _ARTEFACT + r"\b"
    r"|\bwe\s+(?:(?:will|also|have|hereby|further|additionally|publicly|freely|now|then|can)\s+){0,2}"
    + _RELEASE + r"\b", re.IGNORECASE)
_OWN_IMPERSONAL = re.compile(
    r"\b" + _ARTEFACT + r"\b[^.;]{0,60}?\b(?:is|are|will\s+be|has\s+been|have\s+been|can\s+be|may\s+be)\s+"
    r"(?:(?:publicly|freely|openly|also|made|now|all)\s+){0,2}(?:available|released|hosted|accessible|found|"
    r"downloaded|obtained|open-?sourced|provided)\b"
    r"|\b(?:code|source\s+code|implementation)\s+(?:is\s+)?(?:at|on|in)\b"
    r"|\b(?:available|released|hosted|accessible)\s+(?:online\s+)?(?:at|on|from|here|via|through)\b"
    r"|\bproject\s+(?:page|website|site)\b", re.IGNORECASE)
_OTHERS = re.compile(
    r"\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]"
    r"|\(\s*[A-Z][\w'’-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'’-]+)?)?,?\s+\d{4}[a-z]?\s*\)"
    r"|\bet\s+al\b"
    r"|\b(?:their|his|her|its)\s+(?:[\w-]+\s+){0,2}?" + _ARTEFACT + r"\b"
    r"|\b(?:released|provided|maintained|published|developed|implemented|created|written|shared|hosted|made\s+available)"
    r"\s+by\b"
    r"|\b(?:implementation|code|data(?:set)?|models?|weights|checkpoints?|release|version)\s+(?:of|from)\s+"
    r"(?!(?:this|our|the\s+(?:present|proposed))\b)"
    r"|\bwe\s+(?:(?:also|then|further|directly|simply)\s+)?(?:use[sd]?|using|adopt(?:ed)?|employ(?:ed)?|"
    r"borrow(?:ed)?|follow(?:ed)?|rel(?:y|ied)\s+on|buil[dt]\s+(?:on|upon)|took|take|start(?:ed)?\s+from|"
    r"download(?:ed)?|obtain(?:ed)?|re-?implement(?:ed)?|reuse[sd]?|appl(?:y|ied))\b"
    r"|\b(?:publicly\s+available|available)\s+(?:implementation|code|version|release)\s+(?:of|from)\b"
    r"|\bofficial\s+(?:implementation|code|repository|release)\b", re.IGNORECASE)
_BOUNDARY = re.compile(r"[.!?](?=\s+[A-Z(\[])|\n\s*\n|\n(?=\s*(?:\d{1,2}|[*†‡§¶])\s*\S)")
"""A sentence end (before a capital), a paragraph break, or a line break before a footnote marker."""
REACH = 400
"""Characters of a sentence taken on either side of the URL at most."""


_BEFORE_URL = re.compile(r"(?:" + _OWN_IMPERSONAL.pattern + r")[\s:,(\[]*(?:(?:at|on|from|in|via|under|here|online)"
                         r"\b[\s:,(\[]*)?$", re.IGNORECASE)
"""An impersonal ownership cue right before the URL ("code is available at URL", "project page: URL")."""


def _context(text: str, start: int, end: int) -> tuple[str, str]:
    """The sentence or footnote holding ``text[start:end]``: the part before the URL and the part after it."""
    lo = max(0, start - REACH)
    before = None
    for before in _BOUNDARY.finditer(text, lo, start):
        pass
    head = text[before.end() if before is not None else lo:start]
    after = _BOUNDARY.search(text, end, min(len(text), end + REACH))
    tail = text[end:after.start() if after is not None else min(len(text), end + REACH)]
    return " ".join(head.split()), " ".join(tail.split())


def own_release(text: str, start: int, end: int) -> str | None:
    """Why the URL ``text[start:end]`` is the paper's own code, data or page by its sentence, or ``None``.

    Args:
        text: the text holding the URL (Markdown or plain text).
        start: index of the URL's first character.
        end: index after its last character.

    Returns:
        ``presented as the authors' own: '<cue>'`` quoting the ownership cue, or ``None`` when the
        sentence presents no ownership, or presents the URL as someone else's work (module docstring).
    """
    head, tail = _context(text, start, end)
    sentence = f"{head} URL {tail}"
    first = _OWN_FIRST.search(sentence)
    if first is not None:
        return f"presented as the authors' own: {first.group(0)!r}"
    impersonal = _BEFORE_URL.search(head)
    if impersonal is not None and _OTHERS.search(sentence) is None:
        return f"presented as the authors' own: {impersonal.group(0).strip()!r}"
    return None
