"""The line that introduces the text to rewrite in the LLM rewriter's user message.

Kept apart (no imports) so that the mock provider, which echoes the text after it like a faithful
rewriter, reads the same constant the rewriter writes.
"""

TEXT_MARKER = "Section text:"
