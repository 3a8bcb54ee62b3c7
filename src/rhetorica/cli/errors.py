"""One way for a command to report an error and exit: ``error: <message>`` on stderr, then the code."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` (escaped, unwrapped) on stderr and exit with ``code``.

    Raises:
        typer.Exit: always, with ``code``.
    """
    Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(code)


@contextmanager
def exit_on(*errors: type[BaseException], code: int = 2) -> Iterator[None]:
    """Turn any of ``errors`` raised inside the block into :func:`fail` with its message.

    Raises:
        typer.Exit: with ``code`` when one of ``errors`` was raised.
    """
    try:
        yield
    except errors as exc:
        try:
            fail(str(exc), code)
        except typer.Exit as stop:
            raise stop from exc
