"""Import of ai-reviewer-diagnostics score files (PyPI ``ai-reviewer-diagnostics``, MIT).

That CLI (Li et al., "Where Do LLMs Go Wrong? Diagnosing Automated Peer Review via Aspect-Guided
Multi-Level Perturbation", CIKM 2025) compares a *baseline* and a *perturbed* JSONL file: one JSON
object per line with a shared ``id``, numeric score fields (``overall_score``,
``soundness_score`` ...) and a decision field (``final_decision``). We read the same files and
report per-field score deltas (perturbed - baseline) and decision-transition counts, or turn them
into rhetorica's tidy table so every paired analysis applies.

Scores may be numbers or OpenReview-style rating strings (``"6: marginally above the acceptance
threshold"``, ``"Score: 7"``); their leading score is read by
:func:`rhetorica.documents.ratings.parse_rating`, and any value that cannot be read unambiguously is
a listed problem naming file, id and field, never a silent gap. Bad lines (not JSON, not an object,
no ``id``, duplicate ``id``) are reported as problems naming file and line; the rest of the file is
still used. :func:`import_diagnostics_run` writes the pair as a run directory that ``rhetorica
report`` reads like any other.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel

from rhetorica.analysis.tidy import SCORE_RANGES
from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.labels import NO_REWRITER, ORIGINAL
from rhetorica.documents.models import Document, DocumentSource
from rhetorica.store.rows import AssessmentRow, DocumentRow
from rhetorica.scorecard_thresholds import DECISION_THRESHOLD
from rhetorica.hashing import content_hash
from rhetorica.store.db import Store
from rhetorica.store.export import export_tables
from rhetorica.store.imported import record_imported_run
from rhetorica.store.runs import STUDY_FILE
from rhetorica.study.run_study import ImportSource, ImportedStudy

DECISION_FIELD = "final_decision"
SCORE_FIELD_NAMES = ("overall_score", "contribution_score", "soundness_score", "presentation_score")
"""The score fields of ai-reviewer-diagnostics files (its ``DEFAULT_SCORE_FIELDS``)."""


class ImportProblem(BaseModel):
    """One unusable line or value of an imported file.

    Attributes:
        item: where: ``"<file>:<line>"`` for a bad line, ``"<file> id '<id>'"`` for a bad value.
        reason: what is wrong, in one sentence.
        unit_key: the imported assessment this problem made ``malformed`` (its reason says the same),
            or ``None`` when the assessment is still usable (e.g. only a sub-score was unreadable).
    """

    item: str
    reason: str
    unit_key: str | None = None

    def __str__(self) -> str:
        return f"{self.item}: {self.reason}"


class ScoreDelta(BaseModel):
    """Change of one numeric field over the ids present with a number in both files."""

    field: str
    n: int
    mean_baseline: float
    mean_perturbed: float
    mean_delta: float
    mean_abs_delta: float
    n_up: int
    n_down: int
    n_same: int


class Transition(BaseModel):
    """How many ids went from decision ``baseline`` to decision ``perturbed``."""

    baseline: str
    perturbed: str
    count: int


class DiagnosticsComparison(BaseModel):
    """Baseline-vs-perturbed comparison of one pair of JSONL files.

    Attributes:
        baseline: baseline file path.
        perturbed: perturbed file path.
        n_matched: ids present in both files.
        only_baseline: ids missing from the perturbed file.
        only_perturbed: ids missing from the baseline file.
        problems: ``"<file>:<line>: <problem>"`` for every unusable line.
        score_deltas: one entry per numeric field.
        decision_field: the decision field compared.
        n_decisions: ids with a decision in both files.
        n_changed: ids whose decision changed.
        transitions: counts of ``baseline -> perturbed`` decisions, most frequent first.
    """

    baseline: str
    perturbed: str
    n_matched: int
    only_baseline: list[str]
    only_perturbed: list[str]
    problems: list[str]
    score_deltas: list[ScoreDelta]
    decision_field: str
    n_decisions: int
    n_changed: int
    transitions: list[Transition]


def _score(value: Any, scale_max: float | None = None) -> tuple[float | None, str | None]:
    """``(score, None)``, ``(None, None)`` when missing, or ``(None, problem)`` when unreadable."""
    try:
        return parse_rating(value, scale_max=scale_max), None
    except RatingError as exc:
        return None, str(exc)


def _decision(value: Any) -> str | None:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def read_diagnostics_jsonl(path: str | Path) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Rows of one score file keyed by ``id``, and the problems found.

    Args:
        path: JSONL file.

    Returns:
        ``(rows, problems)``; the first row of a duplicated id is kept; each problem is
        ``"<file>:<line>: <problem>"``.

    Raises:
        OSError: if the file cannot be read (with the path in the message).
        ValueError: if it is not UTF-8 text (``<file>: line N: not UTF-8 text (byte 0x.. at offset M)``).
    """
    rows, problems = _read_rows(path)
    return rows, [str(p) for p in problems]


def _read_rows(path: str | Path) -> tuple[dict[str, dict[str, Any]], list[ImportProblem]]:
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise ValueError(f"{p}: line {line}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                         f"{exc.start}); save the diagnostics file as UTF-8") from exc
    except OSError as exc:
        raise OSError(f"{p}: cannot read diagnostics file ({exc.strerror or exc})") from exc
    rows: dict[str, dict[str, Any]] = {}
    problems: list[ImportProblem] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{p}:{number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(ImportProblem(item=where, reason=f"not valid JSON ({exc.msg})"))
            continue
        if not isinstance(obj, dict):
            problems.append(ImportProblem(item=where, reason="expected a JSON object"))
            continue
        key = obj.get("id")
        if key is None or str(key).strip() == "":
            problems.append(ImportProblem(item=where, reason="no 'id' field"))
            continue
        key = str(key)
        if key in rows:
            problems.append(ImportProblem(item=where, reason=f"duplicate id {key!r} ignored"))
            continue
        rows[key] = obj
    return rows, problems


def _score_fields(rows: Sequence[Mapping[str, Any]], decision_field: str) -> list[str]:
    """Fields compared by default: the tool's score fields and any ``*_score`` / ``*_rating`` field
    present, then any other field holding a number (JSON int or float) in some row. A text field
    such as a title is never taken for a score because it starts with a digit."""
    fields: dict[str, None] = {}
    for row in rows:
        for k, v in row.items():
            if k in ("id", decision_field):
                continue
            named = k in SCORE_FIELD_NAMES or k.lower().endswith(("_score", "_rating")) or k.lower() in (
                "score", "rating")
            if named or (isinstance(v, int | float) and not isinstance(v, bool)):
                fields.setdefault(k, None)
    return list(fields)


def _value_problems(path: str | Path, rows: Mapping[str, Mapping[str, Any]],
                    fields: Sequence[str]) -> list[ImportProblem]:
    out = []
    for key, row in rows.items():
        for field in fields:
            _, problem = _score(row.get(field))
            if problem is not None:
                out.append(ImportProblem(item=f"{path} id {key!r}", reason=f"{field}: {problem}"))
    return out


def compare_diagnostics(
    baseline: str | Path,
    perturbed: str | Path,
    *,
    score_fields: Sequence[str] | None = None,
    decision_field: str = DECISION_FIELD,
) -> DiagnosticsComparison:
    """Score deltas and decision transitions between a baseline and a perturbed file.

    Args:
        baseline: baseline JSONL path.
        perturbed: perturbed JSONL path.
        score_fields: fields to compare; default the tool's score fields, every ``*_score`` /
            ``*_rating`` field and every field holding a JSON number, in either file.
        decision_field: decision field name.

    Returns:
        :class:`DiagnosticsComparison`; a field with no id scored in both files is reported with
        ``n = 0`` and NaN means. Rating strings are read by their leading score; a value that
        cannot be read is left out of the deltas and listed in ``problems``. Values are compared
        as written (not checked against a range).

    Raises:
        OSError: if a file cannot be read.
    """
    base_rows, problems = _read_rows(baseline)
    pert_rows, more = _read_rows(perturbed)
    problems += more
    shared = [k for k in base_rows if k in pert_rows]
    if score_fields is None:
        score_fields = _score_fields([*base_rows.values(), *pert_rows.values()], decision_field)
    problems += _value_problems(baseline, base_rows, score_fields)
    problems += _value_problems(perturbed, pert_rows, score_fields)
    deltas = []
    for field in score_fields:
        pairs = [
            (b, a)
            for k in shared
            if (b := _score(base_rows[k].get(field))[0]) is not None
            and (a := _score(pert_rows[k].get(field))[0]) is not None
        ]
        n = len(pairs)
        diffs = [a - b for b, a in pairs]
        nan = float("nan")
        deltas.append(
            ScoreDelta(
                field=field,
                n=n,
                mean_baseline=sum(b for b, _ in pairs) / n if n else nan,
                mean_perturbed=sum(a for _, a in pairs) / n if n else nan,
                mean_delta=sum(diffs) / n if n else nan,
                mean_abs_delta=sum(abs(d) for d in diffs) / n if n else nan,
                n_up=sum(d > 0 for d in diffs),
                n_down=sum(d < 0 for d in diffs),
                n_same=sum(d == 0 for d in diffs),
            )
        )
    counts: Counter[tuple[str, str]] = Counter()
    for k in shared:
        before = _decision(base_rows[k].get(decision_field))
        after = _decision(pert_rows[k].get(decision_field))
        if before is not None and after is not None:
            counts[(before, after)] += 1
    transitions = [
        Transition(baseline=before, perturbed=after, count=c)
        for (before, after), c in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]
    return DiagnosticsComparison(
        baseline=str(baseline),
        perturbed=str(perturbed),
        n_matched=len(shared),
        only_baseline=[k for k in base_rows if k not in pert_rows],
        only_perturbed=[k for k in pert_rows if k not in base_rows],
        problems=[str(p) for p in problems],
        score_deltas=deltas,
        decision_field=decision_field,
        n_decisions=sum(counts.values()),
        n_changed=sum(c for (b, a), c in counts.items() if b != a),
        transitions=transitions,
    )


DEFAULT_FIELD_MAP: dict[str, str] = {"overall_score": "overall", "soundness_score": "soundness"}
"""Diagnostics fields mapped onto rhetorica's review-form scores by :func:`diagnostics_to_tidy`."""

IMPORT_REVIEWER = "external"
"""Default reviewer label of imported assessments."""


class DiagnosticsImport(BaseModel):
    """A baseline/perturbed pair as rhetorica's tidy table, with every problem met.

    Attributes:
        table: tidy assessments, one row per id and file (columns listed in
            :func:`diagnostics_to_tidy`).
        problems: every bad line and every unreadable, missing or out-of-range mapped score, in
            file order (baseline first).
        run_dir: the run directory written by :func:`import_diagnostics_run` (``None`` otherwise).
    """

    model_config = {"arbitrary_types_allowed": True}

    table: pd.DataFrame
    problems: list[ImportProblem]
    run_dir: Path | None = None


DECISION_THRESHOLD_RANGE = (1.0, 10.0)
"""Bounds of an import's decision threshold: those of a study's ``decision_threshold`` (1-10)."""


def _unit_key(arm: str, key: str) -> str:
    return f"import:{arm}:{key}"


def _mapped_scores(obj: Mapping[str, Any], field_map: Mapping[str, str],
                   absent: set[str]) -> tuple[dict[str, float], dict[str, str]]:
    """Scores of one row by rhetorica column (NaN when unusable) and the problem per source field."""
    scores: dict[str, float] = {}
    reasons: dict[str, str] = {}
    for src, dst in field_map.items():
        low, high = SCORE_RANGES[dst]
        value, problem = _score(obj.get(src), scale_max=high)
        if problem is None and value is None and src not in absent:
            problem = "missing"
        elif problem is None and value is not None and not low <= value <= high:
            problem = f"{value:g} is outside {dst}'s range {low:g}-{high:g}"
        if problem is not None:
            reasons[src] = problem
        scores[dst] = value if problem is None and value is not None else math.nan
    return scores, reasons


def diagnostics_to_tidy(
    baseline: str | Path,
    perturbed: str | Path,
    *,
    reviewer: str = IMPORT_REVIEWER,
    condition: str = "perturbed",
    field_map: Mapping[str, str] = DEFAULT_FIELD_MAP,
) -> DiagnosticsImport:
    """The two files as a rhetorica tidy table (arms ``"original"`` and ``condition``).

    Each mapped field is read with :func:`rhetorica.documents.ratings.parse_rating` against the
    top of its rhetorica range (so ``"7/10"`` reads 7 for ``overall`` and ``"4/5"`` is refused).
    A row whose ``overall`` is missing, unreadable or outside 1-10 gets status ``malformed``, no
    scores and the reason (missing stays missing); any other mapped field that is unreadable or
    out of range becomes NaN. Every such value, and every bad line, is a listed problem; a mapped
    sub-score absent from every row of a file is one problem for that file. An id in one file
    only is kept as an assessment without a partner and listed as a problem (``"<file> id '<id>':
    unpaired: ..."``), baseline ids first.

    Args:
        baseline: baseline JSONL path (becomes arm ``"original"``).
        perturbed: perturbed JSONL path (becomes arm ``condition``).
        reviewer: reviewer name for every row.
        condition: arm label of the perturbed file (must not be ``"original"``).
        field_map: diagnostics field -> tidy score column (one of rhetorica's review-form scores);
            must map some field to ``overall``.

    Returns:
        :class:`DiagnosticsImport`. Table columns: unit_key, document_id, arm, condition, rewriter,
        reviewer, model, protocol, replicate, status, reason, the mapped score columns,
        human_score, human_stratum, review_json (the file's row as JSON).

    Raises:
        ValueError: if ``field_map`` maps to a column rhetorica does not have (named), does not map
            exactly one field to ``overall`` or maps two fields to one score; if ``condition`` is
            ``"original"``; if ``condition`` or ``reviewer`` is empty (or blank); if a file is not
            UTF-8 text (its path and line named), has no usable row, or no id is in both files.
        OSError: if a file cannot be read.
    """
    targets = list(field_map.values())
    unknown = sorted(set(targets) - set(SCORE_RANGES))
    if unknown:
        raise ValueError(f"field_map maps to {', '.join(unknown)}: not a rhetorica score "
                         f"(known: {', '.join(SCORE_RANGES)})")
    if targets.count("overall") != 1:
        raise ValueError("field_map must map exactly one diagnostics field to 'overall'")
    if len(set(targets)) != len(targets):
        raise ValueError("field_map maps two diagnostics fields to the same rhetorica score")
    if condition == ORIGINAL:
        raise ValueError(f"the perturbed file's condition cannot be called {ORIGINAL!r} (that is the baseline's arm)")
    for name, value, example in (("condition", condition, "soundness:-"), ("reviewer", reviewer, "external")):
        if not value.strip():
            raise ValueError(f"{name} {value!r}: empty; the imported {name} needs a label (e.g. {example!r})")
    overall_src = next(src for src, dst in field_map.items() if dst == "overall")
    records = []
    problems: list[ImportProblem] = []
    read = {arm: _read_rows(path) for arm, path in ((ORIGINAL, baseline), (condition, perturbed))}
    for path, (rows, bad_lines) in zip((baseline, perturbed), read.values(), strict=True):
        if not rows:
            raise ValueError(f"{path}: no usable row (empty, or {len(bad_lines)} bad line(s)); nothing imported")
    base_ids, pert_ids = (set(rows) for rows, _ in read.values())
    if not base_ids & pert_ids:
        raise ValueError(f"no id is in both {baseline} and {perturbed}; nothing imported")
    for arm, path, partner, other in ((ORIGINAL, baseline, pert_ids, perturbed),
                                      (condition, perturbed, base_ids, baseline)):
        rows, bad_lines = read[arm]
        problems += bad_lines
        absent = {src for src, dst in field_map.items()
                  if dst != "overall" and rows and all(obj.get(src) is None for obj in rows.values())}
        problems += [ImportProblem(item=str(path), reason=f"{src}: absent from every row (no {field_map[src]} "
                                   "imported)") for src in field_map if src in absent]
        for key, obj in rows.items():
            unit_key = _unit_key(arm, key)
            if key not in partner:
                problems.append(ImportProblem(item=f"{path} id {key!r}",
                                              reason=f"unpaired: no row with this id in {other}"))
            scores, reasons = _mapped_scores(obj, field_map, absent)
            ok = not math.isnan(scores["overall"])
            problems += [ImportProblem(item=f"{path} id {key!r}", reason=f"{src}: {problem}",
                                       unit_key=unit_key if src == overall_src else None)
                         for src, problem in reasons.items()]
            records.append(
                {
                    "unit_key": unit_key,
                    "document_id": key,
                    "arm": arm,
                    "condition": arm,
                    "rewriter": NO_REWRITER if arm == ORIGINAL else "external",
                    "reviewer": reviewer,
                    "model": reviewer,
                    "protocol": "external",
                    "replicate": 0,
                    "status": "ok" if ok else "malformed",
                    "reason": None if ok else f"{overall_src}: {reasons[overall_src]}",
                    **{k: (v if ok else math.nan) for k, v in scores.items()},
                    "human_score": math.nan,
                    "human_stratum": None,
                    "review_json": json.dumps(obj, ensure_ascii=False, sort_keys=True),
                }
            )
    return DiagnosticsImport(table=pd.DataFrame.from_records(records), problems=problems)


IMPORTED_DOCUMENT_VERSION = "1"
"""Version of the stand-in document an import writes for each assessed id (:func:`imported_documents`)."""


def imported_documents(table: pd.DataFrame, source: str | Path, parser: str) -> list[DocumentRow]:
    """One ``documents`` row per document id of an imported assessments ``table``, in first-seen order.

    The imported file carries scores, not the paper: each document is its id, titled by its id,
    with no sections, and its source the imported file (``parser`` the import format, version
    :data:`IMPORTED_DOCUMENT_VERSION`). Stored so that the study flow counts the imported documents
    and every page of the viewer that names a document finds it.
    """
    rows = []
    for doc_id in dict.fromkeys(table["document_id"].astype(str)):
        document = Document(id=doc_id, title=doc_id, sections=[], source=DocumentSource(
            path=str(source), parser=parser, parser_version=IMPORTED_DOCUMENT_VERSION))
        rows.append(DocumentRow(document_id=doc_id, content_hash=document.content_hash, kind=document.kind,
                                title=document.title, document_json=document.model_dump_json()))
    return rows


def import_diagnostics_run(
    baseline: str | Path,
    perturbed: str | Path,
    run_dir: str | Path,
    *,
    reviewer: str = IMPORT_REVIEWER,
    condition: str = "perturbed",
    field_map: Mapping[str, str] = DEFAULT_FIELD_MAP,
    decision_threshold: float = DECISION_THRESHOLD,
) -> DiagnosticsImport:
    """Write a baseline/perturbed pair as a new run directory that ``rhetorica report`` reads.

    The run directory gets ``store.sqlite`` (the assessments of :func:`diagnostics_to_tidy`, one
    stand-in document per id (:func:`imported_documents`), one run record, and every problem that is not already a malformed assessment's reason),
    ``study.json`` (name, the import's source, the comparison ``condition`` vs ``original`` and
    the decision threshold) and the exported ``tables/``.

    Args:
        baseline, perturbed, reviewer, condition, field_map: as for :func:`diagnostics_to_tidy`.
        run_dir: a new or empty directory; written as a temporary sibling folder renamed into
            place at the end, so a failed import leaves nothing behind.
        decision_threshold: acceptance threshold on the overall score, for the report's flips
            (finite, within :data:`DECISION_THRESHOLD_RANGE`).

    Returns:
        The import, with ``run_dir`` set.

    Raises:
        FileExistsError: if ``run_dir`` is a file or a non-empty directory (an import never mixes
            with other results).
        ValueError: ``decision_threshold`` is NaN or outside 1-10; as for :func:`diagnostics_to_tidy`.
        OSError: as for :func:`diagnostics_to_tidy`.
    """

    out = Path(run_dir)
    low, high = DECISION_THRESHOLD_RANGE
    if not (math.isfinite(decision_threshold) and low <= decision_threshold <= high):
        raise ValueError(f"decision threshold {decision_threshold!r}: expected a number from {low:g} to {high:g} "
                         "(the overall score's scale)")
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{out}: is a file; import into a new run directory")
    if out.is_dir() and any(out.iterdir()):
        raise FileExistsError(f"{out}: not an empty directory; import into a new run directory")
    result = diagnostics_to_tidy(baseline, perturbed, reviewer=reviewer, condition=condition,
                                 field_map=field_map)
    study = ImportedStudy(name=out.name, comparisons=[(condition, ORIGINAL)], decision_threshold=decision_threshold,
                          imported_from=ImportSource(format="ai-reviewer-diagnostics", baseline=str(baseline),
                                                     perturbed=str(perturbed), field_map=dict(field_map)))
    rows = []
    for record in result.table.to_dict("records"):
        row = AssessmentRow.model_validate({  # a missing value of the table (NaN) is stored as NULL
            **{c: None if pd.isna(record[c]) else record[c] for c in AssessmentRow.model_fields if c in record},
            "input_hash": content_hash(record["review_json"])})
        scores = {c: float(record[c]) for c in SCORE_RANGES
                  if record.get(c) is not None and not pd.isna(record[c])}
        rows.append((row, scores))
    documents = imported_documents(result.table, baseline, study.imported_from.format)
    failed_units = {r.unit_key for r, _ in rows if r.status != "ok"}
    listed = [(p.item, p.reason) for p in result.problems if p.unit_key not in failed_units]
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.importing-", dir=out.parent))
    try:
        store = Store.in_dir(staging)
        try:
            record_imported_run(store, name=out.name, spec_hash=content_hash(study.model_dump(mode="json")),
                                assessments=rows, problems=listed, documents=documents)
            (staging / STUDY_FILE).write_text(study.model_dump_json(indent=2), encoding="utf-8")
            export_tables(store, staging / "tables")
        finally:
            store.close()
        if out.is_dir():
            out.rmdir()  # empty, checked above
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return result.model_copy(update={"run_dir": out})
