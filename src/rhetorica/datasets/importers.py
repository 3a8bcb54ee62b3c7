"""Importers for review datasets users already have, into the dataset folder shape.

- **PeerRead** folders (Kang et al. 2018, "A Dataset of Peer Reviews (PeerRead)", NAACL):
  ``[<split>/]reviews/<id>.json`` (title, abstract, ``accepted``, ``reviews`` with ``comments``,
  ``RECOMMENDATION``, ``REVIEWER_CONFIDENCE``, ``IS_META_REVIEW``) and optional
  ``[<split>/]parsed_pdfs/<id>.pdf.json`` (``metadata.sections`` with ``heading`` / ``text``; the
  author and email fields there are not copied). Meta-reviews are skipped.
- **JSONL of papers**: one paper per line, ``{"id", "title", "decision", "text"?, "reviews": [...]}``
  — or one review per line, ``{"paper_id", "text" or fields, "rating", "confidence"}``, in every
  layout :mod:`rhetorica.documents.reviews.lines` reads (section names in their several
  spellings, ``full_review_text``, PeerPrism's human and rewritten partitions); source ids kept
  verbatim; a file of rewrites imports its human originals, with a warning.
- **JSONL of (original, rewrite) review pairs**: ``{"paper_id", "review_id", "original", "rewrite",
  "rewriter"?}``; originals go to ``reviews.json``, rewrites to ``review_rewrites.json`` (each linked
  to its original by ``metadata.original_id``) so they can be judged without rewriting again.

A line or file that cannot be used is a listed problem naming it; the rest is imported. Ratings
are checked against a declared scale (:class:`RatingScale`; default 1-10 overall, 1-5 confidence):
a value outside it is a listed problem naming file and line and is left missing, never clipped.
Files are read as UTF-8 (a leading byte-order mark is accepted). :func:`import_dataset` refuses an
output folder that holds anything but an earlier run of the same import.
"""

from __future__ import annotations

import json
import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rhetorica.files import write_atomic
from rhetorica.datasets.manifest import (
    MANIFEST_NAME,
    DatasetError,
    Manifest,
    PaperEntry,
    load_manifest,
    save_manifest,
    default_bins,
)
from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.documents.reviews.model import REVIEWS_FILE, review_document, save_reviews
from rhetorica.documents.models import Document
from rhetorica.datasets.sampling import bin_label
from rhetorica.documents.reviews.jsonl import rewrites_warning
from rhetorica.documents.reviews.lines import read_review_records
from rhetorica.documents.reviews.pairs import PairsError, read_review_pairs
from rhetorica.problems import WARNING_PREFIX

REWRITES_FILE = "review_rewrites.json"


Layout = Literal["peerread", "papers", "pairs"]


@dataclass(frozen=True)
class RatingScale:
    """The venue's rating scales, inclusive: overall rating ``rating`` and reviewer ``confidence``
    (defaults 1-10 and 1-5, the ICLR/NeurIPS forms). A value outside its scale is refused."""

    rating: tuple[float, float] = (1.0, 10.0)
    confidence: tuple[float, float] = (1.0, 5.0)


def parse_scale(spec: str) -> tuple[float, float]:
    """``"LOW-HIGH"`` (e.g. ``"1-10"``, ``"0.5-5"``) -> ``(low, high)``.

    Raises:
        DatasetError: not two finite numbers with ``low < high``.
    """
    low, sep, high = spec.strip().partition("-")
    try:
        bounds = (float(low), float(high)) if sep else None
    except ValueError:
        bounds = None
    if bounds is None or not all(math.isfinite(b) for b in bounds) or bounds[0] >= bounds[1]:
        raise DatasetError(f"rating scale {spec!r}: expected LOW-HIGH with LOW < HIGH, e.g. 1-10")
    return bounds


def _score(raw: Any, what: str, problems: list[str], scale: tuple[float, float]) -> float | None:
    try:
        value = parse_rating(raw, scale_max=scale[1])
    except RatingError as exc:
        problems.append(f"{what}: {exc}")
        return None
    if value is not None and not scale[0] <= value <= scale[1]:
        problems.append(f"{what}: {value:g} is outside the scale {scale[0]:g}-{scale[1]:g} (left missing)")
        return None
    return value


def _read_text(path: Path) -> str:
    """UTF-8 text of ``path`` (a byte-order mark is dropped). Raises: DatasetError: not UTF-8."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason}); "
                           "convert it to UTF-8 and import again") from exc


def _paper_markdown(title: str, abstract: str, text: str) -> str:
    """``# title``, ``## Abstract`` and the text (a text already starting with the title keeps it)."""
    body = text.strip()
    parts = [f"# {title}"] if title and not body.startswith(f"# {title}") else []
    if abstract.strip():
        parts.append(f"## Abstract\n\n{abstract.strip()}")
    return "\n\n".join([*parts, body] if body else parts) + "\n"


def _write_paper(root: Path, pid: str, title: str, decision: str | None, reviews: list[Document],
                 text: str | None, source: str) -> PaperEntry:
    folder = root / "papers" / pid
    save_reviews(folder / REVIEWS_FILE, reviews)
    entry = PaperEntry(id=pid, title=title, decision=decision, reviews=f"papers/{pid}/{REVIEWS_FILE}",
                       n_reviews=len(reviews), provenance={"imported_from": source})
    scores = [r.human_scores[0] for r in reviews if r.human_scores]
    entry.human_scores = scores
    entry.human_confidences = [r.metadata["confidence"] for r in reviews if r.metadata.get("confidence") is not None]
    entry.mean_rating = sum(scores) / len(scores) if scores else None
    if text:
        write_atomic(folder / "paper.md", text.encode())
        entry.markdown = f"papers/{pid}/paper.md"
    return entry


def _finish(root: Path, name: str, source: str, papers: list[PaperEntry], problems: list[str]) -> Manifest:

    bins = default_bins()
    for entry in papers:
        entry.bin = bin_label(entry.mean_rating, bins) if entry.mean_rating is not None else None
    manifest = Manifest(name=name, source=source, bins=bins, papers=papers, problems=problems)
    save_manifest(root, manifest)
    return manifest


def _peerread_markdown(parsed: dict[str, Any], title: str) -> str:
    meta = parsed.get("metadata") or {}
    parts = [f"# {title}"] if title else []
    if meta.get("abstractText"):
        parts.append(f"## Abstract\n\n{meta['abstractText'].strip()}")
    for section in meta.get("sections") or []:
        heading = str(section.get("heading") or "").strip()
        body = str(section.get("text") or "").strip()
        parts.append(f"## {heading}\n\n{body}" if heading else body)
    return "\n\n".join(parts) + "\n"


def import_peerread(source: Path, root: Path, scale: RatingScale = RatingScale()) -> Manifest:
    """Import a PeerRead-layout folder (any ``reviews/`` folder below ``source``) into ``root``.

    ``RECOMMENDATION`` is checked against ``scale.rating``, ``REVIEWER_CONFIDENCE`` against
    ``scale.confidence``; a file that is not UTF-8 JSON is a listed problem.

    Raises:
        DatasetError: no ``reviews/*.json`` under ``source``.
    """
    files = sorted(source.rglob("reviews/*.json"))
    if not files:
        raise DatasetError(f"{source}: no PeerRead review files (expected reviews/<id>.json)")
    papers: list[PaperEntry] = []
    problems: list[str] = []
    for path in files:
        try:
            data = json.loads(_read_text(path))
        except (OSError, DatasetError, json.JSONDecodeError) as exc:
            problems.append(f"{path}: not readable JSON ({exc})")
            continue
        pid = str(data.get("id") or path.stem)
        reviews = []
        for i, review in enumerate(r for r in data.get("reviews") or [] if not r.get("IS_META_REVIEW")):
            where = f"{path} review {i + 1}"
            reviews.append(review_document(
                pid, i + 1, {"comments": str(review.get("comments") or "")},
                rating=_score(review.get("RECOMMENDATION"), f"{where} RECOMMENDATION", problems, scale.rating),
                confidence=_score(review.get("REVIEWER_CONFIDENCE"), f"{where} REVIEWER_CONFIDENCE", problems,
                                  scale.confidence),
                source=str(path), parser="peerread", parser_version="1"))
        parsed_path = path.parent.parent / "parsed_pdfs" / f"{path.stem}.pdf.json"
        text = None
        if parsed_path.is_file():
            try:
                text = _peerread_markdown(json.loads(_read_text(parsed_path)), str(data.get("title") or ""))
            except (OSError, DatasetError, json.JSONDecodeError) as exc:
                problems.append(f"{parsed_path}: not readable JSON ({exc}); paper text left out")
        accepted = data.get("accepted")
        decision = None if accepted is None else ("accept" if accepted else "reject")
        papers.append(_write_paper(root, pid, str(data.get("title") or ""), decision, reviews, text, str(path)))
    return _finish(root, source.name, "peerread", papers, problems)


def import_jsonl(path: Path, root: Path, scale: RatingScale = RatingScale()) -> Manifest:
    """Import a JSONL file of papers with reviews, or of single reviews, into ``root`` (every
    layout :func:`rhetorica.documents.reviews.lines.read_review_records` reads).

    Paper and review ids are kept verbatim (``paper_id: 0`` is paper ``"0"``). A paper line's
    ``title``, ``abstract`` and ``text`` become ``paper.md`` (``# title``, ``## Abstract``, then the
    text); ``rating`` / ``confidence`` are checked against ``scale``. A file of review rewrites is
    imported for its human originals (``original_text``, ``original_rating``), with a warning in
    the manifest's problems; a review with no text is a problem, never an empty review.

    Raises:
        DatasetError: the file cannot be read or holds no usable line.
    """

    lines: dict[str, dict[str, Any]] = {}
    try:
        records, problems = read_review_records(path, papers=lines)
    except OSError as exc:
        raise DatasetError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    warning = rewrites_warning(path, records, "to import the rewrites with their originals, import the file "
                               "with --layout pairs")
    if warning:
        problems.insert(0, f"{WARNING_PREFIX}{warning}")
    grouped: dict[str, dict[str, Any]] = {pid: {**paper, "reviews": []} for pid, paper in lines.items()}
    seen: dict[str, int] = {}
    for record in records:
        if record.paper_id is None:
            problems.append(f"{record.where}: no paper id ('paper_id', 'id' or 'forum')")
            continue
        if record.review_id is not None and record.review_id in seen:
            if record.rewrite_key is None:
                problems.append(f"{record.where}: review id {record.review_id!r} was read at line "
                                f"{seen[record.review_id]}; left out")
            continue
        if record.review_id is not None:
            seen[record.review_id] = record.line
        paper = grouped.setdefault(record.paper_id, {"reviews": []})
        paper.update(record.paper)
        paper["reviews"].append(record)
    if not grouped:
        first = f": {problems[0]}" if problems else ""
        raise DatasetError(f"{path}: no usable line ({len(problems)} problem(s){first})")
    papers = []
    for pid, paper in grouped.items():
        reviews = [review_document(pid, i, r.fields,
                                   rating=_score(r.rating, f"{r.where} rating", problems, scale.rating),
                                   confidence=_score(r.confidence, f"{r.where} confidence", problems,
                                                     scale.confidence),
                                   source=r.where, parser="jsonl", parser_version="2", review_id=r.review_id)
                   for i, r in enumerate(paper["reviews"], start=1)]
        title, abstract, text = (str(paper.get(k) or "") for k in ("title", "abstract", "text"))
        markdown = _paper_markdown(title, abstract, text) if text.strip() or abstract.strip() else None
        papers.append(_write_paper(root, pid, title, paper.get("decision"), reviews, markdown, str(path)))
    return _finish(root, path.stem, "jsonl", papers, problems)


def import_pairs(path: Path, root: Path, scale: RatingScale = RatingScale()) -> Manifest:
    """Import a JSONL file of (original, rewrite) review pairs into ``root`` (pairs carry no
    rating, so ``scale`` is unused; it is accepted so every importer is called alike). The pairs
    are read by :func:`rhetorica.documents.reviews.pairs.read_review_pairs`.

    Raises:
        DatasetError: the file is not UTF-8 or holds no usable pair.
    """

    try:
        imported = read_review_pairs(path)
    except PairsError as exc:
        raise DatasetError(str(exc)) from exc
    by_paper: dict[str, tuple[list[Document], list[Document]]] = {}
    for original in imported.originals:
        by_paper.setdefault(original.paper_id, ([], []))[0].append(original)
    for variant in imported.variants:
        by_paper[variant.paper_id][1].append(variant)
    papers = []
    for pid, (originals, variants) in by_paper.items():
        entry = _write_paper(root, pid, "", None, originals, None, str(path))
        save_reviews(root / "papers" / pid / REWRITES_FILE, variants)
        entry.provenance["review_rewrites"] = f"papers/{pid}/{REWRITES_FILE}"
        papers.append(entry)
    return _finish(root, path.stem, "jsonl-pairs", papers, imported.problems)


IMPORTERS = {"peerread": import_peerread, "papers": import_jsonl, "pairs": import_pairs}
_SOURCES = {"peerread": "peerread", "papers": "jsonl", "pairs": "jsonl-pairs"}  # Manifest.source per layout


def guess_layout(source: Path) -> Layout:
    """``peerread`` for a folder, ``pairs`` for a file whose name holds "pair", else ``papers``."""
    return "peerread" if source.is_dir() else ("pairs" if "pair" in source.name.lower() else "papers")


def import_dataset(source: Path, root: Path, layout: Layout, scale: RatingScale = RatingScale()) -> Manifest:
    """Import ``source`` with the importer of ``layout`` into the dataset folder ``root``.

    ``root`` must be new, empty, or hold an earlier import of the same ``source`` with the same
    layout (its manifest names both); that earlier import is replaced, paper folders included.

    Raises:
        DatasetError: ``root`` is a file or holds something else (the message says what), or the
            importer's own errors.
    """
    if root.exists() and not root.is_dir():
        raise DatasetError(f"{root}: is a file; --out needs a new or empty folder")
    if root.is_dir() and any(root.iterdir()):
        same = False
        if (root / MANIFEST_NAME).is_file():
            try:
                old = load_manifest(root)
                same = old.source == _SOURCES[layout] and old.imported_from == str(source.resolve())
            except DatasetError:
                same = False
        if not same:
            raise DatasetError(f"{root}: not empty and not an earlier import of {source} ({layout}); "
                               "import into a new or empty folder")
        for entry in old.papers:
            shutil.rmtree(root / "papers" / entry.id, ignore_errors=True)
    manifest = IMPORTERS[layout](source, root, scale)
    manifest.imported_from = str(source.resolve())
    save_manifest(root, manifest)
    return manifest

