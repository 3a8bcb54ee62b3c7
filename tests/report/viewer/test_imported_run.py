"""Every link the viewer serves on a run made by ``rhetorica import diagnostics`` answers 200.

The imported file carries scores, not papers: the import stores one stand-in document per id, so
the paper pages the overview and cell pages link to resolve; a run imported before that (no
document rows) still shows an assessed id by its id. The crawl follows every same-origin
``href``/``src`` of every page it reaches, from ``/``, over a loopback viewer.
"""

from __future__ import annotations

import html
import json
import re
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from rhetorica.analysis.interop import import_diagnostics_run

from .conftest import serve

BASELINE = [{"id": "p1", "overall_score": 6, "soundness_score": 3}, {"id": "p2", "overall_score": 7, "soundness_score": 3},
            {"id": "p3", "overall_score": 5, "soundness_score": 2}]
PERTURBED = [{"id": "p1", "overall_score": 4, "soundness_score": 2}, {"id": "p2", "overall_score": 8, "soundness_score": 3},
             {"id": "p3", "overall_score": "garbage", "soundness_score": 2}]


def _imported(tmp: Path) -> Path:
    for name, rows in (("b.jsonl", BASELINE), ("p.jsonl", PERTURBED)):
        (tmp / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return import_diagnostics_run(tmp / "b.jsonl", tmp / "p.jsonl", tmp / "run").run_dir


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url) as response:  # noqa: S310 - the loopback viewer
            return response.status, response.headers.get("Content-Type", ""), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, "", error.read().decode("utf-8")


def crawl(base: str) -> dict[str, int]:
    """Path -> status of every same-origin page and file reachable from ``/``."""
    seen: dict[str, int] = {}
    todo = ["/"]
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        status, kind, body = _get(base.rstrip("/") + path)
        seen[path] = status
        if status != 200 or not kind.startswith("text/html"):
            continue
        for link in re.findall(r'(?:href|src)="([^"]+)"', body):
            parts = urlsplit(urljoin(path, html.unescape(link)))
            if not (parts.scheme or parts.netloc or link.startswith(("#", "data:"))):
                todo.append(parts.path + (f"?{parts.query}" if parts.query else ""))
        assert len(seen) < 500, "the crawl should end"
    return seen


def _paper_docs(seen: dict[str, int]) -> set[str]:
    return {parse_qs(urlsplit(p).query)["doc"][0] for p in seen if p.startswith("/paper?")}


def test_every_link_of_an_imported_run_is_200(tmp_path: Path) -> None:
    run = _imported(tmp_path)
    with serve(run) as url:
        seen = crawl(url)
    assert {p: s for p, s in seen.items() if s != 200} == {}
    assert _paper_docs(seen) == {"p1", "p2", "p3"}  # the overview and cell pages link every imported paper
    assert len([p for p in seen if p.startswith("/paper?")]) >= 3


def test_a_run_imported_without_documents_still_resolves(tmp_path: Path) -> None:
    run = _imported(tmp_path)
    with sqlite3.connect(run / "store.sqlite") as conn:  # as runs imported before documents were stored
        conn.execute("DELETE FROM documents")
    with serve(run) as url:
        seen = crawl(url)
        status, _, body = _get(url.rstrip("/") + "/paper?doc=p9")
        malformed = _get(url.rstrip("/") + "/paper?doc=p3&reviewer=external")  # its perturbed review failed
    assert {p: s for p, s in seen.items() if s != 200} == {}
    assert _paper_docs(seen) >= {"p1", "p2"}  # the cell pages link the papers with both scores
    assert malformed[0] == 200 and "p3" in malformed[2]
    assert status == 404 and "no document &#39;p9&#39; in this store" in body


@pytest.mark.parametrize("doc", ["p1", "p3"])
def test_imported_document_rows(tmp_path: Path, doc: str) -> None:
    run = _imported(tmp_path)
    with sqlite3.connect(run / "store.sqlite") as conn:
        rows = conn.execute("SELECT document_id, kind, title, document_json FROM documents ORDER BY 1").fetchall()
    assert [r[:3] for r in rows] == [("p1", "manuscript", "p1"), ("p2", "manuscript", "p2"), ("p3", "manuscript", "p3")]
    stored = json.loads(dict((r[0], r[3]) for r in rows)[doc])
    assert stored["sections"] == [] and stored["source"]["path"] == str(tmp_path / "b.jsonl")
    assert stored["source"]["parser"] == "ai-reviewer-diagnostics"
