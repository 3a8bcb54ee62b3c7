"""SciCore's instruction texts: package data under ``texts/``, one file per version.

- ``extract_core_v1``: the science-core extraction (:mod:`.extract`).
- ``reconstruct_v1``: ReconstructReview's rebuilding of a manuscript from a core
  (:mod:`.reconstruct`).

Both are written for rhetorica (own words) after the description of SciCore in STUDIES.md §4.
The version of a text is its file name; :func:`instruction_hash` (8 hex of the text) goes into
every spec that uses it, so an edit of a file changes the unit keys.
"""

from __future__ import annotations

from importlib import resources

from rhetorica.hashing import content_hash

EXTRACT = "extract_core_v1"
RECONSTRUCT = "reconstruct_v1"


def instruction(name: str) -> str:
    """The text of instruction ``name`` (a file stem under ``texts/``).

    Raises:
        FileNotFoundError: no such instruction file (the message names it).
    """
    path = resources.files("rhetorica.reviewers.scicore") / "texts" / f"{name}.md"
    if not path.is_file():
        raise FileNotFoundError(f"no SciCore instruction {name!r} (looked for texts/{name}.md)")
    return path.read_text("utf-8").strip()


def instruction_hash(name: str) -> str:
    """8-hex hash of instruction ``name``'s exact text."""
    return content_hash(instruction(name), length=8)
