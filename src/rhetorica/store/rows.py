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


def assessment_row(row: AssessmentRow | dict[str, Any]) -> AssessmentRow:
    """``row`` as an :class:`AssessmentRow` (a mapping is validated).

    Raises:
        ValueError: naming the ``assessments`` field that is missing, unknown or mistyped
            (pydantic's ``ValidationError`` is one).
    """
    return row if isinstance(row, AssessmentRow) else AssessmentRow.model_validate(dict(row))
