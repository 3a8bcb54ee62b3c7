"""Read a LaTeX project (folder or single ``.tex``) into a blinded :class:`Document`."""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.blinding import EMAIL, IDENTITY_KEY, Identity, blind_sections
from rhetorica.documents.latex.bib import cited_keys, read_bib_files, render_references
from rhetorica.documents.latex.macros import (
    collect_macros,
    expand_macros,
    remove_definitions,
    resolve_conditionals,
)
from rhetorica.documents.latex.render import Renderer, split_sections, tidy
from rhetorica.documents.latex.shell import shell_attempts
from rhetorica.documents.latex.source import expand_inputs, find_main_file, read_group, read_text_file
from rhetorica.documents.models import Document, DocumentSource, RemovedItem, Section
from rhetorica.documents.options import DocumentReadError, ReadOptions
from rhetorica.hashing import content_hash

PARSER_NAME = "rhetorica-latex"
PARSER_VERSION = "1"

_AUTHOR_COMMANDS = (
    "author", "affil", "affiliation", "institute", "address", "email", "thanks", "multauthor",
    "icmlauthor", "icmlaffiliation", "icmlcorrespondingauthor", "aistatsauthor", "aistatsaddress",
    "correspondingauthor", "orcid", "twoauthors", "threeauthors", "fourauthors",
)
_AUTHOR_RE = re.compile(r"\\(" + "|".join(_AUTHOR_COMMANDS) + r")(?![a-zA-Z])\*?")
_AUTHOR_ENVS = re.compile(r"\\begin\{(ack|acks|acknowledgments?|acknowledgements?|authors?)\}.*?\\end\{\1\}", re.S)
_CUT = re.compile(
    r"\\bibliography(?![a-zA-Z])\s*\{|\\begin\{thebibliography\}|\\printbibliography|"
    r"\\appendix(?![a-zA-Z])|\\begin\{appendices\}|\\section\*?\{\s*(?:Supplementary|Appendix)"
)
_TEMPLATE = re.compile(
    r"\\(?:usepackage|documentclass)(?:\[[^\]]*\])?\{[^}]*?\b(iclr|neurips|nips|icml|acl|emnlp|naacl|"
    r"ismir|cvpr|iccv|eccv|aaai|ijcai|colm|tmlr|aistats|uai|corl|colt)[_-]?(\d{4})",
    re.I,
)
_BIB_COMMAND = re.compile(r"\\bibliography\s*\{[^}]*\}|\\begin\{thebibliography\}.*?\\end\{thebibliography\}|\\printbibliography", re.S)
_REFERENCES_TOKEN = "RHETORICAREFERENCESLIST"
#: The paper's own DOI and ISBN as an ACM class declares them (printed in its permission block).
_OWN_IDS = re.compile(r"\\acm(?:DOI|ISBN)\s*\{\s*([^}\s]+)\s*\}")
_VENUE_NAMES = {"nips": "NeurIPS", "neurips": "NeurIPS"}


def read_latex(path: Path, doc_id: str, options: ReadOptions) -> Document:
    """Read a LaTeX project folder or a single ``.tex`` file.

    Args:
        path: project folder (the main file is detected) or a ``.tex`` file.
        doc_id: identifier given to the document.
        options: reading options (cut, blind, excerpt).

    Returns:
        A Document whose first section is ``Abstract`` (when the paper has one), then one section
        per ``\\section`` (level 1) / ``\\subsection`` (level 2) / ``\\subsubsection`` (level 3).

    Raises:
        DocumentReadError: no main file, or no ``\\begin{document}``.
    """
    root = path if path.is_dir() else path.parent
    main = find_main_file(path) if path.is_dir() else path
    expanded = expand_inputs(main, root)
    source = expanded.text
    warnings = list(expanded.warnings) + shell_warnings(root.resolve(), expanded.files)
    if "\\begin{document}" not in source:
        raise DocumentReadError(path, f"{main.name} has no \\begin{{document}}")
    preamble, body = source.split("\\begin{document}", 1)
    body = body.split("\\end{document}", 1)[0]

    macros = collect_macros(preamble + body)
    preamble = expand_macros(remove_definitions(resolve_conditionals(preamble)), macros)
    body = expand_macros(remove_definitions(resolve_conditionals(body)), macros)

    metadata: dict[str, object] = {"main_file": str(main.relative_to(root)), "files": expanded.files}
    template = _TEMPLATE.search(preamble)
    if template:
        venue = _VENUE_NAMES.get(template.group(1).lower(), template.group(1).upper())
        metadata["venue"] = f"{venue} {template.group(2)}"
        metadata["venue_source"] = "template package name"

    removed: list[RemovedItem] = []
    names, emails = _author_block(preamble + body, removed)
    body = _AUTHOR_RE.sub("", _strip_author_commands(body))
    for m in _AUTHOR_ENVS.finditer(body):
        removed.append(RemovedItem(item="acknowledgements", location="ack environment", text=m.group(0).strip()))
    body = _AUTHOR_ENVS.sub("", body)

    abstract_src = ""
    abstract = re.search(r"\\begin\{abstract\}(.*?)\\end\{abstract\}", preamble + "\n" + body, re.S)
    if abstract:
        abstract_src = abstract.group(1)
        body = body.replace(abstract.group(0), "")

    # the entries' fields are read only to render the references (a cut text counts the entries)
    bib = read_bib_files(body, main.parent, root, warnings, fields=not options.cut_after_references)
    metadata["bib_entries"] = len(bib)
    cut = _CUT.search(body)
    tail = ""
    if cut:
        metadata["cut_at"] = cut.group(0).rstrip("{").strip()
        if options.cut_after_references:
            body = body[: cut.start()]
        else:
            tail = render_references(cited_keys(body), bib)
            body = _BIB_COMMAND.sub(lambda _: f"\\section*{{References}}\n{_REFERENCES_TOKEN}\n", body, count=1)
    renderer = Renderer()
    title_m = re.search(r"\\title(?![a-zA-Z])\s*(?:\[[^\]]*\])?", preamble + body)
    title = ""
    if title_m:
        group = read_group(preamble + body, title_m.end())
        if group:
            title = renderer.render(renderer.protect_math(group[0])).replace("\n", " ")
            title = renderer.restore_math(re.sub(r"\s+", " ", title)).strip()

    sections: list[Section] = []
    if abstract_src.strip():
        sections.append(Section(title="Abstract", text=_render(renderer, abstract_src), level=1))
    text = renderer.restore_math(tidy(renderer.render(renderer.protect_math(body))))
    for level, sec_title, sec_text in split_sections(text):
        sec_text = sec_text.strip()
        if not sec_title and not sec_text:
            continue
        sections.append(Section(title=sec_title, text=sec_text, level=level))
    if tail:
        sections = [s.model_copy(update={"text": s.text.replace(_REFERENCES_TOKEN, tail)}) for s in sections]

    if options.blind:
        identity = Identity(names, emails, title, _OWN_IDS.findall(source))
        sections = blind_sections(sections, identity, removed)
        if identity:
            metadata[IDENTITY_KEY] = identity.record()
    if not sections:
        raise DocumentReadError(path, f"{main.name} produced no text" + "".join(f"; {w}" for w in warnings))
    text_hash = content_hash([(s.title, s.text) for s in sections])
    return Document(
        id=doc_id,
        title=title,
        sections=sections,
        metadata=metadata,
        source=DocumentSource(path=str(path), parser=PARSER_NAME, parser_version=PARSER_VERSION, text_hash=text_hash),
        removed=removed if options.blind else [],
        warnings=warnings,
    )


def shell_warnings(root: Path, files: list[str]) -> list[str]:
    """One warning per shell, pipe or Lua attempt (:func:`~rhetorica.documents.latex.shell.shell_attempts`)
    in the project ``files`` (relative to ``root``): ``file:line: shell attempt (kind): 'text' reason``.
    The reader never runs TeX, so nothing runs here; the warning says what would, if the project
    were compiled with shell escape (a bare ``\\write18`` line leaves no text, and nothing else would
    show it)."""
    out = []
    for rel in files:
        for attempt in shell_attempts(read_text_file(root / rel)):
            out.append(f"{rel}:{attempt.line}: shell attempt ({attempt.kind}): '{attempt.text}' {attempt.reason}")
    return out


def _render(renderer: Renderer, source: str) -> str:
    return renderer.restore_math(tidy(renderer.render(renderer.protect_math(source)))).strip()


def _author_block(source: str, removed: list[RemovedItem]) -> tuple[list[str], list[str]]:
    """Collect author-identifying commands (audit them) and return candidate names and emails."""
    names: list[str] = []
    emails: list[str] = []
    plain = Renderer()
    for m in _AUTHOR_RE.finditer(source):
        k = m.end()
        opt = read_group(source, k, "[", "]")
        k = opt[1] if opt else k
        args = []
        for _ in range(2 if m.group(1) in {"multauthor", "icmlauthor", "icmlaffiliation"} else 1):
            group = read_group(source, k)
            if group is None:
                break
            args.append(group[0])
            k = group[1]
        if not args:
            continue
        raw = source[m.start() : k]
        removed.append(RemovedItem(item=_item_kind(m.group(1)), location="title block", text=raw.strip()))
        emails.extend(e.group(0) for e in EMAIL.finditer(raw))
        if m.group(1) in {"author", "multauthor", "icmlauthor", "aistatsauthor"}:
            spaced = re.sub(r"\\h(?:space|skip)\*?\s*\{[^}]*\}|\\q?quad(?![a-zA-Z])", "   ", args[0])
            rendered = plain.render(plain.protect_math(spaced))
            for chunk in re.split(r"\n|,| {3,}|\band\b|\x00\d+\x00|[*†‡]", rendered):
                chunk = re.sub(r"\d", "", chunk).strip()
                if 2 <= len(chunk.split()) <= 5 and "@" not in chunk and chunk[:1].isupper():
                    names.append(chunk)
    return names, emails


def _item_kind(command: str) -> str:
    if command in {"email"}:
        return "email"
    if command in {"affil", "affiliation", "institute", "address", "icmlaffiliation", "aistatsaddress"}:
        return "affiliation"
    if command == "thanks":
        return "author note"
    return "author block"


def _strip_author_commands(body: str) -> str:
    """Remove author commands together with their arguments from the body."""
    out, pos = [], 0
    for m in _AUTHOR_RE.finditer(body):
        if m.start() < pos:
            continue
        k = m.end()
        opt = read_group(body, k, "[", "]")
        k = opt[1] if opt else k
        for _ in range(2 if m.group(1) in {"multauthor", "icmlauthor", "icmlaffiliation"} else 1):
            group = read_group(body, k)
            if group is None:
                break
            k = group[1]
        out.append(body[pos : m.start()])
        pos = k
    out.append(body[pos:])
    return "".join(out)
