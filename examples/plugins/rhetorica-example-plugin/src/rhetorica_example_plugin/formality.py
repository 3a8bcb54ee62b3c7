"""The ``formality`` dimension (``formality:+`` / ``formality:-``), all in this one module.

One call registers everything (:func:`rhetorica.dimensions.register_dimension`): the dimension, its
two conditions with their instruction texts (kept here, version ``v1``: rhetorica's ``v1``
integrity rules and task text frame them), its lexicon and its shift measure. rhetorica measures
every original and variant with :func:`measure` (``TextMeasures.dimensions["formality"]``); a
``formality:+`` rewrite must raise it, ``formality:-`` lower it. Nothing in rhetorica names it.

The measure is a toy for the example, not a validated instrument: formal markers (connectives and
Latinate verbs of written academic prose) minus informal markers (contractions, vague nouns,
amplifiers and phrasal verbs of conversation), per 1,000 words. The informal list follows the
"involved production" features of Biber (1988), *Variation across Speech and Writing*, Cambridge UP,
Dimension 1 (contractions, amplifiers, general emphatics); the formal list is our own selection of
the connectives and verbs that feature's opposite pole, informational writing, favours.
"""

from __future__ import annotations

from functools import lru_cache

from rhetorica.dimensions import register_dimension
from rhetorica.validation.rhetoric import PhraseLexicon, find_phrases, parse_phrase_lexicon, per_1k, prepared_tokens
from rhetorica.validation.shift import Instructions, measured_dimension
from rhetorica.tokenizer import Tokens

LEXICON = """\
# formality lexicon, version 1.0 (rhetorica-example-plugin; see the module docstring for sources)
item\tcategory\tsource
therefore\tformal\town selection
moreover\tformal\town selection
furthermore\tformal\town selection
thus\tformal\town selection
hence\tformal\town selection
consequently\tformal\town selection
nevertheless\tformal\town selection
whereas\tformal\town selection
approximately\tformal\town selection
demonstrate\tformal\town selection
demonstrates\tformal\town selection
obtain\tformal\town selection
obtains\tformal\town selection
investigate\tformal\town selection
investigates\tformal\town selection
don't\tinformal\tBiber 1988, contractions
doesn't\tinformal\tBiber 1988, contractions
didn't\tinformal\tBiber 1988, contractions
can't\tinformal\tBiber 1988, contractions
won't\tinformal\tBiber 1988, contractions
isn't\tinformal\tBiber 1988, contractions
aren't\tinformal\tBiber 1988, contractions
it's\tinformal\tBiber 1988, contractions
that's\tinformal\tBiber 1988, contractions
we're\tinformal\tBiber 1988, contractions
we've\tinformal\tBiber 1988, contractions
let's\tinformal\tBiber 1988, contractions
a lot\tinformal\tBiber 1988, general emphatics
really\tinformal\tBiber 1988, amplifiers
pretty\tinformal\tBiber 1988, amplifiers
stuff\tinformal\tBiber 1988, vague nouns
things\tinformal\tBiber 1988, vague nouns
get\tinformal\tBiber 1988, phrasal and general verbs
gets\tinformal\tBiber 1988, phrasal and general verbs
got\tinformal\tBiber 1988, phrasal and general verbs
"""

PLUS = """Style target: formal academic prose.
Rewrite the text in a more formal register: no contractions, no vague words ("stuff", "things",
"a lot"), no conversational amplifiers ("really", "pretty"); prefer precise verbs ("obtain",
"demonstrate", "investigate" over "get", "show", "look at") and explicit connectives ("therefore",
"moreover", "whereas"). Keep every claim, number, citation and the length."""

MINUS = """Style target: informal, conversational prose.
Rewrite the text in a more relaxed register: contractions are fine ("it's", "we've"), plain verbs
("get", "show", "look at") over Latinate ones, short connectives ("so", "but", "also") over
"therefore", "moreover", "furthermore". Keep every claim, number, citation and the length."""


@lru_cache(maxsize=1)
def lexicon() -> PhraseLexicon:
    """The formal and informal markers above (parsed once)."""
    return parse_phrase_lexicon(LEXICON, "formality")


def formality_counts(text: str | Tokens) -> tuple[int, int]:
    """``(formal markers, informal markers)`` in ``text`` (LaTeX comments and headings blanked)."""
    found = find_phrases(prepared_tokens(text), lexicon())
    formal = sum(1 for _, _, category in found if category == "formal")
    return formal, len(found) - formal


def measure(text: str | Tokens) -> float | None:
    """``1000 * (formal markers - informal markers) / words``; ``None`` for a text without words."""
    formal, informal = formality_counts(text)
    return per_1k(formal - informal, prepared_tokens(text).n_words)


DIMENSION = register_dimension(measured_dimension(
    "formality", "(formal - informal markers)/1k", measure,
    directions={"+": "more formal register (no contractions, precise verbs)",
                "-": "more informal register (contractions, plain verbs)"},
    instructions=Instructions("v1", texts={"+": PLUS, "-": MINUS}),
    lexicons=lambda: {"formality": lexicon().version}))
