"""Speed of the validation measures (prints numbers; not a test).

1. Lexical measures, manuscripts per second, rhetorica vs a naive stack. One "manuscript" is an
   (original, variant) pair of a shared paper: both texts' MTLD, Gunning Fog, hedges and boosters
   per 1,000 words, plus the pair's TF-IDF cosine. rhetorica also computes Advanced Guiraud and the
   protected-span comparison; the naive stack does not, so the comparison favours the naive stack.
   Naive stack: textstat.gunning_fog (no Gunning exclusions), lexicalrichness MTLD (its own
   tokenizer, ``<=`` threshold), one regex search per lexicon item for hedges/boosters, and a fresh
   scikit-learn TfidfVectorizer(ngram_range=(1, 2)) fitted per pair. Every repetition appends a
   distinct sentence so that no text-keyed cache (textstat has some) answers from memory.
2. Embeddings, passages per second with all-MiniLM-L6-v2 on 2 CPU threads, cold cache.

Set-up: ``make install-demo && .venv/bin/pip install -e ".[bench]"`` (the validation extra plus
``textstat`` and ``lexicalrichness``, benchmark-only installs).
Run: ``.venv/bin/python benchmarks/bench_validation.py [--repeat N] [--skip-embeddings]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path

from rhetorica.documents import read_document
from rhetorica.documents.models import Document
from rhetorica.validation.integrity import tfidf_cosine_tokens
from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon
from rhetorica.validation.spans import compare_spans
from rhetorica.tokenizer import tokenize
from rhetorica.validation.validate import measure_text

PAPERS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "papers"


def load_pairs(repeat: int) -> list[tuple[list[str], list[str]]]:
    """(original sections, variant sections) per paper and repetition, all texts distinct."""
    docs: list[Document] = [read_document(p) for p in sorted(PAPERS.iterdir()) if p.is_dir()]
    pairs = []
    for r in range(repeat):
        for doc in docs:
            original = [s.text for s in doc.sections]
            original[-1] += f" This is repetition number {r} of the benchmark."
            variant = [
                t.replace(" may ", " will ").replace(" can ", " clearly can ") for t in original
            ]
            pairs.append((original, variant))
    return pairs


def rhetorica_stack(original: list[str], variant: list[str]) -> None:
    a, b = tokenize("\n\n".join(original)), tokenize("\n\n".join(variant))
    measure_text(a)
    measure_text(b)
    tfidf_cosine_tokens(a, b)
    compare_spans(a, b)


def make_naive_stack():  # type: ignore[no-untyped-def]
    import textstat
    import textstat.backend.counts._count_syllables as textstat_syllables

    # textstat looks words up in NLTK's cmudict, which it tries to download; offline we let it use
    # its pyphen fallback for every word (a dict lookup either way, so the timing is comparable)
    textstat_syllables.get_cmudict = lambda lang: None
    from lexicalrichness import LexicalRichness
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    lexicon = load_metadiscourse_lexicon()
    patterns = [
        re.compile(r"\b" + re.escape(item) + r"\b") for item in lexicon.hedges | lexicon.boosters
    ]

    def naive(original: list[str], variant: list[str]) -> None:
        a, b = "\n\n".join(original), "\n\n".join(variant)
        for text in (a, b):
            textstat.gunning_fog(text)
            LexicalRichness(text).mtld(threshold=0.72)
            lower = text.lower()
            sum(len(p.findall(lower)) for p in patterns)
        matrix = TfidfVectorizer(ngram_range=(1, 2)).fit_transform([a, b])
        cosine_similarity(matrix[0], matrix[1])

    return naive


def time_stack(name: str, stack, pairs) -> float:  # type: ignore[no-untyped-def]
    """Manuscripts per CPU second (process time: robust to other load on a shared machine)."""
    stack(*pairs[0])  # warm-up: imports and lazy loads are not counted
    wall, cpu = time.perf_counter(), time.process_time()
    for original, variant in pairs[1:]:
        stack(original, variant)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(pairs) - 1
    print(
        f"{name:>10}: {n} manuscripts, {cpu:.2f} s CPU ({wall:.2f} s wall) = "
        f"{n / cpu:.1f} manuscripts per CPU second, {1000 * cpu / n:.1f} ms each"
    )
    return n / cpu


def bench_embeddings() -> None:
    import torch

    from rhetorica.validation.embeddings import SentenceTransformerEmbedder
    from rhetorica.validation.passages import split_passages

    torch.set_num_threads(2)
    embedder = SentenceTransformerEmbedder()
    passages: list[str] = []
    for path in sorted(PAPERS.iterdir()):
        if path.is_dir():
            texts = [s.text for s in read_document(path).sections]
            passages += split_passages(texts, embedder.count_tokens, embedder.max_tokens)
    tokens = [embedder.count_tokens(p) for p in passages]
    embedder.embed(["warm-up passage"])
    start, cpu = time.perf_counter(), time.process_time()
    embedder.embed(passages)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"embeddings: {len(passages)} passages (median {statistics.median(tokens):.0f} tokens, "
        f"max {max(tokens)}) in {elapsed:.2f} s wall on 2 threads = "
        f"{len(passages) / elapsed:.1f} passages/s; {cpu:.2f} s CPU = "
        f"{len(passages) / cpu:.1f} passages per CPU second (all-MiniLM-L6-v2, cold cache)"
    )
    start = time.perf_counter()
    embedder.embed(passages)
    print(f"embeddings: same passages again from the cache in {time.perf_counter() - start:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of the 6 papers")
    parser.add_argument("--skip-embeddings", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: one repetition, no embeddings")
    args = parser.parse_args()
    if args.smoke:
        args.repeat, args.skip_embeddings = 1, True
    pairs = load_pairs(args.repeat)
    ours = time_stack("rhetorica", rhetorica_stack, pairs)
    try:
        naive_stack = make_naive_stack()
    except ImportError as exc:
        if not args.smoke:
            raise
        print(f"smoke: naive stack unavailable ({exc}); comparison skipped (install the bench extra)")
    else:
        naive = time_stack("naive", naive_stack, pairs)
        print(f"speed-up (CPU time): {ours / naive:.1f}x")
    if not args.skip_embeddings:
        bench_embeddings()


if __name__ == "__main__":
    main()
