"""Fidelity measures: how close a PDF reading is to the ground-truth reading of the same paper.

All measures work on what a reviewer model would see (``Document.title`` and the sections' titles
and texts). Text is folded to lower-case ASCII (accents removed); LaTeX math, ``\\cite``/``\\ref``
commands and Markdown markers are removed from the ground truth, bracketed citation numbers,
equation numbers and figure/table/section numbers from the PDF reading.

- ``body_f1``: F1 of the two multisets of words (letters only, >= 3 letters; hyphenated words split)
  over the section texts: precision = shared / PDF words, recall = shared / truth words.
- ``heading recall`` (truth level-1/2 headings found) and ``precision`` (PDF headings that are
  truth headings): two titles match when their folded letters agree with a
  ``difflib.SequenceMatcher`` ratio >= 0.9 and the shorter is >= 90 % of the longer, so a title cut
  after its first line does not match.
- ``order_errors``: paragraphs (>= 20 words, captions excepted: floats move) of the truth are
  located in the PDF reading by their first 7 words; errors = located paragraphs outside the
  longest increasing run of positions.
- ``leaks``: identity strings (names, emails, affiliations, footnote text, identity URLs) found in
  the reading; a string that also occurs in the truth text is not counted (it is the paper's).
- ``residual``: running-header strings and page numbers left in the text, per 10 pages (page
  numbers found on the PDF's pages by position and by counting up with the pages; one counts when
  the reading has it as its own paragraph or next to the words around it on the page).
- ``glued``: words of the reading that are not words of the truth or of a dictionary but split into
  two that are (``thepaper``, ``ofdistribution``).
- ``numbers``: share of the truth's number tokens found in the reading, as a multiset (issue 24):
  a number with its exponent (``10^6``, ``10^-4``, ``16,384``, ``2.5``) or a script holding digits
  after its base letter (``b^2``, ``x_1``); running text and inline math count, display math does not
  (its layout is not text). LaTeX ``^{...}``/``_{...}`` and the reading's ``^``/``_`` marks are
  compared without braces, the minus sign folded to ``-``, digit groups set apart by (thin) spaces
  joined (``13 096 468``), Greek letter commands written as the letters they print; a matrix
  (inline too) and a ``\\label`` key do not count, operator names (``\\max``) print as words, scripts
  stacked on one base compare superscript first, and a number followed by a citation in the truth
  matches the same number with a superscript citation mark in the reading (``2006^33``, Nature's style).
- ``body_as_heading``: headings of the reading that are no heading of the truth but text of its body
  (a bold run-in paragraph opening, a table row); with hand-checked facts instead of a truth text,
  every heading that is not one of the facts' headings.
- ``mid_sentence``: footnotes and captions of the truth read inside a sentence of the reading: the
  text before them in their paragraph (a caption label such as "Table 2:" aside), or the paragraph
  before theirs when they open one and the next paragraph goes on in lower case, does not end a
  sentence; an item is found by its first 12 words.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from functools import lru_cache
from pathlib import Path

_MATH = re.compile(
    r"\$\$.*?\$\$|\$[^$]*\$|\\\[.*?\\\]|\\\(.*?\\\)|"
    r"\\begin\{(equation|align|gather|multline|eqnarray|flalign|alignat)\*?\}.*?\\end\{\1\*?\}",
    re.S,
)
_COMMAND = re.compile(r"\\[a-zA-Z]*(cite|ref)[a-zA-Z]*\*?(\[[^\]]*\])*\{[^}]*\}")
_PDF_NUMBERS = re.compile(
    r"\[\d+(?:\s*[,–-]\s*\d+)*\]|\(\d+\)|"
    r"\b(?:Figure|Fig\.|Table|Tab\.|Section|Sec\.|Eq\.|Equation|Algorithm|Appendix|Theorem|Lemma|"
    r"Definition|Corollary|Proposition|§)\s*[A-Z]?\d+(?:\.\d+)*",
)


def fold(text: str) -> str:
    """Lower-case ASCII, accents removed; typographic apostrophes become ``'``."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def words(text: str, minimum: int = 3) -> list[str]:
    """Letter-only words of at least ``minimum`` letters (hyphenated words split)."""
    return [w for w in re.findall(r"[a-z]+", fold(text)) if len(w) >= minimum]


def truth_prose(text: str) -> str:
    """Ground-truth text without math, citation/reference commands and Markdown link targets
    (``[name](url)`` shows only ``name`` on the page)."""
    text = re.sub(r"\[([^\]]*)\]\([^)\s]*\)", r"\1", text)
    text = _COMMAND.sub(" ", _MATH.sub(lambda m: _math_words(m.group(0)), text))
    return re.sub(r"\\[a-zA-Z]+", " ", text)


_MATH_WORDS = {"tanh", "log", "exp", "min", "max", "sin", "cos", "arg", "sup", "inf", "lim", "det", "diag", "sign"}


def _math_words(math: str) -> str:
    """The words a formula prints: ``\\text{NAC}``/``\\mathrm{x}`` arguments and operator names
    (``\\tanh``, ``\\log``); everything else in math is symbols."""
    words = re.findall(r"\\(?:text|mathrm|textrm|operatorname|mathit|textit|textbf|mbox)\{([A-Za-z ]+)\}", math)
    words += [c for c in re.findall(r"\\([a-z]+)", math) if c in _MATH_WORDS]
    return " " + " ".join(words) + " "


def pdf_prose(text: str) -> str:
    """PDF text without citation, equation and cross-reference numbers."""
    return _PDF_NUMBERS.sub(" ", text)


def f1(truth: list[str], found: list[str]) -> tuple[float, float, float]:
    """``(precision, recall, F1)`` of two word multisets; 1.0 each when both are empty."""
    a, b = Counter(truth), Counter(found)
    shared = sum((a & b).values())
    p = shared / sum(b.values()) if b else float(not a)
    r = shared / sum(a.values()) if a else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def title_key(title: str) -> str:
    """A heading folded to letters and digits; LaTeX command names dropped, their arguments kept."""
    title = re.sub(r"\\[a-zA-Z]+", " ", title)
    return re.sub(r"[^a-z0-9]", "", fold(title))


def same_title(a: str, b: str) -> bool:
    """Whole-title match (ratio >= 0.9 and length ratio >= 0.9)."""
    ka, kb = title_key(a), title_key(b)
    if not ka or not kb:
        return False
    if min(len(ka), len(kb)) < 0.9 * max(len(ka), len(kb)):
        return False
    return ka == kb or difflib.SequenceMatcher(None, ka, kb).ratio() >= 0.9


def heading_scores(truth: list[tuple[int, str]], found: list[tuple[int, str]]) -> tuple[float, float, list[str], list[str]]:
    """``(recall over truth levels 1-2, precision over all PDF headings, missed, spurious)``."""
    wanted = [t for level, t in truth if level <= 2]
    missed = [t for t in wanted if not any(same_title(t, f) for _, f in found)]
    spurious = [f for _, f in found if not any(same_title(t, f) for _, t in truth)]
    recall = 1 - len(missed) / len(wanted) if wanted else 1.0
    precision = 1 - len(spurious) / len(found) if found else 0.0
    return recall, precision, missed, spurious


def _lis(values: list[int]) -> int:
    import bisect

    tails: list[int] = []
    for v in values:
        k = bisect.bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
        else:
            tails[k] = v
    return len(tails)


def order_errors(paragraphs: list[str], reading: str, anchor: int = 7) -> tuple[int, int, int]:
    """``(errors, located, paragraphs)``: truth paragraphs located by their first ``anchor`` words."""
    text = " " + " ".join(words(reading, 1)) + " "
    positions: list[int] = []
    total = 0
    for para in paragraphs:
        ws = words(para, 1)
        if len(ws) < 20 or re.match(r"\s*(Sub)?(Figure|Table)\s*:", para):
            continue  # captions go where LaTeX floats them, not where they are written
        total += 1
        pos = text.find(" " + " ".join(ws[:anchor]) + " ")
        if pos >= 0 and text.find(" " + " ".join(ws[:anchor]) + " ", pos + 1) < 0:
            positions.append(pos)
    return len(positions) - _lis(positions), len(positions), total


def _phrase(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", fold(text))) + " "


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", fold(text))


def leaks(identity: list[str], reading: str, truth: str | None) -> list[str]:
    """Identity strings found in ``reading`` (and not in ``truth``): emails/URLs matched on their
    letters and digits, other strings as whole-word phrases."""
    found = []
    for item in identity:
        if "@" in item or "/" in item or "." in item.split()[-1][:-1]:
            probe, hay, ref = _compact(item.split("://")[-1]), _compact(reading), _compact(truth or "")
        else:
            probe, hay, ref = _phrase(item), _phrase(reading), _phrase(truth or "")
        if probe.strip() and probe in hay and probe not in ref:
            found.append(item)
    return found


def _pdfminer_lines(pdf: Path) -> list[tuple[float, list[tuple[float, float, str]]]]:
    """``(page height, [(top, bottom, text)])`` per page from pdfminer.six (an extractor
    independent of the PDFium one under test), cached next to the compiled PDFs."""
    import json
    import logging

    from corpus import cache_dir

    key = cache_dir() / f"lines-{pdf.stem}-{pdf.stat().st_size}.json"
    if key.is_file():
        return [(h, [tuple(x) for x in lines]) for h, lines in json.loads(key.read_text())]
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTTextContainer, LTTextLine

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    out = []
    for layout in extract_pages(str(pdf)):
        lines = [
            (layout.height - line.y1, layout.height - line.y0, line.get_text().strip())
            for element in layout if isinstance(element, LTTextContainer)
            for line in element if isinstance(line, LTTextLine) and line.get_text().strip()
        ]
        out.append((layout.height, lines))
    key.write_text(json.dumps(out))
    return out


def page_number_lines(pdf: Path) -> list[tuple[str, str, str]]:
    """Page numbers printed on the pages: ``(text, words before, words after)`` in content order.

    A page number is a line holding only a number, in the top or bottom 12 % of its page, whose
    value minus the page index is the same on most pages (so "3" on page 3 and "4971" on page 3
    of a proceedings volume both count, a table cell does not).
    """
    pages = _pdfminer_lines(pdf)
    found: list[tuple[int, int, int, str]] = []  # page, line index, value, text
    for index, (height, lines) in enumerate(pages):
        for k, (top, bottom, text) in enumerate(lines):
            m = re.fullmatch(r"(?:page\s*)?(\d{1,5})(?:\s*(?:/|of)\s*\d{1,5})?", text.strip(), re.I)
            if m and (bottom < 0.12 * height or top > 0.88 * height):
                found.append((index, k, int(m.group(1)), text.strip()))
    offsets = Counter(v - p for p, _, v, _ in found)
    if not offsets:
        return []
    offset, hits = offsets.most_common(1)[0]
    if hits < 0.6 * len(pages):
        return []
    out = []
    for p, k, v, text in found:
        if v - p != offset:
            continue
        lines = pages[p][1]
        before = " ".join(ln[2] for ln in lines[max(0, k - 2):k]).split()[-3:]
        after = " ".join(ln[2] for ln in lines[k + 1:k + 3]).split()[:3]
        out.append((text, " ".join(before), " ".join(after)))
    return out


def residual_lines(headers: list[str], numbers: list[tuple[str, str, str]], reading: str, truth: str | None) -> dict[str, int]:
    """Running-header strings and page numbers left in ``reading`` (``{string: count}``).

    A header counts each time it occurs beyond its count in ``truth``; a page number counts when
    the reading has it as a paragraph of its own or next to the words that surround it on the page;
    a number in parentheses (an equation's, ``(5)``) is no page number.
    """
    hay, ref = _phrase(reading), _phrase(truth or "")
    bare = _phrase(re.sub(r"\(\d{1,4}\)", " ", reading))
    out: dict[str, int] = {}
    for header in headers:
        probe = _phrase(header)
        out[header] = max(0, hay.count(probe) - ref.count(probe))
    paragraphs = Counter(p.strip() for p in reading.split("\n\n"))
    for text, before, after in numbers:
        n = _phrase(text).strip()
        hits = paragraphs[text] > 0
        tail = _phrase(before).strip().split()[-1:]
        head = _phrase(after).strip().split()[:1]
        if tail and f" {tail[0]} {n} " in bare:
            hits = True
        if head and f" {n} {head[0]} " in bare and f" {n} {head[0]} " not in ref:
            hits = True
        if hits:
            out[n] = out.get(n, 0) + 1
    return {k: v for k, v in out.items() if v}


@lru_cache(maxsize=1)
def dictionary() -> frozenset[str]:
    """English words from ``/usr/share/dict/words`` (Debian ``wamerican``), lower-cased; empty when absent."""
    path = Path("/usr/share/dict/words")
    if not path.is_file():
        return frozenset()
    return frozenset(w.strip().lower() for w in path.read_text(errors="ignore").splitlines() if w.strip().isalpha())


_URLISH = re.compile(r"\S+@\S+|(?:https?://|www\.)\S+|\b\S+\.(?:com|org|io|edu|net)\S*")


def glued(reading: str, vocabulary: set[str] | None) -> list[str]:
    """Words of ``reading`` that are two known words run together (URLs and emails skipped).

    With no truth vocabulary (``None``), only the dictionary is known and a word seen three times
    or more counts as a term of the paper, not as an accident of a line join.
    """
    known = (vocabulary or set()) | dictionary()
    tokens = re.findall(r"[a-z]+", fold(_URLISH.sub(" ", reading)))
    seen = Counter(tokens)
    out = []
    for w in tokens:
        if len(w) < 6 or w in known or (vocabulary is None and seen[w] >= 3):
            continue
        for k in range(2, len(w) - 1):
            left, right = w[:k], w[k:]
            if left in known and right in known and (len(left) >= 3 or left in {"of", "in", "to", "on", "by", "an", "is", "we", "as", "at", "or"}) and len(right) >= 3:
                out.append(w)
                break
    return out


_DISPLAY_MATH = re.compile(
    r"\$\$.*?\$\$|\\\[.*?\\\]|"
    r"\\begin\{(equation|align|gather|multline|eqnarray|flalign|alignat|displaymath)\*?\}.*?\\end\{\1\*?\}",
    re.S,
)
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:\^-?\d+(?:\.\d+)?)?|[^\W\d_][\^_]-?\d+(?:\.\d+)?")


_GREEK = {name: chr(code) for name, code in (
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("epsilon", 0x3B5), ("zeta", 0x3B6),
    ("eta", 0x3B7), ("theta", 0x3B8), ("kappa", 0x3BA), ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD),
    ("xi", 0x3BE), ("pi", 0x3C0), ("rho", 0x3C1), ("sigma", 0x3C3), ("tau", 0x3C4), ("phi", 0x3C6),
    ("chi", 0x3C7), ("psi", 0x3C8), ("omega", 0x3C9), ("Gamma", 0x393), ("Delta", 0x394), ("Theta", 0x398),
    ("Lambda", 0x39B), ("Pi", 0x3A0), ("Sigma", 0x3A3), ("Phi", 0x3A6), ("Psi", 0x3A8), ("Omega", 0x3A9),
)} | {"ell": "l"}


def _latex_numbers(text: str) -> str:
    """Truth text with display math removed and inline math flattened to what it prints:
    ``{,}`` a comma, ``^{-4}`` ``^-4``, commands and braces gone (``\\mathbf{x}_1`` -> ``x_1``)."""
    text = _COMMAND.sub(" ", _DISPLAY_MATH.sub(" ", text))
    text = re.sub(r"\\label\s*\{[^{}]*\}", " ", text)  # a label's key prints nothing
    # a matrix is laid out in two dimensions, inline or not (its layout is not text)
    text = re.sub(r"\\begin\{(\w*matrix)\}.*?\\end\{\1\}", " ", text, flags=re.S)
    text = re.sub(r"\[[^\]]*\]\([^)\s]*\)", " ", text)  # link targets
    text = text.replace("{,}", ",").replace("\\%", "%")
    text = re.sub(r"\\(?:ding|char|symbol)\s*\{[^{}]*\}", " ", text)  # a symbol by its code prints no digits
    text = re.sub(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"\1/\2", text)
    text = re.sub(r"\\(var)?([a-zA-Z]+)", lambda m: _GREEK.get(m.group(2), m.group(0)), text)
    text = re.sub(r"\\(?:math[a-z]+|text[a-z]*|bm|boldsymbol|operatorname)\s*\{([^{}]*)\}", r"\1", text)
    # operator names print as words (\max: "max"); other commands print symbols or nothing
    text = re.sub(r"\\([a-zA-Z]+)\s*", lambda m: m.group(1) if m.group(1) in _MATH_WORDS else " ", text)
    text = re.sub(r"([\^_])\s*\{([^{}]*)\}", r"\1\2", text)
    return text.replace("{", "").replace("}", "").replace("$", "")


def number_tokens(text: str, *, latex: bool = False) -> list[str]:
    """Number tokens (see the module docstring) of a truth text (``latex=True``) or a reading."""
    if latex:
        text = _latex_numbers(text)
    text = re.sub("[\u0300-\u036f]", "", text)  # accents (x̄_0 is \\bar{x}_0: x_0 on both sides)
    text = re.sub(r"([\^_])\{([^{}]*)\}", r"\1\2", text.replace("\u2212", "-").replace("\u03f5", "\u03b5"))
    text = re.sub(r"([\^_])\s+", r"\1", text)
    # scripts set one above the other print in no order: the superscript first on both sides
    text = re.sub(r"(_[^\W_]+)(\^(?:-?[^\W_]+|[^\s\w]))", r"\2\1", text.replace("\u2217", "*"))
    # a comma in math mode is followed by a thin space ("$10,000$" prints "10, 000") and siunitx
    # groups digits with thin spaces ("13 096 468"): one number on both sides
    text = re.sub(r"(?<![\d.,])(\d{1,3}(?:,\d{3})*), (\d{3})(?![\d])", r"\1,\2", text)
    text = re.sub(r"(?<![\d.,])\d{1,3}(?:[ \u2009\u202f]\d{3})+(?![\d.,])", lambda m: re.sub(r"\s", "", m.group(0)), text)
    return _NUMBER.findall(text)


_CITED_NUMBER = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*~?\s*\\[a-zA-Z]*cite[a-zA-Z]*\*?(?:\[[^\]]*\])*\{")


def numbers_preserved(truth: str, reading: str) -> tuple[float, list[str]]:
    """``(share of the truth's number tokens found in the reading, the missing ones)``; 1.0 when the
    truth has none."""
    want, got = Counter(number_tokens(truth, latex=True)), Counter(number_tokens(reading))
    missing = want - got
    # a superscript citation style (Nature's) prints "2006\cite{x}" as "2006^33": that mark is a
    # citation, not an exponent, so it matches a number of the truth followed by a citation
    cited = Counter(m.group(1) for m in _CITED_NUMBER.finditer(truth))
    spare = got - want
    for token in sorted(missing.elements()):
        marked = next((t for t in sorted(spare.elements()) if re.fullmatch(re.escape(token) + r"\^\d+", t)), None)
        if cited[token] > 0 and marked is not None:
            missing[token] -= 1
            spare[marked] -= 1
            cited[token] -= 1
    missing = +missing
    total = sum(want.values())
    return (1 - sum(missing.values()) / total if total else 1.0), sorted(missing.elements())


def body_as_heading(truth_heads: list[tuple[int, str]], found: list[tuple[int, str]], truth_body: str | None) -> list[str]:
    """Headings of the reading that are body text of the truth (see the module docstring)."""
    body = _phrase(truth_prose(truth_body)) if truth_body is not None else None
    out = []
    for _, title in found:
        if any(same_title(t, title) for _, t in truth_heads):
            continue
        if body is None or (_phrase(title).strip() and _phrase(title) in body):
            out.append(title)
    return out


def floats(truth_body: str) -> list[str]:
    """Footnote texts (``^[...]``) and captions (``Figure: ...``/``Table: ...`` lines) of a truth text."""
    notes = re.findall(r"\^\[((?:[^\[\]]|\[[^\]]*\])*)\]", truth_body)
    captions = re.findall(r"^(?:Sub)?(?:Figure|Table|Algorithm): (.+)$", truth_body, re.M)
    return [truth_prose(x) for x in notes + captions]


def mid_sentence(items: list[str], reading: str) -> list[str]:
    """Items (footnotes, captions) read inside a sentence of ``reading`` (see the module docstring).
    When an item's words occur in several paragraphs (a caption quoted in the text), the one where
    it opens the paragraph counts."""
    paragraphs = [p for p in reading.split("\n\n") if p.strip()]
    folded = [_phrase(p) for p in paragraphs]
    out = []
    for item in items:
        probe = " ".join(_phrase(item).split()[:12])
        if len(probe.split()) < 4:
            continue
        verdicts = [_broken(paragraphs, k, probe, at) for k, para in enumerate(folded)
                    if (at := para.find(f" {probe} ")) >= 0]
        if verdicts and all(verdicts):
            out.append(item[:60])
    return out


def _broken(paragraphs: list[str], k: int, probe: str, at: int) -> bool:
    raw = paragraphs[k]
    before = raw[: max(0, _raw_offset(raw, at))].rstrip().rstrip("([\"“'`").rstrip()
    if at > 0 and not _CAPTION_LABEL.fullmatch(before):
        return bool(before) and not re.search(r"[.!?:)\]]$|\^\S+$|\d$", before)
    prev = paragraphs[k - 1].rstrip() if k else ""
    nxt = paragraphs[k + 1].lstrip() if k + 1 < len(paragraphs) else ""
    return bool(prev) and not re.search(r"[.!?:)\]]$", prev) and nxt[:1].islower()


_CAPTION_LABEL = re.compile(r"(?:Sub)?(?:Figure|Fig\.|Table|TABLE|Algorithm)\s*[A-Z]?[\dIVXLC]+[.:]?")


def _raw_offset(raw: str, folded_at: int) -> int:
    """Where in ``raw`` the folded phrase found at ``folded_at`` starts (by counting words)."""
    n_words = len(_phrase(raw)[:folded_at].split())
    spans = [m.start() for m in re.finditer(r"[A-Za-z0-9\u00C0-\u024F]+", raw)]
    return spans[n_words] if n_words < len(spans) else len(raw)


# ---------------------------------------------------------------- layout elements (issue 39)

ELEMENT_BLOCKS = ("table", "code")
_CAPTION_START = re.compile(r"(?:Sub)?(?:Figure|Fig\.|Table|TABLE|Algorithm|Listing)\s*[A-Z]?[\dIVXLC]+[.:]?(?:\s|$)")


def blocks(text: str) -> list[tuple[str, str]]:
    """The blocks of a reading's section text, ``(kind, text)`` in order.

    Blocks are apart by blank lines, except a fenced block, which runs from a line opening with
    three backticks to the next such line (blank lines inside it included). Kinds: ``code`` (a
    fenced block), ``table`` (a Markdown table: every line opens with ``|``), ``footnote`` (opens
    with ``[^id]:``), ``caption`` (opens with a caption label: ``Figure 2:``, ``TABLE I``,
    ``Listing 1:``), ``text`` (anything else: running text).

    ``table`` and ``code`` are the *element blocks*: where a reader puts a figure's, a table's, a
    code listing's or an algorithm's own text (a figure's text kept, or an algorithm, goes in a
    fenced block).
    """
    out: list[tuple[str, str]] = []
    lines = text.split("\n")
    k = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            body = "\n".join(para)
            if all(ln.lstrip().startswith("|") for ln in para):
                kind = "table"
            elif re.match(r"\[\^[^\]]+\]:", body):
                kind = "footnote"
            elif _CAPTION_START.match(body):
                kind = "caption"
            else:
                kind = "text"
            out.append((kind, body))
            para.clear()

    while k < len(lines):
        line = lines[k]
        if line.lstrip().startswith("```"):
            flush()
            end = next((j for j in range(k + 1, len(lines)) if lines[j].lstrip().startswith("```")), len(lines) - 1)
            out.append(("code", "\n".join(lines[k:end + 1])))
            k = end + 1
            continue
        if line.strip():
            para.append(line)
        else:
            flush()
        k += 1
    flush()
    return out


def item_key(text: str) -> str:
    """An element item (a cell, a code or algorithm line, a label) as the words and numbers it
    prints, folded: ``"def join_heading(lines):"`` -> ``"def join heading lines"``; ``"0.31"`` stays,
    and a decimal point set apart by spaces (``0 . 6``, a math-mode tick label) is closed up."""
    text = re.sub(r"(\d)\s*\.\s*(\d)", r"\1.\2", fold(text))
    return " ".join(re.findall(r"\d+(?:[.,]\d+)*|[a-z]+", text))


def _eligible(key: str) -> bool:
    """An item long enough to be told apart from the prose: two characters or more (a tick label
    ``0`` or a one-letter cell is not counted)."""
    return len(key.replace(" ", "")) >= 2


def _occurrences(key: str, texts: list[str]) -> int:
    return sum(f" {t} ".count(f" {key} ") for t in texts)


def element_text_outside(elements: list[tuple[str, list[str]]], truth_texts: list[str],
                         reading: list[tuple[str, str]]) -> list[str]:
    """Element items (figure labels, table cells, code and algorithm lines) read outside the element
    blocks: in a heading or in running text, captions or footnotes.

    ``elements`` are ``(name, items)`` of each element; ``truth_texts`` are the truth's headings and section
    texts (its running text, captions and footnotes: no element text); ``reading`` is
    ``[(heading, section text)]``. The reading's *units* are its headings and its blocks that are no
    element blocks (:func:`blocks`). An item (two characters or more) counts once for each
    occurrence in the units, as a whole run of words (:func:`item_key`), beyond its occurrences in
    ``truth_texts`` (so prose that uses the words of a cell does not count), at most as often as the
    elements hold it. An item made of numbers only (a tick label, a numeric cell) is counted only in
    units that hold another item of its element that the truth's text never has (*evidence*), each
    occurrence there (the truth has no such text to subtract): a lone number cannot be told from
    the prose's or a page header's. Returns ``"name: item"`` (the item folded), one per extra
    occurrence (target: none).
    """
    units = [item_key(title) for title, _ in reading]
    units += [item_key(b) for _, text in reading for kind, b in blocks(text) if kind not in ELEMENT_BLOCKS]
    ref = [item_key(t) for t in truth_texts]
    out: list[str] = []
    counted: Counter = Counter()
    for name, items in elements:
        keys = [k for k in map(item_key, items) if _eligible(k)]
        evidence = {k for k in keys if _occurrences(k, ref) == 0}
        for key, n in sorted(Counter(keys).items()):
            if re.fullmatch(r"[\d.,\s]+", key):  # in units with evidence only, where the truth has no text
                extra = _occurrences(key, [u for u in units if any(f" {o} " in f" {u} " for o in evidence - {key})])
            else:
                extra = _occurrences(key, units) - _occurrences(key, ref)
            extra -= counted[key]
            take = max(0, min(n, extra))
            counted[key] += take
            out += [f"{name}: {key}"] * take
    return out


def kept_as_blocks(elements: list[tuple[str, str, list[str]]], reading: list[tuple[str, str]]) -> tuple[float | None, list[str]]:
    """``(share, the elements not kept whole)`` for tables kept as tables and code kept as code.

    ``elements`` are ``(kind, name, items)``: ``table`` with its cells or ``code`` with a listing's
    lines. An element's kept items are those of its items (two characters or more) found in the one
    block of its kind (:func:`blocks`: a Markdown table for a table, a fenced block for code) of the
    reading that holds the most of them; share = kept items / items, summed over the elements.
    ``None`` when there is no item.
    """
    found = [(kind, item_key(b)) for _, text in reading for kind, b in blocks(text) if kind in ELEMENT_BLOCKS]
    total = kept = 0
    partial: list[str] = []
    for kind, name, items in elements:
        keys = [k for k in map(item_key, items) if _eligible(k)]
        best = max((sum(f" {k} " in f" {b} " for k in keys) for block_kind, b in found if block_kind == kind), default=0)
        total += len(keys)
        kept += best
        if best < len(keys):
            partial.append(f"{name} ({best}/{len(keys)})")
    return (kept / total if total else None), partial


def heading_level_mismatches(truth: list[tuple[int, str]], found: list[tuple[int, str]]) -> list[str]:
    """Truth headings not read as one heading at their own level (target: none).

    A truth heading ``(level, title)`` is at its level when a heading of the reading has the whole
    title (:func:`same_title`) and that level (section = 1, subsection = 2, ...; the abstract 1).
    So a heading read at another level, one read as body text, and one whose two printed lines are
    read as two headings (neither holds the whole title) each count once.
    """
    out = []
    for level, title in truth:
        levels = [lv for lv, t in found if same_title(title, t)]
        if level not in levels:
            out.append(f"{title[:50]} ({level} -> {','.join(map(str, levels)) or 'none'})")
    return out


_DASHES = re.compile("[\u2010-\u2015\u2026]")  # dashes and ellipses part words (fold would drop them)


def split_words(truth: str, reading: str) -> list[str]:
    """Words of the truth read as two tokens (``sum maries``; target: none).

    Tokens are runs of letters (folded), taken line by line; in the truth (LaTeX) command names are
    dropped and their arguments kept, so a formula's letters (``$\\mathrm{SE}(2)$``: ``se``) are on
    both sides, and one-letter tokens other than ``a`` are left out on both sides (math variables). A pair of adjacent tokens ``x y`` of the reading counts when ``xy`` is a word of the
    truth and the reading has the pair more often than the truth does (so ``in to`` counts only
    where the truth has ``into`` and fewer ``in to``); a line-end hyphen kept inside a word
    (``sum-maries``) counts too. Returns ``"x y"`` once per extra occurrence.
    """
    def pairs(text: str) -> Counter:
        out: Counter = Counter()
        for line in text.split("\n"):
            tokens = [t for t in re.findall(r"[a-z]+", fold(_DASHES.sub(" ", line))) if len(t) > 1 or t == "a"]
            out.update(zip(tokens, tokens[1:]))
        return out

    truth = re.sub(r"\\[a-zA-Z]+", " ", truth)
    vocabulary = set(re.findall(r"[a-z]+", fold(_DASHES.sub(" ", truth))))
    want, got = pairs(truth), pairs(reading)
    out: list[str] = []
    for (x, y), n in sorted(got.items()):
        if x + y in vocabulary and n > want[(x, y)]:
            out += [f"{x} {y}"] * (n - want[(x, y)])
    return out


def footnote_texts(truth_body: str) -> list[str]:
    """Footnote texts (``^[...]``) of a truth text."""
    return re.findall(r"\^\[((?:[^\[\]]|\[[^\]]*\])*)\]", truth_body)


def footnote_splits(truth_body: str, reading: str, minimum: int = 8) -> list[str]:
    """Sentences of the truth that the reading cuts in two with footnote text between the parts
    (target: none).

    The truth's running text, its footnotes removed, is cut into sentences (at ``.``, ``!`` or ``?``
    before a capital); a sentence of ``minimum`` words or more (letters only) that the reading does
    not have as one run of words counts when the reading has it in two parts (:func:`_split_gap`)
    with the first four words of one of the truth's footnotes between them. Footnote marks, reference
    and citation numbers (digits, symbols) are not words, so ``word^3 next`` and ``Table 2 shows``
    (``Table~\\ref{x} shows``) are one run.
    Returns each split sentence's first 60 characters.
    """
    notes = footnote_texts(truth_body)
    openings = [" " + " ".join(words(truth_prose(n), 1)[:4]) + " " for n in notes]
    openings = [o for o in openings if len(o.split()) == 4]
    plain = re.sub(r"\^\[((?:[^\[\]]|\[[^\]]*\])*)\]", "", truth_body)
    stream = " " + " ".join(words(reading, 1)) + " "
    out = []
    for para in truth_prose(plain).split("\n\n"):
        if re.match(r"(?:Sub)?(?:Figure|Table|Listing|Algorithm): ", para):
            continue  # a caption is no sentence of the running text
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", " ".join(para.split())):
            ws = words(sentence, 1)
            if len(ws) < minimum or f" {' '.join(ws)} " in stream:
                continue
            gap = _split_gap(stream, ws)
            if gap is not None and any(o in gap for o in openings):
                out.append(sentence[:60])
    return out


def _split_gap(stream: str, ws: list[str]) -> str | None:
    """The reading's words between the two parts of a sentence read apart (``None`` when it is not
    read in two parts). A cut after word ``k`` is read when the longer of ``ws[:k]`` and
    ``ws[k:]`` (four words or more) is in ``stream`` once and the shorter is found on its side (the
    nearest run); of the cuts read, the one with the shortest gap is the sentence's (a part found
    farther away is the same words elsewhere in the paper)."""
    gaps = []
    for k in range(1, len(ws)):
        head, tail = f" {' '.join(ws[:k])} ", f" {' '.join(ws[k:])} "
        longer = head if k >= len(ws) - k else tail
        if len(longer.split()) < 4 or stream.count(longer) != 1:
            continue
        if longer is head:
            start = stream.find(head) + len(head) - 1
            end = stream.find(tail, start)
        else:
            end = stream.find(tail)
            at = stream.rfind(head, 0, end + 1)
            start = at + len(head) - 1 if at >= 0 else -1
        if start >= 0 and end >= 0:
            gaps.append(stream[start:end + 1])
    return min(gaps, key=len) if gaps else None


def watermark_left(mark: str, reading: str, truth: str) -> int:
    """Times the watermark text ``mark`` is in ``reading`` beyond its times in ``truth``, compared on
    letters and digits only, so a watermark glued to the words around it (``Onlyparameters``)
    counts too (target: 0)."""
    probe = _compact(mark)
    return max(0, _compact(reading).count(probe) - _compact(truth).count(probe)) if probe else 0
