"""The viewer's attack pages (issue 27 §1) over HTTP on the loopback server, on a hand-written search
store (:mod:`tests.report.attack_runs`)."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from ..attack_runs import HOSTILE, make_attack_run, variant_key
from ..runs import make_run
from .conftest import serve


@pytest.fixture(scope="module")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(make_attack_run(tmp_path_factory.mktemp("attack-viewer") / "run")) as url:
        yield url


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def _cells(html: str, table_id: str) -> list[list[str]]:
    body = html[html.index(f'id="{table_id}"'):]
    body = body[body.index("<tbody>"):body.index("</tbody>")]
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_the_overview_links_the_attack_page(viewer: str) -> None:
    status, html = _get(viewer)
    assert status == 200 and '<a href="/attacks" id="attacks-link">' in html


def test_the_overview_of_a_study_without_attacks_has_no_link(tmp_path: Path) -> None:
    with serve(make_run(tmp_path / "run", [("r", "p1", "original", 5)])) as url:
        status, html = _get(url)
    assert status == 200 and "attacks-link" not in html


def test_the_list_shows_each_search_with_held_out_and_in_search_numbers(viewer: str) -> None:
    status, html = _get(viewer + "attacks")
    assert status == 200
    # paper, target, direction, rounds, queries, cost, held-out original, winner, shift, in-search original, best,
    # shift (tests/report/attack_runs.py)
    assert _cells(html, "attacks") == [
        ["p1", "rev-a", "+", "2", "10", "0.25", "4.00", "6.00", "2.00", "4.50", "7.00", "2.50"],
        ["p2", "rev-a", "+", "2", "12", "0.35", "5.00", "5.50", "0.50", "5.00", "6.50", "1.50"]]
    assert f'href="/attack?variant={variant_key("p1")}"' in html
    assert "every reported shift, interval, flip rate and test uses held-out reviews" in html


def test_a_search_page_shows_every_candidate_and_escapes_its_reason(viewer: str) -> None:
    status, html = _get(viewer + f"attack?variant={variant_key('p1')}")
    assert status == 200
    assert _cells(html, "trajectory-table") == [
        ["0", "0", "4.50", "4.50, 4.50", "yes", "", "yes"],
        ["1", "0", "5.50", "5.50, 5.50", "yes", "", "yes"],
        ["1", "1", "–", "", "no", HOSTILE, "no"],
        ["2", "0", "7.00", "7.00, 7.00", "yes", "", "yes"],
        ["2", "1", "6.00", "6.00, 6.00", "yes", "", "no"]]
    assert HOSTILE not in html and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html
    assert "In-search overall: original 4.50, best 7.00; 10 review call(s)" in html


def test_a_search_page_diffs_the_winner_against_the_original(viewer: str) -> None:
    _, html = _get(viewer + f"attack?variant={variant_key('p1')}")
    diff = html[html.index('<section id="diff">'):]
    assert re.findall(r"<ins>(.*?)</ins>", diff) == ["principled ", " clearly"]
    assert "<del>" not in diff and "0 word(s) deleted, 2 inserted." in diff
    link = re.search(r'<a href="([^"]+)" id="paper-link">', html).group(1)
    status, paper = _get(viewer + unescape(link).lstrip("/"))
    assert status == 200 and '<h1 id="paper-title">Paper p1</h1>' in paper


@pytest.mark.parametrize(("query", "status", "message"), [
    ("", 400, "the attack page needs ?variant=WINNING_VARIANT_KEY"),
    ("?variant=%3Cb%3Enope", 404, "no attack search in this store has the winning variant &#39;&lt;b&gt;nope&#39;"),
])
def test_a_bad_search_request_names_the_problem(viewer: str, query: str, status: int, message: str) -> None:
    got, html = _get(viewer + "attack" + query)
    assert got == status and message in html


def test_the_tables_page_computes_the_attack_table_with_the_trajectories(viewer: str) -> None:
    status, html = _get(viewer + "tables")
    section = html[html.index('<section id="table-attacks">'):].split("</section>")[0]
    rows = [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", section, re.S)[1:]]
    # in-search shift: mean of (7 - 4.5) and (6.5 - 5) from the stored trajectories; queries (10 + 12) / 2
    assert status == 200 and rows[0][-3:] == ["2.00", "11.00", "0.30"]


def test_a_search_without_a_valid_candidate_shows_its_trajectory_and_why_there_is_no_diff(tmp_path: Path) -> None:
    from rhetorica.store.db import Store

    from ..attack_runs import TRAJECTORIES

    run = make_attack_run(tmp_path / "run")
    store = Store.in_dir(run)
    try:  # p2's search as h-attack stores one that found no valid candidate
        row = dict(store.rows("SELECT * FROM variants WHERE unit_key = ?", (variant_key("p2"),))[0])
        row.pop("created_at")
        store.save_variant({**row, "status": "discarded", "reason": "no candidate passed the integrity checks",
                            "document_json": None, "content_hash": None},
                           {"attack_trajectory": {**TRAJECTORIES["p2"], "best_in_search_score": None,
                                                  "stopped": "no-valid"}})
    finally:
        store.close()
    with serve(run) as url:
        status, html = _get(url + f"attack?variant={variant_key('p2')}")
        _, listing = _get(url + "attacks")
    assert status == 200
    assert "The winning variant has no text (discarded: no candidate passed the integrity checks)." in html
    assert "original 5.00, best –; 12 review call(s)" in html
    assert _cells(listing, "attacks")[1][-3:] == ["5.00", "–", "–"]  # in-search original, best, shift
