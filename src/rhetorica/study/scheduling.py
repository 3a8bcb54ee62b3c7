"""Cache-aware order of a stage's units, chosen per model by what its servers cache (:data:`PROMPT_CACHES`).

Replicates of one (input, configuration) send the same prompt (:func:`prompt_group`). Each cache
model gets the schedule under which that prompt is evaluated at most as often as in plain plan
order, and less wherever the cache allows (issue 40):

- ``prefix``: a prefix cache shared by every later request (OpenAI automatically for prompts of
  >= 1,024 tokens, Anthropic at ``cache_control`` breakpoints, both for about 5 minutes; vLLM's
  automatic prefix caching, which keeps blocks of a prompt until newer ones need the room). Sent at
  the same time, no replicate finds the others' prefix. So the first pending replicate of each group
  goes first ("leader") and the others wait until it has returned (:class:`PriorityGate`); they
  then take the next free places before any new leader ("followers"), so they arrive while the
  prefix is cached. Other units fill the concurrency meanwhile.
- ``slots``: a server with N slots, each keeping the state of the prompt it processed last and
  reusing the common prefix of the next prompt it gets (llama.cpp's server, N = ``--parallel``;
  ``python -m llama_cpp.server`` and the embedded model: N = 1). A leader's prompt is lost as soon
  as another prompt lands on its slot in the gap the schedule above fills (issue 40: the leader
  schedule evaluated 6,455 prompt tokens where plan order evaluated 3,670). Such a model's units go
  through min(N, concurrency) lanes (:class:`SlotLanes`): each group is given a free lane and
  runs all its replicates on it (up to concurrency / lanes at once, queued by the server on the
  slot) before the lane is given the next group, the one sharing the longest prompt prefix with the
  lane's last (:func:`shared_lead`: the same paper's other arm before another paper); the lanes run at once, and each call names its lane
  as the server slot (:data:`rhetorica.models.server_cache.CACHE_SLOT`; llama.cpp's ``id_slot``,
  which wraps around beyond the server's slots). llama.cpp's host-memory prompt cache
  (``--cache-ram``, on by default in recent builds) may restore an earlier prompt to a slot; the
  schedule does not count on it. Every replicate
  after a group's first thus finds its whole prompt on its slot, and a group's first finds the
  previous group of its lane there (the shared system prompt, and the text up to the first
  rewritten word where it is the same paper's other arm, which plan order, originals first, puts a
  paper apart); plan order instead sends a group's replicates to different slots, or lets another
  group's prompt in between (tests/study/test_prompt_cache_schedule.py and
  benchmarks/bench_prefix_cache.py measure both).
- ``none``: nothing is assumed about reuse; plan order at the study's concurrency.

A model's cache model is its ``models:`` entry's ``prompt_cache`` (with ``cache_slots``), else its
provider's default; the default ``probe`` (openai-compatible servers) asks the server once per run
(:func:`probe_caches`, :func:`rhetorica.models.server_cache.probe_server_cache`): llama.cpp's
``/props`` -> ``slots`` with its ``total_slots``, vLLM's ``/metrics`` -> ``prefix``, else ``none``.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import os
from collections import Counter
from collections.abc import AsyncIterator, Hashable, Mapping, Sequence
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from rhetorica.models.registry import provider_prompt_cache
from rhetorica.models.server_cache import CACHE_SLOT, probe_server_cache

FOLLOWER, LEADER = 0, 1
"""Priorities at the gate: a lower number enters first."""
PROMPT_CACHES = ("prefix", "slots", "none")
"""Cache models (see the module docstring): what a model's servers keep of earlier prompts."""
PROMPT_CACHE_EVENT = "prompt-cache"
"""The ``endpoint_events`` event that keeps a probed model's cache model (its label as detail)."""
PROBE = "probe"
"""A provider default (:attr:`rhetorica.models.api.ModelAPI.prompt_cache`): ask the server
(:func:`probe_caches`)."""


@dataclass(frozen=True)
class CacheModel:
    """The cache a model's servers keep, and where that is known from.

    Attributes:
        kind: one of :data:`PROMPT_CACHES`.
        slots: the server's slots (>= 1; used by ``slots``).
        source: ``declared`` (the study's ``models:``), ``provider`` (its default), or ``probed: ...``
            / ``not probed: ...`` with what the probe asked and heard.
    """

    kind: str = "none"
    slots: int = 1
    source: str = "provider"

    def label(self) -> str:
        """The report's words: ``slots: 2 (probed: GET /props: total_slots=2)``, ``prefix (provider)``."""
        kind = f"slots: {self.slots}" if self.kind == "slots" else self.kind
        return f"{kind} ({self.source})"


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
    ``None`` for a unit without replicates: (configuration, document, condition, rewriter, text hash),
    in the order the prompt holds them (:func:`shared_lead`)."""
    target = getattr(unit, "target", None)
    if target is None or not hasattr(unit, "replicate"):
        return None
    return (configuration_name(unit), target.document_id, target.condition, target.rewriter,
            target.document.content_hash)


def model_of(unit: Any) -> str | None:
    """The model a unit calls (its reviewer's or rewriter's ``model``), or ``None``."""
    item = getattr(unit, "reviewer", None) or getattr(unit, "rewriter", None)
    model = getattr(item, "model", None)
    return str(model) if model else None


def prompt_cache(unit: Any, models: Mapping[str, Any], probed: Mapping[str, CacheModel] | None = None) -> CacheModel:
    """The cache model of the model a unit calls: its ``models:`` entry's ``prompt_cache`` (and
    ``cache_slots``) where the study sets one, else its provider's default
    (:func:`rhetorica.models.registry.provider_prompt_cache`); a :data:`PROBE` default is what
    ``probed`` holds for the model (``none``, ``not probed``, without an entry). ``none`` for a unit
    without a model.

    Args:
        unit: a planned unit (a reviewer's or a rewriter's).
        models: the study's declared models by name (``StudyConfig.models``).
        probed: model name -> its probed cache model (:func:`probe_caches`).
    """
    return cache_model(model_of(unit), models, probed)


def cache_model(model: str | None, models: Mapping[str, Any],
                probed: Mapping[str, CacheModel] | None = None) -> CacheModel:
    """The cache model of ``model`` (a declared name or a ``provider/...`` id; ``None``: no model),
    as :func:`prompt_cache` says."""
    if model is None:
        return CacheModel("none", source="no model")
    spec = models.get(model)
    if spec is not None and spec.prompt_cache:
        return CacheModel(spec.prompt_cache, spec.cache_slots, "declared")
    default = _default_cache(model, models)
    if default == PROBE:
        return (probed or {}).get(model, CacheModel("none", source="not probed"))
    return CacheModel(default)


def _default_cache(model: str, models: Mapping[str, Any]) -> str:
    """The provider's default cache model of ``model`` (a declared name or a ``provider/...`` id)."""
    spec = models.get(model)
    return provider_prompt_cache(spec.provider if spec is not None else model.split("/", 1)[0])


def _probe_url(model: str, models: Mapping[str, Any]) -> tuple[str | None, str]:
    """(the base URL to probe for ``model``, or ``None`` with the reason it is not probed)."""
    spec = models.get(model)
    if spec is None:  # an inline ``provider/<name>@<url>`` id
        _, _, url = model.partition("@")
        return (url, "") if url.startswith(("http://", "https://")) else (None, "no server URL in the model id")
    if len(spec.endpoints) != 1:
        return None, f"{len(spec.endpoints)} endpoints share its calls, no slot or prefix stays on one server"
    return spec.endpoints[0].base_url, ""


async def probe_caches(units: Sequence[Any], models: Mapping[str, Any],
                       known: Mapping[str, CacheModel] | None = None) -> dict[str, CacheModel]:
    """Probe the server of each model among ``units`` whose cache model is the provider's
    :data:`PROBE` default and is not in ``known`` (so once per run); a probe that fails is ``none``.

    Args:
        units: the pending units of a stage.
        models: the study's declared models by name.
        known: models probed earlier in the run.

    Returns:
        model name -> :class:`CacheModel` (``source``: ``probed: <what was asked and heard>``, or
        ``not probed: <why>`` for a model with several endpoints).
    """
    todo = sorted({m for u in units if (m := model_of(u)) is not None and m not in (known or {})
                   and not getattr(models.get(m), "prompt_cache", None) and _default_cache(m, models) == PROBE})
    out: dict[str, CacheModel] = {}
    for model in todo:
        url, why = _probe_url(model, models)
        if url is None:
            out[model] = CacheModel("none", source=f"not probed: {why}")
            continue
        kind, slots, reason = await probe_server_cache(url)
        out[model] = CacheModel(kind, slots, f"probed: {reason}")
    return out


def shared_lead(a: Hashable, b: Hashable) -> int:
    """How many leading fields two prompt groups (:func:`prompt_group`) share: 0 for groups that are
    not tuples (a unit without replicates). A group's fields follow its prompt's order (configuration:
    the system prompt; then the input; then its condition), so two groups sharing more leading fields
    share a longer prompt prefix: two arms of one paper share the system prompt and the text up to the
    first rewritten word, two papers only the system prompt."""
    if not isinstance(a, tuple) or not isinstance(b, tuple):
        return 0
    return len(os.path.commonprefix([a, b]))


class SlotLanes:
    """N lanes over the slots of one ``slots`` model's server: each prompt group is given a free lane
    and keeps it until all its units have run there; then the lane is given the next group. Up to
    ``depth`` units of the group are in flight on the lane at once: the server queues them on the slot
    (llama.cpp defers a request for a busy slot), so the slot never waits for the client between
    replicates, and replicates of one group send the same prompt, so their order on the slot does not
    matter.

    Which group a free lane gets: of the groups whose units have arrived and have no lane, the one that
    shares the most leading fields (:func:`shared_lead`) with the group the lane ran last, so that its
    first call finds the longest prefix on the slot (the same paper's other arm before another paper's);
    an unused lane gets the group sharing the fewest with the groups the other lanes hold, leaving
    those to follow on their own lanes; ties go to plan order. Arrivals in one turn of the event loop
    are given lanes together (the runner enters all of a stage's units at once).

    Args:
        slots: lanes (>= 1), numbered 0..slots-1 as the server's slots.
        groups: unit key -> its prompt group, for every unit that will enter, in plan order (a unit
            without replicates is a group of its own).
        depth: units of a group in flight at once (>= 1; the study's concurrency over the lanes).
    """

    def __init__(self, slots: int, groups: Mapping[str, Hashable], depth: int = 1) -> None:
        self._group_of = dict(groups)
        self._left = Counter(self._group_of.values())
        self._order = {group: k for k, group in enumerate(dict.fromkeys(self._group_of.values()))}
        self._free = list(range(max(1, slots)))  # lanes in the order they became free
        self._last: dict[int, Hashable] = {}  # lane -> the group it ran last (or runs now)
        self._arrived: list[Hashable] = []  # groups waiting for a lane
        self._given = {group: asyncio.Event() for group in self._left}
        self._in_flight = {group: asyncio.Semaphore(max(1, depth)) for group in self._left}
        self._lane_of: dict[Hashable, int] = {}
        self._dispatching = False

    @asynccontextmanager
    async def lane(self, key: str) -> AsyncIterator[int]:
        """Hold the lane of ``key``'s group for the ``async with`` block; yields its number."""
        group = self._group_of[key]
        try:
            if group not in self._lane_of and group not in self._arrived:
                self._arrived.append(group)
                self._dispatch_soon()
            await self._given[group].wait()
            async with self._in_flight[group]:
                yield self._lane_of[group]
        finally:
            self._left[group] -= 1
            if self._left[group] == 0 and group in self._lane_of:
                self._free.append(self._lane_of.pop(group))
                self._dispatch_soon()
            elif self._left[group] == 0 and group in self._arrived:  # never given a lane (cancelled)
                self._arrived.remove(group)

    def _dispatch_soon(self) -> None:
        if not self._dispatching:
            self._dispatching = True
            asyncio.get_running_loop().call_soon(self._dispatch)

    def _dispatch(self) -> None:
        """Give each free lane, in the order they became free, its group (see the class docstring)."""
        self._dispatching = False
        while self._free and self._arrived:
            lane = self._free.pop(0)
            if lane in self._last:
                pick = max(self._arrived, key=lambda g: (shared_lead(g, self._last[lane]), -self._order[g]))
            else:
                held = [g for other, g in self._last.items() if other != lane]
                pick = min(self._arrived, key=lambda g: (max((shared_lead(g, h) for h in held), default=0),
                                                          self._order[g]))
            self._arrived.remove(pick)
            self._lane_of[pick] = lane
            self._last[lane] = pick
            self._given[pick].set()


class Schedule:
    """The order of one stage's pending units by their models' cache models (module docstring).

    Args:
        units: the pending units, in plan order (the order their :meth:`turn` is entered).
        caches: unit key -> its model's :class:`CacheModel` (:func:`prompt_cache`).
        concurrency: units in flight at once (the study's ``concurrency``, >= 1).
    """

    def __init__(self, units: Sequence[Any], caches: Mapping[str, CacheModel], concurrency: int) -> None:
        prefix = [u for u in units if caches[u.key].kind == "prefix"]
        self._groups = prefix_groups(prefix, prompt_group)  # replicates 2..n follow the first
        self._gate = PriorityGate(concurrency, {group for group, _ in self._groups.values()})
        by_model: dict[str, dict[str, Hashable]] = {}
        for unit in units:
            if caches[unit.key].kind == "slots":
                by_model.setdefault(str(model_of(unit)), {})[unit.key] = prompt_group(unit) or unit.key
        self._lanes: dict[str, SlotLanes] = {}
        for keys in by_model.values():  # one set of lanes per model; more than can run at once would
            # send a group to an unused slot, where it finds no shared prefix (e.g. the system prompt)
            count = min(caches[next(iter(keys))].slots, concurrency)
            lanes = SlotLanes(count, keys, depth=concurrency // count)
            self._lanes.update(dict.fromkeys(keys, lanes))

    @asynccontextmanager
    async def turn(self, unit: Any) -> AsyncIterator[None]:
        """Wait for ``unit``'s turn and hold it for the ``async with`` block; within it, a ``slots``
        unit's calls carry its lane as :data:`~rhetorica.models.server_cache.CACHE_SLOT`."""
        group, leads = self._groups.get(unit.key, (None, False))
        lanes = self._lanes.get(unit.key)
        async with lanes.lane(unit.key) if lanes is not None else nullcontext(None) as slot:  # a lane's queue holds no gate place
            token = CACHE_SLOT.set(slot)
            try:
                async with self._gate.slot(group, leads=leads):  # a parked follower holds no place
                    yield
            finally:
                CACHE_SLOT.reset(token)


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
