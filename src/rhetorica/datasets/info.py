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
    """Counts of a dataset: papers per bin, and ids missing a PDF, a LaTeX match or reviews."""

    manifest: Manifest
    per_bin: Counter[str]
    missing: dict[str, list[str]] = field(default_factory=dict)


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
    return DatasetInfo(manifest, per_bin, missing)


def manuscript_path(root: Path, entry: PaperEntry, prefer: Preference = "latex") -> Path | None:
    """The file or folder a study reads for ``entry``: the preferred kind, else the others in the
    order latex, pdf, markdown; ``None`` when the paper has none."""
    order: list[Preference] = [prefer] + [k for k in ("latex", "pdf", "markdown") if k != prefer]
    for kind in order:
        rel = getattr(entry, kind)
        if rel:
            return root / rel
    return None
