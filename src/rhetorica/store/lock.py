"""One run at a time per run directory: an exclusive lock on ``RUN_DIR/run.lock`` (``filelock``'s
``FileLock``, an ``fcntl.flock`` on Unix).

Two ``rhetorica run`` processes on one study would otherwise make every model call twice (each
plans the same pending units). The lock is held for the whole run; the operating system releases
it when the holding process ends, however it ends (SIGKILL included), so a stale lock file never
blocks a later run. The file holds the holder's process id, for the message a second process shows.
:func:`lock_holder` tells whether a run holds the lock without taking it (a read-only viewer must
never make a starting run fail for a moment): filelock can only try to take a lock, so this reads
the kernel's lock table.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

LOCK_FILENAME = "run.lock"
PROC_LOCKS = Path("/proc/locks")
"""The kernel's table of held file locks (Linux)."""


class RunLockedError(Exception):
    """Another process holds the run lock of a run directory.

    Attributes:
        run_dir: the locked run directory.
        pid: the holder's process id (None if it could not be read).
    """

    def __init__(self, run_dir: Path, pid: int | None) -> None:
        self.run_dir, self.pid = run_dir, pid
        holder = f"process {pid}" if pid is not None else "another process"
        super().__init__(f"{run_dir}: {holder} is running this study (lock file {run_dir / LOCK_FILENAME}); "
                         "wait for it to finish, or run again with --wait to start when it ends")


def _holder(path: Path) -> int | None:
    """The pid written by the holder; retried briefly (the holder writes it just after locking)."""
    for _ in range(20):
        try:
            text = path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            text = ""
        if text.isdigit():
            return int(text)
        time.sleep(0.01)
    return None


def _write_pid(fd: int) -> None:
    """Record this process as the holder in the lock file (called by filelock once it holds the lock)."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)


@contextmanager
def run_lock(run_dir: Path, *, wait: bool = False,
             on_wait: Callable[[int | None], None] | None = None) -> Iterator[None]:
    """Hold the run lock of ``run_dir`` (created, with its folders, if missing) inside the block.

    Args:
        run_dir: the run directory.
        wait: when the lock is held, wait until it is released instead of failing.
        on_wait: called once with the holder's pid before waiting (e.g. to print a message).

    Raises:
        RunLockedError: if another process (or another holder in this one) has the lock and
            ``wait`` is false.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / LOCK_FILENAME
    # not thread-local, kept on release (removing it would race with a waiter), no soft fallback
    # (a lock that the kernel does not release when its holder dies would block the next run)
    lock = FileLock(path, thread_local=False, preserve_lock_file=True, fallback_to_soft=False,
                    on_acquired=_write_pid)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        pid = _holder(path)
        if not wait:
            raise RunLockedError(run_dir, pid) from None
        if on_wait is not None:
            on_wait(pid)
        lock.acquire(timeout=-1)
    try:
        yield
    finally:
        lock.release()


def lock_holder(run_dir: Path, *, locks: Path = PROC_LOCKS) -> int | None:
    """The process id holding the run lock of ``run_dir``, read without taking the lock; None when
    no process holds it, there is no lock file, or the system has no lock table to read (not Linux).

    Reads the kernel's lock table (``/proc/locks``, or ``locks``): a held ``FLOCK`` entry on the
    lock file's device and inode. The pid is the one the holder wrote in the file, or the table's
    when the file holds none.
    """
    path = run_dir / LOCK_FILENAME
    try:
        info, table = path.stat(), locks.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    device = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for line in table.splitlines():
        fields = line.split()  # "1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE START END"; a waiter has "->"
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == device and fields[4].isdigit():
            written = path.read_text(encoding="ascii", errors="replace").strip()
            return int(written) if written.isdigit() else int(fields[4])
    return None
