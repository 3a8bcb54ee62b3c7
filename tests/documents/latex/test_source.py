"""read_group: balanced groups, escapes and other brackets (hand-computed cases, and an oracle); ^^ decoding."""

from __future__ import annotations

import random

import pytest

from rhetorica.documents.latex.source import decode_carets, read_group


@pytest.mark.parametrize(("text", "start", "brackets", "expected"), [
    ("{a{b}c}d", 0, ("{", "}"), ("a{b}c", 7)),
    ("  {x}", 0, ("{", "}"), ("x", 5)),  # spaces before the group are skipped
    ("\n\n{x}", 0, ("{", "}"), None),  # a blank line ends the search
    ("x{a}", 0, ("{", "}"), None),  # no group at start
    (r"{a\}b}c", 0, ("{", "}"), (r"a\}b", 6)),  # an escaped brace does not close
    ("{a{b", 0, ("{", "}"), ("a{b", 4)),  # unclosed: runs to the end
    ("[a{]}b]c", 0, ("[", "]"), ("a{]}b", 7)),  # a brace group inside [..] is skipped whole
    ("[a[b]c]", 0, ("[", "]"), ("a[b]c", 7)),
    ("{ab\\", 0, ("{", "}"), ("ab\\", 4)),  # a trailing backslash
])
def test_read_group_hand_cases(text: str, start: int, brackets: tuple[str, str],
                               expected: tuple[str, int] | None) -> None:
    assert read_group(text, start, *brackets) == expected


def _reference(text: str, start: int, open_: str = "{", close: str = "}") -> tuple[str, int] | None:
    """The character-by-character reading read_group replaced (the same rules, one step per character)."""
    i = start
    while i < len(text) and text[i] in " \t\n" and not text.startswith("\n\n", i):
        i += 1
    if i >= len(text) or text[i] != open_:
        return None
    depth, j = 0, i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "{" and open_ != "{":
            inner = _reference(text, j)
            j = inner[1] if inner else j + 1
            continue
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
        j += 1
    return text[i + 1 :], len(text)


def test_read_group_agrees_with_a_character_by_character_reading() -> None:
    rng = random.Random(7)
    alphabet = "{}[]\\ a\n%"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        start = rng.randint(0, len(text))
        for brackets in (("{", "}"), ("[", "]")):
            assert read_group(text, start, *brackets) == _reference(text, start, *brackets), (text, start)


@pytest.mark.parametrize(("raw", "decoded"), [
    ("^^5cwrite", "\\write"),          # two lowercase hex digits
    ("\\wr^^69te", "\\write"),
    ("\\wr^^)te", "\\write"),          # ")" is 0x29, + 64 = 0x69 "i"
    ("a^^Ib", "a\tb"),                 # "I" is 0x49, - 64 = 0x09 (tab)
    ("^^5e^69", "i"),                  # a decoded "^" starts a new escape
    ("^^5C", "uC"),                    # upper-case hex is not hex to TeX: "^^5" (0x35 + 64 = "u"), "C"
    ("x^2", "x^2"),
])
def test_caret_escapes_decode_as_tex_reads_them(raw: str, decoded: str) -> None:
    assert decode_carets(raw) == decoded
