"""Typed rows of the store's tables, each written by one :class:`~rhetorica.store.db.Store` method.

A row is validated where it is written, so a misspelt or missing column, or a value of the wrong
type, fails with the table and the field named instead of reaching SQLite (or being silently left
to a column default). Columns with a database default (``created_at``) are not fields.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator


class AssessmentRow(BaseModel):
    """One row of ``assessments`` (its scores go to ``scores``, its artefacts to ``artefacts``).

    Written only by :func:`rhetorica.store.db.write_assessment` (through
    :meth:`~rhetorica.store.db.Store.save_assessment`, or an import's transaction).

    Attributes:
        unit_key: the review unit's key (primary key).
        document_id: the original document's id (a variant keeps it).
        variant_key: the reviewed variant's unit key; ``None`` for an original.
        input_hash: content hash of the text reviewed.
        condition: ``original`` or the variant's condition name.
        rewriter: the rewriter configuration's name (``none`` for an original).
        reviewer / model / protocol: the reviewer configuration, its model id and its protocol.
        form: the evaluator's form as ``name@version``; ``None`` for imported rows without one.
        replicate: replicate index, 0-based.
        status: ``ok`` or a failure status; reason: why it failed (``None`` when ok).
        input_truncated: 1 when the input was cut to fit the evaluator's limit, else 0.
        review_json: the validated review (JSON); raw_text: the raw output.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    unit_key: str
    document_id: str
    variant_key: str | None = None
    input_hash: str
    condition: str
    rewriter: str
    reviewer: str
    model: str
    protocol: str
    form: str | None = None
    replicate: int
    status: str
    reason: str | None = None
    input_truncated: int = 0
    review_json: str | None = None
    raw_text: str | None = None

    @field_validator("input_truncated", mode="before")
    @classmethod
    def _flag(cls, value: Any) -> Any:
        return int(value) if isinstance(value, bool) else value


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DocumentRow(_Row):
    """One row of ``documents``: an input document (``document_json`` is the whole
    :class:`~rhetorica.documents.models.Document`; ``human_score`` the mean of its human scores)."""

    document_id: str
    content_hash: str
    kind: str
    title: str
    human_score: float | None = None
    document_json: str


class VariantRow(_Row):
    """One row of ``variants``: a rewrite unit's result (``document_json`` and ``content_hash``
    ``None`` when it failed); ``stage`` names the unit graph's stage whose unit it is (``rewrite``,
    ``attack``, ``rewrite-<n>``, ``guided-rewrite``; set by
    :meth:`rhetorica.study.stages.RewriteStage.save`)."""

    unit_key: str
    document_id: str
    condition: str
    rewriter: str
    prompt_version: str
    original_hash: str
    content_hash: str | None = None
    status: str
    reason: str | None = None
    document_json: str | None = None
    stage: str = "rewrite"


class CheckRow(_Row):
    """One row of ``checks``: the current validation of a variant (``passed`` 1 or 0)."""

    unit_key: str
    variant_key: str
    document_id: str
    condition: str
    rewriter: str
    passed: int
    reasons_json: str
    result_json: str


class ScanRow(_Row):
    """One row of ``scans``: the hidden-instruction scan of one review input (rewriter ``none``
    for an original)."""

    scan_key: str
    document_id: str
    condition: str
    rewriter: str
    content_hash: str
    scanner_version: str
    n_findings: int
    n_flagged: int
    max_severity: str | None = None
    findings_json: str
    notes_json: str


class GuidedReviewRow(_Row):
    """One row of ``guided_reviews``: the guided workflow's review of a variant by the rewriting
    model (:mod:`rhetorica.study.guided`); ``record_json`` holds the review record (protocol,
    status, reason, scores, payload, input_truncated, raw_text), kept whatever its status."""

    unit_key: str
    variant_key: str
    document_id: str
    condition: str
    rewriter: str
    protocol: str
    status: str
    reason: str | None = None
    input_truncated: int
    record_json: str


#: The typed row of each table written through :meth:`rhetorica.store.db.Store.insert` and its
#: siblings (``save_variant``, ``replace_check``, ``record_scan``; ``assessments`` through
#: :func:`rhetorica.store.db.write_assessment`).
ROW_MODELS: dict[str, type[BaseModel]] = {
    "documents": DocumentRow, "variants": VariantRow, "checks": CheckRow, "scans": ScanRow,
    "assessments": AssessmentRow, "guided_reviews": GuidedReviewRow,
}


def table_row(table: str, row: BaseModel | dict[str, Any]) -> dict[str, Any]:
    """``row`` of ``table`` as column -> value, validated by the table's model in :data:`ROW_MODELS`
    (every column written: an omitted nullable column as ``None``); a table without a model gets
    ``row`` as given.

    Raises:
        ValueError: naming the field that is missing, unknown or mistyped.
    """
    model = ROW_MODELS.get(table)
    if isinstance(row, BaseModel):
        return row.model_dump()
    return dict(row) if model is None else model.model_validate(dict(row)).model_dump()


def assessment_row(row: AssessmentRow | dict[str, Any]) -> AssessmentRow:
    """``row`` as an :class:`AssessmentRow` (a mapping is validated).

    Raises:
        ValueError: naming the ``assessments`` field that is missing, unknown or mistyped
            (pydantic's ``ValidationError`` is one).
    """
    return row if isinstance(row, AssessmentRow) else AssessmentRow.model_validate(dict(row))
