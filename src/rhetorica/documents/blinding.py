"""Blinding helpers shared by the readers: identity URLs, emails, acknowledgement sections.

Removals are recorded as :class:`~rhetorica.documents.models.RemovedItem` (item kind, location,
exact text) so a user can audit them. Body text outside these regions is never touched.
The policy follows the double-blind instructions of ML venues (e.g. ICLR/NeurIPS author guides:
no names, affiliations, acknowledgements or links that reveal identity) as summarised in
``/work/shared/STUDIES.md``.
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

    Args:
        names: author names as written (``"Andreas Madsen"``).
        emails: author email addresses; ``{a,b}@host`` groups allowed.
    """

    def __init__(self, names: Iterable[str] = (), emails: Iterable[str] = ()) -> None:
        self.names = [n for n in (re.sub(r"\s+", " ", x).strip() for x in names) if n]
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
        """Whether ``url`` points at an author's account or personal page."""
        for pattern in (CODE_HOSTS, PAGES_HOST):
            m = pattern.search(url)
            if m:
                account = m.group(2) if pattern is CODE_HOSTS else m.group(1)
                if self.owns_account(account):
                    return True
        m = TILDE_HOME.search(url)
        return bool(m and self.owns_account(m.group(1)))


def scrub_text(text: str, identity: Identity, location: str, removed: list[RemovedItem]) -> str:
    """Replace emails and identity URLs in ``text`` by placeholders, auditing each removal."""

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
