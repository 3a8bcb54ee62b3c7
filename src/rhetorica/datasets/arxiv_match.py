"""``rhetorica dataset arxiv-match``: find each paper's public LaTeX source on arXiv.

For every paper with a PDF: candidate records by title (the ``arxiv`` client's search), kept when
their title matches the paper's (normalised word Jaccard >= ``min_title_jaccard``) and, when both
author lists are known, they share a surname; every version's source tarball downloaded (cached)
and unpacked with rhetorica's safe-archive code; the text of each version read by rhetorica's
LaTeX reader and compared with the PDF's text by token cosine and word-5-gram Jaccard
(:mod:`rhetorica.documents.compare`). The version with the highest 5-gram Jaccard (ties: cosine)
is chosen when its cosine >= ``min_cosine`` and its Jaccard >= ``min_jaccard``; otherwise the paper
is unmatched and listed with its best scores. Both scores are kept per candidate in the manifest.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhetorica.files import write_atomic
from rhetorica.datasets.downloads import download_file
from rhetorica.datasets.manifest import ArxivCandidate, ArxivMatch, PaperEntry, load_manifest, save_manifest
from rhetorica.documents.compare import ngram_jaccard, prose_sequence, token_cosine
from rhetorica.documents.archive import unpacked
from rhetorica.documents.latex.reader import read_latex
from rhetorica.documents.options import DocumentReadError, ReadOptions
from rhetorica.documents import read_document
import httpx

ARXIV_QUERY_URL = "https://export.arxiv.org/api/query?{}"
ARXIV_SOURCE_URL = "https://arxiv.org/src"
_VERSION = re.compile(r"^(?P<base>.+?)v(?P<n>\d+)$")


@dataclass
class MatchRun:
    """What a matching pass did: matched / unmatched paper ids and the requests it made."""

    matched: list[str] = field(default_factory=list)
    unmatched: dict[str, str] = field(default_factory=dict)
    requests: int = 0


def _title_words(title: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", title.lower()))


def title_jaccard(a: str, b: str) -> float:
    """Jaccard index of the lower-case alphanumeric words of two titles, in [0, 1]."""
    wa, wb = _title_words(a), _title_words(b)
    return len(wa & wb) / len(wa | wb) if (wa | wb) else 0.0


def split_version(short_id: str) -> tuple[str, int]:
    """``"2101.00001v3"`` -> ``("2101.00001", 3)``; an id without version is version 1."""
    match = _VERSION.match(short_id)
    return (match.group("base"), int(match.group("n"))) if match else (short_id, 1)


class ArxivSource:
    """arXiv search and source downloads, cached under ``cache`` (a second pass makes no request)."""

    def __init__(self, cache: Path, *, query_url: str = ARXIV_QUERY_URL, source_url: str = ARXIV_SOURCE_URL,
                 delay_seconds: float = 3.0) -> None:
        import arxiv

        self.cache = cache
        self.source_url = source_url.rstrip("/")
        self.client = arxiv.Client(page_size=10, delay_seconds=delay_seconds, num_retries=3)
        self.client.query_url_format = query_url
        self.http = httpx.Client(timeout=60.0, follow_redirects=True)
        self.requests = 0

    def search(self, title: str, max_results: int = 5) -> list[dict[str, Any]]:
        """Records whose title matches ``title`` (arXiv ``ti:`` query): short id, title, surnames."""
        import arxiv

        path = self.cache / "search" / f"{hashlib.sha256(title.encode()).hexdigest()[:24]}.json"
        if path.is_file():
            return json.loads(path.read_text())
        self.requests += 1
        words = " ".join(_title_words(title)) or title
        search = arxiv.Search(query=f'ti:"{words}"', max_results=max_results)
        found = [{"short_id": r.get_short_id(), "title": " ".join(r.title.split()),
                  "surnames": [a.name.split()[-1].lower() for a in r.authors if a.name.split()]}
                 for r in self.client.results(search)]
        write_atomic(path, json.dumps(found).encode())
        return found

    def tarball(self, base_id: str, version: int) -> Path:
        """Path of the cached source archive of ``base_id`` version ``version`` (downloaded once)."""
        path = self.cache / "src" / f"{base_id.replace('/', '_')}v{version}.tar.gz"
        if not path.is_file():
            self.requests += 1
            download_file(self.http, f"{self.source_url}/{base_id}v{version}", path)
        return path


def _project_text(archive: Path) -> str:
    with unpacked(archive) as folder:
        return read_latex(folder, "candidate", ReadOptions()).to_markdown()


def _pdf_text(pdf: Path) -> str:
    return read_document(pdf, options=ReadOptions()).to_markdown()


def _score(entry: PaperEntry, pdf_words: list[str], source: ArxivSource, record: dict[str, Any],
           version: int) -> ArxivCandidate:

    base, _ = split_version(record["short_id"])
    candidate = ArxivCandidate(arxiv_id=base, version=version, title=record["title"])
    try:
        words = prose_sequence(_project_text(source.tarball(base, version)))
    except DocumentReadError as exc:
        return candidate.model_copy(update={"problem": exc.problem})
    except Exception as exc:  # noqa: BLE001 - one bad candidate never stops the pass
        return candidate.model_copy(update={"problem": f"{type(exc).__name__}: {exc}"})
    return candidate.model_copy(update={"token_cosine": round(token_cosine(words, pdf_words), 6),
                                        "jaccard5": round(ngram_jaccard(words, pdf_words, 5), 6)})


def match_paper(root: Path, entry: PaperEntry, source: ArxivSource, *, authors: list[str] | None = None,
                min_title_jaccard: float = 0.8, min_cosine: float = 0.9, min_jaccard: float = 0.1) -> ArxivMatch:
    """Compare every version of every candidate record with the paper's PDF; copy the chosen
    version's project to ``papers/<id>/latex``. See the module docstring for the rule."""

    assert entry.pdf is not None
    try:
        pdf_words = prose_sequence(_pdf_text(root / entry.pdf))
    except DocumentReadError as exc:
        return ArxivMatch(reason=f"the submission PDF could not be read: {exc.problem}")
    surnames = {a.split()[-1].lower() for a in authors or [] if a.split()}
    candidates: list[ArxivCandidate] = []
    for record in source.search(entry.title):
        if title_jaccard(record["title"], entry.title) < min_title_jaccard:
            continue
        if surnames and record["surnames"] and not surnames & set(record["surnames"]):
            continue
        _, latest = split_version(record["short_id"])
        candidates.extend(_score(entry, pdf_words, source, record, v) for v in range(1, latest + 1))
    scored = [c for c in candidates if c.jaccard5 is not None and c.token_cosine is not None]
    if not scored:
        reason = "no arXiv record with a matching title" if not candidates else "no candidate could be read"
        return ArxivMatch(candidates=candidates, reason=reason)
    best = max(scored, key=lambda c: (c.jaccard5, c.token_cosine))
    assert best.jaccard5 is not None and best.token_cosine is not None
    if best.token_cosine < min_cosine or best.jaccard5 < min_jaccard:
        return ArxivMatch(candidates=candidates, reason=(
            f"best candidate {best.arxiv_id}v{best.version} below threshold (cosine {best.token_cosine:.3f} "
            f"< {min_cosine} or 5-gram Jaccard {best.jaccard5:.3f} < {min_jaccard})"))
    _copy_project(source.tarball(best.arxiv_id, best.version), root / "papers" / entry.id / "latex")
    return ArxivMatch(arxiv_id=best.arxiv_id, version=best.version, token_cosine=best.token_cosine,
                      jaccard5=best.jaccard5, candidates=candidates)


def _copy_project(archive: Path, target: Path) -> None:

    with unpacked(archive) as folder:
        tmp = target.with_name(target.name + ".partial")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(folder, tmp)
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)


def match_dataset(root: Path, *, query_url: str = ARXIV_QUERY_URL, source_url: str = ARXIV_SOURCE_URL,
                  delay_seconds: float = 3.0, min_cosine: float = 0.9, min_jaccard: float = 0.1,
                  redo: bool = False) -> MatchRun:
    """Match every paper of the dataset in ``root`` that has a PDF and no match yet (all with
    ``redo``); the manifest is saved after each paper, so a killed pass resumes.

    Raises:
        DatasetError: ``root`` is not a dataset folder.
    """
    manifest = load_manifest(root)
    source = ArxivSource(root / "_cache" / "arxiv", query_url=query_url, source_url=source_url,
                         delay_seconds=delay_seconds)
    run = MatchRun()
    for entry in manifest.papers:
        if entry.pdf is None:
            run.unmatched[entry.id] = "no PDF in the dataset"
            continue
        if entry.match is None or redo:
            entry.match = match_paper(root, entry, source, authors=entry.provenance.get("authors"),
                                      min_cosine=min_cosine, min_jaccard=min_jaccard)
            if entry.match.arxiv_id:
                entry.latex = f"papers/{entry.id}/latex"
                entry.provenance["arxiv"] = f"{entry.match.arxiv_id}v{entry.match.version}"
            save_manifest(root, manifest)
        if entry.match.arxiv_id:
            run.matched.append(entry.id)
        else:
            run.unmatched[entry.id] = entry.match.reason or "unmatched"
    run.requests = source.requests
    return run
