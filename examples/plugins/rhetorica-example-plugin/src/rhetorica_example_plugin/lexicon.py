"""A reviewer kind in one file: ``lexicon`` scores a text by the words of a word list it contains.

This module is a ``rhetorica.plugins`` entry point of its own (``pyproject.toml``): importing it
runs its one registration, and a study can then name ``kind: lexicon`` with the options of
:class:`LexiconOptions` — checked when the study loads, listed by ``rhetorica list`` and documented
by ``rhetorica schema`` — without any edit to rhetorica. It makes no model call, so ``rhetorica
estimate`` counts none for it.

Score (form ``review-000-overall``, overall an integer 1-10)::

    rate    = 100 * (words of the text that are on the list) / (words of the text)
    overall = clip(round_half_up(base + points_per_word * rate), 1, 10)

Words are runs of letters (and inner apostrophes), compared case-insensitively. A text without
words is ``empty`` (no score).
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import get_form
from rhetorica.kinds import EvaluatorKind
from rhetorica.registry import evaluators
from rhetorica.status import Status

if TYPE_CHECKING:
    from rhetorica.models.call import CallContext

_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*")


class LexiconOptions(BaseModel):
    """The options of a ``kind: lexicon`` reviewer."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    words: list[str] = Field(min_length=1, description="the word list (compared case-insensitively)")
    base: float = Field(default=5.0, ge=1, le=10, description="overall score of a text with none of the words")
    points_per_word: float = Field(default=1.0, description="points added per listed word per 100 words "
                                                            "of text (negative: subtracted)")

    @field_validator("words")
    @classmethod
    def _single_words(cls, value: list[str]) -> list[str]:
        bad = [w for w in value if not _WORD.fullmatch(w)]
        if bad:
            raise ValueError(f"{bad[0]!r} is not a single word (letters and inner apostrophes only)")
        return value


class LexiconReviewer:
    """An :class:`~rhetorica.evaluation.Evaluator` scoring by counted words (see the module docstring).

    Raises:
        pydantic.ValidationError: bad options (an empty or non-word list, ``base`` outside 1-10).
    """

    def __init__(self, name: str, **options: Any) -> None:
        self.name = name
        self.options = LexiconOptions(**options)
        self.form = get_form("review-000-overall")
        self._listed = {w.lower() for w in self.options.words}

    def spec(self) -> dict[str, Any]:
        """The kind, its options and the form (``name@version``)."""
        return {"kind": "lexicon", **self.options.model_dump(), "form": self.form.label}

    async def evaluate(self, target: Target, context: CallContext | None = None) -> Evaluation:
        """Count the listed words of ``target.document``; never calls a model."""
        words = [w.lower() for s in target.document.sections for w in _WORD.findall(f"{s.title}\n{s.text}")]
        if not words:
            return Evaluation(Status.EMPTY, reason="the text has no words")
        hits = sum(1 for w in words if w in self._listed)
        rate = 100.0 * hits / len(words)
        raw = self.options.base + self.options.points_per_word * rate
        overall = min(10, max(1, math.floor(raw + 0.5)))
        payload = {"overall": overall, "summary": f"{hits} of {len(words)} words are on the list ({rate:.2f} per 100)"}
        return Evaluation(Status.OK, scores=self.form.check_scores(payload), payload=payload)


class LexiconKind(EvaluatorKind):
    """The ``lexicon`` evaluator kind: its options model and its evaluator (no model, no planned calls)."""

    options_model = LexiconOptions
    factory = LexiconReviewer


evaluators.add("lexicon", LexiconKind(), description="scores a text by the words of a word list it contains "
                                                     "(no model call)")
