"""Resolve a model id such as ``embedded/smollm2-135m`` or ``mock/scripted`` to a :class:`ModelAPI`.

Model ids are ``<provider>/<model>``; an OpenAI-compatible endpoint is
``openai-compatible/<model>@<base_url>``. Providers are imported lazily so that a missing optional
extra only matters when that provider is used, and then gives an install hint.
"""

from __future__ import annotations

import importlib
from typing import Any

from rhetorica.models.api import ModelAPI
from rhetorica.models.errors import ProviderNotInstalledError, UnknownProviderError
from rhetorica.models.redaction import redact_urls
from rhetorica.registry import providers

#: provider name -> ("module:Class", pip extra that provides its dependency or None)
PROVIDERS: dict[str, tuple[str, str | None]] = {
    "mock": ("rhetorica.models.providers.mock:MockModel", None),
    "embedded": ("rhetorica.models.providers.embedded:EmbeddedModel", "embedded"),
    "openai-compatible": ("rhetorica.models.providers.openai_compatible:OpenAICompatibleModel", "openai"),
    "openai": ("rhetorica.models.providers.openai_provider:OpenAIModel", "openai"),
    "anthropic": ("rhetorica.models.providers.anthropic_provider:AnthropicModel", "anthropic"),
    "google": ("rhetorica.models.providers.google_provider:GoogleModel", "google"),
}
for _name, (_target, _extra) in PROVIDERS.items():
    providers.add(_name, _target, description=f"model provider {_target}" + (f" (extra: {_extra})" if _extra else ""))


def split_model_id(model_id: str) -> tuple[str, str]:
    """Split ``provider/model`` into its parts.

    Raises:
        UnknownProviderError: if the id has no ``/`` or names an unregistered provider.
    """
    provider, sep, model = model_id.partition("/")
    shown = redact_urls(model_id)
    if not sep or not model:
        raise UnknownProviderError(
            f"model id {shown!r} must look like '<provider>/<model>'; known providers: " + ", ".join(sorted(PROVIDERS))
        )
    if provider not in PROVIDERS:
        raise UnknownProviderError(
            f"unknown provider {provider!r} in model id {shown!r}; known providers: " + ", ".join(sorted(PROVIDERS))
        )
    return provider, model


def provider_class(provider: str) -> type[ModelAPI]:
    """The class of a registered provider (imports its module).

    Raises:
        UnknownProviderError: unregistered provider.
        ProviderNotInstalledError: the provider's optional dependency is missing (message names the
            ``pip install 'rhetorica[<extra>]'`` command).
    """
    if provider not in PROVIDERS:
        raise UnknownProviderError(f"unknown provider {provider!r}; known providers: {', '.join(sorted(PROVIDERS))}")
    target, extra = PROVIDERS[provider]
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:  # the provider module imports its SDK at top level
        hint = f"pip install 'rhetorica[{extra}]'" if extra else "reinstall rhetorica"
        raise ProviderNotInstalledError(
            f"provider {provider!r} needs a package that is not installed ({exc.name}); run: {hint}"
        ) from exc
    return getattr(module, class_name)


def get_model(model_id: str, **options: Any) -> ModelAPI:
    """Instantiate the provider for ``model_id`` with provider-specific ``options``.

    Raises:
        UnknownProviderError: bad or unknown provider.
        ProviderNotInstalledError: the provider's optional dependency is missing (message names the
            ``pip install 'rhetorica[<extra>]'`` command).
    """
    provider, model = split_model_id(model_id)
    return provider_class(provider)(model=model, **options)
