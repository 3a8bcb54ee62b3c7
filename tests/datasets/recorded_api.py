"""A loopback server answering like OpenReview API v2, the arXiv API and arXiv's source downloads.

The notes have the shape API v2 returns (every content field wrapped as ``{"value": ...}``, replies
under ``details.replies`` with their ``invitations``), so the real ``openreview-py`` and ``arxiv``
clients talk to it unchanged. Every request is counted per route.
"""

from __future__ import annotations

import io
import json
import tarfile
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse
from xml.sax.saxutils import escape

VENUE = "TEST.cc/2026/Conference"


def _wrap(content: dict[str, object]) -> dict[str, object]:
    return {k: {"value": v} for k, v in content.items()}


def submission(pid: str, number: int, title: str, ratings: list[object], *, decision: str | None = "Reject",
               authors: list[str] | None = None, licence: str | None = "CC BY 4.0") -> dict[str, object]:
    """One submission note with ``details.replies``: a review per rating (+ a decision)."""
    replies: list[dict[str, object]] = []
    for i, rating in enumerate(ratings, start=1):
        replies.append({"id": f"{pid}-r{i}", "forum": pid, "replyto": pid,
                        "invitations": [f"{VENUE}/Submission{number}/-/Official_Review", f"{VENUE}/-/Edit"],
                        "signatures": [f"{VENUE}/Submission{number}/Reviewer_Ab{i}x"],
                        "content": _wrap({"summary": f"Review {i} of {title}.", "strengths": "Clear.",
                                          "weaknesses": "Small evaluation.", "questions": "Why?",
                                          "rating": rating, "confidence": "3: You are fairly confident"})})
    if decision:
        replies.append({"id": f"{pid}-d", "forum": pid, "invitations": [f"{VENUE}/Submission{number}/-/Decision"],
                        "content": _wrap({"decision": decision})})
    return {"id": pid, "forum": pid, "number": number, "invitations": [f"{VENUE}/-/Submission"],
            "content": _wrap({"title": title, "authors": authors or ["Anonymous"], "venueid": VENUE}),
            "license": licence, "details": {"replies": replies}}


def atom_feed(entries: list[dict[str, object]], base: str) -> bytes:
    """An arXiv API Atom response with ``entries`` (short_id, title, authors)."""
    items = []
    for e in entries:
        authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in e["authors"])  # type: ignore[union-attr]
        items.append(
            f"<entry><id>http://arxiv.org/abs/{e['short_id']}</id><updated>2020-02-01T00:00:00Z</updated>"
            f"<published>2019-10-01T00:00:00Z</published><title>{escape(str(e['title']))}</title>"
            f"<summary>abstract</summary>{authors}"
            f"<link href=\"{base}/abs/{e['short_id']}\" rel=\"alternate\" type=\"text/html\"/>"
            f"<link title=\"pdf\" href=\"{base}/pdf/{e['short_id']}\" rel=\"related\" type=\"application/pdf\"/>"
            f"<arxiv:primary_category term=\"cs.LG\"/><category term=\"cs.LG\"/></entry>")
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\" "
            "xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\">"
            f"<opensearch:totalResults>{len(entries)}</opensearch:totalResults><opensearch:startIndex>0"
            f"</opensearch:startIndex><opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>"
            + "".join(items) + "</feed>").encode()


def tarball_of(folder: Path) -> bytes:
    """A .tar.gz of every file under ``folder`` (paths relative to it)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                tar.add(path, arcname=str(path.relative_to(folder)))
    return buf.getvalue()


def unsafe_tarball() -> bytes:
    """A .tar.gz whose member climbs out of the folder (``../escape.tex``)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        data = b"\\documentclass{article}\\begin{document}x\\end{document}"
        info = tarfile.TarInfo("../escape.tex")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@dataclass
class RecordedApi:
    """What the server answers; tests fill it, then read ``hits``."""

    notes: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    pdfs: dict[str, bytes] = field(default_factory=dict)
    pdf_429: dict[str, int] = field(default_factory=dict)  # id -> 429 answers still to give (-1 = always)
    feeds: dict[str, list[dict[str, object]]] = field(default_factory=dict)  # title word -> entries
    sources: dict[str, bytes] = field(default_factory=dict)  # "<id>v<n>" -> tarball
    hits: Counter[str] = field(default_factory=Counter)
    logins: list[dict[str, object]] = field(default_factory=list)
    auth: list[str] = field(default_factory=list)
    base: str = ""

    def notes_page(self, query: dict[str, list[str]]) -> dict[str, object]:
        invitation = query.get("invitation", [""])[0]
        found = sorted(self.notes.get(invitation, []), key=lambda n: str(n["id"]))
        if query.get("details", [""])[0] not in ("replies", "directReplies"):
            found = [{k: v for k, v in n.items() if k != "details"} for n in found]
        after = query.get("after", [None])[0]
        if after:
            found = [n for n in found if str(n["id"]) > after]
        limit = int(query.get("limit", ["1000"])[0])
        return {"notes": found[:limit], "count": len(found)}


def _handler(api: RecordedApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _send(self, status: int, body: bytes, ctype: str, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            api.hits["login"] += 1
            length = int(self.headers.get("Content-Length", 0))
            api.logins.append(json.loads(self.rfile.read(length) or b"{}"))
            body = {"token": "tok-SECRET-123", "user": {"id": "~Test_User1", "profile": {"id": "~Test_User1"}}}
            self._send(200, json.dumps(body).encode(), "application/json")

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            api.auth.append(self.headers.get("Authorization", ""))
            url = urlparse(self.path)
            query = parse_qs(url.query)
            route = url.path.split("/")[1] if url.path.count("/") else url.path
            api.hits[route] += 1
            if url.path == "/notes":
                self._send(200, json.dumps(api.notes_page(query)).encode(), "application/json")
            elif url.path == "/pdf":
                pid = query.get("id", [""])[0]
                left = api.pdf_429.get(pid, 0)
                if left:
                    api.pdf_429[pid] = left - 1 if left > 0 else -1
                    self._send(429, b'{"name":"RateLimitError","message":"Too many requests"}', "application/json",
                               {"Retry-After": "1"})
                elif pid in api.pdfs:
                    self._send(200, api.pdfs[pid], "application/pdf")
                else:
                    self._send(404, b'{"name":"NotFoundError"}', "application/json")
            elif url.path == "/api/query":
                text = query.get("search_query", [""])[0].lower()
                entries = [e for word, es in api.feeds.items() if word in text for e in es]
                self._send(200, atom_feed(entries, api.base), "application/atom+xml")
            elif url.path.startswith("/src/"):
                key = url.path.removeprefix("/src/")
                if key in api.sources:
                    self._send(200, api.sources[key], "application/gzip")
                else:
                    self._send(404, b"not found", "text/plain")
            else:
                self._send(404, b"unknown route", "text/plain")

    return Handler


@contextmanager
def serve(api: RecordedApi) -> Iterator[str]:
    """Serve ``api`` on a free loopback port; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    api.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api.base
    finally:
        server.shutdown()
        server.server_close()
