"""The ``example-scripted`` model provider: a deterministic model that answers any form.

A study names it like any provider, ``example-scripted/<level>``. A call with an output schema (a
review form, a judge form) is answered with the schema filled at ``<level>`` of every scale:

- a scale is an enum (read in its listed order) or an integer/number field with ``minimum`` and
  ``maximum`` (0 and 1 when absent): ``low`` answers its first value (the minimum), ``high`` its
  last (the maximum), ``mid`` its middle, rounded down (enum item ``(n - 1) // 2``, integer
  ``(minimum + maximum) // 2``): 5 on 1-10, 2 on 1-4, 3 on 1-5;
- booleans are ``false``, strings ``"scripted"``, arrays hold one item.

A call without a schema (a rewrite) is answered with the text after the last ``Section text:``
marker of the last user message, i.e. an identity rewrite. No network, no key, cost 0.

Registered by this module (the plug-in's ``example-provider`` entry point imports it).
"""

from __future__ import annotations

import json
from typing import Any

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, Usage
from rhetorica.models.errors import ConfigurationError
from rhetorica.registry import providers
from rhetorica.marker import TEXT_MARKER

LEVELS = ("low", "mid", "high")


def _fill(schema: dict[str, Any], level: str) -> Any:
    if schema.get("enum"):
        values = schema["enum"]
        return values[{"low": 0, "mid": (len(values) - 1) // 2, "high": -1}[level]]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "object" or "properties" in schema:
        return {name: _fill(sub, level) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [_fill(schema.get("items", {"type": "string"}), level)]
    if kind in ("integer", "number"):
        lo, hi = schema.get("minimum", 0), schema.get("maximum", 1)
        if level == "mid":
            return (lo + hi) // 2 if kind == "integer" else (lo + hi) / 2
        return lo if level == "low" else hi
    if kind == "boolean":
        return False
    return "scripted"


class ScriptedFormModel(ModelAPI):
    """Answers every schema at one level of its scales (see the module docstring).

    Args:
        model: ``low``, ``mid`` or ``high``.
        max_concurrency: calls in flight at once (>= 1).

    Raises:
        ConfigurationError: ``model`` is not one of the levels.
    """

    provider = "example-scripted"

    def __init__(self, model: str, *, max_concurrency: int = 8) -> None:
        if model not in LEVELS:
            raise ConfigurationError(f"example-scripted model {model!r} must be one of {', '.join(LEVELS)}")
        self.model, self.max_concurrency = model, max_concurrency

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        if config.json_schema is not None:
            text = json.dumps(_fill(config.json_schema, self.model))
        else:
            last_user = next((m.content for m in reversed(messages) if m.role == "user"), "")
            _, marker, after = last_user.rpartition(TEXT_MARKER)
            text = after.strip() if marker else last_user
        usage = Usage(input_tokens=sum(self.count_tokens(m.content) for m in messages),
                      output_tokens=self.count_tokens(text))
        return ModelOutput(provider=self.provider, model=self.model, text=text, finish_reason="stop", usage=usage,
                           effective_params=config.output_affecting())


providers.add("example-scripted", ScriptedFormModel,
              description="deterministic model: every form answered at the low, mid or high end of its scales")
