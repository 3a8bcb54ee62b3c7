"""Classified model errors: retry policy depends only on the class.

- :class:`RateLimitError` and :class:`TransientError` are retried with jittered backoff
  (``Retry-After`` honoured when given).
- :class:`PermanentError` (including :class:`ContextOverflowError` and :class:`InvalidRequestError`)
  fails fast and is recorded; a :class:`ConfigurationError` (unknown model, rejected key) also
  stops the remaining units of the reviewer or rewriter configuration that met it.
- :class:`UnreadableAnswerError` (a permanent error) is what any other exception raised while a
  request is made or its answer read becomes (:func:`rhetorica.models.call.call_model`).
- :class:`ModelTimeoutError` is retried like a transient error and recorded as ``timeout`` at the end.
"""

from __future__ import annotations

import traceback


class ModelError(Exception):
    """Base class for a failed model call."""


class TransientError(ModelError):
    """A failure that may succeed on retry (5xx, connection reset)."""


class RateLimitError(TransientError):
    """HTTP 429 or equivalent; ``retry_after`` in seconds when the provider said."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ModelTimeoutError(TransientError):
    """The call did not answer in time."""


class PermanentError(ModelError):
    """A failure that will not change on retry (401, 404 model, invalid request)."""


class ContextOverflowError(PermanentError):
    """The input does not fit the model's context window."""


class InvalidRequestError(PermanentError):
    """The server rejected the request itself as invalid (HTTP 400/422, or a 500 whose body says
    the input failed validation): sending it again cannot succeed."""


class UnreadableAnswerError(PermanentError):
    """The server answered, but the answer could not be read: a field of a type the provider's
    format does not allow (``choices`` an object, ``content`` a number, ``logprobs`` a list), a part
    missing, or any other exception while the answer was turned into an output. It is recorded as a
    failure, not retried: the server did answer (and may bill it), in a shape rhetorica cannot read."""


class ConfigurationError(PermanentError):
    """A failure of the configuration, not of one input: every later call of the same model
    connection fails the same way, so the configuration's remaining units are not run."""


class AuthenticationError(ConfigurationError):
    """HTTP 401/403: the key is missing, wrong or not allowed to use this model."""


class ModelNotFoundError(ConfigurationError):
    """HTTP 404 or ``model_not_found``: the endpoint does not serve this model."""


class ProviderNotInstalledError(ModelError):
    """The provider's optional dependency is missing; the message gives the install command."""


class UnknownProviderError(ModelError):
    """The model id names a provider rhetorica does not know."""


def unexpected(what: str, exc: Exception) -> str:
    """The reason of a call ended by an exception no provider classified: ``what`` went wrong (e.g.
    "the answer of <model> could not be read"), the exception's type, the function it was raised
    in, and its message."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" in {frames[-1].name}" if frames else ""
    return f"{what}: {type(exc).__name__}{where}: {exc}"
