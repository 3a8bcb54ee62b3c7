"""The toolkit the dimension measures share: packaged phrase lexicons (versions, READMEs, errors).

The measures themselves are tested with their dimensions (``tests/dimensions``).
"""

from __future__ import annotations

from importlib import resources

import pytest

from rhetorica.validation import rhetoric as r

LEXICONS = ("novelty", "scope", "contribution", "register", "quantities")
"""The phrase lexicons packaged under ``rhetorica/data`` (read by the six-dimension measures)."""


@pytest.mark.parametrize("name", LEXICONS)
def test_every_lexicon_loads_with_a_version_and_a_readme(name: str) -> None:
    lexicon = r.load_lexicon(name)
    assert lexicon.version == "2026.12-1" and lexicon.items
    assert resources.files("rhetorica").joinpath("data", name, "README.md").is_file()


def test_malformed_lexicon_rows_are_errors_naming_the_line() -> None:
    with pytest.raises(ValueError, match="novelty/lexicon.tsv:3: item 'Novel'"):
        r.parse_phrase_lexicon("# x version 1\nitem\tcategory\tsource\nNovel\tnovelty\tx\n", "novelty")
    with pytest.raises(ValueError, match="first line"):
        r.parse_phrase_lexicon("novel\tnovelty\n", "novelty")
    with pytest.raises(ValueError, match="unknown lexicon 'tone': package rhetorica has no data/tone/lexicon.tsv"):
        r.load_lexicon("tone")
