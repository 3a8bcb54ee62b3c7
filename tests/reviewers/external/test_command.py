"""The ``command`` reviewer: hangs, crashes, garbage and out-of-range scores are data; calls are
cached and logged; the environment is an allow-list."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from pydantic import ValidationError
from pypdf import PdfReader

from rhetorica.documents import read_document

from rhetorica.models.store_log import StoreCallLog
from rhetorica.models.call import CallContext
from rhetorica.registry import evaluators
from rhetorica.reviewers.external.command import CommandReviewer
from rhetorica.status import Status
from rhetorica.store.db import Store
from tests.documents.pdf_factory import write_pdf
from tests.reviewers.external.helpers import DOC, ICLR_JSON, ICLR_REVIEW, TARGET, evaluate, logged_calls

PY = sys.executable


def reviewer(code: str, **options) -> CommandReviewer:
    """A command reviewer running ``python -c code``."""
    return evaluators.get("command")("cmd", args=[PY, "-c", code], **options)


def test_valid_review_on_stdout_is_ok_with_validated_scores() -> None:
    result = evaluate(reviewer(f"print({ICLR_JSON!r})"))
    assert result.status == Status.OK
    assert result.scores == {"overall": 6.0, "soundness": 3.0, "presentation": 2.0, "contribution": 3.0,
                             "confidence": 4.0}
    assert result.payload["weaknesses"] == ["b"]


def test_manuscript_reaches_stdin_and_the_input_file() -> None:
    # the command echoes what it read into the summary
    echo = "import sys, json; r = json.loads(sys.argv[1]); r['summary'] = {src}; print(json.dumps(r))"
    by_stdin = evaluate(evaluators.get("command")("cmd", args=[PY, "-c", echo.format(src="sys.stdin.read()"), ICLR_JSON]))
    assert by_stdin.payload["summary"] == "# Spectral filters\n\n## Introduction\n\nWe prove it.\n"
    by_file = evaluate(evaluators.get("command")(
        "cmd", input="text", args=[PY, "-c", echo.format(src="open(sys.argv[2]).read()"), ICLR_JSON, "{input}"]))
    assert by_file.payload["summary"] == "Spectral filters\n\nIntroduction\n\nWe prove it.\n"


def test_review_written_to_a_file() -> None:
    code = f"import sys; open(sys.argv[1], 'w').write({ICLR_JSON!r})"
    result = evaluate(evaluators.get("command")("cmd", args=[PY, "-c", code, "{output}"], output="file"))
    assert (result.status, result.scores["overall"]) == (Status.OK, 6.0)
    silent = evaluate(evaluators.get("command")("cmd", args=[PY, "-c", "pass"], output="file"))
    assert silent.status == Status.EMPTY


def test_a_hanging_reviewer_times_out_and_is_killed() -> None:
    started = time.monotonic()
    result = evaluate(reviewer("import time; time.sleep(30)", timeout_s=0.5))
    assert result.status == Status.TIMEOUT
    assert result.reason == "the command ran past its 0.5 s limit"
    assert time.monotonic() - started < 10


def test_a_crashing_reviewer_is_an_error_with_its_stderr() -> None:
    result = evaluate(reviewer("import sys; sys.stderr.write('model not found'); sys.exit(3)"))
    assert result.status == Status.ERROR
    assert result.reason == "the command exited with status 3: model not found"
    missing = evaluate(evaluators.get("command")("cmd", args=["/nonexistent/reviewer"]))
    assert missing.status == Status.ERROR and missing.reason.startswith("cannot start '/nonexistent/reviewer'")


def test_garbage_is_malformed_and_silence_is_empty() -> None:
    garbage = evaluate(reviewer("print('Overall: 7/10, a fine paper')"))
    assert garbage.status == Status.MALFORMED and garbage.reason.startswith("the answer is not JSON")
    assert garbage.raw_text == "Overall: 7/10, a fine paper\n"
    assert evaluate(reviewer("print('[6, 3]')")).reason == "the answer is a JSON list, not an object"
    assert evaluate(reviewer("pass")).status == Status.EMPTY


def test_out_of_range_score_is_malformed_never_clipped() -> None:
    review = json.dumps(ICLR_REVIEW | {"overall": 11})
    result = evaluate(reviewer(f"print({review!r})"))
    assert result.status == Status.MALFORMED and result.scores == {}
    assert result.reason == "native review: overall: 11 is outside its range 1..10"
    half = json.dumps(ICLR_REVIEW | {"soundness": 2.5})
    assert evaluate(reviewer(f"print({half!r})")).reason == "native review: soundness: 2.5 is not a whole number"


def test_second_identical_call_is_a_cache_hit_and_both_are_logged(tmp_path) -> None:
    counter = tmp_path / "runs.txt"
    code = f"open({str(counter)!r}, 'a').write('x'); print({ICLR_JSON!r})"
    store = Store.in_dir(tmp_path / "run")
    context = CallContext(log=StoreCallLog(store), unit_key="u1")
    first = evaluate(reviewer(code), context)
    second = evaluate(reviewer(code), context)
    assert first.status == second.status == Status.OK and first.scores == second.scores
    assert counter.read_text() == "x"  # the command ran once
    assert logged_calls(store.path) == [("u1", "command", "cmd", "ok", 0), ("u1", "command", "cmd", "ok", 1)]
    replicate = evaluate(reviewer(code), context, target=replace(TARGET, replicate=1))
    assert replicate.status == Status.OK and counter.read_text() == "xx"  # another replicate: a new call
    store.close()


def test_failures_are_logged_and_not_cached(tmp_path) -> None:
    store = Store.in_dir(tmp_path / "run")
    context = CallContext(log=StoreCallLog(store), unit_key="u1")
    for _ in range(2):
        assert evaluate(reviewer("import sys; sys.exit(1)"), context).status == Status.ERROR
    assert logged_calls(store.path) == [("u1", "command", "cmd", "error", 0), ("u1", "command", "cmd", "error", 0)]
    store.close()


def test_environment_is_an_allow_list(monkeypatch) -> None:
    monkeypatch.setenv("REVIEWER_API_KEY", "sk-secret")
    monkeypatch.setenv("OTHER_API_KEY", "sk-other")
    code = ("import os, json, sys; r = json.loads(sys.argv[1]); "
            "r['strengths'] = sorted(k for k in os.environ if k.endswith('_API_KEY') or k == 'MODEL'); "
            "r['summary'] = os.environ.get('REVIEWER_API_KEY', '') + '|' + os.environ['RHETORICA_REPLICATE']; "
            "print(json.dumps(r))")
    hidden = evaluate(evaluators.get("command")("cmd", args=[PY, "-c", code, ICLR_JSON]))
    assert hidden.payload["strengths"] == [] and hidden.payload["summary"] == "|0"
    listed = evaluate(evaluators.get("command")("cmd", args=[PY, "-c", code, ICLR_JSON],
                                                pass_env=["REVIEWER_API_KEY"], env={"MODEL": "m1"}))
    assert listed.payload["strengths"] == ["MODEL", "REVIEWER_API_KEY"]
    assert listed.payload["summary"] == "sk-secret|0"


def test_secret_values_stay_out_of_the_spec_and_cache_key(monkeypatch) -> None:
    first = reviewer("pass", pass_env=["REVIEWER_API_KEY"])
    monkeypatch.setenv("REVIEWER_API_KEY", "sk-secret")
    assert "sk-secret" not in json.dumps(first.spec())
    assert first.spec()["pass_env"] == ["REVIEWER_API_KEY"]
    assert reviewer("pass", timeout_s=5).spec() == reviewer("pass", timeout_s=50).spec()


def test_pdf_input_needs_a_pdf_of_this_document(tmp_path) -> None:
    code = f"import sys; print({ICLR_JSON!r}) if open(sys.argv[1], 'rb').read(4) == b'%PDF' else sys.exit(2)"
    pdf_reviewer = evaluators.get("command")("cmd", input="pdf", args=[PY, "-c", code, "{input}"])
    variant = replace(TARGET, condition="confidence:+", rewriter="llm", variant_key="v1")
    refused = evaluate(pdf_reviewer, target=variant)
    assert refused.status == Status.DISCARDED and "no PDF of this document" in refused.reason
    pdf = write_pdf(tmp_path / "variant.pdf", [[(72, 700, 11, False, "We prove it.")]])
    compiled = replace(variant, document=DOC.model_copy(update={"metadata": {"pdf_path": str(pdf)}}))
    assert evaluate(pdf_reviewer, target=compiled).status == Status.OK
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"%PDF-1.4 fake")
    unreadable = evaluate(pdf_reviewer, target=replace(variant, document=DOC.model_copy(
        update={"metadata": {"pdf_path": str(fake)}})))
    assert unreadable.status == Status.ERROR and unreadable.reason.startswith(
        f"p1 (confidence:+): {fake}: not a readable PDF")
    with pytest.raises(ValidationError, match="needs the '\\{input\\}' placeholder"):
        evaluators.get("command")("cmd", input="pdf", args=[PY, "-c", "pass"])


PAPER = r"""\documentclass{article}
\usepackage[pdfauthor={Jane Q. Doorman},pdftitle={Fast Spectral Filters}]{hyperref}
\title{Fast Spectral Filters}
\author{Jane Q. Doorman\thanks{Homepage \url{https://janedoorman.github.io/projects/fast-spectral-filters-on-graphs/}}
\\ Quillfield University \\ \texttt{jane.doorman@example.org}}
\date{}
\begin{document}
\maketitle
\begin{abstract}
Spectral filters on graphs run in linear time when written as polynomials of the Laplacian, which
we show on three data sets; our code is available at
\url{https://github.com/janedoorman/fast-spectral-filters-on-graphs-with-chebyshev-polynomials}.
\end{abstract}
\section{Introduction}
Graphs carry signals on their vertices. The filters of this paper are local and cheap, see
\href{https://github.com/janedoorman}{our repository} and the work of \href{https://example.com/chebyshev}{others}.
\end{document}
"""
#: The authors' traces in the source: name, affiliation, email, homepage and repository URLs.
IDENTITY = ["Jane Q. Doorman", "Doorman", "Quillfield", "jane.doorman@example.org", "janedoorman.github.io",
            "github.com/janedoorman"]


def _everything(pdf: Path) -> str:
    """All a PDF reader can get from ``pdf`` (pypdf, independent of PDFium): text, document
    information, link targets and the decompressed page contents, folded to letters and digits."""
    reader = PdfReader(pdf)
    parts = [str(v) for v in (reader.metadata or {}).values()]
    for page in reader.pages:
        parts.append(page.extract_text())
        parts.append(page.get_contents().get_data().decode("latin-1") if page.get_contents() else "")
        for annot in page.get("/Annots") or []:
            parts.append(str(annot.get_object().get("/A", {}).get("/URI", "")))
    return re.sub(r"[^0-9a-z]", "", " ".join(parts).casefold())


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="TeX Live is not installed")
def test_a_pdf_reviewer_receives_a_blinded_copy_without_the_authors(tmp_path) -> None:
    # issue 24: an external system that reads PDF files gets a blinded copy, never the original
    (tmp_path / "paper.tex").write_text(PAPER)
    subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "paper.tex"], cwd=tmp_path,
                   capture_output=True, timeout=120, check=False)
    original = tmp_path / "paper.pdf"
    document = read_document(original)
    received = tmp_path / "received.pdf"
    code = f"import shutil, sys; shutil.copy(sys.argv[1], {str(received)!r}); print({ICLR_JSON!r})"
    pdf_reviewer = evaluators.get("command")("cmd", input="pdf", args=[PY, "-c", code, "{input}"])
    assert evaluate(pdf_reviewer, target=replace(TARGET, document=document)).status == Status.OK
    before, after = _everything(original), _everything(received)
    for trace in IDENTITY:
        folded = re.sub(r"[^0-9a-z]", "", trace.casefold())
        assert folded in before, trace
        assert folded not in after, trace
    for kept in ("Fast Spectral Filters", "Spectral filters on graphs run in linear time", "example.com/chebyshev"):
        assert re.sub(r"[^0-9a-z]", "", kept.casefold()) in after, kept


def test_unknown_option_is_a_clear_error() -> None:
    with pytest.raises(ValidationError, match="timeout\n  Extra inputs are not permitted"):
        evaluators.get("command")("cmd", args=[PY], timeout=3)


def test_a_resumed_run_reads_the_answer_from_the_store(tmp_path) -> None:
    counter = tmp_path / "runs.txt"
    code = f"open({str(counter)!r}, 'a').write('x'); print({ICLR_JSON!r})"
    first = Store.in_dir(tmp_path / "run")
    evaluate(reviewer(code), CallContext(log=StoreCallLog(first), unit_key="u1"))
    first.close()
    reopened = Store.in_dir(tmp_path / "run")  # a new process resuming the study
    assert evaluate(reviewer(code), CallContext(log=StoreCallLog(reopened), unit_key="u1")).status == Status.OK
    assert counter.read_text() == "x"
    reopened.close()


def test_external_reviewers_are_evaluators() -> None:
    from rhetorica.evaluation import Evaluator

    command = reviewer("pass")
    assert isinstance(command, Evaluator) and command.form.name == "iclr-2026"
    assert command.spec()["kind"] == "command" and command.spec()["adapter"] == "native"


def test_output_past_the_cap_is_cut_and_malformed() -> None:
    flood = "import sys; sys.stdin.read(); sys.stdout.write('x' * 300_000); sys.stderr.write('e' * 300_000)"
    result = evaluate(reviewer(flood, max_output_bytes=1000))
    assert (result.status, result.reason) == (Status.MALFORMED,
                                              "the command printed more than 1,000 bytes; its output was cut there")
    assert result.raw_text == "x" * 1000
    exact = evaluate(reviewer(f"import sys; sys.stdout.write({ICLR_JSON!r})", max_output_bytes=len(ICLR_JSON)))
    assert exact.status == Status.OK  # exactly the cap is not cut
    to_file = "import sys; open(sys.argv[1], 'w').write('y' * 5000)"
    cut = evaluate(evaluators.get("command")("cmd", args=[PY, "-c", to_file, "{output}"], output="file",
                                             max_output_bytes=100))
    assert (cut.status, cut.reason, cut.raw_text) == (
        Status.MALFORMED, "the output file is longer than 100 bytes; it was cut there", "y" * 100)


def test_the_default_cap_is_one_megabyte() -> None:
    assert reviewer("pass").options.max_output_bytes == 1_000_000


def test_concurrent_identical_calls_run_the_command_once(tmp_path) -> None:
    import asyncio

    from rhetorica.models.call import ConnectionLimits

    runs = tmp_path / "runs.txt"
    code = f"import time; open({str(runs)!r}, 'a').write('run\\n'); time.sleep(0.5); print({ICLR_JSON!r})"
    command = reviewer(code)
    store = Store(tmp_path / "store.sqlite")
    limits = ConnectionLimits()  # the run's: what every unit's calls share
    contexts = [CallContext(log=StoreCallLog(store), unit_key=f"u{i}", limits=limits) for i in range(4)]

    async def together() -> list:
        return await asyncio.gather(*(command.evaluate(TARGET, c) for c in contexts))

    try:
        results = asyncio.run(together())
    finally:
        store.close()
    assert runs.read_text() == "run\n"  # 4 identical calls at once: the command ran once
    assert [r.status for r in results] == [Status.OK] * 4 and len({json.dumps(r.scores) for r in results}) == 1
    rows = logged_calls(tmp_path / "store.sqlite")
    assert sorted(r[4] for r in rows) == [0, 1, 1, 1] and {r[3] for r in rows} == {"ok"}  # 1 run, 3 shared


KILLED_SCRIPT = """\
import json, os, subprocess, sys, time
folder = sys.argv[1]
if os.path.exists(os.path.join(folder, "release")):
    print(json.dumps({"summary": "s", "strengths": ["a"], "weaknesses": ["b"], "questions": [], "overall": 6,
                      "soundness": 3, "presentation": 2, "contribution": 3, "confidence": 4}))
    sys.exit(0)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])  # a child of its own
with open(os.path.join(folder, f"{os.getpid()}.pid"), "w") as out:
    out.write(f"{os.getpid()} {child.pid}")
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_a_killed_run_leaves_no_command_child_and_its_calls_are_abandoned(tmp_path, signal_name) -> None:
    import os
    import signal

    import yaml

    papers = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "papers"
    script, pids = tmp_path / "reviewer.py", tmp_path / "pids"
    script.write_text(KILLED_SCRIPT)
    pids.mkdir()
    study = tmp_path / "study.yaml"
    study.write_text(yaml.safe_dump({
        "name": "killed", "output_dir": str(tmp_path / "run"),
        "documents": [str(papers / name) for name in ("gcrn_iclr2017", "chebnet_nips2016", "cheblienet_neurips2021")],
        "document_options": {"max_words": 120}, "replicates": 1, "concurrency": 3,
        "reviewers": [{"name": "slow", "kind": "command", "options": {
            "args": [PY, str(script), str(pids)], "form": "iclr-2026", "timeout_s": 300}}],
        "validation": {"enabled": False}}))
    cli = [PY, "-c", "from rhetorica.cli.app import main; main()", "run", str(study)]
    run = subprocess.Popen(cli, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(list(pids.glob("*.pid"))) < 3 and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)
    time.sleep(0.2)  # each wrote its pid file in one go; let the last finish writing
    started = [int(p) for f in pids.glob("*.pid") for p in f.read_text().split()]
    assert len(started) == 6 and all(_alive(p) for p in started)  # 3 commands, each with a child
    run.send_signal(getattr(signal, signal_name))
    run.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [p for p in started if _alive(p)]
    for pid in survivors:  # never leave them running, even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert survivors == []

    (pids / "release").write_text("")
    again = subprocess.run(cli, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "abandoned: 3 call(s)" in again.stderr + again.stdout
    rows = logged_calls(tmp_path / "run" / "store.sqlite")
    assert sorted((r[1], r[3]) for r in rows) == [("command", "abandoned")] * 3 + [("command", "ok")] * 3
