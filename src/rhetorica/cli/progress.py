"""Rich progress bars for the runner's progress events."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TaskID


class RichProgress:
    """A :class:`rhetorica.study.runner.ProgressSink` drawing one bar per stage."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=console, transient=False)
        self.tasks: dict[str, TaskID] = {}

    def __enter__(self) -> RichProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)  # type: ignore[arg-type]

    def start(self, stage: str, total: int) -> None:
        self.tasks[stage] = self.progress.add_task(stage, total=total)

    def advance(self, stage: str) -> None:
        self.progress.advance(self.tasks[stage])
