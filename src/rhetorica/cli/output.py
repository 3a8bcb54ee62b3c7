"""The consoles the study commands print on, and the lines ``run`` and ``status`` both print:
problems and warnings, and calls of interrupted runs that never came back."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

console = Console()
err_console = Console(stderr=True, soft_wrap=True)


def print_abandoned(calls: int, reserved_usd: float, counted_usd: float, *, run_dir: str) -> None:
    """Say how many calls of interrupted runs never came back, what they reserved and what the
    budget counts for them (nothing when there are none)."""
    if calls:
        err_console.print(
            f"abandoned: {calls} call(s) of interrupted runs never came back (${reserved_usd:.4f} reserved; the "
            f"budget counts ${counted_usd:.4f}, their input cost); the provider may still bill them. Once its bill "
            f"shows otherwise, `rhetorica calls release {run_dir}` stops counting them.", markup=False,
            highlight=False)


def print_problems(problems: list[tuple[str, str, str]]) -> None:
    """One line per problem (``problem``) or warning (``warning``: the item was still used)."""
    from rhetorica.problems import WARNING_PREFIX, is_warning  # pydantic: not for `status --help`

    for stage, item, reason in problems:
        if is_warning(reason):
            err_console.print(f"[cyan]warning[/cyan] {escape(f'({stage}) {item}: {reason[len(WARNING_PREFIX):]}')}",
                              highlight=False)
        else:
            err_console.print(f"[yellow]problem[/yellow] {escape(f'({stage}) {item}: {reason}')}", highlight=False)
