"""End to end: ``rhetorica view`` over a finished mock study, driven in headless Chromium through
overview → filter → papers → paper → diff → review → call.

The expected numbers come from an independent computation over the report's tidy export
(:func:`rhetorica.store.export.scores_long`, pandas group-bys), the texts from the stored JSON.
Every page must log no console error and every request must go to the viewer's loopback address.
Takes about 20 s (the study run included).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from rhetorica.store.db import Store
from rhetorica.store.export import scores_long

from ...study.helpers import study_dict
from ..runs import run_study
from .conftest import serve


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    out = tmp_path_factory.mktemp("viewer-e2e") / "run"
    spec = study_dict(shared_data, out, validation={"enabled": True, "failed_variants": "include"})
    spec["reviewers"].append({"name": "ctrl", "kind": "control"})
    return run_study(spec, Path.cwd())


@pytest.fixture(scope="module")
def viewer(finished_run: Path) -> Iterator[str]:
    with serve(finished_run) as url:
        yield url


def expected_cells(run_dir: Path) -> pd.DataFrame:
    """Oracle: paper-level means of ok replicates, each rewrite paired with the original."""
    store = Store.open_readonly(run_dir / "store.sqlite")
    try:
        long = scores_long(store)
    finally:
        store.close()
    ok = long[long["status"].eq("ok")]
    papers = ok.groupby(["reviewer", "document_id", "condition", "rewriter", "metric"], as_index=False)["value"].mean()
    original = papers[papers["condition"].eq("original")][["reviewer", "document_id", "metric", "value"]]
    rewrites = papers[~papers["condition"].eq("original")]
    pairs = rewrites.merge(original, on=["reviewer", "document_id", "metric"], suffixes=("_rw", "_orig"))
    pairs["diff"] = pairs["value_rw"] - pairs["value_orig"]
    return pairs


def _stored(run_dir: Path, sql: str, params: tuple[Any, ...]) -> list[Any]:
    store = Store.open_readonly(run_dir / "store.sqlite")
    try:
        return [dict(r) for r in store.rows(sql, params)]
    finally:
        store.close()


def _texts(driver: Any, selector: str) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent.trim());", selector)


def _column(driver: Any, table: str, index: int) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#' + arguments[0] + ' tbody tr'))"
        ".filter(r => !r.hidden).map(r => r.cells[arguments[1]].textContent.trim());", table, index)


def _follow(driver: Any, element: Any) -> None:
    """Click ``element`` and wait until the page it leads to has loaded (a click does not wait).

    ``element`` may be an element id: it is then found just before the click, and found and clicked
    again when Chromium answers that the node it had no longer belongs to the document (a node
    looked up while the page was still settling; seen once in CI after a select's change).

    The new page is recognised by a mark set on the old page's ``window`` before the click: a new
    document has no such mark. (Waiting for the old ``<html>`` element to go stale asked Chromium
    about a node of a document it had already dropped, which it sometimes answers with an
    "unhandled inspector error" instead of a stale-element error: CI, twice.)
    """
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    driver.execute_script("window.__rhetoricaLeaving = true;")
    for attempt in range(3):
        target = driver.find_element(By.ID, element) if isinstance(element, str) else element
        try:
            target.click()
            break
        except (StaleElementReferenceException, WebDriverException) as exc:
            if not isinstance(element, str) or attempt == 2 or (
                    not isinstance(exc, StaleElementReferenceException)
                    and "does not belong to the document" not in str(exc)):
                raise
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.__rhetoricaLeaving !== true;"))
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")


def _severe(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


NETWORK_SCHEMES = ("http:", "https:", "ws:", "wss:", "ftp:")
"""Requests that can leave the machine. Chromium's own pages (``chrome://new-tab-page-third-party/``
and its ``chrome://resources/…``, which a new headless tab sometimes loads while the first page
opens) are read from the browser itself and are not counted."""


def _requested_urls(driver: Any) -> list[str]:
    """Every network request the browser sent since the performance log was last read."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if url.lower().startswith(NETWORK_SCHEMES):
                urls.append(url)
    return urls


def test_overview_filter_paper_diff_review_call(chromium: Any, viewer: str, finished_run: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = chromium
    driver.get_log("browser")
    driver.get_log("performance")
    pairs = expected_cells(finished_run)
    cells = pairs.groupby(["reviewer", "condition", "rewriter", "metric"]).size()

    # overview as opened: the forms' primary metric (overall), every reviewer x rewrite
    driver.get(viewer)
    assert driver.find_element(By.TAG_NAME, "h1").text == "mock-study"
    assert set(_column(driver, "headline", 3)) == {"overall"} and len(_column(driver, "headline", 0)) == 2 * 4
    # every reviewer x condition x rewriter x metric with paired papers
    driver.get(viewer + "?metric=")
    assert len(_column(driver, "headline", 0)) == len(cells) == 4 * 5 + 4 * 6  # 4 rewrites; ctrl: 5 metrics, mock: 6

    # filter (server side, in the URL): one reviewer, the overall score
    Select(driver.find_element(By.ID, "filter-reviewer")).select_by_value("mock-reviewer")
    Select(driver.find_element(By.ID, "filter-metric")).select_by_value("overall")
    _follow(driver, "apply")
    assert "reviewer=mock-reviewer" in driver.current_url and "metric=overall" in driver.current_url
    driver.refresh()  # the filter survives a reload
    overall = pairs[pairs["reviewer"].eq("mock-reviewer") & pairs["metric"].eq("overall")]
    expected = overall.groupby("condition")["diff"].agg(["mean", "count"]).sort_index()
    assert _column(driver, "headline", 1) == list(expected.index)
    assert _column(driver, "headline", 4) == [str(n) for n in expected["count"]] == ["3"] * 4
    assert _column(driver, "headline", 7) == [f"{m:.2f}" for m in expected["mean"]]

    # sorting in the page (JS): by mean difference, ascending
    driver.find_element(By.XPATH, "//table[@id='headline']//th[text()='Mean diff']").click()
    shown = [float(x) for x in _column(driver, "headline", 7)]
    assert shown == sorted(shown)

    # a row -> the papers behind it
    row = driver.find_element(By.XPATH, "//table[@id='headline']//tr[td[2][text()='confidence:+']]")
    _follow(driver, row.find_element(By.CSS_SELECTOR, "a.cell-link"))
    cell = overall[overall["condition"].eq("confidence:+")].sort_values("document_id")
    assert sorted(_column(driver, "papers", 0)) == list(cell["document_id"])
    by_doc = dict(zip(_column(driver, "papers", 0), _column(driver, "papers", 8), strict=True))
    assert by_doc == {d: f"{v:.2f}" for d, v in zip(cell["document_id"], cell["diff"], strict=True)}

    # a paper: the original and the rewrite side by side, word diff
    _follow(driver, driver.find_element(By.XPATH, "//a[@class='paper-link'][text()='gcrn_iclr2017']"))
    assert "doc=gcrn_iclr2017" in driver.current_url and "variant=confidence%3A%2B%40rules" in driver.current_url
    document = _stored(finished_run, "SELECT title, document_json FROM documents WHERE document_id = ?",
                       ("gcrn_iclr2017",))[0]
    variant = _stored(finished_run, "SELECT document_json FROM variants WHERE document_id = ? AND condition = ?",
                      ("gcrn_iclr2017", "confidence:+"))[0]
    assert driver.find_element(By.ID, "paper-title").text == document["title"]
    left = _texts(driver, ".diff-row .side.original p")
    right = _texts(driver, ".diff-row .side.rewrite p")
    assert left == [s["text"].strip() for s in json.loads(document["document_json"])["sections"]]
    assert right == [s["text"].strip() for s in json.loads(variant["document_json"])["sections"]]
    inserted = _texts(driver, ".side.rewrite ins")
    assert inserted and all(word in right[0] + " ".join(right[1:]) for word in inserted)
    assert _texts(driver, ".side.original ins") == [] and _texts(driver, ".side.rewrite del") == []
    check = _stored(finished_run, "SELECT result_json FROM checks WHERE document_id = ? AND condition = ?",
                    ("gcrn_iclr2017", "confidence:+"))[0]
    similarity = json.loads(check["result_json"])["semantic_similarity"]
    assert f"{similarity:.3f}" in _column(driver, "variants", 3)

    # a review: the grid cell of replicate 1, overall score -> the two reviews side by side
    stored = _stored(finished_run, "SELECT unit_key, review_json FROM assessments WHERE document_id = ? AND "
                     "condition = ? AND reviewer = ? AND replicate = 1", ("gcrn_iclr2017", "confidence:+",
                                                                            "mock-reviewer"))[0]
    review = json.loads(stored["review_json"])
    grid_row = driver.find_element(By.XPATH, "//table[@id='grid']//tr[td[1][text()='mock-reviewer'] and "
                                             "td[2][text()='1'] and td[3][text()='overall']]")
    columns = _texts(driver, "#grid thead th")
    link = grid_row.find_elements(By.TAG_NAME, "td")[columns.index("confidence:+@rules")]
    assert link.text == f"{review['overall']:.2f}"
    _follow(driver, link.find_element(By.TAG_NAME, "a"))
    assert "rep=1" in driver.current_url
    article = driver.find_element(By.ID, "review-1")
    assert article.find_element(By.TAG_NAME, "h3").text == "confidence:+@rules"
    assert review["summary"] in article.text and f"overall {review['overall']:.2f}" in article.text

    # the model call behind it
    call = _stored(finished_run, "SELECT call_id, input_tokens, output_tokens FROM model_calls WHERE unit_key = ?",
                   (stored["unit_key"],))[0]
    _follow(driver, article.find_element(By.CSS_SELECTOR, "a.call-link"))
    assert driver.find_element(By.TAG_NAME, "h1").text == f"Model call {call['call_id']}"
    assert driver.find_element(By.CSS_SELECTOR, "td.input_tokens").text == str(call["input_tokens"])
    assert driver.find_element(By.CSS_SELECTOR, "td.output_tokens").text == str(call["output_tokens"])
    assert review["summary"] in driver.find_element(By.ID, "output").text

    assert _severe(driver) == []
    urls = _requested_urls(driver)
    assert urls and all(u.startswith(viewer) for u in urls), [u for u in urls if not u.startswith(viewer)]
    assert any(u.endswith("/static/viewer.js") for u in urls) and any(u.endswith("/static/viewer.css") for u in urls)


def test_unknown_paper_is_a_404_page_naming_it(chromium: Any, viewer: str) -> None:
    from selenium.webdriver.common.by import By

    chromium.get(viewer + "paper?doc=no-such-paper")
    assert chromium.find_element(By.ID, "error").text == "no document 'no-such-paper' in this store"


# Hostile text where model output lands: a review, its raw output, a failure reason, a rewrite,
# a title, a call error and the cached output. Each sets a flag if it ever runs.
SCRIPT = "<script>window.pwned = 'review'; alert(1)</script>"
ATTRIBUTE = "\"><img src=x onerror=\"window.pwned = 'attribute'\">"
TITLE = "T <script>window.pwned = 'title'</script>"
REWRITE = "We <b onmouseover=\"window.pwned = 'rewrite'\">clearly</b> show it. </p><script>window.pwned = 'p'</script>"


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ..runs import make_run

    run = make_run(tmp_path_factory.mktemp("hostile") / "run", [("rev", "p1", "original", 5)], titles={"p1": TITLE})
    document = {"id": "p1", "title": TITLE, "sections": [{"title": "Abstract", "text": "We show it."}],
                "source": {"path": "p1", "parser": "t", "parser_version": "1"}}
    store = Store.in_dir(run)
    try:
        store.insert("documents", {"document_id": "p1", "content_hash": "h-p1", "kind": "manuscript", "title": TITLE,
                                   "document_json": json.dumps(document)})
        store.insert("variants", {
            "unit_key": "v1", "document_id": "p1", "condition": "confidence:+", "rewriter": "rw",
            "prompt_version": "1", "original_hash": "h", "status": "ok",
            "document_json": json.dumps({**document, "sections": [{"title": ATTRIBUTE, "text": REWRITE}]})})
        store.save_assessment({
            "unit_key": "u-bad", "document_id": "p1", "variant_key": "v1", "input_hash": "i", "condition": "confidence:+",
            "rewriter": "rw", "reviewer": "rev", "model": "mock/x", "protocol": "default", "form": "review-000@1",
            "replicate": 0, "status": "malformed", "reason": ATTRIBUTE, "review_json": json.dumps({"summary": SCRIPT}),
            "raw_text": SCRIPT + ATTRIBUTE}, {})
        # an annotation whose aspect and annotator are hostile, its phrase inside the hostile review
        store.save_annotation({"unit_key": "n1", "assessment_key": "u-bad", "annotator": ATTRIBUTE, "taxonomy": "t",
                               "status": "ok", "n_mentions": 1}, [(ATTRIBUTE, "negative", "window.pwned = 'review'")])
        store.record_call({"unit_key": "u-bad", "cache_key": "k", "provider": "mock", "model": "x", "status": "malformed",
                           "error": ATTRIBUTE, "params_json": json.dumps({"note": SCRIPT})})
        store.cache_output("k", "mock", "x", json.dumps({"text": SCRIPT}))
    finally:
        store.close()
    return run


HOSTILE_STATE = """
return {pwned: window.pwned === undefined ? null : window.pwned, scripts: document.scripts.length,
        injected: document.querySelectorAll('img, b, main script').length, text: document.body.innerText};
"""


@pytest.mark.parametrize("page", ["paper?doc=p1&variant=confidence%3A%2B%40rw&reviewer=rev", "call?id=1"])
def test_hostile_text_is_shown_literally_and_never_runs(chromium: Any, hostile_run: Path, page: str) -> None:
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    with serve(hostile_run) as url:
        chromium.get_log("browser")
        chromium.get(url + page)
        with pytest.raises(NoAlertPresentException):
            chromium.switch_to.alert.text  # noqa: B018 - no alert was raised
        state = chromium.execute_script(HOSTILE_STATE)
        if page.startswith("paper"):  # title, rewrite heading, failure reason, review and raw output
            for text in (TITLE, ATTRIBUTE, SCRIPT, SCRIPT + ATTRIBUTE):
                assert text in state["text"], text
            assert "clearly" in chromium.find_element(By.CSS_SELECTOR, ".side.rewrite ins").text
            mark = chromium.find_element(By.CSS_SELECTOR, "#review-1 mark.aspect")
            assert (mark.text, mark.get_attribute("data-aspect")) == ("window.pwned = 'review'", ATTRIBUTE)
        else:
            assert ATTRIBUTE in state["text"] and SCRIPT in state["text"]
        assert state["pwned"] is None and state["scripts"] == 1 and state["injected"] == 0
        assert _severe(chromium) == []
