"""Submissions, official reviews and decisions of one OpenReview venue, through ``openreview-py``.

Two paths, kept apart because the two APIs differ in shape:

- API v2 (venues from 2024 on, e.g. ``ICLR.cc/2026/Conference``): submissions under the invitation
  ``{venue}/-/Submission`` with ``details="replies"``; every content field is wrapped as
  ``{"value": ...}``; a reply is a review when one of its ``invitations`` ends in
  ``/-/Official_Review`` and a decision when one ends in ``/-/Decision``.
- API v1 (older venues, e.g. ``ICLR.cc/2020/Conference``): submissions under
  ``{venue}/-/Blind_Submission`` with ``details="directReplies"``; plain content values; a reply's
  single ``invitation`` names its kind.

Withdrawn and desk-rejected submissions are excluded by their venue invitations
(``{venue}/-/Withdrawn_Submission`` and ``{venue}/-/Desk_Rejected_Submission``, both APIs); the
invitations used are returned so the caller can report them, and an empty submission list is an
error (a wrong invitation id silently yields zero notes).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rhetorica.files import write_atomic
from rhetorica.datasets.manifest import DatasetError
from rhetorica.documents.reviews.openreview_json import is_kind, parse_review, value

ApiVersion = Literal["v1", "v2"]
V2_URL = "https://api2.openreview.net"
V1_URL = "https://api.openreview.net"


@dataclass
class Review:
    """One official review: its text fields (in the venue's order) and parsed scores."""

    review_id: str | None
    fields: dict[str, str]
    rating: float | None
    confidence: float | None


@dataclass
class Submission:
    """One submission with its reviews and decision (``None`` while undecided)."""

    id: str
    number: int | None
    title: str
    decision: str | None
    licence: str | None
    authors: list[str] = field(default_factory=list)
    reviews: list[Review] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ratings(self) -> list[float]:
        return [r.rating for r in self.reviews if r.rating is not None]


@dataclass
class VenueData:
    """What one venue query returned: usable submissions, excluded ids and the invitations used."""

    venue: str
    api: ApiVersion
    submissions: list[Submission]
    excluded: dict[str, str]
    invitations: dict[str, str]


def invitations_for(venue: str, api: ApiVersion) -> dict[str, str]:
    """The invitation ids queried for ``venue`` (keys: submissions, withdrawn, desk_rejected)."""
    submission = f"{venue}/-/Submission" if api == "v2" else f"{venue}/-/Blind_Submission"
    return {"submissions": submission, "withdrawn": f"{venue}/-/Withdrawn_Submission",
            "desk_rejected": f"{venue}/-/Desk_Rejected_Submission"}


class NoteCache:
    """Note queries cached as JSON files under ``folder`` (one file per query), so a second build
    makes no request. ``requests`` counts the queries that went to the server."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.requests = 0

    def get(self, key: dict[str, Any], fetch: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:24]
        path = self.folder / f"{name}.json"
        if path.is_file():
            return json.loads(path.read_text())["notes"]
        self.requests += 1
        notes = fetch()
        write_atomic(path, json.dumps({"query": key, "notes": notes}).encode())
        return notes


def make_client(api: ApiVersion, baseurl: str | None) -> Any:
    """An ``openreview-py`` client for ``api`` (login from ``OPENREVIEW_USERNAME`` /
    ``OPENREVIEW_PASSWORD`` when set, anonymous otherwise).

    Raises:
        DatasetError: ``openreview-py`` is not installed (install hint in the message).
    """
    try:
        import openreview
        import openreview.api
    except ImportError as exc:
        raise DatasetError("openreview-py is not installed: pip install 'rhetorica[datasets]'") from exc
    if api == "v2":
        return openreview.api.OpenReviewClient(baseurl=baseurl or V2_URL)
    return openreview.Client(baseurl=baseurl or V1_URL)


def _plain(note: Any, details_key: str) -> dict[str, Any]:
    """The fields rhetorica uses of an ``openreview`` Note (its ``to_json`` drops number and details)."""
    replies = (note.details or {}).get(details_key) or []
    return {"id": note.id, "number": getattr(note, "number", None), "forum": note.forum,
            "content": note.content or {}, "license": getattr(note, "license", None),
            "invitations": list(getattr(note, "invitations", None) or [getattr(note, "invitation", "")]),
            "replies": [r if isinstance(r, dict) else r.__dict__ for r in replies]}


def parse_submission(note: dict[str, Any]) -> Submission:
    """A :class:`Submission` from a plain note dict (either API); bad scores become problems."""
    content = note.get("content") or {}
    sub = Submission(id=str(note["id"]), number=note.get("number"), title=str(value(content, "title") or ""),
                     decision=None, licence=note.get("license"),
                     authors=[str(a) for a in value(content, "authors") or [] if isinstance(a, str)])
    for reply in note.get("replies") or []:
        if is_kind(reply, "Decision"):
            sub.decision = str(value(reply.get("content") or {}, "decision") or "") or None
        elif is_kind(reply, "Official_Review"):
            parsed = parse_review(reply)
            sub.problems.extend(f"{sub.id} {p}" for p in parsed.problems)
            sub.reviews.append(Review(parsed.note_id, parsed.fields, parsed.scores.get("rating"),
                                      parsed.scores.get("confidence")))
    return sub


def fetch_venue(client: Any, venue: str, api: ApiVersion, cache: NoteCache) -> VenueData:
    """Every usable submission of ``venue`` with its reviews and decision.

    Raises:
        DatasetError: the submission invitation returned no note (the message names it).
    """
    invitations = invitations_for(venue, api)
    details = "replies" if api == "v2" else "directReplies"

    def notes(invitation: str, with_details: bool) -> list[dict[str, Any]]:
        key = {"api": api, "invitation": invitation, "details": details if with_details else None}

        def fetch() -> list[dict[str, Any]]:
            found = client.get_all_notes(invitation=invitation, details=details if with_details else None)
            return [_plain(n, details) for n in found]

        return cache.get(key, fetch)

    submitted = notes(invitations["submissions"], True)
    if not submitted:
        raise DatasetError(f"{venue}: invitation {invitations['submissions']!r} returned no submission "
                           f"(API {api}); check the venue id and the API version")
    excluded: dict[str, str] = {}
    for reason in ("withdrawn", "desk_rejected"):
        for n in notes(invitations[reason], False):
            excluded[str(n.get("forum") or n["id"])] = reason
    usable = [parse_submission(n) for n in submitted if str(n.get("forum") or n["id"]) not in excluded]
    return VenueData(venue, api, usable, excluded, invitations)
