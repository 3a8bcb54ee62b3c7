"""Write the unit keys of the key-stability study, as computed by the rhetorica on ``PYTHONPATH``.

Run from the repository root with the code whose keys are the reference (the fixture in
``tests/study/fixtures/unit_keys.json`` was written by the main branch before the stage graph)::

    PYTHONPATH=/path/to/old/src python -m tests.study.key_fixture RUN_DIR OUT.json

It runs ``rhetorica run`` on :func:`key_study` in ``RUN_DIR`` (mock provider: no network), then writes
the stored rewrite and review keys and the validation keys of the stored variants (validation itself
is not run: it needs the embedding model).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.study.helpers import study_dict, write_study

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def key_study(run_dir: Path) -> Path:
    """The study file (in ``run_dir``'s parent) whose keys the fixture holds."""
    spec = study_dict(DATA, run_dir, replicates=2)
    spec["reviewers"].append({"name": "ctrl", "kind": "control", "options": {"noise_sd": 0.5}})
    return write_study(run_dir.parent / f"{run_dir.name}.yaml", spec)


def stored_keys(run_dir: Path) -> dict[str, list[str]]:
    """Sorted unit keys of the stored variants and assessments, and the validation keys of the
    stored ok variants under the default validation settings."""
    from rhetorica.documents.models import Document
    from rhetorica.store.db import Store
    from rhetorica.study.config import ValidationSettings

    store = Store.in_dir(run_dir)
    try:
        keys = {"rewrite": sorted(r[0] for r in store.rows("SELECT unit_key FROM variants")),
                "review": sorted(r[0] for r in store.rows("SELECT unit_key FROM assessments"))}
        originals = [Document.model_validate_json(r[0]) for r in store.rows("SELECT document_json FROM documents")]
        variants = [(Document.model_validate_json(r[3]), r[1], r[2], r[0]) for r in store.rows(
            "SELECT unit_key, condition, rewriter, document_json FROM variants WHERE status = 'ok'")]
    finally:
        store.close()
    keys["validate"] = sorted(validation_keys(originals, variants, ValidationSettings()))
    return keys


def validation_keys(originals, variants, settings) -> list[str]:  # noqa: ANN001 - both code versions
    from rhetorica.study import planner

    if hasattr(planner, "Variant"):  # the stage graph's typed inputs
        by_id = {d.id: d for d in originals}
        typed = [planner.Variant(doc, by_id[doc.id], cond, rw, key) for doc, cond, rw, key in variants]
        return [u.key for u in planner.validate_units(typed, settings)]
    return [u.key for u in planner.validate_units(originals, variants, settings)]


def main(run_dir: str, out: str) -> None:
    from rhetorica.cli.app import app

    study = key_study(Path(run_dir))
    try:
        app(["run", str(study)], prog_name="rhetorica")
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise
    Path(out).write_text(json.dumps(stored_keys(Path(run_dir)), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
