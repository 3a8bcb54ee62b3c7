"""``rhetorica estimate`` for the six-dimension study's project rewriters, counted by hand on a
five-paragraph project (issue 14)."""

from __future__ import annotations

from pathlib import Path

import yaml

from rhetorica.study.estimate import estimate_study

WORDS = "the model reads every sentence of this short paragraph and keeps the wording plain so that counting stays easy"
assert len(WORDS.split()) == 19  # each paragraph: these and its number, 20 words: round(20 x 1.35) = 27 tokens
TOKENS = 27
CAP = 2 * TOKENS + 32  # a paragraph rewrite's output cap (rhetorica.rewriting.llm.OUTPUT_TOKEN_FACTOR = 2)


def _project(root: Path) -> Path:
    root.mkdir()
    paragraphs = "\n\n".join(f"{WORDS} {n}." for n in ("one", "two", "three"))
    # three paragraphs in the main file, two in the included one
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n"
                                   f"{paragraphs}\n\n\\input{{intro}}\n\\end{{document}}\n")
    (root / "intro.tex").write_text(f"{WORDS} four.\n\n{WORDS} five.\n")
    return root


def test_project_rewrites_repairs_guided_reviews_and_reviews_are_counted(tmp_path, monkeypatch):
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    project = _project(tmp_path / "paper")
    study = {
        "name": "project-estimate", "output_dir": str(tmp_path / "run"),
        "documents": [{"latex_project": str(project)}],
        "rewriters": [
            {"name": "para", "kind": "latex-project", "model": "mock/para",
             "conditions": ["novelty:+", "joint", "recursive:2", "guided"],
             "project": {"max_paragraphs_per_file": 2, "repair_rounds": 2, "review_max_tokens": 300}},
            {"name": "agent", "kind": "agent", "model": "mock/agent", "conditions": ["joint", "guided"],
             "project": {"command": ["true"]}},
        ],
        "reviewers": [{"name": "r", "model": "mock/reviewer", "sampling": {"max_tokens": 400}}],
        "replicates": 1, "validation": {"enabled": False},
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study))
    result = estimate_study(path)
    rows = {(r.stage, r.model): (r.calls, r.output_tokens) for r in result.rows}
    # 2 paragraphs of main.tex (of 3) + 2 of intro.tex = 4 per pass; each call's output at the cap it
    # is sent with (2 x 27 + 32 = 86 tokens), and each call (repair rounds too) may get a truncation retry
    assert rows[("rewrite", "mock/para")] == (2 * 4, 2 * 4 * CAP)  # novelty:+ and joint: one pass each
    assert rows[("rewrite repair rounds (at most)", "mock/para")] == (2 * 2 * 4, 2 * 2 * 4 * CAP)  # 2 rounds each
    assert rows[("rewrite truncation retries (at most)", "mock/para")] == (3 * 2 * 4, 3 * 2 * 4 * CAP)
    # recursive:2: a pass on joint's output
    assert rows[("rewrite-2", "mock/para")] == (4, 4 * CAP)
    assert rows[("rewrite-2 repair rounds (at most)", "mock/para")] == (2 * 4, 2 * 4 * CAP)
    assert rows[("rewrite-2 truncation retries (at most)", "mock/para")] == (3 * 4, 3 * 4 * CAP)
    # guided: the review of joint, a unit of its own (at its 300-token cap) and its repair, then a pass shown it
    assert rows[("guided-review", "mock/para")] == rows[("guided-review repairs (at most)", "mock/para")] == (1, 300)
    assert rows[("guided-rewrite", "mock/para")] == (4, 4 * CAP)
    assert rows[("guided-rewrite repair rounds (at most)", "mock/para")] == (2 * 4, 2 * 4 * CAP)
    assert rows[("guided-rewrite truncation retries (at most)", "mock/para")] == (3 * 4, 3 * 4 * CAP)
    # the agent edits the folder itself: only its guided review (and its repair) are calls, at the
    # default 700-token cap
    assert rows[("guided-review", "mock/agent")] == rows[("guided-review repairs (at most)", "mock/agent")] == (1, 700)
    assert not any(model == "mock/agent" and not stage.startswith("guided-review") for stage, model in rows)
    # the original and 4 + 2 variants, one reviewer, one replicate, each review may be repaired once
    assert rows[("review", "mock/reviewer")] == rows[("review repairs (at most)", "mock/reviewer")] == (7, 7 * 400)
    assert len(rows) == 15
    # units: 3 rewrites (novelty:+, joint x 2), recursive:2, 2 guided reviews, 2 guided rewrites, 7 reviews
    assert (result.units_pending, result.units_done) == (3 + 1 + 2 + 2 + 7, 0)
    assert result.problems == []
    assert not (tmp_path / "run").exists()  # the baseline was compiled in a temporary folder
