"""The one reader of review lines (:mod:`rhetorica.documents.reviews.lines`) on hand-written files in
the public layouts (issue 23.5): PeerPrism-like paper lines of rewrites, flattened review lines,
section names in their several spellings, ``full_review_text``, and one problem per bad line."""

from __future__ import annotations

import json
from pathlib import Path

from rhetorica.documents.reviews import read_reviews
from rhetorica.documents.reviews.lines import read_review_records
from rhetorica.documents.reviews.pairs import read_review_pairs

ORIGINAL_A = "Summary Of The Paper:\nSpectral filters on graphs.\n\nStrength And Weaknesses:\nWeak baselines."
REWRITE_A = "Summary of the paper:\nThe paper studies spectral graph filters.\n\nStrengths and weaknesses:\nThe baselines are weak."
PAPER_LINE = {  # paper id 0 (a JSON integer), two reviews: string id and integer id 0
    "venue": "ICLR", "year": 2023, "paper_id": 0, "forum_id": "0Q9H", "title": "Graph filters",
    "reviews": [
        {"review_id": "b9IG", "id": "b9IG", "summary_of_the_paper": "Spectral filters on graphs.",
         "strength_and_weaknesses": "Weak baselines.", "rating": "6: marginally above the acceptance threshold",
         "original_rating": "6: marginally above the acceptance threshold", "full_review_text": ORIGINAL_A,
         "original_text": ORIGINAL_A, "text": REWRITE_A, "rewrite_model": "gpt-5", "transformation": "rewrite"},
        {"review_id": 0, "original_text": "Clear paper. Rating: 5", "text": "The paper is clear. Rating: 8",
         "original_rating": "5: marginally below the acceptance threshold",
         "rating": "8: accept, good paper", "rewrite_model": "gpt-5"},
    ]}
HUMAN_LINE = {  # the human partition: sections under OpenReview's and PeerPrism's spellings
    "paper_id": "p2", "reviews": [
        {"review_id": "h1", "clarity,_quality,_novelty_and_reproducibility": "Clear and novel.",
         "Summary Of The Review": "Accept.", "rating": "8"},
        {"review_id": "h2", "full_review_text": "Summary:\nA dataset.\n\nWeaknesses:\nSmall.", "rating": 3,
         "full_review_text_keys": "['summary', 'weaknesses']"},
        {"review_id": "h3", "main_review": "   "},
    ]}
FLAT_LINE = {"text": "Flat review text.", "paper_metadata": {"paper_id": "p3", "forum_id": "F3"},
             "review_metadata": {"id": "x9", "review_id": "x9", "review_idx": 0}, "text_origin": "human"}


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_every_layout_and_each_bad_line_named(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.jsonl", [
        json.dumps(PAPER_LINE).encode(),                      # line 1
        json.dumps(HUMAN_LINE).encode(),                      # line 2: h3 is blank text
        json.dumps(FLAT_LINE).encode(),                       # line 3
        json.dumps(FLAT_LINE).encode(),                       # line 4: exact duplicate of line 3
        b'{"paper_id": "p4", "review_id": "z", "review": "Schw\xe4che"}',  # line 5: Latin-1 byte
        json.dumps({"paper_id": "p4", "review_id": "y", "score": 3}).encode(),  # line 6: no text
        json.dumps({"paper_id": "p4", "review_id": "x9", "review": "Another text."}).encode(),  # 7: id reused
    ])
    records, problems = read_review_records(path)
    assert [(r.paper_id, r.review_id, r.line) for r in records] == [
        ("0", "b9IG", 1), ("0", "0", 1), ("p2", "h1", 2), ("p2", "h2", 2), ("p3", "x9", 3)]
    first, second, h1, h2, flat = records
    assert first.fields == {"review": ORIGINAL_A} and first.rewrite == REWRITE_A and first.rewriter == "gpt-5"
    assert (second.rating, second.rewrite_rating) == ("5: marginally below the acceptance threshold",
                                                      "8: accept, good paper")
    assert h1.fields == {"clarity_quality_novelty_and_reproducibility": "Clear and novel.",
                         "summary_of_the_review": "Accept."} and h1.rewrite is None
    assert h2.fields == {"review": "Summary:\nA dataset.\n\nWeaknesses:\nSmall."}
    assert flat.fields == {"review": "Flat review text."}
    assert problems == [
        f"{path}:2 review 3: empty review text",
        f"{path}:4: duplicate of line 3; left out",
        f"{path}:5: not UTF-8 (byte 53 of the line: invalid continuation byte); line left out",
        f"{path}:6: no review text (expected original_text, a review section such as summary or main_review, "
        "or one of full_review_text, text, review, comments, content)",
        f"{path}:7: review id 'x9' was given at line 3 with a different text; left out",
    ]


def test_rewrite_file_as_pairs_keeps_ids_and_ratings(tmp_path: Path) -> None:
    path = write(tmp_path / "ICLR2023_openai_gpt-5.jsonl", [json.dumps(PAPER_LINE).encode()])
    imported = read_review_pairs(path)
    assert [(d.id, d.paper_id, d.human_scores) for d in imported.originals] == [
        ("b9IG", "0", [6.0]), ("0", "0", [5.0])]
    assert [(v.id, v.metadata["original_id"], v.metadata["rewriter"], v.metadata["rating"])
            for v in imported.variants] == [("b9IG.rewrite1", "b9IG", "gpt-5", 6.0), ("0.rewrite1", "0", "gpt-5", 8.0)]
    assert imported.variants[1].sections[0].text == "The paper is clear. Rating: 8" and imported.problems == []


def test_reviews_of_a_rewrite_file_are_its_human_originals_with_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path / "rewritten.jsonl", [json.dumps(PAPER_LINE).encode()])
    reviews, problems = read_reviews([path], "fallback")
    assert [(r.id, r.paper_id) for r in reviews] == [("b9IG", "0"), ("0", "0")]
    assert [s.text for s in reviews[1].sections] == ["Clear paper. Rating: 5"]
    assert problems == [f"warning: {path}: 2 of 2 review(s) are rewrites (original_text/text or original/rewrite): only the "
                        "human originals are read as reviews; to judge the rewrites, name the file in a 'pairs' entry"]


def test_an_empty_rewrite_loses_the_pair_but_not_the_human_review(tmp_path: Path) -> None:
    line = {"paper_id": "p", "reviews": [{"review_id": "e", "original_text": "Sound method.", "text": ""},
                                         {"review_id": "f", "original_text": "Small data.", "text": "The data is small."}]}
    path = write(tmp_path / "rw.jsonl", [json.dumps(line).encode()])
    imported = read_review_pairs(path)
    assert [d.id for d in imported.originals] == ["f"] and imported.problems == [f"{path}:1 review 1: empty rewrite"]
    reviews, _ = read_reviews([path], "x")
    assert [(r.id, r.sections[0].text) for r in reviews] == [("e", "Sound method."), ("f", "Small data.")]


def test_one_paper_id_given_to_two_papers_leaves_the_later_lines_out(tmp_path: Path) -> None:
    # PeerPrism's flattened files number each venue's papers 0-19: paper_id 0 names one paper per venue
    def flat(review_id: str, forum: str, title: str) -> bytes:
        return json.dumps({"text": f"Review {review_id}.", "review_metadata": {"review_id": review_id},
                           "paper_metadata": {"paper_id": 0, "forum_id": forum, "title": title}}).encode()

    path = write(tmp_path / "flat.jsonl", [
        flat("a", "F1", "Graph filters"),                     # line 1: paper 0 is F1
        flat("b", "F2", "Music data"),                        # line 2: paper 0 again, another forum
        flat("c", "F1", "Graph filters"),                     # line 3: the same paper
        json.dumps({"paper_id": 0, "review_id": "d", "title": "Official review", "review": "Fine."}).encode(),
        json.dumps({"paper_id": 0, "title": "Music data", "reviews": [{"review_id": "e", "review": "Ok."}]}).encode(),
    ])
    records, problems = read_review_records(path)
    assert [(r.paper_id, r.review_id) for r in records] == [("0", "a"), ("0", "c"), ("0", "d")]
    # line 4 tells its paper only by a top-level title (perhaps the review's own): read, never silently
    assert [r.identity for r in records] == [{"forum_id": "F1", "title": "Graph filters"}] * 2 + [{}]
    assert [r.title_claim for r in records] == [None, None, "Official review"]
    assert problems == [
        f"{path}:2: paper id '0' was given at line 1 to another paper (forum_id 'F1' there, 'F2' here); left out "
        "(give each paper its own paper_id)",
        f"warning: {path}:4: paper id '0' comes with only a top-level title 'Official review', not the title "
        "'Graph filters' it was given at line 1: read as the review's own title and joined to that paper; if it "
        "is another paper, give it its own paper_id (or a forum_id, or paper_metadata.title)",
        f"{path}:5: paper id '0' was given at line 1 to another paper (title 'Graph filters' there, 'Music data' "
        "here); left out (give each paper its own paper_id)",
    ]


def test_iclr_2022_recommendation_is_the_rating_and_neurips_2021_limitations_a_section(tmp_path: Path) -> None:
    path = write(tmp_path / "forms.jsonl", [
        json.dumps({"paper_id": "p1", "reviews": [  # ICLR 2022's form: the overall score is 'recommendation'
            {"review_id": "a", "summary_of_the_paper": "Proxy models.", "main_review": "Weak baselines.",
             "recommendation": "6: marginally above the acceptance threshold.", "confidence": "3: fairly"},
            {"review_id": "b", "main_review": "Sound.", "recommendation": "Accept"},  # categorical: no rating
            {"review_id": "c", "main_review": "Odd.", "rating": "4: reject", "recommendation": "8: accept"}]}).encode(),
        json.dumps({"paper_id": "p2", "reviews": [  # NeurIPS 2021's form
            {"review_id": "d", "summary": "A dataset.", "main_review": "Small.",
             "limitations_and_societal_impact": "Not discussed.", "rating": "5: Marginally below"}]}).encode(),
    ])
    reviews, problems = read_reviews([path], "x")
    assert problems == []
    assert [(r.id, r.human_scores, r.metadata["confidence"]) for r in reviews] == [
        ("a", [6.0], 3.0), ("b", [], None), ("c", [4.0], None), ("d", [5.0], None)]
    assert [s.title for s in reviews[3].sections] == ["Summary", "Main review", "Limitations and societal impact"]
    assert reviews[3].sections[2].text == "Not discussed."
