"""Safe unpacking of LaTeX source archives (arXiv ``.tar.gz``, ``.tgz``, ``.tar``, ``.zip``).

Every member is checked before anything is written: no absolute paths, no ``..`` components, no
links that point outside the folder, no device files, at most ``MAX_ENTRIES`` members of any kind
(read one header at a time, so a tar of millions of empty members stops at the cap), at most
``MAX_FILES`` files, no path deeper than ``MAX_DEPTH`` folders, no symbolic-link target longer than
``MAX_LINK_BYTES`` (a zip stores the target as compressed member data, so it is read with that
cap), and at most ``MAX_TOTAL_BYTES`` uncompressed bytes (the declared sizes are checked first and
the real bytes counted while writing, so a lying header cannot exceed it). Links that stay inside
are skipped (a LaTeX project does not need them). A gzip file that is not a tar (arXiv serves
single-file sources that way) is unpacked as ``main.tex``. Every error names the archive.
"""

from __future__ import annotations

import gzip
import shutil
import stat
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO

from rhetorica.documents.options import DocumentReadError

MAX_ENTRIES = 20_000
"""Members of any kind (files, folders, links) an archive may list."""
MAX_FILES = 5_000
"""Regular files an archive may unpack."""
MAX_DEPTH = 32
"""Path components a member name may have (``a/b/c.tex`` has 3)."""
MAX_LINK_BYTES = 4_096
"""Longest symbolic-link target read (Linux ``PATH_MAX``)."""
MAX_TOTAL_BYTES = 512 * 1024 * 1024
"""Uncompressed bytes an archive may unpack to."""
CHUNK = 1024 * 1024


def _check_name(archive: Path, name: str) -> PurePosixPath:
    pure = PurePosixPath(name.replace("\\", "/"))
    if pure.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise DocumentReadError(archive, f"unsafe archive: member '{name}' has an absolute path")
    if ".." in pure.parts:
        raise DocumentReadError(archive, f"unsafe archive: member '{name}' escapes the folder ('..')")
    if len(pure.parts) > MAX_DEPTH:
        raise DocumentReadError(archive, f"unsafe archive: member '{name[:200]}' is nested more than "
                                         f"{MAX_DEPTH} folders deep")
    return pure


def _too_many_entries(archive: Path) -> DocumentReadError:
    return DocumentReadError(archive, f"archive lists more than {MAX_ENTRIES} members")


def _too_big(archive: Path) -> DocumentReadError:
    return DocumentReadError(archive, f"archive unpacks to more than {MAX_TOTAL_BYTES // 2**20} MiB")


def _check_link(archive: Path, name: str, target: str, *, from_member: bool = True) -> None:
    """Reject a link whose target is absolute or climbs above the archive root.

    Symbolic-link targets are relative to the link's folder; tar hard-link targets to the root.
    """
    base = PurePosixPath(name).parent if from_member else PurePosixPath()
    if target.startswith("/") or _escapes(base, target):
        raise DocumentReadError(archive, f"unsafe archive: link '{name}' points outside the folder (to '{target}')")


def _escapes(base: PurePosixPath, target: str) -> bool:
    depth = len(base.parts)
    for part in PurePosixPath(target).parts:
        depth += -1 if part == ".." else (0 if part == "." else 1)
        if depth < 0:
            return True
    return False


class _Budget:
    def __init__(self, archive: Path) -> None:
        self.archive = archive
        self.files = 0
        self.bytes = 0

    def add_file(self) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise DocumentReadError(self.archive, f"archive has more than {MAX_FILES} files")

    def copy(self, source: IO[bytes], target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as out:
            while chunk := source.read(CHUNK):
                self.bytes += len(chunk)
                if self.bytes > MAX_TOTAL_BYTES:
                    raise _too_big(self.archive)
                out.write(chunk)


def _tar_members(archive: Path, tar: tarfile.TarFile) -> list[tarfile.TarInfo]:
    """Every member, checked, read one header at a time up to the caps."""
    members: list[tarfile.TarInfo] = []
    declared = 0
    while (member := tar.next()) is not None:
        if len(members) >= MAX_ENTRIES:
            raise _too_many_entries(archive)
        _check_name(archive, member.name)
        if member.issym() or member.islnk():
            if len(member.linkname.encode(errors="replace")) > MAX_LINK_BYTES:
                raise DocumentReadError(archive, f"unsafe archive: link '{member.name}' has a target longer "
                                                 f"than {MAX_LINK_BYTES} bytes")
            _check_link(archive, member.name, member.linkname, from_member=member.issym())
        elif not (member.isfile() or member.isdir()):
            raise DocumentReadError(archive, f"unsafe archive: member '{member.name}' is a device or special file")
        declared += member.size if member.isfile() else 0
        if declared > MAX_TOTAL_BYTES:
            raise _too_big(archive)
        members.append(member)
    return members


def _unpack_tar(archive: Path, folder: Path) -> None:
    budget = _Budget(archive)
    with tarfile.open(archive, "r:*") as tar:
        members = _tar_members(archive, tar)
        for member in members:
            if member.isfile():
                budget.add_file()
                source = tar.extractfile(member)
                if source is not None:
                    budget.copy(source, folder / _check_name(archive, member.name))


def _zip_link_target(archive: Path, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> str:
    """A zip symlink's target (its member data), read with the ``MAX_LINK_BYTES`` cap."""
    with zf.open(info) as source:
        target = source.read(MAX_LINK_BYTES + 1)
    if len(target) > MAX_LINK_BYTES:
        raise DocumentReadError(archive, f"unsafe archive: link '{info.filename}' has a target longer than "
                                         f"{MAX_LINK_BYTES} bytes")
    return target.decode(errors="replace")


def _unpack_zip(archive: Path, folder: Path) -> None:
    budget = _Budget(archive)
    with zipfile.ZipFile(archive) as zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise _too_many_entries(archive)
        declared = 0
        for info in infos:
            _check_name(archive, info.filename)
            if stat.S_ISLNK(info.external_attr >> 16):
                _check_link(archive, info.filename, _zip_link_target(archive, zf, info))
            elif not info.is_dir():
                declared += info.file_size
                if declared > MAX_TOTAL_BYTES:
                    raise _too_big(archive)
        for info in infos:
            if info.is_dir() or stat.S_ISLNK(info.external_attr >> 16):
                continue
            budget.add_file()
            with zf.open(info) as source:
                budget.copy(source, folder / _check_name(archive, info.filename))


@contextmanager
def unpacked(archive: Path) -> Iterator[Path]:
    """Unpack ``archive`` into a temporary folder, yield it, delete it afterwards.

    Raises:
        DocumentReadError: unsafe member (absolute path, ``..``, escaping or over-long link,
            special file, nested deeper than ``MAX_DEPTH``), over the member-count, file-count or
            size cap, or a corrupt archive; the message names the archive.
    """
    folder = Path(tempfile.mkdtemp(prefix="rhetorica-src-"))
    try:
        name = archive.name.lower()
        try:
            if name.endswith(".zip"):
                _unpack_zip(archive, folder)
            elif tarfile.is_tarfile(archive):
                _unpack_tar(archive, folder)
            elif name.endswith((".gz", ".tgz")):
                with gzip.open(archive, "rb") as source:
                    _Budget(archive).copy(source, folder / "main.tex")
            else:
                raise DocumentReadError(archive, "not a tar, tar.gz or zip archive")
        except (tarfile.TarError, zipfile.BadZipFile, gzip.BadGzipFile, EOFError, OSError) as exc:
            raise DocumentReadError(archive, f"corrupt archive ({type(exc).__name__}: {exc})") from exc
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
