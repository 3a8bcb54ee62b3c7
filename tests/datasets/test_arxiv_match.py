"""``rhetorica dataset arxiv-match`` against recorded arXiv answers built from the shared projects."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.datasets.arxiv_match import split_version, title_jaccard
from rhetorica.datasets.manifest import load_manifest
from rhetorica.datasets.openreview_build import build_openreview
from rhetorica.documents.compare import ngram_jaccard, token_cosine
from tests.datasets.recorded_api import VENUE


def test_similarity_measures_by_hand() -> None:
    a = "the cat sat on the mat".split()
    b = "the cat sat on a mat".split()
    # counts: a = {the:2, cat, sat, on, mat}, b = {the, cat, sat, on, a, mat}; dot = 2+1+1+1+1 = 6
    assert abs(token_cosine(a, b) - 6 / ((4 + 4) ** 0.5 * 6 ** 0.5)) < 1e-12
    # 5-grams: a = {the cat sat on the, cat sat on the mat}; b = {the cat sat on a, cat sat on a mat}
    assert ngram_jaccard(a, b) == 0.0
    assert ngram_jaccard(a, a) == 1.0
    assert ngram_jaccard(a, a + ["again"]) == 2 / 3
    assert split_version("2001.05016v3") == ("2001.05016", 3)
    assert split_version("cs/0101001v12") == ("cs/0101001", 12)
    assert title_jaccard("Neural Arithmetic Units", "neural arithmetic units") == 1.0


def test_right_version_matched_unsafe_refused_second_run_no_request(recorded, tmp_path: Path) -> None:
    api, base = recorded
    root = tmp_path / "ds"
    build_openreview(VENUE, root, baseurl=base, per_bin=3, seed=1)
    args = ["dataset", "arxiv-match", str(root), "--arxiv-api", base + "/api/query?{}", "--arxiv-src",
            base + "/src", "--delay", "0"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output  # unmatched papers are listed problems
    manifest = load_manifest(root)
    nalu = manifest.paper("P19")
    assert nalu.match is not None and (nalu.match.arxiv_id, nalu.match.version) == ("2001.05016", 2)
    assert nalu.latex == "papers/P19/latex" and (root / "papers" / "P19" / "latex" / "main.tex").is_file()
    by_version = {c.version: c for c in nalu.match.candidates}
    assert sorted(by_version) == [1, 2, 3]  # the decoy record's title does not match
    assert by_version[3].problem is not None and "unsafe archive" in by_version[3].problem
    assert by_version[2].token_cosine > 0.9 and by_version[2].jaccard5 > 0.2  # same paper: PDF vs its source
    assert by_version[1].token_cosine < 0.9 and by_version[1].jaccard5 < 0.01  # another paper's source
    scipy = manifest.paper("P08")
    assert scipy.match is not None and scipy.match.arxiv_id is None and scipy.latex is None
    assert "P08: unmatched: no arXiv record" in result.output
    assert api.hits["src"] == 3
    before = sum(api.hits.values())
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 1
    assert sum(api.hits.values()) == before
