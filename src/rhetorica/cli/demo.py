"""``rhetorica demo``: the demo study on real papers with the embedded model, end to end."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import typer
import yaml
from rich.markup import escape

from rhetorica.cli.errors import exit_on, fail
from rhetorica.cli.study import console, finish, print_headline, run_with_progress
from rhetorica.extras import install_hint, not_installed
from rhetorica.study.config import ConfigError, parse_study


def default_data_dir() -> Path:
    """``$RHETORICA_DATA`` if set, else ``../shared/data`` from the current folder."""
    return Path(os.environ.get("RHETORICA_DATA", Path.cwd().parent / "shared" / "data"))


#: demo name -> (study file in rhetorica.data, default run directory)
DEMOS = {"papers": ("demo_study.yaml", "runs/demo"), "judges": ("demo_judges.yaml", "runs/demo-judges"),
         "attack": ("demo_attack.yaml", "runs/demo-attack")}


def demo(
    which: str = typer.Argument("papers", help="Which demo: 'papers' (reviewer robustness on 3 papers), "
                                               "'judges' (review-quality judges on real reviews) or 'attack' "
                                               "(worst-case abstract rewriting against the reviewer, one paper)."),
    out: Path = typer.Option(None, help="Run directory to write (default runs/demo, runs/demo-judges or "
                                        "runs/demo-attack)."),
    data: Path = typer.Option(None, help="Folder holding papers/ (default: $RHETORICA_DATA or ../shared/data)."),
    replicates: int = typer.Option(None, min=1, help="Override the number of replicates."),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="Also re-run units stored as a failure."),
) -> None:
    """Run a demo study with the embedded model: ``papers`` (3 real papers, rule-based +
    embedded-model rewrites, embedded reviewer), ``judges`` (real reviews paraphrased and scored
    by an embedded-model ScholarPeer judge; Table 1 of the review-metric study) or ``attack`` (a
    worst-case search rewriting one paper's abstract against the embedded reviewer; the report
    gives the held-out shift beside the biased in-search best). Each ends by printing how to open
    the run in the viewer.

    Exit 0 when the pipeline ran: outputs of the 135M demo model that fail (malformed, truncated)
    are listed and recorded as data, not counted as problems. Exit 1 for an unreadable paper, a
    stopped configuration or another run holding the run directory. Exit 2, before anything runs,
    when the embedded or validation extra is not installed (``make demo`` installs both).
    """

    missing = not_installed("embedded", "validation")
    if missing:
        fail(install_hint(f"rhetorica demo {which}", missing))

    if which not in DEMOS:
        fail(f"unknown demo {which!r}; known: {', '.join(DEMOS)}")
    study_file, default_out = DEMOS[which]
    out = out or Path(default_out)
    data_dir = (data or default_data_dir()).resolve()
    if not (data_dir / "papers").is_dir():
        fail(f"{data_dir}: no papers/ folder here; pass --data PATH (the folder holding papers/) or set RHETORICA_DATA")
    spec = yaml.safe_load((resources.files("rhetorica.data") / study_file).read_text("utf-8"))
    spec["output_dir"] = str(out.resolve())
    if replicates:
        spec["replicates"] = replicates
    with exit_on(ConfigError):
        config = parse_study(spec, source=study_file)
    run_dir, problems, failed, data = run_with_progress(config, data_dir, retry_failed=retry_failed,
                                                  retry_hint=f"rhetorica demo {which} --retry-failed",
                                                  count_failed_units=False)
    print_headline(data, run_dir, failed_units=failed)
    console.print(f"View it: rhetorica view {escape(str(run_dir))}")
    finish(problems)
