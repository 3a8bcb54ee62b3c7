"""The command line loads lazily (:mod:`rhetorica.cli.app`): ``--help`` lists every command from the
lazy table without importing any command module; a command's ``--help`` imports only its own light
module; a module that needs an absent extra is answered with one line naming the extra."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rhetorica.cli
from rhetorica.cli import app as app_module
from rhetorica.cli.app import COMMANDS, app, load_command
from rhetorica.extras import EXTRA_MODULES

ROOT = Path(__file__).resolve().parents[2]
CLI_DIR = Path(rhetorica.cli.__file__).parent
runner = CliRunner()

#: what a command line that only answers help must not load
HEAVY = ("pandas", "numpy", "scipy", "matplotlib", "statsmodels", "pydantic", "jinja2", "pypdfium2", "httpx",
         "rhetorica.study", "rhetorica.store", "rhetorica.documents", "rhetorica.report", "rhetorica.analysis",
         "rhetorica.models", "rhetorica.registry")


def loaded_modules(*argv: str) -> tuple[int, str, set[str]]:
    """Exit status, stdout and every module in ``sys.modules`` after ``rhetorica argv`` in a fresh
    interpreter."""
    code = ("import json, sys\nfrom rhetorica.cli.app import main\nsys.argv = ['rhetorica', *json.loads(sys.argv[1])]\n"
            "try:\n    main()\nexcept SystemExit as stop:\n    status = stop.code or 0\nelse:\n    status = 0\n"
            "print('\\n@@' + json.dumps([status, sorted(sys.modules)]))")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), COLUMNS="200")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(argv)], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    text, _, tail = done.stdout.rpartition("\n@@")
    status, modules = json.loads(tail)
    return status, text, set(modules)


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_top_level_help_lists_every_command_and_loads_none() -> None:
    status, text, modules = loaded_modules("--help")
    assert status == 0
    said = " ".join(text.split())
    for name, entry in COMMANDS.items():
        assert f"│ {name} " in text and entry.short_help in said, name
    commands = {m for m in modules if m.startswith("rhetorica.cli.")}
    assert commands == {"rhetorica.cli.app"}
    assert heavy(modules) == []


@pytest.mark.parametrize(("argv", "own"), [
    (("status", "--help"), {"rhetorica.cli.status", "rhetorica.cli.output", "rhetorica.cli.errors"}),
    (("scan", "--help"), {"rhetorica.cli.scan"}),
])
def test_a_commands_help_loads_its_module_only(argv: tuple[str, ...], own: set[str]) -> None:
    status, text, modules = loaded_modules(*argv)
    assert status == 0 and "Usage" in text
    assert {m for m in modules if m.startswith("rhetorica.cli.")} == {"rhetorica.cli.app"} | own
    assert heavy(modules) == []


def test_every_command_loads_under_its_name_with_the_tables_one_line_help() -> None:
    for name, entry in COMMANDS.items():
        command = load_command(name)
        assert command.name == name and command.short_help == entry.short_help
        assert (command.help or "").strip(), f"{name} has no help of its own"


def test_every_command_module_is_in_the_lazy_table() -> None:
    """A command added under cli/ without a table entry would never be listed nor reachable."""
    in_table = {entry.target.split(":")[0] for entry in COMMANDS.values()}
    helpers = {"__init__", "app", "errors", "output", "progress"}  # imported by commands, define none
    assert {p.stem for p in CLI_DIR.glob("*.py")} == in_table | helpers
    assert not in_table & helpers


def _fake_command_module(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    """A command ``fake`` whose body imports the absent module ``missing``."""
    module = types.ModuleType("rhetorica.cli.fake_for_test")

    def fake() -> None:
        """A command that needs a module that is not installed."""
        raise ModuleNotFoundError(f"No module named {missing!r}", name=missing)

    module.fake = fake  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rhetorica.cli.fake_for_test", module)
    monkeypatch.setitem(COMMANDS, "fake", app_module.LazyCommand("fake_for_test:fake", "A fake command."))


@pytest.mark.parametrize(("missing", "extra"), [("openreview", "datasets"), ("sklearn.linear_model", "validation"),
                                                ("google", "google"), ("aiohttp", "openai")])
def test_a_module_of_an_absent_extra_met_while_running_is_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, missing: str, extra: str) -> None:
    _fake_command_module(monkeypatch, missing)
    result = runner.invoke(app, ["fake"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: rhetorica fake needs the '{extra}' extra ({missing} is not installed): pip install 'rhetorica[{extra}]'"]


def test_a_module_of_an_absent_extra_met_while_loading_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    real = app_module.importlib.import_module

    def import_module(name: str) -> types.ModuleType:
        if name == "rhetorica.cli.validate":
            raise ModuleNotFoundError("No module named 'torch'", name="torch")
        return real(name)

    monkeypatch.setattr(app_module.importlib, "import_module", import_module)
    for argv in (["validate", "run"], ["validate", "--help"]):
        result = runner.invoke(app, argv)
        assert result.exit_code == 2, argv
        assert result.output.splitlines() == [
            "error: rhetorica validate needs the 'validation' extra (torch is not installed): "
            "pip install 'rhetorica[validation]'"]
    assert runner.invoke(app, ["scan", "--help"]).exit_code == 0  # other commands unaffected


def test_a_missing_module_of_no_extra_is_not_disguised(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module that no extra brings means a broken install: its error goes up unchanged."""
    _fake_command_module(monkeypatch, "requests")
    result = runner.invoke(app, ["fake"])
    assert isinstance(result.exception, ModuleNotFoundError) and result.exception.name == "requests"


@pytest.mark.parametrize(("absent", "named"), [(("embedded",), "'embedded' extra"),
                                               (("validation",), "'validation' extra"),
                                               (("embedded", "validation"), "'embedded' and 'validation' extras")])
def test_demo_without_its_extras_exits_2_naming_them_and_writes_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, absent: tuple[str, ...], named: str) -> None:
    for extra in absent:
        monkeypatch.setitem(EXTRA_MODULES, extra, ("rhetorica_no_such_module_xyz",))
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: rhetorica demo papers needs the {named}: pip install 'rhetorica[{','.join(absent)}]'"]
    assert list(tmp_path.iterdir()) == []
