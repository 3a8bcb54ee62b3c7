"""``rhetorica dataset openreview``: a venue's submissions → a sampled, cached dataset folder.

Steps, each resumable: query the venue (cached per query), drop withdrawn and desk-rejected
submissions, parse ratings, sample over rating bins with a seed, write each sampled paper's reviews
as review documents, download its PDF (cached; rate-limited downloads are left for a later run),
write the manifest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from rhetorica.datasets.downloads import DownloadLog, RetryPolicy, download_pdfs
from rhetorica.datasets.manifest import (
    MANIFEST_NAME,
    Manifest,
    PaperEntry,
    RatingBin,
    default_bins,
    load_manifest,
    save_manifest,
)
from rhetorica.datasets.openreview_source import ApiVersion, NoteCache, fetch_venue, make_client
from rhetorica.documents.reviews.model import REVIEWS_FILE, review_document, save_reviews
from rhetorica.datasets.sampling import stratified_sample
from importlib import metadata


@dataclass
class OpenReviewBuild:
    """What a build did: sampled papers per bin, exclusions, downloads, requests and problems."""

    root: Path
    invitations: dict[str, str]
    submissions: int
    excluded: Counter[str]
    per_bin: Counter[str]
    downloads: DownloadLog
    note_requests: int
    problems: list[str] = field(default_factory=list)


def _version() -> str:
    try:
        return metadata.version("openreview-py")
    except Exception:  # noqa: BLE001 - provenance only
        return "unknown"


def build_openreview(venue: str, root: Path, *, api: ApiVersion = "v2", baseurl: str | None = None,
                     bins: list[RatingBin] | None = None, per_bin: int | None = 20, seed: int = 0,
                     download: bool = True, max_retries: int = 3, max_wait_s: float = 60.0) -> OpenReviewBuild:
    """Build (or resume) the dataset of ``venue`` in ``root``.

    Args:
        venue: OpenReview venue id, e.g. ``ICLR.cc/2026/Conference``.
        root: dataset folder (created; an existing one is resumed, its arXiv matches kept).
        api: ``v2`` (venues from 2024) or ``v1`` (older venues).
        baseurl: API base URL (default the public one for ``api``).
        bins: rating bins (default the six bins of STUDIES.md §2).
        per_bin: papers per bin; ``None`` keeps every paper with a valid rating.
        seed: sampling seed.
        download: fetch the sampled papers' PDFs.
        max_retries / max_wait_s: retries of a rate-limited PDF download and the cap on one wait.

    Raises:
        DatasetError: the venue returned no submission (the invitation used is named).
    """
    bins = bins or default_bins()
    client = make_client(api, baseurl)
    cache = NoteCache(root / "_cache" / "openreview")
    data = fetch_venue(client, venue, api, cache)
    problems: list[str] = []
    means: dict[str, float] = {}
    for sub in data.submissions:
        problems.extend(sub.problems)
        if sub.ratings:
            means[sub.id] = sum(sub.ratings) / len(sub.ratings)
        else:
            problems.append(f"{sub.id}: no review with a valid rating; not sampled")
    chosen = stratified_sample(means, bins, per_bin, seed)
    previous = {p.id: p for p in load_manifest(root).papers} if (root / MANIFEST_NAME).is_file() else {}
    by_id = {s.id: s for s in data.submissions}
    papers: list[PaperEntry] = []
    targets: dict[str, Path] = {}
    for pid, label in chosen.items():
        sub = by_id[pid]
        folder = root / "papers" / pid
        reviews = [review_document(pid, i, r.fields, rating=r.rating, confidence=r.confidence,
                                   source=f"openreview:{r.review_id}", parser=f"openreview-{api}",
                                   parser_version=_version(), review_id=r.review_id)
                   for i, r in enumerate(sub.reviews, start=1)]
        save_reviews(folder / REVIEWS_FILE, reviews)
        targets[pid] = folder / "paper.pdf"
        old = previous.get(pid)
        papers.append(PaperEntry(
            id=pid, title=sub.title, venue=venue, decision=sub.decision, human_scores=sub.ratings,
            human_confidences=[r.confidence for r in sub.reviews if r.confidence is not None],
            mean_rating=means[pid], bin=label, reviews=f"papers/{pid}/{REVIEWS_FILE}", n_reviews=len(reviews),
            latex=old.latex if old else None, match=old.match if old else None,
            provenance={"openreview_forum": pid, "openreview_api": api, "number": sub.number,
                        "authors": sub.authors},
            licence=sub.licence))
    log = DownloadLog()
    if download:
        # the client's headers carry its session token once it has logged in (as its get_pdf sends them)
        headers = dict(client.headers) | {"content-type": "application/pdf"}
        with httpx.Client(timeout=60.0, follow_redirects=True) as http:
            download_pdfs(http, client.pdf_url, targets, log, headers=headers,
                          policy=RetryPolicy(max_retries=max_retries, max_wait_s=max_wait_s))
    for entry in papers:
        if (root / "papers" / entry.id / "paper.pdf").is_file():
            entry.pdf = f"papers/{entry.id}/paper.pdf"
    if log.rate_limited:
        problems.append(f"OpenReview rate limit: {len(log.pending)} PDF(s) left for a later run "
                        "(run the same command again; nothing fetched is fetched twice)")
    problems.extend(f"{pid}: PDF not downloaded: {why}" for pid, why in log.failed.items())
    manifest = Manifest(name=venue.replace("/", "_"), source="openreview", venue=venue, seed=seed, bins=bins,
                        per_bin=per_bin, invitations=data.invitations, papers=papers, problems=problems)
    save_manifest(root, manifest)
    return OpenReviewBuild(root, data.invitations, len(data.submissions), Counter(data.excluded.values()),
                           Counter(chosen.values()), log, cache.requests, problems)
