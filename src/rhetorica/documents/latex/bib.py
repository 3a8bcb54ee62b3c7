"""Minimal BibTeX reading: entry keys with author, title and year, for a References section."""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.latex.source import read_group, read_text_file

_ENTRY = re.compile(r"@(\w+)\s*\{\s*([^,\s]+)\s*,", re.I)
_FIELD = re.compile(r"(\w+)\s*=\s*", re.I)
_SPACES = re.compile(r"\s+")
_CITE = re.compile(r"\\[a-zA-Z]*cite[a-zA-Z]*\*?(?:\[[^\]]*\])*\{([^{}]*)\}")


def parse_bib(text: str, *, fields: bool = True) -> dict[str, dict[str, str]]:
    """Parse BibTeX entries into ``{key: {field: value}}`` (braces and quotes stripped).

    ``@string``, ``@comment`` and ``@preamble`` are skipped; malformed entries are skipped too.
    With ``fields=False`` every entry maps to ``{}`` (the same keys, for a reader that only counts
    them; reading the field values is most of the work).
    """
    entries: dict[str, dict[str, str]] = {}
    for m in _ENTRY.finditer(text):
        if m.group(1).lower() in {"string", "comment", "preamble"}:
            continue
        start = text.rfind("{", 0, m.end())
        body = read_group(text, start)
        if body is None:
            continue
        if not fields:
            entries[m.group(2)] = {}
            continue
        values: dict[str, str] = {}
        inner = body[0][len(m.group(2)) + 1 :]
        pos = 0
        while True:
            f = _FIELD.search(inner, pos)
            if not f:
                break
            k = f.end()
            if inner[k : k + 1] == "{":
                group = read_group(inner, k)
                value, pos = (group[0], group[1]) if group else ("", k + 1)
            elif inner[k : k + 1] == '"':
                end = inner.find('"', k + 1)
                value, pos = inner[k + 1 : end], end + 1
            else:
                end_m = re.match(r"[^,}]*", inner[k:])
                value = end_m.group(0) if end_m else ""
                pos = k + len(value)
            # each whitespace run -> one space, braces dropped (a run ends at a brace: the same as one pass)
            values[f.group(1).lower()] = _SPACES.sub(" ", value).replace("{", "").replace("}", "").strip()
        entries[m.group(2)] = values
    return entries


def read_bib_files(body: str, folder: Path, root: Path, warnings: list[str], *,
                   fields: bool = True) -> dict[str, dict[str, str]]:
    """Read the ``.bib`` files named by ``\\bibliography{a,b}``/``\\addbibresource``.

    Names are resolved against ``folder`` (the main file's folder); files outside ``root`` are not
    read; a missing file gives a warning. Without such a command every ``.bib`` in ``folder`` is read.
    ``fields``: as in :func:`parse_bib`.
    """
    names = [n.strip() for m in re.finditer(r"\\(?:bibliography|addbibresource)\s*\{([^}]*)\}", body) for n in m.group(1).split(",")]
    paths = []
    for name in names:
        candidate = folder / (name if name.endswith(".bib") else f"{name}.bib")
        if candidate.is_file() and candidate.resolve().is_relative_to(root.resolve()):
            paths.append(candidate)
        else:
            warnings.append(f"bibliography file '{name}' not found")
    if not names:
        paths = sorted(folder.glob("*.bib"))
    entries: dict[str, dict[str, str]] = {}
    for path in paths:
        entries.update(parse_bib(read_text_file(path), fields=fields))
    return entries


def cited_keys(body: str) -> list[str]:
    """Citation keys in order of first citation."""
    keys: list[str] = []
    for m in _CITE.finditer(body):
        for key in m.group(1).split(","):
            key = key.strip()
            if key and key not in keys:
                keys.append(key)
    return keys


def render_references(keys: list[str], entries: dict[str, dict[str, str]]) -> str:
    """One line per cited key: ``[key] Authors. Title. Year.`` (keys missing from the .bib kept bare)."""
    lines = []
    for key in keys:
        e = entries.get(key)
        if e is None:
            lines.append(f"[{key}]")
            continue
        parts = [e.get("author", ""), e.get("title", ""), e.get("year", "")]
        lines.append(f"[{key}] " + ". ".join(p for p in parts if p) + ".")
    return "\n".join(lines)
