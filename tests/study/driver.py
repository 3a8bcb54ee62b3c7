"""Run ``rhetorica run STUDY [options]`` in this process with a fault at one named point (tests only).

Usage (from the repository root)::

    python -m tests.study.driver POINT K -- run STUDY [--wait ...]

Points (K counts from 1, in this process):

- ``kill-after-commit``: SIGKILL right after the K-th unit (a variant or an assessment) is committed.
- ``kill-in-commit``: SIGKILL when SQLite starts the COMMIT of the K-th unit's transaction (its
  row is written, the commit not done).
- ``kill-in-call``: SIGKILL inside the K-th model call, after the request reached the mock model
  and before its answer returns.
- ``hold-in-call``: at the K-th model call, create the file ``$RHETORICA_DRIVER_REACHED`` and wait
  until ``$RHETORICA_DRIVER_RELEASE`` exists, then answer (holds the run, and its lock, open).
- ``none``: no fault.

The faults are installed by wrapping ``Store.insert`` (variants), ``Store.save_assessment``
(assessments) and ``MockModel.generate`` of this process;
nothing in rhetorica itself knows about them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from rhetorica.models.providers.mock import MockModel
from rhetorica.store.db import Store

UNIT_TABLES = ("variants", "assessments")


def _kill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def install(point: str, k: int) -> None:
    """Wrap the store and the mock model so that ``point`` fires at its K-th occurrence."""
    seen = {"units": 0, "calls": 0}
    insert, save, generate = Store.insert, Store.save_assessment, MockModel.generate

    def counting_insert(self: Store, table: str, row: dict[str, Any]) -> None:
        if table not in UNIT_TABLES:
            return insert(self, table, row)
        seen["units"] += 1
        if point == "kill-in-commit" and seen["units"] == k:
            self.conn.set_trace_callback(lambda sql: _kill() if sql.strip().upper() == "COMMIT" else None)
        insert(self, table, row)
        if point == "kill-after-commit" and seen["units"] == k:
            _kill()
        return None

    async def faulty_generate(self: MockModel, messages: Any, config: Any) -> Any:
        seen["calls"] += 1
        if seen["calls"] == k and point == "kill-in-call":
            _kill()
        if seen["calls"] == k and point == "hold-in-call":
            Path(os.environ["RHETORICA_DRIVER_REACHED"]).touch()
            while not Path(os.environ["RHETORICA_DRIVER_RELEASE"]).exists():
                await asyncio.sleep(0.02)
        return await generate(self, messages, config)

    def counting_save(self: Store, row: dict[str, Any], scores: Any, artefacts: Any = None) -> None:
        seen["units"] += 1
        if point == "kill-in-commit" and seen["units"] == k:
            self.conn.set_trace_callback(lambda sql: _kill() if sql.strip().upper() == "COMMIT" else None)
        save(self, row, scores, artefacts)
        if point == "kill-after-commit" and seen["units"] == k:
            _kill()

    Store.insert = counting_insert  # type: ignore[method-assign]
    Store.save_assessment = counting_save  # type: ignore[method-assign]
    MockModel.generate = faulty_generate  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    point, k, sep, *cli = argv
    assert sep == "--", "usage: python -m tests.study.driver POINT K -- run STUDY ..."
    if point != "none":
        install(point, int(k))
    from rhetorica.cli.app import app

    app(cli, prog_name="rhetorica")


if __name__ == "__main__":
    main(sys.argv[1:])
