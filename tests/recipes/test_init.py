"""``rhetorica recipe init``: the corpus built, a valid study written, the bill printed at both scales."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.recipes.init import init_recipe, render_study, resolve_parameters
from rhetorica.recipes.model import RecipeError
from rhetorica.registry import recipes
from rhetorica.study.config import load_study
from rhetorica.study.schema import study_schema
from tests.datasets.recorded_api import VENUE

RUNNER = CliRunner()


def test_list_shows_the_four() -> None:
    result = RUNNER.invoke(app, ["recipe", "list"], terminal_width=200)
    assert result.exit_code == 0, result.output
    for name in ("style-over-substance", "six-dimensions", "judge-robustness", "robustreview"):
        assert name in result.output


def test_show_prints_parameters_and_published_tables() -> None:
    result = RUNNER.invoke(app, ["recipe", "show", "judge-robustness"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "--second-judge (default google/gemini-2.5-flash)" in result.output
    assert "Published values: Table 1 34" in result.output
    bad = RUNNER.invoke(app, ["recipe", "show", "no-such"])
    assert bad.exit_code == 2 and "unknown recipe 'no-such'" in bad.output


def test_parameters_are_checked() -> None:
    recipe = recipes.get("judge-robustness")
    assert resolve_parameters(recipe, {"judge": "mock/a"}) == {"judge": "mock/a", "second_judge": "google/gemini-2.5-flash"}
    with pytest.raises(RecipeError, match="has no parameter 'reviewer'; its parameters: judge, second_judge"):
        resolve_parameters(recipe, {"reviewer": "mock/a"})


def test_every_template_renders_a_study_the_schema_accepts(tmp_path: Path) -> None:
    """Each recipe's template with stand-in data-step variables is a study ``load_study`` accepts, and
    its JSON form validates against ``rhetorica schema``'s top-level keys."""
    variables = {"dataset": "data/dataset", "pairs": ["pairs.jsonl"], "rewriters": ["gpt-5"],
                 "papers": [{"id": "P1", "latex": "proj", "human_scores": [5.0, 6.0]}],
                 "left_out": [{"id": "P2", "reason": "no LaTeX source (x); the study rewrites LaTeX projects"}]}
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "main.tex").write_text("\\documentclass{article}\\begin{document}x\\end{document}\n")
    (tmp_path / "pairs.jsonl").write_text("")
    (tmp_path / "data" / "dataset").mkdir(parents=True)
    schema_keys = set(study_schema()["properties"])
    for name in ("style-over-substance", "six-dimensions", "judge-robustness", "robustreview"):
        recipe = recipes.get(name)
        text = render_study(recipe, resolve_parameters(recipe, {}), variables, sample=3)
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        config, _ = load_study(path)
        assert config.recipe is not None and config.recipe.name == name and config.recipe.sample == 3
        if recipe.data.options.get("latex_required"):  # the papers drawn and left out travel with the study
            assert [(u.id, u.reason) for u in config.recipe.left_out] == [(u["id"], u["reason"])
                                                                          for u in variables["left_out"]]
        assert set(yaml.safe_load(text)) <= schema_keys


def test_init_judge_recipe_writes_study_and_prints_both_scales(benchmark_clone: Path, tmp_path: Path) -> None:
    folder = tmp_path / "judges"
    result = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(folder), "--sample", "4", "--source",
                                 str(benchmark_clone), "--judge", "mock/judge-a", "--second-judge", "mock/judge-b"],
                           terminal_width=220)
    assert result.exit_code == 0, result.output
    config, _ = load_study(folder / "study.yaml")
    assert [r.options.as_kwargs()["family"] for r in config.reviewers if r.model == "mock/judge-a"] == [
        "revieweval", "remor", "rottenreviews", "scholarpeer"]
    assert {r.options.as_kwargs()["source"] for r in config.rewriters} == {"gpt-5", "llama-4-scout"}
    record = json.loads((folder / "recipe.json").read_text())
    assert record["units"] == 4 and record["parameters"]["judge"] == "mock/judge-a"
    assert "Estimate, pilot (4 reviews, measured)" in result.output
    assert "Estimate, full design (674 reviews, extrapolated)" in result.output
    direct = init_recipe("judge-robustness", tmp_path / "again", parameters={"judge": "mock/judge-a",
                         "second_judge": "mock/judge-b"}, sample=4, source=benchmark_clone)
    pilot, full = direct.estimates
    calls = sum(r["calls"] for r in pilot.rows)
    assert calls > 0 and sum(r["calls"] for r in full.rows) == pytest.approx(calls * 674 / 4, abs=len(full.rows))


def test_init_refuses_a_folder_holding_something_else(tmp_path: Path, benchmark_clone: Path) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    result = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(tmp_path / "busy"), "--source",
                                 str(benchmark_clone)])
    assert result.exit_code == 2 and "not a recipe folder" in result.output
    assert (tmp_path / "busy" / "notes.txt").read_text() == "mine"


def test_init_openreview_recipe_from_the_recorded_venue(recorded_venue, tmp_path: Path) -> None:
    _, base = recorded_venue
    folder = tmp_path / "sos"
    result = RUNNER.invoke(app, ["recipe", "init", "style-over-substance", str(folder), "--sample", "6", "--venue",
                                 VENUE, "--openreview-url", base, "--reviewer", "mock/reviewer", "--rewriter",
                                 "mock/rewriter"], terminal_width=220)
    # the recorded venue holds one submission whose ratings cannot be read: listed, exit 1, the rest built
    assert result.exit_code == 1, result.output
    assert "P22: " in result.output and "Study written" in result.output
    config, _ = load_study(folder / "study.yaml")
    assert [r.protocol for r in config.reviewers] == ["default", "brief", "minimal", "bare", "biased"]
    assert "Estimate, full design (504 papers, extrapolated)" in result.output


@pytest.mark.parametrize("name", ["style-over-substance", "six-dimensions", "robustreview"])
def test_init_offline_exits_2_with_one_line_and_a_rerun_resumes(name: str, tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as refusing:  # bound, not listening
        refusing.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{refusing.getsockname()[1]}"
        folder = tmp_path / "offline"
        for attempt in (1, 2):  # the second init resumes the folder the first left
            result = RUNNER.invoke(app, ["recipe", "init", name, str(folder), "--sample", "2", "--openreview-url",
                                         base])
            assert result.exit_code == 2, (attempt, result.output)
            assert result.stderr == f"error: cannot reach {base}/notes: [Errno 111] Connection refused\n"
    assert json.loads((folder / "recipe.json").read_text())["units"] is None
    assert not (folder / "study.yaml").exists()


def test_init_refuses_an_input_its_data_step_does_not_use(tmp_path: Path, benchmark_clone: Path) -> None:
    unused = RUNNER.invoke(app, ["recipe", "init", "style-over-substance", str(tmp_path / "a"), "--source",
                                 str(benchmark_clone)])
    assert unused.exit_code == 2
    assert unused.output == ("error: the 'openreview' data step does not use --source (it reads: --openreview-url); "
                             "leave it out\n")
    no_arxiv = RUNNER.invoke(app, ["recipe", "init", "robustreview", str(tmp_path / "b"), "--arxiv-api", "http://x/{}",
                                   "--data-option", "arxiv_match=false"])
    assert no_arxiv.exit_code == 2
    assert no_arxiv.output == ("error: the 'openreview' data step does not use --arxiv-api (it reads: "
                               "--openreview-url); leave it out\n")
    pairs = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(tmp_path / "c"), "--source",
                                str(benchmark_clone), "--openreview-url", "http://127.0.0.1:9"])
    assert pairs.exit_code == 2
    assert pairs.output == ("error: the 'review-pairs' data step does not use --openreview-url (it reads: --source); "
                            "leave it out\n")
    assert not any((tmp_path / d).exists() for d in "abc")


def _unusable_targets(tmp_path: Path) -> list[tuple[Path, str]]:
    """Targets that cannot be a recipe folder, each with the problem the one line must name."""
    (tmp_path / "afile").write_text("mine")
    return [(tmp_path / "afile", "is a file, not"),
            (tmp_path / "afile" / "sub", "cannot be a recipe folder (Not a directory)"),
            (Path("/proc/rhetorica-no-such/recipe"), "cannot be a recipe folder (No such file or directory)")]


def test_init_and_run_refuse_a_target_that_cannot_be_a_recipe_folder(tmp_path: Path, benchmark_clone: Path) -> None:
    for target, problem in _unusable_targets(tmp_path):
        made = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(target), "--source", str(benchmark_clone),
                                   "--sample", "4", "--judge", "mock/a", "--second-judge", "mock/b"])
        assert made.exit_code == 2, (target, made.output)
        assert made.output.count("\n") == 1 and made.output.startswith(f"error: {target}: ") and problem in made.output
        ran = RUNNER.invoke(app, ["recipe", "run", str(target)])
        assert ran.exit_code == 2 and ran.output.count("\n") == 1 and ran.output.startswith(f"error: {target}: ")
    assert (tmp_path / "afile").read_text() == "mine"


def test_init_names_a_folder_it_may_not_write(tmp_path: Path, benchmark_clone: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "mkdir", refused)  # what a folder without write permission answers (tests run as root)
    with pytest.raises(RecipeError) as caught:
        init_recipe("judge-robustness", tmp_path / "locked", parameters={"judge": "mock/a", "second_judge": "mock/b"},
                    sample=4, source=benchmark_clone)
    assert str(caught.value) == (f"{tmp_path / 'locked'}: cannot be a recipe folder (Permission denied); "
                                 "choose another folder")


def test_an_unknown_judge_is_refused_once_before_anything_is_written(tmp_path: Path, benchmark_clone: Path) -> None:
    folder = tmp_path / "new"
    result = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(folder), "--source", str(benchmark_clone),
                                 "--sample", "4", "--judge", "notaprovider/x"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.count("notaprovider") == 2  # the id and the provider
    assert result.output.startswith("error: --judge: unknown provider 'notaprovider' in model id 'notaprovider/x';")
    assert not folder.exists()
    no_slash = RUNNER.invoke(app, ["recipe", "init", "robustreview", str(folder), "--reviewer", "gpt-5"])
    assert no_slash.exit_code == 2 and no_slash.output.startswith("error: --reviewer: model id 'gpt-5' must")
    assert not folder.exists()


def test_an_invalid_rendered_study_is_not_left_behind(tmp_path: Path, benchmark_clone: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    parameters = {"judge": "mock/a", "second_judge": "mock/b"}
    folder = tmp_path / "j"
    init_recipe("judge-robustness", folder, parameters=parameters, sample=4, source=benchmark_clone, estimate=False)
    written = (folder / "study.yaml").read_bytes()
    monkeypatch.setattr("rhetorica.recipes.init.render_study", lambda *a, **k: "name: broken\nno_such_key: 1\n")
    for target in (folder, tmp_path / "fresh"):  # a resumed folder keeps its study; a new one gets none
        with pytest.raises(RecipeError, match="renders an invalid study"):
            init_recipe("judge-robustness", target, parameters=parameters, sample=4, source=benchmark_clone)
    assert (folder / "study.yaml").read_bytes() == written
    assert not (tmp_path / "fresh" / "study.yaml").exists()


def test_a_study_with_a_reference_family_samples_pairs_and_a_short_source_is_said(
        tmp_path: Path, benchmark_clone: Path) -> None:
    from rhetorica.recipes.init import get_recipe, needs_reference

    judges = {"judge": "mock/a", "second_judge": "mock/b"}
    assert needs_reference(get_recipe("judge-robustness"), judges, 4)  # its scholarpeer judges
    assert not needs_reference(get_recipe("style-over-substance"), {"reviewer": "mock/r", "rewriter": "mock/w"}, 4)
    result = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(tmp_path / "k"), "--source",
                                 str(benchmark_clone), "--sample", "4", "--judge", "mock/a", "--second-judge", "mock/b"],
                           terminal_width=300)
    assert result.exit_code == 0, result.output
    assert "4 kept as two reviews of each of 2 papers (6 of 6 have two or more)" in result.output
    assert "no reference review" not in result.output and "have none" not in result.output
    short = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(tmp_path / "big"), "--source",
                                str(benchmark_clone), "--sample", "1000", "--judge", "mock/a", "--second-judge", "mock/b"],
                          terminal_width=300)
    assert short.exit_code == 0, short.output  # 6 papers x 2 reviews: all 12
    assert short.output.count("warning --sample 1000: the source gives only 12 reviews; the pilot has 12\n") == 1
    assert "Estimate, pilot (12 reviews, measured)" in short.output


def test_init_prints_the_estimate_warning_of_reviews_without_a_reference(tmp_path: Path, benchmark_clone: Path) -> None:
    result = init_recipe("judge-robustness", tmp_path / "k", parameters={"judge": "mock/a", "second_judge": "mock/b"},
                         sample=3, source=benchmark_clone, data_options={"paired_reviews": False})
    assert result.data.units == 3  # drawn one by one: 3 reviews of 6 two-review papers
    kept = json.loads((tmp_path / "k" / "recipe.json").read_text())["units"]
    assert kept == 3
    lines = [w for w in result.warnings if "have none" in w]
    assert [w.split(":")[0] for w in lines] == ["reviewer primary-scholarpeer", "reviewer second-scholarpeer"]


def test_full_design_is_extrapolated_from_the_papers_in_the_study(recorded_venue, tmp_path: Path) -> None:
    """six-dimensions, --sample 6 on the recorded venue: 6 papers drawn, 5 have no LaTeX source and are
    left out (named in the study's recipe.left_out), so the pilot study has 1 paper. Its reviews by hand:
    2 reviewer configurations x (the original + 16 rewrite conditions) = 34 per paper; the full design
    of 120 papers is 34 x 120 = 4,080 review calls (scaled 120/1, not 120/6 = 680)."""
    _, base = recorded_venue
    result = init_recipe("six-dimensions", tmp_path / "sixd", sample=6,
                         parameters={"reviewer": "mock/reviewer", "rewriter": "mock/rewriter"},
                         endpoints={"openreview": base, "arxiv_query": base + "/api/query?{}",
                                    "arxiv_source": base + "/src"},
                         data_options={"venue": VENUE, "arxiv_delay_s": 0})
    config, _ = load_study(result.study)
    assert len(config.documents) == result.data.units == 1
    assert config.recipe is not None and len(config.recipe.left_out) == 5
    assert json.loads((tmp_path / "sixd" / "recipe.json").read_text())["units"] == 1
    pilot, full = result.estimates
    assert (pilot.units, full.units, full.extrapolated_from) == (1, 120, 1)
    assert [row["calls"] for row in pilot.rows if row["stage"] == "review"] == [34]
    assert [row["calls"] for row in full.rows if row["stage"] == "review"] == [34 * 120]
    assert "--sample 6: 5 of those drawn are left out (see the study flow); the pilot has 1" in result.warnings


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` (files with their bytes); ``{}`` when it does not exist."""
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))}


def test_an_init_whose_source_is_unusable_leaves_the_folder_as_it_was(tmp_path: Path, benchmark_clone: Path) -> None:
    """Generated: 5 folder states (new; new under 1 and 3 new parents; existing and empty; an earlier
    init of the same recipe) x 4 unusable sources (none, missing, a file, a folder without pair files):
    exit 2 and every path under the folder's first new ancestor as it was (20 cases)."""
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    (tmp_path / "empty-source").mkdir()
    sources = [[], ["--source", str(tmp_path / "missing")], ["--source", str(a_file)],
               ["--source", str(tmp_path / "empty-source")]]
    cases = 0
    for s, source in enumerate(sources):
        earlier = tmp_path / f"earlier{s}"
        assert RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(earlier), "--sample", "3", "--source",
                                   str(benchmark_clone)]).exit_code in (0, 1)
        states = {"new": tmp_path / f"new{s}", "parent1": tmp_path / f"p{s}" / "r",
                  "parent3": tmp_path / f"q{s}" / "a" / "b" / "r", "empty": tmp_path / f"empty{s}",
                  "earlier": earlier}
        states["empty"].mkdir()
        for state, folder in states.items():
            root = tmp_path / folder.relative_to(tmp_path).parts[0]
            before = _tree(root)
            result = RUNNER.invoke(app, ["recipe", "init", "judge-robustness", str(folder), *source])
            assert result.exit_code == 2, (state, source, result.output)
            assert _tree(root) == before and root.exists() == bool(before or state in ("empty", "earlier")), (
                state, source, _tree(root))
            cases += 1
    assert cases == 20
