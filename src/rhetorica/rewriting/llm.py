"""LLM rewriter: section by section, with no surrounding context (STUDIES.md §1).

Each section (or paragraph chunk, for small-context models) is sent alone with the condition's
system prompt; titles are kept. Empty sections are copied without a call. If any chunk fails, the
variant fails with that chunk's status and reason — a failed rewrite is never patched with the
original text.

A chunk that is a single paragraph is generated with a blank-line stop sequence: the rewrite of one
paragraph is one paragraph, and small models otherwise ramble on past its end. A chunk whose
generation hits the token budget is tried once more with the next seed (like the reviewer's one
repair attempt); if that is truncated too, the variant fails as ``truncated``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rhetorica.documents.models import Document, Section
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext, call_model
from rhetorica.rewriting.conditions import instruction_version, system_prompt, task_prompt
from rhetorica.marker import TEXT_MARKER
from rhetorica.status import Status

#: Output budget relative to the input's token count. It only bounds runaway output; whether the
#: length was kept (within ~10%) is judged by validation, not here.
OUTPUT_TOKEN_FACTOR = 2.0


@dataclass
class RewriteResult:
    """Outcome of rewriting one document: the variant (when ok) or the failing status and reason."""

    status: Status
    document: Document | None
    reason: str | None = None


def split_chunks(text: str, max_words: int | None) -> list[str]:
    """Split ``text`` at blank lines into chunks of at most ``max_words`` words (a single longer
    paragraph stays whole). ``None`` keeps the text as one chunk. Joining the chunks with a blank
    line restores the paragraph structure."""
    if max_words is None:
        return [text]
    chunks: list[str] = []
    current: list[str] = []
    count = 0
    for paragraph in [p for p in text.split("\n\n") if p.strip()]:
        words = len(paragraph.split())
        if current and count + words > max_words:
            chunks.append("\n\n".join(current))
            current, count = [], 0
        current.append(paragraph)
        count += words
    if current:
        chunks.append("\n\n".join(current))
    return chunks or [text]


def chunk_messages(condition: str, chunk: str) -> list[ChatMessage]:
    """The messages that ask for the rewrite of one chunk under ``condition``: the condition's
    system prompt, then the task, a blank line, :data:`TEXT_MARKER` and the chunk."""
    return [ChatMessage(role="system", content=system_prompt(condition)),
            ChatMessage(role="user", content=f"{task_prompt(instruction_version(condition))}\n\n{TEXT_MARKER}\n{chunk}")]


def _strip_echo(text: str) -> str:
    """Remove a leading copy of the marker line that small models echo back."""
    text = text.strip()
    if text.startswith(TEXT_MARKER):
        text = text[len(TEXT_MARKER):].strip()
    return text


async def rewrite_document(
    document: Document,
    condition: str,
    model: ModelAPI,
    *,
    temperature: float | None = None,
    top_p: float | None = None,
    max_chunk_words: int | None = None,
    context: CallContext | None = None,
) -> RewriteResult:
    """Rewrite every section of ``document`` under ``condition`` with ``model``.

    Returns:
        A :class:`RewriteResult`; ``document`` keeps the original's id, title, metadata and source.
    """
    sections: list[Section] = []
    for index, section in enumerate(document.sections):
        if not section.text.strip():
            sections.append(section)
            continue
        rewritten: list[str] = []
        for chunk in split_chunks(section.text, max_chunk_words):
            messages = chunk_messages(condition, chunk)
            token_cap = int(model.count_tokens(chunk) * OUTPUT_TOKEN_FACTOR) + 32
            stop = ["\n\n"] if "\n\n" not in chunk.strip() else None
            for seed in (0, 1):
                config = GenerateConfig(temperature=temperature, top_p=top_p, max_tokens=token_cap, seed=seed,
                                        stop=stop)
                output = await call_model(model, messages, config, context=context)
                if output.status != Status.TRUNCATED:
                    break
            if output.status != Status.OK:
                where = f"section {index + 1} ({section.title or 'untitled'})"
                return RewriteResult(output.status, None, f"{where}: {output.error or output.status}")
            rewritten.append(_strip_echo(output.text))
        sections.append(Section(title=section.title, text="\n\n".join(rewritten), level=section.level))
    return RewriteResult(Status.OK, document.model_copy(update={"sections": sections}))
