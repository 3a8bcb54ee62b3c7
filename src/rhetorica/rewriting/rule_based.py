"""Deterministic rule-based confidence rewriter (hedge <-> booster substitutions).

A fast, reproducible baseline for demos and tests: no model, same output every time. The
substitution table ``confidence_rules.tsv`` (package data) pairs Hyland's hedges and boosters
(Hyland 1998; 2005, appendix) in the same grammatical form, so agreement holds without parsing.
Only prose is touched: LaTeX math, commands with their arguments, citation keys, URLs and numbers
are left byte-for-byte as they were. Articles before a replaced word are re-agreed (a/an).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from rhetorica.documents.models import Document, Section
from rhetorica.rewriting.conditions import parse_condition

RULES_VERSION = "rules-v2"
RULE_CONDITIONS = ("confidence:+", "confidence:-")

# Spans never rewritten: display/inline math, LaTeX commands with their brace arguments, URLs.
_PROTECTED = re.compile(
    r"\$\$.*?\$\$|\$[^$]*\$|\\\[.*?\\\]|\\\(.*?\\\)"
    r"|\\begin\{(equation|align|eqnarray|gather|multline|verbatim|lstlisting|algorithmic|algorithm)\*?\}.*?"
    r"\\end\{\1\*?\}"
    r"|\\[A-Za-z]+\*?(?:\[[^\]]*\])*(?:\{[^{}]*\})*"
    r"|https?://\S+",
    re.DOTALL,
)
_VOWEL_SOUND = re.compile(r"^(?:[aeio]|u(?![bcdfgjklmnpqrstvwxz][aeiou])|hour|honest)", re.IGNORECASE)


@lru_cache(maxsize=2)
def load_rules(direction: str) -> tuple[tuple[str, str], ...]:
    """Substitution pairs for ``direction`` (``+`` or ``-``), longest source phrase first.

    Raises:
        ValueError: on a malformed table line (names the line number).
    """
    text = (resources.files("rhetorica.rewriting") / "confidence_rules.tsv").read_text("utf-8")
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[0] not in "+-":
            raise ValueError(f"confidence_rules.tsv line {number}: expected 'direction<TAB>source<TAB>target'")
        if fields[0] == direction:
            pairs.append((fields[1].lower(), fields[2]))
    return tuple(sorted(pairs, key=lambda p: (-len(p[0].split()), -len(p[0]))))


@lru_cache(maxsize=2)
def _pattern(direction: str) -> tuple[re.Pattern[str], dict[str, str]]:
    rules = load_rules(direction)
    table = dict(rules)
    alternation = "|".join(r"\s+".join(map(re.escape, src.split())) for src, _ in rules)
    # Optional preceding article so that "a/an" can be re-agreed with the replacement.
    return re.compile(rf"(?<![\w-])(?:(?P<art>\b[Aa]n?\s+))?(?P<src>{alternation})(?![\w-])", re.IGNORECASE), table


def _match_case(template: str, word: str) -> str:
    if template[:1].isupper() and word:
        return word[0].upper() + word[1:]
    return word


def _rewrite_prose(text: str, direction: str) -> str:
    pattern, table = _pattern(direction)

    def replace(match: re.Match[str]) -> str:
        source = match.group("src")
        target = table[" ".join(source.lower().split())]
        article = match.group("art")
        if not target:
            return article or ""
        target = _match_case(source, target)
        if article:
            bare = article.strip()
            new_article = "an" if _VOWEL_SOUND.match(target) else "a"
            article = _match_case(bare, new_article) + article[len(bare):]
            return article + target
        return target

    out = pattern.sub(replace, text)
    # Deletions leave doubled spaces ("a  small") or a space before punctuation.
    out = re.sub(r"(?<=\S)[ \t]{2,}(?=\S)", " ", out)
    return re.sub(r"[ \t]+(?=[,.;:])", "", out)


def rewrite_text(text: str, condition: str) -> str:
    """Apply the substitution table of ``condition`` to the prose of ``text``.

    Args:
        text: section text (Markdown/LaTeX).
        condition: ``confidence:+`` or ``confidence:-``.

    Returns:
        The rewritten text; protected spans are unchanged.

    Raises:
        ValueError: if ``condition`` is not a confidence condition.
    """
    if condition not in RULE_CONDITIONS:
        parse_condition(condition)  # raises for unknown names
        raise ValueError(f"the rule-based rewriter handles only {RULE_CONDITIONS}, not {condition!r}")
    direction = condition[-1]
    pieces: list[str] = []
    last = 0
    for match in _PROTECTED.finditer(text):
        pieces.append(_rewrite_prose(text[last:match.start()], direction))
        pieces.append(match.group(0))
        last = match.end()
    pieces.append(_rewrite_prose(text[last:], direction))
    return "".join(pieces)


def rewrite_document(document: Document, condition: str) -> Document:
    """Rewrite every section of ``document`` (titles unchanged); the id and metadata are kept."""
    sections = [Section(title=s.title, text=rewrite_text(s.text, condition), level=s.level) for s in document.sections]
    return document.model_copy(update={"sections": sections})
