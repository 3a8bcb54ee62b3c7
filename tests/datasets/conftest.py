"""A recorded OpenReview venue + arXiv records built from the real shared papers and PDFs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.datasets.recorded_api import VENUE, RecordedApi, serve, submission, tarball_of, unsafe_tarball
from tests.documents.pdf_factory import write_pdf

NALU_TITLE = "Neural Arithmetic Units"
SCIPY_TITLE = "SciPy 1.0---Fundamental Algorithms for Scientific Computing in Python"
RATING_TEXT = {1: "strong reject", 3: "reject, not good enough", 4: "below", 5: "marginally below the acceptance threshold",
               6: "marginally above the acceptance threshold", 7: "above", 8: "accept, good paper",
               10: "strong accept, should be highlighted at the conference"}

# id -> ratings; means and bins worked out by hand (bins [1,3) [3,4) [4,5) [5,6) [6,7) [7,8.5]):
RATINGS: dict[str, list[int]] = {
    "P01": [1, 3], "P02": [2, 3], "P03": [1, 1],                  # [1,3): 2.0, 2.5, 1.0
    "P04": [3, 3], "P05": [3, 4], "P06": [3, 4, 4], "P07": [3],   # [3,4): 3.0, 3.5, 3.667, 3.0
    "P08": [4, 5], "P09": [4],                                     # [4,5): 4.5, 4.0
    "P10": [5, 6], "P11": [5], "P12": [6, 5], "P13": [5, 6, 6], "P14": [5, 5],  # [5,6)
    "P15": [6], "P16": [6, 6], "P17": [8, 5],                      # [6,7): 6.0, 6.0, 6.5
    "P18": [10, 7], "P19": [8],                                    # [7,8.5]: 8.5 (closed top), 8.0
    "P20": [10, 10],                                               # 10.0: outside every bin
    "P21": [],                                                     # no review
}
EXPECTED_PER_BIN = {"[1,3)": 3, "[3,4)": 3, "[4,5)": 2, "[5,6)": 3, "[6,7)": 3, "[7,8.5]": 2}
WITHDRAWN = {"W01": [5, 6], "W02": [1], "W03": [8]}
DESK_REJECTED = {"D01": [3], "D02": [6]}


def _rating(value: int) -> str:
    return f"{value}: {RATING_TEXT.get(value, 'fair')}"


def build_api(shared: Path, tmp: Path) -> RecordedApi:
    api = RecordedApi()
    notes = []
    titles = {"P19": NALU_TITLE, "P08": SCIPY_TITLE}
    authors = {"P19": ["Andreas Madsen", "Alexander Rosenberg Johansen"]}
    for number, (pid, ratings) in enumerate({**RATINGS, **WITHDRAWN, **DESK_REJECTED}.items(), start=1):
        title = titles.get(pid, f"Study of topic {pid.lower()} in graphs")
        notes.append(submission(pid, number, title, [_rating(r) for r in ratings], authors=authors.get(pid)))
        pdf = tmp / f"{pid}.pdf"
        write_pdf(pdf, [[(72, 700, 16, True, title), (72, 660, 10, False, f"Abstract. We study {pid} carefully.")]])
        api.pdfs[pid] = pdf.read_bytes()
    notes.append(submission("P22", 99, "Unparseable ratings", ["excellent paper"]))
    api.pdfs["P22"] = api.pdfs["P01"]
    api.notes[f"{VENUE}/-/Submission"] = notes
    api.notes[f"{VENUE}/-/Withdrawn_Submission"] = [n for n in notes if str(n["id"]) in WITHDRAWN]
    api.notes[f"{VENUE}/-/Desk_Rejected_Submission"] = [n for n in notes if str(n["id"]) in DESK_REJECTED]
    api.pdfs["P19"] = (shared / "pdfs" / "stable-nalu_iclr2020_main.pdf").read_bytes()
    api.pdfs["P08"] = (shared / "pdfs" / "scipy-1.0_paper.pdf").read_bytes()
    api.feeds["arithmetic"] = [
        {"short_id": "2001.05016v3", "title": NALU_TITLE, "authors": ["Andreas Madsen", "Alexander Rosenberg Johansen"]},
        {"short_id": "1808.00508v1", "title": "Neural Arithmetic Logic Units for graphs", "authors": ["A. Trask"]},
    ]
    api.sources["2001.05016v1"] = tarball_of(shared / "papers" / "gcrn_iclr2017")
    api.sources["2001.05016v2"] = tarball_of(shared / "papers" / "stable-nalu_iclr2020")
    api.sources["2001.05016v3"] = unsafe_tarball()
    return api


@pytest.fixture
def recorded(shared_data: Path, tmp_path: Path) -> Iterator[tuple[RecordedApi, str]]:
    api = build_api(shared_data, tmp_path)
    with serve(api) as base:
        yield api, base
