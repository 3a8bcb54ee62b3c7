"""Data steps of recipes: build a paper's corpus from public sources with rhetorica's own builders.

A data step is registered in :data:`rhetorica.registry.recipe_data_steps` under its kind and is
called as ``step(folder, options, sample=N, source=PATH, endpoints=…)``; it writes into ``folder``
(the recipe folder's ``data/``) and returns a :class:`DataResult`: the variables the study
template reads, one summary line per fact (counts) and the problems met. Nothing is shipped or
cached in the package: every byte comes from the public source into the user's folder.

- ``openreview``: :func:`rhetorica.datasets.openreview_build.build_openreview` (venue, rating bins,
  papers per bin, seed; ``--sample N`` takes ``ceil(N / bins)`` per bin), then, with
  ``arxiv_match: true``, :func:`rhetorica.datasets.arxiv_match.match_dataset` (the LaTeX sources).
  ``--sample N`` then keeps N of them, taken from the bins in turn. With ``latex_required: true``
  (a study that rewrites LaTeX projects) a kept paper without a LaTeX source is left out: it is not
  a unit, and the template variable ``left_out`` (``id``, ``reason``) names it for the study's
  ``recipe.left_out``, which the study flow counts. Needs the ``datasets`` extra.
- ``review-pairs``: a folder of JSONL review-rewrite files the user downloaded (the public rewrite
  benchmark of the review-metric study has no licence, so rhetorica never fetches or ships it);
  ``--sample N`` keeps N original reviews (seeded) and every rewrite of them, written to
  ``data/pairs.sample.jsonl`` in the source's own layout. With ``paired_reviews: true`` (set by
  ``init`` when the study has a judge that compares each review with another review of its paper,
  :meth:`rhetorica.kinds.EvaluatorKind.reference_need`) it keeps two reviews of each of
  ``ceil(N / 2)`` papers drawn among those with two or more, so every kept review has its reference.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhetorica.datasets.arxiv_match import ARXIV_QUERY_URL, ARXIV_SOURCE_URL, match_dataset
from rhetorica.datasets.manifest import RatingBin, load_manifest
from rhetorica.datasets.openreview_build import build_openreview
from rhetorica.files import json_objects
from rhetorica.recipes.model import RecipeError
from rhetorica.registry import recipe_data_steps
from rhetorica.wording import counted

#: Sampling seed of a pilot when the recipe's options give none.
DEFAULT_SEED = 0


@dataclass
class DataResult:
    """What a data step built.

    Attributes:
        variables: template variables (``dataset``: the dataset folder, relative to the recipe
            folder; ``papers``: its papers, each ``id``, ``latex`` (project folder or ``None``) and
            ``human_scores``; ``left_out``: sampled papers the study cannot use, each ``id`` and
            ``reason``; ``pairs``: the pair files; ``rewriters``: the imported rewriters' sources).
        units: papers (or original reviews) in the corpus.
        summary: one line per fact, printed by ``rhetorica recipe init``.
        problems: what could not be used, each naming the item (the rest was built).
    """

    variables: dict[str, Any] = field(default_factory=dict)
    units: int = 0
    summary: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


DataStep = Callable[..., DataResult]


#: what the built-in data steps read besides their options: ``source`` and endpoint names; a step
#: whose inputs depend on an option names them by ``(option, inputs)``. A step absent here (a
#: plug-in's) is given every input and judges them itself.
STEP_INPUTS: dict[str, tuple[frozenset[str], tuple[tuple[str, frozenset[str]], ...]]] = {
    "openreview": (frozenset({"openreview"}), (("arxiv_match", frozenset({"arxiv_query", "arxiv_source"})),)),
    "review-pairs": (frozenset({"source"}), ()),
}
#: the command-line option of each input, for the message
INPUT_OPTIONS = {"source": "--source", "openreview": "--openreview-url", "arxiv_query": "--arxiv-api",
                 "arxiv_source": "--arxiv-src"}


def refuse_unused_inputs(kind: str, options: Mapping[str, Any], *, source: Path | None,
                         endpoints: Mapping[str, str]) -> None:
    """Refuse an input the built-in data step ``kind`` does not read with ``options`` (before it
    writes anything); a plug-in's step (not in :data:`STEP_INPUTS`) is not judged here.

    Raises:
        RecipeError: ``source`` or an endpoint the step does not use (the message names the option).
    """
    if kind not in STEP_INPUTS:
        return
    always, optional = STEP_INPUTS[kind]
    used = set(always).union(*(inputs for option, inputs in optional if options.get(option)))
    given = ({"source"} if source is not None else set()) | set(endpoints)
    unused = sorted(given - used, key=list(INPUT_OPTIONS).index)
    if unused:
        reads = ", ".join(INPUT_OPTIONS[name] for name in INPUT_OPTIONS if name in used) or "none"
        raise RecipeError(f"the {kind!r} data step does not use {', '.join(INPUT_OPTIONS[n] for n in unused)} "
                          f"(it reads: {reads}); leave it out")


def run_data_step(kind: str, folder: Path, options: Mapping[str, Any], *, sample: int | None,
                  source: Path | None, endpoints: Mapping[str, str]) -> DataResult:
    """Run the registered data step ``kind`` into ``folder``.

    Args:
        kind: registered data step.
        folder: the recipe folder's data folder (created).
        options: the recipe's step options.
        sample: units of a pilot (``None``: the paper's full design).
        source: a local copy of the source the user downloaded (``review-pairs``).
        endpoints: base URLs of the public APIs by name (``openreview``, ``arxiv_query``,
            ``arxiv_source``): a mirror, or the recorded loopback server of the tests.

    Raises:
        RecipeError: unknown step, or a step that cannot start (message says what to do).
    """
    step: DataStep = recipe_data_steps.get(kind)
    folder.mkdir(parents=True, exist_ok=True)
    return step(folder, dict(options), sample=sample, source=source, endpoints=endpoints)


def _openreview(folder: Path, options: dict[str, Any], *, sample: int | None, source: Path | None,
                endpoints: Mapping[str, str]) -> DataResult:
    """``openreview`` data step (module docstring). Options: ``venue``, ``api`` (v1/v2), ``bins``
    (``[[low, high], …]``, last closed), ``per_bin``, ``seed``, ``arxiv_match``."""
    bins = None
    if options.get("bins"):
        raw = options["bins"]
        bins = [RatingBin(low=float(lo), high=float(hi), closed=(k == len(raw) - 1)) for k, (lo, hi) in enumerate(raw)]
    n_bins = len(bins) if bins else 6
    per_bin = options.get("per_bin", 20)  # None: every paper with a valid rating
    per_bin = None if per_bin is None else int(per_bin)
    if sample is not None:
        per_bin = max(1, math.ceil(sample / n_bins))
    root = folder / "dataset"
    build = build_openreview(options["venue"], root, api=options.get("api", "v2"), baseurl=endpoints.get("openreview"),
                             bins=bins, per_bin=per_bin, seed=int(options.get("seed", DEFAULT_SEED)),
                             download=bool(options.get("download", True)))
    result = DataResult(variables={"dataset": "data/dataset"}, units=sum(build.per_bin.values()),
                        problems=list(build.problems))
    result.summary.append(f"OpenReview {options['venue']}: {build.submissions} usable submissions; sampled "
                          + ", ".join(f"{k}: {n}" for k, n in build.per_bin.items())
                          + (f" ({per_bin} per bin)" if per_bin else ""))
    if options.get("arxiv_match"):
        run = match_dataset(root, query_url=endpoints.get("arxiv_query", ARXIV_QUERY_URL),
                            source_url=endpoints.get("arxiv_source", ARXIV_SOURCE_URL),
                            delay_seconds=float(options.get("arxiv_delay_s", 3.0)))
        unmatched = ("left out: the study rewrites LaTeX projects" if options.get("latex_required")
                     else "an unmatched paper is reviewed from its PDF")
        result.summary.append(f"arXiv LaTeX sources: {len(run.matched)} matched, {len(run.unmatched)} unmatched "
                              f"({unmatched})")
        result.problems += [f"{pid}: no LaTeX source: {why}" for pid, why in run.unmatched.items()]
    papers = load_manifest(root).papers
    if sample is not None:  # N papers, taken from the bins in turn (the first of each bin, then the second …)
        by_bin: dict[str | None, list[Any]] = {}
        for entry in papers:
            by_bin.setdefault(entry.bin, []).append(entry)
        turns = [entry for k in range(per_bin or 0) for group in by_bin.values() if k < len(group)
                 for entry in [group[k]]]
        papers = turns[:sample]
    left_out = [{"id": e.id, "reason": f"no LaTeX source ({(e.match.reason if e.match else None) or 'not matched'}); "
                 "the study rewrites LaTeX projects"} for e in papers if options.get("latex_required") and not e.latex]
    if left_out:
        result.summary.append(f"{len(left_out)} of the {len(papers)} {'sampled ' if sample is not None else ''}papers "
                              f"left out (no LaTeX source); the study has {len(papers) - len(left_out)}")
        papers = [e for e in papers if e.latex]
    result.variables["left_out"] = left_out
    result.units = len(papers)
    result.variables["papers"] = [
        {"id": e.id, "latex": f"data/dataset/{e.latex}" if e.latex else None, "human_scores": e.human_scores}
        for e in papers]
    return result


def _review_ids(line: dict[str, Any]) -> list[str]:
    reviews = line.get("reviews")
    if isinstance(reviews, list):
        return [str(r["review_id"]) for r in reviews if isinstance(r, dict) and r.get("review_id") is not None]
    return [str(line["review_id"])] if line.get("review_id") is not None else []


def _review_papers(line: dict[str, Any]) -> dict[str, str]:
    """review id -> its paper (the line's ``paper_id``; a pair without one is a paper of its own,
    as :mod:`rhetorica.documents.reviews.pairs` reads it)."""
    paper = line.get("paper_id")
    return {rid: str(paper) if paper is not None else rid for rid in _review_ids(line)}


def _no_pairs(kept: int) -> str:
    return (f"no paper of the source has two reviews: the study's judges that compare each review with another "
            f"review of its paper cannot judge any of the {kept} kept")


def _draw(reviews: list[str], papers: dict[str, str], sample: int, seed: int,
          paired: bool) -> tuple[set[str], str]:
    """The ``sample`` reviews kept (seeded) and how they were drawn, in words; ``paired``: two
    reviews of each of ``ceil(sample / 2)`` papers with two or more (fewer where fewer exist)."""
    rng = random.Random(seed)
    if not paired:
        return set(rng.sample(reviews, min(sample, len(reviews)))), ""
    by_paper: dict[str, list[str]] = {}
    for rid in reviews:
        by_paper.setdefault(papers[rid], []).append(rid)
    eligible = sorted(p for p, ids in by_paper.items() if len(ids) >= 2)
    if not eligible:
        kept = set(rng.sample(reviews, min(sample, len(reviews))))
        return kept, _no_pairs(len(kept))
    drawn = rng.sample(eligible, min(math.ceil(sample / 2), len(eligible)))
    chosen = {rid for paper in drawn for rid in rng.sample(by_paper[paper], 2)}
    rounded = f" (--sample {sample} rounded up to whole pairs)" if len(chosen) > sample else ""
    return chosen, (f"{len(chosen)} kept{rounded} as two reviews of each of {counted(len(drawn), 'paper')} ({len(eligible)} of "
                    f"{len(by_paper)} have two or more), so that each has another review of its paper as its "
                    "reference")


def _rewriters(line: dict[str, Any]) -> set[str]:
    items = line["reviews"] if isinstance(line.get("reviews"), list) else [line]
    return {str(r.get("rewrite_model") or r.get("rewriter")) for r in items
            if isinstance(r, dict) and (r.get("rewrite_model") or r.get("rewriter"))}


def _review_pairs(folder: Path, options: dict[str, Any], *, sample: int | None, source: Path | None,
                  endpoints: Mapping[str, str]) -> DataResult:
    """``review-pairs`` data step (module docstring). Options: ``glob`` (the pair files inside the
    source folder), ``seed``, ``repository`` (where users get it, for the message),
    ``paired_reviews`` (sample two reviews per paper)."""
    if source is None or not source.is_dir():
        raise RecipeError(
            f"this recipe reads the review rewrites from a folder you download yourself: clone "
            f"{options.get('repository', 'the rewrite benchmark')} and pass it with --source PATH "
            f"(got {'nothing' if source is None else str(source)!r}); rhetorica never downloads or ships it")
    files = sorted(source.glob(options.get("glob", "**/*.jsonl")))
    if not files:
        raise RecipeError(f"{source}: no file matches {options.get('glob')!r}; is this the benchmark's folder?")
    problems: list[str] = []
    read = {path: json_objects(path.read_text(encoding="utf-8-sig").splitlines(), path, problems) for path in files}
    reviews = sorted({rid for lines in read.values() for _, line in lines for rid in _review_ids(line)})
    papers = {rid: paper for lines in read.values() for _, line in lines for rid, paper in _review_papers(line).items()}
    paired = bool(options.get("paired_reviews"))
    result = DataResult(problems=problems)
    if sample is None:
        result.variables["pairs"] = [str(p.resolve()) for p in files]
        kept = read
        result.units = len(reviews)
        drawing = _no_pairs(len(reviews)) if paired and len(set(papers.values())) == len(reviews) else ""
    else:
        chosen, drawing = _draw(reviews, papers, sample, int(options.get("seed", DEFAULT_SEED)), paired)
        out = folder / "pairs.sample.jsonl"
        kept = {out: []}
        for lines in read.values():
            for _, line in lines:
                if isinstance(line.get("reviews"), list):
                    part = [r for r in line["reviews"] if isinstance(r, dict) and str(r.get("review_id")) in chosen]
                    if part:
                        kept[out].append((0, {**line, "reviews": part}))
                elif set(_review_ids(line)) & chosen:
                    kept[out].append((0, line))
        out.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for _, line in kept[out]), encoding="utf-8")
        result.variables["pairs"] = ["data/pairs.sample.jsonl"]
        result.units = len(chosen)
    rewriters = sorted({name for lines in kept.values() for _, line in lines for name in _rewriters(line)})
    result.variables["rewriters"] = rewriters
    result.summary.append(f"review pairs from {source}: {len(files)} file(s), {len(reviews)} original reviews; "
                          f"kept {result.units}; rewriting models: {', '.join(rewriters) or 'none found'}")
    if drawing:
        result.summary.append(drawing)
    if not rewriters:
        result.problems.append(f"{source}: no rewrite names its rewriting model (rewrite_model or rewriter)")
    return result


recipe_data_steps.add("openreview", _openreview, description="OpenReview venue sampled over human-rating bins "
                      "(+ arXiv LaTeX sources); needs the datasets extra")
recipe_data_steps.add("review-pairs", _review_pairs, description="a downloaded folder of JSONL review-rewrite pairs "
                      "(--source PATH)")
