"""A scripted external agent for the project-study tests: edits a LaTeX project copy in place.

Usage: ``python scripted_project_agent.py PROJECT MODE`` with the instruction on stdin.

- ``wording``: puts a lead-in phrase before every paragraph that starts with a capitalised plain
  word (no command, math or number touched); the phrase is picked by the instruction's hash, so
  different conditions give different (but deterministic) variants; ``tagged``: the same with
  "Per <a made-up word from the instruction's hash>, " as the lead-in (a distinct variant per
  instruction).
- ``drop_cite`` / ``alter_number`` / ``edit_math`` / ``add_write18``: puts that fault in
  (:mod:`tests.rewriting.latex_project.conftest`) on the first attempt; on a repair attempt (the
  instruction carries the checker's feedback) it changes nothing, so the fault stays;
- ``attempt:<name>``: the same with the shell/pipe/Lua attempt of that name
  (:mod:`tests.rewriting.latex_project.safety_corpus`) on a line after the first paragraph.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

from rhetorica.documents.latex.project import apply_replacements, load_project
from rhetorica.rewriting.latex_project.repair import FEEDBACK_HEADER

PHRASES = ("In short, ", "Notably, ", "In brief, ", "Put simply, ", "Indeed, ")


def main() -> int:
    root, mode = Path(sys.argv[1]), sys.argv[2]
    instruction = sys.stdin.read()
    project = load_project(root)
    if mode not in ("wording", "tagged"):
        if FEEDBACK_HEADER not in instruction and mode.startswith("attempt:"):
            from tests.rewriting.latex_project.safety_corpus import add_after_first_paragraph, attempts

            add_after_first_paragraph(project, next(a for a in attempts() if a.name == mode[len("attempt:"):]))
        elif FEEDBACK_HEADER not in instruction:
            from tests.rewriting.latex_project.conftest import inject

            inject(project, mode)
        return 0
    digest = hashlib.sha256(instruction.encode()).digest()
    phrase = PHRASES[digest[0] % len(PHRASES)]
    if mode == "tagged":  # a made-up word of the instruction's hash: a distinct variant per instruction
        phrase = "Per " + "".join(chr(ord("a") + b % 26) for b in digest[:8]) + ", "
    edits = {}
    for p in project.paragraphs():
        stripped = p.text.lstrip()
        if re.match(r"[A-Z][a-z]+ ", stripped):
            edits[p] = p.text[: len(p.text) - len(stripped)] + phrase + stripped[0].lower() + stripped[1:]
    apply_replacements(project, edits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
