"""The JSON Schema of study files (``rhetorica schema``): :class:`~rhetorica.study.config.StudyConfig`
with each reviewer and rewriter a discriminated union over the registered kinds (built-ins and
plug-ins alike), each variant's ``options`` the kind's options model (:func:`rhetorica.kinds.options_of`).
The model options and a rewriter's conditions are described with the registered providers (and the
options each takes) and the registered conditions.

The union is built from the registries when the schema is asked for, so a plug-in's kind appears
with its options without any edit here. Loading a study validates each configuration through its
kind (:meth:`rhetorica.kinds.EvaluatorKind.check`) on the one spec class, whose dump — and so every
unit key — does not depend on which kinds are registered.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Field, create_model

from rhetorica.kinds import options_of
from rhetorica.models.registry import provider_option_lines
from rhetorica.registry import Entry, conditions, evaluators, providers, rewriters
from rhetorica.study.config import ReviewerSpec, RewriterSpec, StudyConfig


def _variant(base: type[BaseModel], entry: Entry[Any]) -> type[BaseModel]:
    """``base`` for one kind: ``kind`` fixed to its name, ``options`` its options model (the spec's
    own ``options`` field when the kind declares none)."""
    options = options_of(entry.value)
    default = base.model_fields["kind"].default
    kind_field = (Literal[entry.name], Field(default=entry.name) if entry.name == default else Field())
    fields: dict[str, Any] = {"kind": kind_field}
    if options is not None:  # a kind without a declared model keeps the spec's options field
        fields["options"] = (options, Field(default=None, description=f"options of kind {entry.name!r}"))
    name = f"{base.__name__}_{re.sub(r'[^A-Za-z0-9]+', '_', entry.name)}"
    return create_model(name, __base__=base, __doc__=f"{entry.description} (kind {entry.name!r}).", **fields)


def _union(base: type[BaseModel], entries: list[Entry[Any]]) -> Any:
    variants = tuple(_variant(base, e) for e in entries)
    return Annotated[Union[variants], Field(discriminator="kind")]  # noqa: UP007 - built at run time


def study_schema() -> dict[str, Any]:
    """The JSON Schema of a study file, every registered evaluator and rewriter kind a variant."""
    schema_model = create_model(
        "StudyConfig", __base__=StudyConfig, __doc__=StudyConfig.__doc__,
        reviewers=(list[_union(ReviewerSpec, evaluators.entries())], Field(min_length=1)),  # type: ignore[misc]
        rewriters=(list[_union(RewriterSpec, rewriters.entries())], Field(default_factory=list)))  # type: ignore[misc]
    schema = schema_model.model_json_schema()
    defs = schema["$defs"]
    by_provider = "; ".join(f"{name}: {', '.join(options)}" for name in providers.names()
                            if (options := provider_option_lines(name)))
    defs["ModelOptions"]["description"] += (
        f"\n\nOptions by provider (types and defaults: `rhetorica list --kind provider`): {by_provider}.")
    known = ", ".join(conditions.names())
    for name, definition in defs.items():
        if name.startswith("RewriterSpec_") and "conditions" in definition["properties"]:
            definition["properties"]["conditions"]["description"] = (
                f"registered conditions: {known}; `|` joins several into one (`rhetorica list --kind condition`)")
    return schema
