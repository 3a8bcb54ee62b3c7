"""What a real Markdown parser (markdown-it-py, CommonMark with GFM's table rule) reads in the
reader's output: its tables and its fenced code blocks."""

from __future__ import annotations

from markdown_it import MarkdownIt

PARSER = MarkdownIt("commonmark").enable("table")


def tables(markdown: str) -> list[list[list[str]]]:
    """Every table ``markdown`` holds, as rows of cell texts (the header row first)."""
    out: list[list[list[str]]] = []
    row: list[str] | None = None
    for token in PARSER.parse(markdown):
        if token.type == "table_open":
            out.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token.content)
        elif token.type == "tr_close" and row is not None:
            out[-1].append(row)
            row = None
    return out


def code_blocks(markdown: str) -> list[str]:
    """The contents of every fenced code block of ``markdown`` (its last newline removed)."""
    return [t.content.removesuffix("\n") for t in PARSER.parse(markdown) if t.type == "fence"]


def paragraphs(markdown: str) -> list[str]:
    """The text of every paragraph of ``markdown`` (no heading, table cell or code block)."""
    tokens = PARSER.parse(markdown)
    return [b.content for a, b in zip(tokens, tokens[1:]) if a.type == "paragraph_open"]
