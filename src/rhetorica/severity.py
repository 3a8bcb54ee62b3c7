"""The severities of a scan finding, lowest first (what each means:
:mod:`rhetorica.documents.scan.findings`). Kept apart from the scan so that the command line can
name them in its help without loading the document readers."""

from __future__ import annotations

from typing import Literal

Severity = Literal["info", "low", "medium", "high"]
SEVERITIES: tuple[Severity, ...] = ("info", "low", "medium", "high")
"""Severities in increasing order."""
