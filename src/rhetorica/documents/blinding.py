"""Blinding helpers shared by the readers: identity URLs, emails, author names, acknowledgements.

Removals are recorded as :class:`~rhetorica.documents.models.RemovedItem` (item kind, location,
exact text) so a user can audit them. The policy follows the double-blind instructions of ML venues
(e.g. ICLR/NeurIPS author guides: no names, affiliations, acknowledgements or links that reveal
identity) as summarised in ``/work/shared/STUDIES.md``.

Identity-link rule (issue 11 §3). A URL becomes ``[anonymized URL]`` when it identifies the authors
or their lab:

- a code-host page (GitHub, GitLab, Bitbucket, Hugging Face, SourceForge, Codeberg; Twitter/X,
  LinkedIn, Google Scholar profiles) whose account is an author's (surname in it, an email user
  name, initial + surname prefix such as ``mdeff``), the lab's (named like an author email domain:
  ``github.com/allenai`` for ``@allenai.org``), or the paper's own project (named in the title:
  ``github.com/scipy/scipy`` for "SciPy 1.0 ..."), repositories under it included;
- ``user.github.io``-style pages and ``~user`` homepages of an author;
- any other page whose host or path names an author (``people.epfl.ch/michael.defferrard``);
- links in the title block and author footnotes go with them (PDF reader);
- outside the references, any URL that its sentence or footnote presents as the paper's own code,
  data or page ("we release our code at ...", "code is available at ..."), named author or not,
  and not as someone else's work ("the implementation of [12] at ...")
  (:func:`rhetorica.documents.own_links.own_release`).

- a project page ``<name>.github.io`` named like the paper's project (``s2orc.github.io``).

URLs are found as printed, not only as typed (issue 24 §3): a scheme broken by a line end
(``https: //github.com/x``), a URL continued on the next line after ``/``, ``-``, ``_``, ``~``,
``=``, ``?``, ``&`` or ``#`` (``github.com/ab-\ncd``, ``github.com/org/\nrepo``), a code-host or
pages URL without a scheme (``github.com/org/repo``, ``name.github.io``), and a URL split mid-word
(``github.com/md\neff``: the next word is joined when only the joined URL identifies an author).

The paper's own identifiers are removed outside the references: DOIs and ISBNs in a publisher's
permission or reference-format block (ACM's "Permission to make digital or hard copies ...",
"ACM ISBN ...", "ACM Reference Format"), arXiv's margin stamp (``arXiv:2106.01234v2 [cs.LG]
12 Jun 2021``), and every identifier the reader knows to be the paper's own
(:attr:`Identity.own_ids`, e.g. LaTeX ``\acmDOI``/``\acmISBN``). Cited work's links stay: DOIs,
arXiv ids and tool or data-set URLs that name no author and that their sentence does not present as
the paper's own, in the body and in the references (the own-identifier and own-release rules never
apply in a references or bibliography section). Emails always
become ``[anonymized email]``. Author names written in full in the body become
``[anonymized author]``; a short paragraph naming two authors (ACM's reference block) is removed.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from rhetorica.documents.models import RemovedItem, Section
from rhetorica.documents.own_links import own_release

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{[\w.,\s+-]+\}@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(r"(?:https?://|www\.)[^\s)\]}>\"',]+[^\s)\]}>\"',.;:]")
_HOSTS = r"github\.com|gitlab\.com|bitbucket\.org|huggingface\.co|sourceforge\.net|codeberg\.org"
#: Where a URL starts as printed: a scheme (spaces around ``:`` and ``//`` from a line break allowed),
#: ``www.``, a code host or a pages host without a scheme.
_URL_START = re.compile(
    r"(?<![A-Za-z_@./:-])(?:https?[ \t]*\n?[ \t]*:[ \t]*\n?[ \t]*/[ \t]*\n?[ \t]*/|www\.|(?=(?:" + _HOSTS + r")/\w)"
    r"|(?=[\w-]+\.(?:github|gitlab)\.io\b))",
    re.I,
)
#: Lower-case text every match of :data:`_URL_START` contains (a scheme, ``www.``, a host name), and
#: the only characters outside ASCII that ``re.IGNORECASE`` takes for an ASCII letter (İ ı ſ and the
#: Kelvin sign): a text with none of either has no URL, and the regex need not walk it.
_URL_KEYS = ("http", "www.", "github", "gitlab", "bitbucket.org", "huggingface.co", "sourceforge.net", "codeberg.org")
_ASCII_LOOKALIKES = ("\u0130", "\u0131", "\u017f", "\u212a")
_URL_CHARS = re.compile(r"[^\s)\]}>\"',]+")
_BREAK = re.compile(r"[ \t]*\n?[ \t]*")
#: A URL printed on two lines goes on after one of these characters at a line end.
_CONTINUES = "/-_~=?&#"
_TRAILING = ".,;:"
_FRAGMENT = re.compile(r"[\w][\w./~-]*")

CODE_HOSTS = re.compile(
    r"^(?:https?://)?(?:www\.)?(github\.com|gitlab\.com|bitbucket\.org|huggingface\.co|"
    r"sourceforge\.net|codeberg\.org|twitter\.com|x\.com|linkedin\.com/in|scholar\.google\.[a-z.]+)"
    r"/+([^/\s?#]+)",
    re.I,
)
PAGES_HOST = re.compile(r"^(?:https?://)?([\w-]+)\.(github\.io|gitlab\.io|netlify\.app|bitbucket\.io)", re.I)
TILDE_HOME = re.compile(r"/~([\w.-]+)")
ACK_TITLE = re.compile(
    r"^(acknowledge?ments?|acknowledge?ment|acknowledgments?|funding|author contributions?"
    r"( statement)?|competing interests?|conflicts? of interests?|declaration of competing interest)"
    r"\b",
    re.I,
)
ANON_URL = "[anonymized URL]"
ANON_EMAIL = "[anonymized email]"
ANON_ID = "[anonymized identifier]"
#: ``Document.metadata`` key of the authors a reader found (:meth:`Identity.record`), read by the
#: reviewer-input builder (:mod:`rhetorica.documents.inputs`).
IDENTITY_KEY = "identity"
#: A references or bibliography section: cited work, where the own-identifier rules never apply.
REFERENCES_TITLE = re.compile(r"^(?:\d+\.?\s*)?(references|bibliography|works cited|literature cited)\b", re.I)
#: A paragraph of a publisher's permission / reference-format block: its DOIs and ISBNs are the paper's own.
_PERMISSION = re.compile(
    r"permission to make digital or hard copies|ACM ISBN|ACM Reference Format|copyright held by the owner"
    r"|publication rights licensed to|\bACM acknowledges that", re.I)
_DOI = re.compile(r"(?:https?://(?:dx\.)?doi\.org/|\bdoi:\s*|\b)(10\.\d{4,9}/[^\s,;\]}>\"']*[^\s,;.\]}>\"')])", re.I)
_ISBN = re.compile(r"\b(?:ISBN(?:-1[03])?:?\s*)((?:97[89][\s-]?)?\d{1,5}[\s-]?\d{1,7}[\s-]?\d{1,7}[\s-]?[\dX](?:/\d+/\d+)?)", re.I)
_ARXIV_STAMP = re.compile(r"\barXiv:\s?(\d{4}\.\d{4,5})(?:v\d+)?\s*\[[\w.-]+\]\s*\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4}")


@functools.lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Lowercase ASCII letters only (accents removed): ``"Michaël D."`` -> ``"michaeld"``.
    Remembered (names and words are folded again for every text a document's blinding reads)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return _NOT_ASCII_ALNUM.sub("", decomposed.encode("ascii", "ignore").decode().lower())


_NOT_ASCII_ALNUM = re.compile(r"[^a-z0-9]")


_MAIL_PROVIDERS = {"gmail", "googlemail", "outlook", "hotmail", "yahoo", "icloud", "protonmail", "proton", "qq", "live", "mail", "gmx", "aol"}
_SECOND_LEVEL = {"ac", "co", "edu", "com", "org", "gov", "net", "uni"}


def _organisation(domain: str) -> str:
    """The organisation label of an email domain (``cs.stanford.edu`` -> ``stanford``), or ``""``
    for webmail providers."""
    labels = [fold(x) for x in domain.strip().lower().split(".") if x]
    if len(labels) < 2:
        return ""
    org = labels[-2]
    if org in _SECOND_LEVEL and len(labels) >= 3:
        org = labels[-3]
    return "" if org in _MAIL_PROVIDERS or len(org) < 3 else org


class Identity:
    """Names and email accounts of a paper's authors, used to spot identity-carrying URLs.

    An account is an author's when it contains an author's surname, matches an email user name,
    is initial + surname prefix (``mdeff``), or is the organisation of an author email domain
    (``github.com/allenai`` for ``@allenai.org``: it reveals the affiliation).

    A code-host account or repository named like the paper's own project (a word of the title
    written with inner capitals or digits, or the name before the title's colon: ``SciPy``,
    ``S2ORC``, ``FMA``) is the authors' too: ``github.com/scipy/scipy`` for "SciPy 1.0 — ...".

    Args:
        names: author names as written (``"Andreas Madsen"``).
        emails: author email addresses; ``{a,b}@host`` groups allowed.
        title: the paper's title (for its project name); may be empty.
        own_ids: the paper's own DOIs, ISBNs and arXiv ids as written (``10.1145/3544548.3580000``).
    """

    def __init__(self, names: Iterable[str] = (), emails: Iterable[str] = (), title: str = "",
                 own_ids: Iterable[str] = ()) -> None:
        self.names = [n for n in (re.sub(r"\s+", " ", x).strip() for x in names) if n]
        self.emails = [e.strip() for e in emails if e.strip()]
        self.title = title
        self.own_ids = sorted({i.strip() for i in own_ids if len(i.strip()) >= 6})
        self.projects = _project_names(title)
        self.accounts: set[str] = set()
        self.orgs: set[str] = set()
        for email in emails:
            local, _, domain = email.partition("@")
            self.accounts.update(fold(part) for part in re.split(r"[,\s]+", local.strip("{}")) if part)
            org = _organisation(domain)
            if org:
                self.orgs.add(org)
        self.surnames = {fold(n.split()[-1]) for n in self.names if len(n.split()) >= 2}
        self.firsts = {fold(n.split()[0]) for n in self.names if len(n.split()) >= 2}
        self.surnames = {s for s in self.surnames if len(s) >= 4}

    def record(self) -> dict[str, list[str] | str]:
        """The identity as JSON-able data (``Document.metadata["identity"]``), read back by
        :meth:`from_record`; empty fields are left out."""
        found = {"names": self.names, "emails": self.emails, "title": self.title, "own_ids": self.own_ids}
        return {k: v for k, v in found.items() if v}

    @classmethod
    def from_record(cls, record: object) -> Identity:
        """The identity a :meth:`record` describes; anything else (``None``, a malformed value) is
        the empty identity."""
        if not isinstance(record, dict):
            return cls()
        lists = {k: [x for x in value if isinstance(x, str)] if isinstance(value := record.get(k), list) else []
                 for k in ("names", "emails", "own_ids")}
        title = record.get("title")
        return cls(lists["names"], lists["emails"], title if isinstance(title, str) else "", lists["own_ids"])

    def merged(self, other: Identity) -> Identity:
        """Both identities' names, emails and own ids (this one's title, else the other's)."""
        return Identity([*self.names, *(n for n in other.names if n not in self.names)],
                        [*self.emails, *(e for e in other.emails if e not in self.emails)],
                        self.title or other.title, [*self.own_ids, *other.own_ids])

    def __bool__(self) -> bool:
        return bool(self.names or self.emails or self.projects or self.own_ids)

    def owns_account(self, account: str) -> bool:
        """Whether a user name (code host account, ``~user``, ``user.github.io``) is an author's."""
        acc = fold(account)
        if len(acc) < 3:
            return False
        if any(acc == org or (acc.startswith(org) and len(org) >= 4) for org in self.orgs):
            return True
        if acc in self.accounts or any(acc in a or a in acc for a in self.accounts if len(a) >= 4):
            return True
        if any(s in acc for s in self.surnames):
            return True
        for name in self.names:
            parts = [fold(p) for p in name.split() if fold(p)]
            if len(parts) < 2:
                continue
            first, last = parts[0], parts[-1]
            # initial + start of surname ("mdeff"), or first name + surname initial ("andreasm")
            if acc[0] == first[0] and len(acc) >= 4 and last.startswith(acc[1:]):
                return True
            if len(first) >= 4 and acc.startswith(first) and len(acc) <= len(first) + 2:
                return True
        return False

    def is_identity_url(self, url: str) -> bool:
        """Whether ``url`` points at an author's account, repository or personal page
        (:meth:`why` gives the reason)."""
        return self.why(url) is not None

    def why(self, url: str) -> str | None:
        """Why ``url`` identifies the authors, or ``None`` when it does not.

        Identity: a code-host account of an author (or of the paper's project, see the class
        docstring), a repository of the project under any account, ``user.github.io`` pages and
        ``~user`` homepages of an author, a pages site named like the project, and any page whose
        host or path names an author (``people.example.edu/jane.roe``). DOIs, arXiv ids and other
        URLs stay (the paper's own identifiers: :func:`scrub_text`).
        """
        url = re.sub(r"\s+", "", url)
        if re.search(r"(doi\.org|arxiv\.org|dx\.doi)", url, re.I):
            return None
        m = CODE_HOSTS.search(url)
        if m:
            repo = re.match(r"/*([^/\s?#]+)", url[m.end():])
            if self.owns_account(m.group(2)):
                return f"{m.group(1)} account of an author"
            if fold(m.group(2)) in self.projects or (repo is not None and fold(repo.group(1)) in self.projects):
                return f"{m.group(1)} repository of the paper's own project"
            return None
        m = PAGES_HOST.search(url)
        if m and self.owns_account(m.group(1)):
            return f"{m.group(2)} page of an author"
        if m and any(p in fold(m.group(1)) for p in self.projects if len(p) >= 4) or m and fold(m.group(1)) in self.projects:
            return f"{m.group(2)} page of the paper's own project"
        m = TILDE_HOME.search(url)
        if m and self.owns_account(m.group(1)):
            return "homepage of an author"
        parts = re.split(r"[/.?#=&_~-]+", re.sub(r"^(?:https?://)?(?:www\.)?", "", url, flags=re.I))
        if any(len(fold(p)) >= 4 and any(s in fold(p) for s in self.surnames) for p in parts):
            return "page naming an author"
        return None


def _project_names(title: str) -> set[str]:
    """Folded project names in a title: words with inner capitals or digits, and the name before
    a colon or dash when it is one or two words (``"FMA: A Dataset ..."`` -> ``{"fma"}``)."""
    names = {fold(w) for w in re.findall(r"[A-Za-z][\w-]*", title) if re.search(r".[A-Z0-9]", w) and len(w) >= 3}
    head = re.split(r"\s*[:—–]\s*|\s+-\s+", title, maxsplit=1)
    if len(head) == 2 and 1 <= len(head[0].split()) <= 2:
        names.add(fold(head[0].split()[0]))
    return {n for n in names if len(n) >= 3 and not n.isdigit()}


ANON_AUTHOR = "[anonymized author]"
AUTHOR_LIST_MAX_WORDS = 80


def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])" + r"\s+".join(re.escape(p) for p in name.split()) + r"(?![\w])")


def scrub_names(text: str, identity: Identity, location: str, removed: list[RemovedItem]) -> str:
    """Blind author names written in the body.

    A short paragraph (at most 80 words) naming two or more authors in full (ACM's "Reference
    Format" block, a contributions list) is removed whole; elsewhere each full name becomes
    ``[anonymized author]``. Both are audited. Surnames alone (third-person self-citation) stay.
    """
    # a name found in no paragraph is not in the whole text either (one search, not one per paragraph;
    # none at all when its first word is not there)
    patterns = [(n, p) for n in identity.names
                if len(n.split()) >= 2 and n.split()[0] in text and (p := _name_pattern(n)).search(text)]
    if not patterns:
        return text
    kept: list[str] = []
    for paragraph in text.split("\n\n"):
        named = [n for n, p in patterns if p.search(paragraph)]
        if len(set(named)) >= 2 and len(paragraph.split()) <= AUTHOR_LIST_MAX_WORDS:
            removed.append(RemovedItem(item="author list", location=location, text=paragraph))
            continue
        for name, pattern in patterns:
            if name in named:
                paragraph = pattern.sub(ANON_AUTHOR, paragraph)
                removed.append(RemovedItem(item="author name", location=location, text=name))
        kept.append(paragraph)
    return "\n\n".join(kept)


def find_urls(text: str, identity: Identity | None = None) -> list[tuple[int, int]]:
    """Spans of the URLs in ``text`` as printed (see the module docstring): broken schemes,
    line-end continuations and scheme-less code-host or pages URLs included; trailing sentence
    punctuation left out. With ``identity``, a URL that does not identify the authors is joined
    with the next word when the joined URL does (a URL split mid-word at a line end).

    Returns:
        ``(start, end)`` character offsets, in order, not overlapping.
    """
    spans: list[tuple[int, int]] = []
    lowered = text.lower()
    if (text.isascii() or not any(c in text for c in _ASCII_LOOKALIKES)) and not any(
            key in lowered for key in _URL_KEYS):
        return spans
    pos = 0
    while (m := _URL_START.search(text, pos)) is not None:
        end = _url_end(text, m.end())
        if end <= m.end() or not re.search(r"\w", text[m.end():end]):
            pos = m.start() + 1  # a start matched only by a look-ahead is zero-width: move on
            continue
        if identity is not None and identity.why(text[m.start():end]) is None:
            joined = _next_word_end(text, end)
            if joined is not None and identity.why(text[m.start():joined]) is not None:
                end = joined
        spans.append((m.start(), end))
        pos = end
    return spans


def _url_end(text: str, k: int) -> int:
    """End of the URL whose characters start at ``k``: URL characters, continued across one line
    break after a character of :data:`_CONTINUES`; trailing ``.,;:`` left out."""
    start = k
    while True:
        chars = _URL_CHARS.match(text, k)
        if chars is not None:
            k = chars.end()
        if k >= len(text) or not text[k].isspace() or text[k - 1] not in _CONTINUES:
            break
        after = _BREAK.match(text, k).end()
        if after == k or after >= len(text) or _URL_CHARS.match(text, after) is None or text[after] in "-–":
            break
        k = after
    while k > start and text[k - 1] in _TRAILING:
        k -= 1
    return k


def _next_word_end(text: str, k: int) -> int | None:
    """End of the word after one line break or space at ``k`` (trailing ``.,;:`` left out)."""
    after = _BREAK.match(text, k).end()
    if after == k:
        return None
    word = _FRAGMENT.match(text, after)
    if word is None:
        return None
    end = word.end()
    while end > after and text[end - 1] in _TRAILING:
        end -= 1
    return end


def scrub_text(text: str, identity: Identity, location: str, removed: list[RemovedItem], *, cited: bool = False) -> str:
    """Blind ``text``: emails, identity URLs (as printed), author names and, unless ``cited``
    (a references section), the paper's own DOIs, ISBNs and arXiv ids; each removal audited
    with its reason. The one blinding function: every reader and the reviewer-input builder
    (:mod:`rhetorica.documents.inputs`) apply it; applying it twice changes nothing more.

    Args:
        text: Markdown or plain text.
        identity: the authors (may be empty: then emails, arXiv stamps, permission-block
            identifiers and URLs presented as the paper's own are still removed).
        location: where the text is, for the audit (``"section 'Introduction'"``).
        removed: audit list, appended to.
        cited: the text lists cited work (references): the own-identifier rules are off.
    """
    text = scrub_names(text, identity, location, removed)
    parts: list[str] = []
    pos = 0
    for start, end in find_urls(text, identity):
        url = text[start:end]
        why = identity.why(url)
        if why is None and not cited:
            why = own_release(text, start, end)
        if why is None:
            continue
        removed.append(RemovedItem(item="identity URL", location=location, text=url, reason=why))
        parts += [text[pos:start], ANON_URL]
        pos = end
    text = "".join(parts) + text[pos:]
    # markdown links whose target was anonymised keep their label only when it is not the URL
    text = re.sub(r"\[([^\]]*)\]\(\[anonymized URL\]\)", r"\1 " + ANON_URL, text)

    def on_email(m: re.Match[str]) -> str:
        removed.append(RemovedItem(item="email", location=location, text=m.group(0), reason="an email address"))
        return ANON_EMAIL

    if "@" in text:  # every email has one
        text = EMAIL.sub(on_email, text)
    return text if cited else _scrub_own_ids(text, identity, location, removed)


def _scrub_own_ids(text: str, identity: Identity, location: str, removed: list[RemovedItem]) -> str:
    """Remove the paper's own identifiers (module docstring): arXiv's margin stamp, DOIs and
    ISBNs of a permission / reference-format paragraph, and every :attr:`Identity.own_ids`."""

    def drop(item: str, found: str, reason: str, placeholder: str = ANON_ID) -> str:
        removed.append(RemovedItem(item=item, location=location, text=found, reason=reason))
        return placeholder

    if "arXiv:" in text:  # every stamp has it (case-sensitive pattern)
        text = _ARXIV_STAMP.sub(lambda m: drop("own arXiv id", m.group(0), "arXiv stamp of this paper"), text)
    own = {i.lower().removeprefix("https://doi.org/") for i in identity.own_ids}
    arxiv_ids = [oid for oid in own if re.match(r"\d{4}\.\d{4,5}$", oid)]  # DOIs and ISBNs are done below
    if (("10." not in text or _DOI.search(text) is None)  # every DOI starts with "10."
            and not _may_hold_isbn(text)
            and not any(oid in text for oid in arxiv_ids)):
        return text  # nothing any paragraph's rules below could remove
    paragraphs = []
    for paragraph in text.split("\n\n"):
        block = _PERMISSION.search(paragraph) is not None
        why = "in the publisher's permission block" if block else "the paper's own identifier"

        def on_doi(m: re.Match[str], block: bool = block, why: str = why) -> str:
            if not block and m.group(1).lower() not in own:
                return m.group(0)
            return drop("own DOI", m.group(0), why, ANON_URL if m.group(0).lower().startswith("http") else ANON_ID)

        def on_isbn(m: re.Match[str], block: bool = block, why: str = why) -> str:
            if not block and fold(m.group(1)) not in {fold(i) for i in own}:
                return m.group(0)
            return m.group(0)[: m.start(1) - m.start()] + drop("own ISBN", m.group(1), why)

        paragraph = _ISBN.sub(on_isbn, _DOI.sub(on_doi, paragraph))
        for oid in arxiv_ids:
            pattern = re.compile(r"(?:https?://arxiv\.org/(?:abs|pdf)/|arXiv:\s?)?" + re.escape(oid) + r"(?:v\d+)?", re.I)
            paragraph = pattern.sub(lambda m: drop("own arXiv id", m.group(0), "the paper's own identifier"), paragraph)
        paragraphs.append(paragraph)
    return "\n\n".join(paragraphs)


def _may_hold_isbn(text: str) -> bool:
    """Whether :data:`_ISBN` matches ``text``, its regex run only on a text that holds "isbn" in
    any case (or one of the four non-ASCII letters that ``re.IGNORECASE`` takes for ASCII ones)."""
    if "isbn" not in text.lower() and (text.isascii() or not any(c in text for c in _ASCII_LOOKALIKES)):
        return False
    return _ISBN.search(text) is not None


def is_acknowledgement(title: str) -> bool:
    """Whether a section title is an acknowledgements / funding / contributions section."""
    return bool(ACK_TITLE.match(title.strip().rstrip(".:").strip()))


def blind_sections(sections: list[Section], identity: Identity, removed: list[RemovedItem]) -> list[Section]:
    """Drop acknowledgement-like sections (with their subsections) and blind the rest with
    :func:`scrub_text` (a references section as cited work).

    Args:
        sections: ordered sections.
        identity: author names/emails known from the title block (may be empty).
        removed: audit list, appended to.

    Returns:
        The kept sections, text scrubbed; removed sections are recorded whole in ``removed``.
    """
    kept: list[Section] = []
    dropping_level: int | None = None
    same = _SameIdentity(identity)
    for section in sections:
        if dropping_level is not None and section.title and section.level <= dropping_level:
            dropping_level = None
        if dropping_level is None and is_acknowledgement(section.title):
            dropping_level = section.level
        if dropping_level is not None:
            removed.append(RemovedItem(
                item="acknowledgements section", location=f"section '{section.title}'",
                text=section.text,
            ))
            continue
        location = f"section '{section.title or '(untitled)'}'"
        cited = REFERENCES_TITLE.match(section.title.strip()) is not None
        text, found = _scrubbed(section.text, same, location, cited)
        removed.extend(item.model_copy() for item in found)
        kept.append(section.model_copy(update={"text": text}))
    return kept


class _SameIdentity:
    """An :class:`Identity` that compares by its whole state (every attribute), as a memo key."""

    __slots__ = ("identity", "state")

    def __init__(self, identity: Identity) -> None:
        self.identity = identity
        self.state = repr([(k, sorted(v) if isinstance(v, set) else v) for k, v in sorted(vars(identity).items())])

    def __hash__(self) -> int:
        return hash(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SameIdentity) and self.state == other.state


@functools.lru_cache(maxsize=512)
def _scrubbed(text: str, same: _SameIdentity, location: str, cited: bool) -> tuple[str, tuple[RemovedItem, ...]]:
    """:func:`scrub_text` of one section and what it removed, remembered: a variant's sections that
    its rewriter left unchanged, and every variant of a rewriter that changes nothing, are blinded
    once (the result depends only on these arguments). Callers copy the items."""
    removed: list[RemovedItem] = []
    return scrub_text(text, same.identity, location, removed, cited=cited), tuple(removed)


LARGE_REMOVAL_WORDS = 300


def large_removals(removed: list[RemovedItem], limit: int = LARGE_REMOVAL_WORDS) -> list[str]:
    """Warnings for removals of more than ``limit`` words (summed per kind of item), so deleting a
    whole abstract or section is never silent. Page and line numbers are not counted (their audit
    text lists numbers, not words of the paper), nor figure labels (words of a drawing, at most
    three per line; they stay in the audit)."""
    words: dict[str, int] = {}
    places: dict[str, list[str]] = {}
    for item in removed:
        if item.item in {"page number", "line numbers", "figure labels"}:
            continue
        words[item.item] = words.get(item.item, 0) + len(item.text.split())
        places.setdefault(item.item, []).append(item.location)
    return [
        f"removed {n} words as {kind} ({', '.join(dict.fromkeys(places[kind]))[:120]}); check the audit (Document.removed)"
        for kind, n in words.items() if n > limit
    ]
