"""The progress sink prints plain lines when the console is not a terminal (``rhetorica demo > log``)."""

from __future__ import annotations

import io

from rich.console import Console

from rhetorica.cli.progress import RichProgress


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=False, width=200), buffer


def test_plain_lines_at_start_every_tenth_and_end() -> None:
    console, buffer = _console()
    assert not console.is_terminal
    clock = _Clock()
    with RichProgress(console, clock=clock) as sink:
        sink.start("review", 20)
        for _ in range(20):
            clock.now += 1.0
            sink.advance("review")
        sink.start("judge", 0)
    # 20 units: a line every 2 units (10%), one second per unit
    expected = ["review: started, 20 unit(s) to run"]
    expected += [f"review: {k}/20 ({5 * k}%), {k}s" for k in range(2, 20, 2)]
    expected += ["review: done, 20/20 in 20s", "judge: nothing to run"]
    assert buffer.getvalue().splitlines() == expected


def test_a_slow_stage_gets_a_line_every_thirty_seconds_and_an_unfinished_one_says_so() -> None:
    console, buffer = _console()
    clock = _Clock()
    with RichProgress(console, clock=clock) as sink:
        sink.start("rewrite", 1000)
        for _ in range(3):
            clock.now += 31.0
            sink.advance("rewrite")
    assert buffer.getvalue().splitlines() == [
        "rewrite: started, 1000 unit(s) to run", "rewrite: 1/1000 (0%), 31s", "rewrite: 2/1000 (0%), 1m02s",
        "rewrite: 3/1000 (0%), 1m33s", "rewrite: stopped at 3/1000 after 1m33s"]


def test_a_terminal_console_still_draws_rich_bars() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100)
    with RichProgress(console) as sink:
        sink.start("review", 2)
        sink.advance("review")
        sink.advance("review")
    assert "2/2" in buffer.getvalue() and "started" not in buffer.getvalue()
