"""``rhetorica view RUN_DIR``: browse a run's papers, rewrites and reviews in a local web viewer.

The viewer listens on 127.0.0.1 only, reads the store read-only and loads nothing from anywhere
else (:mod:`rhetorica.report.viewer.server`). Exit status: 0 when stopped with Ctrl-C; 2 when the
run directory does not exist or holds no store, the store is locked by another process or is not
a rhetorica store, its ``study.json`` is missing or not a valid study, or the port is taken.
"""

from __future__ import annotations

from pathlib import Path

import typer

from rhetorica.cli.errors import exit_on, fail
from rhetorica.report.viewer.server import PortInUseError, ViewerServer
from rhetorica.store.db import StoreError
from rhetorica.study.config import ConfigError


def view(
    run_dir: Path = typer.Argument(..., help="Run directory of a study (holding store.sqlite)."),
    port: int = typer.Option(0, "--port", min=0, max=65535, help="TCP port on 127.0.0.1 (0: a free one)."),
    quiet: bool = typer.Option(False, "--quiet", help="Do not log requests."),
) -> None:
    """Serve a read-only web viewer of RUN_DIR on 127.0.0.1 until Ctrl-C."""

    try:
        with exit_on(FileNotFoundError, StoreError, ConfigError):
            server = ViewerServer(run_dir, port, quiet=quiet)
    except PortInUseError as exc:
        fail(f"{exc}; choose another with --port N, or --port 0 for a free one")
    except OSError as exc:
        fail(f"cannot listen on 127.0.0.1 port {port}: {exc.strerror or exc}")
    typer.echo(f"rhetorica viewer of {run_dir} at {server.url} (read-only; Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        typer.echo("viewer stopped")
    finally:
        server.server_close()
