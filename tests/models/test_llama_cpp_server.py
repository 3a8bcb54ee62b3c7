"""A small study through the openai-compatible provider against a real llama-cpp-python server.

The server (``python -m llama_cpp.server``, the server extra of the llama-cpp-python the embedded
provider uses) serves the embedded SmolLM2-135M GGUF on a loopback port. It is a server nobody here
wrote: it answers ``response_format: {"type": "json_schema"}`` with HTTP 500 ``Input should be
'text' or 'json_object'``, so the provider must negotiate ``json_object`` with the schema, remember
it, and never retry the rejected request. Three reviews of one 120-word paper (about 2 min on a busy
2-core machine, most of it the first call).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from rhetorica.models import negotiation
from rhetorica.models.server_cache import probe_server_cache
from rhetorica.models.store_log import endpoint_id
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner

pytestmark = pytest.mark.embedded
REVIEWS = 3


def _reliability_benchmark() -> ModuleType:
    """``benchmarks/reliability/run.py``, which owns the one launcher of the real server."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "reliability" / "run.py"
    spec = importlib.util.spec_from_file_location("rhetorica_bench_reliability", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def llama_server() -> Iterator[str]:
    with _reliability_benchmark().llama_cpp_server(threads=1) as root:
        yield f"{root}/v1"


def test_small_study_against_the_real_server(llama_server, shared_data, tmp_path, monkeypatch):
    monkeypatch.setattr(negotiation, "PROCESS", negotiation.Negotiation())
    spec = {
        "name": "llama-cpp-server",
        "output_dir": str(tmp_path / "run"),
        "documents": [str(shared_data / "papers" / "gcrn_iclr2017")],
        "document_options": {"max_words": 120},
        "reviewers": [{"name": "smollm2-server", "model": f"openai-compatible/smollm2@{llama_server}",
                       "sampling": {"temperature": 0.7, "max_tokens": 700},
                       "options": {"timeout_s": 300, "max_concurrency": 1}}],
        "replicates": REVIEWS,
        "validation": {"enabled": False},
    }
    runner = StudyRunner(parse_study(spec), Path(tmp_path))
    summary = asyncio.run(runner.run())
    rows = runner.store.rows("SELECT status, reason, (SELECT value FROM scores s WHERE s.unit_key = assessments.unit_key AND s.metric = 'overall') AS overall FROM assessments")
    calls = runner.store.rows("SELECT status, error, params_json FROM model_calls WHERE probe = 0 ORDER BY call_id")
    probes = runner.store.rows("SELECT status, error FROM model_calls WHERE probe = 1 ORDER BY call_id")
    modes = runner.store.rows("SELECT endpoint, mode FROM structured_modes")
    runner.store.close()
    assert len(rows) == REVIEWS and summary.stopped_configurations == {}
    # no review ends as a transport or server error (before: all of them, after 5 retries each)
    assert not [r for r in rows if r["status"] in ("error", "timeout")], [tuple(r) for r in rows]
    ok = [r for r in rows if r["status"] == "ok"]
    assert len(ok) >= REVIEWS - 1, [tuple(r) for r in rows]
    assert all(1 <= r["overall"] <= 10 for r in ok)
    # every logged call went out as json_object with the schema, none was retried
    assert calls and all(c["status"] != "error" for c in calls)
    assert {json.loads(c["params_json"]).get("structured_output") for c in calls} == {"json_object"}
    # one logged probe: json_schema, rejected; the accepted json_object kept in the store
    assert len(probes) == 2 and probes[0]["status"] == "error" and probes[1]["status"] != "error"
    assert "Input should be 'text' or 'json_object'" in probes[0]["error"]
    assert [tuple(m) for m in modes] == [(endpoint_id(f"openai-compatible:{llama_server}"), "json_object")]


def test_probe_finds_the_real_server_s_one_slot(llama_server):
    # issue 40: the real server has no /props (llama.cpp's own server) nor /metrics (vLLM); its
    # OpenAPI document names it, and the schedule treats it as one slot
    kind, slots, reason = asyncio.run(probe_server_cache(llama_server))
    assert (kind, slots) == ("slots", 1), reason
