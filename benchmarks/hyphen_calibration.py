"""Calibration of the line-end hyphen rule (:mod:`rhetorica.documents.pdf.hyphens`; issue 39).

A hyphen at the end of a justified line is either the word's own (``lower-`` + ``bound``) or one
TeX set to break a word (``guide-`` + ``lines``); the reader keeps or drops it by the document's
usage and, when both pieces are words, by whether English writes the joined form solid: a word of
a list of English words of Zipf frequency >= ``T`` (wordfreq). This script chooses ``T`` on real
prose nobody here wrote, simulating a line-end break at every place one could fall:

- every occurrence of a hyphenated compound ``a-b`` (letters, >= 3 each) is broken after its
  hyphen; the right answer is to keep it;
- every occurrence of a word written solid is broken at each point leaving >= 3 letters on each
  side where both pieces are words; the right answer is to join it.

Each case is decided by :func:`~rhetorica.documents.pdf.hyphens.real_hyphen` with the document's
vocabulary (every word form of the same review, the broken occurrence itself not counted: the
joined or hyphenated form counts as written elsewhere only when the review writes it again), with
the solid-word list rebuilt for each ``T`` (the derivation of the shipped list,
``rhetorica/data/wordlists/README.md``) and the shipped list. Prints wrong choices per ``T``: kept
solid words (``over-training``), joined compounds (``lowerbound``), and their sum, by cases and by
distinct words.

Data: the manuscripts the reader is for, LaTeX sources (``--papers DIR``: each folder under DIR is
one document, its ``.tex`` files with comments, commands and inline math removed; the shared
papers of ``../shared/data/papers``), and reviews:
PeerPrism (https://github.com/Reviewerly-Inc/PeerPrism), the human reviews of its OpenReview
collection (``00_data_collection/data/*.jsonl``: ICLR 2021-2024, NeurIPS 2021-2024). The repository
carries no licence: it is read where it was fetched, for evaluation only; nothing of it is copied
here.

Run:
    PYTHONPATH=src python benchmarks/hyphen_calibration.py PEERPRISM_DIR [--papers DIR] [--json OUT]
    python benchmarks/hyphen_calibration.py --smoke     # three hand-written reviews, seconds
"""

from __future__ import annotations

import argparse
import json
import math
import re
import unittest.mock
from collections import Counter
from pathlib import Path

from wordfreq import get_frequency_dict

THRESHOLDS = (1.0, 1.5, 1.8, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 4.0)
COMPOUND = re.compile(r"(?<![A-Za-z0-9-])([A-Za-z]{3,})-([A-Za-z]{3,})(?![A-Za-z0-9-])")
SOLID = re.compile(r"(?<![A-Za-z0-9-])[a-z]{6,}(?![A-Za-z0-9-])")
WORD = re.compile(r"[a-z]+")

SMOKE_REVIEWS = [
    "The paper gives guidelines for a long-term study and performs well. The lower-bound is somewhat loose;"
    " some lines of the guide say what the training does over time.",
    "A well-known trade-off: overtraining hurts. The authors perform a follow-up with non-linear models.",
    "The guidelines are somewhat vague; the lower-bound proof and the multi-scale results need work.",
]


def zipf_words(zipf_min: float) -> frozenset[str]:
    """wordfreq 'en' (best) a-z words of Zipf frequency >= ``zipf_min``."""
    return frozenset(w for w, p in get_frequency_dict("en", "best").items()
                     if w.isascii() and w.isalpha() and w.islower() and math.log10(p * 1e9) >= zipf_min)


def solid_list(zipf_min: float) -> frozenset[str]:
    """The derivation of the shipped list at threshold ``zipf_min``: words of :func:`zipf_words`
    made of two such words of >= 3 letters each."""
    words = zipf_words(zipf_min)
    return frozenset(w for w in words if any(w[:i] in words and w[i:] in words for i in range(3, len(w) - 2)))


def cases(reviews: list[str]) -> list[tuple[str, str, frozenset[str], bool]]:
    """``(left, right, vocabulary, hyphen_is_real)`` for every simulated line-end break (module
    docstring); only breaks where both pieces are words of the review (elsewhere the rule joins
    without a list)."""
    out = []
    for text in reviews:
        lower = text.lower()
        forms = Counter(WORD.findall(lower)) + Counter(m.group(0).lower() for m in COMPOUND.finditer(text))
        for m in COMPOUND.finditer(text):
            left, right = m.group(1).lower(), m.group(2).lower()
            vocabulary = frozenset(forms - Counter({f"{left}-{right}": 1}))
            if left in vocabulary and right in vocabulary:
                out.append((left, right, vocabulary, True))
        for m in SOLID.finditer(text):
            word = m.group(0)
            vocabulary = frozenset(forms - Counter({word: 1}))
            for i in range(3, len(word) - 2):
                if word[:i] in vocabulary and word[i:] in vocabulary:
                    out.append((word[:i], word[i:], vocabulary, False))
    return out


def errors(found: list[tuple[str, str, frozenset[str], bool]], solid: frozenset[str]) -> dict[str, int]:
    """Wrong choices of :func:`~rhetorica.documents.pdf.hyphens.real_hyphen` with ``solid`` as its list."""
    from rhetorica.documents.pdf import hyphens

    kept, glued, kept_types, glued_types = 0, 0, set(), set()
    with unittest.mock.patch.object(hyphens, "solid_words", lambda: solid):
        for left, right, vocabulary, real in found:
            said = hyphens.real_hyphen(left, right, vocabulary)
            if real and not said:
                glued, _ = glued + 1, glued_types.add(left + right)
            elif said and not real:
                kept, _ = kept + 1, kept_types.add(left + right)
    return {"solid kept split": kept, "compounds joined": glued, "wrong": kept + glued,
            "solid kept split (words)": len(kept_types), "compounds joined (words)": len(glued_types)}


def read_reviews(folder: Path) -> list[str]:
    """The human reviews' texts of PeerPrism's ``00_data_collection/data/*.jsonl``."""
    texts = []
    for path in sorted((folder / "00_data_collection" / "data").glob("*.jsonl")):
        for line in filter(None, path.read_text(encoding="utf-8").split("\n")):  # not splitlines: U+2028 in texts
            texts += [r.get("text", "") for r in json.loads(line).get("reviews", [])]
    return texts


def read_papers(folder: Path) -> list[str]:
    """One text per folder under ``folder``: its ``.tex`` files less comments, commands and inline math."""
    texts = []
    for paper in sorted(p for p in folder.iterdir() if p.is_dir()):
        text = "\n".join(f.read_text(encoding="utf-8", errors="ignore") for f in sorted(paper.rglob("*.tex")))
        text = re.sub(r"(?<!\\)%.*", "", text)
        text = re.sub(r"\$[^$]*\$", " ", re.sub(r"\\[A-Za-z]+\*?(\[[^\]]*\])?", " ", text))
        texts.append(text)
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peerprism", nargs="?", type=Path, help="a checkout of PeerPrism")
    parser.add_argument("--smoke", action="store_true", help="three hand-written reviews")
    parser.add_argument("--papers", type=Path, help="a folder of LaTeX projects, one per subfolder")
    parser.add_argument("--json", type=Path, help="write the tables as JSON here")
    args = parser.parse_args()
    corpora = {}
    if args.smoke:
        corpora["reviews"] = SMOKE_REVIEWS
    elif args.peerprism is None:
        parser.error("give a PeerPrism checkout, or --smoke")
    else:
        corpora["reviews"] = read_reviews(args.peerprism)
    if args.papers:
        corpora["papers"] = read_papers(args.papers)
    from rhetorica.documents.pdf.hyphens import solid_words

    lists = [*((f"T={t}", solid_list(t)) for t in THRESHOLDS), ("no list", frozenset()), ("shipped", solid_words())]
    rows: dict[str, dict[str, dict[str, float]]] = {}
    for corpus, texts in corpora.items():
        found = cases(texts)
        real = sum(c[3] for c in found)
        print(f"\n{corpus}: {len(texts)} documents; line-end breaks whose two pieces are both words of the "
              f"document: {real} in compounds (keep), {len(found) - real} in solid words (join)")
        print(f"{'list':>10} {'solid kept split':>17} {'compounds joined':>17} {'wrong':>7} {'rate':>7} {'(words)':>14}")
        for name, solid in lists:
            row = errors(found, solid)
            row["rate"] = row["wrong"] / max(len(found), 1)
            rows.setdefault(name, {})[corpus] = row
            print(f"{name:>10} {row['solid kept split']:>17} {row['compounds joined']:>17} {row['wrong']:>7} "
                  f"{row['rate']:>7.4f} {row['solid kept split (words)']:>6} / {row['compounds joined (words)']:<6}")
    summed = {name: sum(r["rate"] for r in by.values()) for name, by in rows.items() if name.startswith("T=")}
    best = min(summed, key=lambda name: (summed[name], name))
    print(f"\nsum of the corpora's error rates: " + ", ".join(f"{n} {v:.4f}" for n, v in summed.items())
          + f"; least: {best}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
