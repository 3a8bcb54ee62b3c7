"""Limits of large operators (:mod:`rhetorica.documents.pdf.limits`) on hand-placed fragments
(points; the geometry of pdflatex's ``\\sum_{i=1}^{N}`` in 10 pt type: the operator's fragment
13.9 pt tall, its 7 pt limits 3 pt above and below it)."""

from __future__ import annotations

from rhetorica.documents.pdf.limits import attach_limits
from rhetorica.documents.pdf.lines import Line


def _frag(x0: float, x1: float, top: float, bottom: float, text: str, size: float = 10.0) -> Line:
    return Line(page=0, x0=x0, top=top, x1=x1, bottom=bottom, text=text, size=size)


def test_limits_above_and_below_the_operator_become_its_scripts() -> None:
    formula = _frag(227.3, 273.5, 379.8, 393.7, "L(θ) = X")  # the operator is its last glyph
    product = _frag(358.6, 370.3, 379.8, 393.7, "Y")  # an operator alone
    rest = _frag(276.1, 355.5, 381.7, 391.7, "log p + λ")
    limits = [_frag(263.8, 270.0, 372.0, 376.8, "N", 7.0), _frag(260.7, 272.7, 396.3, 401.0, "i=1", 7.0),
              _frag(360.8, 368.2, 372.0, 376.8, "M", 7.0), _frag(357.6, 370.7, 396.3, 402.4, "j=1", 7.0)]
    out = attach_limits([formula, product, rest, *limits])
    assert [ln.text for ln in out] == ["L(θ) = X_{i=1}^{N}", "Y_{j=1}^{M}", "log p + λ"]


def test_an_operator_that_opens_its_fragment_takes_its_limits_after_its_first_glyph() -> None:
    formula = _frag(200.0, 260.0, 379.8, 393.7, "X a_k")
    lower = _frag(201.0, 212.0, 396.3, 401.0, "k=1", 7.0)
    assert [ln.text for ln in attach_limits([formula, lower])] == ["X_{k=1} a_k"]


def test_small_text_under_a_line_of_ordinary_height_is_no_limit() -> None:
    # a table's header cell (9.1 pt tall at 10 pt) over a 7 pt cell ending where it ends, and a
    # caption's short second line under the end of a body line: neither line holds a large glyph
    header = _frag(300.0, 330.0, 500.0, 509.1, "Score")
    cell = _frag(318.0, 330.0, 511.0, 516.0, "0.41", 7.0)
    body = _frag(72.0, 300.0, 600.0, 609.1, "a line of the running text ends here")
    note = _frag(290.0, 299.0, 611.0, 616.0, "x", 7.0)
    assert attach_limits([header, cell, body, note]) == [header, cell, body, note]


def test_text_far_above_or_wide_is_no_limit() -> None:
    formula = _frag(227.3, 273.5, 379.8, 393.7, "L(θ) = X")
    far = _frag(263.8, 270.0, 360.0, 364.8, "N", 7.0)  # 15 pt above: beyond 0.6 of 10 pt
    wide = _frag(200.0, 300.0, 396.3, 401.0, "a whole line of small text", 7.0)
    assert [ln.text for ln in attach_limits([formula, far, wide])] == ["L(θ) = X", "N", "a whole line of small text"]
