"""Registry of rewrite conditions (dimension + direction) and their versioned instruction texts.

Conditions of the 'Style over Substance' study (STUDIES.md §1): ``confidence:+`` (high expressed
confidence), ``confidence:-`` (low), ``proficiency:+`` (native-associated English), ``proficiency:-``
(non-native-associated). A compound condition such as ``confidence:+|proficiency:-`` applies both
style targets at once (the study's 2x2 batch). Instruction texts are package data under
``instructions/<version>/``; the prompt version stored on every variant is
``<version>:<hash of the texts used>``, so an edited text can never be mistaken for the old one.

The ``injection:`` family (``injection:<visibility>-<placement>-<wording>-<target>``, planted by the
deterministic rewriter of :mod:`rhetorica.rewriting.injection`) is parsed here too; its direction
is the part after the colon and it has no instruction file.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from rhetorica.hashing import content_hash

INSTRUCTIONS_VERSION = "v1"
ORIGINAL = "original"


class UnknownConditionError(ValueError):
    """A condition name that is not registered."""


@dataclass(frozen=True)
class Condition:
    """One rewrite condition.

    Attributes:
        name: ``<dimension>:<direction>``, direction ``+`` or ``-``.
        dimension: e.g. ``confidence``.
        direction: ``+`` or ``-``.
        description: one line for reports.
        instruction_file: file name under ``instructions/<version>/``.
    """

    name: str
    dimension: str
    direction: str
    description: str
    instruction_file: str


CONDITIONS: dict[str, Condition] = {
    c.name: c
    for c in (
        Condition("confidence:+", "confidence", "+", "high expressed confidence (fewer hedges, more boosters)",
                  "confidence_plus.md"),
        Condition("confidence:-", "confidence", "-", "low expressed confidence (more hedges, fewer boosters)",
                  "confidence_minus.md"),
        Condition("proficiency:+", "proficiency", "+", "native-associated academic English",
                  "proficiency_plus.md"),
        Condition("proficiency:-", "proficiency", "-", "non-native-associated academic English",
                  "proficiency_minus.md"),
    )
}


def parse_condition(name: str) -> tuple[Condition, ...]:
    """Resolve a simple or compound (``a|b``) condition name.

    Raises:
        UnknownConditionError: if a part is not registered or a dimension appears twice.
    """
    parts = tuple(p.strip() for p in name.split("|"))
    found = []
    for part in parts:
        if part.startswith("injection:"):
            found.append(_injection_condition(part))
            continue
        if part not in CONDITIONS:
            raise UnknownConditionError(
                f"unknown condition {part!r}; known: {', '.join(sorted(CONDITIONS))} (combine with '|')"
            )
        found.append(CONDITIONS[part])
    dims = [c.dimension for c in found]
    if len(set(dims)) != len(dims):
        raise UnknownConditionError(f"condition {name!r} names the dimension {dims[0]!r} twice")
    return tuple(found)


def _injection_condition(name: str) -> Condition:
    from rhetorica.rewriting.injection import InjectionSpec

    try:
        spec = InjectionSpec(name)
    except ValueError as exc:
        raise UnknownConditionError(str(exc)) from exc
    return Condition(name, "injection", name.partition(":")[2], spec.describe(), "")


def _read(filename: str, version: str) -> str:
    return (resources.files("rhetorica.rewriting") / "instructions" / version / filename).read_text("utf-8")


def system_prompt(condition: str, version: str = INSTRUCTIONS_VERSION) -> str:
    """System prompt for an LLM rewriter: integrity rules then each style target."""
    texts = [_read("integrity.md", version)] + [_read(c.instruction_file, version) for c in parse_condition(condition)]
    return "\n\n".join(t.strip() for t in texts)


def task_prompt(version: str = INSTRUCTIONS_VERSION) -> str:
    """Fixed user-message preamble placed before the section text."""
    return _read("task.md", version).strip()


def prompt_version(condition: str, version: str = INSTRUCTIONS_VERSION) -> str:
    """``<version>:<8-hex hash of the exact texts used for this condition>``."""
    return f"{version}:{content_hash(system_prompt(condition, version), task_prompt(version), length=8)}"
