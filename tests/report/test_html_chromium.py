"""End to end: a mock-provider study over the real shared papers, its report.html rendered in
headless Chromium (Debian packages chromium + chromium-driver; scripts/install-test-system-deps.sh).

Checks that every image decodes (naturalWidth > 0), that the expected sections and tables render
with rows, and that the browser console logs no error. Takes about 15 s (study run included).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rhetorica.report.render import write_report

from ..study.helpers import study_dict
from .chromium import headless_chromium
from .runs import run_study

PAGE_STATE = """
return {
  images: Array.from(document.images).map(i => ({alt: i.alt, complete: i.complete, width: i.naturalWidth,
                                                 external: !i.src.startsWith('data:image/png;base64,')})),
  sections: Array.from(document.querySelectorAll('section')).map(s => ({
    id: s.id, rows: Array.from(s.querySelectorAll('table')).map(t => t.tBodies[0].rows.length),
    height: s.getBoundingClientRect().height})),
  stylesheets: Array.from(document.querySelectorAll('link[rel=stylesheet], script[src]')).length,
};
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with headless_chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


def render(driver: Any, page: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Open ``page``; return its state (images, sections, external resources) and console errors."""
    driver.get_log("browser")  # drop entries of earlier pages
    driver.get(page.resolve().as_uri())
    state = driver.execute_script(PAGE_STATE)
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    return state, errors


@pytest.fixture(scope="module")
def mock_run(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    out = tmp_path_factory.mktemp("e2e") / "run"
    # failed_variants: include keeps the (identical, failing) echo variants reviewed, so every table fills.
    run_dir = run_study(study_dict(shared_data, out, validation={"enabled": True, "failed_variants": "include"}),
                        Path.cwd())
    write_report(run_dir, n_resamples=500)
    return run_dir


def test_report_renders_in_chromium(browser: Any, mock_run: Path) -> None:
    state, errors = render(browser, mock_run / "report.html")
    assert errors == []
    images = state["images"]
    assert len(images) == 5, images  # study flow, preference bars, difference histograms, forest plot, scatter
    for image in images:
        assert image["complete"] and image["width"] > 0 and not image["external"], image
    assert state["stylesheets"] == 0
    sections = {s["id"]: s for s in state["sections"]}
    assert list(sections) == ["flow", "scorecard", "comparison", "criteria", "magnitude", "change", "robustness",
                              "pooled_sd", "validation", "means", "usage", "failures",
                              "appendix-1", "appendix-2", "appendix-3"]
    # 3 papers, 2 replicates, one reviewer, 4 conditions + original: 6 pairs (4 vs original, 2 +/-)
    assert sections["scorecard"]["rows"] == [1]
    # flow: documents + 4 rewrite arms + their 4 validations + 5 review arms; no exclusion under `include`;
    # effective n: 6 comparisons + 1 robustness row
    assert sections["flow"]["rows"] == [14, 7]
    assert sections["comparison"]["rows"] == [6]
    assert sections["criteria"]["rows"] == [24]  # 4 criteria x 6 pairs
    assert sections["change"]["rows"][0] == 4
    assert sections["validation"]["rows"][0] == 5  # originals + 4 conditions
    # per-paper appendix (default 3 papers): one reviewer x 6 metrics of the 000 form
    assert [sections[f"appendix-{i}"]["rows"] for i in (1, 2, 3)] == [[6]] * 3
    assert all(s["height"] > 0 for s in sections.values())


def test_checker_catches_a_broken_image_and_a_console_error(browser: Any, tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><head><link rel="icon" href="data:,"></head><body>'
                    '<img src="data:image/png;base64,AAAA" alt="broken">'
                    '<script>console.error("deliberate failure")</script></body></html>', encoding="utf-8")
    state, errors = render(browser, page)
    assert state["images"] == [{"alt": "broken", "complete": True, "width": 0, "external": False}]
    assert len(errors) == 1 and "deliberate failure" in errors[0]["message"]


# Hostile text where a manuscript's prompt injection can land: a refusal (model output), a failure
# reason, a document title and a reviewer name. Each sets a flag if it ever runs.
REFUSAL = "I refuse.<script>window.pwned = 'refusal'; alert(1)</script>"
REASON = "<img src=x onerror=\"window.pwned = 'reason'; alert(2)\">"
TITLE = "Title <script>window.pwned = 'title'</script><b>bold</b>"
REVIEWER = "rev<svg onload=\"window.pwned = 'reviewer'\">"

HOSTILE_STATE = """
return {pwned: window.pwned === undefined ? null : window.pwned, scripts: document.scripts.length,
        svgs: document.querySelectorAll('svg, b').length,
        images: Array.from(document.images).map(i => i.getAttribute('src').slice(0, 22)),
        text: document.body.innerText};
"""


def test_hostile_text_is_shown_literally_and_never_runs(browser: Any, tmp_path: Path) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    from .runs import make_run

    records = [(REVIEWER, "p1", "original", 5), (REVIEWER, "p1", "confidence:+", None),
               (REVIEWER, "p2", "original", 6), (REVIEWER, "p2", "confidence:+", 7)]
    run = make_run(tmp_path / "run", records, status={1: "refused"}, reasons={1: REFUSAL}, truncated={0},
                   titles={"p1": TITLE}, problems=[("ingest", "bad.pdf", "error", REASON)],
                   study={"reviewers": [{"name": "declared", "model": "mock/x", "max_input_words": 400}]})
    write_report(run, n_resamples=50)
    state, errors = render(browser, run / "report.html")
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - no alert was raised
    page = browser.execute_script(HOSTILE_STATE)
    assert page["pwned"] is None and page["scripts"] == 0 and page["svgs"] == 0
    assert all(src == "data:image/png;base64," for src in page["images"]), page["images"]
    for text in (REFUSAL, REASON, TITLE, REVIEWER):
        assert text in page["text"], text
    assert errors == []
