"""Model URLs are checked when a study loads (issue 37.6): a generated corpus of bad URLs — wrong or
missing scheme, no host, ports out of range or not numbers — in each place a study names one (an
inline ``openai-compatible/<model>@<url>``, a declared model's endpoint, a provider's ``base_url``
option) is one ConfigError line naming the model; the good URLs load; ``run`` and ``estimate``
exit 2 before any work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.models.url_check import url_problem
from rhetorica.study.config import ConfigError, parse_study

HOSTS = ("localhost", "127.0.0.1", "gpu-0.lab", "[::1]")
BAD = [*(f"{scheme}://{host}:8000/v1" for scheme in ("ftp", "ws", "file", "htp") for host in HOSTS),
       *(f"{host}:8000/v1" for host in HOSTS),  # no scheme
       *(f"http://{host}:{port}/v1" for host in HOSTS for port in ("0", "65536", "99999", "-1", "80a")),
       "http:///v1", "https://:8000/v1", "http://[::1/v1"]
GOOD = [*(f"{scheme}://{host}{port}/v1" for scheme in ("http", "https") for host in HOSTS
          for port in ("", ":1", ":8000", ":65535")), "http://user:secret@localhost:8000/v1"]


def test_url_problem_on_the_corpus() -> None:
    assert [u for u in BAD if url_problem(u) is None] == []
    assert [u for u in GOOD if url_problem(u) is not None] == []
    assert (len(BAD), len(GOOD)) == (43, 33)
    assert url_problem("http://h:99999/v1") == "'http://h:99999/v1' is not a valid URL (Port out of range 0-65535)"
    assert url_problem("localhost:8000/v1") == "'localhost:8000/v1' is not an http:// or https:// URL with a host"


def _studies(url: str) -> dict[str, dict[str, Any]]:
    """The places a study names a model URL, each as a whole study."""
    base = {"name": "u", "output_dir": "run", "documents": ["paper.md"], "validation": {"enabled": False}}
    return {
        "inline": base | {"reviewers": [{"name": "r", "model": f"openai-compatible/qwen@{url}"}]},
        "endpoint": base | {"models": {"qwen": {"provider": "openai-compatible", "model": "qwen",
                                                "endpoints": [{"base_url": url}]}},
                            "reviewers": [{"name": "r", "model": "qwen"}]},
        "option": base | {"reviewers": [{"name": "r", "model": "openai/gpt-4.1-mini", "options": {"base_url": url}}]},
    }


@pytest.mark.parametrize("place", ["inline", "endpoint", "option"])
def test_every_bad_url_is_one_line_naming_the_model(place: str) -> None:
    for url in BAD:
        with pytest.raises(ConfigError) as error:
            parse_study(_studies(url)[place])
        message = str(error.value)
        assert len(message.splitlines()) == 1 and "URL" in message, (url, message)
        assert {"inline": "openai-compatible/qwen@", "endpoint": "models.qwen.endpoints[0].base_url",
                "option": "reviewers[0].options"}[place] in message, (url, message)
    for url in GOOD:
        parse_study(_studies(url)[place])


@pytest.mark.parametrize("command", ["run", "estimate"])
def test_run_and_estimate_exit_2_on_a_bad_port(tmp_path: Path, command: str) -> None:
    study = tmp_path / "study.yaml"
    study.write_text(yaml.safe_dump(_studies("http://127.0.0.1:99999/v1")["inline"]), encoding="utf-8")
    result = CliRunner().invoke(app, [command, str(study)])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "openai-compatible/qwen@http://127.0.0.1:99999/v1" in text and "Port out of range" in text
    assert not (tmp_path / "run").exists()  # nothing ran
