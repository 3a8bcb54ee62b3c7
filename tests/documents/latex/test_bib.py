"""parse_bib: field values with braces and whitespace (hand-computed)."""

from __future__ import annotations

from rhetorica.documents.latex.bib import parse_bib


def test_field_value_whitespace_runs_become_one_space_and_braces_go() -> None:
    bib = "@article{k1,\n  title = {A {GNN}\n   \tfor  {G}raphs},\n  year = 2017,\n  note = {a {} b}\n}\n"
    entry = parse_bib(bib)["k1"]
    assert entry["title"] == "A GNN for Graphs"
    assert entry["year"] == "2017"
    # runs on either side of a brace are separate runs: each becomes a space of its own
    assert entry["note"] == "a  b"


def test_string_and_comment_entries_are_skipped() -> None:
    assert parse_bib("@string{x = {y}}\n@comment{k, z}\n@misc{k2, title = \"Q\"}") == {"k2": {"title": "Q"}}


def test_without_fields_the_same_entries_are_found_and_their_values_not_read() -> None:
    bib = ("@string{x = {y}}\n@article{k1, title = {A {GNN}}, year = 2017}\n@misc{k2, title = \"Q\"}\n"
           "@inproceedings{k4,author={B}}\n@book{k3, title = {never closed\n")
    assert list(parse_bib(bib)) == ["k1", "k2", "k4", "k3"]  # k3's unclosed group reads to the end
    assert parse_bib(bib, fields=False) == {"k1": {}, "k2": {}, "k4": {}, "k3": {}}
