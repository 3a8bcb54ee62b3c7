"""Compare the tables two versions of rhetorica write for the same studies.

Runs the demo study (``rhetorica/data/demo_study.yaml`` of each source tree),
``examples/study.yaml`` (plus a variant of it whose mock reviewers use the ``bare`` and ``brief``
protocols), the judge study (``examples/judges_study.yaml``), the RobustReview study
(``examples/robustreview_study.yaml``) and the six-dimension study
(``examples/six_dimensions_embedded.yaml``) in-process on each tree, with every model replaced by a
mock one (``mock/echo`` rewriters, ``mock/reviewer`` reviewers, judges and annotators; the entries of
``models:`` served by the mock provider), an external command reviewer replaced by a control
reviewer of the same name, and validation turned off, so that no model is loaded, nothing is called
and the runs are deterministic. Each run's report is rebuilt with a fixed seed; the tidy
exports and analysis tables (CSV, TeX) and ``report.md`` are copied with times masked, and the two
dumps are compared file by file. Files and columns that the newer tree adds by design are listed in
``NEW_BY_DESIGN`` and left out of the comparison (and printed).

Usage (from the repository root; the old tree e.g. from ``git archive 625aaa4 src | tar -x -C OLD``)::

    python scripts/compare_tables.py OLD/src src [--data ../shared/data] [--out /tmp/tables]

Prints the differing files (a unified diff of each, or ``only in …``) and exits 1 when there are
any, 0 when every compared table is identical.
"""

from __future__ import annotations

import argparse
import difflib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: Files (table name) the newer tree writes that the older did not, by design.
NEW_FILES_BY_DESIGN = {
    "scores.csv": "long score table (one row per assessment and metric), from the declared forms",
    "artefacts.csv": "what an assessment leaves beside its scores (SciCore's science core, …)",
    "extracts.csv": "science cores extracted by the extract stage",
    "annotations.csv": "aspect annotations of reviews (the annotate stage)",
    "mentions.csv": "the verified (aspect, polarity, phrase) mentions of those annotations",
}
#: Sections the newer tree's report.md ends with, by design: heading -> why (cut before comparing).
NEW_REPORT_SECTIONS_BY_DESIGN = {
    "## Appendix": "the per-paper appendix (scores grid and word diffs of the first papers)",
}
#: Columns the newer tree adds to a table, by design: (file name, column) -> why.
NEW_COLUMNS_BY_DESIGN = {
    ("assessments.csv", "form"): "the declared form each assessment was checked against",
    ("variants.csv", "stage"): "the stage of the unit graph that made each variant (rewrite, rewrite-<n>, …)",
}
#: Columns whose values differ from run to run (times), dropped from both sides.
VOLATILE_COLUMNS = ("latency_s", "created_at", "finished_at", "started_at")


#: Document keys that hold a path (relative to the study file).
_PATH_KEYS = ("path", "reviews", "latex_project", "pairs")


def _mockify(spec: dict, base: Path) -> dict:
    """Point documents at absolute paths, replace every model by a mock one (an external command
    reviewer by a control reviewer), turn validation off."""
    for document in spec["documents"]:
        for key in _PATH_KEYS:
            if key in document:
                document[key] = str((base / document[key]).resolve())
    for entry in (spec.get("models") or {}).values():  # logical models: served by the mock provider
        entry.clear()
        entry.update(provider="mock", model="reviewer")
    for rewriter in spec.get("rewriters", []):
        if str(rewriter.get("model", "")).startswith("embedded/"):
            rewriter["model"] = "mock/echo"
            rewriter.pop("options", None)  # the embedded provider's options (output bounds)
    for reviewer in spec.get("reviewers", []):
        if str(reviewer.get("model", "")).startswith("embedded/"):
            reviewer["model"] = "mock/reviewer"
            reviewer.pop("options", None)
        if reviewer.get("kind") == "command":
            reviewer.clear()
            reviewer.update(name="ai-scientist-style", kind="control")
    spec["validation"] = {"enabled": False}
    spec["concurrency"] = 1  # calls in one order: the model_calls table is the same row for row
    return spec


def _studies(src: Path, data: Path) -> list[tuple[str, dict, Path]]:
    import yaml

    demo = yaml.safe_load((src / "rhetorica" / "data" / "demo_study.yaml").read_text(encoding="utf-8"))
    example_file = REPO / "examples" / "study.yaml"
    example = yaml.safe_load(example_file.read_text(encoding="utf-8"))
    bare = yaml.safe_load(example_file.read_text(encoding="utf-8"))
    bare["name"] = "example-bare"
    bare["reviewers"] = [{"name": "mock-bare", "model": "mock/reviewer", "protocol": "bare"},
                         {"name": "mock-brief", "model": "mock/reviewer", "protocol": "brief"}]
    examples = [(name, yaml.safe_load((REPO / "examples" / f"{file}.yaml").read_text(encoding="utf-8")))
                for name, file in (("judges", "judges_study"), ("robustreview", "robustreview_study"),
                                   ("six-dimensions", "six_dimensions_embedded"))]
    for rewriter in examples[2][1]["rewriters"]:  # an identity rewrite of a paragraph is discarded
        rewriter["model"] = SCRIPTED_REWRITER
        rewriter.pop("options", None)
    return [("demo", demo, data), ("example", example, example_file.parent),
            ("example-bare", bare, example_file.parent),
            *((name, spec, example_file.parent) for name, spec in examples)]


SCRIPTED_REWRITER = "mock/scripted"
"""The model of the six-dimension study's rewriter here: the mock echo plus one fixed sentence, so that
every rewrite changes its paragraph (an identity rewrite is discarded) and keeps its anchors."""

SCRIPTED_SENTENCE = " These results are clearly important."


def _model_factory(model_id: str, options: dict) -> object:
    """The registry's model, except :data:`SCRIPTED_REWRITER`."""
    from rhetorica.models.providers.mock import MockModel
    from rhetorica.models.registry import get_model

    class ScriptedRewriter(MockModel):
        def _default_answer(self, messages, config):  # noqa: ANN001, ANN202 - MockModel's signature
            text = super()._default_answer(messages, config)
            return text if config.json_schema is not None else text.rstrip() + SCRIPTED_SENTENCE

    return ScriptedRewriter(model="scripted") if model_id == SCRIPTED_REWRITER else get_model(model_id, **options)


def _dump_one(spec: dict, out: Path) -> None:
    """Run one study under ``out/run`` and copy its tables, times masked, to ``out/dump``."""
    import asyncio

    import pandas as pd

    from rhetorica.report.render import write_report
    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner

    run_dir = out / "run"
    shutil.rmtree(run_dir, ignore_errors=True)
    spec["output_dir"] = str(run_dir)
    config = parse_study(spec)
    runner = StudyRunner(config, out, model_factory=_model_factory)
    (runner.run_dir / "study.json").write_text(config.model_dump_json(indent=2), encoding="utf-8")
    try:
        asyncio.run(runner.run())
    finally:
        runner.store.close()
    write_report(run_dir, n_resamples=300, seed=0)
    dump = out / "dump"
    shutil.rmtree(dump, ignore_errors=True)
    dump.mkdir(parents=True)
    for table in sorted((run_dir / "tables").iterdir()):
        if table.suffix == ".parquet":
            continue
        text = table.read_text(encoding="utf-8")
        if table.suffix == ".csv" and text.strip():
            frame = pd.read_csv(io.StringIO(text))
            volatile = [c for c in VOLATILE_COLUMNS if c in frame.columns]
            if volatile:
                text = frame.drop(columns=volatile).to_csv(index=False)
        (dump / table.name).write_text(text.replace(str(run_dir), "<run>"), encoding="utf-8")
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    (dump / "report.md").write_text(re.sub(r"\d+(\.\d+)? ?s\b", "<time>", report), encoding="utf-8")


def dump(src: Path, data: Path, out: Path) -> None:
    """Child mode: run every study with ``src`` first on the path (set by the parent)."""
    for name, spec, base in _studies(src, data):
        _dump_one(_mockify(spec, base), out / name)


def _csv_without(text: str, columns: list[str]) -> str:
    import pandas as pd

    frame = pd.read_csv(io.StringIO(text))
    return frame.drop(columns=[c for c in columns if c in frame.columns]).to_csv(index=False)


def _without_new_sections(report: str) -> str:
    """``report`` cut at the first heading of :data:`NEW_REPORT_SECTIONS_BY_DESIGN` (they come last)."""
    cuts = [i for heading in NEW_REPORT_SECTIONS_BY_DESIGN if (i := report.find(f"\n{heading}")) >= 0]
    return report[:min(cuts)].rstrip() + "\n" if cuts else report


def compare(old: Path, new: Path) -> list[str]:
    """Unified diffs (or ``only in`` lines) of the dumps under ``old`` and ``new``; empty when identical."""
    problems: list[str] = []
    old_files = {p.relative_to(old) for p in old.rglob("*") if p.is_file() and "dump" in p.parts}
    new_files = {p.relative_to(new) for p in new.rglob("*") if p.is_file() and "dump" in p.parts}
    for rel in sorted(old_files - new_files):
        problems.append(f"only in old: {rel}")
    for rel in sorted(new_files - old_files):
        if rel.name not in NEW_FILES_BY_DESIGN:
            problems.append(f"only in new: {rel}")
    for rel in sorted(old_files & new_files):
        before = (old / rel).read_text(encoding="utf-8")
        after = (new / rel).read_text(encoding="utf-8")
        if rel.name == "report.md":  # cut on both sides: an older tree may already have them
            before, after = _without_new_sections(before), _without_new_sections(after)
        added = [col for (name, col) in NEW_COLUMNS_BY_DESIGN if name == rel.name]
        if added and after.strip():
            after = _csv_without(after, added)
            before = _csv_without(before, added) if before.strip() else before
        if before != after:
            problems.extend(difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                 f"old/{rel}", f"new/{rel}", lineterm=""))
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old_src", type=Path, help="the older tree's src folder")
    parser.add_argument("new_src", type=Path, help="the newer tree's src folder")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                        help="the data folder the demo study's paths are relative to")
    parser.add_argument("--out", type=Path, default=Path("compare-tables-out"),
                        help="where both trees' runs and dumps are written (replaced)")
    parser.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)  # child mode
    args = parser.parse_args(argv)
    if args.dump:
        dump(args.old_src.resolve(), args.data.resolve(), args.out.resolve())
        return 0
    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    for side, src in (("old", args.old_src), ("new", args.new_src)):
        env = {**os.environ, "PYTHONPATH": str(src.resolve())}
        subprocess.run([sys.executable, __file__, str(src.resolve()), str(src.resolve()), "--dump",
                        "--data", str(args.data.resolve()), "--out", str(out / side)], env=env, check=True)
    for name, why in NEW_FILES_BY_DESIGN.items():
        print(f"excluded by design: file {name} ({why})")
    for (name, column), why in NEW_COLUMNS_BY_DESIGN.items():
        print(f"excluded by design: column {column} of {name} ({why})")
    for heading, why in NEW_REPORT_SECTIONS_BY_DESIGN.items():
        print(f"excluded by design: report.md section {heading!r} and after ({why})")
    problems = compare(out / "old", out / "new")
    for line in problems:
        print(line)
    print(f"{len(problems)} differing line(s)" if problems else "tables identical")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
