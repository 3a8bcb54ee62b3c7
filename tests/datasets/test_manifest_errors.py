"""A bad manifest: one line per problem naming the file and the key, no pydantic dump."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()


def test_dataset_info_names_each_bad_key(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.yaml"
    manifest.write_text("name: d\nsource: s\nseed: many\npapers: [{id: p1, colour: red}]\n", encoding="utf-8")
    result = runner.invoke(app, ["dataset", "info", str(tmp_path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert f"{manifest}: seed: Input should be a valid integer, unable to parse string as an integer" in lines
    assert f"{manifest}: papers[0].colour: unknown key" in lines
    assert len(lines) == 2, result.output
    assert "errors.pydantic.dev" not in result.output


def test_dataset_info_manifest_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "manifest.yaml").write_bytes(b"name: caf\xe9\n")
    result = runner.invoke(app, ["dataset", "info", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.strip() == f"{tmp_path / 'manifest.yaml'}: manifest is not UTF-8 text (byte 0xe9 at offset 9)"
