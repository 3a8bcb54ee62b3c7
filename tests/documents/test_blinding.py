"""find_urls on texts with and without a URL, including letters that re.IGNORECASE folds to ASCII."""

from __future__ import annotations

import pytest

from rhetorica.documents.blinding import find_urls


@pytest.mark.parametrize(("text", "spans"), [
    ("plain text only, no address at all.", []),
    ("HTTPS://Example.org/x.", [(0, 21)]),  # any case; the sentence's full stop left out
    ("docs at WWW.EXAMPLE.COM/A", [(8, 25)]),
    ("see ſ www.example.org", [(6, 21)]),  # a long s elsewhere in the text
    # the regex matches case-insensitively: dotless i and the Kelvin sign count as i and k
    ("code at g\u0131thub.com/a/b now", [(8, 22)]),
    ("at bitbuc\u212aet.org/a/b", [(3, 20)]),
    ("pages at user.GitHub.io/site", [(9, 28)]),
])
def test_find_urls_spans(text: str, spans: list[tuple[int, int]]) -> None:
    assert find_urls(text) == spans


def test_a_section_blinded_again_gives_the_same_text_and_fresh_audit_items() -> None:
    """Blinding is remembered per section text, location and whole identity: the same section
    again gives the same text and equal audit items (new objects), and another identity with the
    same names but another email (another account) is not served the first one's result."""
    from rhetorica.documents.blinding import Identity, blind_sections
    from rhetorica.documents.models import RemovedItem, Section

    sections = [Section(title="Code", text="Code: https://github.com/jroe/tool and mail jane@x.org.")]
    jane = Identity(["Jane Doe"], ["jroe@lab.org"])
    first: list[RemovedItem] = []
    blinded = blind_sections(sections, jane, first)
    assert blinded[0].text == "Code: [anonymized URL] and mail [anonymized email]."
    assert [(r.item, r.text) for r in first] == [("identity URL", "https://github.com/jroe/tool"),
                                                 ("email", "jane@x.org")]
    again: list[RemovedItem] = []
    assert blind_sections(sections, Identity(["Jane Doe"], ["jroe@lab.org"]), again) == blinded
    assert again == first and all(a is not b for a, b in zip(again, first))
    other: list[RemovedItem] = []
    kept = blind_sections(sections, Identity(["Jane Doe"], ["jane@lab.org"]), other)
    assert kept[0].text == "Code: https://github.com/jroe/tool and mail [anonymized email]."
    assert [r.item for r in other] == ["email"]


@pytest.mark.parametrize("text", [
    "ACM ISBN 978-1-4503-9421-5/23/04.", "isbn: 978-3-16-148410-0", "IsBn 978 3 16 148410 0",
    "\u0131SBN 978-3-16-148410-0",  # dotless i: re.IGNORECASE takes it for "i"
    "I\u017fBN 978-3-16-148410-0",  # long s
    "no number here", "ISBN without digits", "",
])
def test_the_isbn_prefilter_agrees_with_the_isbn_rule(text: str) -> None:
    from rhetorica.documents.blinding import _ISBN, _may_hold_isbn

    assert _may_hold_isbn(text) == (_ISBN.search(text) is not None)
