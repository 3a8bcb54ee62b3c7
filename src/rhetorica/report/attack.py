"""The report's worst-case attack section (issue 27 §1), for a study with rewriters of ``kind: attack``.

A search (document, target reviewer, direction) keeps the candidate with the best in-search
score, the mean of a few noisy reviews of each of many candidates: that best is inflated (the
winner's curse). The winner is then reviewed again by every reviewer with fresh, held-out
replicates, and every shift, interval, flip rate and test the report gives uses those. The
section shows

- per search: its rounds, queries and cost, the held-out shift of the target reviewer, beside the
  in-search original and best, labelled as biased;
- the transfer matrix: rows the target whose search produced the winners, columns the reviewer that
  reviewed them (held-out), the mean held-out shift;
- the trajectory figure: per search, the in-search score of the candidate kept after each round
  (round 0 the original).

They follow, in one section, the registered ``attack`` table (success rate, mean and max held-out
shift with intervals, per target and direction; :mod:`rhetorica.attack.table`). Every number
comes from :mod:`rhetorica.analysis.attack`; nothing is computed here.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from rhetorica.analysis.attack import TRAJECTORY, held_out_shifts, trajectory_frame, transfer_matrix
from rhetorica.dimensions.attack import DIMENSION as ATTACK
from rhetorica.rewriting.conditions import parse_condition
from rhetorica.labels import split_attack_rewriter
from rhetorica.report.booktabs import Column, booktabs, escape, number
from rhetorica.report.data import ReportData, fmt_ci
from rhetorica.report.plots import _png, _pyplot
from rhetorica.report.views import Section, table_view
from rhetorica.study.config import StudyConfig

ATTACK_SECTION = "attacks"
"""Key of the report section of the worst-case searches: the registered ``attack`` analysis table
(:mod:`rhetorica.attack.table`) names it as its ``section``, so it is shown there, first."""

IN_SEARCH = "in-search (biased: best of many noisy reviews)"
"""How every in-search number is labelled."""

HELD_OUT_NOTE = "best of many noisy reviews; every reported shift, interval, flip rate and test uses held-out reviews"
"""Why the in-search best is not the result."""

SEARCH_HEADERS = {
    "document": "Paper", "target": "Target", "direction": "Direction", "rounds": "Rounds", "queries": "Queries",
    "cost_usd": "Cost (USD)", "stopped": "Stopped by", "outcome": "In-search outcome",
    "held_out_original": "Held-out original",
    "held_out_winner": "Held-out winner", "held_out_shift": "Held-out shift",
    "original_score": "In-search original", "best_in_search_score": "In-search best",
    "in_search_shift": "In-search shift (biased)",
}
TRANSFER_NOTE = ("Transfer matrix: each row holds the winners of the searches against one target reviewer in one "
                 "direction, each column a reviewer that reviewed them with held-out replicates; a cell is the mean "
                 "over papers of (winner − original), each side the mean of that reviewer's held-out replicates, "
                 "with its 95% t interval and n papers.")


def attack_applies(study: StudyConfig) -> bool:
    """Whether the study declares a condition of the ``attack`` dimension (:mod:`rhetorica.dimensions.attack`:
    only the attack search produces them)."""
    return any(parse_condition(c).dimension == ATTACK.name for rw in study.rewriters for c in rw.conditions)


def attack_records(artefacts: pd.DataFrame) -> list[dict[str, Any]]:
    """The stored trajectories of the current winning variants, in the store's order.

    Args:
        artefacts: the tidy artefacts table (:func:`rhetorica.store.export.artefacts_table`).

    Returns:
        One dict per ``attack_trajectory`` artefact: the artefact's JSON
        (``document, target, direction, metric, original_score, rounds, best_in_search_score,
        queries, rereview_scores, cost_usd, stopped``; ``rereview_scores`` missing in a search stored
        before the re-reviews were made) with ``variant_key`` (the winner's unit key), ``arm`` and
        ``attacker`` (the attack rewriter's name, from the winner's rewriter label) added.

    Raises:
        ValueError: an artefact is not a JSON object (names the variant).
    """
    if artefacts.empty:
        return []
    records = []
    for row in artefacts[artefacts["name"] == TRAJECTORY].to_dict("records"):
        value = json.loads(row["value_json"])
        if not isinstance(value, dict):
            raise ValueError(f"variant {row['unit_key']}: its {TRAJECTORY} artefact is not a JSON object")
        records.append({**value, "variant_key": row["unit_key"], "arm": row["arm"],
                        "attacker": split_attack_rewriter(row["reviewer"])[0]})
    return records


def search_table(tidy: pd.DataFrame, records: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per search: what it spent, its target's held-out scores of the original and of the
    winner and their shift (:func:`rhetorica.analysis.attack.held_out_shifts`; missing until the
    target has reviewed both) beside its stored in-search original and best.

    Args:
        tidy: the analysed tidy assessments.
        records: :func:`attack_records`.

    Returns:
        Columns ``document, target, direction, rounds, queries, cost_usd, stopped, outcome,
        held_out_original, held_out_winner, held_out_shift, original_score, best_in_search_score,
        in_search_shift, variant_key``; ``rounds`` counts the rounds after the original (round 0),
        ``outcome`` whether a candidate beat the original in the search
        (:data:`~rhetorica.attack.search.NO_IMPROVEMENT` when none did: the winner is the best
        candidate all the same; missing in a record stored before it was kept),
        ``in_search_shift`` is the stored best minus the stored original.

    Raises:
        ValueError: as :func:`rhetorica.analysis.attack.held_out_shifts`.
    """
    shifts = held_out_shifts(tidy) if records and not tidy.empty else pd.DataFrame()
    own = shifts[shifts["reviewer"] == shifts["target"]] if not shifts.empty else shifts
    found = {(r["document_id"], r["attacker"], r["target"], r["direction"]): r for r in own.to_dict("records")}
    rows = []
    for record in records:
        held = found.get((record["document"], record["attacker"], record["target"], record["direction"]), {})
        best, original = record.get("best_in_search_score"), record.get("original_score")
        rows.append({"document": record["document"], "target": record["target"], "direction": record["direction"],
                     "rounds": max((r["round"] for r in record["rounds"]), default=0), "queries": record["queries"],
                     "cost_usd": record.get("cost_usd"), "stopped": record.get("stopped"),
                     "outcome": record.get("outcome"), "held_out_original": held.get("original"), "held_out_winner": held.get("attacked"),
                     "held_out_shift": held.get("shift"), "original_score": original, "best_in_search_score": best,
                     "in_search_shift": None if best is None or original is None else best - original,
                     "variant_key": record["variant_key"]})
    return pd.DataFrame(rows, columns=[*SEARCH_HEADERS, "variant_key"])


def transfer_view(transfer: pd.DataFrame) -> pd.DataFrame:
    """The long transfer table (:func:`rhetorica.analysis.attack.transfer_matrix`) as the report
    shows it: one row per (target, direction), one column per reviewer holding ``mean [low, high]
    (n)``, ``–`` where that reviewer has no held-out pair."""
    cells = transfer.assign(cell=[f"{fmt_ci(m, lo, hi)} (n {n})" for m, lo, hi, n in
                                  zip(transfer["mean_shift"], transfer["mean_lo"], transfer["mean_hi"], transfer["n"])])
    wide = cells.pivot(index=["target", "direction"], columns="reviewer", values="cell").fillna("–")
    wide.columns.name = None
    return wide.reset_index()


def collect_attacks(tidy: pd.DataFrame, artefacts: pd.DataFrame, study: StudyConfig,
                    analysis: dict[str, pd.DataFrame], unavailable: dict[str, str]) -> None:
    """Fill ``analysis["attack_searches"]`` (:func:`search_table`), ``attack_transfer``
    (:func:`rhetorica.analysis.attack.transfer_matrix`) and ``attack_trajectory``
    (:func:`rhetorica.analysis.attack.trajectory_frame`) for a study with attack rewriters, or
    ``unavailable["attack_search"]`` (``attack_transfer``) with the reason; nothing for a study
    without them."""
    if not attack_applies(study):
        return
    try:
        records = attack_records(artefacts)
    except ValueError as exc:
        unavailable["attack_search"] = str(exc)
        return
    if not records:
        unavailable["attack_search"] = "no search has finished yet (no winning variant with its trajectory)"
        return
    analysis["attack_trajectory"] = trajectory_frame(records)
    try:
        analysis["attack_searches"] = search_table(tidy, records)
        transfer = transfer_matrix(tidy) if not tidy.empty else pd.DataFrame()
    except ValueError as exc:
        unavailable["attack_search"] = f"analysis failed: {exc}"
        return
    if transfer.empty:
        unavailable["attack_transfer"] = "no winner and original reviewed by the same reviewer yet (held-out)"
    else:
        analysis["attack_transfer"] = transfer


def _transfer_headers(matrix: pd.DataFrame) -> dict[str, str]:
    headers = {"target": "Searched against (target)", "direction": "Direction"}
    return headers | {c: f"Reviewed by {c}" for c in matrix.columns if c not in headers}


def attack_search(sections: list[Section], data: ReportData) -> Section:
    """Add the searches to the report: their tables go in the section :data:`ATTACK_SECTION`, after
    the registered ``attack`` summary table when it was computed (otherwise the section is
    appended, saying why the summary is missing); returns that section (the trajectory figure's
    owner)."""
    section = next((s for s in sections if s.key == ATTACK_SECTION), None)
    if section is None:
        section = Section(ATTACK_SECTION, "Worst-case attacks",
                          unavailable=data.unavailable.get("attack", "no held-out summary"))
        sections.append(section)
    section.note = " ".join(filter(None, [section.note, (
        "Each search: per paper, target reviewer and direction, rounds of candidate rewrites, each reviewed a few "
        "times by the target; the best is kept. Its in-search numbers are biased: "
        f"{HELD_OUT_NOTE} (fresh replicates of the winner by every reviewer, never seen by the search). The "
        "trajectory figure shows the kept candidate's in-search score per round.")]))
    if "attack_searches" not in data.analysis:
        section.note += f" No search to show ({data.unavailable.get('attack_search', 'no search results')})."
        return section
    section.tables.append(table_view(data.analysis["attack_searches"], SEARCH_HEADERS,
                                     f"Each search: held-out scores of the target beside the {IN_SEARCH} numbers"))
    if "attack_transfer" in data.analysis:
        matrix = transfer_view(data.analysis["attack_transfer"])
        section.tables.append(table_view(matrix, _transfer_headers(matrix), TRANSFER_NOTE))
    else:
        section.note += f" Transfer matrix not computable ({data.unavailable.get('attack_transfer', 'no rows')})."
    return section


def trajectory_figure(trajectory: pd.DataFrame) -> Figure:
    """The in-search score of the candidate kept after each round, one line per search (paper,
    target, direction); a round that keeps no candidate carries the previous one's.

    Args:
        trajectory: :func:`rhetorica.analysis.attack.trajectory_frame`.

    Raises:
        ValueError: no kept candidate has a score.
    """
    kept = trajectory[trajectory["kept"].astype(bool) & trajectory["score"].notna()]
    if kept.empty:
        raise ValueError("attack trajectory: no kept candidate has a score")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for (document, target, direction), part in kept.groupby(["document", "target", "direction"], sort=True):
        rounds = range(int(trajectory.loc[(trajectory["document"] == document) & (trajectory["target"] == target)
                                          & (trajectory["direction"] == direction), "round"].max()) + 1)
        by_round = part.groupby("round")["score"].last().reindex(rounds).ffill()
        ax.plot(list(by_round.index), by_round.to_numpy(dtype=float), marker="o",
                label=f"{document} → {target} ({direction})")
    ax.set_xlabel("Round (0 = the original)")
    ax.set_ylabel("Kept candidate's in-search score (biased)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(frameon=False, fontsize=7, loc="best")
    fig.tight_layout()
    return fig


def trajectory_png(trajectory: pd.DataFrame) -> bytes:
    """PNG of :func:`trajectory_figure`."""
    return _png(trajectory_figure(trajectory), None)


def transfer_latex(transfer: pd.DataFrame) -> str:
    """The transfer matrix (:func:`transfer_view` of the long table) as booktabs LaTeX, every cell
    escaped."""
    matrix = transfer_view(transfer)
    reviewers = [c for c in matrix.columns if c not in ("target", "direction")]
    columns = [Column("Target", lambda r: escape(r["target"]), "l"),
               Column("Dir.", lambda r: escape(r["direction"]), "l"),
               *(Column(escape(c), lambda r, c=c: escape(r[c])) for c in reviewers)]
    return booktabs(matrix, columns, caption="Transfer of worst-case attacks: mean held-out shift of each target's "
                                             "winning variants, by the reviewer that reviewed them.",
                    label="tab:attack-transfer")


def searches_latex(searches: pd.DataFrame) -> str:
    """The per-search table as booktabs LaTeX: held-out shift beside the biased in-search numbers."""
    columns = [Column("Paper", lambda r: escape(r["document"]), "l"), Column("Target", lambda r: escape(r["target"]), "l"),
               Column("Dir.", lambda r: escape(r["direction"]), "l"), Column("Rounds", lambda r: number(r["rounds"], 0)),
               Column("Queries", lambda r: number(r["queries"], 0)),
               Column("Held-out orig.", lambda r: number(r["held_out_original"])),
               Column("Held-out winner", lambda r: number(r["held_out_winner"])),
               Column(r"Held-out $\Delta$", lambda r: number(r["held_out_shift"])),
               Column("In-search orig.", lambda r: number(r["original_score"])),
               Column("In-search best", lambda r: number(r["best_in_search_score"])),
               Column(r"In-search $\Delta$ (biased)", lambda r: number(r["in_search_shift"]))]
    return booktabs(searches, columns, caption="Worst-case searches: held-out shift of the target beside the "
                                               "in-search numbers (biased: best of many noisy reviews; every "
                                               "reported shift uses held-out reviews).", label="tab:attack-searches")
