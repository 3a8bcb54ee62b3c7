"""Safe unpacking of LaTeX source archives."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from rhetorica.documents import DocumentReadError, read_document
from rhetorica.documents import archive as archive_module

MAIN = b"\\documentclass{article}\n\\begin{document}\n\\input{sec/intro}\n\\end{document}\n"
INTRO = b"\\section{Intro}\nPacked text.\n"


def _tar(path: Path, members: list[tarfile.TarInfo | tuple[str, bytes]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                tar.addfile(member)
            else:
                info = tarfile.TarInfo(member[0])
                info.size = len(member[1])
                tar.addfile(info, io.BytesIO(member[1]))
    return path


def _link(name: str, target: str, kind: bytes = tarfile.SYMTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


def _problem(path: Path) -> str:
    with pytest.raises(DocumentReadError) as info:
        read_document(path)
    return info.value.problem


def test_tarball_reads_like_a_folder(tmp_path: Path) -> None:
    doc = read_document(_tar(tmp_path / "2101.00001.tar.gz", [("main.tex", MAIN), ("sec/intro.tex", INTRO)]))
    assert doc.id == "2101.00001"
    assert [(s.title, s.text) for s in doc.sections] == [("Intro", "Packed text.")]
    assert doc.source.path == str(tmp_path / "2101.00001.tar.gz")
    assert doc.metadata["archive"] == "2101.00001.tar.gz"


def test_real_project_tarball_equals_folder(tmp_path: Path, papers_dir: Path) -> None:
    folder = papers_dir / "stable-nalu_iclr2020"
    path = tmp_path / "stable-nalu_iclr2020.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for file in sorted(folder.rglob("*.tex")):
            tar.add(file, arcname=str(file.relative_to(folder)))
    assert read_document(path).sections == read_document(folder).sections


def test_zip_reads(tmp_path: Path) -> None:
    path = tmp_path / "paper.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("main.tex", MAIN)
        zf.writestr("sec/intro.tex", INTRO)
    assert [s.title for s in read_document(path).sections] == ["Intro"]


def test_single_gzipped_tex(tmp_path: Path) -> None:
    path = tmp_path / "2101.00002.gz"
    path.write_bytes(gzip.compress(b"\\documentclass{article}\n\\begin{document}\n\\section{One}\nHi.\n\\end{document}\n"))
    assert [(s.title, s.text) for s in read_document(path).sections] == [("One", "Hi.")]


def test_dotdot_path_rejected(tmp_path: Path) -> None:
    path = _tar(tmp_path / "evil.tar.gz", [("main.tex", MAIN), ("../escape.tex", INTRO)])
    assert _problem(path) == "unsafe archive: member '../escape.tex' escapes the folder ('..')"
    assert not (tmp_path / "escape.tex").exists()


def test_absolute_path_rejected(tmp_path: Path) -> None:
    path = tmp_path / "abs.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("/tmp/main.tex", MAIN)
    assert _problem(path) == "unsafe archive: member '/tmp/main.tex' has an absolute path"


def test_symlink_to_etc_rejected(tmp_path: Path) -> None:
    path = _tar(tmp_path / "link.tar.gz", [("main.tex", MAIN), _link("sec/intro.tex", "/etc/passwd")])
    assert _problem(path) == "unsafe archive: link 'sec/intro.tex' points outside the folder (to '/etc/passwd')"


def test_relative_symlink_escaping_rejected(tmp_path: Path) -> None:
    path = _tar(tmp_path / "link.tar.gz", [("main.tex", MAIN), _link("sec/intro.tex", "../../etc/passwd")])
    assert "points outside the folder" in _problem(path)


def test_hardlink_escaping_rejected(tmp_path: Path) -> None:
    path = _tar(tmp_path / "hard.tar.gz", [("main.tex", MAIN), _link("x.tex", "../x", tarfile.LNKTYPE)])
    assert _problem(path) == "unsafe archive: link 'x.tex' points outside the folder (to '../x')"


def test_file_count_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_module, "MAX_FILES", 3)
    path = _tar(tmp_path / "many.tar.gz", [(f"f{i}.tex", b"x") for i in range(4)])
    assert _problem(path) == "archive has more than 3 files"


def test_size_cap_counts_real_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_module, "MAX_TOTAL_BYTES", 2 * 1024 * 1024)
    path = _tar(tmp_path / "big.tar.gz", [("main.tex", MAIN), ("big.bin", b"\0" * (3 * 1024 * 1024))])
    assert _problem(path) == "archive unpacks to more than 2 MiB"


def test_corrupt_archive(tmp_path: Path) -> None:
    path = tmp_path / "bad.zip"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    assert _problem(path).startswith("corrupt archive (BadZipFile")


def _zip_symlink(path: Path, name: str, target: bytes) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("main.tex", MAIN)
        zf.writestr("sec/intro.tex", INTRO)
        info = zipfile.ZipInfo(name)
        info.external_attr = (0o120777 << 16)  # S_IFLNK | rwxrwxrwx: a symbolic link
        info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, target)
    return path


def test_zip_symlink_inside_is_skipped(tmp_path: Path) -> None:
    path = _zip_symlink(tmp_path / "ok.zip", "sec/alias.tex", b"intro.tex")
    assert [(s.title, s.text) for s in read_document(path).sections] == [("Intro", "Packed text.")]


def test_zip_symlink_with_a_huge_target_is_not_read_whole(tmp_path: Path) -> None:
    # 20 MiB of 'a' deflate to ~20 KiB: read whole, the "target" would take 20 MiB of memory.
    path = _zip_symlink(tmp_path / "bomb.zip", "sec/alias.tex", b"a" * (20 * 2**20))
    assert path.stat().st_size < 100_000
    assert _problem(path) == "unsafe archive: link 'sec/alias.tex' has a target longer than 4096 bytes"


def test_tar_symlink_with_a_huge_target_rejected(tmp_path: Path) -> None:
    path = _tar(tmp_path / "long.tar.gz", [("main.tex", MAIN), _link("sec/intro.tex", "a/" * 3000)])
    assert _problem(path) == "unsafe archive: link 'sec/intro.tex' has a target longer than 4096 bytes"


def test_tar_member_list_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_module, "MAX_ENTRIES", 10)
    folders = []
    for i in range(11):  # folders only: no file, so the file cap never sees them
        info = tarfile.TarInfo(f"d{i}")
        info.type = tarfile.DIRTYPE
        folders.append(info)
    path = _tar(tmp_path / "wide.tar.gz", [*folders])
    problem = _problem(path)
    assert problem == "archive lists more than 10 members"
    with pytest.raises(DocumentReadError, match=r"wide\.tar\.gz: archive lists more than 10 members"):
        read_document(path)  # the message names the archive


def test_tar_headers_are_read_lazily_up_to_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_module, "MAX_ENTRIES", 3)
    read: list[str] = []
    real_next = tarfile.TarFile.next

    def counting_next(self: tarfile.TarFile) -> tarfile.TarInfo | None:
        member = real_next(self)
        if member is not None:
            read.append(member.name)
        return member

    monkeypatch.setattr(tarfile.TarFile, "next", counting_next)
    path = _tar(tmp_path / "many.tar.gz", [(f"f{i}.tex", b"x") for i in range(50)])
    assert _problem(path) == "archive lists more than 3 members"
    # tarfile.open reads the first header once more; either way it stops at the 4th, not the 50th
    assert sorted(set(read)) == ["f0.tex", "f1.tex", "f2.tex", "f3.tex"]


def test_zip_member_list_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_module, "MAX_ENTRIES", 10)
    path = tmp_path / "wide.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(11):
            zf.writestr(f"d{i}/", b"")
    assert _problem(path) == "archive lists more than 10 members"


def test_deep_member_rejected(tmp_path: Path) -> None:
    deep = "d/" * 40 + "x.tex"
    for path in (_tar(tmp_path / "deep.tar.gz", [("main.tex", MAIN), (deep, INTRO)]), tmp_path / "deep.zip"):
        if path.suffix == ".zip":
            with zipfile.ZipFile(path, "w") as zf:
                zf.writestr("main.tex", MAIN)
                zf.writestr(deep, INTRO)
        assert _problem(path) == f"unsafe archive: member '{deep}' is nested more than 32 folders deep"


def test_zip_declared_size_checked_before_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_module, "MAX_TOTAL_BYTES", 2 * 1024 * 1024)
    written: list[Path] = []
    real_copy = archive_module._Budget.copy

    def spy(self: object, source: object, target: Path) -> None:
        written.append(target)
        real_copy(self, source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(archive_module._Budget, "copy", spy)
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("main.tex", MAIN)
        zf.writestr("big.bin", b"\0" * (3 * 1024 * 1024))
    assert _problem(path) == "archive unpacks to more than 2 MiB"
    assert written == []  # refused from the declared sizes, before any file was written
