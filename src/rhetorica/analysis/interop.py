"""Import of ai-reviewer-diagnostics score files (PyPI ``ai-reviewer-diagnostics``, MIT).

That CLI (Li et al., "Where Do LLMs Go Wrong? Diagnosing Automated Peer Review via Aspect-Guided
Multi-Level Perturbation", CIKM 2025) compares a *baseline* and a *perturbed* JSONL file: one JSON
object per line with a shared ``id``, numeric score fields (``overall_score``,
``soundness_score`` ...) and a decision field (``final_decision``). We read the same files and
report per-field score deltas (perturbed - baseline) and decision-transition counts, or turn them
into rhetorica's tidy table so every paired analysis applies.

Bad lines (not JSON, not an object, no ``id``, duplicate ``id``) are reported as problems naming
file and line; the rest of the file is still used.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel

from rhetorica.analysis.tidy import ORIGINAL, SCORE_RANGES

DECISION_FIELD = "final_decision"


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


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            out = float(value.strip())
        except ValueError:
            return None
        return out if math.isfinite(out) else None
    return None


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
        ``(rows, problems)``; the first row of a duplicated id is kept.

    Raises:
        OSError: if the file cannot be read (with the path in the message).
    """
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise OSError(f"{p}: cannot read diagnostics file ({exc.strerror or exc})") from exc
    rows: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{p}:{number}: not valid JSON ({exc.msg})")
            continue
        if not isinstance(obj, dict):
            problems.append(f"{p}:{number}: expected a JSON object")
            continue
        key = obj.get("id")
        if key is None or str(key).strip() == "":
            problems.append(f"{p}:{number}: no 'id' field")
            continue
        key = str(key)
        if key in rows:
            problems.append(f"{p}:{number}: duplicate id {key!r} ignored")
            continue
        rows[key] = obj
    return rows, problems


def _numeric_fields(rows: Sequence[Mapping[str, Any]], decision_field: str) -> list[str]:
    fields: dict[str, None] = {}
    for row in rows:
        for k, v in row.items():
            if k not in ("id", decision_field) and _number(v) is not None:
                fields.setdefault(k, None)
    return list(fields)


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
        score_fields: fields to compare; default every field holding a number in either file.
        decision_field: decision field name.

    Returns:
        :class:`DiagnosticsComparison`; a field with no id numeric in both files is reported
        with ``n = 0`` and NaN means.

    Raises:
        OSError: if a file cannot be read.
    """
    base_rows, problems = read_diagnostics_jsonl(baseline)
    pert_rows, more = read_diagnostics_jsonl(perturbed)
    problems += more
    shared = [k for k in base_rows if k in pert_rows]
    if score_fields is None:
        score_fields = _numeric_fields([*base_rows.values(), *pert_rows.values()], decision_field)
    deltas = []
    for field in score_fields:
        pairs = [
            (b, a)
            for k in shared
            if (b := _number(base_rows[k].get(field))) is not None
            and (a := _number(pert_rows[k].get(field))) is not None
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
        problems=problems,
        score_deltas=deltas,
        decision_field=decision_field,
        n_decisions=sum(counts.values()),
        n_changed=sum(c for (b, a), c in counts.items() if b != a),
        transitions=transitions,
    )


DEFAULT_FIELD_MAP: dict[str, str] = {"overall_score": "overall", "soundness_score": "soundness"}
"""Diagnostics fields mapped onto rhetorica's review-form scores by :func:`diagnostics_to_tidy`."""


def diagnostics_to_tidy(
    baseline: str | Path,
    perturbed: str | Path,
    *,
    reviewer: str = "external",
    condition: str = "perturbed",
    field_map: Mapping[str, str] = DEFAULT_FIELD_MAP,
) -> pd.DataFrame:
    """The two files as a rhetorica tidy table (arms ``"original"`` and ``condition``).

    A row whose mapped ``overall`` is missing, not numeric or outside 1-10 gets status
    ``malformed`` with no scores (missing stays missing); other mapped fields outside their
    range become NaN.

    Args:
        baseline: baseline JSONL path (becomes arm ``"original"``).
        perturbed: perturbed JSONL path (becomes arm ``condition``).
        reviewer: reviewer name for every row.
        condition: arm label of the perturbed file.
        field_map: diagnostics field -> tidy score column; must map some field to ``overall``.

    Returns:
        Tidy DataFrame (columns of the analysis input contract that apply).

    Raises:
        ValueError: if ``field_map`` maps nothing to ``overall``.
        OSError: if a file cannot be read.
    """
    if "overall" not in field_map.values():
        raise ValueError("field_map must map one diagnostics field to 'overall'")
    records = []
    for arm, path in ((ORIGINAL, baseline), (condition, perturbed)):
        rows, _ = read_diagnostics_jsonl(path)
        for key, obj in rows.items():
            scores: dict[str, float] = {}
            for src, dst in field_map.items():
                value = _number(obj.get(src))
                low, high = SCORE_RANGES.get(dst, (-math.inf, math.inf))
                scores[dst] = value if value is not None and low <= value <= high else math.nan
            ok = not math.isnan(scores["overall"])
            records.append(
                {
                    "unit_key": f"{Path(path).name}:{key}",
                    "document_id": key,
                    "arm": arm,
                    "condition": arm,
                    "rewriter": "none" if arm == ORIGINAL else "external",
                    "reviewer": reviewer,
                    "model": reviewer,
                    "protocol": "external",
                    "replicate": 0,
                    "status": "ok" if ok else "malformed",
                    **{k: (v if ok else math.nan) for k, v in scores.items()},
                    "human_score": math.nan,
                    "human_stratum": None,
                }
            )
    return pd.DataFrame.from_records(records)
