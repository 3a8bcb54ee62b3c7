"""The review-metric study's pieces that plug into a study run (STUDIES.md §3; issue 13).

Registered here (a built-in module, :func:`rhetorica.registry.builtin_modules`):

- **conditions** ``paraphrase`` (dimension ``paraphrase``, no direction) and ``polish:+``
  (dimension ``polish``), the two review rewrite conditions of :mod:`rhetorica.judges.conditions`;
- **dimensions** with their shift rules (:class:`rhetorica.validation.shift.Dimension`):
  ``paraphrase`` has the explicit rule that *no* stylistic shift is expected (same content, about
  the same length: the review checks are its whole validation); ``polish`` is measured by
  :data:`POLISH_MEASURE`, sentences per 100 words (our documented choice: the polish instruction
  asks for one point per item and smooth sentences, which splits run-on prose into more, shorter
  units; ``+`` needs the rewrite's value above the original's);
- **rewriter kinds** ``review`` (a model rewrites the whole review in one call under the
  condition's instruction; :func:`rewrite_review`) and ``imported`` (the rewrite of a ``pairs``
  document is stored as the variant, no model call; :func:`imported_variant`). Both produce only
  review conditions; the section-wise ``llm`` kind refuses them (its integrity rules are a
  manuscript's).

Also: :func:`validate_review` (the validate stage for review documents: the review checks of
:func:`rhetorica.validation.review_checks.check_review_variant` plus the shift rule), and
:func:`planned_judge_calls` / :func:`reference_review` (the review stage for ``kind: judge``, whose kind
is :class:`rhetorica.study.evaluator_kinds.JudgeKind`).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

from rhetorica.documents.models import Document, Section
from rhetorica.documents.reviews.model import is_review
from rhetorica.forms import register_form
from rhetorica.judges.families import FAMILIES, FamilyError, RUBRICS_VERSION, get_family
from rhetorica.judges.conditions import REVIEW_CONDITIONS, ReviewCondition
from rhetorica.study.review_inputs import IMPORTED
from rhetorica.registry import conditions, dimensions, rewriters, variant_validators
from rhetorica.store.rows import VariantRow
from rhetorica.rewriting.conditions import Condition, ConditionDefinition
from rhetorica.kinds import RewriterKind, RunContext
from rhetorica.status import Status
from rhetorica.validation.shift import Dimension, ShiftRule, shift_checks
from importlib import resources
from pathlib import Path
from rhetorica.judges.judge import Judge
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.call import call_model
from rhetorica.reviewers.form import strip_reasoning
from rhetorica.study.planned_calls import PlannedCall, approximate_tokens
from rhetorica.validation.review_checks import check_review_variant, ReviewCheckSettings
from rhetorica.validation.validate import CheckVerdict, measure_text, TextMeasures


REVIEW_CONDITION_NAMES: dict[str, str] = {"paraphrase": "paraphrase", "polish:+": "polish"}
"""Study condition name -> :data:`rhetorica.judges.conditions.REVIEW_CONDITIONS` key."""
REVIEW_DIMENSIONS = frozenset(REVIEW_CONDITION_NAMES.values())
POLISH_MEASURE = "sentences per 100 words"
IMPORTED_VERSION = "imported:v1"


def _sentences_per_100_words(m: TextMeasures) -> float | None:
    return 100.0 * m.sentences / m.words if m.words else None


for _family in FAMILIES.values():  # the judges' forms, so that stored judgements name a known form
    register_form(_family.form)

dimensions.add("paraphrase", Dimension("paraphrase", ShiftRule(
    "meaning-preserving review rewrite: no stylistic shift expected (review points, scores, recommendation "
    "and length are checked instead)", None)), description="no shift expected: meaning-preserving review rewrite")
dimensions.add("polish", Dimension("polish", ShiftRule(POLISH_MEASURE, _sentences_per_100_words)),
               description=f"shift measure: {POLISH_MEASURE}")
for _name, _key in REVIEW_CONDITION_NAMES.items():
    _review = REVIEW_CONDITIONS[_key]
    conditions.add(_name, ConditionDefinition(_key, f"review: {_review.description}"),
                   description=f"review: {_review.description}")


def review_condition(condition: str) -> ReviewCondition:
    """The review condition a study condition names.

    Raises:
        ValueError: ``condition`` is not a review condition.
    """
    if condition not in REVIEW_CONDITION_NAMES:
        raise ValueError(f"{condition!r} is not a review condition ({', '.join(REVIEW_CONDITION_NAMES)})")
    return REVIEW_CONDITIONS[REVIEW_CONDITION_NAMES[condition]]


def _review_refuses(condition: Condition) -> str | None:
    if condition.name not in REVIEW_CONDITION_NAMES:
        return f"only produces review conditions ({', '.join(REVIEW_CONDITION_NAMES)}), not {condition.name!r}"
    return None


class ReviewRewriter(RewriterKind):
    """A model rewrites a whole review under a review condition (one call per review)."""

    needs_model = True
    document_entries = ("reviews", "pairs")
    document_need = "rewrites review documents and cannot rewrite"

    def refuses(self, condition: Condition) -> str | None:
        return _review_refuses(condition)

    def prompt_version(self, condition: str) -> str:
        """``v1:<hash>`` of the review condition's instruction."""
        return review_condition(condition).prompt_version

    def planned_calls(self, unit: Any) -> list[Any]:

        rw = unit.rewriter
        if rw.model is None:
            return []
        return [PlannedCall(rw.served_model, review_messages(unit.document, unit.condition),
                            rw.sampling.max_tokens or approximate_tokens(unit.document.to_markdown()))]

    async def execute(self, unit: Any, ctx: RunContext) -> VariantRow:
        return self.variant_row(unit, *await rewrite_review(unit, ctx))


class ImportedRewriter(ReviewRewriter):
    """Stores an imported rewrite of a 'pairs' document (no call)."""

    needs_model = False
    document_entries = ("pairs",)
    document_need = "stores the rewrites of 'pairs' entries and has none to store for"

    def prompt_version(self, condition: str) -> str:
        """``imported:v1``."""
        return IMPORTED_VERSION

    def planned_calls(self, unit: Any) -> list[Any]:
        return []

    def input_problems(self, spec: Any, documents: list[Any]) -> list[str]:
        """A ``source`` (default: the rewriter's name) that no rewrite of the pairs files names:
        one problem listing the ``rewriter`` values the files hold."""
        source = str(spec.options.as_kwargs().get("source") or spec.name)
        held = sorted({str(r["rewriter"]) for d in documents for r in d.metadata.get(IMPORTED) or []})
        if not held or source in held:
            return []
        return [f"rewriter {spec.name!r} (kind imported) takes the rewrites whose 'rewriter' is {source!r} "
                f"(options.source, default its name), and the pairs files hold none; their 'rewriter' values: "
                f"{', '.join(repr(h) for h in held)}: set options.source to one of them"]

    async def execute(self, unit: Any, ctx: RunContext) -> VariantRow:
        rw = unit.rewriter
        if not is_review(unit.document):
            return self.variant_row(unit, *_not_a_review(unit))
        source = str(rw.options.as_kwargs().get("source") or rw.name)
        return self.variant_row(unit, *imported_variant(unit.document, unit.condition, source))


REVIEW_KIND = ReviewRewriter()
IMPORTED_KIND = ImportedRewriter()
rewriters.add("review", REVIEW_KIND, description="a model rewrites a whole review under a review condition")
rewriters.add("imported", IMPORTED_KIND, description="stores an imported rewrite of a 'pairs' document (no call)")


RewriteOutcome = tuple[Status, Document | None, str | None]
"""What a review rewrite made: ``(status, the variant or None, why it failed or None)``, the
outcome :meth:`rhetorica.kinds.RewriterKind.variant_row` makes the ``variants`` row of."""


def imported_variant(original: Document, condition: str, source: str) -> RewriteOutcome:
    """The variant of an imported original: its one rewrite under ``condition`` by ``source``
    (the pairs file's ``rewriter`` value).

    Returns:
        ``(ok, variant, None)``; ``(empty, None, reason)`` when the file holds no such rewrite;
        ``(error, None, reason)`` when it holds several (give each its own ``rewriter`` value).
    """
    found = [r for r in original.metadata.get(IMPORTED) or []
             if r["condition"] == condition and r["rewriter"] == source]
    if not found:
        return Status.EMPTY, None, f"the pairs file has no {condition} rewrite of {original.id} by {source!r}"
    if len(found) > 1:
        ids = ", ".join(r["rewrite_id"] for r in found)
        return Status.ERROR, None, (f"the pairs file has {len(found)} {condition} rewrites of {original.id} by "
                                    f"{source!r} ({ids}); give each its own 'rewriter' value")
    rewrite = found[0]
    title = original.sections[0].title if len(original.sections) == 1 else "Review"
    metadata = {k: v for k, v in original.metadata.items() if k != IMPORTED}
    rating = rewrite.get("rating")  # the rewrite's own rating (a rewrite record's 'rating')
    source = original.source  # the rewrite's own line, and whether its id was generated (tables/ids.csv)
    if source is not None and rewrite.get("source"):
        source = source.model_copy(update={"path": rewrite["source"]})
    return Status.OK, original.model_copy(update={
        "sections": [Section(title=title, text=rewrite["text"].strip())],
        "human_scores": [float(rating)] if rating is not None else original.human_scores, "source": source,
        "metadata": {**metadata, "rewrite_id": rewrite["rewrite_id"], "imported": True,
                     "id_generated": bool(rewrite.get("id_generated", False))}}), None


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def review_from_text(original: Document, text: str) -> Document:
    """A rewritten review as a document: the text split at its Markdown headings (the sections of
    the rewrite; a leading ``# Review n`` title is dropped), else one section titled like the
    original's only section (or ``Review``). A leading echo of :data:`REVIEW_LABEL` is dropped.
    Keeps the original's id, kind and metadata."""
    text = text.strip()
    if text.lower().startswith(REVIEW_LABEL.lower()):
        text = text[len(REVIEW_LABEL):].strip()
    marks = list(_HEADING.finditer(text))
    if marks and marks[0].start() == 0 and marks[0].group(1).strip() == original.title:
        text = text[marks[0].end():].strip()
        marks = list(_HEADING.finditer(text))
    sections: list[Section] = []
    if marks:
        lead = text[: marks[0].start()].strip()
        if lead:
            sections.append(Section(title="", text=lead))
        for i, mark in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            body = text[mark.end(): end].strip()
            if body:
                sections.append(Section(title=mark.group(1).strip(), text=body))
    if not sections:
        title = original.sections[0].title if len(original.sections) == 1 else "Review"
        sections = [Section(title=title, text=text)]
    return original.model_copy(update={"sections": sections})


REVIEW_LABEL = "The review to rewrite:"
"""The line that introduces the review in a rewrite call (dropped when a model echoes it)."""


def review_messages(document: Document, condition: str) -> list[Any]:
    """The one call that rewrites a whole review: the condition's instruction, then the review's
    sections as Markdown. The review's ``# Review n`` title is left out: it is rhetorica's
    numbering, not the reviewer's text, and a model shown it tends to go on with an invented
    ``# Review n+1`` until it runs out of tokens (the cause of most truncated demo rewrites)."""

    body = document.model_copy(update={"title": ""}).to_markdown()
    return [ChatMessage(role="system", content=review_condition(condition).instructions()),
            ChatMessage(role="user", content=f"{REVIEW_LABEL}\n\n{body}")]


def _not_a_review(unit: Any) -> RewriteOutcome:
    return Status.ERROR, None, f"{unit.document.id} is not a review; rewriter kind {unit.rewriter.kind!r} rewrites reviews only"


async def rewrite_review(unit: Any, ctx: RunContext) -> RewriteOutcome:
    """Run one rewrite unit of a ``review`` rewriter in the run context ``ctx``.

    Returns:
        Its outcome (:data:`RewriteOutcome`; the kind makes the row). A model failure passes its
        status through; an empty answer is ``empty``.
    """

    rw = unit.rewriter
    if not is_review(unit.document):
        return _not_a_review(unit)
    model = ctx.model(rw.model, rw.options.as_kwargs())
    config = GenerateConfig(temperature=rw.sampling.temperature, top_p=rw.sampling.top_p,
                            max_tokens=rw.sampling.max_tokens)
    output = await call_model(model, review_messages(unit.document, unit.condition), config,
                              context=ctx.calls(unit.key))
    if output.status != Status.OK:
        return output.status, None, output.error

    text = strip_reasoning(output.text).strip()
    if not text:
        return Status.EMPTY, None, "the rewriter answered with no text"
    return Status.OK, review_from_text(unit.document, text), None


def validate_review(original: Document, variant: Document, condition: str, embedder: Any = None,
                    settings: ReviewCheckSettings | None = None) -> CheckVerdict:
    """The validate stage for a review variant: points, scores, recommendation and length
    (:func:`~rhetorica.validation.review_checks.check_review_variant` with the study's
    ``validation.review`` thresholds, TF-IDF without an embedder) and the condition's shift rule
    (:func:`rhetorica.validation.shift.shift_checks`).

    Returns:
        The verdict (the validate stage makes the ``checks`` row of it); its ``result_json`` is
        ``{"kind": "review", ...}``.
    """

    review = review_condition(condition)
    try:
        check = check_review_variant(original, variant, condition=REVIEW_CONDITION_NAMES[condition],
                                     embedder=embedder, settings=settings, length_bounds=review.length_bounds)
    except (OSError, ImportError):  # the embedding model is not available here: TF-IDF (recorded as method)
        check = check_review_variant(original, variant, condition=REVIEW_CONDITION_NAMES[condition],
                                     embedder=None, settings=settings, length_bounds=review.length_bounds)
    shifts = shift_checks(condition, measure_text(original.to_markdown()), measure_text(variant.to_markdown()))
    problems = list(check.problems) + [
        f"intended shift absent: {s.measure} {s.original if s.original is None else round(s.original, 2)} -> "
        f"{s.variant if s.variant is None else round(s.variant, 2)}" for s in shifts if not s.present]
    result = {"kind": "review", **asdict(check), "shift": [s.model_dump() for s in shifts]}
    result["ok"] = not problems
    return CheckVerdict(passed=not problems, reasons=problems, result_json=json.dumps(result))


def planned_judge_calls(reviewer: Any, target: Any) -> list[Any]:
    """The :class:`~rhetorica.judges.judge.JudgeCall` list a ``kind: judge`` reviewer makes for
    ``target`` (``rhetorica estimate``; no model is built or called): the judge's own
    :meth:`~rhetorica.judges.judge.Judge.calls`, so the messages are those the model is sent.

    Rubric files are read relative to the current folder (the estimate has no runner); one that
    cannot be read there is stood in for by the shipped rubric, which keeps the number of calls
    and changes only the token count. A reference family's target without a reference review
    makes no call (the runner records it as ``error``).
    """


    options = {k: v for k, v in reviewer.options.as_kwargs().items() if k != "model_options"}
    family = get_family(str(options["family"]))
    shipped = Path(str(resources.files("rhetorica.judges").joinpath("rubrics", RUBRICS_VERSION, family.rubric_file)))

    def readable(path: Any) -> Path:
        try:
            family.rubric(Path(path))
        except FamilyError:
            return shipped
        return Path(path)

    rubric = options.get("rubric_file")
    judge = Judge(name=reviewer.name, model=None, family=family, rubric_file=readable(rubric) if rubric else None,
                  metric_rubrics={m: readable(p) for m, p in (options.get("metric_rubrics") or {}).items()},
                  packing=options.get("packing", "family"), per_point_calls=bool(options.get("per_point_calls")),
                  temperature=reviewer.sampling.temperature, max_tokens=reviewer.sampling.max_tokens)
    try:
        return judge.calls(target)
    except ValueError:
        return []


variant_validators.add("review", lambda original, variant, condition, embedder, settings: validate_review(
    original, variant, condition, embedder, settings.review),
    description="review variants: points, scores, recommendation, length and the intended shift")
