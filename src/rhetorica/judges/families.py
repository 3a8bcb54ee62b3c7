"""Review-quality metric families as data: a declared form, a cited rubric and TOST bounds each
(the review-metric study, STUDIES.md §3; issue 13 part 3).

A :class:`MetricFamily` is what a judge scores in one pass: its metrics are a
:class:`rhetorica.forms.Form` (types, ranges, direction; ``role="style"`` for style-targeted
metrics, left out of the study's classification by default), its rubric is package data under
``rubrics/<version>/`` written in our own words from the published definitions, and every metric
has a declared equivalence bound δ_m on its own scale for the TOST robustness test (a study may
override any bound, :meth:`MetricFamily.equivalence_bounds`).

How a judge calls a family (``unit``):

- ``review``: one call scores every metric of the family for one review (family packing);
- ``point``: the family rates each weakness point of a review (:attr:`MetricFamily.point_form`);
  the review-level scores are means over the points (RevUtil);
- ``reference``: the review is compared with a paired reference review
  (:attr:`rhetorica.evaluation.Target.reference`; ScholarPeer).

The study's 29 content metrics (STUDIES.md, "Facts added … Study 3": M = 29), counted here:

=============  ========  =====================================================================
family         content   metrics (style-targeted ones not counted)
=============  ========  =====================================================================
revieweval     8         five depth sub-scores, total insights, actionable insights,
                         actionability score
remor          7         criticism, examples, importance & relevance, materials & methods,
                         praise, results & discussion, suggestions & solutions
                         (style: presentation & reporting)
rottenreviews  9         six 0–5 dimensions, overall quality 0–100, factuality, vagueness
                         (style: technical terms, clarity)
scholarpeer    5         five comparisons with the reference review
=============  ========  =====================================================================

8 + 7 + 9 + 5 = 29 (:data:`STUDY_FAMILIES`, checked by a test). RevUtil is the "one more" family
of the issue and is not part of the 29.

Choices we made where a paper does not fix one (each rubric says so too): REMOR's aspect scores
are the share of a review's sentences that address the aspect (its reward is sentence-normalised);
RottenReviews' factuality and vagueness labels are read as yes/no; ScholarPeer's comparison is a
1–5 scale with 3 = on a par with the reference, on five aspects we chose from the paper's stated
aims (its exact judge prompt could not be checked) — a user with the authors' prompt supplies it
as a rubric file and keeps the declared scale.

Equivalence bounds δ_m (documented choice): a tenth of the metric's range for bounded
integer/continuous scales (0–3 → 0.3, 0–5 → 0.5, 0–100 → 10, 0–1 shares → 0.1, 1–5 → 0.4), 0.1
(ten percentage points) for yes/no labels, and 1 insight for the insight counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Literal

from rhetorica.forms import Form, FormError, Metric
from rhetorica.hashing import content_hash
from rhetorica.registry import metric_families

RUBRICS_VERSION = "v1"
Unit = Literal["review", "point", "reference"]


class FamilyError(ValueError):
    """A family, metric, bound or rubric file that cannot be used (the message names it)."""


@dataclass(frozen=True)
class MetricFamily:
    """One published family of review-quality metrics.

    Attributes:
        name: registry name (``revieweval``, ``remor`` …).
        title: display name.
        citation: paper and section the metric definitions come from.
        form: the review-level scores (one primary metric).
        rubric_file: file name under ``rubrics/<version>/``.
        bounds: metric name → δ_m > 0 on the metric's scale (every metric of ``form``).
        unit: how a judge calls the family (see the module docstring).
        point_form: per-point scores of a ``point`` family (``None`` otherwise).
        in_study: counted in the review-metric study's M = 29.
        at_most: pairs (a, b) with the constraint score a <= score b (e.g. actionable insights
            cannot outnumber insights); a judgement breaking one loses both metrics (or is
            malformed as a whole when the metrics are not ``independent``).
        independent: the rubric scores each metric on its own, so a value off its declared range
            (or a broken ``at_most`` pair) makes only that metric missing, with its reason, and
            the family's other metrics are kept; ``False`` (a per-point family): one bad value
            makes the whole judgement ``malformed``.
    """

    name: str
    title: str
    citation: str
    form: Form
    rubric_file: str
    bounds: Mapping[str, float]
    unit: Unit = "review"
    point_form: Form | None = None
    in_study: bool = True
    at_most: tuple[tuple[str, str], ...] = ()
    independent: bool = True
    notes: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        names = set(self.form.metric_names)
        if set(self.bounds) != names:
            raise FamilyError(f"family {self.name!r}: bounds must cover exactly its metrics "
                              f"(missing {sorted(names - set(self.bounds))}, extra {sorted(set(self.bounds) - names)})")
        bad = [m for m, b in self.bounds.items() if not b > 0]
        if bad:
            raise FamilyError(f"family {self.name!r}: equivalence bound of {', '.join(bad)} must be > 0")
        if (self.unit == "point") != (self.point_form is not None):
            raise FamilyError(f"family {self.name!r}: a point form goes with unit 'point' and only with it")

    def broken_constraints(self, scores: Mapping[str, float]) -> dict[tuple[str, str], str]:
        """Each broken ``at_most`` pair among ``scores`` -> why (metrics absent from ``scores``
        are not checked)."""
        return {(a, b): f"{a} ({scores[a]:g}) exceeds {b} ({scores[b]:g})" for a, b in self.at_most
                if a in scores and b in scores and scores[a] > scores[b]}

    def check_consistency(self, scores: Mapping[str, float]) -> None:
        """Raise :class:`~rhetorica.forms.FormError` naming each broken ``at_most`` constraint
        among ``scores`` (metrics absent from ``scores`` are not checked)."""
        broken = self.broken_constraints(scores)
        if broken:
            raise FormError("; ".join(broken.values()))

    @property
    def content_metrics(self) -> tuple[Metric, ...]:
        """Metrics classified by default: every metric whose role is not ``style`` or ``diagnostic``."""
        return tuple(m for m in self.form.metrics if m.role == "score")

    def rubric(self, path: Path | None = None) -> str:
        """The rubric text: the shipped one, or the user's file at ``path`` (e.g. the metric's
        original prompt from its authors).

        Raises:
            FamilyError: ``path`` cannot be read as UTF-8 text, or is empty.
        """
        if path is None:
            return resources.files("rhetorica.judges").joinpath("rubrics", RUBRICS_VERSION,
                                                                self.rubric_file).read_text(encoding="utf-8")
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeError) as exc:
            raise FamilyError(f"rubric file {path}: cannot read ({exc})") from exc
        if not text.strip():
            raise FamilyError(f"rubric file {path}: empty")
        return text

    def rubric_version(self, path: Path | None = None) -> str:
        """``<version>:<hash of the rubric text>`` (``user:<hash>`` for a user file), stored with
        every judgement so that an edited rubric is never mistaken for the old one."""
        return f"{RUBRICS_VERSION if path is None else 'user'}:{content_hash(self.rubric(path))[:12]}"

    def equivalence_bounds(self, overrides: Mapping[str, float] | None = None) -> dict[str, float]:
        """δ_m per metric, the declared ones with a study's ``overrides`` applied.

        Raises:
            FamilyError: an override names no metric of this family or is not > 0.
        """
        bounds = dict(self.bounds)
        for metric, value in (overrides or {}).items():
            if metric not in bounds:
                raise FamilyError(f"family {self.name!r} has no metric {metric!r} to bound; it has "
                                  f"{', '.join(self.form.metric_names)}")
            if not float(value) > 0:
                raise FamilyError(f"family {self.name!r}, metric {metric!r}: equivalence bound must be > 0, "
                                  f"got {value}")
            bounds[metric] = float(value)
        return bounds


def _scale(name: str, low: float, high: float, description: str, *, primary: bool = False,
           kind: Literal["integer", "continuous"] = "integer", role: Literal["score", "style", "diagnostic"] = "score",
           direction: Literal["higher", "lower", "none"] = "higher") -> Metric:
    return Metric(name=name, type=kind, low=low, high=high, primary=primary, role=role, direction=direction,
                  description=description)


# ReviewEval (Garg et al. 2025, Findings of EMNLP 2025, "Depth of analysis" and "Actionable insights").
_DEPTH = (("literature_comparison", "situates the paper against prior work"),
          ("methodological_scrutiny", "examines the method and experimental design"),
          ("results_interpretation", "interprets what the results do and do not show"),
          ("theoretical_contributions", "assesses the theoretical contribution"),
          ("logical_gaps", "identifies gaps or flaws in the reasoning"))
REVIEWEVAL = MetricFamily(
    name="revieweval", title="ReviewEval: depth and actionability",
    citation="Garg et al. 2025, ReviewEval: An Evaluation Framework for AI-Generated Reviews, Findings of "
             "EMNLP 2025, sections on depth of analysis and actionable insights",
    form=Form(name="judge-revieweval", version="1",
              description="ReviewEval depth sub-scores 0-3, insight counts, actionability share",
              metrics=(*(_scale(n, 0, 3, f"0 absent .. 3 thorough: {d}") for n, d in _DEPTH),
                       Metric(name="total_insights", type="count", description="distinct critical points made"),
                       Metric(name="actionable_insights", type="count",
                              description="points that are specific, feasible and say what to change"),
                       _scale("actionability_score", 0, 1, "actionable / total insights (0 when none)",
                              kind="continuous", primary=True))),
    rubric_file="revieweval.md",
    bounds={**{n: 0.3 for n, _ in _DEPTH}, "total_insights": 1.0, "actionable_insights": 1.0,
            "actionability_score": 0.1},
    at_most=(("actionable_insights", "total_insights"),),
)

# REMOR (Taechoyotin & Acuna 2025, arXiv:2505.11718, section on the human-aligned peer review reward).
_ASPECTS = (("criticism", "points out weaknesses or problems"),
            ("examples", "backs a point with a concrete example or location in the paper"),
            ("importance_relevance", "judges the significance or relevance of the work"),
            ("materials_methods", "discusses data, materials, methods or experimental set-up"),
            ("praise", "acknowledges strengths"),
            ("results_discussion", "discusses the results and their interpretation"),
            ("suggestions_solutions", "proposes a fix, an addition or a way forward"))
REMOR = MetricFamily(
    name="remor", title="REMOR: explicit review components",
    citation="Taechoyotin & Acuna 2025, REMOR: Automated Peer Review Generation with LLM Reasoning and "
             "Multi-Objective Reinforcement Learning, arXiv:2505.11718, section on the reward's review aspects",
    form=Form(name="judge-remor", version="1",
              description="REMOR aspects: share of the review's sentences addressing each, 0-1",
              metrics=(*(_scale(n, 0, 1, f"share of sentences that {d}", kind="continuous",
                                primary=(n == "criticism")) for n, d in _ASPECTS),
                       _scale("presentation_reporting", 0, 1, "share of sentences on writing and presentation",
                              kind="continuous", role="style"))),
    rubric_file="remor.md",
    bounds={**{n: 0.1 for n, _ in _ASPECTS}, "presentation_reporting": 0.1},
)

# RottenReviews (Ebrahimi et al. 2025, CIKM 2025, section on the human-annotated quality dimensions).
_DIMENSIONS = (("comprehensiveness", "covers the paper's main aspects"),
               ("objectivity", "judges on evidence rather than taste"),
               ("fairness", "is balanced and free of bias"),
               ("actionability", "tells the authors what to do"),
               ("constructiveness", "aims at improving the work"),
               ("relevance_alignment", "stays on this paper's content and claims"))
ROTTENREVIEWS = MetricFamily(
    name="rottenreviews", title="RottenReviews: holistic quality",
    citation="Ebrahimi et al. 2025, RottenReviews: Benchmarking Review Quality with Human and LLM-Based "
             "Judgments, CIKM 2025 (doi:10.1145/3746252.3761506), section on human annotation dimensions",
    form=Form(name="judge-rottenreviews", version="1",
              description="RottenReviews dimensions 0-5, overall quality 0-100, factuality and vagueness labels",
              metrics=(*(_scale(n, 0, 5, f"0 not at all .. 5 fully: {d}") for n, d in _DIMENSIONS),
                       _scale("overall_quality", 0, 100, "0 useless .. 100 exemplary review", primary=True),
                       Metric(name="factual", type="boolean",
                              description="yes: no factually wrong statement about the paper"),
                       Metric(name="vague", type="boolean", direction="lower",
                              description="yes: the critique is mostly generic or non-specific"),
                       _scale("technical_terms", 0, 5, "use of the field's technical vocabulary", role="style"),
                       _scale("clarity", 0, 5, "clarity and readability of the review's prose", role="style"))),
    rubric_file="rottenreviews.md",
    bounds={**{n: 0.5 for n, _ in _DIMENSIONS}, "overall_quality": 10.0, "factual": 0.1, "vague": 0.1,
            "technical_terms": 0.5, "clarity": 0.5},
)

# ScholarPeer (Goyal et al. 2026, arXiv:2601.22638, section on side-by-side evaluation).
_COMPARISONS = (("novelty_assessment", "judges novelty and significance against prior work"),
                ("technical_critique", "finds methodological and technical flaws"),
                ("coverage", "raises the issues that matter for the decision"),
                ("constructiveness", "gives the authors usable guidance"),
                ("overall", "is the more useful review overall"))
SCHOLARPEER = MetricFamily(
    name="scholarpeer", title="ScholarPeer: comparison with a reference review",
    citation="Goyal et al. 2026, ScholarPeer: A Context-Aware Multi-Agent Framework for Automated Peer Review, "
             "arXiv:2601.22638, section on side-by-side evaluation against human reviews",
    form=Form(name="judge-scholarpeer", version="1",
              description="comparison with a paired reference review, 1 much worse .. 3 on a par .. 5 much better",
              metrics=tuple(_scale(n, 1, 5, f"1 much worse .. 3 on a par .. 5 much better than the reference: {d}",
                                   primary=(n == "overall")) for n, d in _COMPARISONS)),
    rubric_file="scholarpeer.md", unit="reference",
    bounds={n: 0.4 for n, _ in _COMPARISONS},
)

# RevUtil (Sadallah et al. 2025, EMNLP 2025, arXiv:2509.04484, section defining the four aspects).
_UTILITY = (("actionability", "says what the authors should do"),
            ("grounding_specificity", "names the part of the paper and what is wrong with it"),
            ("verifiability", "supports its claim with reasoning, evidence or references"),
            ("helpfulness", "is useful to the authors overall"))
REVUTIL_POINT = Form(
    name="judge-revutil-point", version="1", description="RevUtil aspects of one weakness point, 1-5",
    metrics=(*(_scale(n, 1, 5, f"1 not at all .. 5 fully: {d}", primary=(n == "helpfulness")) for n, d in _UTILITY),
             Metric(name="claim", type="boolean", role="diagnostic",
                    description="yes: the point makes a claim that needs support (no = RevUtil's 'X')")))
REVUTIL = MetricFamily(
    name="revutil", title="RevUtil: utility of weakness points",
    citation="Sadallah, Baumgärtner, Gurevych & Briscoe 2025, The Good, the Bad and the Constructive: "
             "Automatically Measuring Peer Review's Utility for Authors, EMNLP 2025 (arXiv:2509.04484), "
             "section defining actionability, grounding & specificity, verifiability and helpfulness",
    form=Form(name="judge-revutil", version="1", description="RevUtil aspects, mean over a review's weakness points",
              metrics=(*(_scale(n, 1, 5, f"mean over weakness points: {d}", kind="continuous",
                                primary=(n == "helpfulness")) for n, d in _UTILITY),
                       _scale("claim_share", 0, 1, "share of weakness points that make a claim", kind="continuous",
                              role="diagnostic", direction="none"))),
    rubric_file="revutil.md", unit="point", point_form=REVUTIL_POINT, in_study=False, independent=False,
    bounds={**{n: 0.4 for n, _ in _UTILITY}, "claim_share": 0.1},
    notes="verifiability is the mean over points that make a claim; missing (never imputed) when none does",
)

FAMILIES: dict[str, MetricFamily] = {f.name: metric_families.add(f.name, f, description=f.title)
                                     for f in (REVIEWEVAL, REMOR, ROTTENREVIEWS, SCHOLARPEER, REVUTIL)}
#: The families of the review-metric study (STUDIES.md §3), 29 content metrics in all.
STUDY_FAMILIES: tuple[str, ...] = tuple(f.name for f in FAMILIES.values() if f.in_study)


def get_family(name: str) -> MetricFamily:
    """The registered family called ``name`` (raises :class:`~rhetorica.registry.UnknownComponentError`)."""
    found = metric_families.get(name)
    assert isinstance(found, MetricFamily)
    return found


def study_bounds(families: tuple[str, ...] = STUDY_FAMILIES,
                 overrides: Mapping[str, float] | None = None) -> dict[str, float]:
    """δ_m of every content metric of ``families``, keyed ``<family>.<metric>`` (the names the
    judge table uses), with ``overrides`` (same keys) applied.

    Raises:
        FamilyError: an override names no content metric of these families, or is not > 0.
    """
    bounds: dict[str, float] = {}
    for name in families:
        family = get_family(name)
        declared = family.equivalence_bounds()
        bounds.update({f"{name}.{m.name}": declared[m.name] for m in family.content_metrics})
    for key, value in (overrides or {}).items():
        if key not in bounds:
            raise FamilyError(f"no content metric {key!r} to bound; known: {', '.join(sorted(bounds))}")
        if not float(value) > 0:
            raise FamilyError(f"metric {key!r}: equivalence bound must be > 0, got {value}")
        bounds[key] = float(value)
    return bounds
