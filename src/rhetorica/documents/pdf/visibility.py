"""Which characters of a PDF page a human reader cannot see, decided per character from the
page's drawing state through pdfium (pypdfium2's raw API): the one definition of hidden PDF text,
shared by the scan (:mod:`rhetorica.documents.scan.pdf`) and the reader, which keeps those
characters out of the text under ``hidden_text: drop`` (:mod:`rhetorica.documents.pdf.backends`).

For each character pdfium reports its unicode value, font size, text matrix, fill and stroke
colour, box and the page object it belongs to (whose text render mode and clip path we read).
A character is hidden when

- its text object's render mode is 3 (invisible) or 7 (clip only) — ``invisible``;
- it lies entirely outside the page's visible box (crop box within media box) — ``off-page``;
- its clip path leaves less than :data:`MIN_CLIP_AREA` pt² of it, or none — ``clipped``;
- opaque images or filled paths painted later (higher in z-order, page level) cover at least
  :data:`COVER_SHARE` of its box, together (a tight white rectangle over a line counts, a figure
  whose box only touches a line does not) — ``covered``;
- it has no contrast with what lies beneath it: its fill colour is within :data:`SAME_COLOUR` of
  every channel of the background, the topmost opaque filled path painted before it that holds
  its box, else the white page (white or near-white text on the page, yellow text on a yellow box,
  black on black; an image beneath it has no one colour and is never judged), or it is fully
  transparent (alpha <= 13) — ``white`` (the name of the commonest case);
- its effective size (font size x text-matrix scale) is below :data:`MIN_FONT_PT` — ``tiny``.

Consecutive hidden characters with the same reasons form one run (:func:`hidden_runs`).

Not checked (pdfium does not expose it cheaply, or it needs rendering): objects inside form
XObjects for the covering test (their z-order relative to the page's objects is unknown to us),
soft masks and blend modes, a non-white page background painted by a shape, text in annotations.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field

MIN_FONT_PT = 3.0
"""Effective font sizes below this (points) count as unreadable."""

SAME_COLOUR = 15
"""Text whose red, green and blue each differ by at most this (0-255) from its background's has no
contrast (15: white-ish text, every channel >= 240, on a white page)."""

COVER_SHARE = 0.75
"""A character is covered when opaque shapes painted after it cover at least this share of its box
(visibility is decided by what is painted over a glyph, not only by the glyph's own colour)."""

MIN_CLIP_AREA = 1.0
"""A character keeping less than this many square points inside its clip path is clipped away."""

WHITE_PAGE = (255, 255, 255)

_INVISIBLE_MODES = {3: "text render mode 3 (invisible)", 7: "text render mode 7 (clip only, not painted)"}
_FILL_MODES = {0, 2, 4, 6}
_PAGEOBJ_TEXT, _PAGEOBJ_PATH, _PAGEOBJ_IMAGE = 1, 2, 3
REASONS = ("invisible", "off-page", "clipped", "covered", "white", "tiny")
"""Why a character is hidden, in the order a run's reasons are named."""

Box = tuple[float, float, float, float]


def _intersection(a: Box, b: Box) -> Box | None:
    left, bottom, right, top = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (left, bottom, right, top) if left < right and bottom < top else None


def _covered_share(box: Box, covers: list[Box]) -> float:
    """Share (0-1) of ``box``'s area under the union of ``covers`` (exact, by cutting the box
    into the cells of the covers' edges)."""
    area = (box[2] - box[0]) * (box[3] - box[1])
    parts = [b for b in (_intersection(box, c) for c in covers) if b is not None]
    if area <= 0 or not parts:
        return 0.0
    if len(parts) == 1:
        only = parts[0]
        return (only[2] - only[0]) * (only[3] - only[1]) / area
    xs = sorted({v for b in parts for v in (b[0], b[2])})
    ys = sorted({v for b in parts for v in (b[1], b[3])})
    under = 0.0
    for x0, x1 in zip(xs, xs[1:]):
        for y0, y1 in zip(ys, ys[1:]):
            if any(b[0] <= x0 and x1 <= b[2] and b[1] <= y0 and y1 <= b[3] for b in parts):
                under += (x1 - x0) * (y1 - y0)
    return under / area


def _contains(outer: Box, inner: Box, slack: float = 0.5) -> bool:
    return (outer[0] - slack <= inner[0] and outer[1] - slack <= inner[1]
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


@dataclass
class _Obj:
    index: int
    mode: int
    clip: Box | None
    clip_empty: bool


@dataclass
class CharState:
    """One character of a PDFium text page: its index there, the character, its box (PDF points,
    origin bottom left; zeros for a character PDFium generated), why it is hidden (names of
    :data:`REASONS`, empty when it is visible) and each reason in words."""

    index: int
    char: str
    box: Box
    reasons: frozenset[str]
    details: dict[str, str] = field(default_factory=dict)


def _bounds(obj: ctypes.c_void_p) -> Box | None:
    import pypdfium2.raw as raw

    values = [ctypes.c_float() for _ in range(4)]
    if not raw.FPDFPageObj_GetBounds(obj, *(ctypes.byref(v) for v in values)):
        return None
    left, bottom, right, top = (v.value for v in values)
    return left, bottom, right, top


def _clip_box(obj: ctypes.c_void_p) -> tuple[Box | None, bool]:
    """Bounding box of the intersection of an object's clip paths (``None`` = no clip) and whether
    that intersection is empty."""
    import pypdfium2.raw as raw

    clip = raw.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return None, False
    region: Box | None = None
    for path_index in range(raw.FPDFClipPath_CountPaths(clip)):
        xs, ys = [], []
        for seg_index in range(raw.FPDFClipPath_CountPathSegments(clip, path_index)):
            segment = raw.FPDFClipPath_GetPathSegment(clip, path_index, seg_index)
            x, y = ctypes.c_float(), ctypes.c_float()
            if segment and raw.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y)):
                xs.append(x.value)
                ys.append(y.value)
        if not xs:
            continue
        box = (min(xs), min(ys), max(xs), max(ys))
        if region is None:
            region = box
        else:
            inter = _intersection(region, box)
            if inter is None:
                return region, True
            region = inter
    return region, False


def _is_opaque_cover(obj: ctypes.c_void_p, kind: int) -> bool:
    """An image without transparency, or a filled path with an opaque fill."""
    import pypdfium2.raw as raw

    if raw.FPDFPageObj_HasTransparency(obj):
        return False
    if kind == _PAGEOBJ_IMAGE:
        return True
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    if not raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill_mode), ctypes.byref(stroke)) or fill_mode.value == 0:
        return False
    rgba = [ctypes.c_uint() for _ in range(4)]
    return bool(raw.FPDFPageObj_GetFillColor(obj, *(ctypes.byref(v) for v in rgba))) and rgba[3].value >= 242


def _page_objects(page: ctypes.c_void_p) -> tuple[dict[int, _Obj], list[tuple[int, Box, tuple[int, ...] | None]]]:
    """Text objects by handle address, and (index, bounds, fill colour; ``None`` for an image) of
    opaque shapes."""
    import pypdfium2.raw as raw

    texts: dict[int, _Obj] = {}
    shapes: list[tuple[int, Box, tuple[int, ...] | None]] = []
    for index in range(raw.FPDFPage_CountObjects(page)):
        obj = raw.FPDFPage_GetObject(page, index)
        kind = raw.FPDFPageObj_GetType(obj)
        address = ctypes.cast(obj, ctypes.c_void_p).value or 0
        if kind == _PAGEOBJ_TEXT:
            clip, empty = _clip_box(obj)
            texts[address] = _Obj(index, raw.FPDFTextObj_GetTextRenderMode(obj), clip, empty)
        elif kind in (_PAGEOBJ_IMAGE, _PAGEOBJ_PATH) and _is_opaque_cover(obj, kind):
            bounds = _bounds(obj)
            clip, empty = _clip_box(obj)
            if bounds is not None and clip is not None:
                bounds = None if empty else _intersection(bounds, clip)  # only the painted part covers
            if bounds is not None and (bounds[2] - bounds[0]) * (bounds[3] - bounds[1]) > 4.0:
                shapes.append((index, bounds, None if kind == _PAGEOBJ_IMAGE else _fill(obj)))
    return texts, shapes


def _fill(obj: ctypes.c_void_p) -> tuple[int, int, int]:
    """A path's fill colour (red, green, blue; 0-255)."""
    import pypdfium2.raw as raw

    rgba = [ctypes.c_uint() for _ in range(4)]
    raw.FPDFPageObj_GetFillColor(obj, *(ctypes.byref(v) for v in rgba))
    return rgba[0].value, rgba[1].value, rgba[2].value


def _visible_box(page: object) -> Box:
    media = page.get_mediabox()  # type: ignore[attr-defined]
    crop = page.get_cropbox()  # type: ignore[attr-defined]
    return _intersection(tuple(media), tuple(crop)) or tuple(media)  # type: ignore[arg-type, return-value]


def page_chars(page: object, textpage: ctypes.c_void_p) -> list[CharState]:
    """Every character of ``textpage`` (PDFium's text page of ``page``, a raw handle) with why it is
    hidden, decided from its drawing state (see the module docstring); index ``i`` of the result is
    PDFium's character ``i``."""
    import pypdfium2.raw as raw

    visible = _visible_box(page)
    texts, shapes = _page_objects(page.raw)  # type: ignore[attr-defined]
    chars: list[CharState] = []
    painted_after: dict[int, list[Box]] = {}  # text object index -> boxes of the shapes painted after it
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    rgba = [ctypes.c_uint() for _ in range(4)]
    matrix = raw.FS_MATRIX()
    for i in range(raw.FPDFText_CountChars(textpage)):
        char = chr(raw.FPDFText_GetUnicode(textpage, i))
        obj = raw.FPDFText_GetTextObject(textpage, i)
        if raw.FPDFText_IsGenerated(textpage, i) or not obj:
            chars.append(CharState(i, char, (0, 0, 0, 0), frozenset()))
            continue
        raw.FPDFText_GetCharBox(textpage, i, ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom),
                                ctypes.byref(top))
        box = (left.value, bottom.value, right.value, top.value)
        info = texts.get(ctypes.cast(obj, ctypes.c_void_p).value or 0)
        mode = info.mode if info is not None else raw.FPDFTextObj_GetTextRenderMode(obj)
        reasons: set[str] = set()
        details: dict[str, str] = {}
        if mode in _INVISIBLE_MODES:
            reasons.add("invisible")
            details["invisible"] = _INVISIBLE_MODES[mode]
        if char.isspace():
            chars.append(CharState(i, char, box, frozenset(reasons), details))
            continue
        area_box = box if box[2] > box[0] and box[3] > box[1] else (box[0], box[1], box[0] + 0.01, box[1] + 0.01)
        if _intersection(area_box, visible) is None:
            reasons.add("off-page")
            details["off-page"] = (f"outside the visible page box ({visible[0]:.0f}, {visible[1]:.0f}, "
                                   f"{visible[2]:.0f}, {visible[3]:.0f})")
        if info is not None and info.clip is not None:
            kept = None if info.clip_empty else _intersection(area_box, info.clip)
            kept_area = 0.0 if kept is None else (kept[2] - kept[0]) * (kept[3] - kept[1])
            full = (area_box[2] - area_box[0]) * (area_box[3] - area_box[1])
            if kept_area < min(MIN_CLIP_AREA, 0.5 * full):
                reasons.add("clipped")
                details["clipped"] = "outside its clipping region"
        if info is not None and info.index not in painted_after:
            painted_after[info.index] = [bounds for index, bounds, _ in shapes if index > info.index]
        later = painted_after[info.index] if info is not None else []
        if later and _covered_share(area_box, later) >= COVER_SHARE:
            reasons.add("covered")
            details["covered"] = "under an opaque image or filled shape painted after it"
        if raw.FPDFText_GetFillColor(textpage, i, *(ctypes.byref(v) for v in rgba)):
            red, green, blue, alpha = (v.value for v in rgba)
            beneath = [(index, colour) for index, bounds, colour in shapes
                       if info is not None and index < info.index and _contains(bounds, area_box)]
            background = max(beneath)[1] if beneath else WHITE_PAGE
            if alpha <= 13:
                reasons.add("white")
                details["white"] = f"fully transparent fill (alpha {alpha})"
            elif mode in _FILL_MODES and background is not None \
                    and all(abs(c - b) <= SAME_COLOUR for c, b in zip((red, green, blue), background)):
                reasons.add("white")
                details["white"] = (f"fill colour ({red}, {green}, {blue}) on a white page" if not beneath else
                                    f"fill colour ({red}, {green}, {blue}) on a shape of colour {background}")
        raw.FPDFText_GetMatrix(textpage, i, ctypes.byref(matrix))
        scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c)) or 1.0
        size = raw.FPDFText_GetFontSize(textpage, i) * scale
        if 0 < size < MIN_FONT_PT:
            reasons.add("tiny")
            details["tiny"] = f"{size:.2g} pt text (below {MIN_FONT_PT:g} pt)"
        chars.append(CharState(i, char, box, frozenset(reasons), details))
    return chars


def hidden_runs(chars: list[CharState]) -> list[list[CharState]]:
    """Consecutive characters with the same non-empty reasons; whitespace between two characters of
    a run (real or generated by pdfium for word and line breaks) belongs to the run."""
    runs: list[list[CharState]] = []
    current: list[CharState] = []
    pending: list[CharState] = []
    for c in chars:
        if c.char.isspace():
            if current:
                pending.append(c)
            continue
        if current and c.reasons == current[0].reasons:
            current += pending + [c]
        else:
            if current:
                runs.append(current)
            current = [c] if c.reasons else []
        pending = []
    if current:
        runs.append(current)
    return runs


def run_box(chars: list[CharState]) -> Box:
    """The box around ``chars`` (generated characters left out)."""
    boxes = [c.box for c in chars if c.box != (0, 0, 0, 0)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def run_text(run: list[CharState]) -> str:
    """The characters of a run as PDFium extracts them (line breaks as ``\\n``), stripped."""
    return "".join(c.char for c in run).replace("\r\n", "\n").strip()


def hidden_indices(chars: list[CharState]) -> set[int]:
    """PDFium indices of the characters of every hidden run (whitespace inside a run included)."""
    return {c.index for run in hidden_runs(chars) for c in run}
