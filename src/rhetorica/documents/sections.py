"""Operations on ordered section lists shared by the Markdown and PDF readers."""

from __future__ import annotations

import re

from rhetorica.documents.models import Section

REFERENCES_TITLE = re.compile(
    r"^(?:[A-Z]\.?\s+|\d+\.?\s+)?(references|bibliography|literature cited|works cited|reference list)\s*$",
    re.I,
)
APPENDIX_TITLE = re.compile(r"^(appendix|appendices|supplementary material|supplemental material)\b", re.I)


def cut_after_references(sections: list[Section]) -> tuple[list[Section], str | None]:
    """Drop the references section and everything after it (appendices), or a leading appendix.

    Returns:
        ``(kept sections, title of the first dropped section or None)``.
    """
    for k, section in enumerate(sections):
        title = section.title.strip()
        if k > 0 and (REFERENCES_TITLE.match(title) or APPENDIX_TITLE.match(title)):
            return sections[:k], title
    return sections, None
