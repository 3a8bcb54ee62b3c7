"""Coverage of the rule-based confidence rewriter on the six shared papers (prints numbers; not a test).

For each LaTeX paper in ``../shared/data/papers`` read as a study reads it, cut to the leading
sections within ``--max-words`` words (the demo's ``document_options.max_words``), both conditions
(``confidence:+``, ``confidence:-``) are applied with :mod:`rhetorica.rewriting.rule_based`. Per
variant the script prints: whether the text changed, the stance measure of the validation
(boosters/1k − hedges/1k, :mod:`rhetorica.validation.shift`) before and after, whether it moved in
the intended direction, whether the variant passes :func:`rhetorica.validation.validate.validate_variant`
(default thresholds, all-MiniLM-L6-v2 offline; ``--no-embeddings`` skips it) and the rewriter's
coverage (edits per rule family and per 1,000 words, :func:`rhetorica.rewriting.rule_based.describe_coverage`). A summary line gives changed / intended shift / passing out of 12.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_rule_coverage.py [--max-words 400] [--no-embeddings]``.

Measured 2026-12-01 on the six shared papers cut to 400 words (12 variants):
rules-v2: changed 5/12, intended shift 5/12, passing validation 5/12 (the other 7 identical);
rules-v3: changed 12/12, intended shift 12/12, passing validation 12/12.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rhetorica.documents import ReadOptions, read_document
from rhetorica.rewriting import rule_based

PAPERS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "papers"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-words", type=int, default=400)
    parser.add_argument("--no-embeddings", action="store_true", help="skip the full validation")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: two papers, no embeddings")
    args = parser.parse_args()
    if args.smoke:
        args.no_embeddings = True
        print("smoke: two papers, full validation (embeddings) skipped")

    from rhetorica.validation.shift import shift_checks
    from rhetorica.validation.validate import measure_text, validate_variant

    embedder = None
    if not args.no_embeddings:
        from rhetorica.validation.embeddings import DEFAULT_MODEL, load_embedder
        embedder = load_embedder(DEFAULT_MODEL)

    print(f"rules {rule_based.RULES_VERSION}, papers cut to {args.max_words} words")
    changed = shifted = passing = total = 0
    folders = sorted(p for p in PAPERS.iterdir() if p.is_dir())
    for folder in folders[:2] if args.smoke else folders:
        doc = read_document(folder, options=ReadOptions(max_words=args.max_words))
        body = "\n\n".join(s.text for s in doc.sections)
        for condition in rule_based.RULE_CONDITIONS:
            total += 1
            variant = rule_based.rewrite_document(doc, condition)
            is_changed = variant.content_hash != doc.content_hash
            new_body = "\n\n".join(s.text for s in variant.sections)
            check = shift_checks(condition, measure_text(body), measure_text(new_body))[0]
            line = (f"{doc.id:24s} {condition:13s} words={doc.word_count:4d} changed={int(is_changed)} "
                    f"stance {check.original:+7.2f} -> {check.variant:+7.2f} shift={int(check.present)}")
            coverage = rule_based.coverage_of(variant)
            if embedder is not None:
                result = validate_variant(doc, variant, embedder=embedder, condition=condition)
                passing += result.passed
                line += f" passed={int(result.passed)}"
                if not result.passed:
                    line += f" ({'; '.join(result.reasons)})"
            changed += is_changed
            shifted += check.present
            print(line)
            if coverage is not None:
                print(f"    coverage: {rule_based.describe_coverage(coverage)}")
    summary = f"changed {changed}/{total}, intended shift {shifted}/{total}"
    if embedder is not None:
        summary += f", passing validation {passing}/{total}"
    print(summary)


if __name__ == "__main__":
    main()
