"""A plug-in's analysis table (the example plug-in's ``median_shift``, one file and one registration)
shows in the report's Markdown, HTML and LaTeX and on the viewer's ``/tables`` page, with nothing of
rhetorica changed."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import bootstrap

from tests.examples.plugin_install import install_plugin, run_python

# reviewer r1: paired shifts 1, 0, 2, 3 (median 1.5); r2: 1, 1, 1 (median 1, no interval)
SCORES = {"r1": [(5, 6), (4, 4), (6, 8), (3, 6)], "r2": [(5, 6), (4, 5), (6, 7)]}
RESAMPLES = 300

_REPORT_AND_VIEW = textwrap.dedent('''
    import json, sys, urllib.request
    from pathlib import Path
    from rhetorica.report.render import write_report
    from rhetorica.report.viewer.server import ViewerServer
    from tests.report.runs import make_run

    scores = json.loads(sys.argv[2])
    records = [(r, f"p{i}", arm, float(v)) for r, pairs in scores.items() for i, pair in enumerate(pairs)
               for arm, v in zip(("original", "confidence:+"), pair)]
    run = make_run(Path(sys.argv[1]), records)
    write_report(run, n_resamples=int(sys.argv[3]), seed=0)
    server = ViewerServer(run, 0, quiet=True)
    server.start_background()
    try:
        view = urllib.request.urlopen(server.url + "/tables", timeout=60).read().decode()
    finally:
        server.shutdown()
        server.server_close()
    tables = run / "tables"
    print(json.dumps({"md": (run / "report.md").read_text(), "html": (run / "report.html").read_text(),
                      "tex": (tables / "median_shift.tex").read_text(),
                      "csv": (tables / "median_shift.csv").read_text(), "view": view}))
''')


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    site = install_plugin(tmp_path_factory.mktemp("plugin") / "site")
    run_dir = tmp_path_factory.mktemp("plugin-table") / "run"
    result = run_python(["-c", _REPORT_AND_VIEW, str(run_dir), json.dumps(SCORES), str(RESAMPLES)], site,
                        cwd=str(Path(__file__).resolve().parents[2]))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _interval() -> tuple[float, float]:
    """The oracle: scipy's percentile bootstrap of the median of r1's shifts, the report's seed."""
    ci = bootstrap((np.array([1.0, 0.0, 2.0, 3.0]),), np.median, n_resamples=RESAMPLES, method="percentile",
                   random_state=np.random.default_rng(0)).confidence_interval
    return ci.low, ci.high


def test_the_markdown_report_shows_the_plugin_table(shown: dict[str, str]) -> None:
    low, high = _interval()
    assert 0.0 <= low <= 1.5 <= high <= 3.0
    md = shown["md"]
    assert "## Median paired shift per reviewer" in md
    assert f"| r1         | 4        | 1.50           | {low:.2f}      | {high:.2f}       |" in md
    assert "| r2         | 3        | 1.00           | –         | –          |" in md
    # after the built-in robustness section (order 50 > 40)
    assert md.index("## Rhetorical robustness") < md.index("## Median paired shift per reviewer")


def test_the_html_report_and_the_viewer_show_the_plugin_table(shown: dict[str, str]) -> None:
    low, high = _interval()
    for page in (shown["html"], shown["view"]):
        assert "Median paired shift per reviewer" in page
        assert f">{low:.2f}<" in page and f">{high:.2f}<" in page
    assert 'id="table-median_shift"' in shown["view"]
    assert 'id="table-robustness"' in shown["view"]  # the built-in tables are on the page too


def test_the_latex_and_csv_tables_of_the_plugin(shown: dict[str, str]) -> None:
    low, high = _interval()
    assert "\\label{tab:median-shift}" in shown["tex"]
    assert f"r1 & 4 & 1.50 [{low:.2f}, {high:.2f}] \\\\" in shown["tex"]
    rows = shown["csv"].splitlines()
    assert rows[0] == "reviewer,n_papers,median_shift,median_shift_low,median_shift_high"
    assert rows[1].startswith("r1,4,1.5,")
