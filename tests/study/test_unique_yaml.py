"""Study files with a key given twice (issue 37.6): an error naming the key and both lines, measured
on a corpus made from the example studies — every line ``key: value`` of a block mapping repeated
right after itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.study.config import ConfigError, load_study
from rhetorica.study.unique_yaml import DuplicateKeyError, load_unique

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))
#: a line that is one key with a one-line value (a scalar or a flow collection closed on the line)
_KEY_LINE = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z_][A-Za-z0-9_]*):\s+(?P<value>[^#\s].*?)\s*(#.*)?$")


def _closed(value: str) -> bool:
    return value.count("[") == value.count("]") and value.count("{") == value.count("}")


def duplicated_corpus() -> list[tuple[str, str, int, str]]:
    """(example, key, line of the first occurrence, text with that line repeated after it)."""
    corpus = []
    for path in EXAMPLES:
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            match = _KEY_LINE.match(line)
            if match and _closed(match["value"]):
                text = "\n".join([*lines[: i + 1], line, *lines[i + 1:]]) + "\n"
                corpus.append((path.name, match["key"], i + 1, text))
    return corpus


def test_every_repeated_key_of_the_examples_is_named_with_both_lines() -> None:
    corpus = duplicated_corpus()
    caught = 0
    for name, key, line, text in corpus:
        with pytest.raises(DuplicateKeyError) as error:
            load_unique(text)
        assert (error.value.key, error.value.first_line, error.value.second_line) == (key, line, line + 1), name
        caught += 1
    print(f"{caught} of {len(corpus)} repeated keys caught over {len(EXAMPLES)} example studies")
    assert caught == len(corpus) >= 100  # 131 when written


def test_the_examples_as_written_load_as_the_safe_loader_reads_them() -> None:
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        assert load_unique(text) == yaml.safe_load(text), path.name


def test_a_merge_key_overridden_next_to_it_is_not_a_duplicate() -> None:
    text = "base: &b {replicates: 2, seed: 1}\nstudy:\n  <<: *b\n  replicates: 5\n"
    assert load_unique(text) == {"base": {"replicates": 2, "seed": 1}, "study": {"replicates": 5, "seed": 1}}
    with pytest.raises(DuplicateKeyError, match=r"duplicate key 'replicates' at lines 3 and 4"):
        load_unique("name: s\nstudy:\n  replicates: 2\n  replicates: 5\n")
    with pytest.raises(DuplicateKeyError, match=r"duplicate key 'a' at lines 1 and 1"):
        load_unique("{a: 1, a: 2}\n")


@pytest.mark.parametrize("command", ["run", "estimate"])
def test_a_study_file_with_a_key_twice_exits_2_naming_it(tmp_path: Path, command: str) -> None:
    study = tmp_path / "study.yaml"
    study.write_text("name: twice\noutput_dir: run\ndocuments: [paper.md]\nreplicates: 2\n"
                     "reviewers: [{name: c, kind: control}]\nreplicates: 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"duplicate key 'replicates' at lines 4 and 6"):
        load_study(study)
    result = CliRunner().invoke(app, [command, str(study)])
    assert result.exit_code == 2, result.output
    assert "duplicate key 'replicates' at lines 4 and 6" in " ".join(result.output.split())
