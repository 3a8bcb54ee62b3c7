"""Markdown / plain-text reader: ATX (``#``) and Setext (``===``/``---``) headings become sections."""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.blinding import EMAIL, IDENTITY_KEY, Identity, blind_sections
from rhetorica.documents.models import Document, DocumentSource, RemovedItem, Section
from rhetorica.documents.options import DocumentReadError, ReadOptions
from rhetorica.documents.sections import cut_after_references
from rhetorica.hashing import content_hash

PARSER_NAME = "rhetorica-markdown"
PARSER_VERSION = "1"

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^(=+|-+)\s*$")
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n(?:---|\.\.\.)\s*\n", re.S)
_FENCE = re.compile(r"^\s*(```|~~~)")


def read_markdown(path: Path, doc_id: str, options: ReadOptions) -> Document:
    """Read Markdown or plain text.

    The shallowest heading level becomes level 1; a single top heading above everything else is
    the title. YAML front matter gives ``title``; its ``author``/``affiliation``/``email`` lines are
    removed under blinding (audited). Text with no headings is one untitled section.

    Raises:
        DocumentReadError: the file is not text (binary or undecodable) or holds no words.
    """
    data = path.read_bytes()
    if b"\x00" in data[:4096]:
        raise DocumentReadError(path, "not a text file (binary content)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentReadError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    text = text.replace("\r\n", "\n")
    removed: list[RemovedItem] = []
    names: list[str] = []
    title = ""
    front = _FRONT_MATTER.match(text)
    if front:
        text = text[front.end():]
        for line in front.group(1).splitlines():
            key, _, value = line.partition(":")
            key = key.strip().lower()
            if key == "title":
                title = value.strip().strip("\"'")
            elif key in {"author", "authors", "affiliation", "affiliations", "email", "institute"}:
                names.extend(n.strip() for n in re.split(r",|\band\b", value) if n.strip())
                removed.append(RemovedItem(item="author block", location="front matter", text=line.strip()))
    headings = _headings(text.split("\n"))
    sections = _split(text.split("\n"), headings)
    top = min((h[0] for h in headings), default=0)
    if len(headings) > 1 and headings[0][0] == top and sum(h[0] == top for h in headings) == 1:
        # a single top heading above all others is the document title
        k = next(i for i, s in enumerate(sections) if s.title == headings[0][2])
        heading = sections.pop(k)
        title = title or heading.title
        if heading.text:
            sections.insert(k, Section(title="", text=heading.text, level=1))
    sections = _normalise_levels(sections)
    metadata: dict[str, object] = {}
    if options.cut_after_references:
        sections, cut = cut_after_references(sections)
        if cut:
            metadata["cut_at"] = cut
    if options.blind:
        emails = [m.group(0) for s in sections for m in EMAIL.finditer(s.text)]
        identity = Identity(names, emails)
        sections = blind_sections(sections, identity, removed)
        if identity:
            metadata[IDENTITY_KEY] = identity.record()
    if not any(s.text.strip() or s.title for s in sections):
        raise DocumentReadError(path, "no text found")
    return Document(
        id=doc_id,
        title=title,
        sections=sections,
        metadata=metadata,
        source=DocumentSource(
            path=str(path), parser=PARSER_NAME, parser_version=PARSER_VERSION,
            text_hash=content_hash([(s.title, s.text) for s in sections]),
        ),
        removed=removed if options.blind else [],
    )


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """``(level, line index, title)`` for each heading outside code fences."""
    found: list[tuple[int, int, str]] = []
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        m = _ATX.match(line)
        if m:
            found.append((len(m.group(1)), i, m.group(2).strip()))
        elif i > 0 and _SETEXT.match(line) and lines[i - 1].strip() and not _ATX.match(lines[i - 1]) \
                and (i < 2 or not lines[i - 2].strip()):
            found.append((1 if line.strip()[0] == "=" else 2, i - 1, lines[i - 1].strip()))
    return found


def _split(lines: list[str], headings: list[tuple[int, int, str]]) -> list[Section]:
    sections: list[Section] = []
    starts = [h[1] for h in headings]
    lead = "\n".join(lines[: starts[0] if starts else len(lines)]).strip()
    if lead:
        sections.append(Section(title="", text=_tidy(lead), level=1))
    for k, (level, index, title) in enumerate(headings):
        body_start = index + (2 if index + 1 < len(lines) and _SETEXT.match(lines[index + 1]) and not _ATX.match(lines[index]) else 1)
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        sections.append(Section(title=title, text=_tidy("\n".join(lines[body_start:end])), level=min(level, 6)))
    return sections


def _normalise_levels(sections: list[Section]) -> list[Section]:
    titled = [s.level for s in sections if s.title]
    shift = min(titled) - 1 if titled else 0
    return [s.model_copy(update={"level": max(1, s.level - shift)}) for s in sections]


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip()
