"""Open registries of rhetorica's components, filled by decorator and by installed plug-ins.

Every kind of component a study can name — conditions, dimensions, rewriters, protocols, forms,
evaluators (reviewers, judges, external systems), judge metric families, providers and stages —
and every analysis table of the report has
one :class:`Registry`. A component registers itself with a name and a one-line description
(the pattern of inspect_ai's ``@task``/``@solver`` registry)::

    from rhetorica.registry import evaluators

    @evaluators.register("my-reviewer", description="calls my review system")
    def my_reviewer(**options): ...

Another installed package adds components through the entry-point group ``rhetorica.plugins``:
each entry point names a module, and importing that module runs its ``register`` decorators
(:func:`load_plugins`, called once, lazily, by the first lookup). ``rhetorica list`` prints every
entry with its kind, source package and description.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: Entry-point group through which installed packages contribute components.
ENTRY_POINT_GROUP = "rhetorica.plugins"


class UnknownComponentError(KeyError):
    """A name looked up in a registry that has no such component (the message lists the known ones)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class DuplicateComponentError(ValueError):
    """Two different components registered under the same kind and name."""


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered component.

    Attributes:
        kind: the registry's kind (``condition``, ``evaluator`` …).
        name: the name studies use.
        value: the registered object (a class, a factory function or an instance).
        description: one line for ``rhetorica list``.
        source: distribution that registered it (``rhetorica`` for built-ins).
    """

    kind: str
    name: str
    value: T
    description: str
    source: str


class Registry(Generic[T]):
    """Name → component, open to decorators and plug-ins.

    Args:
        kind: singular noun for messages and ``rhetorica list`` (``"condition"``).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry[T]] = {}
        _ALL.append(self)

    def add(self, name: str, value: T, *, description: str = "", source: str | None = None) -> T:
        """Register ``value`` under ``name`` and return it unchanged.

        Registering the same object again under the same name is a no-op (module reloads).

        Raises:
            DuplicateComponentError: ``name`` is taken by a different object.
        """
        found = self._entries.get(name)
        if found is not None and (found.value is value or found.value == value):
            return value
        if found is not None:
            raise DuplicateComponentError(
                f"{self.kind} {name!r} is registered twice (by {found.source} and by {source or _caller_source(value)})")
        self._entries[name] = Entry(self.kind, name, value, description or _first_line(value),
                                    source or _caller_source(value))
        return value

    def register(self, name: str | None = None, *, description: str = "") -> Callable[[T], T]:
        """Decorator form of :meth:`add`; ``name`` defaults to the object's ``__name__``."""

        def decorate(value: T) -> T:
            return self.add(name or getattr(value, "__name__", str(value)), value, description=description)

        return decorate

    def get(self, name: str) -> T:
        """The component registered as ``name``.

        Raises:
            UnknownComponentError: no such component; the message lists the known names.
        """
        return self.entry(name).value

    def entry(self, name: str) -> Entry[T]:
        """The :class:`Entry` registered as ``name`` (errors as :meth:`get`)."""
        if name in self._entries:  # a built-in registered by an imported module: no plug-in load needed
            return self._entries[name]
        load_plugins()
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(sorted(self._entries)) or "none"
            raise UnknownComponentError(f"unknown {self.kind} {name!r}; known: {known}") from None

    def __contains__(self, name: object) -> bool:
        load_plugins()
        return name in self._entries

    def names(self) -> list[str]:
        """Registered names, sorted."""
        load_plugins()
        return sorted(self._entries)

    def entries(self) -> list[Entry[T]]:
        """Registered entries, sorted by name."""
        load_plugins()
        return [self._entries[n] for n in sorted(self._entries)]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())


def _first_line(value: Any) -> str:
    doc = getattr(value, "__doc__", None) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _caller_source(value: Any) -> str:
    """Distribution that registers ``value``: the plug-in whose entry point is loading, else the
    distribution owning the module that called the registry (``rhetorica`` for built-ins)."""
    if _LOADING is not None:
        return _LOADING
    module = _registering_module() or getattr(value, "__module__", None) or type(value).__module__
    top = module.split(".")[0]
    if top == "rhetorica":
        return "rhetorica"
    names = metadata.packages_distributions().get(top)
    return names[0] if names else top


def _registering_module() -> str | None:
    """``__name__`` of the innermost caller outside this module (the module that registers)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back  # type: ignore[assignment]
    return frame.f_globals.get("__name__") if frame is not None else None


_ALL: list[Registry[Any]] = []
_LOADED = False
_BUILTINS: tuple[str, ...] = ()
_LOADING: str | None = None
"""Distribution of the plug-in entry point being loaded (its registrations carry that source)."""


def builtin_modules(*modules: str) -> None:
    """Declare the rhetorica modules whose import registers the built-in components.

    :func:`load_plugins` imports them before the plug-ins, so a lookup never depends on which
    module happened to be imported first.
    """
    global _BUILTINS
    _BUILTINS = tuple(dict.fromkeys(_BUILTINS + modules))


def load_plugins() -> None:
    """Import the built-in component modules, then every ``rhetorica.plugins`` entry point, once.

    A plug-in that fails to import is reported by raising :class:`PluginError` naming the entry point.
    """
    global _LOADED, _LOADING
    if _LOADED:
        return
    _LOADED = True
    for module in _BUILTINS:
        importlib.import_module(module)
    for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        _LOADING = point.dist.name if point.dist is not None else point.name
        try:
            point.load()
        except Exception as exc:  # noqa: BLE001 - named and re-raised as one clear error
            raise PluginError(f"plug-in {point.name!r} ({point.value}) failed to load: "
                              f"{type(exc).__name__}: {exc}") from exc
        finally:
            _LOADING = None


class PluginError(RuntimeError):
    """An installed plug-in's entry point could not be imported."""


def all_entries() -> list[Entry[Any]]:
    """Every registered component of every kind, sorted by (kind, name)."""
    load_plugins()
    return sorted((e for r in _ALL for e in r._entries.values()), key=lambda e: (e.kind, e.name))


def kinds() -> list[str]:
    """The kinds of component, sorted (``condition``, ``dimension``, ``evaluator`` …)."""
    return sorted({r.kind for r in _ALL})


def list_components(kind: str | None = None) -> list[Entry[Any]]:
    """What ``rhetorica list`` prints: every registered component, or those of one kind.

    Raises:
        UnknownComponentError: ``kind`` is not a kind of component (the message lists the kinds).
        PluginError: an installed plug-in failed to load.
    """
    if kind is not None:
        kind = canonical_kind(kind)
    return [e for e in all_entries() if kind is None or e.kind == kind]


def canonical_kind(spelling: str) -> str:
    """The registry kind a user wrote: case, ``-``/``_`` for a space and a plural ``s`` are forgiven
    (``metric-family``, ``Metric_Families``, ``evaluators`` → ``metric family``, ``evaluator``).

    Raises:
        UnknownComponentError: no kind is spelled so (the message lists the kinds).
    """
    word = " ".join(spelling.strip().lower().replace("-", " ").replace("_", " ").split())
    plural = (word[:-3] + "y",) if word.endswith("ies") else (word[:-1],) if word.endswith("s") else ()
    for candidate in (word, *plural):
        if candidate in kinds():
            return candidate
    raise UnknownComponentError(f"unknown kind of component {spelling!r}; known: {', '.join(kinds())}")


# The registries. Modules that define components import the one they need from here.
conditions: Registry[Any] = Registry("condition")
dimensions: Registry[Any] = Registry("dimension")
rewriters: Registry[Any] = Registry("rewriter")
protocols: Registry[Any] = Registry("protocol")
forms: Registry[Any] = Registry("form")
evaluators: Registry[Any] = Registry("evaluator")
metric_families: Registry[Any] = Registry("metric family")
providers: Registry[Any] = Registry("provider")
batch_apis: Registry[Any] = Registry("batch api")
"""Batch APIs by provider name (:class:`rhetorica.models.batch.BatchAPI` factories taking the model):
``rhetorica batch`` submits a provider's calls to the one registered under its name."""
stages: Registry[Any] = Registry("stage")
tables: Registry[Any] = Registry("analysis table")
"""Analysis tables of the report (:class:`rhetorica.report.tables.AnalysisTable`): Markdown, LaTeX,
HTML and the viewer show every registered table."""
variant_validators: Registry[Any] = Registry("variant validator")
"""Validation of a variant by its original's document kind (``review`` → the review checks of
:func:`rhetorica.judges.study.validate_review`); a kind without one gets
:func:`rhetorica.validation.validate.validate_variant`. A validator is called as
``(original, variant, condition, embedder, validation_settings) ->``
:class:`rhetorica.validation.validate.CheckVerdict` (the validate stage makes the ``checks`` row of it)."""

recipes: Registry[Any] = Registry("recipe")
"""Published studies reproducible in one command (:class:`rhetorica.recipes.model.Recipe`; one file, one
registration: ``recipes.add(recipe.name, load_recipe(path))``); ``rhetorica recipe list`` shows them."""
recipe_data_steps: Registry[Any] = Registry("recipe data step")
"""How a recipe builds its corpus (:mod:`rhetorica.recipes.data_steps`), by kind."""

# The modules whose import registers rhetorica's own components (imported by load_plugins).
builtin_modules(
    "rhetorica.forms",
    # one module per rewrite dimension (rhetorica.dimensions)
    *(f"rhetorica.dimensions.{name}" for name in (
        "confidence", "proficiency", "novelty", "scope", "evidence", "contribution", "register", "complexity",
        "joint", "injection", "attack")),
    "rhetorica.rewriting.conditions",
    "rhetorica.rewriting.injection",
    "rhetorica.reviewers.protocols",
    "rhetorica.reviewers.llm_reviewer",
    "rhetorica.reviewers.control",
    "rhetorica.reviewers.external",
    "rhetorica.reviewers.scicore",
    "rhetorica.judges.families",
    "rhetorica.judges.judge",
    "rhetorica.judges.study",
    "rhetorica.models.registry",
    "rhetorica.models.batch",
    "rhetorica.study.stages",
    "rhetorica.study.annotation",
    "rhetorica.study.extraction",
    "rhetorica.study.workflow_stages",
    "rhetorica.report.paper_tables",
    "rhetorica.study.evaluator_kinds",
    "rhetorica.judges.kind",
    "rhetorica.study.rewriter_kinds",
    "rhetorica.attack.kind",
    "rhetorica.attack.stage",
    "rhetorica.attack.table",
    "rhetorica.recipes.builtin",
    "rhetorica.recipes.data_steps",
)
