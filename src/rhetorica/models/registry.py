"""Resolve a model id such as ``embedded/smollm2-135m`` or ``mock/scripted`` to a :class:`ModelAPI`.

Model ids are ``<provider>/<model>``; an OpenAI-compatible endpoint is
``openai-compatible/<model>@<base_url>``. Every provider, built-in or from another package, is an
entry of :data:`rhetorica.registry.providers` and is looked up there (plug-ins register through the
``rhetorica.plugins`` entry-point group, :mod:`rhetorica.registry`). An entry's value is either a
:class:`ModelAPI` subclass or a :class:`LazyProvider` naming one by ``"module:Class"``; the
built-ins register lazily, so a missing optional extra only matters when that provider is used,
and then gives an install hint::

    from rhetorica.registry import providers

    providers.add("my-provider", MyModel, description="my model API")   # MyModel(model=..., **options)
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from rhetorica.models.api import ModelAPI
from rhetorica.models.errors import ModelError, ProviderNotInstalledError, UnknownProviderError
from rhetorica.models.redaction import redact_urls
from rhetorica.registry import UnknownComponentError, providers


@dataclass(frozen=True)
class LazyProvider:
    """A provider class named by import path, imported at its first use.

    Attributes:
        target: ``"package.module:ClassName"``; the class takes ``model=`` plus the provider's options.
        extra: the ``rhetorica[<extra>]`` pip extra that installs the module's dependencies (``None``:
            none needed; the hint then says to reinstall the package that registered it).
        free: the class's :attr:`ModelAPI.free`, stated here so that pricing needs no import.
        prompt_cache: the class's :attr:`ModelAPI.prompt_cache`, stated here so that scheduling needs
            no import.
        requires: modules the class imports only inside the calls that need them (a provider SDK,
            kept out of ``rhetorica list``); each must be installed for :meth:`load`, which finds
            them without importing them.
    """

    target: str
    extra: str | None = None
    free: bool = False
    prompt_cache: str = "none"
    requires: tuple[str, ...] = ()

    def load(self, provider: str) -> type[ModelAPI]:
        """Import and return the class.

        Raises:
            ProviderNotInstalledError: the module (or a package it imports) is not installed; the
                message names the ``pip install`` command.
        """
        module_name, _, class_name = self.target.partition(":")
        try:
            missing = next((name for name in self.requires if not _installed(name)), None)
            if missing is not None:
                raise ModuleNotFoundError(f"No module named {missing!r}", name=missing)
            module = importlib.import_module(module_name)
        except ImportError as exc:  # a required SDK, or a module the provider imports at top level
            hint = f"pip install 'rhetorica[{self.extra}]'" if self.extra else "reinstall the package that provides it"
            raise ProviderNotInstalledError(
                f"provider {provider!r} needs a package that is not installed ({exc.name}); run: {hint}"
            ) from exc
        return getattr(module, class_name)


def _installed(module: str) -> bool:
    """Whether ``module`` can be imported, found without importing it (its parent packages are)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


#: rhetorica's own providers, registered like a plug-in's: name -> lazy class, pip extra, free, prompt cache
#: (:data:`rhetorica.study.scheduling.PROMPT_CACHES`, or ``probe``: ask the server; the mock simulates a provider
#: API's prefix cache; the embedded model is one slot), the SDK its calls import
for _name, _target, _extra, _free, _cache, _requires in (
    ("mock", "rhetorica.models.providers.mock:MockModel", None, True, "prefix", ()),
    ("embedded", "rhetorica.models.providers.embedded:EmbeddedModel", "embedded", True, "slots", ()),
    ("openai-compatible", "rhetorica.models.providers.openai_compatible:OpenAICompatibleModel", "openai", False,
     "probe", ("openai",)),
    ("openai", "rhetorica.models.providers.openai_provider:OpenAIModel", "openai", False, "prefix", ("openai",)),
    ("anthropic", "rhetorica.models.providers.anthropic_provider:AnthropicModel", "anthropic", False, "prefix",
     ("anthropic",)),
    ("google", "rhetorica.models.providers.google_provider:GoogleModel", "google", False, "prefix",
     ("google.genai",)),
):
    providers.add(_name, LazyProvider(_target, _extra, _free, _cache, _requires),
                  description=f"model provider {_target}" + (f" (extra: {_extra})" if _extra else ""))


def provider_names() -> list[str]:
    """Every registered provider name, sorted (built-ins and plug-ins)."""
    return providers.names()


def _unknown(provider: str, model_id: str | None = None) -> UnknownProviderError:
    where = f" in model id {redact_urls(model_id)!r}" if model_id is not None else ""
    return UnknownProviderError(f"unknown provider {provider!r}{where}; known providers: {', '.join(provider_names())}")


def split_model_id(model_id: str) -> tuple[str, str]:
    """Split ``provider/model`` into its parts.

    Raises:
        UnknownProviderError: if the id has no ``/`` or names an unregistered provider.
    """
    provider, sep, model = model_id.partition("/")
    if not sep or not model:
        raise UnknownProviderError(f"model id {redact_urls(model_id)!r} must look like '<provider>/<model>'; "
                                   f"known providers: {', '.join(provider_names())}")
    if provider not in providers:
        raise _unknown(provider, model_id)
    return provider, model


def provider_is_free(provider: str) -> bool:
    """Whether a registered provider bills nothing per token (:attr:`ModelAPI.free`; a lazily
    registered one answers from its :class:`LazyProvider` without importing it); ``False`` for an
    unregistered name."""
    if provider not in providers:
        return False
    value = providers.get(provider)
    return value.free if isinstance(value, LazyProvider) else bool(getattr(value, "free", False))


def provider_prompt_cache(provider: str) -> str:
    """The prompt cache a registered provider's servers keep by default (:attr:`ModelAPI.prompt_cache`;
    a lazily registered one answers from its :class:`LazyProvider`); ``"none"`` for an unregistered name."""
    if provider not in providers:
        return "none"
    value = providers.get(provider)
    return value.prompt_cache if isinstance(value, LazyProvider) else str(getattr(value, "prompt_cache", "none"))


def provider_class(provider: str) -> type[ModelAPI]:
    """The class of a registered provider (imports its module when registered lazily).

    Raises:
        UnknownProviderError: unregistered provider, or an entry that is not a provider class.
        ProviderNotInstalledError: the provider's optional dependency is missing (message names the
            ``pip install 'rhetorica[<extra>]'`` command).
    """
    try:
        entry = providers.entry(provider)
    except UnknownComponentError:
        raise _unknown(provider) from None
    value = entry.value.load(provider) if isinstance(entry.value, LazyProvider) else entry.value
    if not (isinstance(value, type) and issubclass(value, ModelAPI)):
        raise UnknownProviderError(f"provider {provider!r} (registered by {entry.source}) is not a ModelAPI "
                                   f"subclass: {value!r}")
    return value


def get_model(model_id: str, **options: Any) -> ModelAPI:
    """Instantiate the provider for ``model_id`` with provider-specific ``options``.

    Raises:
        UnknownProviderError: bad or unknown provider.
        ProviderNotInstalledError: the provider's optional dependency is missing (message names the
            ``pip install 'rhetorica[<extra>]'`` command).
    """
    provider, model = split_model_id(model_id)
    return provider_class(provider)(model=model, **options)


def provider_option_lines(provider: str) -> dict[str, str]:
    """Option name -> ``type (default …)`` of a registered provider: the keyword parameters of its
    class's ``__init__`` along the class hierarchy (:meth:`ModelAPI.declared_options`), as
    ``rhetorica list`` and ``rhetorica schema`` show them.

    Returns:
        The options in name order; empty when the provider's optional dependency is not installed
        (or it declares none).
    """
    try:
        cls = provider_class(provider)
    except ModelError:
        return {}
    lines = {}
    for name in cls.declared_options():
        _, param = _option_parameter(cls, name)
        default = "required" if param.default is param.empty else f"default {param.default!r}"
        text = _annotation_text(param)
        lines[name] = f"{text} ({default})" if text else f"({default})"
    return lines


def _option_parameter(cls: type[ModelAPI], name: str) -> tuple[type, inspect.Parameter]:
    """The class along ``cls``'s hierarchy whose ``__init__`` declares option ``name``, and that parameter."""
    return next((k, params[name]) for k, params in ((k, inspect.signature(k.__init__).parameters) for k in cls.__mro__)
                if name in params)


def _annotation_text(param: inspect.Parameter) -> str:
    """A parameter's annotation as written (``""`` when it has none)."""
    annotation = param.annotation
    if annotation is param.empty:
        return ""
    return annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)


def provider_option_type_problems(provider: str, options: dict[str, Any]) -> list[str]:
    """``options.<name>: <problem> (provider <p> takes <type>)`` for each of ``options`` whose value
    does not fit the type its provider's ``__init__`` annotates (pydantic's lax validation), in name
    order; options without a resolvable annotation, and providers not installed, are not checked.

    Catches at load what would otherwise fail inside every call of the study (a plug-in provider's
    ``substitutions: [a]`` where a mapping is declared).
    """
    try:
        cls = provider_class(provider)
    except ModelError:
        return []
    problems = []
    for name in sorted(set(options) & set(cls.declared_options())):
        klass, param = _option_parameter(cls, name)
        try:
            adapter = TypeAdapter(typing.get_type_hints(klass.__init__)[name])
        except Exception:  # noqa: BLE001 - an annotation that cannot be resolved or adapted is not checked
            continue
        try:
            adapter.validate_python(options[name])
        except ValidationError as exc:
            problems.append(f"options.{name}: {exc.errors()[0]['msg']} (provider {provider} takes "
                            f"{_annotation_text(param)})")
    return problems
