"""Cache-aware order: the first replicate of each prompt goes first, its replicates follow it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

from rhetorica.models.providers.mock import MockModel
from rhetorica.study.scheduling import PriorityGate, prefix_groups

from .test_runner import make_runner


def test_followers_take_the_slot_their_leader_frees_before_new_work() -> None:
    entered: list[str] = []

    async def unit(gate: PriorityGate, name: str, group: str | None, leads: bool) -> None:
        async with gate.slot(group, leads=leads):
            entered.append(name)
            await asyncio.sleep(0.01)

    async def main() -> None:
        gate = PriorityGate(1, {"a", "b"})
        await asyncio.gather(
            unit(gate, "a0", "a", True), unit(gate, "a1", "a", False), unit(gate, "n", None, False),
            unit(gate, "b0", "b", True), unit(gate, "a2", "a", False), unit(gate, "b1", "b", False),
        )

    asyncio.run(main())
    # a1 and a2 arrive before n and b0 but are parked until a0 has finished; then they come first
    assert entered == ["a0", "a1", "a2", "n", "b0", "b1"]


def test_a_cancelled_parked_follower_gives_nothing_away() -> None:
    async def main() -> list[str]:
        gate, entered = PriorityGate(1, {"a"}), []

        async def unit(name: str, group: str | None, leads: bool) -> None:
            async with gate.slot(group, leads=leads):
                entered.append(name)
                await asyncio.sleep(0.01)

        leader = asyncio.create_task(unit("a0", "a", True))
        follower = asyncio.create_task(unit("a1", "a", False))
        await asyncio.sleep(0)
        follower.cancel()
        await asyncio.gather(leader, unit("n", None, False), return_exceptions=True)
        return entered

    assert asyncio.run(main()) == ["a0", "n"]


def test_prefix_groups_lead_with_the_lowest_pending_replicate() -> None:
    units = [SimpleNamespace(key=f"{g}{r}", replicate=r, g=g) for g, r in (("p", 2), ("p", 1), ("q", 0), ("s", 0))]
    groups = prefix_groups(units, lambda u: u.g if u.g != "s" else None)
    # p's replicate 0 is already stored: replicate 1 leads; q has one pending unit, s none
    assert groups == {"p2": ("p", False), "p1": ("p", True)}


def test_runner_sends_replicates_after_their_first(shared_data: Path, tmp_path: Path) -> None:
    models = {"mock/reviewer": MockModel(model="reviewer", latency_s=0.05)}  # calls overlap in time
    runner, models = make_runner(shared_data, tmp_path / "run", models, rewriters=[], replicates=3, concurrency=2)
    asyncio.run(runner.run())
    runner.store.close()
    order = [(messages[-1].content[:200], config.seed) for messages, config in models["mock/reviewer"].calls]
    papers = list(dict.fromkeys(text for text, _ in order))
    assert len(papers) == 3 and sorted(order) == sorted((p, r) for p in papers for r in (0, 1, 2))
    # two slots: the first replicates of two papers go first (the plan order would send paper 1's
    # three replicates together); the first one's replicates then take the slots before paper 3
    assert order[:4] == [(papers[0], 0), (papers[1], 0), (papers[0], 1), (papers[0], 2)]
    for paper in papers:
        assert order.index((paper, 0)) < min(order.index((paper, 1)), order.index((paper, 2)))
