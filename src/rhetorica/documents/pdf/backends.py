"""PDF text extraction with PDFium (pypdfium2, Apache-2.0 or BSD-3-Clause; PDFium BSD-3-Clause):
``extract_pdfium(path) -> list[PageLines]``.

The extraction only turns a PDF into positioned lines (with superscripts and subscripts marked);
reading order, headings, cleaning and blinding are done in :mod:`rhetorica.documents.pdf.layout`.

PDFium is the only backend. pdfminer.six and pypdf were compared on the fidelity harness
(``benchmarks/fidelity``, issue 24; ``benchmarks/results/fidelity_24_backends.txt``): neither marks
superscripts (numbers preserved, harness mean, 0.87 and 0.82 against PDFium's 0.97), pdfminer.six
lost the abstract of an IEEE paper and the title block of a watermarked one (3 of 17 abstracts),
pypdf 9 of 17 abstracts, interleaved columns and leaked author names; neither met the targets, so
both were removed with their dependencies, and pdfplumber (built on pdfminer.six) with them.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections import Counter
from itertools import pairwise
from importlib import metadata
from pathlib import Path

from rhetorica.documents.pdf.columns import MIN_CHARACTERS, fixed_columns
from rhetorica.documents.pdf.lines import (RULE_THICKNESS, SCRIPT_SIZE, Graphic, HiddenRun, Line, PageLines, script_kind,
                                           script_text)
from rhetorica.documents.pdf.visibility import REASONS, hidden_runs, page_chars, run_box, run_text
import ctypes

BACKEND = "pdfium"
PACKAGE = "pypdfium2"


class PdfEncryptedError(Exception):
    """The PDF needs a password."""


class PdfInvalidError(Exception):
    """The file is not a readable PDF."""


def backend_version() -> str:
    """Installed version of pypdfium2 (``"unknown"`` if absent)."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "unknown"


def _norm(text: str) -> str:
    """NFKC text without C1 control characters (glyphs without a Unicode mapping, as ACM's CCS
    bullet); soft hyphens marked ``\\u00ad``; an accent set before its letter (``Micha¨el``,
    as TeX's accent primitive places it) is attached to that letter, and a math accent set after
    its letter and a space (``x ̄``, TeX's ``\\bar{x}``) to the letter before it."""
    text = text.replace("\ufffe", "\u00ad").replace("\x02", "\u00ad")
    text = re.sub("[\x80-\x9f]", "", unicodedata.normalize("NFKC", text).replace("\ufffd", ""))
    text = re.sub(r"(?<=[A-Za-z]) ([\u0300-\u036f])([A-Za-z])", r"\2\1", text)
    text = re.sub(r"(?:(?<=\s)|^)([\u0300-\u036f])([A-Za-z])", r"\2\1", text)
    text = re.sub(r"(?<=[A-Za-z]) ([\u0300-\u036f])(?![A-Za-z])", r"\1", text)  # x ̄_0 (TeX's \bar{x}) -> x̄_0
    return unicodedata.normalize("NFC", text)


def _is_bold(font_name: str) -> bool:
    name = font_name.lower()
    return any(k in name for k in ("bold", "black", "heavy", "semibold", "-medi", "cmbx", "demi"))


def extract_pdfium(path: Path, drop_hidden: bool = False) -> list[PageLines]:
    """Lines from PDFium's text page, split where PDFium ran two fragments together.

    With ``drop_hidden`` every character a human reader cannot see
    (:mod:`rhetorica.documents.pdf.visibility`: white, invisible, off-page, clipped, covered or
    below a legible size) is left out before lines are formed, so no later grouping of lines can
    bring it back; each hidden run left out is listed in its page's ``hidden``.

    PDFium's own line breaks are kept, except where it breaks at a superscript or subscript (see
    :func:`_raw_lines`); a line is cut where the horizontal gap between two characters exceeds
    1.2 x the font size (a column gutter), or 0.4 x after a run of digits only (a line number in the
    margin), or where the text goes backwards or changes baseline. Superscripts and subscripts are
    written ``^``/``_`` before them (:func:`_script_marks`), a fraction set in the line as
    ``a/b`` (:func:`_fractions`). A fragment set in fixed columns in a proportional font is read
    as monospaced (:func:`_column_text`). Rotated characters (a diagonal
    watermark, a vertical arXiv stamp) become separate lines flagged ``rotated``. Cost: a constant
    number of PDFium calls per character.
    """
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise PdfEncryptedError(str(exc)) from exc
        raise PdfInvalidError(str(exc)) from exc
    pages: list[PageLines] = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            width, height = page.get_size()
            textpage = page.get_textpage()
            out = PageLines(index=index, width=width, height=height, graphics=_graphics(page, width, height))
            text = _pdfium_chars(textpage)
            rules = _Rules(out.graphics, height)
            dropped = _drop_hidden(page, textpage, out) if drop_hidden else set()
            if out.hidden:
                out.graphics = _without_hiding_boxes(out.graphics, out.hidden, height)
            for start, raw_line in _raw_lines(textpage, text, rules):
                if raw_line.strip():
                    out.lines.extend(_pdfium_line(textpage, index, height, start, raw_line, rules, dropped))
            textpage.close()
            page.close()
            pages.append(out)
    finally:
        pdf.close()
    return pages


def _drop_hidden(page: object, textpage: object, out: PageLines) -> set[int]:
    """PDFium indices of the page's hidden characters (whitespace inside a hidden run included);
    each run is added to ``out.hidden``."""
    chars = page_chars(page, textpage.raw)  # type: ignore[attr-defined]
    runs = [run for run in hidden_runs(chars) if run_text(run)]
    for run in runs:
        why = "; ".join(run[0].details[r] for r in REASONS if r in run[0].reasons)
        out.hidden.append(HiddenRun(text=run_text(run), box=run_box(run), reason=why))
    return {c.index for run in runs for c in run}


HIDING_BOX_MARGIN = 6.0
"""Points a box painted behind hidden text may reach past it (LaTeX's ``\\fboxsep`` is 3 pt)."""


def _without_hiding_boxes(graphics: list[Graphic], hidden: list[HiddenRun], height: float) -> list[Graphic]:
    """``graphics`` less the shapes that only back hidden text: a shape whose every side lies within
    :data:`HIDING_BOX_MARGIN` of the box around the hidden runs it holds (a ``\\colorbox`` in the
    text's colour). Such a box is part of the hiding, not a drawing, so the visible words beside it
    are never taken for its labels (figure text)."""
    boxes = [(r.box[0], height - r.box[3], r.box[2], height - r.box[1]) for r in hidden]  # top-left origin

    def hiding(g: Graphic) -> bool:
        inside = [b for b in boxes if g.x0 <= b[0] + 0.5 and g.top <= b[1] + 0.5 and b[2] - 0.5 <= g.x1
                  and b[3] - 0.5 <= g.bottom]
        if g.kind != "shape" or not inside:
            return False
        x0, top = min(b[0] for b in inside), min(b[1] for b in inside)
        x1, bottom = max(b[2] for b in inside), max(b[3] for b in inside)
        return max(x0 - g.x0, top - g.top, g.x1 - x1, g.bottom - bottom) <= HIDING_BOX_MARGIN

    return [g for g in graphics if not hiding(g)]


def _pdfium_chars(textpage: object) -> str:
    """The page's characters, one per PDFium character index.

    ``get_text_range`` is not used: it expands ligatures (``ﬃ`` -> ``ffi``), so its offsets drift
    from the character indices that boxes and fonts are looked up by, and every box after the
    first ligature of a page belongs to another character.
    """
    import pypdfium2.raw as raw

    count = raw.FPDFText_CountChars(textpage.raw)  # type: ignore[attr-defined]
    codes = [raw.FPDFText_GetUnicode(textpage.raw, i) for i in range(count)]  # type: ignore[attr-defined]
    chars = []
    for k, c in enumerate(codes):
        if 0xD800 <= c < 0xDC00 and k + 1 < count and 0xDC00 <= codes[k + 1] < 0xE000:
            c = 0x10000 + ((c - 0xD800) << 10) + (codes[k + 1] - 0xDC00)  # a UTF-16 pair: one char
            codes[k + 1] = 0
        chars.append(chr(c) if 0 < c < 0x110000 and not 0xD800 <= c < 0xE000 else "\ufffd")
    return "".join(chars)


_Char = tuple[int, float, float, float, float, float]  # offset, x0, y0, x1, y1, size


def _glyph(textpage: object, index: int) -> tuple[float, float, float, float]:
    """``(font size, origin x, origin y, right edge)`` of character ``index`` in points."""

    import pypdfium2.raw as raw

    x, y = ctypes.c_double(), ctypes.c_double()
    raw.FPDFText_GetCharOrigin(textpage.raw, index, x, y)  # type: ignore[attr-defined]
    right = textpage.get_charbox(index)[2]  # type: ignore[attr-defined]
    return float(raw.FPDFText_GetFontSize(textpage.raw, index)), x.value, y.value, right  # type: ignore[attr-defined]


def _raw_lines(textpage: object, text: str, rules: _Rules | None = None) -> list[tuple[int, str]]:
    """PDFium's lines as ``(index of the first character, text)``, with the breaks PDFium puts at a
    superscript or subscript undone (``4b`` / ``2 = 16,384`` is one line ``4b\r\n2 = 16,384``; see
    :func:`_script_joint`).

    A break is undone when the character after it continues the line to the right (at most 0.6 x
    the larger font size away), its baseline is within 0.9 x that size (a script of a script sits
    0.7 em high), and one of the two is set in a font at most ``SCRIPT_SIZE`` of the other's; or
    when it lies between a fraction's numerator and its denominator (:func:`_fraction_joint`).
    """
    out: list[tuple[int, str]] = []
    start = 0
    pieces = text.split("\r\n")
    for k, piece in enumerate(pieces):
        end = start + len(piece)
        joint = _script_joint(textpage, text, start - 2) if out else None
        if out and joint is None and rules is not None and _fraction_joint(textpage, text, start - 2, rules):
            joint = "\r\n"
        if joint is not None:
            first, prev = out[-1]
            out[-1] = (first, f"{prev}{joint}{piece}")
        else:
            out.append((start, piece))
        start = end + 2
    return out


def _script_joint(textpage: object, text: str, crlf: int) -> str | None:
    """What replaces the break at ``crlf`` (the index of its ``\r``) when it lies between a
    character and a script of it, or a script and the text after it: ``"\r\n"`` (nothing) or
    ``" \n"`` (a space, when the gap is over 0.2 x the smaller font size); ``None`` for a real
    line break. Both keep the two characters' places, so offsets still index PDFium's characters."""
    before = crlf - 1
    while before >= 0 and text[before] in " \t":
        before -= 1
    after = crlf + 2
    while after < len(text) and text[after] in " \t":
        after += 1
    if before < 0 or after >= len(text) or text[before] in "\r\n" or text[after] in "\r\n":
        return None
    size_a, _, ya, right_a = _glyph(textpage, before)
    size_b, xb, yb, _ = _glyph(textpage, after)
    big, small = max(size_a, size_b), min(size_a, size_b)
    if big <= 0 or small > SCRIPT_SIZE * big:
        return None
    gap = xb - right_a
    if not (-0.5 <= gap <= 0.6 * big and abs(yb - ya) <= 0.9 * big):
        return None
    spaced = before < crlf - 1 or after > crlf + 2
    return " \n" if gap > 0.2 * small and not spaced else "\r\n"


def _fraction_joint(textpage: object, text: str, crlf: int, rules: _Rules) -> bool:
    """Whether the break at ``crlf`` lies between the numerator and the denominator of a fraction
    set in a line (``\\frac{a+b}{c}``; PDFium breaks there as the text goes back and down): the
    character after it is in the same font size as the one before, set at most 1.6 x that size
    lower and not to its right, a page rule at most 12 x that size long spans both with its middle
    between them (1 pt of slack), and the 40 characters on either side hold one over
    ``1 / SCRIPT_SIZE`` x that size (the running text the fraction sits in)."""
    before, after = crlf - 1, crlf + 2
    if before < 0 or after >= len(text) or text[before].isspace() or text[after].isspace():
        return False
    size_b, _, yb, _ = _glyph(textpage, before)
    size_a, _, ya, _ = _glyph(textpage, after)
    if size_b <= 0 or abs(size_a - size_b) > 0.1 * size_b or not 0 < yb - ya <= 1.6 * size_b:
        return False
    bx0, by0, bx1, _ = textpage.get_charbox(before)  # type: ignore[attr-defined]
    ax0, _, ax1, ay1 = textpage.get_charbox(after)  # type: ignore[attr-defined]
    if ax0 > bx1:
        return False
    if not any(x1 - x0 <= 12 * size_b and x0 <= min(ax0, bx0) + 1 and x1 >= max(ax1, bx1) - 1
               and ay1 - 1 <= (y0 + y1) / 2 <= by0 + 1 for x0, y0, x1, y1 in rules.boxes()):
        return False
    around = range(max(0, before - 40), min(len(text), after + 40))
    return any(not text[k].isspace() and _glyph(textpage, k)[0] * SCRIPT_SIZE >= size_b for k in around)


_SOFT_HYPHENS = "\x02\ufffe\u00ad"


def _is_rotated(angle: float) -> bool:
    turn = 6.283185307179586
    a = angle % turn
    return min(a, turn - a) > 0.05


def _pdfium_line(textpage: object, page: int, height: float, start: int, raw_line: str,
                 rules: _Rules | None = None, dropped: set[int] | frozenset[int] = frozenset()) -> list[Line]:
    """Split one PDFium line into fragments (see :func:`extract_pdfium`); the characters whose
    PDFium index is in ``dropped`` are left out as if they were not there.

    A character with an empty box (PDFium gives some glyphs a point box, sometimes far from the
    glyph) and PDFium's line-end hyphen take no part in the geometry: they go with the fragment of
    the next (or previous) character that has a box.
    """
    import pypdfium2.raw as raw

    upright: list[list[_Char]] = []
    rotated: list[_Char] = []
    floating: list[_Char] = []
    fonts: dict[int, tuple[float, float]] = {}  # offset -> (font size, baseline y)
    digits = True
    skip = {k for k in range(len(raw_line)) if start + k in dropped} if dropped else set()
    for offset, ch in enumerate(raw_line):
        if ch.isspace() or offset in skip:
            continue
        i = start + offset
        x0, y0, x1, y1 = textpage.get_charbox(i)  # type: ignore[attr-defined]
        size, _, baseline, _ = _glyph(textpage, i)
        char = (offset, x0, y0, x1, y1, max(size, y1 - y0))
        if _is_rotated(raw.FPDFText_GetCharAngle(textpage.raw, i)):  # type: ignore[attr-defined]
            rotated.append(char)
            continue
        if ch in _SOFT_HYPHENS or (x1 - x0 < 0.01 and y1 - y0 < 0.01):
            if upright and not floating:
                upright[-1].append((offset, *upright[-1][-1][1:]))
            else:
                floating.append(char)
            continue
        if upright:
            prev = upright[-1][-1]
            gap = x0 - prev[3]
            scale = max(prev[5], char[5], 1.0)
            # a gap left by hidden characters dropped from the row is no gap between columns or cells
            hid = bool(skip) and any(k in skip for k in range(prev[0] + 1, offset))
            if (not hid and (gap > 1.2 * scale or (digits and gap > 0.4 * scale) or x1 < prev[1] - scale)) \
                    or abs((y0 + y1) - (prev[2] + prev[4])) / 2 > 1.2 * scale:
                upright.append([])
                digits = True
        else:
            upright.append([])
            digits = True
        digits = digits and ch.isdigit()  # the fragment so far is a number (a line number?)
        upright[-1].extend((f[0], *char[1:]) for f in floating)
        floating = []
        upright[-1].append(char)
        fonts[offset] = (size, baseline)
    if floating and upright:
        upright[-1].extend((f[0], *upright[-1][-1][1:]) for f in floating)
    lines = [_pdfium_fragment(textpage, page, height, start, raw_line, chars, False, fonts, rules, skip)
             for chars in upright]
    if rotated:
        lines.append(_pdfium_fragment(textpage, page, height, start, raw_line, rotated, True, {}, skip=skip))
    return [ln for ln in lines if ln.text.strip()]


def _script_marks(chars: list[_Char], fonts: dict[int, tuple[float, float]]) -> dict[int, str]:
    """``{offset: marks}`` for the superscript and subscript characters of a fragment: ``"^"`` or
    ``"_"``, and ``"^_"``, ``"^^"`` ... for a script of a script (``10^{3}`` inside ``^{+7.8·10^{3}}``).

    The fragment's main font size is the largest size at least a quarter of its characters have
    (so a table row full of ``±`` scripts keeps the size of its numbers), its baseline the median
    baseline of those characters; a character at most ``SCRIPT_SIZE`` of that size is a
    superscript or subscript by its baseline (:func:`~rhetorica.documents.pdf.lines.script_kind`).
    Each run of scripts is looked at again the same way, one level deeper (two levels at most).
    """
    return _marks([c[0] for c in chars if c[0] in fonts], fonts, "")


def _marks(offsets: list[int], fonts: dict[int, tuple[float, float]], prefix: str) -> dict[int, str]:
    if len(offsets) < 2 or len(prefix) >= 2:
        return {}
    sizes = Counter(round(fonts[k][0] * 4) / 4 for k in offsets)
    main = max(size for size, n in sizes.items() if n >= 0.25 * len(offsets))
    if main <= 0:
        return {}
    base = statistics.median(fonts[k][1] for k in offsets if abs(fonts[k][0] - main) < 0.3)
    marks: dict[int, str] = {}
    for k in offsets:
        size, y = fonts[k]
        kind = script_kind(size, -y, main, -base)  # PDF y grows upwards
        if kind:
            marks[k] = prefix + kind
    runs: list[list[int]] = []
    for k in offsets:
        if k in marks and runs and runs[-1] and marks.get(runs[-1][-1]) == marks[k]:
            runs[-1].append(k)
        elif k in marks:
            runs.append([k])
    for run in runs:
        marks.update(_marks(run, fonts, marks[run[0]]))
    return marks


def _marked_text(raw_line: str, first: int, last: int, marks: dict[int, str],
                 fractions: dict[int, int] | None = None, skip: set[int] | None = None) -> str:
    """``raw_line[first:last + 1]`` with each run of script characters written ``^2``, ``_1``,
    ``^-4`` or, when it is more than one number or character, ``^{l-1}`` (nested for a script of a
    script: ``^{+7.8·10^3}``), and each fraction (``fractions``: the first offset of its numerator
    -> the last of its denominator, see :func:`_fractions`) written ``1/2``, ``(a+b)/c``; PDFium's
    joined line breaks (``\r\n``) and the offsets in ``skip`` (hidden characters) are left out, and
    of the spaces on either side of left-out characters one is kept."""
    items = [(k, raw_line[k]) for k in range(first, last + 1) if raw_line[k] not in "\r\n"]
    if skip:
        items = _without(items, skip)
    return _render_runs(items, marks, "", fractions or {})


def _without(items: list[tuple[int, str]], skip: set[int]) -> list[tuple[int, str]]:
    """``items`` without the offsets in ``skip``; a space that follows another across a gap left by
    them is left out too (``a HIDDEN b`` -> ``a b``)."""
    out: list[tuple[int, str]] = []
    gap = False
    for offset, ch in items:
        if offset in skip:
            gap = True
            continue
        if ch.isspace() and gap and out and out[-1][1].isspace():
            continue
        gap = gap and ch.isspace()
        out.append((offset, ch))
    return out


def _render_runs(items: list[tuple[int, str]], marks: dict[int, str], level: str,
                 fractions: dict[int, int] | None = None) -> str:
    """Text of ``items`` (``(offset, char)``) whose marks start with ``level``; deeper runs nested.
    A run of scripts ends at a space (TeX sets no space inside a script: a space is a gap)."""
    out: list[str] = []
    k = 0
    depth = len(level)
    while k < len(items):
        offset, ch = items[k]
        if fractions and offset in fractions:
            j = next(i for i in range(k, len(items)) if items[i][0] == fractions[offset]) + 1
            parts = [_render_runs([it for it in items[k:j] if marks[it[0]][0] == kind], marks, kind) for kind in "^_"]
            out.append("/".join(p if _PLAIN_PART.fullmatch(p) else f"({p})" for p in parts))
            k = j
            continue
        mark = marks.get(offset, "")
        if len(mark) <= depth:
            out.append(ch)
            k += 1
            continue
        kind = mark[: depth + 1]
        j = k
        while j < len(items) and not items[j][1].isspace() and marks.get(items[j][0], "").startswith(kind):
            j += 1
        inner = _render_runs(items[k:j], marks, kind).strip()
        if inner:
            out.append(script_text(kind[-1], inner))
        k = j
    return "".join(out)




_PLAIN_PART = re.compile(r"[\w.]+|\S")  # a numerator or denominator written without parentheses


class _Rules:
    """The thin horizontal rules of a page (fraction bars, table rules; at most 1 pt thick) as boxes
    ``(x0, y0, x1, y1)`` in PDF points (y upwards)."""

    def __init__(self, graphics: list[Graphic], height: float) -> None:
        self._found = [(g.x0, height - g.bottom, g.x1, height - g.top) for g in graphics
                       if g.kind == "rule" and g.bottom - g.top <= 1.0]

    def boxes(self) -> list[tuple[float, float, float, float]]:
        return self._found


FORM_WRAPPER = 0.6
"""A form object covering more than this share of its page wraps the page's content (a stamped
or re-assembled PDF): its objects are looked into, it is no drawing itself."""


def _graphics(page: object, width: float, height: float) -> list[Graphic]:
    """The page's paths, images, shadings and forms (:class:`~rhetorica.documents.pdf.lines.Graphic`),
    a form's inside looked into only when it wraps the page (:data:`FORM_WRAPPER`). A path at most
    :data:`~rhetorica.documents.pdf.lines.RULE_THICKNESS` thick is a ``"rule"`` when horizontal
    and at least that long, else a ``"line"``."""
    import pypdfium2.raw as raw

    out: list[Graphic] = []
    skip_below: int | None = None  # the level of a form whose inside is not looked into
    for obj in page.get_objects(max_depth=4):  # type: ignore[attr-defined]
        if skip_below is not None and obj.level > skip_below:
            continue
        skip_below = None
        kind = obj.type
        if kind == raw.FPDF_PAGEOBJ_TEXT:
            continue
        x0, y0, x1, y1 = obj.get_bounds()
        w, h = x1 - x0, y1 - y0
        if kind == raw.FPDF_PAGEOBJ_FORM:
            if w * h > FORM_WRAPPER * width * height:
                continue
            skip_below = obj.level
        if kind == raw.FPDF_PAGEOBJ_PATH and min(w, h) <= RULE_THICKNESS:
            label = "rule" if w >= max(h, RULE_THICKNESS) else "line"
        else:
            label = "shape"
        out.append(Graphic(label, x0, height - y1, x1, height - y0))
    return out


def _fractions(raw_line: str, chars: list[_Char], marks: dict[int, str], rules: _Rules | None) -> dict[int, int]:
    """The fractions set in a line (``\\frac{1}{2}`` in running text): ``{first offset of the
    numerator: last offset of the denominator}``.

    TeX sets a fraction's numerator raised and its denominator lowered, both smaller than the
    text, so they are marked as a superscript and a subscript (:func:`_script_marks`); what tells
    them from the two scripts of one base (``x_i^2``) is the fraction bar between them: a rule of
    the page at most 1 pt thick that spans both, its middle above the denominator's glyphs and
    below the numerator's (1 pt of slack). A run of superscript characters directly followed by a
    run of subscript characters (no space between, marks of one level) is looked at.
    """
    if rules is None:
        return {}
    box = {c[0]: c for c in chars}
    runs: list[tuple[bool, list[int]]] = []  # (joined to the run before, offsets)
    prev = None
    for offset in sorted(box):
        mark = marks.get(offset, "")
        joined = prev is not None and all(raw_line[k] in "\r\n" for k in range(prev + 1, offset))
        if not mark:
            prev = None
            continue
        if joined and marks[prev][0] == mark[0]:
            runs[-1][1].append(offset)
        else:
            runs.append((joined, [offset]))
        prev = offset
    found: dict[int, int] = {}
    for (_, num), (joined, den) in zip(runs, runs[1:]):
        if not joined or marks[num[0]][0] != "^" or marks[den[0]][0] != "_":
            continue
        n0, n1 = min(box[k][1] for k in num), max(box[k][3] for k in num)
        d0, d1 = min(box[k][1] for k in den), max(box[k][3] for k in den)
        if min(n1, d1) - max(n0, d0) < 0.5 * min(n1 - n0, d1 - d0):
            continue  # not stacked
        low, high = max(box[k][4] for k in den), min(box[k][2] for k in num)
        if any(x0 <= min(n0, d0) + 1 and x1 >= max(n1, d1) - 1 and low - 1 <= (y0 + y1) / 2 <= high + 1
               for x0, y0, x1, y1 in rules.boxes()):
            found[num[0]] = den[-1]
    return found


def _pdfium_fragment(
    textpage: object, page: int, height: float, start: int, raw_line: str, chars: list[_Char], rotated: bool,
    fonts: dict[int, tuple[float, float]], rules: _Rules | None = None, skip: set[int] | None = None,
) -> Line:
    """One :class:`Line` of ``chars``: its text with script marks (the offsets in ``skip`` left out),
    its main font size and baseline (over the characters that are no script; PDFium's sizes when
    none was measured) and its style (from a sample of eight characters)."""
    import pypdfium2.raw as raw

    keep = {c[0] for c in chars}
    first, last = chars[0][0], chars[-1][0]
    marks = {} if rotated else _script_marks(chars, fonts)
    step = max(1, len(chars) // 8)
    sample = chars[::step]
    styles = [_pdfium_style(textpage, start + c[0]) for c in sample]
    mono = sum(st[3] for st in styles) >= 0.9 * len(styles)
    pitch = 0.0
    columns = None if rotated or mono or marks else _column_text(textpage, start, raw_line, chars, skip or set())
    if rotated:
        text = "".join(ch for k, ch in enumerate(raw_line) if k in keep or (ch.isspace() and first < k < last))
    elif columns is not None:
        (text, pitch), mono = columns, True
    elif mono and not marks:
        text = _mono_text(textpage, start, raw_line, first, last, skip or set())
    else:
        text = _marked_text(raw_line, first, last, marks, _fractions(raw_line, chars, marks, rules), skip)
    main = [fonts[c[0]] for c in chars if c[0] in fonts and c[0] not in marks]
    if main:
        size = float(statistics.median(f[0] for f in main))
        baseline = height - float(statistics.median(f[1] for f in main))
    else:
        size = float(statistics.median(raw.FPDFText_GetFontSize(textpage.raw, start + c[0]) for c in sample))  # type: ignore[attr-defined]
        baseline = 0.0
    return Line(
        page=page, x0=min(c[1] for c in chars), top=height - max(c[4] for c in chars),
        x1=max(c[3] for c in chars), bottom=height - min(c[2] for c in chars),
        text=_norm(text), size=size, baseline=baseline,
        bold=sum(st[0] for st in styles) >= 0.9 * len(styles), rotated=rotated,
        italic=sum(st[1] for st in styles) >= 0.9 * len(styles),
        smallcaps=sum(st[2] for st in styles) >= 0.5 * len(styles),
        mono=mono, pitch=pitch,
    )


def _mono_text(textpage: object, start: int, raw_line: str, first: int, last: int, skip: set[int]) -> str:
    """``raw_line[first:last + 1]`` of a fragment in a monospaced font (the offsets in ``skip``,
    hidden characters, left out), a space kept only where the
    text skips a character cell: the glyph origins before and after it lie at least 1.5 x the
    font's pitch apart (the median step between neighbouring glyphs). PDFium writes a space at
    every gap wider than a few points, and a code listing centres narrow glyphs (``.``, ``(``) in
    their cells (``reader . open (`` for ``reader.open(``)."""
    origins = {k: _glyph(textpage, start + k)[1] for k in range(first, last + 1)
               if not raw_line[k].isspace() and raw_line[k] not in "\r\n" and k not in skip}
    keys = sorted(origins)
    steps = [origins[b] - origins[a] for a, b in pairwise(keys) if b == a + 1]
    if not steps:
        return "".join(ch for k, ch in enumerate(raw_line[first:last + 1], first) if k not in skip).replace("\r\n", "")
    pitch = statistics.median(steps)
    out: list[str] = []
    for a, b in pairwise(keys):
        out.append(raw_line[a])
        if b > a + 1 and origins[b] - origins[a] >= 1.5 * pitch:
            out.append(" " * max(1, round((origins[b] - origins[a]) / pitch) - 1))
    out.append(raw_line[keys[-1]])
    return "".join(out)


def _column_text(textpage: object, start: int, raw_line: str, chars: list[_Char],
                 skip: set[int]) -> tuple[str, float] | None:
    """``(text, pitch in points)`` of a fragment set in fixed columns in a proportional font (a
    ``listings`` code line in the roman font; :func:`~rhetorica.documents.pdf.columns.fixed_columns`),
    each character at its column and a space in each skipped column (:data:`_LISTINGS_MATH` read
    as ASCII). ``None`` for any other fragment: one not in fixed columns, one that holds a soft
    hyphen or a hidden character, and one whose Latin letters are more than :data:`MATH_ITALIC`
    in an italic font (a formula's variables, ``t = a ◦ b``, which TeX's spacing around relations
    and operators can set on a grid)."""
    import pypdfium2.raw as raw

    offsets = sorted({c[0] for c in chars})
    if len(offsets) < MIN_CHARACTERS or any(raw_line[k] in _SOFT_HYPHENS or k in skip for k in offsets):
        return None
    cells = []
    box = raw.FS_RECTF()
    for k in offsets:
        raw.FPDFText_GetLooseCharBox(textpage.raw, start + k, box)  # type: ignore[attr-defined]
        cells.append((box.left, box.right - box.left))
    order = sorted(range(len(offsets)), key=lambda i: cells[i][0])
    text = "".join(raw_line[offsets[i]] for i in order)
    size = statistics.median(c[5] for c in chars)
    found = fixed_columns(text, [cells[i] for i in order], size)
    letters = [offsets[i] for i in order if "a" <= raw_line[offsets[i]].lower() <= "z"]
    if found is None or sum(_pdfium_style(textpage, start + k)[1] for k in letters) > MATH_ITALIC * len(letters):
        return None
    columns, pitch = found
    text = text.translate(_LISTINGS_MATH)
    return "".join(" " * (b - a - 1) + ch for a, b, ch in zip([-1] + columns, columns, text)), pitch


MATH_ITALIC = 0.5
"""The share of a fragment's Latin letters in an italic font above which evenly spaced characters
are a formula, not code (code's identifiers are upright in listings' default style). Measured on
the generated control pages (tests/documents/pdf/test_elements_latex.py): 24 fragments of
formulas lie on a grid, none is left once their italic letters are counted."""
_LISTINGS_MATH = str.maketrans("\u2212\u2217", "-*")
"""The minus sign and centred asterisk that ``listings`` prints for ``-`` and ``*`` in a font that
is no typewriter font (``\\textminus``, ``\\textasteriskcentered``; ``\\lst@ttfamily`` in
listings.sty), read back as the characters of the code."""


def _pdfium_style(textpage: object, index: int) -> tuple[bool, bool, bool, bool]:
    """``(bold, italic, small caps, monospace)`` of a character: the declared weight (>= 600) or a
    bold font name; the font's italic flag (PDF font flag 7) or an italic name; a small-caps font
    name; the fixed-pitch flag (PDF font flag 1) or a typewriter font name."""

    import pypdfium2.raw as raw

    weight = raw.FPDFText_GetFontWeight(textpage.raw, index)  # type: ignore[attr-defined]
    size = raw.FPDFText_GetFontInfo(textpage.raw, index, None, 0, None)  # type: ignore[attr-defined]
    buffer = ctypes.create_string_buffer(max(size, 1))
    flags = ctypes.c_int(0)
    raw.FPDFText_GetFontInfo(textpage.raw, index, buffer, size, flags)  # type: ignore[attr-defined]
    name = buffer.value.decode(errors="replace")
    lower = name.lower()
    italic = bool(flags.value & 64) or any(k in lower for k in ("italic", "oblique", "ital", "cmti", "cmmi"))
    caps = "caps" in lower or "cmcsc" in lower or lower.endswith("-sc")
    mono = bool(flags.value & 1) or any(k in lower for k in ("mono", "cmtt", "courier", "typewriter", "lmtt", "txtt", "sftt", "ectt", "nimbusmon",
                                                "inconsolata", "zi4", "consola", "menlo"))
    return weight >= 600 or _is_bold(name), italic, caps, mono
