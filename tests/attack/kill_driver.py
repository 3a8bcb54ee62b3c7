"""Run the attack test study in this process and SIGKILL it inside its K-th model call (tests only).

Usage (from the repository root): ``python -m tests.attack.kill_driver RUN_DIR K``. The study is
:func:`tests.attack.test_stage.kill_spec` over the shared papers with the scripted models.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from rhetorica.models.providers.mock import MockModel
from tests.attack.test_kind import models, runner_for
from tests.attack.test_stage import kill_spec

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def main(run_dir: Path, k: int) -> None:
    generate, seen = MockModel.generate, {"calls": 0}

    async def killing(self: MockModel, messages, config):  # type: ignore[no-untyped-def]
        seen["calls"] += 1
        if seen["calls"] == k:
            os.kill(os.getpid(), signal.SIGKILL)
        return await generate(self, messages, config)

    MockModel.generate = killing  # type: ignore[method-assign]
    runner = runner_for(kill_spec(SHARED_DATA, run_dir), run_dir, models())
    asyncio.run(runner.run())


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
