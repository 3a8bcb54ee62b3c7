"""Progress of the runner's stages: rich bars on a terminal, plain lines otherwise.

When the console is not a terminal (``rhetorica demo > log``, a CI job, ``nohup``), rich draws
nothing until the end, so the sink prints one plain line when a stage starts, one each time a
stage has run another :data:`STEP_SHARE` of its units (rounded up to whole units) or :data:`STEP_SECONDS` have gone by since
its last line, and one when it ends. Notes of the run (an endpoint paused or resumed, calls
waiting out a rate limit) are printed as lines in both modes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

STEP_SHARE = 0.10
"""Share of a stage's units between two plain progress lines."""

STEP_SECONDS = 30.0
"""Seconds after which a plain progress line is printed even if the share has not been reached."""


def _clock_text(seconds: float) -> str:
    """``seconds`` as ``12s``, ``3m05s`` or ``1h02m03s``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class _Stage:
    def __init__(self, total: int, now: float) -> None:
        self.total = total
        self.done = 0
        self.started = now
        self.last_line = now
        self.last_done = 0
        self.step = max(1, math.ceil(total * STEP_SHARE))


class RichProgress:
    """A :class:`rhetorica.study.runner.ProgressSink`: one rich bar per stage on a terminal, plain
    lines (see the module docstring) when ``console.is_terminal`` is false.

    Args:
        console: where to print.
        clock: seconds, monotonic (``time.monotonic``; tests pass their own).
    """

    def __init__(self, console: Console, clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self.clock = clock
        self.plain = not console.is_terminal
        self.progress = None if self.plain else Progress(
            TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console, transient=False)
        self.tasks: dict[str, TaskID] = {}
        self.stages: dict[str, _Stage] = {}

    def __enter__(self) -> RichProgress:
        if self.progress is not None:
            self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.__exit__(*exc)  # type: ignore[arg-type]
            return
        for name, stage in self.stages.items():
            if stage.done < stage.total:
                self._line(f"{name}: stopped at {stage.done}/{stage.total} after "
                           f"{_clock_text(self.clock() - stage.started)}")

    def _line(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False)

    def note(self, text: str) -> None:
        """Say something the run is doing now in one line above the bars (an endpoint paused or
        resumed by its circuit breaker, calls waiting out a 429)."""
        self._line(text)

    def start(self, stage: str, total: int) -> None:
        """A stage begins with ``total`` units to run."""
        if self.progress is not None:
            self.tasks[stage] = self.progress.add_task(stage, total=total)
            return
        self.stages[stage] = _Stage(total, self.clock())
        self._line(f"{stage}: started, {total} unit(s) to run" if total else f"{stage}: nothing to run")

    def advance(self, stage: str) -> None:
        """One unit of ``stage`` finished (whatever its outcome)."""
        if self.progress is not None:
            self.progress.advance(self.tasks[stage])
            return
        state = self.stages[stage]
        state.done += 1
        now = self.clock()
        if state.done >= state.total:
            self._line(f"{stage}: done, {state.done}/{state.total} in {_clock_text(now - state.started)}")
            return
        if state.done - state.last_done >= state.step or now - state.last_line >= STEP_SECONDS:
            state.last_done, state.last_line = state.done, now
            self._line(f"{stage}: {state.done}/{state.total} ({state.done / state.total:.0%}), "
                       f"{_clock_text(now - state.started)}")
