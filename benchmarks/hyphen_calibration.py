"""Calibration of the line-end hyphen rule (:mod:`rhetorica.documents.pdf.hyphens`; issue 39).

A hyphen at the end of a justified line is either the word's own (``lower-`` + ``bound``) or one
TeX set to break a word (``guide-`` + ``lines``); the reader keeps or drops it by the document's
usage and, when both pieces are words, by whether English writes the joined form solid: a word of
a list of English words of Zipf frequency >= ``T`` (wordfreq), or, right after a particle prefix
(``out``, ``over``, ``under``), a word of Zipf frequency >= ``P``. This script chooses ``T`` (with no
particle list), then ``P`` (with the list at the chosen ``T``), on real prose nobody here wrote,
simulating a line-end break everywhere TeX could set one:

- every occurrence of a hyphenated compound ``a-b`` (letters, >= 2 each) is broken after its
  hyphen (TeX breaks a compound at its own hyphen); the right answer is to keep it;
- every occurrence of a word written solid (>= 5 letters) is broken at each of TeX's hyphenation
  points: Liang's US English patterns and exceptions as TeX Live ships them (``hyphen.tex``, found
  with ``kpsewhich``; Liang, F. M. (1983). *Word Hy-phen-a-tion by Com-put-er*, PhD thesis,
  Stanford), with TeX's defaults ``\\lefthyphenmin=2``, ``\\righthyphenmin=3``; the right answer is
  to join it. Without TeX Live, every point leaving 2 and 3 letters is taken instead (said in the
  output).

Each case is decided by :func:`~rhetorica.documents.pdf.hyphens.real_hyphen` with the document's
vocabulary (every word form of the same document, the broken occurrence itself not counted: the
joined or hyphenated form counts as written elsewhere only when the document writes it again), with
the solid-word list rebuilt for each ``T`` (the derivation of the shipped list,
``rhetorica/data/wordlists/README.md``), with no list, and with the shipped list. Prints wrong
choices per list: kept solid words (``over-training``), joined compounds (``lowerbound``), their
sum and its share of the breaks, by cases and by distinct words; then the threshold with the least
sum of the corpora's error rates.

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
import subprocess
import unittest.mock
from collections import Counter
from pathlib import Path

from wordfreq import get_frequency_dict

THRESHOLDS = (1.0, 1.5, 1.8, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 4.0)
PARTICLE_THRESHOLDS = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)
COMPOUND = re.compile(r"(?<![A-Za-z0-9-])([A-Za-z]{2,})-([A-Za-z]{2,})(?![A-Za-z0-9-])")
SOLID = re.compile(r"(?<![A-Za-z0-9-])[a-z]{5,}(?![A-Za-z0-9-])")
LEFT_MIN, RIGHT_MIN = 2, 3  # TeX's \lefthyphenmin and \righthyphenmin for English
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


def particle_list(zipf_min: float) -> frozenset[str]:
    """The derivation of the shipped particle list at threshold ``zipf_min``: words of
    :func:`zipf_words` made of a particle prefix and at least 3 more letters."""
    from rhetorica.documents.pdf.hyphens import PARTICLES

    return frozenset(w for w in zipf_words(zipf_min) if any(w.startswith(p) and len(w) >= len(p) + 3 for p in PARTICLES))


class Hyphenator:
    """TeX's hyphenation points of a word: Liang's patterns and exceptions read from a ``hyphen.tex``
    (``\\patterns{...}``, ``\\hyphenation{...}``); with none, every point (a stand-in, said as such)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.patterns: dict[str, list[int]] = {}
        self.exceptions: dict[str, list[int]] = {}
        if path is None:
            return
        text = re.sub(r"%.*", "", path.read_text(encoding="latin-1"))
        for pattern in re.search(r"\\patterns\{(.*?)\}", text, re.S).group(1).split():  # type: ignore[union-attr]
            letters = re.sub(r"\d", "", pattern)
            values, k = [0] * (len(letters) + 1), 0
            for ch in pattern:
                if ch.isdigit():
                    values[k] = int(ch)
                else:
                    k += 1
            self.patterns[letters] = values
        found = re.search(r"\\hyphenation\{(.*?)\}", text, re.S)
        for word in found.group(1).split() if found else []:
            parts = word.lower().split("-")
            self.exceptions["".join(parts)] = [sum(map(len, parts[:i])) for i in range(1, len(parts))]

    def points(self, word: str) -> list[int]:
        """Where TeX may break ``word`` (lower case): indices ``i`` splitting ``word[:i]``/``word[i:]``."""
        if self.path is None:
            found = list(range(1, len(word)))
        elif word in self.exceptions:
            found = self.exceptions[word]
        else:
            padded = f".{word}."
            values = [0] * (len(padded) + 1)
            for i in range(len(padded)):
                for j in range(i + 1, len(padded) + 1):
                    for k, v in enumerate(self.patterns.get(padded[i:j], ())):
                        values[i + k] = max(values[i + k], v)
            found = [i for i in range(1, len(word)) if values[i + 1] % 2]
        return [i for i in found if LEFT_MIN <= i <= len(word) - RIGHT_MIN]


def tex_patterns() -> Path | None:
    """TeX Live's ``hyphen.tex`` (``kpsewhich``), or ``None``."""
    try:
        found = subprocess.run(["kpsewhich", "hyphen.tex"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return None
    return Path(found) if found else None


def cases(texts: list[str], hyphenator: Hyphenator) -> list[tuple[str, str, frozenset[str], bool]]:
    """``(left, right, vocabulary, hyphen_is_real)`` for every simulated line-end break (module
    docstring)."""
    out = []
    for text in texts:
        forms = Counter(WORD.findall(text.lower())) + Counter(m.group(0).lower() for m in COMPOUND.finditer(text))
        for m in COMPOUND.finditer(text):
            left, right = m.group(1).lower(), m.group(2).lower()
            out.append((left, right, frozenset(forms - Counter({f"{left}-{right}": 1})), True))
        for m in SOLID.finditer(text):
            word = m.group(0)
            vocabulary = frozenset(forms - Counter({word: 1}))
            out += [(word[:i], word[i:], vocabulary, False) for i in hyphenator.points(word)]
    return out


def errors(found: list[tuple[str, str, frozenset[str], bool]], solid: frozenset[str],
           particle: frozenset[str]) -> dict[str, int]:
    """Wrong choices of :func:`~rhetorica.documents.pdf.hyphens.real_hyphen` with ``solid`` and
    ``particle`` as its lists."""
    from rhetorica.documents.pdf import hyphens

    kept, glued, kept_types, glued_types = 0, 0, set(), set()
    with unittest.mock.patch.object(hyphens, "solid_words", lambda: solid), \
            unittest.mock.patch.object(hyphens, "particle_words", lambda: particle):
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


def table(found: dict[str, list[tuple[str, str, frozenset[str], bool]]], title: str,
          lists: list[tuple[str, frozenset[str], frozenset[str]]]) -> dict[str, dict[str, dict[str, float]]]:
    """Print and return the wrong choices per corpus of each ``(name, general list, particle list)``."""
    rows: dict[str, dict[str, dict[str, float]]] = {}
    for corpus, breaks in found.items():
        print(f"\n{corpus}, {title}")
        print(f"{'list':>10} {'solid kept split':>17} {'compounds joined':>17} {'wrong':>7} {'rate':>8} {'(words)':>14}")
        for name, solid, particle in lists:
            row = errors(breaks, solid, particle)
            row["rate"] = row["wrong"] / max(len(breaks), 1)
            row["breaks"] = len(breaks)
            rows.setdefault(name, {})[corpus] = row
            print(f"{name:>10} {row['solid kept split']:>17} {row['compounds joined']:>17} {row['wrong']:>7} "
                  f"{row['rate']:>8.5f} {row['solid kept split (words)']:>6} / {row['compounds joined (words)']:<6}")
    return rows


def best(rows: dict[str, dict[str, dict[str, float]]], prefix: str = "T=") -> str:
    """Print the sums of the corpora's error rates of the rows named ``prefix...``; return the least."""
    summed = {name: sum(r["rate"] for r in by.values()) for name, by in rows.items() if name.startswith(prefix)}
    least = min(summed, key=lambda name: (summed[name], name))
    print("\nsum of the corpora's error rates: " + ", ".join(f"{n} {v:.5f}" for n, v in summed.items())
          + f"; least: {least}")
    return least


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
    from rhetorica.documents.pdf.hyphens import particle_words, solid_words

    hyphenator = Hyphenator(tex_patterns())
    print(f"hyphenation points: {hyphenator.path or 'every point (TeX Live hyphen.tex not found)'}")
    found = {corpus: cases(texts, hyphenator) for corpus, texts in corpora.items()}
    for corpus, breaks in found.items():
        real = sum(c[3] for c in breaks)
        print(f"{corpus}: {len(corpora[corpus])} documents; line-end breaks: {real} in compounds (keep), "
              f"{len(breaks) - real} in solid words (join)")
    none: frozenset[str] = frozenset()
    rows = table(found, "general list, no particle list",
                 [*((f"T={t}", solid_list(t), none) for t in THRESHOLDS), ("no list", none, none)])
    best_t = best(rows)
    general = solid_list(float(best_t[2:]))
    rows |= table(found, f"particle list, general list at {best_t}",
                  [*((f"P={p}", general, particle_list(p)) for p in PARTICLE_THRESHOLDS),
                   ("shipped", solid_words(), particle_words())])
    best(rows, "P=")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
