"""Reading a study's documents: paths and globs resolved, each file read, bad ones reported."""

from __future__ import annotations

import glob
from pathlib import Path

from rhetorica.documents.models import Document
from rhetorica.study.config import DocumentSpec, StudyConfig


def resolve_document_paths(spec: DocumentSpec, base_dir: Path) -> list[Path]:
    """Paths named by a document spec (globs expanded, relative to ``base_dir``), sorted."""
    pattern = spec.path if Path(spec.path).is_absolute() else str(base_dir / spec.path)
    if any(ch in spec.path for ch in "*?["):
        return [Path(p) for p in sorted(glob.glob(pattern))]
    return [Path(pattern)]


def load_documents(config: StudyConfig, base_dir: Path, problems: list[tuple[str, str, str]]) -> list[Document]:
    """Read every document of ``config``; a bad one is reported in ``problems`` and skipped.

    Args:
        config: the study.
        base_dir: folder relative document paths are resolved against.
        problems: list that receives ``("ingest", item, reason)`` for each unusable input, and
            ``("ingest", item, "warning: ...")`` for each warning of a document that was read.

    Returns:
        The documents, in the order of the study file (ids unique).
    """
    from rhetorica.documents import DocumentReadError, ReadOptions, read_document

    options = ReadOptions(**config.document_options.model_dump())
    documents: list[Document] = []
    seen: set[str] = set()
    for spec in config.documents:
        paths = resolve_document_paths(spec, base_dir)
        if not paths:
            problems.append(("ingest", spec.path, "no file matches this path or glob"))
        for path in paths:
            doc_id = spec.id if spec.id and len(paths) == 1 else None
            try:
                doc = read_document(path, doc_id=doc_id, options=options)
            except DocumentReadError as exc:
                problems.append(("ingest", str(path), exc.problem))
                continue
            if doc.id in seen:
                problems.append(("ingest", str(path), f"duplicate document id {doc.id!r}; give it an 'id'"))
                continue
            if not any(s.text.strip() for s in doc.sections):
                problems.append(("ingest", str(path), "document has no text"))
                continue
            seen.add(doc.id)
            # non-fatal problems met while reading (a missing \input, a large removal, a fallback
            # parser) are reported with the run, not only kept inside the stored document
            problems.extend(("ingest", f"{path} ({doc.id})", f"warning: {w}") for w in doc.warnings)
            if spec.human_scores:
                doc.metadata["human_scores"] = list(spec.human_scores)
            if spec.decision:
                doc.metadata["decision"] = spec.decision
            documents.append(doc)
    return documents
