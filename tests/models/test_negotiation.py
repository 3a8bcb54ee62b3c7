"""Structured-output negotiation: one probe per endpoint across concurrent calls and processes, every
request logged, the accepted mode kept in the store."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from fake_servers import FakeServer
from rhetorica.models.errors import InvalidRequestError
from rhetorica.models.negotiation import Negotiation

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
RHETORICA = [sys.executable, "-c", "from rhetorica.cli.app import main; main()"]
MODES = ("json_schema", "json_object", "prompt")


class Memory:
    def __init__(self) -> None:
        self.modes: dict[str, str] = {}

    def accepted_mode(self, endpoint: str) -> str | None:
        return self.modes.get(endpoint)

    def save_accepted_mode(self, endpoint: str, mode: str) -> None:
        self.modes[endpoint] = mode


def test_concurrent_first_calls_wait_for_one_probe_and_a_new_process_reads_the_store():
    sent: list[tuple[str, bool]] = []

    async def send(mode: str, probe: bool) -> str:
        sent.append((mode, probe))
        await asyncio.sleep(0.01)
        if mode == "json_schema":
            raise InvalidRequestError("HTTP 500: Input should be 'text' or 'json_object'")
        return mode

    memory = Memory()

    async def calls(negotiation: Negotiation, n: int) -> list[str]:
        return await asyncio.gather(*(negotiation.send("e", MODES, send, memory) for _ in range(n)))

    assert asyncio.run(calls(Negotiation(), 8)) == ["json_object"] * 8
    assert sent == [("json_schema", True), ("json_object", True)] + [("json_object", False)] * 7
    assert memory.modes == {"e": "json_object"}
    sent.clear()
    assert asyncio.run(calls(Negotiation(), 3)) == ["json_object"] * 3  # a new process: no probe
    assert sent == [("json_object", False)] * 3


def test_a_known_mode_rejected_later_is_found_again_from_the_next_one():
    sent: list[str] = []
    accept = {"json_schema"}

    async def send(mode: str, probe: bool) -> str:
        sent.append(mode)
        if mode not in accept:
            raise InvalidRequestError(f"{mode} rejected")
        return mode

    negotiation = Negotiation()
    assert asyncio.run(negotiation.send("e", MODES, send)) == "json_schema"
    accept.clear()
    accept.add("prompt")  # another server now answers behind the same URL
    assert asyncio.run(negotiation.send("e", MODES, send)) == "prompt"
    assert sent == ["json_schema", "json_schema", "json_object", "prompt"]
    assert negotiation.accepted == {"e": "prompt"}
    with pytest.raises(InvalidRequestError, match="prompt rejected"):
        accept.clear()
        asyncio.run(negotiation.send("e", MODES, send))


def write_study(tmp_path: Path, urls: list[str], replicates: int) -> Path:
    study = {
        "name": "negotiation",
        "output_dir": str(tmp_path / "run"),
        "documents": [str(SHARED_DATA / "papers" / "gcrn_iclr2017")],
        "document_options": {"max_words": 120},
        "models": {"fake": {"provider": "openai-compatible", "model": "fake-reviewer",
                            "endpoints": [{"base_url": f"{url}/v1", "max_concurrency": 8} for url in urls]}},
        "reviewers": [{"name": "loop", "model": "fake"}],
        "replicates": replicates,
        "concurrency": 8,
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study))
    return path


def test_a_study_probes_each_endpoint_once_across_two_processes_and_logs_every_request(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")} | {"COLUMNS": "200"}
    with FakeServer(reject_formats=("json_schema",)) as a, FakeServer(reject_formats=("json_schema",)) as b:
        for replicates in (8, 16):  # the second process runs 8 new reviews
            done = subprocess.run([*RHETORICA, "run", str(write_study(tmp_path, [a.url, b.url], replicates))],
                                  env=env, capture_output=True, text=True, timeout=240)
            assert done.returncode == 0, done.stdout + done.stderr
        requests = a.model_requests() + b.model_requests()
    for server in (a, b):
        formats = [(r.body.get("response_format") or {}).get("type") for r in server.model_requests()]
        assert formats.count("json_schema") == 1, formats  # one probe per endpoint, never repeated
        assert set(formats) == {"json_schema", "json_object"}
    conn = sqlite3.connect(tmp_path / "run" / "store.sqlite")
    try:
        logged = conn.execute("SELECT COUNT(*) FROM model_calls WHERE cache_hit = 0").fetchone()[0]
        rejected = conn.execute("SELECT COUNT(*) FROM model_calls WHERE probe = 1 AND status = 'error' "
                                "AND error LIKE 'structured-output mode json_schema rejected%'").fetchone()[0]
        modes = conn.execute("SELECT mode FROM structured_modes").fetchall()
        ok = conn.execute("SELECT COUNT(*) FROM assessments WHERE status = 'ok'").fetchone()[0]
    finally:
        conn.close()
    assert ok == 16
    assert logged == len(requests) == 16 + 2  # every review, plus the rejected probe of each endpoint
    assert rejected == 2 and modes == [("json_object",), ("json_object",)]
