"""A toy external reviewer: reads a manuscript on stdin, prints one review on the review-000 form.

It stands in for any reviewer system a user brings (a binary, another language, a container). Its
scores are deterministic and deliberately simple — how much of the text reports numbers:

- ``evidence`` = 1 + round(3 x share of sentences containing a digit), in 1..4;
- ``overall`` = 1 + round(9 x that share), in 1..10;
- ``soundness``, ``significance`` and ``clarity`` = 2; ``confidence`` = 1 (a guess).

Run it by hand: ``python -m rhetorica_example_plugin.reviewer_script < paper.md``. An empty input
exits with status 1 and a message on stderr.
"""

from __future__ import annotations

import json
import re
import sys


def review(text: str) -> dict[str, object]:
    """The review of ``text`` (see the module docstring for the scores).

    Raises:
        ValueError: ``text`` has no sentence.
    """
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if re.search(r"\w", s)]
    if not sentences:
        raise ValueError("the manuscript is empty")
    share = sum(bool(re.search(r"\d", s)) for s in sentences) / len(sentences)
    return {
        "summary": f"{len(sentences)} sentences; {share:.0%} of them report a number.",
        "strengths": ["reports numbers"] if share >= 0.5 else [],
        "weaknesses": [] if share >= 0.5 else ["few sentences report numbers"],
        "suggestions": ["report effect sizes with their uncertainty"],
        "overall": 1 + round(9 * share),
        "soundness": 2, "significance": 2, "evidence": 1 + round(3 * share), "clarity": 2,
        "confidence": 1,
    }


def main() -> int:
    """Read stdin, print the review as JSON; exit status 1 for an empty manuscript."""
    try:
        print(json.dumps(review(sys.stdin.read())))
    except ValueError as exc:
        print(f"reviewer_script: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
