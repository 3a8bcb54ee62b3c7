"""The ``example-scripted`` model provider: a deterministic model that answers any form, live or in batches.

A study names it like any provider, ``example-scripted/<level>``. A call with an output schema (a
review form, a judge form) is answered with the schema filled at ``<level>`` of every scale:

- a scale is an enum (read in its listed order) or an integer/number field with ``minimum`` and
  ``maximum`` (0 and 1 when absent): ``low`` answers its first value (the minimum), ``high`` its
  last (the maximum), ``mid`` its middle, rounded down (enum item ``(n - 1) // 2``, integer
  ``(minimum + maximum) // 2``): 5 on 1-10, 2 on 1-4, 3 on 1-5;
- booleans are ``false``, strings ``"scripted"``, arrays hold one item.

A call without a schema (a rewrite) is answered with the text after the last ``Section text:``
marker of the last user message, with the option ``substitutions`` (``{old: new}``) applied in
order, each ``old`` replaced where it stands as whole words (case-sensitive); without it, an
identity rewrite. No network, no key, cost 0.

Batch mode: the provider has its own batch API (:class:`ScriptedBatches`, registered for
``rhetorica batch`` under the provider's name). A submitted batch is answered at once by the same
rules, its results written as JSON lines to ``<batch_dir>/<batch id>.jsonl`` (the option
``batch_dir``; default ``<system temp>/rhetorica-example-scripted``), where a later ``rhetorica
batch collect`` reads them.

Registered by this module (the plug-in's ``example-provider`` entry point imports it): the provider
and its batch API.
"""

from __future__ import annotations

import json
import re
import tempfile
import uuid
from pathlib import Path
from typing import Any

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, Usage
from rhetorica.models.errors import ConfigurationError
from rhetorica.models.batch import BatchResult
from rhetorica.registry import batch_apis, providers
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
        substitutions: ``{old: new}`` applied to a rewrite's text, in order, at whole words
            (``None``: an identity rewrite).
        batch_dir: folder of this provider's batch results (``None``: ``<system temp>/rhetorica-example-scripted``).

    Raises:
        ConfigurationError: ``model`` is not one of the levels.
    """

    provider = "example-scripted"
    #: where batch results are kept changes no answer
    cache_exempt_options = frozenset({"batch_dir"})
    #: answers in-process: ``rhetorica estimate`` prices its calls at $0
    free = True

    def __init__(self, model: str, *, max_concurrency: int = 8, substitutions: dict[str, str] | None = None,
                 batch_dir: str | None = None) -> None:
        if model not in LEVELS:
            raise ConfigurationError(f"example-scripted model {model!r} must be one of {', '.join(LEVELS)}")
        self.model, self.max_concurrency = model, max_concurrency
        self.substitutions = substitutions
        self.batch_dir = batch_dir

    def request_params(self, messages: list[ChatMessage], config: GenerateConfig) -> dict[str, Any]:
        """The request a batch carries: the messages, the output schema and the output-affecting settings."""
        return {"messages": [m.model_dump() for m in messages], "json_schema": config.json_schema,
                "effective_params": config.output_affecting()}

    def answer(self, params: dict[str, Any]) -> dict[str, Any]:
        """The response body for one request (:meth:`request_params`): ``text`` and token counts."""
        if params["json_schema"] is not None:
            text = json.dumps(_fill(params["json_schema"], self.model))
        else:
            last_user = next((m["content"] for m in reversed(params["messages"]) if m["role"] == "user"), "")
            _, marker, after = last_user.rpartition(TEXT_MARKER)
            text = after.strip() if marker else last_user
            for old, new in (self.substitutions or {}).items():
                text = re.sub(rf"\b{re.escape(old)}\b", new, text)
        return {"text": text, "input_tokens": sum(self.count_tokens(m["content"]) for m in params["messages"]),
                "output_tokens": self.count_tokens(text)}

    def parse_response(self, body: dict[str, Any], params: dict[str, Any], latency_s: float, *,
                       batch: bool = False) -> ModelOutput:
        """A response body (:meth:`answer`) as a :class:`ModelOutput` (live and batch alike)."""
        usage = Usage(input_tokens=body["input_tokens"], output_tokens=body["output_tokens"])
        return ModelOutput(provider=self.provider, model=self.model, text=body["text"], finish_reason="stop",
                           usage=usage, effective_params=params["effective_params"])

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        params = self.request_params(messages, config)
        return self.parse_response(self.answer(params), params, 0.0)


class ScriptedBatches:
    """The batch API of ``example-scripted``: answers a batch when it is submitted and keeps the
    results in ``<batch_dir>/<batch id>.jsonl`` (one ``{"custom_id", "body"}`` object per line)."""

    def __init__(self, model: ScriptedFormModel) -> None:
        self.model = model
        self.folder = Path(model.batch_dir or Path(tempfile.gettempdir()) / "rhetorica-example-scripted")

    async def submit(self, items: list[tuple[str, dict[str, Any]]]) -> str:
        batch_id = f"scripted-batch-{uuid.uuid4().hex[:12]}"
        self.folder.mkdir(parents=True, exist_ok=True)
        lines = [json.dumps({"custom_id": key, "body": self.model.answer(params)}) for key, params in items]
        (self.folder / f"{batch_id}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return batch_id

    async def state(self, batch_id: str) -> tuple[str, str]:
        if (self.folder / f"{batch_id}.jsonl").is_file():
            return "ended", "completed"
        return "failed", f"no results file {batch_id}.jsonl in {self.folder}"

    async def results(self, batch_id: str) -> dict[str, BatchResult]:
        text = (self.folder / f"{batch_id}.jsonl").read_text(encoding="utf-8")
        entries = [json.loads(line) for line in text.splitlines() if line.strip()]
        return {entry["custom_id"]: BatchResult(body=entry["body"]) for entry in entries}


providers.add("example-scripted", ScriptedFormModel,
              description="deterministic model: every form answered at the low, mid or high end of its scales")
batch_apis.add("example-scripted", ScriptedBatches,
               description="answers a batch at submission; results kept as JSON lines in the provider's batch_dir")
