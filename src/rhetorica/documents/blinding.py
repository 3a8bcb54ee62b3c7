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
- links in the title block and author footnotes go with them (PDF reader).

DOIs, arXiv ids (cited work) and tool or data-set URLs that name no author stay. Emails always
become ``[anonymized email]``. Author names written in full in the body become
``[anonymized author]``; a short paragraph naming two authors (ACM's reference block) is removed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rhetorica.documents.models import RemovedItem, Section

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{[\w.,\s+-]+\}@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(r"(?:https?://|www\.)[^\s)\]}>\"',]+[^\s)\]}>\"',.;:]")
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


def fold(text: str) -> str:
    """Lowercase ASCII letters only (accents removed): ``"Michaël D."`` -> ``"michaeld"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]", "", decomposed.encode("ascii", "ignore").decode().lower())


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
    """

    def __init__(self, names: Iterable[str] = (), emails: Iterable[str] = (), title: str = "") -> None:
        self.names = [n for n in (re.sub(r"\s+", " ", x).strip() for x in names) if n]
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
        """Whether ``url`` points at an author's account, repository or personal page.

        Identity: a code-host account of an author (or of the paper's project, see the class
        docstring), a repository of the project under any account, ``user.github.io`` pages and
        ``~user`` homepages of an author, and any page whose host or path names an author
        (``people.example.edu/jane.roe``). DOIs, arXiv ids and other URLs stay.
        """
        if re.search(r"(doi\.org|arxiv\.org|dx\.doi)", url, re.I):
            return False
        m = CODE_HOSTS.search(url)
        if m:
            repo = re.match(r"/*([^/\s?#]+)", url[m.end():])
            if self.owns_account(m.group(2)) or fold(m.group(2)) in self.projects \
                    or (repo is not None and fold(repo.group(1)) in self.projects):
                return True
            return False
        m = PAGES_HOST.search(url)
        if m and self.owns_account(m.group(1)):
            return True
        m = TILDE_HOME.search(url)
        if m and self.owns_account(m.group(1)):
            return True
        parts = re.split(r"[/.?#=&_~-]+", re.sub(r"^(?:https?://)?(?:www\.)?", "", url, flags=re.I))
        return any(len(fold(p)) >= 4 and any(s in fold(p) for s in self.surnames) for p in parts)


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
    patterns = [(n, _name_pattern(n)) for n in identity.names if len(n.split()) >= 2]
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


def scrub_text(text: str, identity: Identity, location: str, removed: list[RemovedItem]) -> str:
    """Replace emails, identity URLs and author names in ``text``, auditing each removal."""
    text = scrub_names(text, identity, location, removed)

    def on_url(m: re.Match[str]) -> str:
        if identity.is_identity_url(m.group(0)):
            removed.append(RemovedItem(item="identity URL", location=location, text=m.group(0)))
            return ANON_URL
        return m.group(0)

    def on_email(m: re.Match[str]) -> str:
        removed.append(RemovedItem(item="email", location=location, text=m.group(0)))
        return ANON_EMAIL

    text = URL.sub(on_url, text)
    # markdown links whose target was anonymised keep their label only when it is not the URL
    text = re.sub(r"\[([^\]]*)\]\(\[anonymized URL\]\)", r"\1 " + ANON_URL, text)
    return EMAIL.sub(on_email, text)


def is_acknowledgement(title: str) -> bool:
    """Whether a section title is an acknowledgements / funding / contributions section."""
    return bool(ACK_TITLE.match(title.strip().rstrip(".:").strip()))


def blind_sections(sections: list[Section], identity: Identity, removed: list[RemovedItem]) -> list[Section]:
    """Drop acknowledgement-like sections (with their subsections) and scrub identity URLs/emails.

    Args:
        sections: ordered sections.
        identity: author names/emails known from the title block (may be empty).
        removed: audit list, appended to.

    Returns:
        The kept sections, text scrubbed; removed sections are recorded whole in ``removed``.
    """
    kept: list[Section] = []
    dropping_level: int | None = None
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
        kept.append(section.model_copy(update={"text": scrub_text(section.text, identity, location, removed)}))
    return kept


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
