"""Paired statistics over tidy assessment tables; never calls a model.

Modules (import what you use; nothing is imported here):

- :mod:`~rhetorica.analysis.tidy`: input contract checks, score ranges.
- :mod:`~rhetorica.analysis.arms`: arm labels, 2x2 "given" arms, default comparisons.
- :mod:`~rhetorica.analysis.paired`: sign test and the Table-4 comparison, per-criterion ratios,
  magnitude of paired differences.
- :mod:`~rhetorica.analysis.change`: change versus the original with stratified bootstrap CIs,
  weak-accept probability, movement by initial score.
- :mod:`~rhetorica.analysis.bootstrap`: stratified paper-level percentile bootstrap.
- :mod:`~rhetorica.analysis.variance`: pooled SD of repeated reviews.
- :mod:`~rhetorica.analysis.robustness`: MAD, drift SD, ICC(1), ICC(A,1), SPR, discriminability,
  human alignment, false-robustness flag.
- :mod:`~rhetorica.analysis.discriminability`: discriminability and its paper bootstrap in matrix form.
- :mod:`~rhetorica.analysis.equivalence`: judge reliability (Wilcoxon, TOST, Bonferroni, classes).
- :mod:`~rhetorica.analysis.controls`: null and injected-bias control reviewers.
- :mod:`~rhetorica.analysis.power`: sign-test power, simulation, study planning.
- :mod:`~rhetorica.analysis.interop`: ai-reviewer-diagnostics JSONL import.
- :mod:`~rhetorica.analysis.summary`: every study table from one tidy table.
"""
