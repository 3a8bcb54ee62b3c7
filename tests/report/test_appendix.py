"""The report's per-paper appendix: grid cells by hand, compact diffs, N configurable, escaping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rhetorica.report.appendix import CONTEXT_WORDS, paper_examples
from rhetorica.report.render import write_report
from rhetorica.store.db import Store

from .runs import make_run

RECORDS = [("r", "p1", "original", 4), ("r", "p1", "original", 6), ("r", "p1", "confidence:+", 7),
           ("r", "p1", "confidence:+", None), ("r", "p2", "original", 6), ("r", "p2", "confidence:+", None),
           ("r", "p3", "original", 5)]


def _with_variant(run: Path, original: str, rewrite: str) -> None:
    document = {"id": "p1", "title": "p1", "sections": [{"title": "Intro", "text": original}],
                "source": {"path": "p1", "parser": "t", "parser_version": "1"}}
    store = Store.in_dir(run)
    try:
        store.insert("documents", {"document_id": "p1", "content_hash": "h", "kind": "manuscript", "title": "p1",
                                   "document_json": json.dumps(document)})
        store.insert("variants", {"unit_key": "v-p1-confidence:+", "document_id": "p1", "condition": "confidence:+",
                                  "rewriter": "rw", "prompt_version": "1", "original_hash": "h", "status": "ok",
                                  "document_json": json.dumps({**document, "sections": [
                                      {"title": "Intro", "text": rewrite}]})})
    finally:
        store.close()


def test_grid_means_successful_replicates_and_names_failures(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", RECORDS, replicates={1: 1, 3: 1}, status={3: "malformed", 5: "refused"})
    store = Store.in_dir(run)
    try:
        examples = paper_examples(store, 2)
    finally:
        store.close()
    assert [e.document_id for e in examples] == ["p1", "p2"]
    assert examples[0].versions == ["original", "confidence:+@rw"]
    assert examples[0].grid == [["r", "overall", "5.00", "7.00 (1 failed)"]]
    assert examples[1].grid == [["r", "overall", "6.00", "refused"]]


def test_compact_diff_keeps_context_around_the_change(tmp_path: Path) -> None:
    words = [f"w{i}" for i in range(60)]
    original = " ".join(words)
    rewrite = " ".join(words[:30] + ["clearly"] + words[31:])  # w30 replaced
    run = make_run(tmp_path / "run", RECORDS[:3], replicates={1: 1})
    _with_variant(run, original, rewrite)
    store = Store.in_dir(run)
    try:
        (example,) = paper_examples(store, 1)
    finally:
        store.close()
    (diff,) = example.diffs
    (section,) = diff.sections
    assert (diff.label, section.title, section.deleted_words, section.inserted_words) == ("confidence:+@rw", "Intro", 1, 1)
    shown = [(s.op, s.text) for s in section.segments]
    assert [op for op, _ in shown] == ["equal", "delete", "insert", "equal"]
    assert (shown[1][1], shown[2][1]) == ("w30", "clearly")
    before, after = shown[0][1], shown[3][1]
    assert before == "… " + " ".join(words[30 - CONTEXT_WORDS:30]) + " "
    assert after == " " + " ".join(words[31:31 + CONTEXT_WORDS]) + " …"  # the space after "clearly" is kept


def test_report_shows_n_papers_escaped(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", RECORDS[:3], replicates={1: 1})
    _with_variant(run, "We show it.", "We <script>alert(1)</script> show it.")
    write_report(run, n_resamples=50, appendix_papers=1)
    html = (run / "report.html").read_text(encoding="utf-8")
    assert 'id="appendix-1"' in html and 'id="appendix-2"' not in html
    assert "We<ins> &lt;script&gt;alert(1)&lt;/script&gt;</ins> show it." in html and "<script>" not in html
    markdown = (run / "report.md").read_text(encoding="utf-8")
    assert "_Intro_: We{+ \\<script\\>alert(1)\\</script\\>+} show it." in markdown  # escaped, no HTML entity
    write_report(run, n_resamples=50, appendix_papers=0)
    assert 'id="appendix-1"' not in (run / "report.html").read_text(encoding="utf-8")


def test_negative_paper_count_is_an_error(tmp_path: Path) -> None:
    store = Store.in_dir(make_run(tmp_path / "run", RECORDS[:1]))
    try:
        with pytest.raises(ValueError, match="appendix papers must be >= 0, got -1"):
            paper_examples(store, -1)
    finally:
        store.close()


def test_a_paragraph_too_long_for_a_word_diff_is_cut_and_noted_in_the_report(tmp_path: Path) -> None:
    from rhetorica.report.viewer.diff import WORD_DIFF_CAP

    words = [f"w{i}" for i in range(WORD_DIFF_CAP + 500)]
    run = make_run(tmp_path / "run", RECORDS[:3], replicates={1: 1})
    _with_variant(run, " ".join(words), " ".join(["changed", *words[1:]]))
    store = Store.in_dir(run)
    try:
        (example,) = paper_examples(store, 1)
    finally:
        store.close()
    (section,) = example.diffs[0].sections
    note = (f"paragraph too long for a word diff: {WORD_DIFF_CAP + 500} words (over {WORD_DIFF_CAP}); "
            "shown deleted and inserted whole")
    tail = " ".join(words[-CONTEXT_WORDS:])
    assert [(s.op, s.text, s.note) for s in section.segments] == [
        ("delete", " ".join(words[:CONTEXT_WORDS]) + " … " + tail, note),
        ("insert", " ".join(["changed", *words[1:CONTEXT_WORDS]]) + " … " + tail, note)]
    write_report(run, n_resamples=50, appendix_papers=1)
    html = (run / "report.html").read_text(encoding="utf-8")
    assert f"({WORD_DIFF_CAP + 500} deleted, {WORD_DIFF_CAP + 500} inserted; {note}): <del>w0 w1" in html
    assert f"_Intro_ ({note}): [-w0 w1" in (run / "report.md").read_text(encoding="utf-8")
