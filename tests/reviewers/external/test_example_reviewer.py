"""The shipped example command reviewer (examples/reviewers/openai_compatible_reviewer.py) run as a
``command`` evaluator against a loopback OpenAI-compatible server."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rhetorica.registry import evaluators
from rhetorica.reviewers.external import command as _command  # noqa: F401  (registers the kind)
from rhetorica.status import Status
from tests.models.fake_servers import FakeServer
from tests.reviewers.external.helpers import evaluate

SCRIPT = Path(__file__).resolve().parents[3] / "examples" / "reviewers" / "openai_compatible_reviewer.py"
AI_SCIENTIST = {"Summary": "A spectral filter method.", "Strengths": ["proof"], "Weaknesses": ["one dataset"],
                "Questions": ["other graphs?"], "Limitations": "small", "Soundness": 3, "Presentation": 4,
                "Contribution": 2, "Overall": 6, "Confidence": 3, "Decision": "Accept"}


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


def reviewer(server: FakeServer, **options):
    args = [sys.executable, str(SCRIPT), "{input}", "--base-url", f"{server.url}/v1", "--model", "rev-1",
            "--seed", "{replicate}"]
    return evaluators.get("command")("example", args=args, adapter="ai-scientist", timeout_s=60, **options)


def test_example_reviewer_reviews_through_the_endpoint(server, monkeypatch) -> None:
    monkeypatch.setenv("REVIEWER_API_KEY", "sk-review")
    server.script = [{"text": "Here is my review:\n```json\n" + json.dumps(AI_SCIENTIST) + "\n```"}]
    result = evaluate(reviewer(server, pass_env=["REVIEWER_API_KEY"]))
    assert result.status == Status.OK, result.reason
    assert result.scores == {"overall": 6.0, "soundness": 3.0, "presentation": 4.0, "contribution": 2.0,
                             "confidence": 3.0}
    assert result.payload["native_decision"] == "Accept" and result.payload["weaknesses"] == ["one dataset"]
    (request,) = server.model_requests("openai")
    assert request.headers["authorization"] == "Bearer sk-review"
    assert request.body["model"] == "rev-1" and request.body["seed"] == 0
    system, user = request.body["messages"]
    assert '"Soundness": 1 (poor)' in system["content"]
    assert user["content"] == "# Spectral filters\n\n## Introduction\n\nWe prove it.\n"


def test_key_not_listed_never_reaches_the_endpoint(server, monkeypatch) -> None:
    monkeypatch.setenv("REVIEWER_API_KEY", "sk-review")
    server.script = [{"text": json.dumps(AI_SCIENTIST)}]
    assert evaluate(reviewer(server)).status == Status.OK
    assert "authorization" not in server.model_requests("openai")[0].headers


def test_server_failure_is_an_error_and_an_off_scale_score_is_malformed(server) -> None:
    server.script = ["server_error"]
    failed = evaluate(reviewer(server))
    assert failed.status == Status.ERROR and failed.reason.startswith("the command exited with status 1: HTTP 500")
    server.script = [{"text": json.dumps(AI_SCIENTIST | {"Overall": 12})}]
    off_scale = evaluate(reviewer(server))
    assert (off_scale.status, off_scale.reason) == (Status.MALFORMED,
                                                    "ai-scientist review: overall: 12 is outside its range 1..10")
    server.script = ["malformed_content"]
    prose = evaluate(reviewer(server))
    assert prose.status == Status.MALFORMED and prose.raw_text == "Here is my review: it is good.\n"
