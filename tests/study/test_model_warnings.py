"""Warnings at load about provider options that override what rhetorica negotiates or sets."""

from __future__ import annotations

from rhetorica.study.config import parse_study
from rhetorica.study.model_warnings import option_warnings


def test_extra_body_response_format_is_warned_about_once_per_configuration():
    config = parse_study({
        "name": "w", "documents": ["x.md"],
        "models": {"served": {"provider": "openai-compatible", "model": "m",
                              "options": {"extra_body": {"response_format": {"type": "json_object"}}},
                              "endpoints": [{"base_url": "http://127.0.0.1:9/v1"}]}},
        "reviewers": [
            {"name": "inline", "model": "openai-compatible/m@http://127.0.0.1:9/v1",
             "options": {"extra_body": {"response_format": {"type": "json_object"}, "top_k": 5}}},
            {"name": "declared", "model": "served"},
            {"name": "plain", "model": "openai-compatible/m@http://127.0.0.1:9/v1", "protocol": "brief"},
            {"name": "control", "kind": "control"},
        ]})
    found = option_warnings(config)
    assert [(stage, item) for stage, item, _ in found] == [("study", "reviewer inline"), ("study", "reviewer declared")]
    assert all(reason.startswith("warning: options.extra_body.response_format overrides") for _, _, reason in found)
