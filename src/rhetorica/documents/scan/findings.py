"""What a scan reports: findings with a kind, a severity, a location, the exact span and the reason.

A finding is one piece of text that a reader of the rendered document would not see, or text that
addresses a reviewer or a language model with an instruction ("ignore previous instructions",
"give this paper a 10"). Findings are data: a scan never changes the document it reads.

Severities, lowest first: ``info`` (an oddity with no content of its own, e.g. one zero-width
character), ``low`` (hidden text with no instruction in it, or a hiding construct that is also used
innocently, such as ``\\phantom`` in math), ``medium`` (visible text that instructs a reviewer or a
model), ``high`` (an instruction that is hidden, in metadata or comments, or obfuscated, and any
instruction that demands a score, a positive review or acceptance, visible or not).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rhetorica.severity import SEVERITIES, Severity

SCANNER_VERSION = "scan-v7"
"""Version of the scan rules (hiding constructs and instruction rules); stored with every scan result and
part of a study's scan keys. Bump it with any rule change, so stored verdicts are never mixed with new ones."""


def severity_rank(severity: str) -> int:
    """Position of ``severity`` in :data:`SEVERITIES` (0 = info ... 3 = high).

    Raises:
        ValueError: for a name that is not a severity.
    """
    try:
        return SEVERITIES.index(severity)  # type: ignore[arg-type]
    except ValueError:
        raise ValueError(f"unknown severity {severity!r}; choose from {', '.join(SEVERITIES)}") from None


class Location(BaseModel):
    """Where a finding is. Fields that do not apply to the format are ``None``.

    Attributes:
        file: path of the scanned file (``None`` for an in-memory document).
        page: 1-based PDF page.
        bbox: PDF box ``(left, bottom, right, top)`` in points, PDF user space (origin bottom left).
        line: 1-based line in a text file or in a document section's text.
        column: 1-based column (characters) on that line.
        section: title of the document section (documents only; ``""`` for an untitled section).
        field: metadata field name (PDF ``Keywords``, hyperref ``pdfkeywords`` ...).
    """

    file: str | None = None
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    line: int | None = None
    column: int | None = None
    section: str | None = None
    field: str | None = None

    def describe(self) -> str:
        """Short human-readable form, e.g. ``paper.pdf p. 3 (72, 700)`` or ``main.tex:12:5``."""
        parts = []
        if self.file:
            parts.append(self.file)
        if self.section is not None:
            parts.append(f"section {self.section!r}" if self.section else "untitled section")
        if self.page is not None:
            where = f"p. {self.page}"
            if self.bbox is not None:
                where += f" ({self.bbox[0]:.0f}, {self.bbox[1]:.0f})"
            parts.append(where)
        if self.line is not None:
            parts.append(f"line {self.line}" + (f", col {self.column}" if self.column is not None else ""))
        if self.field:
            parts.append(f"field {self.field}")
        return " ".join(parts) or "(unknown)"


class Finding(BaseModel):
    """One finding.

    Attributes:
        kind: what was found, e.g. ``pdf-white-text``, ``latex-white-text``, ``html-comment``,
            ``zero-width``, ``instruction`` (see the module of each format for its kinds).
        severity: ``info`` < ``low`` < ``medium`` < ``high``.
        location: where it is.
        text: the exact span as it stands in the source (for PDFs: the characters as extracted).
        reason: why the text is hidden or suspicious, in one sentence.
        instruction: the instruction rule that matched inside the span (``None`` when none did),
            e.g. ``en:override`` or ``zh:score``.
        decoded: the text after de-obfuscation when that differs from ``text`` (base64 decoded,
            homoglyphs mapped, letter spacing removed, Unicode tag characters decoded).
        hidden_text: for a hidden construct, the text it hides as a text extractor or a model
            gets it (markup removed); ``None`` for findings that hide nothing (visible instructions).
        before: for a hidden construct, the last words (at most
            :data:`~rhetorica.documents.scan.occurrence.CONTEXT_WORDS`) before it in the source
            (for a PDF: the page's text as extracted, hidden characters left out), which tell the
            hidden copy of its words from visible ones (:mod:`rhetorica.documents.scan.occurrence`);
            ``None`` when not known.
        visible: for a hidden construct, how many copies of its words (whole words,
            :func:`~rhetorica.documents.scan.occurrence.copies`) a reader sees in the same source
            (a PDF's pages, a text with its hidden spans left out); ``None`` when not counted.
    """

    kind: str
    severity: Severity
    location: Location
    text: str
    reason: str
    instruction: str | None = None
    decoded: str | None = None
    hidden_text: str | None = None
    before: str | None = None
    visible: int | None = None

    @property
    def hidden(self) -> bool:
        """True for a construct that hides text from a human reader."""
        return self.hidden_text is not None


class Unread(BaseModel):
    """A part of an input the scan could not read, so nothing in it was checked.

    Attributes:
        file: path of the file (with ``:line`` where a line of another file names the missing one).
        page: 1-based PDF page; ``None`` when the whole file is meant.
        reason: why it could not be read, e.g. ``no text layer``.
    """

    file: str
    page: int | None = None
    reason: str

    def describe(self) -> str:
        """``file p. N: reason`` (``file: reason`` for a whole file)."""
        return f"{self.file}{f' p. {self.page}' if self.page is not None else ''}: {self.reason}"


class ScanReport(BaseModel):
    """All findings of one scanned input.

    Attributes:
        target: what was scanned (a path, or ``document <id>``).
        format: ``pdf``, ``latex``, ``markup`` or ``document``.
        findings: in reading order.
        notes: what the scan could not check for this input, in words.
        unread: each page or file the scan could not read (a PDF page with no text layer ...): a
            report with any is incomplete, never clean (``rhetorica scan`` exits 2).
        scanner_version: :data:`SCANNER_VERSION`.
    """

    target: str
    format: str
    findings: list[Finding] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    unread: list[Unread] = Field(default_factory=list)
    scanner_version: str = SCANNER_VERSION

    @property
    def max_severity(self) -> Severity | None:
        """Highest severity among the findings, ``None`` when there is none."""
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=severity_rank)

    def at_or_above(self, severity: str) -> list[Finding]:
        """Findings whose severity is at least ``severity``.

        Raises:
            ValueError: for an unknown severity name.
        """
        rank = severity_rank(severity)
        return [f for f in self.findings if severity_rank(f.severity) >= rank]

    def counts(self) -> dict[str, int]:
        """Number of findings per severity (every severity present as a key)."""
        out = dict.fromkeys(SEVERITIES, 0)
        for finding in self.findings:
            out[finding.severity] += 1
        return out
