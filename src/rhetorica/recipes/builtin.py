"""The built-in recipes: one package data file each (``rhetorica/data/recipes``), one registration each.

A plug-in adds a recipe the same way from its own package::

    from rhetorica.recipes.model import load_recipe
    from rhetorica.registry import recipes

    recipes.add("my-study", load_recipe(Path(__file__).parent / "my-study.yaml"))
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rhetorica.recipes.model import load_recipe
from rhetorica.registry import recipes


def _builtin(name: str) -> None:
    recipe = load_recipe(Path(str(resources.files("rhetorica") / "data" / "recipes" / f"{name}.yaml")))
    recipes.add(recipe.name, recipe, description=recipe.summary)


_builtin("style-over-substance")
_builtin("six-dimensions")
_builtin("judge-robustness")
_builtin("robustreview")
