"""A recipe from a plug-in: one file (``recipes/biased-control.yaml``), one registration, and the data
step it needs (``local-papers``: papers from a folder the user names), registered the same way.

The recipe runs the positive control of 'Style over Substance' (its Appendix C biased prompt) with
rhetorica's control reviewers: a reviewer with an injected preference for native-associated writing
at the ratio the paper measured for its biased Claude reviewer (4.3), and a null reviewer. A run
recovers the injected preference; the report sets it beside the published ratio.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rhetorica.recipes.data_steps import DataResult
from rhetorica.recipes.model import RecipeError, load_recipe
from rhetorica.registry import recipe_data_steps, recipes


def local_papers(folder: Path, options: dict[str, Any], *, sample: int | None, source: Path | None,
                 endpoints: Any) -> DataResult:
    """Every paper folder or file under ``source`` (sorted; the first ``sample`` with ``--sample``)."""
    if source is None or not source.is_dir():
        raise RecipeError("this recipe reads papers from a folder: pass it with --source PATH")
    papers = sorted(p for p in source.iterdir() if not p.name.startswith("."))[: sample or None]
    return DataResult(variables={"papers": [str(p.resolve()) for p in papers]}, units=len(papers),
                      summary=[f"{len(papers)} paper(s) from {source}"])


recipe_data_steps.add("local-papers", local_papers, description="papers from a folder you name (--source)")
recipes.add("biased-control", load_recipe(Path(__file__).parent / "recipes" / "biased-control.yaml"),
            description="the biased-reviewer positive control of Style over Substance, with control reviewers")
