"""Rewrite conditions as frozen objects, parsed once, and the registered conditions of the built-ins.

A condition is one :class:`Condition` — dimension, direction, iteration, guidance, composition —
after HELM's ``PerturbationDescription`` (Liang et al., "Holistic Evaluation of Language Models",
2022: one frozen description per perturbation, kept on every perturbed instance).
:func:`parse_condition` is the only place a condition's text is read. Its grammar:

- ``<dimension>:<direction>`` with direction ``+`` or ``-`` (``confidence:+``, ``proficiency:-``,
  ``polish:+``);
- ``<dimension>`` alone, no direction (``paraphrase``: a meaning-preserving rewrite of a review);
- ``joint``: every dimension of the six-dimension study at once, positive (STUDIES.md §2);
  ``recursive:<n>``: ``joint`` applied ``n >= 2`` times in a row; ``guided``: ``joint``, then a
  review of it, then a second rewrite that answers that review (guidance ``review``);
- ``injection:<visibility>-<placement>-<wording>-<target>``: the injection family, its direction is
  the part after the colon (:mod:`rhetorica.rewriting.injection`);
- compound ``a|b``: several simple conditions applied at once (the 'Style over Substance' 2x2 batch,
  ``confidence:+|proficiency:-``);
- ``original`` (:data:`~rhetorica.labels.ORIGINAL`): the unmodified document, so that a review
  target of an original carries a :class:`Condition` too; never a rewrite condition.

Parsing is syntax only. :func:`check_condition` then checks the parsed condition against the
registries: each part's dimension must be registered in :data:`rhetorica.registry.dimensions` with a
shift rule, and the part itself in :data:`rhetorica.registry.conditions` (by its exact name, or by
a family of its dimension). :func:`parse_condition` with ``check=True`` (the default) does both; a
study refuses, at load time, a condition on a dimension without a shift rule.

The conditions ``<dimension>:+``/``-`` are registered by their dimension's module
(:mod:`rhetorica.dimensions`, or a plug-in's) with their instruction texts; the joint workflows by
:mod:`rhetorica.dimensions.joint`, the injection family by :mod:`rhetorica.rewriting.injection`.
Instruction texts are package data under ``instructions/<version>/``; the prompt version stored on
every variant is ``<version>:<hash of the texts used>``, so an edited text can never be mistaken for
the old one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass
from functools import lru_cache
from importlib import resources

from rhetorica.hashing import content_hash
from rhetorica.labels import ORIGINAL
from rhetorica.registry import UnknownComponentError, conditions, dimensions

INSTRUCTIONS_VERSION = "v1"


JOINT = "joint"
"""Dimension of the ``joint``, ``recursive:<n>`` and ``guided`` conditions."""


class UnknownConditionError(ValueError):
    """A condition that does not parse, or names an unregistered condition or dimension.

    Attributes:
        problem: what is wrong with this one condition (the message without the list of known ones).
        known: the registered condition names, comma-separated (``""`` when the problem is not an
            unknown name).
    """

    def __init__(self, problem: str, known: str = "") -> None:
        super().__init__(f"{problem}; known: {known} (combine with '|')" if known else problem)
        self.problem = problem
        self.known = known


class Condition(str):
    """One rewrite condition, as parsed from its name: the name itself (a ``str``), with its parts.

    A condition is a string subclass so that it travels where a condition name always travelled
    (variants, review targets, store rows, unit-key cells, arm labels, JSON) unchanged, while every
    reader takes the parsed fields from it instead of parsing the name again: variants
    (:class:`rhetorica.study.planner.Variant`), rewrite units and review targets
    (:class:`rhetorica.evaluation.Target`) hold one. Two conditions are equal when their names
    are (so ``condition == "confidence:+"`` holds); the fields follow from the name. ``repr`` and
    ``str`` are the name's, so messages and tables read as before; :attr:`fields` shows the rest.

    Attributes:
        name: the text it was parsed from, parts stripped (``"confidence:+|proficiency:-"``), as a
            plain ``str``.
        dimension: the rewritten dimension (``"confidence"``, ``"joint"``, ``"injection"``);
            ``None`` for a compound condition (see :attr:`composition`) and for :data:`ORIGINAL`.
        direction: ``"+"`` or ``"-"``; the family's variant for ``injection``; ``None`` when the
            dimension has no direction (``paraphrase``), for compounds and for the original.
        iteration: how many times the rewrite is applied in a row (1; ``recursive:<n>`` gives n).
        guidance: what steers the rewrite besides the instruction: ``"review"`` for ``guided``
            (a review of the first rewrite), else ``None``.
        composition: the simple conditions of a compound, in the order written; empty for a
            simple condition.
    """

    __slots__ = ("dimension", "direction", "iteration", "guidance", "composition")
    dimension: str | None
    direction: str | None
    iteration: int
    guidance: str | None
    composition: tuple[Condition, ...]

    def __new__(cls, name: str, dimension: str | None, direction: str | None = None, iteration: int = 1,
                guidance: str | None = None, composition: tuple[Condition, ...] = ()) -> Condition:
        self = super().__new__(cls, name)
        for attr, value in (("dimension", dimension), ("direction", direction), ("iteration", iteration),
                            ("guidance", guidance), ("composition", tuple(composition))):
            object.__setattr__(self, attr, value)
        return self

    def __setattr__(self, attr: str, value: object) -> None:
        raise FrozenInstanceError(f"Condition is frozen: cannot set {attr!r}")

    def __reduce__(self) -> tuple[type[Condition], tuple[object, ...]]:
        return (Condition, (str(self), self.dimension, self.direction, self.iteration, self.guidance,
                            self.composition))

    @property
    def name(self) -> str:
        """The condition's name as a plain ``str``."""
        return str.__str__(self)

    @property
    def fields(self) -> tuple[str, str | None, str | None, int, str | None, tuple[tuple[object, ...], ...]]:
        """Every field, the composition's recursively: what equal names always share."""
        return (self.name, self.dimension, self.direction, self.iteration, self.guidance,
                tuple(c.fields for c in self.composition))

    @property
    def original(self) -> bool:
        """True for :data:`ORIGINAL`, the unmodified document's label."""
        return self.name == ORIGINAL

    @property
    def parts(self) -> tuple[Condition, ...]:
        """The simple conditions this condition applies: its composition, or itself."""
        return self.composition or (self,)

    @property
    def signed(self) -> bool:
        """True for a simple one-step ``<dimension>:+`` / ``<dimension>:-`` condition (the
        conditions that have an opposite direction to compare with)."""
        return (not self.composition and self.iteration == 1 and self.guidance is None
                and self.direction in ("+", "-") and self.name == f"{self.dimension}:{self.direction}")

    @property
    def description(self) -> str:
        """One line for reports, from the registered definitions (parts joined by ``" + "``).

        Raises:
            UnknownConditionError: a part is not registered.
        """
        return " + ".join(definition(p).describe(p) for p in self.parts)


@dataclass(frozen=True)
class ConditionDefinition:
    """What rhetorica knows about a registered condition (or a family of them) beyond its name.

    Registered in :data:`rhetorica.registry.conditions` under the condition's name, or for a
    family under a pattern name (``injection:<visibility>-<placement>-<wording>-<target>``).

    Attributes:
        dimension: the dimension the condition rewrites (registered in
            :data:`rhetorica.registry.dimensions`).
        description: one line for reports and ``rhetorica list``.
        instruction_file: file under ``instructions/<version>/`` holding the LLM rewriter's
            instruction; ``None`` for conditions only a deterministic rewriter produces.
        family: ``None`` for a single condition; for a family, a function that checks a parsed
            member and returns its one-line description (raising ``ValueError`` naming the problem).
        instruction_package: the package whose ``instructions/<version>/`` folder holds
            ``instruction_file`` (a plug-in ships its own texts).
        instruction_version: the instruction texts' version folder (``None``: the caller's, by
            default :data:`INSTRUCTIONS_VERSION`); the six-dimension study's texts are ``v2``.
        instruction_text: the instruction itself, for a condition whose text lives in its
            module rather than in a file (a plug-in's dimension); used when ``instruction_file``
            is ``None``.
    """

    dimension: str
    description: str
    instruction_file: str | None = None
    family: Callable[[Condition], str] | None = None
    instruction_package: str = "rhetorica.rewriting"
    instruction_version: str | None = None
    instruction_text: str | None = None

    @property
    def has_instruction(self) -> bool:
        """Whether an LLM rewriter has an instruction text for this condition."""
        return self.instruction_file is not None or self.instruction_text is not None

    def instruction(self, version: str) -> str:
        """The instruction text, stripped: ``instruction_text``, else ``instruction_file`` read from
        ``<instruction_package>/instructions/<instruction_version or version>/``.

        Raises:
            UnknownConditionError: the condition has no instruction text.
        """
        if self.instruction_text is not None:
            return self.instruction_text.strip()
        if self.instruction_file is None:
            raise UnknownConditionError("the condition has no instruction text for an LLM rewriter")
        return _read(self.instruction_file, self.instruction_version or version, self.instruction_package).strip()

    def describe(self, condition: Condition) -> str:
        """The one-line description of ``condition`` (a family describes each member)."""
        return self.family(condition) if self.family is not None else self.description


_RECURSIVE = re.compile(r"^recursive:(\d+)$")


@lru_cache(maxsize=4096)
def _parse(text: str) -> Condition:
    """The grammar of the module docstring (syntax only)."""
    if not isinstance(text, str) or not text.strip():
        raise UnknownConditionError(f"condition {text!r} is empty")
    parts = [p.strip() for p in text.split("|")]
    if any(not p for p in parts):
        raise UnknownConditionError(f"condition {text!r} has an empty part (parts are joined by '|')")
    if len(parts) > 1:
        composition = tuple(_parse(p) for p in parts)
        return Condition("|".join(parts), None, composition=composition)
    part = parts[0]
    if part == ORIGINAL:
        return Condition(part, None)
    if part == JOINT:
        return Condition(part, JOINT, "+")
    if part == "guided":
        return Condition(part, JOINT, "+", iteration=2, guidance="review")
    if part.startswith("recursive:"):
        match = _RECURSIVE.match(part)
        if match is None or int(match[1]) < 2:
            raise UnknownConditionError(f"condition {part!r}: 'recursive:<n>' needs a whole number n >= 2 "
                                        "(how many times the joint rewrite is applied)")
        return Condition(part, JOINT, "+", iteration=int(match[1]))
    dimension, sep, direction = part.partition(":")
    if not dimension or (sep and not direction):
        raise UnknownConditionError(f"condition {part!r} must be '<dimension>:<direction>' or '<dimension>'")
    return Condition(part, dimension, direction or None)


def parse_condition(text: str, *, check: bool = True) -> Condition:
    """Parse a condition name into its frozen :class:`Condition` — the one reader of condition text.

    Args:
        text: e.g. ``"confidence:+"``, ``"confidence:+|proficiency:-"``, ``"recursive:3"``,
            ``"injection:hidden-body-command-score"``.
        check: also run :func:`check_condition` (registered condition and dimension with a shift
            rule). ``False`` reads the syntax only (arm labels of imported data, whose conditions
            rhetorica did not produce).

    Returns:
        The parsed condition (cached: equal texts give equal objects); a :class:`Condition` given
        is returned as it is (checked when ``check``).

    Raises:
        UnknownConditionError: the text does not parse, or (with ``check``) a part is unknown.
    """
    condition = text if isinstance(text, Condition) else _parse(text)
    if check:
        check_condition(condition)
    return condition


def definition(part: Condition) -> ConditionDefinition:
    """The registered definition of a simple condition: by its exact name, else the family of its
    dimension.

    Raises:
        UnknownConditionError: no condition or family of that name or dimension is registered
            (the message lists the registered ones).
    """
    if part.name in conditions:
        found = conditions.get(part.name)
        if found.family is None:
            return found
    for entry in conditions.entries():
        value = entry.value
        if getattr(value, "family", None) is not None and value.dimension == part.dimension:
            return value
    known = ", ".join(conditions.names())
    raise UnknownConditionError(f"unknown condition {part.name!r}", known)


def check_condition(condition: Condition) -> None:
    """Check a parsed condition against the registries.

    Every part needs a registered definition that accepts it, and a dimension registered in
    :data:`rhetorica.registry.dimensions` whose entry carries a shift rule
    (:class:`rhetorica.validation.shift.ShiftRule`; an explicit "no shift expected" rule, as for
    ``injection``, counts); a compound may not name a
    dimension twice.

    Raises:
        UnknownConditionError: naming the part and the problem.
    """
    for part in condition.parts:
        if part.name == ORIGINAL:
            raise UnknownConditionError(f"{ORIGINAL!r} is the unmodified document, not a rewrite condition")
        found = definition(part)
        if found.family is not None:
            try:
                found.family(part)
            except ValueError as exc:
                raise UnknownConditionError(str(exc)) from exc
        try:
            dimension = dimensions.get(str(part.dimension))
        except UnknownComponentError as exc:
            raise UnknownConditionError(f"condition {part.name!r}: dimension {part.dimension!r} has no "
                                        f"registered shift rule ({exc})") from None
        if getattr(dimension, "shift", None) is None:
            raise UnknownConditionError(f"condition {part.name!r}: dimension {part.dimension!r} is registered "
                                        "without a shift rule")
    dims = [p.dimension for p in condition.parts]
    twice = sorted({d for d in dims if dims.count(d) > 1 and d is not None})
    if twice:
        raise UnknownConditionError(f"condition {condition.name!r} names the dimension {twice[0]!r} twice")


@lru_cache(maxsize=64)
def _read(filename: str, version: str, package: str = "rhetorica.rewriting") -> str:
    """An instruction text of the installed package, read once per process."""
    return (resources.files(package) / "instructions" / version / filename).read_text("utf-8")


def instruction_version(condition: str, default: str = INSTRUCTIONS_VERSION) -> str:
    """The instruction texts' version a condition's prompt is built from: the one its parts declare
    (:attr:`ConditionDefinition.instruction_version`), else ``default``.

    Raises:
        UnknownConditionError: an unknown condition, or parts whose texts come from different versions.
    """
    versions = {definition(part).instruction_version or default for part in parse_condition(condition).parts}
    if len(versions) > 1:
        raise UnknownConditionError(f"condition {condition!r} combines instruction texts of versions "
                                    f"{', '.join(sorted(versions))}; combine conditions of one version")
    return versions.pop()


def system_prompt(condition: str, version: str = INSTRUCTIONS_VERSION) -> str:
    """System prompt for an LLM rewriter: integrity rules then each style target (texts of the
    condition's :func:`instruction_version`, ``version`` when its parts declare none).

    Raises:
        UnknownConditionError: an unknown condition, or one without an instruction text.
    """
    version = instruction_version(condition, version)
    texts = [integrity_prompt(version)]
    for part in parse_condition(condition).parts:
        found = definition(part)
        if not found.has_instruction:
            raise UnknownConditionError(f"condition {part.name!r} has no instruction text for an LLM rewriter")
        texts.append(found.instruction(version))
    return "\n\n".join(texts)


def integrity_prompt(version: str = INSTRUCTIONS_VERSION) -> str:
    """The content-integrity rules every LLM rewrite's system prompt starts with (``integrity.md``)."""
    return _read("integrity.md", version).strip()


def task_prompt(version: str = INSTRUCTIONS_VERSION) -> str:
    """Fixed user-message preamble placed before the section text."""
    return _read("task.md", version).strip()


def prompt_version(condition: str, version: str = INSTRUCTIONS_VERSION) -> str:
    """``<version>:<8-hex hash of the exact texts used for this condition>``."""
    version = instruction_version(condition, version)
    return f"{version}:{content_hash(system_prompt(condition, version), task_prompt(version), length=8)}"


def upstream_condition(name: str) -> str | None:
    """The condition whose variant ``name`` rewrites further: ``joint`` for ``recursive:2`` and
    ``guided``, ``recursive:<n-1>`` for ``recursive:<n>`` (n ≥ 3); ``None`` for a first rewrite."""
    condition = parse_condition(name, check=False)
    if condition.dimension != JOINT or condition.iteration == 1 or condition.composition:
        return None
    if condition.guidance == "review" or condition.iteration == 2:
        return "joint"
    return f"recursive:{condition.iteration - 1}"


def condition_depth(name: str) -> int:
    """How many rewrites lead to a variant of ``name``: 1, or 1 + its upstream's depth."""
    up = upstream_condition(name)
    return 1 if up is None else 1 + condition_depth(up)
