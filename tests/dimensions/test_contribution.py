"""The contribution dimension: signposts and enumerated items, the real contributions paragraph."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from rhetorica.dimensions import contribution as c
from tests.dimensions.paragraphs import paragraph, shift_measure

measure = partial(shift_measure, "contribution")


def test_contribution_signposts_and_enumerated_items() -> None:
    text = ("In this paper, we propose a model. Our contributions are: (i) a loss; (ii) a proof with $f(x)$.\n\n"
            "First, the data are described.")
    # 22 words; signposts "in this paper we", "our contributions"; items (i), (ii); (x) is math;
    # "First" sits in a paragraph without a signpost
    assert c.contribution_counts(text) == (2, 2)
    assert c.contribution_signposting(text) == pytest.approx(1000 * 4 / 22)
    listed = ("Our main contributions are as follows.\n\n"
              "\\begin{itemize}\n\\item A loss.\n\\item A proof.\n\\end{itemize}\n\nWe then test it.")
    assert c.contribution_counts(listed) == (1, 2)


def test_contribution_rewrites_on_the_real_contributions_paragraph(shared_data: Path) -> None:
    text = paragraph(shared_data / "papers" / "cheblienet_neurips2021" / "neurips_2021.tex",
                      "Before going further into the details")
    items = text.split("\\item ")[1:]
    # signposts "we summarize", "our main contributions", "we introduce" (first item); 5 \item
    assert c.contribution_counts(text) == (3, 5)
    plus = text.replace("\\item We introduce", "\\item First, we introduce").replace(
        "\\item We show the flexibility", "\\item Finally, we show the flexibility")
    assert c.contribution_counts(plus) == (3, 7)
    assert measure(plus) > measure(text)
    prose = " ".join(item.replace("\\end{itemize}", "").strip() for item in items)
    minus = ("Before going further into the details, we outline the approach. "
             + prose.replace("We introduce ChebLieNet, an", "ChebLieNet is an"))
    assert c.contribution_counts(minus) == (0, 0)
    assert measure(minus) < measure(text)
