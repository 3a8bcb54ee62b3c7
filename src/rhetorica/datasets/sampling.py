"""Stratified sampling of papers over human mean-rating bins (STUDIES.md §2: 20 per bin)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rhetorica.datasets.manifest import RatingBin


def bin_label(value: float, bins: Sequence[RatingBin]) -> str | None:
    """Label of the first bin containing ``value``; ``None`` when no bin does."""
    for b in bins:
        if b.contains(value):
            return b.label
    return None


def stratified_sample(means: dict[str, float], bins: Sequence[RatingBin], per_bin: int | None,
                      seed: int) -> dict[str, str]:
    """Choose up to ``per_bin`` paper ids from each bin, uniformly without replacement.

    Args:
        means: paper id -> mean human rating.
        bins: rating bins; a paper outside every bin is never chosen.
        per_bin: papers per bin (a bin with fewer papers gives all of them); ``None`` = all papers.
        seed: seed of the sampler; ids are sorted first, so the sample depends only on the ids,
            the means, ``per_bin`` and ``seed``.

    Returns:
        Chosen paper id -> bin label, in bin order then id order.

    Raises:
        ValueError: ``per_bin < 1``.
    """
    if per_bin is not None and per_bin < 1:
        raise ValueError(f"per_bin must be >= 1, got {per_bin}")
    rng = random.Random(seed)
    chosen: dict[str, str] = {}
    for b in bins:
        members = sorted(pid for pid, mean in means.items() if bin_label(mean, bins) == b.label)
        picked = members if per_bin is None or len(members) <= per_bin else rng.sample(members, per_bin)
        for pid in sorted(picked):
            chosen[pid] = b.label
    return chosen
