"""The viewer's overview shows the study flow (as the report does) and counts reviews of papers apart."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

from ..judge_runs import run_judge_study
from ..runs import make_run
from .conftest import serve


def _page(url: str) -> str:
    with urllib.request.urlopen(url) as response:  # noqa: S310 - the loopback viewer
        return response.read().decode("utf-8")


def _cells(html: str, table: str) -> list[list[str]]:
    body = re.search(rf'<table id="{table}">.*?<tbody>(.*?)</tbody>', html, re.S)
    assert body, table
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)]


def test_judge_study_overview_flow_and_review_counts(tmp_path: Path) -> None:
    with serve(run_judge_study(tmp_path)) as url:
        html = _page(url)
    assert "3 review(s) of 2 paper(s)" in html
    rows = _cells(html, "flow-units")
    review = [r for r in rows if r[0] == "review"]
    # 2 judge configurations x 3 arms, each 3 reviews planned and analysed
    assert len(review) == 6 and all(r[4:] == ["3", "0", "0", "3", "0", "3"] for r in review)
    assert len([r for r in rows if r[0] == "metric"]) == 2 * 16
    assert 'id="no-exclusions"' in html


def test_a_failed_review_is_an_exclusion_with_its_reason(tmp_path: Path) -> None:
    records = [("R", "p1", "original", 5), ("R", "p1", "tone:+", None), ("R", "p2", "original", 4),
               ("R", "p2", "tone:+", 6)]
    run = make_run(tmp_path / "run", records, status={1: "refused"}, titles={"p1": "<b>x</b>"})
    with serve(run) as url:
        html = _page(url)
    assert "2 document(s)" in html
    out = _cells(html, "flow-exclusions")
    assert ["review", "tone:+", "R", "", "failed", "review refused", "1"] in out
