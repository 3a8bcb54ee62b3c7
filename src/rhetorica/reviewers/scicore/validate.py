"""Validation of a science core against its manuscript (issue 15 §3: "numbers and claims present
in the manuscript, no new numbers").

Two checks, both lexical and model-free:

1. **Numbers**: every number written anywhere in the core (:mod:`.numbers`, normalised: ``.5`` =
   ``0.5``, ``1,000`` = ``1000``, ``45%`` = ``0.45``) is a number of the manuscript. A core that
   states a number the manuscript does not — a new number — fails, naming it and where it is.
2. **Claims**: every item of ``claims`` has lexical support in the manuscript (:mod:`.support`:
   at least half of its content terms in one sentence or pair of adjacent sentences).

A core passes when both hold; otherwise the checks list every problem, each naming the field and
item (``results[2]``), the number or claim, and what was wrong.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from rhetorica.reviewers.scicore.core import ScienceCore
from rhetorica.reviewers.scicore.numbers import appears, find_numbers, manuscript_values
from rhetorica.reviewers.scicore.support import SUPPORT_THRESHOLD, ManuscriptPassages


@dataclass(frozen=True)
class NewNumber:
    """A number of the core that the manuscript does not state.

    Attributes:
        location: field and item (``results[0]``, ``problem``).
        number: as written in the core.
        value: its normalised value.
    """

    location: str
    number: str
    value: str


@dataclass(frozen=True)
class UnsupportedClaim:
    """A claim without lexical support in the manuscript.

    Attributes:
        location: ``claims[i]``.
        claim: the claim's text.
        support: its support score in [0, 1] (below :data:`~.support.SUPPORT_THRESHOLD`).
        missing: its terms that the best passage lacks.
    """

    location: str
    claim: str
    support: float
    missing: tuple[str, ...]


@dataclass(frozen=True)
class CoreChecks:
    """The outcome of :func:`validate_core`.

    Attributes:
        numbers_checked: how many numbers the core writes (all checked).
        new_numbers: those the manuscript does not state.
        claim_support: the support score of each claim, in order.
        unsupported_claims: claims below the threshold.
        threshold: the support threshold used.
    """

    numbers_checked: int
    new_numbers: tuple[NewNumber, ...] = ()
    claim_support: tuple[float, ...] = ()
    unsupported_claims: tuple[UnsupportedClaim, ...] = ()
    threshold: float = SUPPORT_THRESHOLD
    problems: tuple[str, ...] = field(default=(), init=False)

    def __post_init__(self) -> None:
        problems = [f"{n.location}: the number {n.number} is not in the manuscript" for n in self.new_numbers]
        problems += [f"{c.location}: the claim {c.claim!r} has no lexical support in the manuscript "
                     f"(support {c.support:.2f} < {self.threshold:g}; missing {', '.join(c.missing) or 'all terms'})"
                     for c in self.unsupported_claims]
        object.__setattr__(self, "problems", tuple(problems))

    @property
    def ok(self) -> bool:
        """No new number and no unsupported claim."""
        return not self.problems

    def reason(self) -> str | None:
        """All problems in one message (``None`` when ok)."""
        return "; ".join(self.problems) if self.problems else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (stored with the core; tuples become lists, as they read back from JSON)."""
        return json.loads(json.dumps(asdict(self)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CoreChecks:
        """The checks stored by :meth:`to_dict` (``problems`` is recomputed)."""
        return cls(data["numbers_checked"], tuple(NewNumber(**n) for n in data["new_numbers"]),
                   tuple(data["claim_support"]),
                   tuple(UnsupportedClaim(c["location"], c["claim"], c["support"], tuple(c["missing"]))
                         for c in data["unsupported_claims"]), data["threshold"])


def validate_core(core: ScienceCore, manuscript: str, threshold: float = SUPPORT_THRESHOLD) -> CoreChecks:
    """Check ``core`` against the manuscript text it was extracted from.

    Args:
        core: the extracted record.
        manuscript: the manuscript exactly as the extractor read it (Markdown).
        threshold: claim support threshold in [0, 1].

    Returns:
        :class:`CoreChecks` (``.ok`` tells whether the core passes; ``.problems`` names each failure).

    Raises:
        ValueError: ``threshold`` outside [0, 1].
    """
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"claim support threshold {threshold} is outside [0, 1]")
    values = manuscript_values(manuscript)
    checked = 0
    new: list[NewNumber] = []
    for location, text in core.statements():
        for number in find_numbers(text):
            checked += 1
            if not appears(number, values):
                new.append(NewNumber(location, number.text, number.value))
    passages = ManuscriptPassages(manuscript)
    scores: list[float] = []
    unsupported: list[UnsupportedClaim] = []
    for i, claim in enumerate(core.claims):
        support = passages.support(claim)
        scores.append(support.score)
        if support.score < threshold:
            unsupported.append(UnsupportedClaim(f"claims[{i}]", claim, support.score, support.missing))
    return CoreChecks(checked, tuple(new), tuple(scores), tuple(unsupported), threshold)
