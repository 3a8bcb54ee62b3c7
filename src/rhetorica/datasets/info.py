"""``rhetorica dataset info``: bin counts and what is missing, and the study inputs of a dataset."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from rhetorica.datasets.manifest import Manifest, PaperEntry, load_manifest

Preference = Literal["latex", "pdf", "markdown"]


@dataclass
class DatasetInfo:
    """Counts of a dataset: papers per bin, ids missing a PDF, a LaTeX match or reviews, and ids
    whose mean rating lies outside every bin (``outside_bins``; ``bins_span`` = lowest and highest
    bin edge, ``None`` without bins)."""

    manifest: Manifest
    per_bin: Counter[str]
    missing: dict[str, list[str]] = field(default_factory=dict)
    outside_bins: list[str] = field(default_factory=list)
    bins_span: tuple[float, float] | None = None


def dataset_info(root: Path) -> DatasetInfo:
    """Summarise the dataset in ``root``. Raises: DatasetError: not a dataset folder."""
    manifest = load_manifest(root)
    per_bin = Counter(p.bin or "no bin" for p in manifest.papers)
    missing = {
        "pdf": [p.id for p in manifest.papers if not p.pdf],
        "latex": [p.id for p in manifest.papers if not p.latex],
        "reviews": [p.id for p in manifest.papers if not p.n_reviews],
        "human scores": [p.id for p in manifest.papers if not p.human_scores],
    }
    bins = manifest.bins
    span = (min(b.low for b in bins), max(b.high for b in bins)) if bins else None
    outside = [p.id for p in manifest.papers
               if p.mean_rating is not None and not any(b.contains(p.mean_rating) for b in bins)]
    return DatasetInfo(manifest, per_bin, missing, outside, span)


def manuscript_path(root: Path, entry: PaperEntry, prefer: Preference = "latex") -> Path | None:
    """The file or folder a study reads for ``entry``: the preferred kind, else the others in the
    order latex, pdf, markdown; ``None`` when the paper has none."""
    order: list[Preference] = [prefer] + [k for k in ("latex", "pdf", "markdown") if k != prefer]
    for kind in order:
        rel = getattr(entry, kind)
        if rel:
            return root / rel
    return None
