"""Worst-case searches on a LaTeX project: scope paragraphs, and the search end to end in a study run
with the scripted proposer and phrase reviewer (tests/attack/scripted.py) on a small project written
here. The proposer plants the phrase under the ``presentation`` move; on planted seeds it drops the
abstract's ``\\cite`` (its answer is the phrase forty times, which the reviewer would score highest)
or adds an undefined command (compiles with an error the baseline has not)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from rhetorica.analysis.attack import TRAJECTORY
from rhetorica.documents.models import Document
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.rewriting.latex_project.anchors import check_anchors
from rhetorica.documents.latex.project import load_project
from rhetorica.attack.project import scope_paragraphs
from rhetorica.store.db import Store
from rhetorica.study.config import parse_study
from rhetorica.study.estimate import estimate_study
from rhetorica.study.project_rewrite import variant_dir
from rhetorica.study.runner import StudyRunner
from tests.attack.scripted import PHRASE, Proposer, PhraseReviewer
from tests.study.helpers import write_study
from tests.study.test_runner import BagOfWordsEmbedder

needs_tex = pytest.mark.skipif(shutil.which("latexmk") is None, reason="TeX Live is not installed")

MAIN = r"""\documentclass{article}
\title{A Study of Simple Rules}
\author{Ann Author}
\begin{document}
\maketitle
\begin{abstract}
We study simple decision rules on standard benchmarks and compare them with prior methods~\cite{smith2020}.
Our rule improves accuracy over the strongest baseline in most of the settings we consider here.
\end{abstract}
\section{Introduction}\label{sec:intro}
Prior work studied many settings of this problem with careful experiments~\cite{smith2020}.
We revisit them and describe our rule in Section~\ref{sec:method}.

\input{method}

\section{Discussion}
The rule is easy to state and easy to check, which makes its behaviour simple to explain.

\begin{thebibliography}{1}
\bibitem{smith2020} J. Smith. A study of rules. 2020.
\end{thebibliography}
\end{document}
"""

METHOD = r"""\section{Method}\label{sec:method}
Our method applies one simple rule to every example and keeps the label it predicts.
The rule needs no training and runs in time linear in the number of examples.
"""

ANCHOR_SEED, COMPILE_SEED = 2, 4  # round 1 candidate 2 (presentation), round 2 candidate 1
OPTIONS = {"candidates": 3, "rounds": 2, "search_replicates": 2, "max_queries": 20,
           "moves": ["presentation", "confidence:-"], "scope": "abstract"}


def write_project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "main.tex").write_text(MAIN, encoding="utf-8")
    (folder / "method.tex").write_text(METHOD, encoding="utf-8")
    return folder


def test_scope_paragraphs_follow_the_abstract_and_the_headings_in_document_order(tmp_path):
    project = load_project(write_project(tmp_path / "p"))
    first = lambda scope: [p.text.split()[0] for p in scope_paragraphs(project, scope)]  # noqa: E731
    assert first("abstract") == ["We"]
    assert first("all") == ["We", "Prior", "The", "Our"]  # main file first, then the included file
    # the included file's paragraph is under its own heading; the one after the \input under Discussion
    assert first(["method"]) == ["Our"] and first(["DISCUSSION"]) == ["The"]
    assert first(["Introduction", "Method"]) == ["Prior", "Our"]
    with pytest.raises(ValueError, match=r"no editable paragraph under a heading titled 'results' \(its headings: "
                                         r"'discussion', 'introduction', 'method'\)"):
        scope_paragraphs(project, ["Results"])


def test_without_an_abstract_environment_the_abstract_scope_is_the_first_paragraphs_section(tmp_path):
    folder = write_project(tmp_path / "p")
    text = MAIN.replace("\\begin{abstract}\n", "\\section{Summary}\n").replace("\\end{abstract}\n", "")
    (folder / "main.tex").write_text(text, encoding="utf-8")
    assert [p.text.split()[0] for p in scope_paragraphs(load_project(folder), "abstract")] == ["We"]


class TexProposer(Proposer):
    """The scripted proposer, adding an unbalanced brace to its answer for ``broken_seeds`` (prose
    markup with one ``}`` too many: it passes the checker, which refuses a new command by name since
    issue 35, and TeX stops at it)."""

    def __init__(self, broken_seeds: frozenset[int], **kwargs) -> None:
        super().__init__(**kwargs)
        self.broken_seeds = broken_seeds

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        answer = super()._default_answer(messages, config)
        return answer + " \\emph{x}}" if config.seed in self.broken_seeds else answer


def study_spec(base: Path) -> dict:
    return {"name": "attack-tex", "output_dir": str(base / "run"),
            "documents": [{"latex_project": str(base / "paper")}],
            "rewriters": [{"name": "attacker", "kind": "attack", "model": "mock/proposer", "conditions": ["attack:+"],
                           "options": OPTIONS}],
            "reviewers": [{"name": "phrase", "model": "mock/phrase"}], "replicates": 2,
            "validation": {"enabled": True}}


@pytest.fixture(scope="module")
def searched(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("attack-tex")
    write_project(base / "paper")
    spec = study_spec(base)
    found = {"mock/phrase": PhraseReviewer("phrase", effect=1.0),
             "mock/proposer": TexProposer(frozenset({COMPILE_SEED}), bad_seeds=frozenset({ANCHOR_SEED}))}
    runner = StudyRunner(parse_study(spec), base, model_factory=lambda model_id, options: found[model_id],
                         embedder=BagOfWordsEmbedder())
    summary = asyncio.run(runner.run())
    runner.store.close()
    store = Store.open_readonly(runner.run_dir / "store.sqlite")
    try:
        [record] = [json.loads(v) for _, name, v in store.artefact_rows() if name == TRAJECTORY]
        [variant] = store.rows("SELECT unit_key, status, reason, document_json FROM variants")
        reviews = store.rows("SELECT a.condition, s.value FROM assessments a JOIN scores s ON s.unit_key = a.unit_key "
                             "WHERE s.metric = 'overall' AND a.status = 'ok'")
        calls = [tuple(r) for r in store.rows("SELECT unit_key, model FROM model_calls")]
    finally:
        store.close()
    return {"summary": summary, "run_dir": runner.run_dir, "base": base, "record": record, "variant": variant,
            "reviews": reviews, "calls": calls, "paper": base / "paper"}


def _candidates(record: dict) -> dict[int, dict]:
    """Candidates of rounds 1.. by seed ((round - 1) * k + candidate)."""
    k = OPTIONS["candidates"]
    return {(rnd["round"] - 1) * k + c["candidate"]: c for rnd in record["rounds"][1:] for c in rnd["candidates"]}


@needs_tex
def test_the_search_on_a_project_finds_the_direction_and_stores_a_project_variant(searched):
    summary, record, variant = searched["summary"], searched["record"], searched["variant"]
    assert dict(summary.stage_statuses["attack"]) == {"ok": 1}
    key, status, reason, document_json = variant
    assert (status, reason) == ("ok", None)
    assert record["best_in_search_score"] > record["original_score"]
    winner = next(c for c in _candidates(record).values() if c.get("winner"))
    assert winner["valid"] and winner["kept"]
    # the first candidate that beat the original planted the phrase (later ones build on it)
    assert next(c for c in _candidates(record).values() if c["kept"])["move"] == "presentation"
    # the reviewer read the compiled PDF of the winning project: the planted phrase is in its text
    assert PHRASE in Document.model_validate_json(document_json).to_markdown().lower()
    folder = variant_dir(searched["run_dir"], key)
    assert (folder / "variant.pdf").stat().st_size > 0 and not (folder / "candidates").exists()
    baseline, accepted = load_project(searched["paper"]), load_project(folder / "project")
    assert check_anchors(baseline, accepted).ok
    # only the abstract (the scope) changed: the included file and the other paragraphs are untouched
    assert (folder / "project" / "method.tex").read_text() == METHOD
    main = (folder / "project" / "main.tex").read_text()
    head, abstract, tail = MAIN.partition("\n\\end{abstract}")  # the abstract's paragraph grew at its end
    assert main.startswith(head) and main.endswith(abstract + tail)
    added = main[len(head):-len(abstract + tail)]
    assert added.startswith(" ") and "\n" not in added and PHRASE in added.lower()
    diff = (folder / "variant.diff").read_text()
    assert diff.startswith("--- a/main.tex") and "+Our rule improves accuracy" in diff
    result = json.loads((folder / "result.json").read_text())
    assert result["status"] == "ok" and result["attempts"][0]["compiled"] == "ok"
    assert [c["seed"] for c in result["candidates"]] == sorted(_candidates(record))
    # held-out reviews of the winner (replicates 0..1) next to the original's
    assert {c for c, _ in searched["reviews"]} == {"original", "attack:+"}


@needs_tex
def test_a_candidate_that_drops_a_cite_is_discarded_never_reviewed_nor_kept(searched):
    record = searched["record"]
    dropped = _candidates(record)[ANCHOR_SEED]
    assert not dropped["valid"] and dropped["score"] is None and not dropped["kept"] and "winner" not in dropped
    assert dropped["reason"].startswith("rewrite failed: discarded: main.tex:")
    assert "citation: expected 'smith2020', found nothing" in dropped["reason"]
    # reviewed: the original and each valid candidate, r = 2 times each; the dropped one never
    scored = [c for c in _candidates(record).values() if c["valid"]]
    assert all(c["score"] is not None for c in scored) and len(scored) == 4  # 6 proposed, 2 planted failures
    key = searched["variant"][0]
    assert record["queries"] == 2 * (1 + 4)
    # the search's reviews, then 2 re-reviews of the original (the study's replicates: the noise baseline)
    assert len(record["rereview_scores"]) == 2
    assert [m for u, m in searched["calls"] if u == key].count("phrase") == record["queries"] + 2


@needs_tex
def test_a_candidate_that_fails_to_compile_is_discarded_with_the_compile_error(searched):
    broken = _candidates(searched["record"])[COMPILE_SEED]
    assert not broken["valid"] and broken["score"] is None and not broken["kept"]
    assert broken["reason"].startswith("rewrite failed: discarded: compile error: main.tex:")
    assert "Extra }, or forgotten \\endgroup." in broken["reason"]
    result = json.loads((variant_dir(searched["run_dir"], searched["variant"][0]) / "result.json").read_text())
    [entry] = [c for c in result["candidates"] if c["seed"] == COMPILE_SEED]
    # the first attempt and both repairs compiled with the error (the repairs got its message back)
    assert entry["status"] == "discarded" and [a["compiled"] for a in entry["attempts"]] == ["failed"] * 3


@needs_tex
def test_estimate_bounds_the_project_search_calls_from_above(searched, tmp_path):
    base = searched["base"]
    spec = study_spec(base) | {"output_dir": str(tmp_path / "fresh")}
    rows = {(r.stage, r.model): r.calls for r in estimate_study(write_study(tmp_path / "study.yaml", spec)).rows}
    # k*T = 6 proposals of the abstract's one paragraph, each again in at most 2 repairs (the
    # default project.repair_rounds), each of the 18 with a truncation retry; min(k*T*r + r,
    # max_queries) = min(14, 20) search reviews and 2 re-reviews of the original (the study's
    # replicates), each with its repair
    assert rows[("attack", "mock/proposer")] == 6 and rows[("attack repair rounds (at most)", "mock/proposer")] == 12
    assert rows[("attack truncation retries (at most)", "mock/proposer")] == 18
    assert rows[("attack", "mock/phrase")] == 14 + 2 and rows[("attack repairs (at most)", "mock/phrase")] == 14 + 2
    made = [m for u, m in searched["calls"] if u == searched["variant"][0]]
    # made: 4 accepted proposals at their first attempt, the two planted ones with both repairs
    assert made.count("proposer") == 4 + 3 + 3 <= 6 + 12 and made.count("phrase") <= 14 + 2
