"""Time the run viewer's pages on a synthetic store of 40,000 assessments (target: under 1 s each).

Set-up: the core install (``make install-demo`` or ``.venv/bin/pip install -e .``).
Run: ``.venv/bin/python benchmarks/bench_viewer.py [--papers 500] [--reviewers 4] [--replicates 4]
[--words 2000] [--repeat 5] [--keep DIR]``.

Builds (in a temporary folder, or ``--keep DIR``) a store shaped like a finished study: ``papers``
documents of ``words`` words, four rewrites each (rule-based word changes, so diffs have work to
do) with a stored check, ``reviewers`` x ``replicates`` reviews of every version on the six-metric
000 form (500 x 5 x 4 x 4 = 40,000 assessments, 240,000 scores), one logged model call per review,
an aspect annotation of every review with five verified mentions (200,000 mentions; phrases that
recur in the review, so the paper page highlights dozens of spans per review) and recorded current
plans. Then serves it with :class:`rhetorica.report.viewer.server.ViewerServer`
and times complete HTTP requests (query + render + transfer) of the overview (as opened: the
primary metric), the overview of every metric, a filtered overview, the papers behind a row, a paper page and a call page: fastest and median of ``repeat``
requests, in seconds, printed one line per page. Last, the word diff alone
(:func:`rhetorica.report.viewer.diff.document_diff`, as the paper page and the report's appendix
call it) of a 1 MB section of 30,000 short lines with every 100th line changed, of the same
megabyte as one line (over the word cap: shown deleted and inserted whole), and of a paragraph at
the word cap (the slowest stretch that is still word-diffed).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

CONDITIONS = ("confidence:+", "confidence:-", "proficiency:+", "proficiency:-")
METRICS = ("overall", "soundness", "significance", "evidence", "clarity", "confidence")
#: every review's verified mentions: overlapping, recurring phrases of its text fields
MENTIONS = (("presentation", "positive", "text text"), ("presentation", "negative", "text text text"),
            ("methodology", "positive", "strong strong"), ("result", "negative", "weak"),
            ("novelty", "positive", "suggest suggest"))
VOCABULARY = ("model", "graph", "results", "show", "method", "data", "we", "propose", "the", "a", "of", "network",
              "training", "improves", "baseline", "accuracy", "robust", "novel", "experiments", "layer")


def _document(doc_id: str, words: int, rng: random.Random) -> dict[str, object]:
    sections = []
    per_section = max(1, words // 8)
    for s in range(8):
        text = " ".join(rng.choice(VOCABULARY) for _ in range(per_section)) + "."
        sections.append({"title": f"Section {s}", "text": text, "level": 1})
    return {"id": doc_id, "kind": "manuscript", "title": f"Synthetic paper {doc_id}", "sections": sections,
            "metadata": {}, "source": {"path": doc_id, "parser": "synthetic", "parser_version": "1"},
            "removed": [{"item": "author", "location": "title block", "text": "A. Author"}], "warnings": []}


def _rewrite(document: dict[str, object], rng: random.Random) -> dict[str, object]:
    sections = []
    for section in document["sections"]:  # type: ignore[union-attr]
        words = section["text"].split()
        for _ in range(max(1, len(words) // 25)):  # change about 4% of the words
            i = rng.randrange(len(words))
            words[i] = rng.choice(("clearly", "substantially", "may", "arguably"))
        sections.append({**section, "text": " ".join(words)})
    return {**document, "sections": sections}


def build_store(run_dir: Path, papers: int, reviewers: int, replicates: int, words: int) -> int:
    """Write the synthetic store into ``run_dir``; returns the number of assessments."""
    from rhetorica.store.db import Store, write_assessment
    from rhetorica.store.plan import record_plan
    from rhetorica.study.config import parse_study

    rng = random.Random(0)
    run_dir.mkdir(parents=True, exist_ok=True)
    study = parse_study({"name": "bench-viewer", "documents": ["papers/*"], "validation": {"enabled": True},
                         "reviewers": [{"name": f"reviewer-{r}", "model": "mock/reviewer"} for r in range(reviewers)]})
    (run_dir / "study.json").write_text(study.model_dump_json(indent=2), encoding="utf-8")
    store = Store.in_dir(run_dir)
    review_keys, variant_keys, annotation_keys, n = [], [], [], 0
    try:
        with store.transaction() as conn:
            for p in range(papers):
                doc_id = f"paper{p:04d}"
                original = _document(doc_id, words, rng)
                conn.execute("INSERT INTO documents (document_id, content_hash, kind, title, human_score, document_json) "
                             "VALUES (?, ?, 'manuscript', ?, ?, ?)",
                             (doc_id, f"h{p}", original["title"], rng.uniform(1, 10), json.dumps(original)))
                versions: list[tuple[str, str, str | None]] = [("original", "none", None)]
                for condition in CONDITIONS:
                    key = f"v-{doc_id}-{condition}"
                    conn.execute("INSERT INTO variants (unit_key, document_id, condition, rewriter, prompt_version, "
                                 "original_hash, content_hash, status, document_json) VALUES (?, ?, ?, 'rules', '1', ?, ?, "
                                 "'ok', ?)", (key, doc_id, condition, f"h{p}", f"h{key}",
                                              json.dumps(_rewrite(original, rng))))
                    result = {"semantic_similarity": rng.uniform(0.9, 1), "min_passage_similarity": rng.uniform(0.8, 1),
                              "tfidf_cosine": rng.uniform(0.8, 1), "length_ratio": 1.0,
                              "protected": {"original": 6, "kept": 6, "missing": []},
                              "shift": [{"measure": "boosters/1k", "original": 1.0, "variant": 3.0, "present": True}]}
                    conn.execute("INSERT INTO checks (unit_key, variant_key, document_id, condition, rewriter, passed, "
                                 "reasons_json, result_json) VALUES (?, ?, ?, ?, 'rules', 1, '[]', ?)",
                                 (f"c-{key}", key, doc_id, condition, json.dumps(result)))
                    variant_keys.append(key)
                    versions.append((condition, "rules", key))
                for r in range(reviewers):
                    for rep in range(replicates):
                        for condition, rewriter, variant_key in versions:
                            unit = f"a{n:06d}"
                            scores = {m: float(rng.randint(1, 10 if m == "overall" else 5)) for m in METRICS}
                            review = {"summary": f"Summary {unit} " + "text " * 60,
                                      "strengths": ["strong " * 20], "weaknesses": ["weak " * 20],
                                      "suggestions": ["suggest " * 20], **scores}
                            write_assessment(conn, {
                                "unit_key": unit, "document_id": doc_id, "variant_key": variant_key,
                                "input_hash": f"i{unit}", "condition": condition, "rewriter": rewriter,
                                "reviewer": f"reviewer-{r}", "model": "mock/reviewer", "protocol": "default",
                                "form": "review-000@1", "replicate": rep, "status": "ok",
                                "review_json": json.dumps(review), "raw_text": json.dumps(review)}, scores)
                            conn.execute("INSERT INTO model_calls (unit_key, cache_key, provider, model, status, "
                                         "input_tokens, output_tokens, cost_usd, latency_s, params_json) VALUES "
                                         "(?, ?, 'mock', 'reviewer', 'ok', 3000, 400, 0.002, 1.5, '{}')",
                                         (unit, f"k{unit}"))
                            conn.execute("INSERT INTO annotations (unit_key, assessment_key, annotator, taxonomy, "
                                         "status, n_mentions) VALUES (?, ?, 'mock/annotator', 't', 'ok', ?)",
                                         (f"n{unit}", unit, len(MENTIONS)))
                            conn.executemany("INSERT INTO mentions (unit_key, position, aspect, polarity, phrase) "
                                             "VALUES (?, ?, ?, ?, ?)",
                                             [(f"n{unit}", i, *m) for i, m in enumerate(MENTIONS)])
                            annotation_keys.append(f"n{unit}")
                            review_keys.append(unit)
                            n += 1
        record_plan(store, "review", review_keys)
        record_plan(store, "rewrite", variant_keys)
        record_plan(store, "annotate", annotation_keys)
    finally:
        store.close()
    return n


def _time(url: str, repeat: int) -> tuple[float, float, int]:
    times, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        with urllib.request.urlopen(url) as response:  # noqa: S310 - the loopback viewer
            size = len(response.read())
            assert response.status == 200, url
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), size


def _diff_cases(n_lines: int = 30_000) -> dict[str, tuple[str, str]]:
    """Pairs of stored-document JSON for the word-diff rows (``n_lines`` lines in the long section)."""
    from rhetorica.report.viewer.diff import WORD_DIFF_CAP

    def doc(text: str) -> str:
        return json.dumps({"sections": [{"title": "Long", "text": text}]})

    lines = [f"line {i} of the long paragraph, words and more words here.\n" for i in range(n_lines)]
    changed = [line.replace("long", "lengthy") if i % 100 == 0 else line for i, line in enumerate(lines)]
    rng = random.Random(1)
    words = [rng.choice(VOCABULARY) for _ in range(WORD_DIFF_CAP)]
    edited = [rng.choice(("clearly", "may")) if i % 25 == 0 else w for i, w in enumerate(words)]
    size = f"{len(''.join(lines)) / 1e6:.1f} MB"
    return {f"diff, {size} of {n_lines:,} lines (1% changed)": (doc("".join(lines)), doc("".join(changed))),
            f"diff, {size} as one line (over the cap)": (doc(" ".join(l.strip() for l in lines)), doc(" ".join(l.strip() for l in changed))),
            f"diff, one {WORD_DIFF_CAP}-word paragraph (the cap)": (doc(" ".join(words)), doc(" ".join(edited)))}


def _time_diffs(repeat: int, n_lines: int = 30_000) -> None:
    from rhetorica.report.viewer.diff import document_diff

    for name, (a, b) in _diff_cases(n_lines).items():
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            document_diff(a, b)
            times.append(time.perf_counter() - start)
        print(f"{name:40s} {min(times):10.3f} {statistics.median(times):10.3f} {len(a) / 1e3:8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=500)
    parser.add_argument("--reviewers", type=int, default=4)
    parser.add_argument("--replicates", type=int, default=4)
    parser.add_argument("--words", type=int, default=2000, help="words per synthetic paper")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, default=None, help="build the store here and keep it")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 10 papers of 200 words, one request per page")
    args = parser.parse_args()
    if args.smoke:
        args.papers, args.reviewers, args.replicates, args.words, args.repeat = 10, 4, 4, 200, 1

    from rhetorica.report.viewer.server import ViewerServer

    with tempfile.TemporaryDirectory() as tmp:
        run_dir = args.keep or Path(tmp) / "run"
        start = time.perf_counter()
        n = build_store(run_dir, args.papers, args.reviewers, args.replicates, args.words)
        size_mb = (run_dir / "store.sqlite").stat().st_size / 1e6
        print(f"store: {n} assessments, {n * len(METRICS)} scores, {args.papers * len(CONDITIONS)} rewrites, "
              f"{size_mb:.0f} MB, built in {time.perf_counter() - start:.1f} s")
        server = ViewerServer(run_dir, 0, quiet=True)
        server.start_background()
        try:
            base = server.url
            pages = {
                "overview (opens on the primary metric)": base,
                "overview, every metric (metric=)": base + "?metric=",
                "overview, reviewer + metric filter": base + "?reviewer=reviewer-1&metric=overall",
                "papers behind one row": base + "cell?reviewer=reviewer-1&condition=confidence%3A%2B&rewriter=rules"
                                                "&metric=overall",
                "paper page (diff, grid, reviews, aspects)": base + f"paper?doc=paper{args.papers // 2:04d}&variant=confidence%3A%2B%40rules",
                "paper page, one reviewer": base + f"paper?doc=paper{args.papers - 1:04d}&reviewer=reviewer-{args.reviewers - 1}&rep={args.replicates - 2}",
                "call page": base + f"call?id={n // 2}",
            }
            print(f"{'page':40s} {'fastest s':>10s} {'median s':>10s} {'KB':>8s}")
            for name, url in pages.items():
                fastest, median, size = _time(url, args.repeat)
                print(f"{name:40s} {fastest:10.3f} {median:10.3f} {size / 1e3:8.0f}")
            _time_diffs(args.repeat, 3_000 if args.smoke else 30_000)
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
