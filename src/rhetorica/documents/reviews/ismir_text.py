"""ISMIR-style plain-text reviews: a ``REVIEWER #N`` banner, a "Reviewer's Scores" block of
``label: category`` lines (categorical scores such as "medium high", kept as written) and a
"Comments" block with the review text."""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.reviews.model import blind_reviewer_ids, read_review_text, review_document

_BANNER = re.compile(r"^\s*REVIEWER\s*#\s*(?P<n>\d+)\s*$")
_RULE = re.compile(r"^[=-]{10,}\s*$")
_SCORE_LINE = re.compile(r"^\s*(?P<label>[A-Za-z][^:]{0,60}?):\s*(?P<value>\S.*?)\s*$")


def _blocks(lines: list[str]) -> dict[str, list[str]]:
    """Text of each titled block (a title line between two rule lines), keyed by title."""
    blocks: dict[str, list[str]] = {}
    name = None
    i = 0
    while i < len(lines):
        if _RULE.match(lines[i]) and i + 2 < len(lines) and _RULE.match(lines[i + 2]):
            name = lines[i + 1].strip()
            blocks[name] = []
            i += 3
            continue
        if name is not None:
            blocks[name].append(lines[i])
        i += 1
    return blocks


def read_ismir_text(path: Path, paper_id: str, index: int) -> tuple[list[Document], list[str]]:
    """The review of ``paper_id`` in one ISMIR review file, numbered ``index``.

    Raises:
        DocumentReadError: unreadable, or no "Comments" block.
    """
    lines = read_review_text(path).splitlines()
    blocks = _blocks(lines)
    if "Comments" not in blocks:
        raise DocumentReadError(path, "no 'Comments' block: not an ISMIR review file")
    scores: dict[str, float | str] = {}
    for line in blocks.get("Reviewer's Scores", []):
        match = _SCORE_LINE.match(line)
        if match:
            scores[match.group("label").strip()] = match.group("value")
    banner = next((m.group(0).strip() for line in lines if (m := _BANNER.match(line))), "")
    doc = review_document(paper_id, index, {"comments": "\n".join(blocks["Comments"]).strip()}, rating=None,
                          confidence=None, scores=scores, source=str(path), parser="ismir-text", parser_version="1")
    return blind_reviewer_ids([doc], [banner] if banner else []), []
