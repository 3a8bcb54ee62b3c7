"""Reading a study's documents: paths and globs resolved, each file read, bad ones reported."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

from rhetorica.files import resolve_pattern
from rhetorica.kinds import rewriter_kind
from rhetorica.documents.models import Document
from rhetorica.documents.scan.cache import ScanCache
from rhetorica.study.config import ConfigError, DocumentSpec, StudyConfig
from rhetorica.problems import WARNING_PREFIX
from rhetorica.datasets.info import manuscript_path
from rhetorica.datasets.manifest import DatasetError, load_manifest
from rhetorica.documents import DocumentReadError, ReadOptions, read_document
from rhetorica.documents.reviews.lines import title_only_warning
from rhetorica.study.project_inputs import load_project_document, run_dir_inside_project
from rhetorica.study.review_inputs import review_documents


def _dataset_specs(spec: DocumentSpec, base_dir: Path, problems: list[tuple[str, str, str]]) -> list[DocumentSpec]:
    """One path spec per paper of the dataset named by ``spec`` (id, human scores and decision from
    its manifest); a missing dataset or paper is a problem."""

    assert spec.dataset is not None
    root = Path(spec.dataset) if Path(spec.dataset).is_absolute() else base_dir / spec.dataset
    try:
        manifest = load_manifest(root)
    except DatasetError as exc:
        problems.append(("ingest", spec.dataset, str(exc)))
        return []
    wanted = set(spec.papers) if spec.papers is not None else None
    specs = []
    for entry in manifest.papers:
        if wanted is not None and entry.id not in wanted:
            continue
        path = manuscript_path(root, entry, spec.prefer)
        if path is None:
            problems.append(("ingest", f"{spec.dataset}:{entry.id}", "the dataset has no PDF, LaTeX or Markdown for it"))
            continue
        try:
            specs.append(DocumentSpec(path=str(path), id=entry.id, human_scores=entry.human_scores or None,
                                      decision=entry.decision))
        except ValidationError as exc:  # e.g. human scores off the rating scale: this paper only
            reason = exc.errors()[0]["msg"].removeprefix("Value error, ")
            problems.append(("ingest", f"{spec.dataset}:{entry.id}", reason))
    for missing in sorted((wanted or set()) - {e.id for e in manifest.papers}):
        problems.append(("ingest", f"{spec.dataset}:{missing}", "no such paper in the dataset's manifest"))
    return specs


def resolve_document_paths(spec: DocumentSpec, base_dir: Path) -> list[Path]:
    """Paths named by a path spec (relative to ``base_dir``; :func:`rhetorica.files.resolve_pattern`)."""
    assert spec.path is not None
    return resolve_pattern(spec.path, base_dir)


def resolve_run_dir(config: StudyConfig, base_dir: Path, override: Path | None = None) -> Path:
    """The study's run directory, absolute: ``override`` if given, else ``config.output_dir``
    (relative to ``base_dir``). Creates nothing.

    Raises:
        ConfigError: ``output_dir <path>: ...`` (``run directory`` for an override) when the path
            is an existing file or cannot be created (a file on its way, or a folder above it that
            is not writable), or lies inside a ``latex_project`` folder of the study (every copy of
            the project would copy the run folder into itself).
    """
    out = Path(config.output_dir)
    target = (override or (out if out.is_absolute() else base_dir / out)).resolve()
    problem = _unusable_folder(target)
    if problem is None:

        problem = run_dir_inside_project(config, base_dir, target)
    if problem:
        raise ConfigError(f"{'run directory' if override else 'output_dir'} {target}: {problem}")
    return target


def _unusable_folder(path: Path) -> str | None:
    """Why ``path`` cannot be (or become) a folder this process writes in; None when it can."""
    if path.exists():
        return None if path.is_dir() else "exists and is not a folder"
    above = path.parent
    while not above.exists():
        above = above.parent
    if not above.is_dir():
        return f"cannot be created: {above} is a file"
    if not os.access(above, os.W_OK | os.X_OK):
        return f"cannot be created: {above} is not writable"
    return None


def review_clash(doc: Document, seen: Mapping[str, str], papers: dict[str, tuple[dict[str, str], str]]) -> str | None:
    """Why the review document ``doc`` is left out, or ``None`` (then its paper is recorded in ``papers``).

    Ids are the source's, verbatim (issue 23.4), so two sources that use one id for two things
    cannot both be kept: a document id read before (``seen``: id -> where), or a paper id that
    an earlier review gave to another paper (``papers``: paper id -> (identity, where); the
    identity is ``metadata.paper_identity``, the ``forum_id``/``forum``/``title`` its line gave,
    and ``metadata.paper_title``; two identities differ when a key both give differs; e.g. two
    venues' files both numbering their papers from 0).

    Returns:
        ``<file>:<line>…: duplicate document id 'X' (first at <file>:<line>…); left out``, or
        ``<file>:<line>…: paper id 'P' was given at <file>:<line>… to another paper (forum_id 'F1'
        there, 'F2' here); left out …`` (one file's own clashes are the reader's problems).
    """
    where = doc.source.path
    if doc.id in seen:
        return f"{where}: duplicate document id {doc.id!r} (first at {seen[doc.id]}); left out"
    identity = {k: str(v) for k, v in (doc.metadata.get("paper_identity") or {}).items()}
    title = str(doc.metadata.get("paper_title") or "").strip()
    if title:
        identity.setdefault("title", title)
    if doc.paper_id is None or not identity:
        return None
    first, first_where = papers.setdefault(doc.paper_id, (identity, where))
    for key, value in identity.items():
        if key in first and first[key] != value:
            return (f"{where}: paper id {doc.paper_id!r} was given at {first_where} to another paper ({key} "
                    f"{first[key]!r} there, {value!r} here); left out (ids are kept as the source wrote them: give "
                    "each paper its own paper_id across the study's files, or set the study's id_scope: file)")
    papers[doc.paper_id] = ({**identity, **first}, first_where)
    return None


def _file_of(where: str) -> str:
    """The file of a review's ``<file>:<line>[ review <k>]``."""
    return re.sub(r":\d+( review \d+)?$", "", where)


def title_claim_warning(doc: Document, papers: Mapping[str, tuple[dict[str, str], str]]) -> str | None:
    """The warning for a review line of another file than its paper's first (the reader warns
    within a file) that tells its paper only by a top-level title differing from the paper's
    (:func:`rhetorica.documents.reviews.lines.title_only_warning`); ``None`` otherwise."""
    claim = doc.metadata.get("paper_title_claim")
    if not claim or doc.paper_id is None or doc.paper_id not in papers:
        return None
    first, first_where = papers[doc.paper_id]
    if _file_of(first_where) == _file_of(doc.source.path):
        return None
    found = title_only_warning(doc.paper_id, str(claim), first.get("title"), first_where)
    return f"{doc.source.path}: {found}" if found else None


def load_documents(config: StudyConfig, base_dir: Path, problems: list[tuple[str, str, str]],
                   run_dir: Path | None = None, compile_dir: Path | None = None,
                   scan_cache: ScanCache | None = None) -> list[Document]:
    """Read every document of ``config``; a bad one is reported in ``problems`` and skipped.

    Args:
        config: the study.
        base_dir: folder relative document paths are resolved against.
        problems: list that receives ``("ingest", item, reason)`` for each unusable input, and
            ``("ingest", item, "warning: ...")`` for each warning of a document that was read.
        run_dir: the run directory (``latex_project`` baselines are compiled into it; default:
            :func:`resolve_run_dir`), see :mod:`rhetorica.study.project_inputs`.
        compile_dir: where a baseline not yet compiled in ``run_dir`` is compiled instead
            (``rhetorica estimate`` passes a temporary folder: it writes nothing); default ``run_dir``.
        scan_cache: earlier scan reports for the hidden-text check of each document read
            (``document_options.hidden_text``); an unchanged source is then not scanned again.

    Returns:
        The documents, in the order of the study file (ids unique).
    """

    options = ReadOptions(**config.document_options.model_dump())
    documents: list[Document] = []
    seen: dict[str, str] = {}  # document id -> where it was read (a review: <file>:<line>)
    papers: dict[str, tuple[dict[str, str], str]] = {}  # paper id -> (identity, where) of its first review
    specs = [s for spec in config.documents
             for s in (_dataset_specs(spec, base_dir, problems) if spec.dataset is not None else [spec])]
    for spec in specs:
        if spec.reviews is not None or spec.pairs is not None:  # reviews as documents (review-metric study)

            for doc in review_documents(spec, base_dir, problems, config.document_options.max_words,
                                        config.id_scope):
                clash = review_clash(doc, seen, papers)
                if clash is not None:
                    problems.append(("ingest", spec.reviews or spec.pairs or "", clash))
                    continue
                warning = title_claim_warning(doc, papers)
                if warning is not None:
                    problems.append(("ingest", spec.reviews or spec.pairs or "", f"{WARNING_PREFIX}{warning}"))
                seen[doc.id] = doc.source.path
                documents.append(doc)
            continue
        if spec.latex_project is not None:

            doc = load_project_document(spec, base_dir, run_dir or resolve_run_dir(config, base_dir), config, problems,
                                        compile_dir=compile_dir)
            if doc is not None and doc.id in seen:
                problems.append(("ingest", spec.latex_project, f"duplicate document id {doc.id!r}; give it an 'id'"))
            elif doc is not None:
                seen[doc.id] = doc.source.path
                documents.append(doc)
            continue
        assert spec.path is not None
        paths = resolve_document_paths(spec, base_dir)
        if not paths:
            problems.append(("ingest", spec.path, "no file matches this path or glob"))
        for path in paths:
            doc_id = spec.id if spec.id and len(paths) == 1 else None
            try:
                doc = read_document(path, doc_id=doc_id, options=options, scan_cache=scan_cache)
            except DocumentReadError as exc:
                problems.append(("ingest", str(path), exc.problem))
                continue
            if doc.id in seen:
                problems.append(("ingest", str(path), f"duplicate document id {doc.id!r}; give it an 'id'"))
                continue
            if not any(s.text.strip() for s in doc.sections):
                problems.append(("ingest", str(path), "document has no text"))
                continue
            seen[doc.id] = str(path)
            # non-fatal problems met while reading (a missing \input, a large removal, a fallback
            # parser) are reported with the run, not only kept inside the stored document
            problems.extend(("ingest", f"{path} ({doc.id})", f"{WARNING_PREFIX}{w}") for w in doc.warnings)
            if spec.human_scores:
                doc.human_scores = list(spec.human_scores)
            if spec.decision:
                doc.decision = spec.decision
            documents.append(doc)
    for rewriter in config.rewriters:  # configurations the documents cannot serve (e.g. a wrong imported source)
        problems.extend(("ingest", f"rewriter {rewriter.name}", problem)
                        for problem in rewriter_kind(rewriter.kind).input_problems(rewriter, documents))
    return documents
