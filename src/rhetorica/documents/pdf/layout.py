"""From positioned lines to ordered sections: cleaning, reading order, headings, paragraphs.

The same pass runs on every page; its cost is linear in the number of lines (plus sorting); it runs
inside the timed PDF worker. Superscripts and subscripts arrive marked (``10^6``, ``x_1``) from the
extraction (:mod:`rhetorica.documents.pdf.backends`).

Steps (each removal is audited as a :class:`RemovedItem`, nothing is dropped silently):
1. margins: rotated text (diagonal watermarks, vertical side stamps); page numbers (a number line
   that is the first or last line of its page, in the top/bottom 11 % or where the other pages'
   numbers sit, not followed closely on its row by a heading's words); running headers/footers
   (text repeated on at least 30 % of pages, digits ignored, in the top/bottom 11 % or in a run of
   lines set apart from the text block within the outer 15 %), or set apart, smaller than the body
   font and at one height on 30 % of the pages whatever they say, or in the top margin of a page
   after the first above every page's text (:func:`_placed_headers`), with the rest of a header
   beside a page number or right under a header line; venue notes ("Published as a conference paper at
   ...", "Under review", "Preprint", "Proceedings of ...", arXiv stamps); line numbers (non-bold
   number lines outside the text block counting up the page: 3 or more on a page, 6 or more in
   the document); stamps (text centred at one place on 30 % of the pages or more, wherever on the
   page: a horizontal watermark; on one page, a line in twice the body font drawn over the text);
1b. layout elements (:mod:`rhetorica.documents.pdf.elements`): code listings and ruled tables
   become one element line each, the text of drawn figures is removed;
2. reading order: a page is two-column when at least 5 substantial lines (an element's rows
   counted) sit wholly in each half (2, in a document whose pages are mostly two-column, when
   they outnumber the lines crossing the middle: a short last page), or when its lines stand side
   by side in two columns however few (:func:`~rhetorica.documents.pdf.rows.side_by_side`);
   above the first column of prose on page 1 the title block is read row by row (a heading's
   first rows right above a column's first line and in its font go with the column); below, lines
   are read band by band (a band ends at a line crossing the middle, or at the rows of a table
   spanning both columns, read across): left column, right column, then the crossing line; lines
   under 55 % of the body font (figure labels) and pages dominated by short fragments (drawn
   figures) are removed, except the rows of a table set in tiny type;
3. title and title block: the largest font near the top of page 1, unless that font is the section
   headings' (:func:`_section_heading`: a paper set without a title block); the block after it ends at the
   first numbered/known heading, a run-in "Abstract." line, the first three prose lines or the
   first prose paragraph of 12 words or more (a headingless abstract of one or two lines); author
   footnotes and the publisher's permission block of page 1 and ACM's "ACM Reference Format"
   paragraph join it;
4. headings: numbered lines (``2``, ``2.1``, ``A.1``, ``IV.`` + title) that are bold, larger than
   the body font or in (small) capitals, IEEE's italic ``A.`` subsections; unnumbered known
   headings (Abstract, Introduction, References, ...) that are bold, larger or in capitals; other
   bold lines clearly larger than the body font, or short bold lines (bold italic ones set up to
   15 % smaller than the text a level below those at its size), unless they are a table's
   row or a run-in opening that the next line continues; a heading's next lines (same font, right
   below, under its first half or centred under it) join it, a line-end hyphen removed as in
   paragraphs. Level = depth of the numbering, else rank of the font size; an unnumbered heading
   then takes the level of the numbered ones in its font (:func:`_consistent_levels`). An
   abstract set without a heading (the first prose paragraph before the first section) gets one;
5. paragraphs: lines are joined until a vertical gap, a first-line indent, a caption start
   (``Figure 3:``, ``Table 2.``, ``TABLE II``), a keywords line or a footnote; a line-end hyphen is
   removed when it splits a word and kept when it belongs to a compound (see :func:`_joint` and
   :mod:`rhetorica.documents.pdf.hyphens`);
   table rows (lines cut into short cells by wide gaps) become one GFM table (header row, delimiter row),
   missing-figure placeholders (a figure drawn as its file name) are removed;
6. floats (:func:`place_floats`): a paragraph that a caption, table or footnote interrupts is
   joined again with the floats after it; a footnote (``[^1]: ...``) follows the paragraph that
   holds its mark.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from dataclasses import dataclass, field, replace

from rhetorica.documents.blinding import EMAIL
from rhetorica.documents.models import RemovedItem
from rhetorica.documents.pdf.elements import CAPTION, set_apart
from rhetorica.documents.pdf.gfm import fenced_code, gfm_table
from rhetorica.documents.pdf.hyphens import real_hyphen
from rhetorica.documents.pdf.lines import Line, PageLines
from rhetorica.documents.pdf.rows import merge_rows, table_cells, two_column

MARGIN = 0.11
HEADER_ZONE = 0.15  # running headers set apart from the text reach this far (a two-line header)
VENUE = re.compile(
    r"^(published as a (conference |workshop )?paper at|under review (as a (conference )?paper )?(at|for)|"
    r"preprint\b|accepted (at|to|as|for)|proceedings of|to appear in|in submission|"
    r"arxiv:\s*\d{4}\.\d{4,5}|workshop on\b|.*\bassociation for computational linguistics\b)",
    re.I,
)
PAGE_NUMBER = re.compile(r"^(page\s*)?(\d{1,4}|[ivxlc]{1,6})(\s*(of|/)\s*\d{1,4})?$", re.I)
NUMBERS_ONLY = re.compile(r"^\d{1,4}(\s+\d{1,4})*$")
NUMBERED_HEADING = re.compile(r"^((?:\d{1,2}|[A-H]|[IVX]{1,5}(?=\.))(?:\.\d{1,2}){0,3})\.?\s+([A-Z(\[].{1,100})$")
ROMAN = re.compile(r"^[IVX]{1,5}$")
RUN_IN_ABSTRACT = re.compile(r"^(abstract)\s*[.—–:-]\s*(\S.*)$", re.I)
ABSTRACT_HEADING = re.compile(r"^(Abstract|ABSTRACT)[.:]?$")
"""The abstract's heading, the word alone on its line in any font (a bitmap Type 3 font names no weight)."""
KNOWN_HEADINGS = re.compile(
    r"^(abstract|introduction|background|related work|related works|method|methods|methodology|"
    r"experiments?|results|discussion|conclusions?|conclusion and future work|limitations|"
    r"references|bibliography|acknowledge?ments?|appendix|appendices|data availability|"
    r"author contributions?( statement)?|competing interests|funding|ethics statement|"
    r"broader impact|reproducibility statement)$",
    re.I,
)


@dataclass
class Block:
    """A heading, a paragraph, a caption, a table (a GFM table, :func:`~rhetorica.documents.pdf.gfm.gfm_table`;
    ``rows``: its cells, row by row, when the block pass found its rows), a code listing (a fenced
    code block, :func:`~rhetorica.documents.pdf.gfm.fenced_code`) or a footnote (``[^1]: ...``) in
    reading order."""

    kind: str  # "heading" | "paragraph" | "caption" | "table" | "code" | "footnote"
    text: str
    level: int = 1
    page: int = 0
    number: str = ""
    style: tuple = ()  # a heading's font: (size in 0.5 pt steps, bold, italic, capitals)
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class Layout:
    """Result of the layout pass."""

    title: str
    front: list[Line]
    blocks: list[Block]
    removed: list[RemovedItem] = field(default_factory=list)
    body_size: float = 0.0
    two_column_pages: int = 0


def body_font_size(pages: list[PageLines]) -> float:
    """Most common font size (0.5 pt bins) of lines of at least four words, weighted by characters
    (all lines when none has four words), so thousands of one-word figure labels do not count."""
    counts: Counter[float] = Counter()
    fallback: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            if line.size > 0:
                fallback[round(line.size * 2) / 2] += len(line.text)
                if len(line.text.split()) >= 4:
                    counts[round(line.size * 2) / 2] += len(line.text)
    counts = counts or fallback
    return counts.most_common(1)[0][0] if counts else 10.0


FIGURE_TEXT_MIN = 30
SMALL_TEXT = 0.55  # lines below this share of the body font size are figure labels, not prose


def _small_prose(line: Line) -> bool:
    """Prose rather than labels: six words or more, most of them words of three letters or more,
    no wide gaps (labels of a plot merged into one row are joined by three spaces)."""
    tokens = line.text.split()
    words = [t for t in tokens if re.fullmatch(r"[A-Za-z][a-z]{2,}[.,;:]?", t)]
    return len(tokens) >= 6 and len(words) >= 0.6 * len(tokens) and "   " not in line.text


def drop_figure_text(lines: list[Line], page: int, removed: list[RemovedItem]) -> list[Line]:
    """Remove the labels of a drawn figure: when a page has at least 30 fragments of at most three
    words (20 characters) and they are over 40 % of its lines, those fragments go (one audit entry
    per page with their count and words)."""
    short = [ln for ln in lines if len(ln.text.split()) <= 3 and len(ln.text.strip()) <= 20
             and not NUMBERED_HEADING.match(ln.text.strip()) and not KNOWN_HEADINGS.match(ln.text.strip())]
    if len(short) < FIGURE_TEXT_MIN or len(short) <= 0.4 * len(lines):
        return lines
    gone = set(map(id, short))
    removed.append(RemovedItem(
        item="figure text", location=f"page {page + 1}",
        text=f"{len(short)} short labels: " + " ".join(ln.text.strip() for ln in short),
    ))
    return [ln for ln in lines if id(ln) not in gone]


def clean_margins(pages: list[PageLines], removed: list[RemovedItem]) -> list[PageLines]:
    """Remove page numbers, running headers/footers, venue notes and line-number gutters."""

    def key(line: Line) -> str:
        return re.sub(r"\d+", "#", line.text.strip().lower())

    def in_margin(line: Line, page: PageLines) -> bool:
        return line.bottom < page.height * MARGIN or line.top > page.height * (1 - MARGIN)

    apart = {id(ln) for page in pages for ln in _set_apart(page)}
    threshold = max(2, int(0.3 * len(pages)))
    stamps = _stamped(pages, threshold)
    body = body_font_size(pages)
    placed = _placed_headers(pages, apart, body, threshold)
    overprinted = {id(ln) for page in pages for ln in page.lines
                   if not ln.rotated and ln.size >= STAMP_SIZE * body and _over_text(ln, page.lines)}

    def in_header_zone(line: Line, page: PageLines) -> bool:
        return in_margin(line, page) or id(line) in apart

    repeats: Counter[str] = Counter()
    for page in pages:
        repeats.update({key(line) for line in page.lines if in_header_zone(line, page)})
    edges = {  # the page's text reaches from its first to its last upright line (a watermark reaches further)
        page.index: (min((x.top for x in page.lines if not x.rotated and id(x) not in overprinted), default=0.0),
                     max((x.bottom for x in page.lines if not x.rotated and id(x) not in overprinted), default=0.0))
        for page in pages
    }
    number_tops = [  # where page numbers sit: a heading's number ("1" of "1 Introduction" opening a page) is none
        ln.top for page in pages for ln in page.lines
        if PAGE_NUMBER.match(ln.text.strip())
        and (ln.top <= edges[page.index][0] + 2 or ln.bottom >= edges[page.index][1] - 2)
        and not _numbers_a_heading(ln, page)
    ]
    usual_top = statistics.median(number_tops) if number_tops else None
    gutters: dict[int, list[Line]] = {}
    cleaned: list[PageLines] = []
    for page in pages:
        long_lines = [ln for ln in page.lines if len(ln.text) >= 30 and not ln.rotated]
        left = min((ln.x0 for ln in long_lines), default=0.0)
        right = max((ln.x1 for ln in long_lines), default=page.width)
        kept: list[Line] = []
        gutter: list[Line] = []
        edge_top, edge_bottom = edges[page.index]
        venue = _venue_notes(page, edge_bottom, in_margin)
        for line in page.lines:
            text = line.text.strip()
            where = f"page {page.index + 1}"
            if line.rotated:
                removed.append(RemovedItem(item="rotated text (watermark or side stamp)", location=where, text=text))
            elif id(line) in venue:
                removed.append(RemovedItem(item="venue note", location=where, text=text))
            elif PAGE_NUMBER.match(text) and _page_number_place(line, page, edge_top, edge_bottom, usual_top) \
                    and not _numbers_a_heading(line, page):
                removed.append(RemovedItem(item="page number", location=where, text=text))
            elif (in_header_zone(line, page) and repeats[key(line)] >= threshold and len(pages) > 1
                  and re.search(r"[A-Za-z]{2}", text)) or id(line) in placed:
                removed.append(RemovedItem(item="running header", location=where, text=text))
            elif id(line) in stamps:
                removed.append(RemovedItem(item="watermark (text repeated at one place)", location=where, text=text))
            elif id(line) in overprinted:
                removed.append(RemovedItem(item="watermark (large text drawn over the text)", location=where,
                                           text=text))
            elif NUMBERS_ONLY.match(text) and not line.bold and (line.x1 <= left + 1 or line.x0 >= right - 1):
                gutter.append(line)
            else:
                kept.append(line)
        gutters[page.index] = gutter
        kept = _header_neighbours(page, kept, removed, in_header_zone)
        cleaned.append(PageLines(index=page.index, width=page.width, height=page.height, lines=kept,
                                 graphics=page.graphics))
    # line numbers: margin numbers that count up down the page (3 or more on the page, 6 or more in
    # the document), however little of the page the text fills
    total = sum(len(g) for g in gutters.values())
    for page in cleaned:
        gutter = gutters[page.index]
        values = [int(ln.text.split()[0]) for ln in sorted(gutter, key=lambda ln: ln.top)]
        rising = sum(b > a for a, b in pairwise(values))
        if len(gutter) >= 3 and total >= 6 and rising >= 0.8 * (len(values) - 1):
            removed.append(RemovedItem(
                item="line numbers", location=f"page {page.index + 1}",
                text=f"{len(gutter)} margin numbers ({gutter[0].text.strip()}-{gutter[-1].text.strip()})",
            ))
        elif gutter:
            page.lines = sorted(page.lines + gutter, key=lambda ln: (ln.top, ln.x0))
    return cleaned


HEADER_PLACE_SLACK = 1.0  # points: a running header sits at the same height on every page it is on


def _placed_headers(pages: list[PageLines], apart: set[int], body: float, threshold: int) -> set[int]:
    """Ids of running headers known by their place, whatever they say (acmart's short title on odd
    pages and authors on even ones): lines set apart from the text block at the top or bottom of
    their page (``apart``, :func:`_set_apart`), smaller than the body font (``body``, by 0.5 pt or
    more), with two letters or more, whose top (at the top of the page; bottom, at the bottom) lies
    within :data:`HEADER_PLACE_SLACK` of such a line's on at least ``threshold`` pages, or that lies
    in the top margin (:data:`MARGIN`) of a page after the first and above the text block of every
    page (above every line not set apart: a two-page paper's one header; a float at the top of a page starts where the text
    block does, and footnotes reach into the bottom margin)."""
    text_top = min((ln.top for page in pages for ln in page.lines if id(ln) not in apart and not ln.rotated),
                   default=0.0)
    found = [(page.index, ln, ln.top if ln.top < page.height / 2 else ln.bottom - page.height,
              page.index > 0 and ln.bottom < page.height * MARGIN and ln.bottom < text_top)
             for page in pages for ln in page.lines
             if id(ln) in apart and 0 < ln.size <= body - 0.5 and re.search(r"[A-Za-z]{2}", ln.text)]
    out: set[int] = set()
    for _, line, place, top_margin in found:
        if top_margin or len({p for p, _, other, _ in found if abs(other - place) <= HEADER_PLACE_SLACK}) >= threshold:
            out.add(id(line))
    return out


def _venue_notes(page: PageLines, bottom: float, in_margin: Callable[[Line, PageLines], bool]) -> set[int]:
    """Ids of ``page``'s venue notes (:data:`VENUE`): in the top or bottom margin, in the top 20 %
    of page 1 or on its last row (``bottom``: the page's lowest text, points; elsarticle's
    "Preprint submitted to ..." footer); a note in a margin or on that last row takes the other
    pieces of its row with it (the footer's date)."""
    out: set[int] = set()
    for line in page.lines:
        if line.rotated or not VENUE.match(line.text.strip()):
            continue
        footer = page.index == 0 and line.bottom >= bottom - 2
        if in_margin(line, page) or footer or (page.index == 0 and line.top < page.height * 0.2):
            out.add(id(line))
            if in_margin(line, page) or footer:
                out.update(id(ln) for ln in page.lines if not ln.rotated and abs(ln.top - line.top) < 2
                           and abs(ln.bottom - line.bottom) < 2)
    return out


STAMP_SLACK = 2.0  # points: a stamp sits at the same place on every page it is on
STAMP_SIZE = 2.0
"""A line whose font is this many times the body font or more and that is drawn over another line
(:func:`_over_text`) is a watermark, on a page of its own too: lines of text never overlap, and
no heading is set at twice the body font (a title at 17-24 pt over 9-10 pt text stands apart)."""


def _stamped(pages: list[PageLines], threshold: int) -> set[int]:
    """Ids of the lines stamped on the pages: the same text (digits ignored, two letters or more)
    centred at the same place (within :data:`STAMP_SLACK` across and down) on at least
    ``threshold`` pages, wherever on the page, and drawn over another line on one of them (its
    box overlapping that line's across and by a fifth of the lower height down; rows of text
    leave more space between them than that, and a watermark between two rows overlaps both by
    more): a horizontal
    watermark over the text ("For Peer Review Only"). Lines of text never overlap, and a
    document's repeated sentences at one place on two pages do not make a stamp."""
    places: dict[str, list[tuple[int, Line]]] = {}
    for page in pages:
        for line in page.lines:
            text = line.text.strip()
            if not line.rotated and re.search(r"[A-Za-z].*[A-Za-z]", text):
                places.setdefault(re.sub(r"\d+", "#", text.lower()), []).append((page.index, line))
    by_page = {page.index: page.lines for page in pages}
    out: set[int] = set()
    for found in places.values():
        if len({p for p, _ in found}) < threshold or not any(_over_text(line, by_page[p]) for p, line in found):
            continue
        for _, line in found:
            same = {p for p, other in found if abs(other.x0 + other.x1 - line.x0 - line.x1) <= 2 * STAMP_SLACK
                    and abs(other.top + other.bottom - line.top - line.bottom) <= 2 * STAMP_SLACK}
            if len(same) >= threshold:
                out.add(id(line))
    return out


def _over_text(line: Line, others: list[Line]) -> bool:
    """Whether ``line`` is drawn over another upright line (see :func:`_stamped`)."""
    return any(
        other is not line and not other.rotated and other.x0 < line.x1 and line.x0 < other.x1
        and min(line.bottom, other.bottom) - max(line.top, other.top)
        >= 0.2 * min(line.bottom - line.top, other.bottom - other.top)
        for other in others
    )


def _header_neighbours(page: PageLines, kept: list[Line], removed: list[RemovedItem],
                       in_zone: Callable[[Line, PageLines], bool]) -> list[Line]:
    """Remove the rest of a running header whose other part was recognised on this page: a line in
    the header zone, not bold, on the row of a removed page number or running header and no larger
    ("2   Jane Roe", a page number beside the authors' names), or right above or below a removed
    running header in the same font (a header's second line, as "Submission 17, anonymous preprint"
    under the venue)."""
    where = f"page {page.index + 1}"
    gone = [ln for ln in page.lines if ln not in kept and not ln.rotated and in_zone(ln, page)
            and any(r.location == where and r.text == ln.text.strip() and r.item in {"page number", "running header"}
                    for r in removed)]
    if not gone:
        return kept
    out: list[Line] = []
    for line in sorted(kept, key=lambda ln: ln.top if ln.top < page.height / 2 else -ln.bottom):
        height = max(line.bottom - line.top, 1.0)
        near = in_zone(line, page) and not line.bold and any(
            (abs((g.top + g.bottom) - (line.top + line.bottom)) / 2 < 0.5 * height and line.size <= g.size + 0.5)
            or (abs(g.size - line.size) < 0.5 and re.search(r"[A-Za-z]{2}", g.text)
                and min(abs(line.top - g.bottom), abs(g.top - line.bottom)) < 0.8 * height)
            for g in gone
        )
        if near:
            removed.append(RemovedItem(item="running header", location=where, text=line.text.strip()))
            gone.append(line)
        else:
            out.append(line)
    return sorted(out, key=lambda ln: (ln.top, ln.x0))


def _set_apart(page: PageLines) -> list[Line]:
    """The lines at the top and at the bottom of a page that stand apart from its text block: the
    run of lines from the page's edge, each within 0.8 x its height of the next, that ends in a gap
    of at least its font size and lies in the outer :data:`HEADER_ZONE` of the page."""
    lines = sorted((ln for ln in page.lines if not ln.rotated), key=lambda ln: ln.top)
    out: list[Line] = []
    for run in (lines, lines[::-1]):
        group: list[Line] = []
        for cur, nxt in pairwise(run):
            group.append(cur)
            gap = nxt.top - cur.bottom if run is lines else cur.top - nxt.bottom
            size = max(cur.size, 1.0)
            if gap >= size:
                edge = max(ln.bottom for ln in group) if run is lines else page.height - min(ln.top for ln in group)
                if edge < page.height * HEADER_ZONE:
                    out += group
                break
            if gap > 0.8 * max(cur.bottom - cur.top, 1.0):
                break
    return out


def _numbers_a_heading(line: Line, page: PageLines) -> bool:
    """Whether the number on ``line`` is followed closely on its row by other text: the number of
    a heading ("2" of "2 Related works"), not a page number."""
    height = max(line.bottom - line.top, 1.0)
    return any(
        other is not line and abs((other.top + other.bottom) - (line.top + line.bottom)) / 2 < 0.5 * height
        and 0 <= other.x0 - line.x1 < 3 * max(line.size, 1.0)
        for other in page.lines
    )


def _looks_like_heading(line: Line) -> bool:
    """A short line (up to 12 words, no prose) set as a heading: bold, in capitals (small caps read
    as capitals) or opening with a section number (``4.2``, ``IV.``)."""
    text = line.text.strip()
    letters = [c for c in text if c.isalpha()]
    return (len(text.split()) <= 12 and not _is_prose(line)
            and (line.bold or (len(letters) >= 3 and all(c.isupper() for c in letters))
                 or bool(re.match(r"(\d+(\.\d+)*|[IVXL]+)\.?\s+[A-Z]", text))))


def _page_number_place(line: Line, page: PageLines, top: float, bottom: float, usual: float | None) -> bool:
    """A number line is a page number when it is the first or last line of its page and either sits
    in the top/bottom margin or where the document's other page numbers sit (a half-empty page
    ends far above the margin), or sits in a margin where page numbers usually are."""
    extreme = line.top <= top + 2 or line.bottom >= bottom - 2
    margin = line.bottom < page.height * MARGIN or line.top > page.height * (1 - MARGIN)
    usual_place = usual is not None and abs(line.top - usual) < 10
    return (extreme and (margin or usual_place)) or (margin and usual_place)


def _column_heads(lines: list[Line], start: float, mid: float, slack: float) -> set[int]:
    """Ids of the lines above ``start`` (the first column prose of page 1) that open a column: in
    one half, within the column's lines below (across, 2 pt of slack), each right above the next line of its half (under 0.8 of its size apart) in the same
    font (size, weight), with the pieces on its row in that half (a heading's number): the first
    rows of a heading that the column below continues. Once, a line of another font may head the
    column: one that looks like a heading (:func:`_looks_like_heading`) right above it (under 1.5
    of the column line's size apart): a section heading that opens the column ("IV. RESULTS" beside
    "I. INTRODUCTION"), whose rows above continue in its own font."""
    out: set[int] = set()
    for side in (lambda ln: ln.x1 <= mid + slack, lambda ln: ln.x0 >= mid - slack):
        half = [ln for ln in lines if side(ln)]
        below = [ln for ln in half if ln.bottom > start]
        if not below:
            continue
        first = min(below, key=lambda ln: ln.top)
        left, right = min(ln.x0 for ln in below) - 2, max(ln.x1 for ln in below) + 2
        headed = False
        for line in sorted((ln for ln in half if ln.bottom <= start), key=lambda ln: -ln.bottom):
            if id(line) in out:
                continue
            if line.x0 < left or line.x1 > right:  # a centred line of the title block, past the column
                break
            gap = first.top - line.bottom
            if not (0 <= gap < 0.8 * max(line.size, 1.0)
                    and abs(line.size - first.size) < 0.3 and line.bold == first.bold):
                if headed or not (0 <= gap < 1.5 * max(first.size, 1.0) and _looks_like_heading(line)):
                    break
                headed = True
            out.update(id(ln) for ln in half if ln.bottom <= start and abs(ln.baseline - line.baseline) < 1.0)
            first = line
    return out


def reading_order(page: PageLines, two_col: bool) -> list[Line]:
    """Lines of a page in reading order, in two columns when ``two_col`` (:func:`two_column`)."""
    mid = page.width / 2
    slack = page.width * 0.02
    lines = sorted(page.lines, key=lambda ln: (ln.top, ln.x0))
    if not two_col:
        return merge_rows(lines)
    ordered: list[Line] = []
    if page.index == 0:
        # the title block above the first column of prose spans the page: read it row by row
        start = next((ln.top for ln in lines if (_is_prose(ln) or RUN_IN_ABSTRACT.match(ln.text.strip()))
                      and (ln.x1 <= mid + slack or ln.x0 >= mid - slack)), 0.0)
        heads = _column_heads(lines, start, mid, slack)
        ordered = merge_rows([ln for ln in lines if ln.bottom <= start and id(ln) not in heads])
        lines = [ln for ln in lines if ln.bottom > start or id(ln) in heads]
    band_left: list[Line] = []
    band_right: list[Line] = []
    wide = _full_width_rows(lines, mid, slack)
    group: list[Line] = []
    for line in lines:
        if id(line) in wide:  # a full-width table's row: read across the page
            group.append(line)
            continue
        if group:
            ordered += merge_rows(band_left) + merge_rows(band_right) + merge_rows(group)
            band_left, band_right, group = [], [], []
        in_left, in_right = line.x1 <= mid + slack, line.x0 >= mid - slack
        if in_left and in_right:  # a narrow line at the gutter ("5" of "5 Conclusion"): by its centre
            in_left = line.x0 + line.x1 < 2 * mid
        if in_left:
            band_left.append(line)
        elif in_right:
            band_right.append(line)
        else:
            ordered += merge_rows(band_left) + merge_rows(band_right)
            band_left, band_right = [], []
            ordered.append(line)
    ordered += merge_rows(band_left) + merge_rows(band_right) + merge_rows(group)
    return ordered


def _full_width_rows(lines: list[Line], mid: float, slack: float) -> set[int]:
    """Ids of the lines that make up rows of a table spanning both columns.

    A row (lines whose middles lie within half a line height of each other) qualifies when it has
    at least two pieces in each half of the page, most of them (60 %) short cells (under 25
    characters); a table is a run of three such rows or more, each within two line heights of the
    last and sharing at least three column edges with it (a piece's left or right edge or centre
    within 1.5 pt of one of the last row's): the columns of a table line up, the fragments of two
    loosely set lines of prose do not.
    """
    rows: list[list[Line]] = []
    for line in sorted((ln for ln in lines if not ln.element), key=lambda ln: (ln.top + ln.bottom) / 2):
        centre = (line.top + line.bottom) / 2
        if rows and abs(centre - (rows[-1][0].top + rows[-1][0].bottom) / 2) < 0.5 * max(line.bottom - line.top, 1.0):
            rows[-1].append(line)
        else:
            rows.append([line])
    spanning = [row for row in rows if sum(len(ln.text.strip()) < 25 for ln in row) >= 0.6 * len(row)
                and sum(ln.x1 <= mid + slack for ln in row) >= 2 and sum(ln.x0 >= mid - slack for ln in row) >= 2]
    out: set[int] = set()
    run: list[list[Line]] = []
    for row in [*spanning, []]:
        if run and row and min(ln.top for ln in row) - max(ln.bottom for ln in run[-1]) < 2 * max(row[0].bottom - row[0].top, 1.0) \
                and _shared_edges(run[-1], row) >= 3:
            run.append(row)
            continue
        if len(run) >= 3:
            out.update(id(ln) for r in run for ln in r)
        run = [row]
    return out


def _shared_edges(above: list[Line], below: list[Line]) -> int:
    """Pieces of ``below`` with a left or right edge or a centre within 1.5 pt of one of ``above``'s."""
    edges = [e for ln in above for e in (ln.x0, ln.x1, (ln.x0 + ln.x1) / 2)]
    return sum(any(abs(x - f) <= 1.5 for x in (ln.x0, ln.x1, (ln.x0 + ln.x1) / 2) for f in edges) for ln in below)


def heading_level(line: Line, body: float, ranked: list[float], *, strong_only: bool = False,
                  rows: int = 1) -> tuple[int, str] | None:
    """``(level, number)`` when ``line`` is a section heading, else ``None``.

    ``number`` is the heading's numbering (``"2.1"``, ``"A"``) or ``""``. With ``strong_only`` only
    numbered and known headings count (used to find where the title block ends).
    ``ranked`` holds the font sizes of larger bold headings, largest first. ``rows``: the printed
    lines ``line`` joins (a wrapped heading); a heading holds at most 110 characters and 14 words
    a row.
    """
    text = line.text.strip().replace("\u00ad", "")
    if line.element or len(text) > 110 * rows or len(text.split()) > 14 * rows or CAPTION.match(text) or "%" in text:
        return None
    visible = re.sub(r"\s", "", text)
    letters = re.sub(r"[^A-Za-z]", "", text)
    if len(letters) < 0.6 * len(visible):
        return None
    larger = line.size >= body + 0.8
    caps = (len(letters) >= 4 and letters.isupper()) or line.smallcaps
    m = NUMBERED_HEADING.match(text)
    roman = bool(m) and ROMAN.match(m.group(1)) is not None
    lettered = bool(m) and m.group(1)[:1].isalpha() and not roman
    # IEEE style: "II. Dataset" in small capitals, "A. Creation" in italics (a subsection)
    italic_sub = lettered and len(m.group(1)) == 1 and line.italic and text[1:2] == "." if m else False
    # elsarticle style: "2.1. Details" in italics
    italic_dotted = bool(m) and line.italic and "." in m.group(1) and m.group(1)[:1].isdigit()
    if m and (line.bold or larger or caps or italic_sub or italic_dotted) and not text.endswith((",", ";")) \
            and re.search(r"[a-zA-Z]{2}", m.group(2)) and not re.search(r"[a-z]\d", m.group(2)) \
            and not (strong_only and lettered):
        if m.group(2).rstrip().endswith(".") and not caps and len(m.group(2).split()) > 8:
            return None
        if roman or italic_sub:
            return (1 if roman else 2), m.group(1)
        return min(4, m.group(1).count(".") + 1), m.group(1)
    size_key = round(line.size * 2) / 2
    if ABSTRACT_HEADING.match(text):
        return 1, ""
    if KNOWN_HEADINGS.match(text.rstrip(".:")) and (line.bold or larger or caps):
        if larger and size_key in ranked:
            return min(3, ranked.index(size_key) + 1), ""
        return (1 if caps or larger or not ranked else min(3, len(ranked) + 1)), ""
    if strong_only or not line.bold or not (text[:1].isupper() or line.mono) or text.endswith((".", ",", ";", ":")):
        return None  # a heading opens with a capital, unless it is a name set in a monospaced font
    if larger:
        return (min(3, ranked.index(size_key) + 1) if size_key in ranked else 1), ""
    if line.size >= body - 0.3 and len(text.split()) <= 8:
        return min(3, len(ranked) + 1), ""
    if line.italic and line.size >= 0.85 * body and len(text.split()) <= 8:
        return min(4, len(ranked) + 2), ""  # bold italic, smaller than the text: one level below
    return None


def clean_heading(text: str) -> str:
    """Drop the numbering; turn ALL-CAPS (small-caps) titles into sentence case; one space between
    words (a justified heading's wide gaps are no cells)."""
    text = re.sub(r"\s+", " ", text.replace("\u00ad", "")).strip()
    m = NUMBERED_HEADING.match(text)
    title = m.group(2).strip() if m else text
    letters = re.sub(r"[^A-Za-z]", "", title)
    if len(letters) >= 4 and letters.isupper():
        first = re.search(r"[A-Za-z]", title).end()  # type: ignore[union-attr]
        title = title[:first] + title[first:].lower()
    return title.rstrip(".:").strip()


def analyse(pages: list[PageLines]) -> Layout:
    """Run the layout pass (steps 1-6 of the module docstring) over extracted pages."""
    removed: list[RemovedItem] = []
    body = body_font_size(pages)
    pages = [set_apart(page, body, removed) for page in clean_margins(pages, removed)]
    ordered: list[Line] = []
    two_col = 0
    strict = [two_column(page) for page in pages]
    mostly_two = sum(strict) > len(pages) / 2
    for page, is_two in zip(pages, strict):
        is_two = is_two or (mostly_two and two_column(page, short=True))
        lines = reading_order(page, is_two)
        lines = drop_figure_text(lines, page.index, removed)
        two_col += is_two
        tiny = [ln for ln in lines if 0 < ln.size < SMALL_TEXT * body and not ln.element]
        rows = [ln for ln in tiny if len(table_cells(ln)) >= 3 and re.search(r"[A-Za-z]{3}", ln.text)]
        if len(rows) >= 3:  # a table set in tiny type (\tiny): its rows are kept
            kept_rows = set(map(id, rows))
            tiny = [ln for ln in tiny if id(ln) not in kept_rows]
        small_ids = set(map(id, tiny))
        # sub- and superscripts are parts of lines; whole lines this small are labels of figures
        # and bits of formulas or, rarely, small print: audited apart, as only the latter is prose
        for item, group in (("figure labels", [ln for ln in tiny if not _small_prose(ln)]),
                            ("small text", [ln for ln in tiny if _small_prose(ln)])):
            if group:
                removed.append(RemovedItem(
                    item=item, location=f"page {page.index + 1}", text=" ".join(ln.text.strip() for ln in group),
                ))
        ordered.extend(ln for ln in lines if id(ln) not in small_ids)
    title, title_start, title_end = _title(ordered, body)
    front_end = _front_end(ordered, title_end, body)
    ranked = sorted(
        {round(ln.size * 2) / 2 for ln in ordered[front_end:] if ln.bold and ln.size >= body + 0.8}, reverse=True
    )
    blocks: list[Block] = []
    front, floats = _floats_apart(ordered[title_end:front_end])
    floats = _floats_apart(ordered[:title_start])[1] + floats  # a float set above the title
    body_lines = floats + ordered[front_end:]
    notes = author_notes(body_lines, front, body)
    if notes:
        front = front + notes
        taken = set(map(id, notes))
        body_lines = [ln for ln in body_lines if id(ln) not in taken]
    vocabulary = _vocabulary(body_lines)
    bottoms = {page.index: max((ln.bottom for ln in page.lines), default=page.height) for page in pages}
    zones = {page.index: footnote_zones(page, body) for page in pages}
    edges = {page.index: text_edges(page, body) for page in pages}
    parts: list[str] = []
    prev: Line | None = None
    heading_text, heading_line = "", None
    skip = -1
    for k, line in enumerate(body_lines):
        if k == skip:
            continue
        text = line.text.strip()
        if prev is None and blocks and blocks[-1].kind == "heading" and heading_line is not None \
                and _continues_heading(heading_line, line):
            head, sep = _joint(heading_text, text, vocabulary)
            heading_text, heading_line = head + sep + text, line
            blocks[-1].text = clean_heading(heading_text)
            continue
        run_in = RUN_IN_ABSTRACT.match(text) if not any(b.kind == "heading" for b in blocks) else None
        if run_in:  # "Abstract—We introduce ..." (IEEE), "Abstract. This paper ..." (LNCS)
            _close(blocks, parts)
            blocks.append(Block(kind="heading", text="Abstract", level=1, page=line.page))
            blocks.append(Block(kind="paragraph", text="", page=line.page))
            parts = [run_in.group(2)]
            prev, heading_line = line, None
            continue
        if line.element:  # a table or a code listing: one block of its own
            _close(blocks, parts)
            blocks.append(Block(kind=line.element, text=fenced_code(line.text) if line.element == "code" else line.text,
                                page=line.page))
            prev, heading_line = line, None
            continue
        if is_placeholder(line):
            removed.append(RemovedItem(item="figure placeholder", location=f"page {line.page + 1}", text=text))
            continue
        following = body_lines[k + 1] if k + 1 < len(body_lines) else None
        heading = heading_level(line, body, ranked)
        if heading is None and line.bold and following is not None and _continues_heading(line, following):
            # a heading whose first line alone does not read as one ("Cython bindings for BLAS,")
            head, sep = _joint(text, following.text.strip(), vocabulary)
            joined = replace(line, text=head + sep + following.text.strip(), bottom=following.bottom)
            heading = heading_level(joined, body, ranked, rows=2)
            if heading is not None:
                line, text, skip = joined, joined.text, k + 1
        cells = table_cells(line)
        strong = heading is not None and (heading[1] or KNOWN_HEADINGS.match(clean_heading(text)))
        if heading is not None and not strong and (cells or _runs_on(line, following, body, edges[line.page][1])):
            heading = None  # a table's header row, or a bold run-in opening that the next line continues
        if heading is not None:
            _close(blocks, parts)
            blocks.append(Block(kind="heading", text=clean_heading(text), level=heading[0], page=line.page,
                                number=heading[1], style=_style(line)))
            heading_text, heading_line = text, line
            prev = None
            continue
        heading_line = None
        if cells and (_table_row_follows(body_lines, k) or (blocks and bool(blocks[-1].rows) and prev is not None
                                                             and line.top - prev.bottom < 2 * body)):
            if not (blocks and blocks[-1].rows and parts == []):  # a ruled table (an element) is whole
                _close(blocks, parts)
                blocks.append(Block(kind="table", text="", page=line.page))
            blocks[-1].rows.append(cells)
            blocks[-1].text = gfm_table(blocks[-1].rows)
            prev = line
            continue
        note = _footnote_start(line, body, bottoms[line.page], zones[line.page])
        if note is None and blocks and blocks[-1].kind == "footnote" and prev is not None \
                and _footnote_continues(prev, line, body):
            note = ""
        caption = CAPTION.match(text) is not None or _labels_element(body_lines, k, body)
        small = 0 < line.size <= body - 1.0
        table_note = small and bool(blocks) and blocks[-1].kind == "table"  # notes under a table
        kind = "footnote" if note is not None else "caption" if caption or table_note else "paragraph"
        starts_new = (
            prev is None
            or not blocks
            or blocks[-1].kind in {"heading", "table", "code"}
            or (kind == "footnote" and note != "")
            or kind != "footnote" and blocks[-1].kind == "footnote"
            or caption
            or KEYWORDS.match(text) is not None
            or (blocks[-1].kind == "caption" and not small and 0 < prev.size <= body - 1.0)
            or _paragraph_break(prev, line, body, edges[line.page])
        )
        if note:
            text = f"[^{note}]: " + FOOTNOTE_MARK.sub("", DOTTED_MARK.sub("", text, count=1), count=1).lstrip()
        text = re.sub(r"(https?://)\s+", r"\1", re.sub(r" {2,}", " ", text))
        if starts_new:
            _close(blocks, parts)
            blocks.append(Block(kind=kind, text="", page=line.page))
            parts = [text]
        else:
            parts[-1], sep = _joint(parts[-1], text, vocabulary)
            parts += [sep, text]
        prev = line
    _close(blocks, parts)
    blocks = place_floats(blocks, vocabulary)
    blocks, reference = _reference_block(blocks)
    front += reference
    blocks = _abstract_heading(_consistent_levels(blocks))
    return Layout(title=title, front=front, blocks=blocks, removed=removed, body_size=body, two_column_pages=two_col)


ACM_REFERENCE = re.compile(r"^ACM Reference Format:", re.I)
KEYWORDS = re.compile(r"^(CCS Concepts|Additional Key Words and Phrases|Key\s?words|Index Terms)\b", re.I)
ABSTRACT_MIN_WORDS = 12
"""Words of the shortest prose paragraph that is an abstract (a one-line abstract: "We study ... a new bound.")."""


def _reference_block(blocks: list[Block]) -> tuple[list[Block], list[Line]]:
    """Take ACM's "ACM Reference Format: <authors>. <year>. <title> ..." paragraph before the first
    heading out of the text: it names the authors, so it belongs to the title block."""
    first_heading = next((k for k, b in enumerate(blocks) if b.kind == "heading"), len(blocks))
    for k, block in enumerate(blocks[:first_heading]):
        if block.kind == "paragraph" and ACM_REFERENCE.match(block.text):
            line = Line(page=block.page, x0=0.0, top=0.0, x1=0.0, bottom=0.0, text=block.text)
            return blocks[:k] + blocks[k + 1:], [line]
    return blocks, []


def _abstract_heading(blocks: list[Block]) -> list[Block]:
    """Give an abstract set without a heading its heading (ACM's journal layouts, many preprints).

    When no "Abstract" heading comes before the first numbered or known section heading, the first
    prose paragraph before that heading (at least 12 words, not a caption, not a keywords line) is
    the abstract: an "Abstract" heading is put before it. Keywords, CCS concepts and index terms
    after it stay in the abstract's section. Without such a paragraph nothing changes (the reader
    then warns that the document has no abstract)."""
    end = next((k for k, b in enumerate(blocks) if b.kind == "heading"
                and (b.number or KNOWN_HEADINGS.match(b.text))), len(blocks))
    if any(b.kind == "heading" and b.text.lower().startswith("abstract") for b in blocks[:end + 1]):
        return blocks
    for k, block in enumerate(blocks[:end]):
        if block.kind == "paragraph" and len(block.text.split()) >= ABSTRACT_MIN_WORDS \
                and not CAPTION.match(block.text) and not KEYWORDS.match(block.text):
            return [*blocks[:k], Block(kind="heading", text="Abstract", level=1, page=block.page), *blocks[k:]]
    return blocks


def _is_prose(line: Line) -> bool:
    """A line of running text: at least 6 words besides its email addresses, at least half of them
    starting in lower case (a line of addresses is not prose; a sentence that gives one still is)."""
    words = EMAIL.sub(" ", line.text).split()
    return len(words) >= 6 and sum(w[:1].islower() for w in words) >= 0.5 * len(words)


def _front_end(lines: list[Line], title_end: int, body: float) -> int:
    """End of the title block (authors, affiliations, emails) after the title.

    It ends at the first numbered or known heading, at a run-in "Abstract." line, at the first
    run of three prose lines on page 1 (the second and third may be lines of names set to the
    first's measure: same left and right edge, a justified paragraph), or at the first prose
    paragraph on page 1 (:func:`_prose_paragraph`: a short abstract of one or two lines, as
    ``acmsmall`` sets it without a heading), whichever comes first, so a class that sets the
    abstract without a heading never has its abstract (or more) taken for the author block.
    """
    for k in range(title_end, len(lines)):
        line = lines[k]
        if heading_level(line, body, [], strong_only=True) or RUN_IN_ABSTRACT.match(line.text.strip()):
            return k
        if line.page == 0 and _is_prose(line) and (len(lines) >= k + 3 and all(
                x.page == 0 and (_is_prose(x) or (abs(x.x0 - line.x0) < 2 and abs(x.x1 - line.x1) < 2))
                for x in lines[k + 1:k + 3]) or _prose_paragraph(lines, k)):
            return k
        if line.page > 0:
            return k
    return title_end


def _prose_paragraph(lines: list[Line], k: int) -> bool:
    """Whether ``lines[k]`` (a prose line, :func:`_is_prose`) opens a paragraph of prose: it and
    the lines right below it in its font (size within 0.5 pt, each under 0.8 of its size below the
    last, starting at its left edge or left of it) hold at least :data:`ABSTRACT_MIN_WORDS` words
    up to one of them that ends a sentence. Names, affiliations and addresses are no sentences of 12 words."""
    run = [lines[k]]
    for line in lines[k + 1:]:
        last = run[-1]
        if line.page != last.page or abs(line.size - last.size) >= 0.5 or line.x0 > lines[k].x0 + 2 \
                or not 0 <= line.top - last.bottom < 0.8 * max(last.size, 1.0):
            break
        run.append(line)
    words = 0
    for line in run:
        words += len(line.text.split())
        if words >= ABSTRACT_MIN_WORDS and re.search(r"[.!?][\"”’)]?$", line.text.strip()):
            return True
    return False


def _floats_apart(front: list[Line]) -> tuple[list[Line], list[Line]]:
    """``(title block, floats)``: a table or code element and a caption with its next lines (font
    size within 30 %, each right below the last, overlapping it across) that sit among the title
    block's lines (a float at the top of page 1's column, above the abstract) are the text's,
    never the title block's."""
    kept: list[Line] = []
    floats: list[Line] = []
    for line in front:
        last = floats[-1] if floats else None
        follows = last is not None and not last.element and abs(line.size - last.size) <= 0.3 * last.size \
            and 0 <= line.top - last.bottom < 0.6 * max(line.size, 1.0) and line.x0 < last.x1 and last.x0 < line.x1
        if line.element or CAPTION.match(line.text.strip()) or follows:
            floats.append(line)
        else:
            kept.append(line)
    return kept, floats


def _continues_heading(head: Line, line: Line) -> bool:
    """Whether ``line`` is the next line of a heading set on two lines: same page, font size,
    weight, slant and capitals, right below it, either starting in its first half, not left of it,
    or centred under it (a centred heading), not itself numbered, and short."""
    text = line.text.strip()
    starts_under = head.x0 - 2 <= line.x0 <= head.x0 + 0.5 * max(head.x1 - head.x0, 1.0)
    centred = abs((line.x0 + line.x1) - (head.x0 + head.x1)) / 2 < 2 * max(head.size, 1.0)
    return (
        line.page == head.page and abs(line.size - head.size) < 0.3 and _style(line)[1:] == _style(head)[1:]
        and 0 <= line.top - head.bottom < 0.8 * max(head.size, 1.0) and (starts_under or centred)
        and not NUMBERED_HEADING.match(text) and len(text.split()) <= 10 and not CAPTION.match(text)
    )


def _style(line: Line) -> tuple:
    letters = re.sub(r"[^A-Za-z]", "", line.text)
    return (round(line.size * 2) / 2, line.bold, line.italic, line.smallcaps or (len(letters) >= 4 and letters.isupper()))


def _consistent_levels(blocks: list[Block]) -> list[Block]:
    """Give an unnumbered heading the level of the numbered headings set in its font (size,
    weight, slant, capitals; the most common level among them), so "Abstract" or
    "Acknowledgments" set like the sections is at the sections' level. A known heading
    (:data:`KNOWN_HEADINGS`) in a font no numbered heading uses takes the level the other
    unnumbered headings in that font have, else level 1 (a front- or back-matter heading);
    other headings keep theirs."""
    heads = [b for b in blocks if b.kind == "heading" and b.style]
    votes: dict[tuple, Counter[int]] = {}
    for b in heads:
        if b.number:
            votes.setdefault(b.style, Counter())[b.level] += 1
    plain: dict[tuple, Counter[int]] = {}
    for b in heads:
        if not b.number and not KNOWN_HEADINGS.match(b.text) and b.style not in votes:
            plain.setdefault(b.style, Counter())[b.level] += 1
    for b in heads:
        if b.number:
            continue
        if b.style in votes:
            b.level = votes[b.style].most_common(1)[0][0]
        elif KNOWN_HEADINGS.match(b.text):
            b.level = plain[b.style].most_common(1)[0][0] if b.style in plain else 1
    return blocks


def _close(blocks: list[Block], parts: list[str]) -> None:
    """Give the open paragraph (caption, footnote) its text (joined once: linear in its length)."""
    if parts and blocks and blocks[-1].kind in TEXT_KINDS and not blocks[-1].text:
        blocks[-1].text = "".join(parts).replace("\u00ad", "")
    parts.clear()


TEXT_KINDS = {"paragraph", "caption", "footnote"}
FLOAT_KINDS = {"caption", "footnote", "table", "code"}
DOTTED_MARK = re.compile(r"^(\d{1,3})\.\s+(?=[A-Z(\[])")
FOOTNOTE_MARK = re.compile(r"^\^?(\{[^{}]{1,4}\}|[∗*†‡§¶⋆♯♮♭]+|\d{1,3})")
PLACEHOLDER = re.compile(r"^[\w.-]+(?:/[\w.-]+)*$")
IMAGE_FILE = re.compile(r"\.(pdf|png|jpe?g|eps|svg|pgf|tikz|gif|bmp|tiff?)$", re.I)


def is_placeholder(line: Line) -> bool:
    """A figure drawn as its file name (a missing figure, as LaTeX's draft mode and rhetorica's
    compile substitute draw it): one token, no URL, a file path with an image extension, or a
    typewriter path with a ``/`` or ``_``."""
    text = line.text.strip()
    if not PLACEHOLDER.fullmatch(text) or "://" in text or text.startswith("www."):
        return False
    return bool(IMAGE_FILE.search(text)) or (line.mono and ("/" in text or "_" in text))


def _table_row_follows(lines: list[Line], k: int) -> bool:
    """Whether the line after ``k`` (two lines on, past one line without gaps) is a table row
    close below: a table has at least two rows."""
    line = lines[k]
    for nxt in lines[k + 1:k + 3]:
        if nxt.page != line.page or nxt.top - line.bottom > 3 * max(line.size, 1.0):
            return False
        if table_cells(nxt):
            return True
        line = nxt
    return False


FLOAT_LABEL = re.compile(r"^(Figure|Fig\.|Table|Algorithm|Listing)\s*[A-Z]?\d+\s+[A-Z]")


def _labels_element(lines: list[Line], k: int, body: float) -> bool:
    """Whether ``lines[k]`` opens the caption of the element right below it: it starts with a
    float's label and number (``Algorithm 1 Placing floats``: the algorithm package's caption,
    no colon), and a code or table element follows on the page within 1.5 body sizes of the
    caption's last line (the caption's further lines: its size, each right below the last)."""
    if not FLOAT_LABEL.match(lines[k].text.strip()):
        return False
    last = lines[k]
    for nxt in lines[k + 1:k + 4]:
        if nxt.page != last.page:
            return False
        gap = nxt.top - last.bottom
        if nxt.element:
            return 0 <= gap < 1.5 * body
        if not (abs(nxt.size - last.size) < 0.3 and 0 <= gap < 0.8 * body):
            return False
        last = nxt
    return False


def _runs_on(line: Line, following: Line | None, body: float, rights: list[float]) -> bool:
    """Whether ``following`` continues ``line``'s sentence at the normal line spacing (a bold
    run-in opening set on a line of its own is no heading): same page, right below, starts in
    lower case, and ``line`` runs to a column's right edge (``rights``, :func:`text_edges`; a
    sentence breaks its line only there) or no edge is known."""
    if following is None or following.page != line.page:
        return False
    if rights and not any(abs(line.x1 - x) <= 2 for x in rights):
        return False
    gap = following.top - line.bottom
    return 0 <= gap < 0.5 * body and following.text.strip()[:1].islower()


def footnote_zones(page: PageLines, body: float) -> list[tuple[float, float, float]]:
    """``(x0, x1, top)`` of each footnote area of ``page``: below a footnote rule (LaTeX's
    ``\\footnoterule``: a horizontal rule in the lower half of the page, starting at the left edge
    of a column and 25-50 % as wide as the widest line starting there), where every line starting
    under the rule is smaller than the body font (``body``, points)."""
    out = []
    for rule in page.graphics:
        if rule.kind != "rule" or rule.top < 0.5 * page.height:
            continue
        column = max((ln.x1 - ln.x0 for ln in page.lines if abs(ln.x0 - rule.x0) < 3), default=0.0)
        if not 0.25 * column <= rule.x1 - rule.x0 <= 0.5 * column:
            continue
        below = [ln for ln in page.lines if ln.top >= rule.bottom - 1 and rule.x0 - 2 <= ln.x0 < rule.x1]
        if below and all(0 < ln.size <= body - 0.5 for ln in below):
            out.append((rule.x0, rule.x1, rule.top))
    return out


def _footnote_start(line: Line, body: float, page_bottom: float, zones: list[tuple[float, float, float]]) -> str | None:
    """The mark (``"1"``, ``"∗"``) of a footnote that starts on ``line``: smaller than the body
    font, in the lower half of its page, opening with a note mark; in a footnote area
    (:func:`footnote_zones`) a number with a period (``2. We count``, JMLR's notes) is one too;
    else ``None``."""
    if not (0 < line.size <= body - 0.5 and line.top > 0.5 * page_bottom):
        return None
    dotted = DOTTED_MARK.match(line.text.strip())
    if dotted and any(x0 - 2 <= line.x0 < x1 and line.top > top for x0, x1, top in zones):
        return dotted.group(1)
    m = FOOTNOTE_MARK.match(line.text.strip())
    if not m or not re.match(r"\s*[A-Za-z(\[]", line.text.strip()[m.end():]):
        return None
    return m.group(1).strip("{}")


def _footnote_continues(prev: Line, line: Line, body: float) -> bool:
    """Whether ``line`` is the next line of the footnote on ``prev``: small, right below it."""
    return (line.page == prev.page and 0 < line.size <= body - 0.5 and abs(line.size - prev.size) < 0.5
            and 0 <= line.top - prev.bottom < 0.8 * body)


def place_floats(blocks: list[Block], vocabulary: Vocabulary) -> list[Block]:
    """Put footnotes, captions and tables apart from the running text.

    A paragraph that a float interrupts (it does not end a sentence, and the paragraph after the
    floats goes on in lower case or after a comma or hyphen) is joined again, the floats after it.
    A footnote then moves to the end of the paragraph that holds its mark (``^1``), else stays
    after the paragraph it interrupted.
    """
    out: list[Block] = []
    k = 0
    while k < len(blocks):
        block = blocks[k]
        j = k + 1
        while j < len(blocks) and blocks[j].kind in FLOAT_KINDS:
            j += 1
        if block.kind == "paragraph" and j > k + 1 and j < len(blocks) and blocks[j].kind == "paragraph" \
                and _interrupted(block.text, blocks[j].text):
            head, sep = _joint(block.text, blocks[j].text, vocabulary)
            merged = Block(kind="paragraph", text=head + sep + blocks[j].text, page=block.page)
            blocks = [*blocks[:k], merged, *blocks[k + 1:j], *blocks[j + 1:]]
            continue  # the merged paragraph may be interrupted again further on
        out.append(block)
        k += 1
    return _footnotes_after_their_paragraph(out)


ABBREVIATION_END = re.compile(r"(?:\be\.g|\bi\.e|\bet al|\bcf|\bvs|\bresp|\bFigs?|\bEqs?|\bSecs?|\bapprox|\bno)\.$", re.I)


def _interrupted(before: str, after: str) -> bool:
    """Whether the paragraph ``before`` stops inside a sentence that ``after`` goes on with."""
    end = re.sub(r"\^(\{[^{}]*\}|\S)$", "", before.rstrip())  # a footnote mark after the last word
    if not end or (re.search(r"[.!?:]$|[.!?][\"”’)]$", end) and not ABBREVIATION_END.search(end)):
        return False
    start = after.lstrip()[:1]
    return start.islower() or end.endswith((",", "-", "\u00ad", "(")) or start.isdigit() or start in "(["


def _footnotes_after_their_paragraph(blocks: list[Block]) -> list[Block]:
    out: list[Block] = []
    pending: list[tuple[int, Block]] = []  # (index in out to insert after, footnote)
    for block in blocks:
        if block.kind != "footnote":
            out.append(block)
            continue
        m = re.match(r"\[\^([^\]]+)\]:", block.text)
        mark = m.group(1) if m else ""
        target = None
        for back in range(len(out) - 1, max(-1, len(out) - 12), -1):
            if out[back].page < block.page - 1:
                break
            if out[back].kind == "paragraph" and mark and re.search(
                    r"\^(\{" + re.escape(mark) + r"\}|" + re.escape(mark) + r"(?!\d))", out[back].text):
                target = back
                break
        if target is None:
            out.append(block)
        else:
            pending.append((target, block))
    for target, note in sorted(pending, key=lambda x: -x[0]):
        at = target + 1
        while at < len(out) and out[at].kind == "footnote":
            at += 1
        out.insert(at, note)
    return out


_TOKEN = re.compile(r"[A-Za-z][A-Za-z-]*[A-Za-z]|[A-Za-z]")


@dataclass(frozen=True)
class Vocabulary:
    """A document's lower-case words, hyphenated compounds included, in its running text (no
    table's or listing's text): ``words`` as written anywhere there (the two pieces of a word
    hyphenated at a line end left out: the line's last word and the next line's first; the parts
    of a compound written with a hyphen in; ``in`` looks here), ``inner`` as written inside a
    line, neither its first nor its last word (whole for sure: no line break cut them)."""

    words: frozenset[str]
    inner: frozenset[str]

    def __contains__(self, word: object) -> bool:
        return word in self.words


def _vocabulary(lines: list[Line]) -> Vocabulary:
    """The :class:`Vocabulary` of ``lines``."""
    words: set[str] = set()
    inner: set[str] = set()
    broken = False  # the line before (in reading order) ends in a hyphen
    for line in lines:
        if line.element:  # a table's cells cut words at their own line ends; code is no prose
            continue
        text = line.text.rstrip()
        tokens = [t.lower() for t in _TOKEN.findall(text)]
        inner.update(tokens[1:-1])
        if broken and text[:1].isalpha():
            tokens = tokens[1:]
        broken = text.endswith(("-", "\u00ad"))
        if tokens and broken:
            tokens = tokens[:-1]
        words.update(tokens)
        words.update(part for t in tokens if "-" in t for part in t.split("-") if part)  # "token-level": "level"
    return Vocabulary(frozenset(words), frozenset(inner))


def _joint(prev: str, nxt: str, vocabulary: Vocabulary) -> tuple[str, str]:
    """``(prev, separator)`` for joining two lines of a paragraph.

    A line-end hyphen (soft, or ``-`` after two letters before a lower-case letter) is dropped when
    the two pieces make a word, unless the hyphenated form is the word's own
    (:func:`rhetorica.documents.pdf.hyphens.real_hyphen`: a piece is already a compound, the
    document writes the compound with a hyphen elsewhere, or both pieces are words of the document
    and the joined form is neither the document's nor an English word written solid). Two pieces of letters with no hyphen between are one word when the document
    writes them joined inside a line and never writes the second alone there (a break whose
    hyphen the PDF does not hold as text: ``sum`` + ``maries``).
    """
    if prev.endswith("\u00ad") or (re.search(r"[A-Za-z]{2}-$", prev[-4:]) and nxt[:1].islower()):
        stem = prev[:-1]
        left = re.search(r"[A-Za-z][A-Za-z-]*$", stem)
        right = re.match(r"[A-Za-z][A-Za-z-]*[A-Za-z]|[A-Za-z]", nxt)
        if left and right and real_hyphen(left.group(0).lower(), right.group(0).lower(), vocabulary):
            return stem + "-", ""
        return stem, ""
    if re.search(r"(https?://|www\.)\S*$", prev[-300:]) and (
        prev.endswith(("/", "-", "_")) or (prev.endswith(".") and nxt[:1].islower())
    ):
        return prev, ""  # a URL broken at the line end
    left = re.search(r"(?<![A-Za-z-])[A-Za-z]{2,}$", prev)
    right = re.match(r"[a-z]{2,}(?![A-Za-z-])", nxt)
    if left and right and (left.group(0) + right.group(0)).lower() in vocabulary.inner \
            and right.group(0) not in vocabulary.inner:
        return prev, ""
    return prev, " "


AUTHOR_NOTE = re.compile(
    r"work (was )?(done|conducted|performed)|internship|equal(ly)? contribut|contributed equally|"
    r"corresponding author|visiting|conducted (while|when)|homepage|profile|e-?mail|@|"
    r"currently (at|with)|now at|affiliat|orcid",
    re.I,
)
NOTE_MARK = re.compile(r"^\^?\{?([∗*†‡§¶⋆♯♮♭]+|\d{1,2}(?=\}?\s*[A-Z]))")
PERMISSION = re.compile(
    r"permission to make digital|copyright|©|\bISBN\b|doi\.org/10\.|^\d{4}\. [\dX]{4}-[\dX]{4}/|"
    r"publication rights licensed|author[’']?s[’']? address(es)?:",
    re.I,
)


def author_notes(lines: list[Line], front: list[Line], body: float) -> list[Line]:
    """Footnote lines that belong to the title block.

    A footnote is a run of lines in the lower 40 % of a page, smaller than the body font, that
    starts with a note mark (``∗ † ‡`` ... or a number). On page 1 it is an author note when its
    mark is one of the marks written in the title block or its text reads like one (work done at,
    internship, equal contribution, corresponding author, homepage, email); on a later page (a
    class that sets the title block's notes further on) when both hold. A small line on page 1
    that reads like one is an author note without a mark too (IEEE's ``\\thanks``), and so are
    the lines of a publisher's permission block (copyright, ISBN, the paper's DOI, ACM's
    "Author's address") with the small lines right above such a line (the block's venue line).
    """
    heights: dict[int, float] = {}
    for line in lines:
        heights[line.page] = max(heights.get(line.page, 0.0), line.bottom)
    marks = {m for ln in front for m in re.findall(r"[∗*†‡§¶⋆♯♮♭]", ln.text)}
    notes: list[Line] = []
    taken: set[int] = set()
    current: list[Line] = []
    for k, line in enumerate(lines):  # in reading order: a column's footnotes follow its text
        small = 0 < line.size <= body - 0.5 and line.top > 0.6 * heights[line.page]
        if not small:
            current = []
            continue
        mark = NOTE_MARK.match(line.text.strip()) or DOTTED_MARK.match(line.text.strip())
        symbol = mark.group(1) if mark else ""
        marked = bool(symbol[:1]) and symbol[:1] in marks
        author_like = AUTHOR_NOTE.search(line.text) or PERMISSION.search(line.text)
        if line.page == 0 and (marked or author_like) or line.page > 0 and marked and AUTHOR_NOTE.search(line.text):
            notes.append(line)
            taken.add(id(line))
            current = [line]
            if line.page == 0 and not mark and PERMISSION.search(line.text):
                above = k - 1  # the permission block's lines above (its venue line)
                while above >= 0 and id(lines[above]) not in taken and lines[above].page == 0 \
                        and 0 < lines[above].size <= body - 0.5 and not NOTE_MARK.match(lines[above].text.strip()) \
                        and 0 <= lines[above + 1].top - lines[above].bottom < 0.8 * body:
                    notes.append(lines[above])
                    taken.add(id(lines[above]))
                    above -= 1
        elif mark or (line.page == 0 and author_like):
            current = []
        elif current and current[-1] in notes and line.page == current[-1].page \
                and line.top - current[-1].bottom < 0.8 * body:
            notes.append(line)
            taken.add(id(line))
            current.append(line)
    return [ln for ln in lines if id(ln) in taken]


def text_edges(page: PageLines, body: float) -> tuple[list[float], list[float]]:
    """``(left, right)`` edges of ``page``'s text columns (points): an edge (to 1 pt) where at
    least three lines of 30 characters or more start (end); a left edge up to 4 body sizes right
    of one where more of them start is no column's (the paragraphs' indented first lines)."""
    long = [ln for ln in page.lines if len(ln.text) >= 30 and not ln.element and not ln.rotated]
    starts, ends = Counter(round(ln.x0) for ln in long), Counter(round(ln.x1) for ln in long)
    lefts = sorted(float(x) for x, n in starts.items() if n >= 3
                   and not any(y < x <= y + 4 * body and m > n for y, m in starts.items()))
    return lefts, sorted(float(x) for x, n in ends.items() if n >= 3)


def _paragraph_break(prev: Line, line: Line, body: float, edges: tuple[list[float], list[float]]) -> bool:
    """Whether ``line`` starts a paragraph after ``prev``: a new page or column after a sentence's
    end, a vertical gap over 0.7 body sizes, a first-line indent after a sentence's end, or, after
    a display line (``prev`` starting 4 body sizes right of ``line``: an equation), a full line
    (ending at a column's right edge) indented from the column's left edge (``edges``:
    :func:`text_edges`); a paragraph going on after an equation is not indented."""
    column_jump = abs(line.x0 - prev.x0) > 0.3 * max(prev.x1 - prev.x0, 1) and line.top < prev.top
    if line.page != prev.page or column_jump:
        # new page or column: the paragraph continues unless the last line ended a sentence
        return prev.text.rstrip().endswith((".", ":", "?", "!"))
    gap = line.top - prev.bottom
    if gap > 0.7 * body:
        return True
    lefts, rights = edges
    if prev.x0 > line.x0 + 4 * body and any(abs(line.x1 - x) <= 2 for x in rights):
        left = max((x for x in lefts if x <= line.x0 + 1), default=None)
        return left is not None and 0.8 * body < line.x0 - left < 4 * body
    indent = line.x0 - prev.x0
    return 0.8 * body < indent < 4 * body and prev.text.rstrip().endswith((".", ":", "?", "!"))


def _title(lines: list[Line], body: float) -> tuple[str, int, int]:
    """Title = the largest-font lines near the top of the first page; returns (title, start index,
    end index), both indices 0 when there is no title or it starts after the 20th line."""
    first = [(k, ln) for k, ln in enumerate(lines[:80]) if ln.page == 0]
    if not first:
        return "", 0, 0
    biggest = max(ln.size for _, ln in first)
    if biggest < body * 1.2:
        return "", 0, 0
    picked = [(k, ln) for k, ln in first if abs(ln.size - biggest) < 0.6]
    start = picked[0][0]
    run = [picked[0]]
    for k, ln in picked[1:]:
        if k == run[-1][0] + 1:
            run.append((k, ln))
        else:
            break
    text = re.sub(r"\s+", " ", " ".join(ln.text.strip() for _, ln in run).replace("\u00ad", ""))
    if _section_heading([ln for _, ln in run], text, lines):
        return "", 0, 0
    return text, *((start, run[-1][0] + 1) if start < 20 else (0, 0))


SECTION_NUMBER = re.compile(r"(\d+(?:\.\d+)*|[IVX]+(?=\.))\.?\s+\S")
"""A heading's section number (``2``, ``3.1``, ``4.``, ``IV.``) opening a line."""


def _section_heading(run: list[Line], text: str, lines: list[Line]) -> bool:
    """Whether the largest-font ``run`` of lines (its text ``text``) is a section heading, not a
    title (a paper set without a title block). A title's font is its own; a section heading's is
    shared by the other section headings: another line of the document in its font (size within
    0.6 pt, same weight) opens with a different section number when ``text`` opens with one, or
    at least two other runs of lines in its font follow when it is unnumbered. A section number
    followed by a section's name (``1 Introduction``, :data:`KNOWN_HEADINGS`) is a heading alone."""
    first = run[0]
    same = [ln for ln in lines if all(ln is not r for r in run)
            and abs(ln.size - first.size) < 0.6 and ln.bold == first.bold]
    own = SECTION_NUMBER.match(text)
    if own and KNOWN_HEADINGS.match(text[own.end() - 1:].strip()):  # "1 Introduction": a section's own name
        return True
    if own:
        return any((other := SECTION_NUMBER.match(ln.text.strip())) and other.group(1) != own.group(1) for ln in same)
    index = {id(ln): k for k, ln in enumerate(lines)}
    places = {index[id(ln)] for ln in same}
    return sum(k - 1 not in places for k in places) >= 2
