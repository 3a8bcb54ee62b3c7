"""An HTTP endpoint as a reviewer: POST the manuscript as JSON, receive one review as JSON.

Registered as evaluator kind ``http``. Study configuration (the settings of :class:`HttpOptions`
go under the reviewer's ``options``)::

    reviewers:
      - name: my-service
        kind: http
        options:
          url: https://reviewer.example.org/review
          api_key_env: REVIEWER_KEY
          input: markdown          # markdown | text | pdf
          adapter: native          # native | ai-scientist | openreview | scale-1-6
          timeout_s: 300

Request body (``Content-Type: application/json``)::

    {"manuscript": "<Markdown or text>", "format": "markdown", "document_id": "p1", "replicate": 0,
     "options": {...}}

For ``input: pdf`` the ``manuscript`` field is absent and ``pdf_base64`` holds the file (standard
base64): the blinded copy of the paper's PDF (:func:`rhetorica.documents.inputs.pdf_input`). The answer is the response body's JSON object, or its ``response_field`` member when that
option is set (e.g. ``review``).

The key named by ``api_key_env`` is read from rhetorica's environment and sent only to ``url``, as
``Authorization: Bearer <key>`` (or in ``api_key_header`` when set); redirects are not followed, so
the key never reaches another host. A ``url`` with ``user:pass@`` is sent as basic
authentication, so it cannot be combined with ``api_key_env`` (refused when the study is loaded).
Cache key: ``system`` (the logical name of the service; default the URL without query and with
its userinfo redacted) and ``options`` — never the key or a credential.

Outcomes: 2xx with a JSON object → validated review; no answer within ``timeout_s`` → ``timeout``;
connection failure, a redirect or a status ≥ 400 → ``error`` (with the start of the body); an empty body →
``empty``; a body that is not one JSON object, or a review that does not map onto the form →
``malformed``.
"""

from __future__ import annotations

import base64
import json
import os
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field

from rhetorica.models.redaction import redact_url
from rhetorica.evaluation import Target
from rhetorica.reviewers.external.base import REASON_CHARS, ExternalReviewer, InputFormat, Manuscript, Reply
from rhetorica.status import Status


class HttpOptions(BaseModel):
    """Options of an ``http`` reviewer.

    Attributes:
        url: the endpoint (``http://`` or ``https://``).
        system: logical name of the service for the cache key (default: ``url`` without its query).
        input: ``markdown``, ``text`` or ``pdf``.
        options: extra JSON sent in the request's ``options`` (part of the cache key).
        response_field: member of the response object that holds the review (``None``: the body).
        adapter, form, mapping, rating_field: see :func:`rhetorica.reviewers.external.adapters.get_adapter`.
        timeout_s: seconds allowed for one request (> 0).
        api_key_env: environment variable holding the service's key (``None``: no key sent).
        api_key_header: header for the key; default ``Authorization`` with ``Bearer``.
        version: bump to invalidate cached answers after the service changed.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(pattern=r"^https?://")
    system: str | None = None
    input: InputFormat = "markdown"
    options: dict[str, Any] = Field(default_factory=dict)
    response_field: str | None = None
    adapter: str = "native"
    form: str | None = None
    mapping: dict[int, int] | None = None
    rating_field: str = "rating"
    timeout_s: float = Field(default=600.0, gt=0)
    api_key_env: str | None = None
    api_key_header: str | None = None
    version: str = "1"


class HttpReviewer(ExternalReviewer):
    """A reviewer system behind an HTTP endpoint (see the module docstring)."""

    kind = "http"

    def __init__(self, name: str, options: HttpOptions) -> None:
        super().__init__(name, options)
        self.options = options

    def system_spec(self) -> dict[str, Any]:
        o = self.options
        return {"system": o.system or redact_url(o.url.split("?", 1)[0]), "options": o.options,
                "response_field": o.response_field, "version": o.version}

    def _headers(self) -> dict[str, str]:
        o = self.options
        if o.api_key_env is None:
            return {}
        key = os.environ.get(o.api_key_env)
        if not key:
            return {}
        return {o.api_key_header: key} if o.api_key_header else {"Authorization": f"Bearer {key}"}

    async def invoke(self, manuscript: Manuscript, target: Target) -> Reply:
        o = self.options
        if o.api_key_env is not None and not os.environ.get(o.api_key_env):
            return Reply(Status.ERROR, "", f"environment variable {o.api_key_env} (the service's key) is not set")
        body: dict[str, Any] = {"format": manuscript.format, "document_id": target.document_id,
                                "replicate": target.replicate, "options": o.options}
        if manuscript.pdf_path is not None:
            body["pdf_base64"] = base64.b64encode(manuscript.pdf_path.read_bytes()).decode("ascii")
        else:
            body["manuscript"] = manuscript.text
        try:
            async with httpx.AsyncClient(timeout=o.timeout_s) as client:
                response = await client.post(o.url, json=body, headers=self._headers())
        except httpx.TimeoutException:
            return Reply(Status.TIMEOUT, "", f"no answer from the endpoint within {o.timeout_s:g} s")
        except httpx.HTTPError as exc:
            return Reply(Status.ERROR, "", f"request failed: {type(exc).__name__}: {exc}")
        if response.is_redirect:
            return Reply(Status.ERROR, "", f"HTTP {response.status_code}: a redirect (not followed, the key stays "
                                           "with its endpoint)")
        if response.status_code >= 400:
            return Reply(Status.ERROR, response.text,
                         f"HTTP {response.status_code}: {response.text[:REASON_CHARS // 2]}")
        text = response.text
        if not text.strip():
            return Reply(Status.EMPTY, "", "the endpoint answered with an empty body")
        if o.response_field is None:
            return Reply(Status.OK, text)
        try:
            value = json.loads(text)
        except ValueError as exc:
            return Reply(Status.MALFORMED, text, f"the response is not JSON: {exc}")
        if not isinstance(value, dict) or o.response_field not in value:
            return Reply(Status.MALFORMED, text, f"the response has no member {o.response_field!r}")
        return Reply(Status.OK, json.dumps(value[o.response_field]))


def http_reviewer(name: str, **options: Any) -> HttpReviewer:
    """Factory of the ``http`` evaluator kind.

    Raises:
        pydantic.ValidationError: an unknown or ill-typed option (names it).
        ValueError: an unknown adapter or an adapter option it does not take.
    """
    return HttpReviewer(name, HttpOptions(**options))
