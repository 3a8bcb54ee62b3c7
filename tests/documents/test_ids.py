"""The one document-id rule: the source's id verbatim, else generated from where the document sits."""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents.ids import manuscript_id, path_id, review_id, rewrite_id


def test_a_manuscript_is_named_by_its_folder_or_its_file_without_extensions(tmp_path: Path) -> None:
    folder = tmp_path / "chebnet_nips2016"
    folder.mkdir()
    for name in ("paper.tar.gz", "paper.TGZ", "paper.pdf", "notes.v2.md"):
        (tmp_path / name).write_bytes(b"x")
    assert path_id(folder) == "chebnet_nips2016"
    assert [path_id(tmp_path / n) for n in ("paper.tar.gz", "paper.TGZ", "paper.pdf", "notes.v2.md")] == [
        "paper", "paper", "paper", "notes.v2"]
    packed_folder = tmp_path / "unpacked.zip"  # a folder is named by its name, whatever it ends with
    packed_folder.mkdir()
    assert path_id(packed_folder) == "unpacked.zip"


def test_the_source_id_is_kept_verbatim_and_only_a_missing_one_is_generated(tmp_path: Path) -> None:
    (tmp_path / "a.pdf").write_bytes(b"x")
    assert manuscript_id(tmp_path / "a.pdf", "ICLR 2024 / 17") == "ICLR 2024 / 17"
    assert manuscript_id(tmp_path / "a.pdf") == "a"
    assert review_id("p1", 3, "b9IG") == "b9IG" and review_id("p1", 3, "0") == "0"
    assert review_id("p1", 3) == "p1.review3"
    assert rewrite_id("b9IG", 2, "rw-7") == "rw-7" and rewrite_id("b9IG", 2) == "b9IG.rewrite2"


def test_a_folder_given_as_dot_or_dotdot_is_named_by_the_folder_it_resolves_to(tmp_path, monkeypatch) -> None:
    (tmp_path / "outer" / "my-paper").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "outer" / "my-paper")
    assert (path_id(Path(".")), path_id(Path("..")), path_id(Path("../my-paper/"))) == ("my-paper", "outer", "my-paper")
