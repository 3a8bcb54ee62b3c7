"""Viewer pages answer unknown parameter values with 404 naming the parameter and the value
(escaped), out-of-range integers with 400; known values still show their page."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from rhetorica.report.viewer.pages import paper
from rhetorica.store.db import Store

from ..runs import make_run
from .conftest import serve

RECORDS = [("rev-a", "p1", "original", 5), ("rev-a", "p1", "tone:+", 7),
           ("rev-a", "p2", "original", 4), ("rev-a", "p2", "tone:+", 6)]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    run = make_run(tmp_path_factory.mktemp("pages") / "run", RECORDS, replicates={2: 0, 3: 0})
    with serve(run) as url:
        yield url


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url) as response:  # noqa: S310 - the loopback viewer
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


@pytest.mark.parametrize(("query", "message"), [
    ("paper?doc=p1&variant=../../etc/passwd",
     "variant &#39;../../etc/passwd&#39; is not a version of document &#39;p1&#39;"),
    ("paper?doc=p1&variant=%3Cb%3Ex%3C/b%3E", "variant &#39;&lt;b&gt;x&lt;/b&gt;&#39; is not a version"),
    ("paper?doc=p1&rep=3", "rep 3: reviewer &#39;rev-a&#39; has no replicate 3 of document &#39;p1&#39;"),
    ("?metric=nonexistent", "metric &#39;nonexistent&#39; is not in this store (known: &#39;overall&#39;)"),
    ("cell?reviewer=x&condition=y", "reviewer &#39;x&#39; is not in this store (known: &#39;rev-a&#39;)"),
    ("cell?condition=y", "condition &#39;y&#39; is not in this store (known: &#39;tone:+&#39;)"),
    ("?rewriter=z", "rewriter &#39;z&#39; is not in this store (known: &#39;rw&#39;)"),
])
def test_unknown_values_are_404_naming_parameter_and_value(base: str, query: str, message: str) -> None:
    status, body = _get(base + query)
    assert status == 404 and message in body
    assert "Original and ../../etc/passwd" not in body and "<b>x</b>" not in body


@pytest.mark.parametrize(("query", "message"), [
    ("paper?doc=p1&rep=-1", "rep must be between 0 and 9223372036854775807, got &#39;-1&#39;"),
    ("paper?doc=p1&rep=99999999999999999999999",
     "rep must be between 0 and 9223372036854775807, got &#39;99999999999999999999999&#39;"),
    ("call?id=0", "id must be between 1 and 9223372036854775807, got &#39;0&#39;"),
    ("call?id=99999999999999999999999", "id must be between 1"),
])
def test_out_of_range_integers_are_400(base: str, query: str, message: str) -> None:
    status, body = _get(base + query)
    assert status == 400 and message in body


@pytest.mark.parametrize("query", ["paper?doc=p1&variant=tone%3A%2B%40rw&rep=0", "paper?doc=p1&variant=original",
                                   "?metric=overall", "?metric=", "cell?reviewer=rev-a&condition=tone%3A%2B"])
def test_known_values_still_show_their_page(base: str, query: str) -> None:
    status, _ = _get(base + query)
    assert status == 200


def _all_failed(run_dir: Path, papers: int) -> Path:
    """A run of ``papers`` documents whose every rewrite failed (one refused, one error each; the
    third paper's is ok but failed validation), reviewed on the original only."""
    records = [("rev-a", f"p{i:03d}", "original", 5) for i in range(papers)]
    run = make_run(run_dir, records, titles={"p000": "<i>T0</i>"})
    store = Store.in_dir(run)
    try:
        for i in range(papers):
            doc = f"p{i:03d}"
            for condition, status, reason in (("tone:+", "refused", "model refused: <script>"),
                                              ("tone:-", "error", "HTTP 500")):
                ok = i == 2 and condition == "tone:+"
                store.insert("variants", {"unit_key": f"v-{doc}-{condition}", "document_id": doc, "condition": condition,
                                          "rewriter": "rw", "prompt_version": "1", "original_hash": f"h-{doc}",
                                          "status": "ok" if ok else status, "reason": None if ok else reason,
                                          "document_json": "{\"sections\": []}" if ok else None})
                if ok:
                    store.insert("checks", {"unit_key": f"c-{doc}", "variant_key": f"v-{doc}-{condition}",
                                            "document_id": doc, "condition": condition, "rewriter": "rw", "passed": 0,
                                            "reasons_json": "[\"similarity 0.2 < 0.8\"]", "result_json": "{}"})
    finally:
        store.close()
    return run


def test_a_study_where_everything_failed_lists_every_paper_with_its_rewrites_by_status(tmp_path: Path) -> None:
    run = _all_failed(tmp_path / "run", 53)
    with serve(run) as url:
        status, first = _get(url)
        assert status == 200 and 'id="no-rows"' in first
        assert first.count('class="paper-link"') == 50
        assert ('<tr><td><a href="/paper?doc=p000" class="paper-link">p000</a></td><td>&lt;i&gt;T0&lt;/i&gt;</td>'
                '<td>manuscript</td><td>error 1, refused 1</td></tr>') in first
        assert '<td>error 1, ok, failed validation 1</td>' in first  # p002
        assert "page 1 of 2" in first and 'href="/?page=2" id="documents-next"' in first
        status, second = _get(url + "?metric=&page=2")
        assert status == 200 and "page 2 of 2" in second
        assert all(f'class="paper-link">{d}</a>' in second for d in ("p050", "p051", "p052"))
        assert second.count('class="paper-link"') == 3 and 'href="/?metric=&amp;page=1" id="documents-previous"' in second
        status, paper = _get(url + "paper?doc=p001")  # the linked page shows the failure reasons
        assert status == 200 and "model refused: &lt;script&gt;" in paper and "HTTP 500" in paper
        assert _get(url + "?page=3")[0] == 404 and _get(url + "?page=0")[0] == 400


def test_the_paper_page_notes_a_paragraph_too_long_for_a_word_diff(tmp_path: Path) -> None:
    import json

    from rhetorica.report.viewer.diff import WORD_DIFF_CAP

    words = [f"w{i}" for i in range(WORD_DIFF_CAP + 1)]
    run = make_run(tmp_path / "run", [("rev-a", "p1", "original", 5)])
    document = {"sections": [{"title": "Intro", "text": " ".join(words)}]}
    store = Store.in_dir(run)
    try:
        store.conn.execute("UPDATE documents SET document_json = ? WHERE document_id = 'p1'", (json.dumps(document),))
        store.insert("variants", {"unit_key": "v-p1", "document_id": "p1", "condition": "tone:+", "rewriter": "rw",
                                  "prompt_version": "1", "original_hash": "h-p1", "status": "ok", "document_json":
                                  json.dumps({"sections": [{"title": "Intro", "text": " ".join(["<b>", *words[1:]])}]})})
    finally:
        store.close()
    with serve(run) as url:
        status, body = _get(url + "paper?doc=p1&variant=tone%3A%2B%40rw")
    note = (f'<p class="note">paragraph too long for a word diff: {WORD_DIFF_CAP + 1} words (over {WORD_DIFF_CAP}); '
            "shown deleted and inserted whole</p>")
    assert status == 200 and body.count(note) == 2  # once on each side
    assert "<del>w0 w1 w2" in body and "<ins>&lt;b&gt; w1 w2" in body


def test_the_scans_of_a_paper_are_labelled_by_their_arm(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", RECORDS)
    store = Store.in_dir(run)
    try:
        for key, condition, rewriter in (("s1", "original", "none"), ("s2", "tone:+", "rw")):
            store.record_scan({"scan_key": key, "document_id": "p1", "condition": condition, "rewriter": rewriter,
                               "content_hash": "h", "scanner_version": "1", "n_findings": 0, "n_flagged": 0,
                               "max_severity": None, "findings_json": "[]", "notes_json": "[]"})
        page = paper(store, run, {"doc": ["p1"]})
    finally:
        store.close()
    assert [s["arm"] for s in page["scans"]] == ["original", "tone:+@rw"]
    with serve(run) as url:
        status, body = _get(url + "paper?doc=p1")
    assert status == 200 and "<td>tone:+@rw</td>" in body and "<td>original</td>" in body


def test_a_judge_studys_overview_counts_reviews_not_papers(tmp_path: Path) -> None:
    """The judge study of :mod:`tests.report.judge_runs` (3 reviews: r0 and r1 of paper0, r2 of
    paper1): the headline rows' units are reviews, so the column says Reviews (it said Papers, 3
    for 2 papers), and the top line counts reviews of papers."""
    from rhetorica.report.viewer.pages import overview

    from ..judge_runs import run_judge_study

    run = run_judge_study(tmp_path)
    store = Store.open_readonly(run / "store.sqlite")
    try:
        context = overview(store, run, {"metric": ["remor.criticism"]})
    finally:
        store.close()
    assert context["documents_text"] == "3 review(s) of 2 paper(s)"
    assert context["unit"] == "review" and context["headers"][0] == "Reviews"
    assert [row["cells"][0] for row in context["rows"]] == ["3", "3"]  # paraphrase and polish:+
