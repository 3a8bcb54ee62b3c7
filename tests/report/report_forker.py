"""Run ``rhetorica`` commands in forked child processes of one process that has imported rhetorica
once (tests only), so that a test can start and SIGKILL many ``rhetorica report`` processes without
paying the interpreter's and the imports' start-up for each (about 2.5 s of CPU).

Usage: ``python -m tests.report.report_forker LOG``; then, one command a line on stdin:

- ``run ARGS_JSON``: fork a child that runs ``rhetorica ARGS`` (the CLI's own entry point, stdout
  and stderr appended to LOG) and answer ``started PID``;
- ``kill``: SIGKILL the running child (unless it has already ended), reap it and answer
  ``ended STATUS ALREADY``: its exit code (negative: the signal) and whether it had ended before;
- ``wait``: reap the running child when it ends and answer ``ended STATUS ALREADY``.

The parent reaps every child itself, so a process id is never signalled after it was reused.
"""

from __future__ import annotations

import json
import os
import signal
import sys


def _status(raw: int) -> int:
    return -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)


def _child(args: list[str], log: str) -> None:
    from rhetorica.cli.app import app

    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    code = 0
    try:
        app(args, prog_name="rhetorica")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported in the log, as the CLI would
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def main(log: str) -> None:
    import matplotlib.pyplot  # noqa: F401 - what `rhetorica report` imports, once, before any fork
    import pyarrow.parquet  # noqa: F401

    import rhetorica.cli.app  # noqa: F401
    import rhetorica.report.render  # noqa: F401

    child: int | None = None
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "run":
            sys.stdout.flush()
            child = os.fork()
            if child == 0:
                _child(json.loads(rest), log)
            print(f"started {child}", flush=True)
        elif command in ("kill", "wait") and child is not None:
            done, raw = os.waitpid(child, os.WNOHANG)
            already = done != 0
            if not already:
                if command == "kill":
                    os.kill(child, signal.SIGKILL)
                _, raw = os.waitpid(child, 0)
            print(f"ended {_status(raw)} {int(already)}", flush=True)
            child = None


if __name__ == "__main__":
    main(sys.argv[1])
