"""Structured-output negotiation, once per endpoint.

A provider whose servers differ in the structured-output modes they take (the OpenAI-compatible
one: ``json_schema`` -> ``json_object`` + schema -> ``prompt`` only) walks its modes strongest first
until the endpoint accepts one (:class:`rhetorica.models.errors.InvalidRequestError` is a
rejection). :class:`Negotiation` makes that walk happen once per endpoint:

- the first call of an endpoint whose mode is not known probes under a per-endpoint lock; calls
  that arrive meanwhile wait for it and then send in the accepted mode (no second probe);
- the accepted mode is remembered for the process and, given a :class:`ModeMemory` (the study
  store), written there, so a later process starts from it without probing;
- a known mode the endpoint rejects later (another server behind the same URL) is forgotten and
  the walk continues from the next mode; a rejected mode is never tried again on that endpoint.

Every request goes through the caller's ``send(mode, probe)``, so the caller logs each one (probes
included). Source of the mode order: OpenAI "Structured Outputs"; llama-cpp-python's server takes
``json_object`` with a ``schema`` and answers ``json_schema`` with HTTP 500.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, TypeVar

from rhetorica.models.errors import InvalidRequestError

T = TypeVar("T")

#: ``send(mode, probe)``: one request in ``mode``; ``probe`` is True while the endpoint's mode is
#: being found. Raises :class:`InvalidRequestError` when the endpoint rejects the mode.
Send = Callable[[str, bool], Awaitable[T]]


class ModeMemory(Protocol):
    """Where accepted modes outlive the process (the study store's ``structured_modes`` table)."""

    def accepted_mode(self, endpoint: str) -> str | None: ...
    def save_accepted_mode(self, endpoint: str, mode: str) -> None: ...


class Negotiation:
    """What is known about each endpoint's structured-output modes (one event loop at a time).

    Attributes:
        accepted: endpoint -> the mode it accepted.
        rejected: endpoint -> the modes it rejected.
    """

    def __init__(self) -> None:
        self.accepted: dict[str, str] = {}
        self.rejected: dict[str, set[str]] = {}
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
            weakref.WeakKeyDictionary())

    def known(self, endpoint: str, memory: ModeMemory | None = None) -> str | None:
        """The mode ``endpoint`` accepted, from this process or else from ``memory``."""
        mode = self.accepted.get(endpoint)
        if mode is None and memory is not None:
            mode = memory.accepted_mode(endpoint)
            if mode in self.rejected.get(endpoint, set()):
                return None  # the store's mode was rejected since: found again
            if mode is not None:
                self.accepted[endpoint] = mode
        return mode

    def _lock(self, endpoint: str) -> asyncio.Lock:
        locks = self._locks.setdefault(asyncio.get_running_loop(), {})
        return locks.setdefault(endpoint, asyncio.Lock())

    async def send(self, endpoint: str, modes: Sequence[str], send: Send[T],
                   memory: ModeMemory | None = None) -> T:
        """Send one call to ``endpoint`` in its accepted mode, finding that mode first if needed.

        Args:
            endpoint: the endpoint's key (provider and redacted URL).
            modes: the modes to try, strongest first (>= 1).
            send: sends one request (see :data:`Send`).
            memory: where accepted modes are read and written across processes (``None``: this
                process only).

        Returns:
            ``send``'s result for the accepted mode.

        Raises:
            InvalidRequestError: every mode was rejected (the message lists the earlier rejections).
            Anything else ``send`` raises (a transient failure ends the call's walk; the next call
            goes on from the modes not rejected).
        """
        while True:
            mode = self.known(endpoint, memory)
            if mode is not None and mode in modes:
                try:
                    return await send(mode, False)
                except InvalidRequestError:
                    if mode == modes[-1]:
                        raise
                    self._reject(endpoint, mode)  # another server behind the URL: find the mode again
                    continue
            async with self._lock(endpoint):
                if self.known(endpoint, memory) is not None:
                    continue  # found while this call waited: sent outside the lock, like every other
                return await self._probe(endpoint, modes, send, memory)

    async def _probe(self, endpoint: str, modes: Sequence[str], send: Send[T], memory: ModeMemory | None) -> T:
        """Walk the modes not rejected yet (holding the endpoint's lock) until one is accepted."""
        rejected: list[str] = []
        for mode in [m for m in modes if m not in self.rejected.get(endpoint, set())] or [modes[-1]]:
            try:
                result = await send(mode, True)
            except InvalidRequestError as exc:
                if mode == modes[-1]:
                    if rejected:
                        raise InvalidRequestError(
                            f"{exc} (structured-output modes rejected first: {', '.join(rejected)})") from exc
                    raise
                rejected.append(f"{mode}: {exc}"[:200])
                self._reject(endpoint, mode)
                continue
            self.accepted[endpoint] = mode
            if memory is not None:
                memory.save_accepted_mode(endpoint, mode)
            return result
        raise AssertionError("unreachable: the last mode returns or raises")

    def _reject(self, endpoint: str, mode: str) -> None:
        self.rejected.setdefault(endpoint, set()).add(mode)
        if self.accepted.get(endpoint) == mode:
            del self.accepted[endpoint]


#: The negotiation of calls made outside a study run (a provider's own ``generate``, one-off calls).
PROCESS = Negotiation()
