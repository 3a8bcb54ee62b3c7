"""``rhetorica dataset openreview`` against a recorded venue on loopback (no network)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.datasets.manifest import load_manifest
from rhetorica.datasets.openreview_build import build_openreview
from rhetorica.documents.reviews.model import load_reviews
from tests.datasets.conftest import DESK_REJECTED, EXPECTED_PER_BIN, WITHDRAWN
from tests.datasets.recorded_api import VENUE


def test_sample_counts_exclusions_and_reviews(recorded, tmp_path: Path) -> None:
    api, base = recorded
    api.pdf_429["P18"] = 2  # two 429s with Retry-After: 1, then the PDF
    root = tmp_path / "ds"
    build = build_openreview(VENUE, root, baseurl=base, per_bin=3, seed=1, max_wait_s=2)
    assert dict(build.per_bin) == EXPECTED_PER_BIN
    assert build.excluded == {"withdrawn": 3, "desk_rejected": 2}
    assert build.invitations == {"submissions": f"{VENUE}/-/Submission",
                                 "withdrawn": f"{VENUE}/-/Withdrawn_Submission",
                                 "desk_rejected": f"{VENUE}/-/Desk_Rejected_Submission"}
    manifest = load_manifest(root)
    ids = {p.id for p in manifest.papers}
    assert len(ids) == 16
    assert not ids & (set(WITHDRAWN) | set(DESK_REJECTED) | {"P20", "P21", "P22"})
    assert {"P08", "P09", "P18", "P19"} <= ids  # bins with at most 3 papers give all of them
    top = manifest.paper("P18")
    assert top.human_scores == [10.0, 7.0] and top.mean_rating == 8.5 and top.bin == "[7,8.5]"
    assert top.decision == "Reject" and top.licence == "CC BY 4.0" and top.pdf == "papers/P18/paper.pdf"
    assert api.hits["pdf"] == 16 + 2  # one per sampled paper, plus the two answered 429
    reviews = load_reviews(root / "papers" / "P18" / "reviews.json")
    assert [r.human_scores for r in reviews] == [[10.0], [7.0]]
    assert [r.metadata["confidence"] for r in reviews] == [3.0, 3.0]
    assert reviews[0].kind == "review" and reviews[0].title == "Review 1"
    assert [s.title for s in reviews[0].sections] == ["Summary", "Strengths", "Weaknesses", "Questions"]
    assert "Reviewer_Ab1x" not in (root / "papers" / "P18" / "reviews.json").read_text()
    assert any("P22" in p and "excellent paper" in p for p in build.problems)
    assert any(p.startswith("P21: no review") for p in build.problems)


def test_same_seed_same_sample_other_seed_differs(recorded, tmp_path: Path) -> None:
    _, base = recorded
    a = build_openreview(VENUE, tmp_path / "a", baseurl=base, per_bin=3, seed=1, download=False)
    b = build_openreview(VENUE, tmp_path / "b", baseurl=base, per_bin=3, seed=1, download=False)
    c = [build_openreview(VENUE, tmp_path / f"c{s}", baseurl=base, per_bin=3, seed=s, download=False)
         for s in (2, 3, 4)]
    sample = lambda r: {p.id for p in load_manifest(r.root).papers}  # noqa: E731
    assert sample(a) == sample(b)
    assert any(sample(x) != sample(a) for x in c)
    assert all(dict(x.per_bin) == EXPECTED_PER_BIN for x in c)


def test_rate_limited_pdfs_resume_and_second_run_makes_no_request(recorded, tmp_path: Path) -> None:
    api, base = recorded
    root = tmp_path / "ds"
    api.pdf_429["P09"] = -1  # keeps answering 429
    runner = CliRunner()
    args = ["dataset", "openreview", VENUE, "--out", str(root), "--baseurl", base, "--per-bin", "3", "--seed", "1"]
    first = runner.invoke(app, args)
    assert first.exit_code == 1, first.output
    assert "rate limit" in first.output and "pending" in first.output
    pending = [p.id for p in load_manifest(root).papers if p.pdf is None]
    assert "P09" in pending
    api.pdf_429["P09"] = 0
    notes_queries = api.hits["notes"]
    before = sum(api.hits.values())
    second = runner.invoke(app, args)
    assert second.exit_code == 1, second.output  # P22's unparseable rating stays a listed problem
    assert "rate limit" not in second.output
    assert api.hits["notes"] == notes_queries  # the note queries were cached by the first run
    assert sum(api.hits.values()) - before == len(pending)  # only what was missing
    assert all(p.pdf for p in load_manifest(root).papers)
    before = sum(api.hits.values())
    runner.invoke(app, args)
    assert sum(api.hits.values()) == before


def test_wrong_invitation_is_an_error_naming_it(recorded, tmp_path: Path) -> None:
    _, base = recorded
    result = CliRunner().invoke(app, ["dataset", "openreview", "NOPE.cc/2026/Conference", "--out",
                                      str(tmp_path / "x"), "--baseurl", base])
    assert result.exit_code == 2
    assert "NOPE.cc/2026/Conference/-/Submission" in result.output and "returned no submission" in result.output


def test_api_v1_venue(tmp_path: Path) -> None:
    """Older venues (API v1): plain content values, one ``invitation`` per note, ``directReplies``."""
    from tests.datasets.recorded_api import RecordedApi, serve

    venue = "OLD.cc/2020/Conference"
    api = RecordedApi()
    reply = lambda pid, i, rating: {"id": f"{pid}-r{i}", "forum": pid,  # noqa: E731
                                    "invitation": f"{venue}/Paper1/-/Official_Review",
                                    "content": {"rating": rating, "confidence": "4: I am confident",
                                                "review": "A review."}}
    api.notes[f"{venue}/-/Blind_Submission"] = [
        {"id": "A", "forum": "A", "number": 1, "invitation": f"{venue}/-/Blind_Submission",
         "content": {"title": "Old paper"}, "details": {"directReplies": [
             reply("A", 1, "6: Weak Accept"), reply("A", 2, "8: Accept"),
             {"id": "A-d", "forum": "A", "invitation": f"{venue}/Paper1/-/Decision",
              "content": {"decision": "Accept (Poster)"}}]}},
        {"id": "B", "forum": "B", "number": 2, "invitation": f"{venue}/-/Blind_Submission",
         "content": {"title": "Withdrawn one"}, "details": {"directReplies": [reply("B", 1, "3: Reject")]}},
    ]
    api.notes[f"{venue}/-/Withdrawn_Submission"] = [{"id": "Bw", "forum": "B", "invitation": f"{venue}/-/Withdrawn_Submission",
                                                     "content": {"title": "Withdrawn one"}}]
    with serve(api) as base:
        build = build_openreview(venue, tmp_path / "old", api="v1", baseurl=base, per_bin=None, download=False)
    manifest = load_manifest(tmp_path / "old")
    assert [p.id for p in manifest.papers] == ["A"]
    assert manifest.paper("A").human_scores == [6.0, 8.0] and manifest.paper("A").decision == "Accept (Poster)"
    assert build.excluded == {"withdrawn": 1}
    assert build.invitations["submissions"] == f"{venue}/-/Blind_Submission"


def test_login_from_environment_and_no_credential_written(recorded, tmp_path: Path, monkeypatch) -> None:
    api, base = recorded
    monkeypatch.setenv("OPENREVIEW_USERNAME", "someone@example.org")
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "pw-SECRET-456")
    root = tmp_path / "ds"
    result = CliRunner().invoke(app, ["dataset", "openreview", VENUE, "--out", str(root), "--baseurl", base,
                                      "--per-bin", "1"])
    assert result.exit_code == 1, result.output
    assert api.logins and api.logins[0]["password"] == "pw-SECRET-456"
    assert "Bearer tok-SECRET-123" in api.auth  # the session token was used ...
    for path in root.rglob("*"):  # ... and never written, nor the password, nor shown
        if path.is_file() and path.suffix in (".json", ".yaml"):
            text = path.read_text()
            assert "SECRET" not in text and "someone@example.org" not in text, path
    assert "SECRET" not in result.output


def test_openreview_ratings_outside_the_scale_are_problems() -> None:
    from rhetorica.datasets.openreview_source import parse_submission
    from tests.datasets.recorded_api import submission

    note = submission("Q1", 1, "T", ["12: beyond", "6: marginally above the acceptance threshold"])
    note["replies"] = note.pop("details")["replies"]  # type: ignore[attr-defined]
    note["replies"][0]["content"]["confidence"] = {"value": 7}  # type: ignore[index]
    sub = parse_submission(note)  # type: ignore[arg-type]
    assert sub.ratings == [6.0] and [r.confidence for r in sub.reviews] == [None, 3.0]
    assert sub.problems == ["Q1 review Q1-r1: rating: 12 is outside the scale 1-10 (left missing)",
                            "Q1 review Q1-r1: confidence: 7 is outside the scale 1-5 (left missing)"]
