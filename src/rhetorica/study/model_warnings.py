"""Warnings about a study's provider options, found when the study is loaded for a run.

A provider may say that an option overrides something it sets or negotiates itself (an
OpenAI-compatible ``extra_body.response_format`` replaces the negotiated structured-output mode:
:meth:`rhetorica.models.providers.openai_compatible.OpenAICompatibleModel.option_warnings`). The
study still runs as declared; the warning is listed with the run's problems and in the report.
"""

from __future__ import annotations

from typing import Any

from rhetorica.problems import WARNING_PREFIX
from rhetorica.study.config import StudyConfig
from rhetorica.models.errors import ModelError
from rhetorica.models.registry import provider_class, split_model_id


def option_warnings(config: StudyConfig) -> list[tuple[str, str, str]]:
    """``("study", "<reviewers|rewriters> <name>", "warning: ...")`` for every provider warning about
    the options of a reviewer or rewriter (a declared model's options count for each user).

    Providers whose package is not installed give none (running them fails with the install hint).
    """

    out = []
    for label, items in (("rewriter", config.rewriters), ("reviewer", config.reviewers)):
        for item in items:
            declared = item.declared_model
            if declared is not None:
                provider, options = declared.provider, declared.options.as_kwargs()
            elif item.model is not None and "/" in item.model:
                provider, options = item.model.split("/", 1)[0], item.options.as_kwargs()
            else:
                continue
            try:
                split_model_id(f"{provider}/x")
                check: Any = getattr(provider_class(provider), "option_warnings", None)
            except ModelError:
                continue
            if check is not None:
                out += [("study", f"{label} {item.name}", f"{WARNING_PREFIX}{w}") for w in check(options)]
    return out
