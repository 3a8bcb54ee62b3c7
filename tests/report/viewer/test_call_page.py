"""The call page shows which token counts the provider did not report usably
(``model_calls.usage_unreported``), as names, ``none`` when every count was usable, escaped."""

from __future__ import annotations

import itertools
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

from rhetorica.store.db import Store

from ..runs import make_run
from .conftest import serve

COUNTS = ("input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens")
HOSTILE = '<b>x</b>&"\''


class _Cell(HTMLParser):
    """The text of the ``<td class="usage_unreported">`` cell (entities decoded)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.text: list[str] = []
        self.cells = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "td" and ("class", "usage_unreported") in attrs:
            self.inside, self.cells = True, self.cells + 1
        elif self.inside:  # markup inside the cell: the value was not escaped
            self.text.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text.append(data)


def test_the_call_page_names_every_unreported_count_escaped(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("rev-a", "p1", "original", 5)])
    # every subset of the four counts, in the model layer's order, and a hostile value
    values = [",".join(subset) for r in range(len(COUNTS) + 1) for subset in itertools.combinations(COUNTS, r)]
    values.append(f"input_tokens,{HOSTILE}")
    assert len(values) == 17
    store = Store.in_dir(run)
    first = int(store.rows("SELECT COALESCE(MAX(call_id), 0) AS n FROM model_calls")[0]["n"]) + 1
    for n, value in enumerate(values):
        store.record_call({"unit_key": f"u{n}", "cache_key": f"k{n}", "provider": "p", "model": "m",
                           "status": "ok", "params_json": "{}", "usage_unreported": value})
    store.close()
    with serve(run) as base:
        for n, value in enumerate(values):
            with urllib.request.urlopen(f"{base}call?id={first + n}") as response:  # noqa: S310 - loopback viewer
                body = response.read().decode("utf-8")
            cell = _Cell()
            cell.feed(body)
            expected = ", ".join(value.split(",")) if value else "none"
            assert (cell.cells, "".join(cell.text)) == (1, expected), value
    assert "<b>x</b>" not in body and "&lt;b&gt;x&lt;/b&gt;&amp;&#34;&#39;" in body
