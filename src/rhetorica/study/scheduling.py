"""Cache-aware order of a stage's units, chosen by what the model's servers cache (:data:`PROMPT_CACHES`).

- ``prefix``: providers cache prompt prefixes they have just processed, shared by every later
  request (OpenAI automatically for prompts of >= 1,024 tokens, Anthropic at ``cache_control``
  breakpoints, both for about 5 minutes; vLLM's automatic prefix caching) and bill cached tokens at a
  fraction of the input price. Replicates of one (input, evaluator) send the same prompt; sent at the
  same time, none of them finds the others' prefix in the cache. So the runner lets the first
  pending replicate of each group go first ("leader") and holds the others until it has returned;
  they then take the next free slots before any new leader ("followers"), so they arrive while the
  prefix is cached. Other units fill the slots meanwhile: the concurrency stays full.
- ``last-prompt``: a server that keeps only the state of the prompt it processed last (llama.cpp's
  server with one slot, ``python -m llama_cpp.server``, the embedded model) loses a leader's prompt
  as soon as another group's prompt is processed in the gap the schedule above fills (issue 40: the
  leader schedule evaluated 6,455 prompt tokens where plan order evaluated 3,670). Such a model's
  units go through one lane (:func:`last_prompt_lanes`): one call at a time, in plan order, which
  lists a group's replicates together, so every replicate after the first finds its whole prompt
  kept. The server answers one request at a time anyway, so the lane costs no throughput.
- ``none``: nothing is assumed about reuse; plan order at the study's concurrency (the default of an
  openai-compatible server, whose cache rhetorica cannot see: vLLM's is ``prefix``, llama.cpp's
  ``last-prompt``; declare it under ``models:``).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator, Hashable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from rhetorica.models.registry import provider_prompt_cache

FOLLOWER, LEADER = 0, 1
"""Priorities at the gate: a lower number enters first."""
PROMPT_CACHES = ("prefix", "last-prompt", "none")
"""What a model's servers keep of earlier prompts (see the module docstring); only ``prefix`` models'
replicates are held behind their leader."""


class PriorityGate:
    """A semaphore of ``slots`` whose waiters enter by (priority, arrival order), and whose
    followers are parked until their group's leader has finished.

    Args:
        slots: concurrent holders (>= 1).
        held: groups whose leader has not finished yet (their followers park).
    """

    def __init__(self, slots: int, held: set[Hashable] = frozenset()) -> None:  # type: ignore[assignment]
        self._free = max(1, slots)
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._parked: dict[Hashable, list[tuple[int, asyncio.Future[None]]]] = {}
        self._held = set(held)
        self._arrival = itertools.count()

    @asynccontextmanager
    async def slot(self, group: Hashable | None = None, *, leads: bool = False) -> AsyncIterator[None]:
        """Hold one slot for the ``async with`` block.

        Args:
            group: the unit's prompt group (``None``: none; it enters as new work).
            leads: the unit leads ``group``; when it leaves, its parked followers queue ahead of
                any new work, so they take the slot it frees.
        """
        follower = group is not None and not leads
        await self._acquire(FOLLOWER if follower else LEADER, group if follower else None)
        try:
            yield
        finally:
            if leads:
                self._held.discard(group)
                for arrival, future in self._parked.pop(group, []):
                    heapq.heappush(self._waiters, (FOLLOWER, arrival, future))
            self._release()

    async def _acquire(self, priority: int, group: Hashable | None) -> None:
        parked = group is not None and group in self._held
        if not parked and self._free > 0 and not self._waiters:
            self._free -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if parked:
            self._parked.setdefault(group, []).append((next(self._arrival), future))
        else:
            heapq.heappush(self._waiters, (priority, next(self._arrival), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # handed a slot just as it was cancelled
                self._release()
            raise

    def _release(self) -> None:
        while self._waiters:
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():
                future.set_result(None)  # the slot passes straight to the waiter
                return
        self._free += 1


def configuration_name(unit: Any) -> str:
    """The reviewer or rewriter configuration a unit belongs to (its label for other units)."""
    item = getattr(unit, "reviewer", None) or getattr(unit, "rewriter", None)
    return getattr(item, "name", None) or str(item if item is not None else unit.label)


def prompt_group(unit: Any) -> tuple[Any, ...] | None:
    """What the replicates of one (input, configuration) share — their prompts are the same — or
    ``None`` for a unit without replicates."""
    target = getattr(unit, "target", None)
    if target is None or not hasattr(unit, "replicate"):
        return None
    return (configuration_name(unit), target.document_id, target.condition, target.rewriter,
            target.document.content_hash)


def prompt_cache(unit: Any, models: Mapping[str, Any]) -> str:
    """The prompt cache (:data:`PROMPT_CACHES`) of the model a unit calls: its ``models:`` entry's
    ``prompt_cache`` where the study sets one, else its provider's default
    (:func:`rhetorica.models.registry.provider_prompt_cache`); ``"none"`` for a unit without a model.

    Args:
        unit: a planned unit (a reviewer's or a rewriter's).
        models: the study's declared models by name (``StudyConfig.models``).
    """
    item = getattr(unit, "reviewer", None) or getattr(unit, "rewriter", None)
    model = getattr(item, "model", None)
    if not model:
        return "none"
    spec = models.get(model)
    if spec is not None:
        return spec.prompt_cache or provider_prompt_cache(spec.provider)
    return provider_prompt_cache(str(model).split("/", 1)[0])


def last_prompt_lanes(units: Sequence[Any], caches: Mapping[str, str]) -> dict[str, asyncio.Lock]:
    """Unit key -> the lane (an :class:`asyncio.Lock`, which queues its waiters first come, first
    served) of its model, for the units of ``last-prompt`` models: one lane per model, so its calls
    go one at a time in the order the units are started (plan order).

    Args:
        units: the pending units of one stage, in run order.
        caches: unit key -> its model's prompt cache (:func:`prompt_cache`).
    """
    lanes: dict[str, asyncio.Lock] = {}
    out: dict[str, asyncio.Lock] = {}
    for unit in units:
        if caches.get(unit.key) == "last-prompt":
            item = getattr(unit, "reviewer", None) or getattr(unit, "rewriter", None)
            out[unit.key] = lanes.setdefault(str(getattr(item, "model", "")), asyncio.Lock())
    return out


def prefix_groups(units: Sequence[Any], group_of: Any) -> dict[str, tuple[Hashable, bool]]:
    """Leader and followers among ``units`` (in order): unit key -> (group, is the leader).

    Args:
        units: the pending units of one stage, in run order.
        group_of: unit -> the key of the prompt it shares with its other replicates, or ``None``
            for a unit that shares none (it is in no group).

    Returns:
        For each unit in a group of two or more: its group and whether it leads it (the pending
        unit with the lowest replicate; ties keep the run order).
    """
    members: dict[Hashable, list[Any]] = {}
    for unit in units:
        group = group_of(unit)
        if group is not None:
            members.setdefault(group, []).append(unit)
    out: dict[str, tuple[Hashable, bool]] = {}
    for group, found in members.items():
        if len(found) < 2:
            continue
        leader = min(found, key=lambda u: u.replicate)
        for unit in found:
            out[unit.key] = (group, unit is leader)
    return out
