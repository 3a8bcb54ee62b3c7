"""Microsoft CMT "Reviews For Paper" HTML pages (e.g. NIPS 2016 as authors received them).

Layout: per review a "Masked Reviewer ID:" row (``Assigned_Reviewer_N``) followed by a grid of
(question, answer) rows. A question's label is its text up to the first ``:`` or ``.``; answers of
the form ``"3-Poster level (...)"`` are scores (read by their leading number, the CMT scale); other
answers are text fields. The page's "Title" row gives the paper title.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.documents.reviews.model import blind_reviewer_ids, review_document

_SCORE = re.compile(r"^\d+\s*-\s*\S")
_REVIEWER_ID = "Masked Reviewer ID"


class _Rows(HTMLParser):
    """Collects the text of every table row as a list of cell texts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cells: list[str] | None = None
        self._text: list[str] | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag == "tr":
            self._cells = []
        elif tag in ("td", "th") and self._cells is not None:
            self._text = []
        elif tag == "br" and self._text is not None:
            self._text.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag in ("td", "th") and self._cells is not None and self._text is not None:
            self._cells.append(" ".join("".join(self._text).split()))
            self._text = None
        elif tag == "tr" and self._cells is not None:
            self.rows.append(self._cells)
            self._cells = None

    def handle_data(self, data: str) -> None:
        if self._text is not None and not self._skip:
            self._text.append(data)


def _label(question: str) -> str:
    return re.split(r"[:.?]", question, maxsplit=1)[0].strip()


def read_cmt_html(path: Path, paper_id: str) -> tuple[list[Document], list[str]]:
    """Review documents of ``paper_id`` from a CMT reviews page, and the problems met.

    Raises:
        DocumentReadError: unreadable, or no "Masked Reviewer ID" row in the page.
    """
    try:
        parser = _Rows()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    except OSError as exc:
        raise DocumentReadError(path, f"cannot read ({exc.strerror})") from exc
    reviews: list[tuple[str, dict[str, str], dict[str, float]]] = []
    problems: list[str] = []
    title = ""
    for cells in parser.rows:
        if len(cells) < 2:
            continue
        question, answer = cells[0], cells[1]
        label = _label(question)
        if label == _REVIEWER_ID:
            reviews.append((answer, {}, {}))
        elif label == "Title" and not reviews:
            title = answer
        elif reviews and label and label != "Question":
            _, fields, scores = reviews[-1]
            if _SCORE.match(answer):
                try:
                    score = parse_rating(answer)
                except RatingError as exc:
                    problems.append(f"{path} review {len(reviews)} {label}: {exc}")
                    continue
                if score is not None:
                    scores[label] = score
            elif answer:
                fields[label] = answer
    if not reviews:
        raise DocumentReadError(path, f"no '{_REVIEWER_ID}' row: not a CMT reviews page")
    docs = []
    for i, (_, fields, scores) in enumerate(reviews, start=1):
        confidence = next((v for k, v in scores.items() if k.lower().startswith("reviewer confidence")), None)
        criteria = {k: v for k, v in scores.items() if not k.lower().startswith("reviewer confidence")}
        docs.append(review_document(paper_id, i, fields, rating=None, confidence=confidence, scores=criteria,
                                    source=str(path), parser="cmt-html", parser_version="1",
                                    extra={"paper_title": title}))
    return blind_reviewer_ids(docs, [rid for rid, _, _ in reviews]), problems
