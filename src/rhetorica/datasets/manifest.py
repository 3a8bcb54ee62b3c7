"""The dataset manifest: what a dataset folder holds, paper by paper.

Stored as ``manifest.yaml`` at the dataset root. Paths inside are relative to that root. No
credentials are ever written here (OpenReview logins come from the environment only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rhetorica.files import TextFileError, read_text_file, write_atomic
from rhetorica.problems import format_validation_error
from rhetorica.strata import HUMAN_STRATA

MANIFEST_NAME = "manifest.yaml"


class DatasetError(ValueError):
    """A dataset folder, manifest or source that cannot be used; the message names it and the problem."""


class RatingBin(BaseModel):
    """A human mean-rating bin ``[low, high)``; ``closed`` makes it ``[low, high]`` (the top bin)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    low: float
    high: float
    closed: bool = False

    @property
    def label(self) -> str:
        return f"[{self.low:g},{self.high:g}{']' if self.closed else ')'}"

    def contains(self, value: float) -> bool:
        return self.low <= value < self.high or (self.closed and value == self.high)


def default_bins() -> list[RatingBin]:
    """The six human mean-rating bins of the six-dimension study (STUDIES.md §2)."""

    return [RatingBin(low=low, high=high, closed=label.endswith("]")) for low, high, label in HUMAN_STRATA]


class ArxivCandidate(BaseModel):
    """One arXiv version compared with the submission PDF (scores in [0, 1])."""

    arxiv_id: str
    version: int
    title: str
    token_cosine: float | None = None
    jaccard5: float | None = None
    problem: str | None = None


class ArxivMatch(BaseModel):
    """The chosen arXiv version (``None`` fields when unmatched) and every candidate compared."""

    arxiv_id: str | None = None
    version: int | None = None
    token_cosine: float | None = None
    jaccard5: float | None = None
    candidates: list[ArxivCandidate] = Field(default_factory=list)
    reason: str | None = None


class PaperEntry(BaseModel):
    """One paper of a dataset.

    Attributes:
        id: stable id (OpenReview forum id, PeerRead id, ...), also the subfolder name.
        human_scores: reviewers' overall ratings on the venue's scale (e.g. 1-10).
        mean_rating: mean of ``human_scores`` (``None`` without scores).
        bin: label of the rating bin the paper was sampled from (``None`` when not sampled by bin).
        pdf / latex / markdown / reviews: paths relative to the dataset root (``None`` when missing).
        licence: licence stated by the source, verbatim, or ``None`` when the source states none.
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    title: str = ""
    venue: str | None = None
    decision: str | None = None
    human_scores: list[float] = Field(default_factory=list)
    human_confidences: list[float] = Field(default_factory=list)
    mean_rating: float | None = None
    bin: str | None = None
    pdf: str | None = None
    latex: str | None = None
    markdown: str | None = None
    reviews: str | None = None
    n_reviews: int = 0
    match: ArxivMatch | None = None
    provenance: dict[str, Any] = Field(default_factory=dict)
    licence: str | None = None


class Manifest(BaseModel):
    """A dataset: its source, how it was sampled, its papers and the problems met building it.

    ``imported_from`` is the resolved path an imported dataset was read from (``None`` when built).
    """

    model_config = ConfigDict(extra="forbid")

    name: str
    source: str
    imported_from: str | None = None
    venue: str | None = None
    seed: int | None = None
    bins: list[RatingBin] = Field(default_factory=list)
    per_bin: int | None = None
    invitations: dict[str, str] = Field(default_factory=dict)
    papers: list[PaperEntry] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)

    def paper(self, paper_id: str) -> PaperEntry:
        """The entry of ``paper_id``. Raises: KeyError: no such paper."""
        for entry in self.papers:
            if entry.id == paper_id:
                return entry
        raise KeyError(paper_id)


def save_manifest(root: Path, manifest: Manifest) -> Path:
    """Write ``root/manifest.yaml`` atomically; returns its path."""
    path = root / MANIFEST_NAME
    text = yaml.safe_dump(manifest.model_dump(mode="json"), sort_keys=False, allow_unicode=True)
    write_atomic(path, text.encode())
    return path


def load_manifest(root: Path) -> Manifest:
    """Read ``root/manifest.yaml``.

    Raises:
        DatasetError: no manifest, or one that is not UTF-8 YAML or does not validate (one line per
            problem, each naming the file and the key).
    """
    path = root / MANIFEST_NAME
    if not path.is_file():
        raise DatasetError(f"{root}: not a rhetorica dataset (no {MANIFEST_NAME})")

    try:
        data = yaml.safe_load(read_text_file(path, "manifest")) or {}
    except TextFileError as exc:
        raise DatasetError(str(exc)) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise DatasetError(f"{path}: not valid YAML{where}: {getattr(exc, 'problem', None) or 'syntax error'}") from exc
    if not isinstance(data, dict):
        raise DatasetError(f"{path}: a manifest must be a YAML mapping of keys to values")
    try:
        return Manifest.model_validate(data)
    except ValidationError as exc:
        raise DatasetError(format_validation_error(str(path), exc)) from exc
