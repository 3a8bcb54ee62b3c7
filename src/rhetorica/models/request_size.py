"""How many input tokens one request carries, counted without calling the model: the one count
that ``rhetorica estimate`` plans with and a study budget reserves with
(:mod:`rhetorica.models.budget`).

A request is its messages plus what the provider adds to them (the schema instruction of
``json_object``/``prompt`` structured output, :func:`schema_note`; a schema sent as a tool or a
``response_format``; a provider's ``extra_body``), plus the chat template's markers. Each text is
counted by:

1. the model's own tokenizer where one is at hand offline: the embedded models' GGUF vocabularies
   (:data:`rhetorica.models.embedded_files.EMBEDDED_MODELS`, loaded ``vocab_only`` through
   llama-cpp-python), for ``embedded/<name>`` and for any model id whose name holds the name's
   family (``smollm2`` of ``smollm2-135m``: SmolLM2's sizes share one tokenizer; e.g. the same GGUF
   behind ``python -m llama_cpp.server``);
2. otherwise the stated weights :data:`TOKENS_PER_UNIT` of the model's family
   (:func:`model_family`): tokens = (w·letter runs + d·digits + s·other non-space characters) ×
   :data:`RATIO_MARGIN`, rounded up.

Calibration (``benchmarks/bench_token_ratio.py`` prints it): least squares against SmolLM2-135M's
tokenizer (a 49,152-entry byte-level BPE, the only tokenizer available offline) on the Markdown of
the six shared papers (``/work/shared/data/papers`` through :func:`rhetorica.documents.read_document`;
9,411-14,200 tokens each). Without the margin the weights miss each paper's count by -1.9% to
+0.8% (leave-one-paper-out: -2.7% to +4.2%); words × 1.35, the count used before, missed by -46%
to -21%, and characters / 3.65, the best single ratio, by ±14%. :data:`RATIO_MARGIN` (+5%) keeps a
ratio count above the tokenizer's, so a budget reserves at least the request. No family whose
tokenizer is not at hand has measured weights: they use SmolLM2's, whose vocabulary is smaller than
GPT-4o's (200k), Llama 3's (128k), Qwen 2.5's (151k) or Gemini's (256k), so they should count more
tokens than those tokenizers do — expected, not measured.

The chat template adds up to :data:`MESSAGE_OVERHEAD_TOKENS` per message and
:data:`REQUEST_OVERHEAD_TOKENS` per request (ChatML's ``<|im_start|>role\\n ... <|im_end|>\\n`` is
5 tokens a message and 3 for the assistant's turn; SmolLM2's template adds a 20-token default
system message to a request that has none).
"""

from __future__ import annotations

import atexit
import functools
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rhetorica.models.embedded_files import EMBEDDED_MODELS, gguf_path

#: The instruction added in ``json_object`` and ``prompt`` mode, before the schema itself.
SCHEMA_INSTRUCTION = (
    "Reply with one JSON object and nothing else (no prose, no code fence). "
    "It must validate against this JSON Schema:"
)

#: Tokens per letter run, per digit and per other non-space character, by model family
#: (calibration in the module docstring).
TOKENS_PER_UNIT: dict[str, tuple[float, float, float]] = {
    "default": (1.275, 1.254, 0.699),
}
#: Factor on a count made with :data:`TOKENS_PER_UNIT` (above the calibration's largest miss).
RATIO_MARGIN = 1.05
_LETTER_RUNS = re.compile(r"[A-Za-z]+")
_DIGITS = re.compile(r"[0-9]")
_OTHERS = re.compile(r"[^\sA-Za-z0-9]")

#: Tokens the chat template adds per message (role markers), an upper bound.
MESSAGE_OVERHEAD_TOKENS = 8
#: Tokens the chat template adds per request (the assistant's turn, a default system message).
REQUEST_OVERHEAD_TOKENS = 32


class _Message(Protocol):
    role: str
    content: str


def schema_note(schema: dict[str, Any]) -> str:
    """The text ``json_object`` and ``prompt`` structured output add to the system message:
    :data:`SCHEMA_INSTRUCTION` and the schema as sorted JSON."""
    return f"{SCHEMA_INSTRUCTION}\n{json.dumps(schema, sort_keys=True)}"


def model_family(model_id: str) -> str:
    """The key of :data:`TOKENS_PER_UNIT` that counts ``model_id`` (``default`` for every model
    until another family is calibrated)."""
    name = model_id.partition("/")[2].partition("@")[0].lower()
    return next((family for family in TOKENS_PER_UNIT if family != "default" and family in name), "default")


@functools.cache
def _embedded_tokenizer(name: str) -> Callable[[str], int] | None:
    """The token counter of the embedded model ``name`` (GGUF vocabulary only, no weights), or
    ``None`` when llama-cpp-python or the model's package is missing."""
    try:
        from llama_cpp import Llama

        llm = Llama(model_path=str(gguf_path(name)), vocab_only=True, verbose=False)
    except Exception:  # noqa: BLE001 - not installed, or an unloadable file: the ratio counts instead
        return None
    atexit.register(llm.close)  # freed before the interpreter tears llama_cpp down (else a TypeError at exit)
    return lambda text: len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def own_tokenizer(model_id: str) -> Callable[[str], int] | None:
    """The model's own tokenizer where one is at hand offline (module docstring), else ``None``."""
    name = model_id.partition("/")[2].partition("@")[0].lower()
    return next((_embedded_tokenizer(known) for known in EMBEDDED_MODELS if known.partition("-")[0] in name), None)


def ratio_tokens(text: str, family: str = "default") -> int:
    """Tokens of ``text`` by ``family``'s weights (:data:`TOKENS_PER_UNIT`) and
    :data:`RATIO_MARGIN`, rounded up; 0 for a text without a non-space character."""
    letters, digits, others = TOKENS_PER_UNIT[family]
    units = (letters * len(_LETTER_RUNS.findall(text)) + digits * len(_DIGITS.findall(text))
             + others * len(_OTHERS.findall(text)))
    return math.ceil(units * RATIO_MARGIN)


@functools.lru_cache(maxsize=4096)
def count_text(model_id: str, text: str) -> int:
    """Tokens of ``text`` for ``model_id``: its own tokenizer (:func:`own_tokenizer`), else its
    family's weights (:func:`ratio_tokens`). ``0`` for an empty text."""
    if not text:
        return 0
    tokenizer = own_tokenizer(model_id)
    return tokenizer(text) if tokenizer is not None else ratio_tokens(text, model_family(model_id))


def request_tokens(model_id: str, messages: Sequence[_Message], schema: dict[str, Any] | None = None,
                   extras: Sequence[dict[str, Any]] = ()) -> int:
    """Input tokens of one request as sent (an upper bound: see the module docstring).

    Args:
        model_id: ``provider/model[@url]``.
        messages: the messages rhetorica builds.
        schema: the call's output schema; counted whether the provider puts it in the prompt
            (:func:`schema_note`), a tool or a ``response_format``.
        extras: other JSON the provider sends with every request (``extra_body``).

    Returns:
        Tokens (>= :data:`REQUEST_OVERHEAD_TOKENS`).
    """
    total = REQUEST_OVERHEAD_TOKENS + sum(count_text(model_id, m.content) + MESSAGE_OVERHEAD_TOKENS
                                          for m in messages)
    if schema is not None:
        total += count_text(model_id, schema_note(schema)) + 1  # the blank line joining it to the system text
    return total + sum(count_text(model_id, json.dumps(extra, sort_keys=True)) for extra in extras if extra)
