"""Human audit of review rewrites (the review-metric study's check: faithfulness 1-5 and
"equivalent feedback" yes/no, two annotators per pair).

:func:`write_sheets` samples pairs and writes one CSV sheet per annotator (same pairs, same order,
blank answer columns); :func:`read_sheets` reads the filled sheets back, every unusable answer a
listed problem; :func:`audit_summary` gives the means per annotator and the agreement measures of
:mod:`rhetorica.analysis.agreement`.
"""

from __future__ import annotations

import csv
import random
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from rhetorica.analysis.agreement import cohen_kappa, exact_agreement, krippendorff_alpha, within_agreement
from rhetorica.datasets.importers import REWRITES_FILE
from rhetorica.datasets.manifest import DatasetError, load_manifest
from rhetorica.documents.reviews.model import load_reviews

SHEET_COLUMNS = ["pair_id", "annotator", "original", "rewrite", "faithfulness", "equivalent", "comment"]
FAITHFULNESS = (1, 2, 3, 4, 5)
_YES, _NO = {"yes", "y", "1", "true"}, {"no", "n", "0", "false"}
ANNOTATOR_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""An annotator name (it becomes part of a file name): ASCII letters, digits, ``_`` and ``-``."""
_NEEDED = ("pair_id", "faithfulness", "equivalent")


@dataclass(frozen=True)
class AuditPair:
    """One (original, rewrite) review pair to annotate."""

    pair_id: str
    original: str
    rewrite: str


def pairs_from_dataset(root: Path) -> list[AuditPair]:
    """Every (original, rewrite) pair of a dataset folder imported with ``rhetorica dataset import``
    (``papers/<id>/review_rewrites.json``), in paper and review order.

    Raises:
        DatasetError: not a dataset folder, or no rewrite in it.
    """

    pairs = []
    for entry in load_manifest(root).papers:
        path = root / "papers" / entry.id / REWRITES_FILE
        if not path.is_file():
            continue
        originals = {d.id: d for d in load_reviews(root / "papers" / entry.id / "reviews.json")}
        for variant in load_reviews(path):
            original = originals[variant.metadata["original_id"]]
            pairs.append(AuditPair(variant.id, original.to_markdown(), variant.to_markdown()))
    if not pairs:
        raise DatasetError(f"{root}: no review rewrite pairs (import them with 'rhetorica dataset import')")
    return pairs


def write_sheets(pairs: list[AuditPair], out: Path, *, n: int, seed: int = 0,
                 annotators: tuple[str, ...] = ("A", "B")) -> list[Path]:
    """Sample ``n`` pairs (all when fewer) and write ``out/audit_<annotator>.csv`` per annotator.

    Raises:
        ValueError: ``n < 1``; fewer than two annotators; a name not matching :data:`ANNOTATOR_NAME`
            or given twice; ``out`` exists and is not a folder.
    """
    if n < 1 or len(annotators) < 2:
        raise ValueError("an audit needs n >= 1 pairs and at least two annotators")
    bad = [a for a in annotators if not ANNOTATOR_NAME.fullmatch(a)]
    if bad:
        raise ValueError(f"annotator name(s) {', '.join(map(repr, bad))}: use 1-64 ASCII letters, digits, '_' or '-'")
    twice = sorted({a for a in annotators if annotators.count(a) > 1})
    if twice:
        raise ValueError(f"annotator name(s) given twice: {', '.join(twice)}")
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: is a file; --out needs a folder")
    chosen = sorted(random.Random(seed).sample(range(len(pairs)), min(n, len(pairs))))
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for annotator in annotators:
        path = out / f"audit_{annotator}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, SHEET_COLUMNS)
            writer.writeheader()
            for i in chosen:
                p = pairs[i]
                writer.writerow({"pair_id": p.pair_id, "annotator": annotator, "original": p.original,
                                 "rewrite": p.rewrite, "faithfulness": "", "equivalent": "", "comment": ""})
        paths.append(path)
    return paths


def read_sheets(paths: list[Path]) -> tuple[pd.DataFrame, list[str]]:
    """Filled sheets as a long table (pair_id, annotator, faithfulness 1-5 or NaN, equivalent 1/0 or
    NaN) and the problems (each names file, line and value). Blank answers are missing, not errors.
    A sheet that is not UTF-8 CSV, lacks a ``pair_id``, ``faithfulness`` or ``equivalent`` column,
    or has no row is one problem naming the file, and none of its rows is used."""
    rows, problems = [], []
    for path in paths:
        try:
            with path.open(newline="", encoding="utf-8-sig") as fh:
                reader = csv.DictReader(fh)
                sheet = list(enumerate(reader, start=2))
                columns = reader.fieldnames or []
        except (OSError, UnicodeError, csv.Error) as exc:
            problems.append(f"{path}: not a readable CSV sheet ({exc}); sheet skipped")
            continue
        lacking = [c for c in _NEEDED if c not in columns]
        if lacking:
            problems.append(f"{path}: no {', '.join(lacking)} column (an audit sheet has "
                            f"{', '.join(SHEET_COLUMNS)}); sheet skipped")
            continue
        if not sheet:
            problems.append(f"{path}: no rows; sheet skipped")
            continue
        for line, row in sheet:
            where = f"{path.name}:{line}"
            faith, equiv = (row.get("faithfulness") or "").strip(), (row.get("equivalent") or "").strip().lower()
            f_value = e_value = np.nan
            if faith:
                if faith.isdigit() and int(faith) in FAITHFULNESS:
                    f_value = float(faith)
                else:
                    problems.append(f"{where}: faithfulness {faith!r} is not one of 1-5")
            if equiv:
                if equiv in _YES or equiv in _NO:
                    e_value = 1.0 if equiv in _YES else 0.0
                else:
                    problems.append(f"{where}: equivalent {equiv!r} is not yes/no")
            rows.append({"pair_id": row.get("pair_id"), "annotator": row.get("annotator") or path.stem,
                         "faithfulness": f_value, "equivalent": e_value})
    return pd.DataFrame(rows, columns=["pair_id", "annotator", "faithfulness", "equivalent"]), problems


def audit_summary(answers: pd.DataFrame) -> dict[str, object]:
    """Means per annotator and agreement of the first two annotators.

    Returns:
        ``per_annotator``: DataFrame (annotator, rows, rated_faithfulness, rated_equivalent,
        mean_faithfulness, pct_equivalent): rows read, rows with a usable answer of each kind, and
        the mean / percentage over those answers;
        ``within_one``, ``exact_faithfulness``, ``exact_equivalent``: shares in [0, 1];
        ``kappa_equivalent`` (Cohen), ``kappa_faithfulness`` (linear-weighted Cohen),
        ``alpha_faithfulness`` (Krippendorff, ordinal), ``alpha_equivalent`` (nominal).

    Raises:
        ValueError: fewer than two annotators, or no pair rated by both.
    """

    annotators = list(dict.fromkeys(answers["annotator"]))
    if len(annotators) < 2:
        raise ValueError(f"an agreement needs two annotators, found {annotators}")
    per = answers.groupby("annotator", sort=False).agg(
        rows=("pair_id", "size"), rated_faithfulness=("faithfulness", "count"),
        rated_equivalent=("equivalent", "count"), mean_faithfulness=("faithfulness", "mean"),
        pct_equivalent=("equivalent", lambda s: 100 * s.mean())).reset_index()
    wide = answers.pivot_table(index="pair_id", columns="annotator", values=["faithfulness", "equivalent"],
                               aggfunc="first", dropna=False)
    a, b = annotators[:2]
    fa, fb = wide["faithfulness"][a].to_numpy(), wide["faithfulness"][b].to_numpy()
    ea, eb = wide["equivalent"][a].to_numpy(), wide["equivalent"][b].to_numpy()
    return {
        "per_annotator": per, "annotators": (a, b),
        "within_one": within_agreement(fa, fb), "exact_faithfulness": exact_agreement(fa, fb),
        "exact_equivalent": exact_agreement(ea, eb),
        "kappa_faithfulness": cohen_kappa(fa, fb, categories=FAITHFULNESS, weights="linear"),
        "kappa_equivalent": cohen_kappa(ea, eb, categories=(0, 1)),
        "alpha_faithfulness": krippendorff_alpha(np.vstack([fa, fb]), "ordinal"),
        "alpha_equivalent": krippendorff_alpha(np.vstack([ea, eb]), "nominal"),
    }
