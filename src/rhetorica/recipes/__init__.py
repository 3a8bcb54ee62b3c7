"""Recipes: the four published studies (and any a plug-in adds), each reproducible in one command.

:mod:`~rhetorica.recipes.model` (what a recipe file holds), :mod:`~rhetorica.recipes.builtin` (the
built-in recipes' registration), :mod:`~rhetorica.recipes.data_steps` (building a corpus from public
sources), :mod:`~rhetorica.recipes.init` (``rhetorica recipe init``) and
:mod:`~rhetorica.recipes.comparison` (the report's published-vs-run section).
"""
