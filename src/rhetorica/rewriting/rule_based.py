"""Deterministic rule-based confidence rewriter (hedges, boosters and attitude markers).

A fast, reproducible baseline for demos and tests: no model, same output every time. The rule table
``confidence_rules.tsv`` (package data, version :data:`RULES_VERSION`) lists, per direction, rule
families after Hyland's interactional metadiscourse (Hyland 1998; Hyland 2005, *Metadiscourse*,
ch. 3 and Appendix 1): modal verbs, epistemic verbs, stance adverbs and phrases, copula + evaluation,
perfect aspect, result verbs, downtoners and attitude markers. Substitutions swap a hedge for a
booster (or back); insertions add a stance adverb or ``appear(s) to`` where nothing can be
swapped. Each target keeps the grammatical form of its source (``shows`` -> ``appears to show``,
``is important`` -> ``may be important``), and articles before a changed word are re-agreed (a/an).

Only prose is touched: the regions the shared tokenizer masks (math, code, citation/reference/label
commands with their arguments, URLs; :func:`rhetorica.tokenizer.mask_regions`) and LaTeX
command names are left byte-for-byte as they were. No rule has a number or an approximator
(*about*, *approximately*) as its source or target, so reported values never change. A rule is
skipped after a negation, when its first word is capitalised inside a sentence (a name such as
"May"), and after the words of the guard set it names (see the table's header).

Every rewrite reports its coverage (:class:`RuleCoverage`: edits per rule family and per 1,000
words); :func:`rewrite_document` stores it in the variant's ``metadata["rewrite_coverage"]``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rhetorica.documents.models import Document, Section
from rhetorica.rewriting.conditions import parse_condition
from rhetorica.tokenizer import mask_regions
from rhetorica.wording import counted

RULES_VERSION = "rules-v3"
RULES_FILE = "confidence_rules.tsv"
RULE_CONDITIONS = ("confidence:+", "confidence:-")
COVERAGE_KEY = "rewrite_coverage"
"""Key of the coverage record in a rule-based variant's ``metadata``."""

EditKind = Literal["substitution", "insertion", "deletion"]

_VOWEL_SOUND = re.compile(r"^(?:[aeio]|u(?![bcdfgjklmnpqrstvwxz][aeiou])|hour|honest)", re.IGNORECASE)
_PREVIOUS_WORDS = re.compile(r"(?:[A-Za-z][\w'\u2019-]*\s+){1,2}$")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n])[\s*_\"'\u201c\u201d()\[\]]*$")


@dataclass(frozen=True)
class Rule:
    """One line of the rule table.

    Attributes:
        direction: ``"+"`` (raise confidence) or ``"-"`` (lower it).
        category: rule family (``modal``, ``epistemic-verb``, ``stance-adverb``, ``phrase``,
            ``copula``, ``perfect``, ``result-verb``, ``degree``, ``attitude``).
        source: lower-case words joined by single spaces.
        target: replacement as written (``""`` deletes the source; equal to ``source``: kept).
        guard: words that block the rule when they precede the source (entries ``*xy`` match any
            word ending in ``xy``); the table's ``@negation`` words are included.
    """

    direction: str
    category: str
    source: str
    target: str
    guard: frozenset[str]

    @property
    def kind(self) -> EditKind:
        """``deletion`` (empty target), ``insertion`` (the source's words kept in order, more
        added) or ``substitution``."""
        if not self.target:
            return "deletion"
        words = iter(self.target.lower().split())
        return "insertion" if all(w in words for w in self.source.split()) else "substitution"


class RuleEdit(BaseModel):
    """One change the rewriter made.

    Attributes:
        category: the rule family.
        kind: ``substitution``, ``insertion`` or ``deletion``.
        source: the matched text as written (with a preceding article when it was re-agreed).
        target: what replaced it.
    """

    model_config = ConfigDict(frozen=True)

    category: str
    kind: EditKind
    source: str
    target: str


class RuleCoverage(BaseModel):
    """How much of a text the rule table reached.

    Attributes:
        rules_version: :data:`RULES_VERSION`.
        condition: ``confidence:+`` or ``confidence:-``.
        words: words of the rewritten text (whitespace-separated, as
            :attr:`rhetorica.documents.models.Document.word_count`).
        edits: number of changes.
        edits_per_1k: ``1000 * edits / words`` (``None`` without words).
        by_category: changes per rule family (families with none are left out).
        by_category_per_1k: the same per 1,000 words (empty without words).
        by_kind: changes per kind (substitution / insertion / deletion).
        changes: every change, in text order.
    """

    rules_version: str
    condition: str
    words: int
    edits: int
    edits_per_1k: float | None
    by_category: dict[str, int]
    by_category_per_1k: dict[str, float]
    by_kind: dict[str, int]
    changes: list[RuleEdit]


@dataclass(frozen=True)
class RuleTable:
    """A parsed rule table.

    Attributes:
        rules: direction (``"+"``/``"-"``) -> rules, longest source first.
        negation: the ``@negation`` words (checked among the two words before every rule).
    """

    rules: dict[str, tuple[Rule, ...]]
    negation: frozenset[str]


def _parse_guard(words: list[str]) -> frozenset[str]:
    return frozenset(w.strip().lower() for w in words if w.strip())


def parse_rules(text: str, *, name: str = RULES_FILE) -> RuleTable:
    """Parse a rule table (format in the header of ``confidence_rules.tsv``).

    Args:
        text: the table.
        name: file name for error messages.

    Returns:
        The :class:`RuleTable`; each direction's rules sorted longest source first (words, then
        characters), so a phrase wins over its words.

    Raises:
        ValueError: naming the line of a malformed row, an unknown guard or class, a repeated
            source within a direction, or a source that is not lower-case words.
    """
    guards: dict[str, frozenset[str]] = {}
    classes: dict[str, tuple[str, ...]] = {}
    rows: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if fields[0].startswith("@"):
            guards[fields[0][1:]] = _parse_guard(fields[1:])
        elif fields[0].startswith("%"):
            classes[fields[0]] = tuple(dict.fromkeys(" ".join(m.lower().split()) for m in fields[1:] if m.strip()))
        else:
            rows.append((number, fields))
    negation = guards.get("negation", frozenset())
    rules: dict[str, list[Rule]] = {"+": [], "-": []}
    seen: set[tuple[str, str]] = set()
    for number, fields in rows:
        if len(fields) not in (4, 5) or fields[0] not in ("+", "-") or not fields[1]:
            raise ValueError(
                f"{name} line {number}: expected 'direction<TAB>category<TAB>source<TAB>target[<TAB>guard]'")
        direction, category, source, target = fields[:4]
        guard_name = fields[4].strip() if len(fields) == 5 else ""
        if guard_name and guard_name not in guards:
            raise ValueError(f"{name} line {number}: unknown guard {guard_name!r}")
        used = [w for w in source.split() if w.startswith("%")]
        if len(used) > 1 or any(w not in classes for w in used):
            raise ValueError(f"{name} line {number}: a source may name one defined %class, got {used}")
        members = classes[used[0]] if used else (None,)
        for member in members:
            src = source if member is None else source.replace(used[0], member)
            tgt = target if member is None else target.replace(used[0], member)
            if not src or src != " ".join(src.lower().split()):
                raise ValueError(f"{name} line {number}: source {src!r} must be lower-case words")
            if (direction, src) in seen:
                raise ValueError(f"{name} line {number}: source {src!r} repeated for direction {direction}")
            seen.add((direction, src))
            rules[direction].append(Rule(direction, category, src, tgt,
                                         negation | guards.get(guard_name, frozenset())))
    ordered = {d: tuple(sorted(rs, key=lambda r: (-len(r.source.split()), -len(r.source)))) for d, rs in rules.items()}
    return RuleTable(rules=ordered, negation=negation)


@lru_cache(maxsize=1)
def load_rule_table() -> RuleTable:
    """The packaged rule table (:data:`RULES_FILE`), parsed once.

    Raises:
        ValueError: on a malformed table (see :func:`parse_rules`).
    """
    return parse_rules((resources.files("rhetorica.rewriting") / RULES_FILE).read_text("utf-8"))


def load_rules(direction: str) -> tuple[tuple[str, str], ...]:
    """``(source, target)`` pairs for ``direction`` (``+`` or ``-``), longest source phrase first.

    Raises:
        KeyError: for a direction other than ``+`` and ``-``.
        ValueError: on a malformed table line (names the line number).
    """
    return tuple((r.source, r.target) for r in load_rule_table().rules[direction])


@lru_cache(maxsize=2)
def _pattern(direction: str) -> tuple[re.Pattern[str], dict[str, Rule]]:
    rules = load_rule_table().rules[direction]
    # The sources in table order, grouped by their first letter (the order within a group kept):
    # at any position only one group can match, so the first source that matches is the same as in
    # one flat alternation, and the regex tries one group instead of every source (9x faster).
    groups: dict[str, list[str]] = {}
    for rule in rules:
        words = rule.source.split()
        groups.setdefault(words[0][0].lower(), []).append(
            re.escape(words[0][1:]) + "".join(r"\s+" + re.escape(w) for w in words[1:]))
    alternation = "|".join(f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in groups.items())
    starts = "".join(re.escape(c) for c in sorted({*groups, "a"}))  # a match starts with one of these
    # Optional preceding article so that "a/an" can be re-agreed with the replacement.
    pattern = re.compile(rf"(?<![\w-])(?=[{starts}])(?:(?P<art>\b[Aa]n?\s+))?(?P<src>{alternation})(?![\w-])",
                         re.IGNORECASE)
    return pattern, {r.source: r for r in rules}


def _match_case(template: str, word: str) -> str:
    if template[:1].isupper() and word:
        return word[0].upper() + word[1:]
    return word


def _matches(word: str, words: frozenset[str]) -> bool:
    return word in words or any(w.startswith("*") and word.endswith(w[1:]) for w in words)


def _blocked(rule: Rule, before: str, source: str, negation: frozenset[str]) -> bool:
    """Whether ``rule`` must not fire on ``source`` preceded by ``before`` (the last few characters).

    Blocked: a capitalised source inside a sentence (a name), a negation among the two previous
    words, or a word of the rule's guard just before it. Words count as previous only when
    whitespace alone separates them (punctuation ends the look-back).
    """
    if source[:1].isupper() and not _SENTENCE_START.search(before):
        return True  # a capitalised word inside a sentence is a name ("May", "Will")
    found = _PREVIOUS_WORDS.search(before)
    if found is None:
        return False
    previous = [w.lower() for w in found.group(0).split()][::-1]  # nearest first
    if _matches(previous[0], rule.guard):
        return True
    return len(previous) > 1 and _matches(previous[1], negation)


def _rewrite_prose(text: str, start: int, end: int, direction: str, edits: list[RuleEdit]) -> str:
    """Rewrite ``text[start:end]`` (prose only); the text before ``start`` is the context of guards."""
    pattern, table = _pattern(direction)
    negation = load_rule_table().negation
    out: list[str] = []
    last = start
    for match in pattern.finditer(text, start, end):
        source = match.group("src")
        rule = table[" ".join(source.lower().split())]
        # The article, when present, is the previous word ("a show" is a noun).
        before = text[max(0, match.start("src") - 80):match.start("src")]
        if rule.target == rule.source or _blocked(rule, before, source, negation):
            continue  # the matched text stays; a fixed expression is shielded from shorter rules
        article = match.group("art") or ""
        target = _match_case(source, rule.target)
        if article and target:
            bare = article.strip()
            article = _match_case(bare, "an" if _VOWEL_SOUND.match(target) else "a") + article[len(bare):]
        out.append(text[last:match.start()])
        last = match.end()
        if target:
            out.append(article + target)
        else:  # deletion: drop the whitespace on one side of the gap
            following = re.match(r"[ \t]+", text[last:end])
            if following and (article or (out and out[-1][-1:] in (" ", "\t"))):
                last += following.end()
            elif text[last:last + 1] in (",", ".", ";", ":") and not article:
                out[-1] = out[-1].rstrip(" \t")
            out.append(article)
        edits.append(RuleEdit(category=rule.category, kind=rule.kind, source=match.group(0),
                              target=article + target))
    out.append(text[last:end])
    return "".join(out)


def _check_condition(condition: str) -> str:
    parsed = parse_condition(condition)  # raises for unknown names
    if condition not in RULE_CONDITIONS:
        raise ValueError(f"the rule-based rewriter handles only {RULE_CONDITIONS}, not {condition!r}")
    return str(parsed.direction)


def _rewrite(text: str, direction: str, edits: list[RuleEdit]) -> str:

    pieces: list[str] = []
    last = 0
    for start, end, _kind in mask_regions(text)[1]:
        pieces.append(_rewrite_prose(text, last, start, direction, edits))
        pieces.append(text[start:end])
        last = end
    pieces.append(_rewrite_prose(text, last, len(text), direction, edits))
    return "".join(pieces)


def rewrite_text_with_edits(text: str, condition: str) -> tuple[str, list[RuleEdit]]:
    """Apply the rule table of ``condition`` to the prose of ``text`` and list the changes.

    Args:
        text: section text (Markdown with inline LaTeX).
        condition: ``confidence:+`` or ``confidence:-``.

    Returns:
        ``(rewritten text, changes in text order)``; masked regions are unchanged.

    Raises:
        ValueError: if ``condition`` is not a confidence condition (or not a condition at all).
    """
    direction = _check_condition(condition)
    edits: list[RuleEdit] = []
    return _rewrite(text, direction, edits), edits


def rewrite_text(text: str, condition: str) -> str:
    """Apply the rule table of ``condition`` to the prose of ``text``.

    Args:
        text: section text (Markdown/LaTeX).
        condition: ``confidence:+`` or ``confidence:-``.

    Returns:
        The rewritten text; protected spans are unchanged.

    Raises:
        ValueError: if ``condition`` is not a confidence condition.
    """
    return rewrite_text_with_edits(text, condition)[0]


def coverage(changes: list[RuleEdit], words: int, condition: str) -> RuleCoverage:
    """Summarise ``changes`` over a text of ``words`` words (see :class:`RuleCoverage`).

    Raises:
        ValueError: if ``words`` is negative.
    """
    if words < 0:
        raise ValueError(f"words must be >= 0, got {words}")
    by_category = dict(sorted(Counter(e.category for e in changes).items()))
    return RuleCoverage(
        rules_version=RULES_VERSION,
        condition=condition,
        words=words,
        edits=len(changes),
        edits_per_1k=1000.0 * len(changes) / words if words else None,
        by_category=by_category,
        by_category_per_1k={k: 1000.0 * v / words for k, v in by_category.items()} if words else {},
        by_kind=dict(sorted(Counter(e.kind for e in changes).items())),
        changes=list(changes),
    )


def rewrite_document(document: Document, condition: str) -> Document:
    """Rewrite every section of ``document`` (titles unchanged); id, source and metadata are kept.

    The variant's ``metadata[COVERAGE_KEY]`` holds the :class:`RuleCoverage` of the rewrite as a
    dict (metadata is not part of :attr:`Document.content_hash`).

    Raises:
        ValueError: if ``condition`` is not a confidence condition.
    """
    direction = _check_condition(condition)
    edits: list[RuleEdit] = []
    sections = [Section(title=s.title, text=_rewrite(s.text, direction, edits), level=s.level)
                for s in document.sections]
    rewritten = document.model_copy(update={"sections": sections})
    record = coverage(edits, rewritten.word_count, condition)
    return rewritten.model_copy(update={"metadata": {**document.metadata, COVERAGE_KEY: record.model_dump()}})


def coverage_of(variant: Document) -> RuleCoverage | None:
    """The coverage record :func:`rewrite_document` stored in ``variant`` (``None`` if there is none,
    e.g. for a variant of another rewriter)."""
    record = variant.metadata.get(COVERAGE_KEY)
    return None if record is None else RuleCoverage.model_validate(record)


def describe_coverage(record: RuleCoverage | dict[str, object]) -> str:
    """One line for a person: ``"N edits (X.X per 1k words): family n, ..."``.

    Args:
        record: a :class:`RuleCoverage` or its dict (as stored in a variant's metadata).
    """
    cov = record if isinstance(record, RuleCoverage) else RuleCoverage.model_validate(record)
    rate = "no words" if cov.edits_per_1k is None else f"{cov.edits_per_1k:.1f} per 1k words"
    families = ", ".join(f"{k} {v}" for k, v in cov.by_category.items()) or "none"
    return f"{counted(cov.edits, 'edit')} ({rate}): {families}"
