"""Markdown / plain-text reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents import DocumentReadError, ReadOptions, read_document

PAPER_MD = """---
title: "A Study of Things"
author: Jane Doe, John Roe
---

# A Study of Things

## Abstract

We study things. Contact jane@uni.edu for data.

## 1 Introduction

Things matter $x^2$.

### 1.1 Setting

Code at https://github.com/janedoe/things and https://numpy.org.

```
# not a heading
```

Results
-------

Good.

## Acknowledgments

We thank the Foundation.

## References

[1] Someone. A paper. 2020.

## Appendix A

Extra.
"""


def test_markdown_headings_become_sections(tmp_path: Path) -> None:
    path = tmp_path / "study.md"
    path.write_text(PAPER_MD)
    doc = read_document(path)
    assert doc.id == "study" and doc.title == "A Study of Things"
    assert [(s.title, s.level) for s in doc.sections] == [
        ("Abstract", 1), ("1 Introduction", 1), ("1.1 Setting", 2), ("Results", 1),
    ]
    assert doc.sections[0].text == "We study things. Contact [anonymized email] for data."
    assert doc.sections[2].text == (
        "Code at [anonymized URL] and https://numpy.org.\n\n```\n# not a heading\n```"
    )
    assert doc.metadata["cut_at"] == "References"
    assert [r.item for r in doc.removed] == [
        "author block", "email", "identity URL", "acknowledgements section",
    ]
    assert doc.source.parser == "rhetorica-markdown"


def test_markdown_without_cut_or_blinding(tmp_path: Path) -> None:
    path = tmp_path / "study.md"
    path.write_text(PAPER_MD)
    doc = read_document(path, options=ReadOptions(cut_after_references=False, blind=False))
    titles = [s.title for s in doc.sections]
    assert titles[-3:] == ["Acknowledgments", "References", "Appendix A"]
    assert "jane@uni.edu" in doc.sections[0].text and doc.removed == []


def test_plain_text_is_one_section(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_text("Just a paragraph.\n\nAnd another one.\n")
    doc = read_document(path, doc_id="n1")
    assert doc.id == "n1"
    assert [(s.title, s.text) for s in doc.sections] == [("", "Just a paragraph.\n\nAnd another one.")]


@pytest.mark.parametrize(("content", "problem"), [
    (b"", "file is empty (0 bytes)"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file (binary content)"),
    (b"   \n\n", "no text found"),
])
def test_bad_text_inputs(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(content)
    with pytest.raises(DocumentReadError) as info:
        read_document(path)
    assert str(info.value) == f"{path}: {problem}"
