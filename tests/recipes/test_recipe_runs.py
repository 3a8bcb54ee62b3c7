"""Each recipe end to end on recorded data with mock models: ``init``, ``run``, and a report that opens
with the published-vs-run section.

- ``judge-robustness``: the generated benchmark clone, two mock judges;
- ``style-over-substance``: the recorded OpenReview venue, a mock rewriter and reviewer;
- ``six-dimensions`` and ``robustreview``: the recorded venue whose top-bin paper is a small LaTeX
  project compiled here, served both as the submission's PDF and as its arXiv source, so that the
  arXiv match finds it and the latex-project rewriter, compile and PDF review run on it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rhetorica.cli.app import app
from tests.datasets.conftest import build_api
from tests.datasets.recorded_api import VENUE, serve, tarball_of

RUNNER = CliRunner()
PROJECT = r"""\documentclass{article}
\title{Neural Arithmetic Units}
\begin{document}
\maketitle
\begin{abstract}
Neural networks can approximate complex functions but struggle with exact arithmetic on numbers
outside the training range. We propose two units that learn addition and multiplication exactly.
\end{abstract}
\section{Introduction}
\label{sec:intro}
Arithmetic extrapolation is a known weakness of neural networks \cite{trask}. Our units reach a
success rate of 0.97 on the multiplication task, compared with 0.12 for the previous unit, and keep
that rate on inputs ten times larger than those seen during training. Section~\ref{sec:intro}
describes the problem and the contribution.
\section{Results}
The multiplication unit converges in 5000 iterations on average; the addition unit in 1200.
\begin{thebibliography}{1}
\bibitem{trask} A. Trask. Neural arithmetic logic units. 2018.
\end{thebibliography}
\end{document}
"""


def _first_section(report: Path) -> str:
    return re.findall(r"^## (.+)$", report.read_text(encoding="utf-8"), flags=re.M)[0]


def _run(folder: Path) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["recipe", "run", str(folder)], terminal_width=220)
    return result.exit_code, result.output


def test_judge_recipe_end_to_end(benchmark_clone: Path, tmp_path: Path) -> None:
    folder = tmp_path / "judges"
    init = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(folder), "--sample", "4", "--source",
                               str(benchmark_clone), "--judge", "mock/judge-a", "--second-judge", "mock/judge-b"])
    assert init.exit_code == 0, init.output
    code, output = _run(folder)
    assert code in (0, 1), output
    report = folder / "run" / "report.md"
    assert _first_section(report) == "Published vs this run (recipe judge-robustness)"
    text = report.read_text(encoding="utf-8")
    # a 4-review pilot gives every metric too few pairs for a verdict (not informative), so neither a
    # class nor a shift is compared (recipes.comparison: a metric without a verdict is never compared)
    assert "No value of this run is comparable with a published one" in text
    assert "674 reviews" in text and "4 reviews analysed (a pilot: --sample 4)" in text


def test_style_recipe_end_to_end(recorded_venue, tmp_path: Path) -> None:
    _, base = recorded_venue
    folder = tmp_path / "sos"
    init = RUNNER.invoke(app, ["recipe", "init", "style-over-substance", str(folder), "--sample", "2", "--venue", VENUE,
                               "--openreview-url", base, "--reviewer", "mock/reviewer", "--rewriter", "mock/rewriter"])
    assert init.exit_code == 1 and "Study written" in init.output, init.output  # P22's unreadable ratings listed
    code, output = _run(folder)
    assert code in (0, 1), output
    report = folder / "run" / "report.md"
    assert _first_section(report) == "Published vs this run (recipe style-over-substance)"
    assert "Table 4" in report.read_text(encoding="utf-8")


@pytest.fixture
def latex_venue(shared_data: Path, tmp_path: Path):
    if shutil.which("pdflatex") is None:
        pytest.fail("pdflatex not found: install TeX Live (scripts/install-test-system-deps.sh)")
    source = tmp_path / "nalu"
    source.mkdir()
    (source / "main.tex").write_text(PROJECT, encoding="utf-8")
    build = tmp_path / "nalu-build"
    shutil.copytree(source, build)
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "main.tex"], cwd=build,
                   capture_output=True, check=True, timeout=120)
    api = build_api(shared_data, tmp_path)
    api.pdfs["P19"] = (build / "main.pdf").read_bytes()
    api.sources["2001.05016v1"] = api.sources["2001.05016v2"] = tarball_of(source)
    with serve(api) as base:
        yield base


@pytest.mark.parametrize("name", ["six-dimensions", "robustreview"])
def test_latex_recipes_end_to_end(latex_venue: str, tmp_path: Path, name: str) -> None:
    base = latex_venue
    folder = tmp_path / name
    init = RUNNER.invoke(app, ["recipe", "init", name, str(folder), "--sample", "12", "--venue", VENUE,
                               "--openreview-url", base, "--arxiv-api", base + "/api/query?{}", "--arxiv-src",
                               base + "/src", "--reviewer", "mock/reviewer", "--rewriter", "mock/rewriter",
                               "--data-option", "arxiv_delay_s=0"])
    assert "Study written" in init.output, init.output
    assert init.exit_code == 1  # the papers without a LaTeX source are listed
    code, output = _run(folder)
    assert code in (0, 1), output
    report = folder / "run" / "report.md"
    assert _first_section(report) == f"Published vs this run (recipe {name})"
