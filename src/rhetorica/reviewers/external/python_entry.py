"""A Python callable as a reviewer: ``package.module:function``, plain or ``async``.

Registered as evaluator kind ``python``. Study configuration (the settings of :class:`PythonOptions`
go under the reviewer's ``options``; its own ``options`` are the function's keyword arguments)::

    reviewers:
      - name: my-function
        kind: python
        options:
          entry: mypackage.review:review
          input: markdown          # markdown | text | pdf
          adapter: native
          options: {temperature: 0.2}

The function is called as::

    function(manuscript, *, document_id="p1", replicate=0, input_format="markdown", **options)

where ``manuscript`` is the Markdown or text (or, for ``input: pdf``, the path of the blinded copy
of the paper's PDF as a string, :func:`rhetorica.documents.inputs.pdf_input`)
and ``options`` are the configuration's ``options`` (part of the cache key). It returns the review
as a dict (a JSON object) or as JSON text. An ``async def`` function is awaited; a plain one runs in
a worker thread. (A registered plug-in can instead register its own evaluator kind in
:data:`rhetorica.registry.evaluators`, :mod:`rhetorica.kinds`.)

Outcomes: a dict or JSON object → validated review; past ``timeout_s`` → ``timeout`` (a plain
function's thread cannot be stopped: it finishes in the background and its answer is dropped); an
exception → ``error`` (type and message), including ``SystemExit``, ``KeyboardInterrupt`` and any other
``BaseException`` except cancellation of the study itself; ``None`` or blank text → ``empty``; anything else, or a
review that does not map onto the form → ``malformed``.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rhetorica.evaluation import Target
from rhetorica.reviewers.external.base import ExternalReviewer, InputFormat, Manuscript, Reply
from rhetorica.status import Status


#: ``package.module:function`` (the function may be an attribute path).
_ENTRY = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


class PythonOptions(BaseModel):
    """Options of a ``python`` reviewer.

    Attributes:
        entry: ``package.module:function`` (the function may be nested: ``module:Class.method``).
        input: ``markdown``, ``text`` or ``pdf`` (a path).
        options: keyword arguments for the function (part of the cache key).
        adapter, form, mapping, rating_field: see :func:`rhetorica.reviewers.external.adapters.get_adapter`.
        timeout_s: seconds allowed for one call (> 0).
        version: bump to invalidate cached answers after changing the function.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    entry: str
    input: InputFormat = "markdown"
    options: dict[str, Any] = Field(default_factory=dict)
    adapter: str = "native"
    form: str | None = None
    mapping: dict[int, int] | None = None
    rating_field: str = "rating"
    timeout_s: float = Field(default=600.0, gt=0)
    version: str = "1"

    @field_validator("entry")
    @classmethod
    def _entry_form(cls, value: str) -> str:
        if not _ENTRY.fullmatch(value):
            raise ValueError(f"{value!r} is not of the form package.module:function")
        return value


def load_entry(entry: str) -> Callable[..., Any]:
    """Import ``package.module:function``.

    Raises:
        ValueError: the module cannot be imported, has no such attribute, or it is not callable.
    """
    module_name, _, attribute = entry.partition(":")
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"reviewer entry {entry!r}: cannot import {module_name!r}: {exc}") from None
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise ValueError(f"reviewer entry {entry!r}: {module_name!r} has no attribute {attribute!r}")
        value = getattr(value, part)
    if not callable(value):
        raise ValueError(f"reviewer entry {entry!r} is not callable")
    return value


class _Raised:
    """What the reviewer's function raised, carried out as a value so that a ``BaseException``
    (``SystemExit``, ``KeyboardInterrupt``) never reaches the event loop, which would stop the study."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def _call_guarded(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return function(*args, **kwargs)
    except BaseException as exc:  # noqa: BLE001 - the reviewer's own failure is data, even SystemExit
        return _Raised(exc)


async def _await_guarded(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return await function(*args, **kwargs)
    except asyncio.CancelledError:
        raise
    except BaseException as exc:  # noqa: BLE001 - the reviewer's own failure is data, even SystemExit
        return _Raised(exc)


class PythonReviewer(ExternalReviewer):
    """A reviewer system that is a Python function (see the module docstring)."""

    kind = "python"

    def __init__(self, name: str, options: PythonOptions) -> None:
        super().__init__(name, options)
        self.options = options
        self.function = load_entry(options.entry)

    def system_spec(self) -> dict[str, Any]:
        return {"entry": self.options.entry, "options": self.options.options, "version": self.options.version}

    async def invoke(self, manuscript: Manuscript, target: Target) -> Reply:
        argument = str(manuscript.pdf_path) if manuscript.pdf_path is not None else (manuscript.text or "")
        kwargs = {"document_id": target.document_id, "replicate": target.replicate,
                  "input_format": manuscript.format, **self.options.options}
        try:
            if inspect.iscoroutinefunction(self.function):
                call = _await_guarded(self.function, argument, **kwargs)
            else:
                call = asyncio.to_thread(_call_guarded, self.function, argument, **kwargs)
            answer = await asyncio.wait_for(call, timeout=self.options.timeout_s)
        except asyncio.TimeoutError:
            return Reply(Status.TIMEOUT, "", f"{self.options.entry} ran past its {self.options.timeout_s:g} s limit")
        if isinstance(answer, _Raised):
            exc = answer.exc
            return Reply(Status.ERROR, "", f"{self.options.entry} raised {type(exc).__name__}: {exc}")
        if answer is None or (isinstance(answer, str) and not answer.strip()):
            return Reply(Status.EMPTY, "", f"{self.options.entry} returned nothing")
        if isinstance(answer, dict):
            try:
                return Reply(Status.OK, json.dumps(answer))
            except (TypeError, ValueError) as exc:
                return Reply(Status.MALFORMED, repr(answer)[:2000], f"the returned dict is not JSON-able: {exc}")
        if isinstance(answer, str):
            return Reply(Status.OK, answer)
        return Reply(Status.MALFORMED, repr(answer)[:2000],
                     f"{self.options.entry} returned a {type(answer).__name__}, not a dict or JSON text")


def python_reviewer(name: str, **options: Any) -> PythonReviewer:
    """Factory of the ``python`` evaluator kind.

    Raises:
        pydantic.ValidationError: an unknown or ill-typed option (names it).
        ValueError: the entry cannot be loaded, or an unknown adapter option.
    """
    return PythonReviewer(name, PythonOptions(**options))
