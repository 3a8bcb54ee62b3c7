"""Hidden text in PDFs, read character by character through pdfium (pypdfium2's raw API).

For each character pdfium reports its unicode value, font size, text matrix, fill and stroke
colour, box and the page object it belongs to (whose text render mode and clip path we read).
A character is hidden when

- its text object's render mode is 3 (invisible) or 7 (clip only) — ``pdf-invisible-text``;
- it lies entirely outside the page's visible box (crop box within media box) — ``pdf-off-page``;
- its clip path leaves less than 1 pt² of it, or none — ``pdf-clipped``;
- opaque images or filled paths painted later (higher in z-order, page level) cover at least
  :data:`COVER_SHARE` of its box, together (a tight white rectangle over a line counts, a figure
  whose box only touches a line does not) — ``pdf-covered``;
- it is painted white or near-white (every channel >= 240 of 255) with no image or filled path
  beneath it, or fully transparent (alpha <= 13) — ``pdf-white-text``;
- its effective size (font size x text-matrix scale) is below :data:`MIN_FONT_PT` — ``pdf-tiny-text``.

Consecutive hidden characters with the same reasons form one finding (the exact extracted text,
page, box). It is ``high`` when the text carries an instruction
(:mod:`rhetorica.documents.scan.instructions`), else ``low`` (``info`` for fewer than three
letters). Visible instruction-like text on a page is ``instruction`` (``medium``; ``high`` when it
demands a verdict or is obfuscated); an instruction in the document information dictionary is ``pdf-metadata``
(``high``).

A page with no text character at all (a scanned image, or a page the scan cannot otherwise read)
is listed in the report's ``unread`` (:data:`NO_TEXT_LAYER`): whatever text it shows was not
checked, so the report is incomplete rather than clean.

Not checked (pdfium does not expose it cheaply, or it needs rendering): objects inside form
XObjects for the covering test (their z-order relative to the page's objects is unknown to us),
soft masks and blend modes, a non-white page background painted by a shape, text in annotations,
XMP metadata.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field
from pathlib import Path

from rhetorica.documents.scan.findings import Finding, Location, ScanReport, Severity, Unread
from rhetorica.documents.scan.instructions import find_instructions, visible_verdict

MIN_FONT_PT = 3.0
"""Effective font sizes below this (points) count as unreadable."""

WHITE_CHANNEL = 240
"""A fill colour whose red, green and blue are all at least this (0-255) is white on a white page."""

COVER_SHARE = 0.75
"""A character is covered when opaque shapes painted after it cover at least this share of its box
(visibility is decided by what is painted over a glyph, not only by the glyph's own colour)."""

MIN_CLIP_AREA = 1.0
"""A character keeping less than this many square points inside its clip path is clipped away."""

NO_TEXT_LAYER = "no text layer (an image-only or blank page: any text it shows can only be read by OCR)"
"""Why a page without a single text character is unread."""

_INVISIBLE_MODES = {3: "text render mode 3 (invisible)", 7: "text render mode 7 (clip only, not painted)"}
_FILL_MODES = {0, 2, 4, 6}
_PAGEOBJ_TEXT, _PAGEOBJ_PATH, _PAGEOBJ_IMAGE = 1, 2, 3
_KIND_ORDER = ("invisible", "off-page", "clipped", "covered", "white", "tiny")
_KINDS = {"invisible": "pdf-invisible-text", "off-page": "pdf-off-page", "clipped": "pdf-clipped",
          "covered": "pdf-covered", "white": "pdf-white-text", "tiny": "pdf-tiny-text"}

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
class _Char:
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


def _page_objects(page: ctypes.c_void_p) -> tuple[dict[int, _Obj], list[tuple[int, Box, bool]]]:
    """Text objects by handle address, and (index, bounds, is dark-or-image) of opaque shapes."""
    import pypdfium2.raw as raw

    texts: dict[int, _Obj] = {}
    shapes: list[tuple[int, Box, bool]] = []
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
                shapes.append((index, bounds, kind == _PAGEOBJ_IMAGE or not _white_fill(obj)))
    return texts, shapes


def _white_fill(obj: ctypes.c_void_p) -> bool:
    import pypdfium2.raw as raw

    rgba = [ctypes.c_uint() for _ in range(4)]
    raw.FPDFPageObj_GetFillColor(obj, *(ctypes.byref(v) for v in rgba))
    return min(v.value for v in rgba[:3]) >= WHITE_CHANNEL


def _visible_box(page: object) -> Box:
    media = page.get_mediabox()  # type: ignore[attr-defined]
    crop = page.get_cropbox()  # type: ignore[attr-defined]
    return _intersection(tuple(media), tuple(crop)) or tuple(media)  # type: ignore[arg-type, return-value]


def _page_chars(page: object, textpage: ctypes.c_void_p) -> list[_Char]:
    import pypdfium2.raw as raw

    visible = _visible_box(page)
    texts, shapes = _page_objects(page.raw)  # type: ignore[attr-defined]
    chars: list[_Char] = []
    painted_after: dict[int, list[Box]] = {}  # text object index -> boxes of the shapes painted after it
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    rgba = [ctypes.c_uint() for _ in range(4)]
    matrix = raw.FS_MATRIX()
    for i in range(raw.FPDFText_CountChars(textpage)):
        char = chr(raw.FPDFText_GetUnicode(textpage, i))
        obj = raw.FPDFText_GetTextObject(textpage, i)
        if raw.FPDFText_IsGenerated(textpage, i) or not obj:
            chars.append(_Char(i, char, (0, 0, 0, 0), frozenset()))
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
            chars.append(_Char(i, char, box, frozenset(reasons), details))
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
            on_dark = info is not None and any(index < info.index and dark and _contains(bounds, area_box)
                                               for index, bounds, dark in shapes)
            if alpha <= 13:
                reasons.add("white")
                details["white"] = f"fully transparent fill (alpha {alpha})"
            elif mode in _FILL_MODES and min(red, green, blue) >= WHITE_CHANNEL and not on_dark:
                reasons.add("white")
                details["white"] = f"fill colour ({red}, {green}, {blue}) on a white page"
        raw.FPDFText_GetMatrix(textpage, i, ctypes.byref(matrix))
        scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c)) or 1.0
        size = raw.FPDFText_GetFontSize(textpage, i) * scale
        if 0 < size < MIN_FONT_PT:
            reasons.add("tiny")
            details["tiny"] = f"{size:.2g} pt text (below {MIN_FONT_PT:g} pt)"
        chars.append(_Char(i, char, box, frozenset(reasons), details))
    return chars


def _runs(chars: list[_Char]) -> list[list[_Char]]:
    """Consecutive characters with the same non-empty reasons; whitespace between two characters of
    a run (real or generated by pdfium for word and line breaks) belongs to the run."""
    runs: list[list[_Char]] = []
    current: list[_Char] = []
    pending: list[_Char] = []
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


def _union(chars: list[_Char]) -> Box:
    boxes = [c.box for c in chars if c.box != (0, 0, 0, 0)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _run_finding(run: list[_Char], file: str, page_number: int) -> Finding:
    text = "".join(c.char for c in run).replace("\r\n", "\n").strip()
    reasons = run[0].reasons
    kind = _KINDS[next(r for r in _KIND_ORDER if r in reasons)]
    matches = find_instructions(text)
    why = "; ".join(run[0].details[r] for r in _KIND_ORDER if r in reasons)
    severity: Severity = "high" if matches else ("low" if sum(ch.isalpha() for ch in text) >= 3 else "info")
    if matches:
        why += f"; contains an instruction ({matches[0].rule})"
    box = tuple(round(v, 1) for v in _union(run))
    return Finding(kind=kind, severity=severity, text=text, reason=why, instruction=matches[0].rule if matches else None,
                   hidden_text=text, location=Location(file=file, page=page_number, bbox=box))  # type: ignore[arg-type]


def scan_pdf(path: Path) -> ScanReport:
    """Scan every page of a PDF (see the module docstring).

    Returns:
        The report; each page without a text character is in its ``unread`` (:data:`NO_TEXT_LAYER`),
        a PDF without pages is unread as a whole.

    Raises:
        pypdfium2.PdfiumError: if pdfium cannot open the file (not a PDF, encrypted, damaged).
    """
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    report = ScanReport(target=str(path), format="pdf")
    pdf = pdfium.PdfDocument(str(path))
    try:
        for key, value in pdf.get_metadata_dict().items():
            matches = find_instructions(value) if value else []
            if matches:
                report.findings.append(Finding(
                    kind="pdf-metadata", severity="high", text=value, instruction=matches[0].rule, hidden_text=value,
                    location=Location(file=str(path), field=key),
                    reason=f"document information field {key} (not shown on any page) contains an instruction "
                           f"({matches[0].rule})"))
        if len(pdf) == 0:
            report.unread.append(Unread(file=str(path), reason="the PDF has no pages"))
        for page_index in range(len(pdf)):
            page = pdf[page_index]
            textpage = raw.FPDFText_LoadPage(page.raw)
            try:
                chars = _page_chars(page, textpage)
            finally:
                raw.FPDFText_ClosePage(textpage)
                page.close()
            if all(c.char.isspace() for c in chars):
                report.unread.append(Unread(file=str(path), page=page_index + 1, reason=NO_TEXT_LAYER))
                continue
            hidden = [run for run in _runs(chars) if "".join(c.char for c in run).strip()]
            hidden_ranges = [(run[0].index, run[-1].index + 1) for run in hidden]
            report.findings += [_run_finding(run, str(path), page_index + 1) for run in hidden]
            page_text = "".join(c.char for c in chars)
            for match in find_instructions(page_text):
                if any(s < match.end and match.start < e for s, e in hidden_ranges):
                    continue
                span = chars[match.start:match.end]
                severity, reason = visible_verdict(match)
                report.findings.append(Finding(
                    kind="instruction", severity=severity, text=page_text[match.start:match.end],
                    instruction=match.rule, decoded=match.decoded, reason=reason,
                    location=Location(file=str(path), page=page_index + 1,
                                      bbox=tuple(round(v, 1) for v in _union(span)))))  # type: ignore[arg-type]
    finally:
        pdf.close()
    return report
