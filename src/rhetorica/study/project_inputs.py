"""LaTeX projects as study documents (``documents: [{latex_project: DIR}]``).

The baseline project is compiled (:func:`rhetorica.documents.latex.compile.compile_project`,
with a substitute class or style where the project's own is missing — said so as a warning of the
run and in the document's metadata) and its PDF is read by rhetorica's PDF reader
(:func:`rhetorica.documents.pdf.reader.read_pdf`), then blinded again with the authors its LaTeX
source names (:func:`rhetorica.documents.inputs.with_identity`): the reviewers read the compiled
paper, and every variant goes through the same path (:func:`read_compiled`). The compile is kept under
``<run dir>/latex/baselines/<id>-<hash of the project's files>/`` (``paper.pdf``,
``compile.json``) and reused while the project's files are unchanged.

The document's ``metadata["latex_project"]`` holds ``root``, ``main``, ``compile`` (the path of
``compile.json``) and ``notes`` (the substitutes used); the project rewriter kinds read it back
with :func:`baseline_of`.
"""

from __future__ import annotations

from pathlib import Path

from rhetorica.hashing import content_hash
from rhetorica.documents.ids import manuscript_id
from rhetorica.documents.scan.hidden_text import HIDDEN_TEXT_WARNING, check_hidden_text
from rhetorica.problems import WARNING_PREFIX
from pydantic import ValidationError
from rhetorica.documents.blinding import Identity
from rhetorica.documents.inputs import PDF_PATH_KEY, identity_of, with_identity
from rhetorica.documents.latex.reader import read_latex
from rhetorica.documents.latex.source import main_candidates
from rhetorica.documents.pdf.reader import read_pdf
from rhetorica.documents.latex.compile import CompileResult, compile_project, main_name_problem
from rhetorica.documents.latex.project import file_digests, load_project, LatexProject
from rhetorica.documents.models import Document
from rhetorica.study.config import DocumentSpec, StudyConfig
from rhetorica.documents.options import DocumentReadError, ReadOptions


META_KEY = "latex_project"


def _files_hash(project: LatexProject) -> str:

    return content_hash(project.main, sorted(file_digests(project.root).items()))


def run_dir_inside_project(config: StudyConfig, base_dir: Path, run_dir: Path) -> str | None:
    """Why ``run_dir`` cannot be the run folder of ``config``: it is (or lies inside) the folder of
    one of its ``latex_project`` documents (relative to ``base_dir``), whose copies would then copy
    the run folder into themselves; ``None`` when it lies outside all of them."""
    target = Path(run_dir).resolve()
    for index, spec in enumerate(config.documents):
        if spec.latex_project is None:
            continue
        root = Path(spec.latex_project)
        root = (root if root.is_absolute() else Path(base_dir) / root).resolve()
        if target == root or root in target.parents:
            return (f"lies inside documents[{index}].latex_project {root}; put the run folder outside the "
                    "project (every copy of the project would hold the run folder)")
    return None


def load_project_document(spec: DocumentSpec, base_dir: Path, run_dir: Path, config: StudyConfig,
                          problems: list[tuple[str, str, str]], *, compile_dir: Path | None = None) -> Document | None:
    """Compile one project's baseline and read its PDF into a document.

    Args:
        spec: the document entry (``latex_project``, optional ``main``, ``id``, ``human_scores``,
            ``decision``).
        base_dir: folder relative paths are resolved against.
        run_dir: the run directory (the compile is kept there).
        config: the study (``document_options`` apply to the PDF reading).
        problems: receives ``("ingest", item, reason)`` for an unusable project (not a project, the
            baseline does not compile, the PDF has no text) and ``warning:`` lines for substitutes
            and for a main file chosen among several candidates.
        compile_dir: a folder in place of ``run_dir`` for a compile not stored there yet (a
            compile stored in ``run_dir`` is still reused); ``None``: ``run_dir``.

    Returns:
        The document (id: ``spec.id`` or the folder's name), or ``None`` when unusable.
    """
    assert spec.latex_project is not None
    root = Path(spec.latex_project)
    root = (root if root.is_absolute() else base_dir / root).resolve()
    item = str(root)
    try:
        project = load_project(root, spec.main)
        candidates = [] if spec.main else [p.relative_to(root).as_posix() for p in main_candidates(root)]
    except (DocumentReadError, OSError, ValueError) as exc:
        problems.append(("ingest", item, f"not a LaTeX project: {exc}"))
        return None
    if len(candidates) > 1:
        problems.append(("ingest", item, f"warning: {len(candidates)} candidate main files ({', '.join(candidates)}); "
                                         f"chose {project.main} (set 'main' on the document to choose another)"))
    bad_name = main_name_problem(project.main)
    if bad_name:
        problems.append(("ingest", item, f"main file {project.main!r} is not compiled: {bad_name}"))
        return None
    doc_id = manuscript_id(root, spec.id)
    name = f"{doc_id}-{_files_hash(project)[:16]}"
    folder = Path(run_dir) / "latex" / "baselines" / name
    compile_file, pdf = folder / "compile.json", folder / "paper.pdf"
    compiled = _stored_compile(compile_file) if pdf.is_file() else None
    if compiled is None and compile_dir is not None:
        folder = Path(compile_dir) / "latex" / "baselines" / name
        compile_file, pdf = folder / "compile.json", folder / "paper.pdf"
    if compiled is None:
        folder.mkdir(parents=True, exist_ok=True)
        compiled = compile_project(project, pdf_out=pdf, timeout_s=300.0)
        compile_file.write_text(compiled.model_dump_json(indent=2), encoding="utf-8")
    if compiled.status != "ok" or not pdf.is_file():
        errors = "; ".join(str(e) for e in compiled.errors[:3])
        problems.append(("ingest", item, f"the baseline does not compile ({compiled.status}): "
                                         f"{compiled.reason or errors or 'no PDF'}"))
        return None
    problems.extend(("ingest", f"{item} ({doc_id})", f"{WARNING_PREFIX}{note}") for note in compiled.notes)
    meta = {"root": str(root), "main": project.main, "compile": str(compile_file), "notes": list(compiled.notes)}
    document = _read(pdf, doc_id, config, problems, item, _source_identity(root / project.main))
    if document is None:
        return None
    problems.extend(("ingest", f"{item} ({doc_id})", f"{WARNING_PREFIX}{w}") for w in document.warnings
                    if w.startswith(HIDDEN_TEXT_WARNING))
    document.metadata[META_KEY] = meta
    if spec.human_scores:
        document.human_scores = list(spec.human_scores)
    if spec.decision:
        document.decision = spec.decision
    return document


def _stored_compile(path: Path) -> CompileResult | None:


    try:
        found = CompileResult.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        return None
    return found if found.status == "ok" else None


def _source_identity(main: Path) -> Identity:
    """The authors, emails, title and own DOI/ISBN the project's LaTeX source names (read by
    :func:`rhetorica.documents.latex.reader.read_latex`); empty when the source cannot be read."""
    try:
        return identity_of(read_latex(main, "source", ReadOptions()))
    except (DocumentReadError, OSError, ValueError):
        return Identity()


def _read(pdf: Path, doc_id: str, config: StudyConfig, problems: list[tuple[str, str, str]] | None,
          item: str, identity: Identity) -> Document | str | None:
    """The compiled PDF read by rhetorica's PDF reader, blinded again with ``identity`` (the
    source's authors: the PDF's title block may name them otherwise, or not at all) through
    :func:`rhetorica.documents.inputs.with_identity`; or why it cannot be read."""
    options = ReadOptions(**config.document_options.model_dump())
    try:
        document = check_hidden_text(read_pdf(pdf, doc_id, options), config.document_options.hidden_text)
    except DocumentReadError as exc:
        reason = f"the compiled PDF cannot be read: {exc.problem}"
    else:
        if options.blind:
            document = with_identity(document, identity)
        if any(s.text.strip() for s in document.sections):
            return document
        reason = "the compiled PDF has no text"
    if problems is None:
        return reason
    problems.append(("ingest", item, reason))
    return None


def read_compiled(pdf: Path, original: Document, config: StudyConfig) -> Document | str:
    """A variant's compiled PDF read as the original was (same reader, same options, blinded with
    the original's identity), with the original's id and metadata, and ``metadata["pdf_path"]``
    (absolute) naming that PDF: a reviewer that reads PDFs gets it, blinded like the original's
    (:func:`rhetorica.reviewers.external.base.manuscript_for`); or why it cannot be read."""

    found = _read(pdf, original.id, config, None, str(pdf), identity_of(original))
    if isinstance(found, str) or found is None:
        return found or "the compiled PDF cannot be read"
    found.metadata = {**original.metadata, **found.metadata, META_KEY: original.metadata.get(META_KEY),
                      PDF_PATH_KEY: str(Path(pdf).resolve())}
    return found


def baseline_of(document: Document) -> tuple[LatexProject, CompileResult] | None:
    """The baseline project and compile of a ``latex_project`` document (``None`` for any other
    document, or when its project or compile record is gone)."""

    meta = document.metadata.get(META_KEY)
    if not isinstance(meta, dict):
        return None
    compiled = _stored_compile(Path(meta["compile"]))
    if compiled is None:
        return None
    try:
        return load_project(Path(meta["root"]), meta["main"]), compiled
    except (OSError, ValueError):
        return None
