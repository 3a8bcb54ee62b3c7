"""SciCore and ReconstructReview as reviewer configurations of a study (deterministic mock provider):
both branch scores, their mean and the stored science core reach the tidy exports; the baseline runs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pandas as pd
import pytest

from rhetorica.models.providers.mock import MockModel
from rhetorica.models.registry import get_model
from rhetorica.report.render import write_report
from rhetorica.study.config import ConfigError, parse_study
from rhetorica.study.runner import StudyRunner

from .helpers import PAPERS, save_run_study, study_dict

# mock answers fill the schema with hash-derived strings, so no core passes the manuscript checks:
# ``require_valid_core: false`` reviews it anyway and records the failed checks (core_valid = 0)
OPTIONS = {"require_valid_core": False, "review": {"max_tokens": 400}, "extract": {"max_input_words": 300}}


def spec(shared_data: Path, out: Path, reviewers: list[dict]) -> dict:
    return study_dict(shared_data, out, documents=[{"path": str(shared_data / "papers" / p)} for p in PAPERS[:2]],
                      rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:-"]}],
                      reviewers=reviewers, replicates=1)


def test_scicore_scores_and_core_are_exported_and_reconstruct_review_runs(shared_data: Path, tmp_path: Path) -> None:
    models: dict[str, MockModel] = {}

    def factory(model_id: str, options: dict):
        return models.setdefault(model_id, get_model(model_id, **options))

    warm = OPTIONS | {"review": {"max_tokens": 400, "temperature": 0.5}}  # other reviews, the same extraction
    reviewers = [{"name": "scicore", "kind": "scicore", "model": "mock/reviewer", "options": OPTIONS},
                 {"name": "scicore-warm", "kind": "scicore", "model": "mock/reviewer", "options": warm},
                 {"name": "rebuild", "kind": "reconstruct", "model": "mock/reviewer", "options": OPTIONS | {
                     "extractor": "mock/extractor", "rebuild": {"max_tokens": 500}}}]
    config = parse_study(spec(shared_data, tmp_path / "run", reviewers))
    summary = asyncio.run(StudyRunner(config, tmp_path, model_factory=factory).run())
    assert summary.stage_statuses["review"] == {"ok": 12}, summary.problems
    # one extract unit per text and extraction spec (the two scicore configurations share theirs);
    # every mock core fails its checks and is stored so
    assert summary.stage_statuses["extract"] == {"malformed": 8}
    # reviewer model: 4 shared extractions + 2 reviews x 4 texts x 2 scicore configs + 4 reviews of rebuilds;
    # the reconstruct configuration's extraction and rebuild went to its own extractor model
    assert len(models["mock/reviewer"].calls) == 4 + 16 + 4 and len(models["mock/extractor"].calls) == 2 * 4
    again = asyncio.run(StudyRunner(config, tmp_path, model_factory=factory).run())
    assert (again.units_run, again.model_calls) == (0, 0)
    save_run_study(config, tmp_path / "run")
    data = write_report(tmp_path / "run", n_resamples=100)
    tables = tmp_path / "run" / "tables"
    scores = pd.read_csv(tables / "scores.csv")
    sci = scores[scores["reviewer"] == "scicore"].pivot(index="unit_key", columns="metric", values="value")
    assert len(sci) == 4 and (sci["overall"] == (sci["overall_full"] + sci["overall_core"]) / 2).all()
    assert (sci["core_valid"] == 0).all()
    wide = data.tables["assessments"]
    assert set(wide.loc[wide["reviewer"] == "scicore", "model"]) == {"mock/reviewer"}
    artefacts = pd.read_csv(tables / "artefacts.csv")
    names = artefacts.groupby("reviewer")["name"].apply(lambda s: sorted(set(s))).to_dict()
    assert names == {"scicore": ["science_core", "science_record"], "scicore-warm": ["science_core", "science_record"],
                     "rebuild": ["reconstruction", "reconstruction_new_numbers", "science_core"]}
    core = json.loads(artefacts.loc[(artefacts["reviewer"] == "scicore") & (artefacts["name"] == "science_core"),
                                    "value_json"].iloc[0])
    assert core["status"] == "malformed" and core["reason"].startswith("the science core fails its checks")
    assert core["core"]["claims"]
    extracts = pd.read_csv(tables / "extracts.csv")
    assert len(extracts) == 8 and set(extracts["extractor"]) == {"mock/reviewer", "mock/extractor"}
    assert set(extracts["status"]) == {"malformed"} and all(json.loads(c)["core"] for c in extracts["core_json"])
    record = json.loads(artefacts.loc[artefacts["name"] == "science_record", "value_json"].iloc[0])
    assert record.startswith("# Science record")


def test_a_bad_scicore_option_is_named_when_the_study_loads(shared_data: Path, tmp_path: Path) -> None:
    bad = [{"name": "scicore", "kind": "scicore", "model": "mock/reviewer", "options": {"extract": {"max_tokens": 0}}}]
    with pytest.raises(ConfigError, match="reviewer 'scicore' of kind 'scicore': options.extract.max_tokens: Input should "
                                          "be greater than 0"):
        parse_study(spec(shared_data, tmp_path / "run", bad))
    typo = [{"name": "sc", "kind": "scicore", "model": "mock/reviewer", "options": {"extractr": "mock/extractor"}}]
    with pytest.raises(ConfigError, match="reviewer 'sc' of kind 'scicore': options.extractr: Extra inputs are not "
                                          "permitted"):
        parse_study(spec(shared_data, tmp_path / "run", typo))
    rebuild = [{"name": "rr", "kind": "reconstruct", "model": "mock/reviewer", "options": {"rebuild": {"top_k": 5}}}]
    with pytest.raises(ConfigError, match="reviewer 'rr' of kind 'reconstruct': options.rebuild.top_k: Extra inputs "
                                          "are not permitted"):
        parse_study(spec(shared_data, tmp_path / "run", rebuild))
    wrong = [{"name": "scicore", "kind": "scicore", "model": "mock/reviewer", "options": {"full_protocol": "default"}}]
    with pytest.raises(ConfigError, match="not on the 'iclr-2026' form"):
        parse_study(spec(shared_data, tmp_path / "run", wrong))


def test_a_declared_model_keeps_scicore_options_apart_from_provider_options(shared_data: Path, tmp_path: Path) -> None:
    reviewers = [{"name": "sci", "kind": "scicore", "model": "m", "options": OPTIONS},
                 {"name": "plain", "model": "m", "options": {"timeout_s": 5}}]
    data = spec(shared_data, tmp_path / "run", reviewers) | {"models": {"m": {"provider": "mock", "model": "reviewer"}}}
    with pytest.raises(ConfigError, match=r"reviewers\[1\]\.options: reviewer 'plain' uses the declared model 'm'"):
        parse_study(data)
    config = parse_study(data | {"reviewers": reviewers[:1]})  # evaluator options: not the provider's
    assert config.reviewers[0].options.as_kwargs()["require_valid_core"] is False
    assert config.reviewers[0].model_id == "m"
