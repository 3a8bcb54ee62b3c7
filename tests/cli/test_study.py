"""``rhetorica run``/``report``'s console headline (:mod:`rhetorica.cli.study`)."""

from __future__ import annotations

import csv
import os
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app


def test_a_judge_study_prints_its_judges_classifications_not_an_empty_comparison_table(tmp_path: Path) -> None:
    """A judge study has no paired comparison of papers: the console printed that table empty; it
    now prints Table 1's classifications counted per condition and judge."""
    from tests.report.judge_runs import run_judge_study

    run = run_judge_study(tmp_path)
    result = CliRunner().invoke(app, ["report", str(run)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Paired comparison" not in result.output
    assert "Review-quality judges: metrics per classification" in " ".join(result.output.split())
    shown = {tuple(c.strip() for c in line.split("│")[1:-1])[:2]: [c.strip() for c in line.split("│")[1:-1]][2:]
             for line in result.output.splitlines() if line.startswith("│ ")}
    header = next(line for line in result.output.splitlines() if "Condition" in line)
    columns = [c.strip() for c in header.split("┃")[1:-1]][3:]
    with (run / "tables" / "judges.csv").open(encoding="utf-8") as handle:
        table1 = list(csv.DictReader(handle))
    expected = {}
    for (condition, judge), counts in Counter((r["condition"], r["judge"]) for r in table1).items():
        classes = Counter(r["classification"] for r in table1 if (r["condition"], r["judge"]) == (condition, judge))
        expected[(condition, judge)] = [str(counts)] + [str(classes[c.replace(" ", "_")]) for c in columns]
    assert shown == expected
    # by hand from the judge's answers: a paraphrase moves criticism by 0.2 (bound 0.1), overall quality by
    # 10 (bound 10: TOST cannot reject at the bound) and vague from no to yes: 3 non-zero differences, whose
    # smallest Wilcoxon p 2 / 2^3 never reaches the Bonferroni level; every other metric is one score level
    # throughout or d = 0 on 3 pairs (too few for the sign test): every metric not informative (issue 36)
    paraphrase = dict(zip(["Metrics", *columns], next(v for k, v in shown.items() if k[0] == "paraphrase")))
    assert columns == ["not informative"] and paraphrase["not informative"] == paraphrase["Metrics"] == "16"


def test_run_writes_its_report_before_it_releases_the_run_lock(tmp_path: Path, shared_data: Path,
                                                               monkeypatch) -> None:  # noqa: ANN001
    """A second ``rhetorica run --wait`` (or ``rhetorica report``) must not start while the first
    is still writing its report: the report is written while this process holds the lock."""
    import os

    import rhetorica.cli.study as cli_study
    from rhetorica.store.lock import lock_holder
    from tests.study.helpers import study_dict, write_study

    holders = []
    write = cli_study.write_report

    def recording(run_dir: Path, **options):  # noqa: ANN003, ANN202
        holders.append(lock_holder(run_dir))
        return write(run_dir, **options)

    monkeypatch.setattr(cli_study, "write_report", recording)
    study = write_study(tmp_path / "s.yaml", study_dict(shared_data, tmp_path / "run", rewriters=[]))
    result = CliRunner().invoke(app, ["run", str(study)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert holders == [os.getpid()] and lock_holder(tmp_path / "run") is None
    assert (tmp_path / "run" / "report.html").stat().st_size > 0


def test_report_exits_1_naming_the_run_that_holds_the_lock_or_waits_for_it(tmp_path: Path, shared_data: Path) -> None:
    import os
    import threading

    from rhetorica.store.lock import run_lock
    from tests.study.helpers import study_dict, write_study

    study = write_study(tmp_path / "s.yaml", study_dict(shared_data, tmp_path / "run", rewriters=[]))
    assert CliRunner().invoke(app, ["run", str(study)]).exit_code == 0
    report = tmp_path / "run" / "report.html"
    before = report.read_bytes()
    report.unlink()
    with run_lock(tmp_path / "run"):  # a run of the study in progress
        locked = CliRunner().invoke(app, ["report", str(tmp_path / "run")], env={"COLUMNS": "200"})
    assert locked.exit_code == 1
    said = " ".join(locked.output.split())
    assert f"process {os.getpid()} is running this study" in said and "--wait" in said
    assert not report.exists()  # nothing written while the run held the lock

    held, release = threading.Event(), threading.Event()

    def a_run() -> None:
        with run_lock(tmp_path / "run"):
            held.set()
            release.wait(30)

    holder = threading.Thread(target=a_run)
    holder.start()
    held.wait(30)
    threading.Timer(0.5, release.set).start()
    waited = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "--wait"], env={"COLUMNS": "200"})
    holder.join(30)
    assert waited.exit_code == 0, waited.output
    assert f"waiting: process {os.getpid()} is running this study" in " ".join(waited.output.split())
    assert report.read_bytes() == before  # the same store: the same report, byte for byte


def test_an_output_dir_the_system_refuses_is_one_line_exit_2(tmp_path: Path) -> None:
    """/proc passes every check made before the run (it exists, root may write it) yet refuses a folder."""
    (tmp_path / "paper.md").write_text("# A paper\n\n## Abstract\n\nWe study a method and report its accuracy.\n")
    study = tmp_path / "study.yaml"
    study.write_text("name: c\noutput_dir: /proc/forbidden/run\ndocuments:\n  - path: paper.md\nreviewers:\n"
                     "  - {name: r1, model: mock/a}\nreplicates: 1\n")
    result = CliRunner().invoke(app, ["run", str(study)])
    assert result.exit_code == 2
    said = ("cannot be created (No such file or directory: /proc/forbidden)" if os.access("/proc", os.W_OK)  # root
            else "cannot be created: /proc is not writable")
    assert result.stderr == f"error: output_dir /proc/forbidden/run: {said}\n"


def _ok_units(run_dir: Path) -> int:
    import sqlite3

    if not (run_dir / "store.sqlite").is_file():
        return 0
    conn = sqlite3.connect(run_dir / "store.sqlite", timeout=10)
    try:
        return conn.execute("SELECT count(*) FROM assessments WHERE status = 'ok'").fetchone()[0]
    except sqlite3.OperationalError:  # the store's tables are not made yet
        return 0
    finally:
        conn.close()


def test_sigterm_and_ctrl_c_stop_a_run_with_one_line_keeping_its_finished_units(tmp_path: Path,
                                                                                 shared_data: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    import pytest

    import rhetorica
    from tests.study.helpers import study_dict, write_study

    env = {**os.environ, "PYTHONPATH": str(Path(rhetorica.__file__).resolve().parents[1]), "COLUMNS": "200"}
    for signum, code, said in ((signal.SIGTERM, 143, "terminated (SIGTERM)"), (signal.SIGINT, 130, "interrupted")):
        run_dir = tmp_path / f"run{code}"
        spec = study_dict(shared_data, run_dir, rewriters=[], replicates=4, concurrency=1,  # 4 units, one at a time
                          reviewers=[{"name": "slow", "model": "mock/slow", "options": {"latency_s": 1.5}}])
        spec["documents"] = spec["documents"][:1]
        study = write_study(tmp_path / f"s{code}.yaml", spec)
        proc = subprocess.Popen([sys.executable, "-m", "rhetorica", "run", str(study)], env=env, cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while _ok_units(run_dir) < 1 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        saved = _ok_units(run_dir)
        if saved != 1 or proc.poll() is not None:
            proc.kill()
            pytest.fail(f"the run did not stop between units 1 and 4: {saved} saved, exit {proc.poll()}")
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == code, (out, err)
        assert err.strip().splitlines()[-1] == f"{said}: every finished unit is saved; run the same command again to resume"
        assert "Traceback" not in err and 1 <= _ok_units(run_dir) < 4  # kept; the rest not run
    again = subprocess.run([sys.executable, "-m", "rhetorica", "run", str(tmp_path / "s143.yaml")], env=env,
                           cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and _ok_units(tmp_path / "run143") == 4, again.stderr  # resumed to the end
