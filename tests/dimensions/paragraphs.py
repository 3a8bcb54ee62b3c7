"""Real paragraphs of ../shared/data (read in place) and hand-written rewrites of them, shared by
the dimension tests: the "Spatial anisotropy" paragraph of cheblienet_neurips2021/neurips_2021.tex
for every dimension; the programming-languages paragraph of scipy-1.0 (``evidence:-``) and the
contributions paragraph of ChebLieNet (``contribution``), because the "Spatial anisotropy"
paragraph has neither a foregrounded number nor a contribution signpost (those measures sit at
their floor of 0 there and cannot fall).
"""

from __future__ import annotations

from pathlib import Path

from rhetorica.registry import dimensions
from rhetorica.validation.measures import measure_text


def paragraph(path: Path, opening: str) -> str:
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if block.strip().startswith(opening):
            return block.strip()
    raise AssertionError(f"{path}: no paragraph opens with {opening!r}")


def spatial_paragraph(shared_data: Path) -> str:
    """The "Spatial anisotropy" paragraph of ChebLieNet."""
    return paragraph(shared_data / "papers" / "cheblienet_neurips2021" / "neurips_2021.tex",
                      r"\paragraph{Spatial anisotropy.}")


HEAD = r"\paragraph{Spatial anisotropy.} "
DEFS = (r"The spatial anisotropy $\epsilon$ regulates the anisotropy of the space on the spatial domain. "
        r"For $\epsilon = 1$, the Riemannian metric is spatially isotropic; all directions are treated equally "
        r"and the resulting model would effectively be a WideResNet with isotropic Chebyshev convolutions. "
        r"At the limit $\epsilon \to 0$, the main direction has a minimal cost, and the resulting space is "
        r"highly spatially anisotropic. ")
RESULT = (r"In figure \ref{fig:sweet_spot_orientation} we observe that using anisotropic spaces instead of "
          r"isotropic ones is relevant, as we almost get an 8\% test-accuracy improvement. ")
TAIL = (r"Unlike the orientation anisotropic parameter, in our opinion, this parameter is task/data-dependent; "
        r"different datasets could benefit in different degrees from the utilization of directional "
        r"information through different spatial anisotropy settings.")

REWRITES: dict[str, tuple[str, str]] = {
    "novelty": (
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} we demonstrate that using anisotropic spaces "
        r"instead of isotropic ones is clearly beneficial, as we almost get an 8\% test-accuracy improvement. "
        r"Unlike the orientation anisotropic parameter, this parameter is task/data-dependent; different "
        r"datasets benefit in different degrees from this novel use of directional information through "
        r"different spatial anisotropy settings.",
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} the results suggest that using anisotropic "
        r"spaces instead of isotropic ones may be relevant, as we almost get an 8\% test-accuracy improvement. "
        + TAIL),
    "scope": (
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} we observe that anisotropic spaces are "
        r"generally preferable to isotropic ones, as we almost get an 8\% test-accuracy improvement. " + TAIL,
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} we observe that, on this task, using "
        r"anisotropic spaces instead of isotropic ones is relevant, as we almost get an 8\% test-accuracy "
        r"improvement in our experiments. " + TAIL),
    "register": (
        HEAD + r"Formally, let the spatial anisotropy $\epsilon$ denote the parameter that regulates the "
        r"anisotropy of the space on the spatial domain. " + DEFS.split(". ", 1)[1] + RESULT + TAIL,
        HEAD + r"The spatial anisotropy $\epsilon$ sets how much the space on the plane changes with direction. "
        + DEFS.split(". ", 1)[1] + RESULT + TAIL),
    "complexity": (
        HEAD + r"The spatial anisotropy $\epsilon$, which regulates the anisotropy of the space on the spatial "
        r"domain, renders the Riemannian metric spatially isotropic for $\epsilon = 1$, whereupon all directions "
        r"are treated equally and the resulting model would effectively be a WideResNet with isotropic Chebyshev "
        r"convolutions, whereas at the limit $\epsilon \to 0$ the main direction has a minimal cost and the "
        r"resulting space is highly spatially anisotropic. " + RESULT + TAIL,
        HEAD + r"The spatial anisotropy $\epsilon$ sets the anisotropy of the space. It acts on the spatial "
        r"domain. For $\epsilon = 1$, the Riemannian metric is spatially isotropic. All directions are treated "
        r"the same. The model would then be a WideResNet with isotropic Chebyshev convolutions. At the limit "
        r"$\epsilon \to 0$, the main direction has a minimal cost. The space is then highly spatially "
        r"anisotropic. " + RESULT + TAIL),
}


def shift_measure(dimension: str, text: str) -> float | None:
    """The registered shift rule of ``dimension`` applied to the measures of ``text``."""
    return dimensions.get(dimension).shift.function(measure_text(text))


def assert_rewrites_move(dimension: str, spatial: str) -> None:
    """The hand-written ``+`` rewrite of the paragraph raises the dimension's measure, ``-`` lowers it."""
    plus, minus = REWRITES[dimension]
    before = shift_measure(dimension, spatial)
    assert before is not None
    assert shift_measure(dimension, plus) > before
    assert shift_measure(dimension, minus) < before
