"""``rhetorica estimate`` warnings (issue 23.6): a prompt over the model's known context window, and a
model without a price (a mistyped name gets the closest priced names)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from rhetorica.study.estimate import context_window, estimate_study, unpriced_warning


def write(tmp_path: Path, reviewers: list[dict], words: int) -> Path:
    review = " ".join(["weak"] * words)
    (tmp_path / "reviews.jsonl").write_text(json.dumps({"paper_id": "p", "review_id": "r1", "review": review}) + "\n",
                                            encoding="utf-8")
    study = {"name": "w", "output_dir": str(tmp_path / "run"), "documents": [{"reviews": "reviews.jsonl"}],
             "reviewers": reviewers, "validation": {"enabled": False}}
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study), encoding="utf-8")
    return path


def judge(model: str, **options: object) -> dict:
    return {"name": f"j-{len(options)}", "kind": "judge", "model": model, "options": {"family": "remor", **options}}


def test_a_prompt_over_the_embedded_window_is_a_warning(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    # 7,000 words ("weak ": 5 characters, at least one token each) of review alone: over 8,192
    # (default) but under n_ctx 16,384; the call and its repair (which adds the first answer) each warn
    result = estimate_study(write(tmp_path, [judge("embedded/smollm2-135m")], 7000))
    assert len(result.warnings) == 2
    assert result.warnings[0].startswith("1 review call(s) to embedded/smollm2-135m need more than its 8,192-token "
                                         "context window (largest about ")
    assert result.warnings[1].startswith("1 review repairs (at most) call(s) to embedded/smollm2-135m need more")
    small = estimate_study(write(tmp_path, [judge("embedded/smollm2-135m")], 3000))
    assert small.warnings == []  # 3,000 words (15,000 characters: at most 4,688 tokens) + rubric + output: fits
    wider = estimate_study(write(tmp_path, [judge("embedded/smollm2-135m", model_options={"n_ctx": 16384})], 7000))
    assert wider.warnings == []  # the judge's own n_ctx is its window


def test_context_window_and_price_hints() -> None:
    assert context_window("embedded/smollm2-135m") == 8192
    assert context_window("embedded/smollm2-135m", {"n_ctx": 16384}) == 16384
    assert context_window("openai/gpt-4.1-mini") is None
    known = ["openai/gpt-4.1", "openai/gpt-4.1-mini", "anthropic/claude-sonnet-4"]
    assert unpriced_warning("openai/gpt-4.1-mnii", known).startswith(
        "no price for openai/gpt-4.1-mnii: counted as $0; did you mean openai/gpt-4.1-mini or openai/gpt-4.1?")
    assert "the price table knows no openai-compatible model like it" in unpriced_warning(
        "openai-compatible/qwen@http://127.0.0.1:9/v1", known)


def test_a_mistyped_model_is_warned_with_the_closest_names(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("RHETORICA_PRICES", raising=False)
    result = estimate_study(write(tmp_path, [judge("openai/gpt-4.1-mnii")], 50))
    assert result.unpriced_models == ["openai/gpt-4.1-mnii"]
    assert len(result.warnings) == 1 and "did you mean openai/gpt-4.1-mini" in result.warnings[0]
