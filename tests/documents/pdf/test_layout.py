"""Layout pass on small PDFs written here (issue 24 items 2 and 5): an abstract without a heading,
table rows, footnotes, floats inside a sentence, running headers of two lines, missing-figure
placeholders, bold run-in openings. Expectations are the literal text the tests put in."""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents import ReadOptions, read_document
from rhetorica.documents.pdf.reader import NO_ABSTRACT
from tests.documents.pdf.content import line, rule, write

TITLE = line(150, 740, "A Study of Layout Defects", 18, "F2")
AUTHOR = line(230, 715, "Jane Q. Doe, Example University, jane@example.org")
ABSTRACT = [
    "We ask whether a reviewing model scores the same science differently when only its",
    "wording changes, and we find that scores move by up to 1.5 points on a 10-point scale",
    "while human raters see no difference in the content of the rewritten papers at all.",
]
PROSE = [
    "We study how a reviewing model reacts when the wording of a manuscript changes while",
    "its content stays fixed, and we measure the shift of its scores on the same papers.",
]


def _text(y: float, rows: list[str], x: float = 72) -> list:
    return [line(x, y - 12 * k, text) for k, text in enumerate(rows)]


def test_an_abstract_without_a_heading_is_found_and_its_keywords_kept(tmp_path: Path) -> None:
    page = [TITLE, AUTHOR, *_text(680, ABSTRACT),
            line(72, 636, "CCS Concepts: Computing methodologies, natural language processing."),
            line(72, 622, "Keywords: peer review, robustness, language models"),
            line(72, 590, "1 Introduction", 12, "F2"), *_text(570, PROSE)]
    pdf = write(tmp_path / "acm.pdf", [page])
    doc = read_document(pdf)
    assert [s.title for s in doc.sections] == ["Abstract", "Introduction"]
    assert doc.sections[0].text == (
        " ".join(ABSTRACT) + "\n\nCCS Concepts: Computing methodologies, natural language processing."
        "\n\nKeywords: peer review, robustness, language models")
    assert NO_ABSTRACT not in doc.warnings
    # --no-blind keeps the author block (untitled) and the abstract all the same
    unblinded = read_document(pdf, options=ReadOptions(blind=False))
    assert [s.title for s in unblinded.sections] == ["", "Abstract", "Introduction"]
    assert unblinded.sections[0].text == "Jane Q. Doe, Example University, jane@example.org"
    assert unblinded.sections[1].text.startswith(ABSTRACT[0])


def test_a_document_without_an_abstract_gets_a_warning(tmp_path: Path) -> None:
    page = [TITLE, AUTHOR, line(72, 680, "1 Introduction", 12, "F2"), *_text(660, PROSE)]
    doc = read_document(write(tmp_path / "none.pdf", [page]))
    assert [s.title for s in doc.sections] == ["Introduction"]
    assert doc.warnings == [NO_ABSTRACT]


def test_acm_reference_block_goes_with_the_title_block(tmp_path: Path) -> None:
    page = [TITLE, AUTHOR, *_text(680, ABSTRACT),
            line(72, 630, "ACM Reference Format:"),
            line(72, 618, "Jane Q. Doe. 2026. A Study of Layout Defects. In Proceedings, 12 pages."),
            line(72, 590, "1 Introduction", 12, "F2"), *_text(570, PROSE)]
    doc = read_document(write(tmp_path / "ref.pdf", [page]))
    assert "Jane Q. Doe" not in doc.to_markdown()
    author_block = next(r for r in doc.removed if r.item == "author block")
    assert author_block.text.endswith(
        "ACM Reference Format: Jane Q. Doe. 2026. A Study of Layout Defects. In Proceedings, 12 pages.")


def _row(y: float, cells: tuple[str, str, str], font: str = "F1") -> tuple:
    return (100, y, [(font, 10, 0, cells[0])]), (200, y, [(font, 10, 0, cells[1])]), (330, y, [(font, 10, 0, cells[2])])


def test_table_rows_are_a_table_block_and_never_headings(tmp_path: Path) -> None:
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, PROSE),
            line(72, 640, "Table 1: Length classes of the rewritten paragraphs."),
            *_row(624, ("Barrier", "Description", "Share"), "F2"), *_row(610, ("Tiny", "under 50 words", "3.1")),
            *_row(596, ("Short", "50 to 300 words", "41.7")), *_row(582, ("Long", "over 300 words", "55.2")),
            *_text(550, PROSE)]
    doc = read_document(write(tmp_path / "table.pdf", [page]))
    assert [s.title for s in doc.sections] == ["Method"]
    assert doc.sections[0].text.split("\n\n") == [
        " ".join(PROSE), "Table 1: Length classes of the rewritten paragraphs.",
        "| Barrier | Description | Share |\n| --- | --- | --- |\n| Tiny | under 50 words | 3.1 |\n"
        "| Short | 50 to 300 words | 41.7 |\n"
        "| Long | over 300 words | 55.2 |",
        " ".join(PROSE),
    ]


def test_a_footnote_follows_its_paragraph_which_goes_on_after_the_page_break(tmp_path: Path) -> None:
    first = [TITLE, line(72, 700, "1 Introduction", 12, "F2"),
             line(72, 680, "We count every sentence of the corpus once, even when it occurs twice,"),
             (72, 668, [("F1", 10, 0, "in the way described by the annotation guide"), ("F1", 7, 4, "1"),
                        ("F1", 10, 0, " that the three annotators")]),
             (72, 90, [("F1", 6, 3, "1"), ("F1", 8, 0, "The guide is part of the supplementary material.")]),
             line(300, 50, "1")]
    second = [line(72, 740, "followed for all the papers of the study."), *_text(710, PROSE), line(300, 50, "2")]
    doc = read_document(write(tmp_path / "note.pdf", [first, second]))
    assert doc.sections[0].text.split("\n\n") == [
        "We count every sentence of the corpus once, even when it occurs twice, in the way described by the "
        "annotation guide^1 that the three annotators followed for all the papers of the study.",
        "[^1]: The guide is part of the supplementary material.",
        " ".join(PROSE),
    ]


def test_a_caption_inside_a_sentence_is_moved_after_it(tmp_path: Path) -> None:
    first = [TITLE, line(72, 700, "1 Results", 12, "F2"), *_text(680, PROSE),
             line(72, 640, "The scores of the largest model were, on average and over all the"), line(300, 50, "1")]
    second = [line(72, 740, "Figure 2: Scores by model size."), line(72, 700, "papers, lower than those of the others."),
              line(300, 50, "2")]
    doc = read_document(write(tmp_path / "caption.pdf", [first, second]))
    assert doc.sections[0].text.split("\n\n") == [
        " ".join(PROSE),
        "The scores of the largest model were, on average and over all the papers, lower than those of the others.",
        "Figure 2: Scores by model size.",
    ]


def test_a_running_header_of_two_lines_is_removed(tmp_path: Path) -> None:
    # as fancyhdr sets a two-line head on A4: the second line ends 117 pt below the page's top,
    # past the 11 % margin (87 pt), set apart from the text by 30 pt
    header = [line(200, 687, "A Study of Layout Defects, second draft", 9),
              line(210, 676, "Submission 17, anonymous preprint", 9)]
    pages = [[TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, PROSE)]]
    pages += [[*header, *_text(640, PROSE), line(300, 50, str(k + 2))] for k in range(3)]
    doc = read_document(write(tmp_path / "header.pdf", pages))
    markdown = doc.to_markdown()
    assert "second draft" not in markdown and "Submission 17" not in markdown
    headers = [(r.location, r.text) for r in doc.removed if r.item == "running header"]
    assert headers == [("pages 2-4", "A Study of Layout Defects, second draft"),
                       ("pages 2-4", "Submission 17, anonymous preprint")]


def test_a_missing_figure_drawn_as_its_file_name_is_not_text(tmp_path: Path) -> None:
    page = [TITLE, line(72, 700, "1 Results", 12, "F2"), *_text(680, PROSE),
            line(150, 600, "figures/score_shift_by_length", 10, "F3"), line(120, 560, "Figure 1: Score shifts."),
            *_text(530, PROSE)]
    doc = read_document(write(tmp_path / "placeholder.pdf", [page]))
    assert "score_shift" not in doc.to_markdown()
    assert [(r.item, r.location, r.text) for r in doc.removed if r.item == "figure placeholder"] == [
        ("figure placeholder", "page 1", "figures/score_shift_by_length")]


def test_bold_run_in_openings_stay_paragraph_text(tmp_path: Path) -> None:
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"),
            (72, 680, [("F2", 10, 0, "Data collection."), ("F1", 10, 0, " We gathered the papers from two venues and")]),
            line(72, 668, "kept those with a public LaTeX source."),
            line(72, 646, "Annotation of the rewritten paragraphs by three", 10, "F2"),
            line(72, 634, "independent raters who saw the original papers.")]
    doc = read_document(write(tmp_path / "runin.pdf", [page]))
    assert [s.title for s in doc.sections] == ["Method"]
    assert doc.sections[0].text.split("\n\n") == [
        "Data collection. We gathered the papers from two venues and kept those with a public LaTeX source.",
        "Annotation of the rewritten paragraphs by three independent raters who saw the original papers.",
    ]


def _column(prose: str) -> list[str]:
    """``prose`` cut into lines of at most 40 characters (a column of Helvetica 10 pt, 200 pt)."""
    out = [""]
    for word in prose.split():
        if len(out[-1]) + len(word) >= 40:
            out.append("")
        out[-1] = f"{out[-1]} {word}".strip()
    return out


def test_a_horizontal_watermark_over_the_text_is_removed_and_audited(tmp_path: Path) -> None:
    # issue 39: "For Peer Review Only" set across the text at one place on every page was read
    # into a sentence ("... and For Peer Review Onlyparameters ..."), with nothing in `removed`
    words = " ".join(PROSE).rstrip(".").split()
    prose = [" ".join(words[k:] + words[:k]) + "." for k in range(18)]  # no line twice
    pages = []
    for p in range(3):
        page = [TITLE, line(72, 700, "1 Introduction", 12, "F2")] if p == 0 else []
        page += _text(680, _column(" ".join(prose[6 * p:6 * p + 6])))
        page += [line(230, 640, "For Peer Review Only", 20), line(300, 50, str(p + 1))]
        pages.append(page)
    doc = read_document(write(tmp_path / "stamp.pdf", pages))
    assert "Peer" not in doc.to_markdown()
    assert doc.sections[0].text == "\n\n".join(" ".join(prose[6 * p:6 * p + 6]) for p in range(3))
    assert [(r.item, r.location, r.text) for r in doc.removed if r.item.startswith("watermark")] == [
        ("watermark (text repeated at one place)", "pages 1-3", "For Peer Review Only")]


def test_a_heading_wrapped_after_a_hyphen_is_one_heading(tmp_path: Path) -> None:
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, PROSE),
            line(72, 640, "2 A Rather Long Heading on Person-", 12, "F2"), line(86, 626, "alized Paper Cards", 12, "F2"),
            *_text(606, PROSE)]
    doc = read_document(write(tmp_path / "heading.pdf", [page]))
    assert [s.title for s in doc.sections] == ["Introduction", "A Rather Long Heading on Personalized Paper Cards"]


def test_a_numbered_heading_opening_with_a_bracket_and_wrapped_is_one_heading(tmp_path: Path) -> None:
    # issue 39: "4.5 [D3] Paper Cards with Personalized / Context" was a body line and a heading "Context"
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, PROSE),
            line(72, 640, "2 [D3] Paper Cards with Personalized", 12, "F2"), line(86, 626, "Context", 12, "F2"),
            *_text(606, PROSE)]
    doc = read_document(write(tmp_path / "bracket.pdf", [page]))
    assert [(s.title, s.level) for s in doc.sections] == [
        ("Introduction", 1), ("[D3] Paper Cards with Personalized Context", 1)]


def test_a_wrapped_heading_of_fifteen_words_is_one_heading(tmp_path: Path) -> None:
    # issue 39: a heading holds at most 14 words a printed row, so a title of 15 words wrapped on
    # two rows (the first alone 15 words with its number; the first ending in a comma) is one heading
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, PROSE),
            line(72, 640, "2.1 Why a Reader Keeps Every Single Heading That a Narrow Column Wraps onto Two", 12, "F2"),
            line(96, 626, "Lines", 12, "F2"), *_text(606, PROSE),
            line(72, 560, "3 Reading Order across Two Columns When Floats,", 12, "F2"),
            line(86, 546, "Notes and Stamps Share the Same Printed Page", 12, "F2"), *_text(526, PROSE)]
    doc = read_document(write(tmp_path / "long.pdf", [page]))
    assert [(s.title, s.level) for s in doc.sections] == [
        ("Introduction", 1), ("Why a Reader Keeps Every Single Heading That a Narrow Column Wraps onto Two Lines", 2),
        ("Reading Order across Two Columns When Floats, Notes and Stamps Share the Same Printed Page", 1)]
    assert [s.text for s in doc.sections] == [" ".join(PROSE)] * 3


def test_a_centred_heading_in_capitals_on_three_lines_is_one_heading(tmp_path: Path) -> None:
    # IEEE's section headings: centred small capitals, each line centred under the last
    lines = ["II. A RATHER LONG SECTION HEADING ON", "PERSONALIZED PAPER CARDS WITH CONTEXT AND MANY", "MORE WORDS"]
    page = [TITLE, line(72, 700, "I. INTRODUCTION", 10), *_text(680, PROSE)]
    page += [line(306 - 2.6 * len(text), 640 - 12 * k, text, 9) for k, text in enumerate(lines)]
    page += _text(596, PROSE)
    doc = read_document(write(tmp_path / "centred.pdf", [page]))
    assert [s.title for s in doc.sections] == [
        "Introduction", "A rather long section heading on personalized paper cards with context and many more words"]
    assert doc.sections[1].text == " ".join(PROSE)


def test_unnumbered_headings_take_the_level_of_the_numbered_ones_in_their_font(tmp_path: Path) -> None:
    # issue 39: an abstract read at level 3 or 4 while the sections were at level 1; "Abstract" is
    # set smaller than any numbered heading (a front-matter heading: level 1), "Limitations"
    # and "Ablations" in the fonts of the sections and subsections
    page = [TITLE, line(72, 700, "Abstract", 10, "F2"), *_text(686, ABSTRACT),
            line(72, 630, "1 Introduction", 12, "F2"), *_text(614, PROSE),
            line(72, 580, "1.1 Setup", 11, "F2"), *_text(564, PROSE),
            line(72, 530, "Ablations", 11, "F2"), *_text(514, PROSE),
            line(72, 480, "Limitations", 12, "F2"), *_text(464, PROSE)]
    doc = read_document(write(tmp_path / "levels.pdf", [page]))
    assert [(s.title, s.level) for s in doc.sections] == [
        ("Abstract", 1), ("Introduction", 1), ("Setup", 2), ("Ablations", 2), ("Limitations", 1)]


def test_a_sentence_repeated_at_one_place_on_two_pages_is_no_watermark(tmp_path: Path) -> None:
    # a stamp is drawn over the text; the same line of prose at the same place on two pages is text
    pages = [[TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, PROSE), line(300, 50, "1")],
             [*_text(680, PROSE), line(300, 50, "2")]]
    doc = read_document(write(tmp_path / "twice.pdf", pages))
    assert doc.sections[0].text == " ".join(PROSE) + "\n\n" + " ".join(PROSE)
    assert not [r for r in doc.removed if r.item.startswith("watermark")]


def test_a_footnote_whose_raised_mark_opens_its_row_never_splits_the_sentence(tmp_path: Path) -> None:
    # llncs sets a footnote's mark as a small raised run of its own, its middle above the text's
    # box: the mark was a row of its own, the note a paragraph that cut the sentence in two
    first = [TITLE, line(72, 700, "1 Introduction", 12, "F2"),
             line(72, 680, "We count every sentence of the corpus once, even when it occurs twice,"),
             (72, 668, [("F1", 10, 0, "in the way described by the annotation guide"), ("F1", 7, 4, "1"),
                        ("F1", 10, 0, " that the three annotators")]),
             line(72, 95, "1", 6), line(78, 90, "The guide is part of the supplementary material.", 8),
             line(300, 50, "1")]
    second = [line(72, 740, "followed for all the papers of the study."), *_text(710, PROSE), line(300, 50, "2")]
    doc = read_document(write(tmp_path / "mark.pdf", [first, second]))
    assert doc.sections[0].text.split("\n\n") == [
        "We count every sentence of the corpus once, even when it occurs twice, in the way described by the "
        "annotation guide^1 that the three annotators followed for all the papers of the study.",
        "[^1]: The guide is part of the supplementary material.",
        " ".join(PROSE),
    ]


def test_a_footnote_numbered_with_a_period_under_the_footnote_rule_never_splits_the_sentence(tmp_path: Path) -> None:
    # issue 39 (JMLR): the note's mark is "2." on the note's baseline; under the footnote rule (a
    # short rule at the column's left edge with only small lines below it) it opens a footnote
    first = [TITLE, line(72, 700, "1 Introduction", 12, "F2"),
             line(72, 680, "We count every sentence of the corpus once, even when it occurs twice,"),
             (72, 668, [("F1", 10, 0, "in the way described by the annotation guide"), ("F1", 7, 4, "2"),
                        ("F1", 10, 0, " that the three annotators")]),
             rule(72, 192, 104), line(78, 90, "2. The guide is part of the supplementary material.", 8),
             line(300, 50, "1")]
    second = [line(72, 740, "followed for all the papers of the study."), *_text(710, PROSE), line(300, 50, "2")]
    doc = read_document(write(tmp_path / "dotted.pdf", [first, second]))
    assert doc.sections[0].text.split("\n\n") == [
        "We count every sentence of the corpus once, even when it occurs twice, in the way described by the "
        "annotation guide^2 that the three annotators followed for all the papers of the study.",
        "[^2]: The guide is part of the supplementary material.",
        " ".join(PROSE),
    ]


def test_a_word_broken_at_a_line_end_without_a_hyphen_is_one_word(tmp_path: Path) -> None:
    # issue 39: "sum maries", a word broken at a line end whose hyphen the PDF does not hold as
    # text; the document writes "summaries" inside a line and never "maries" there. "short" +
    # "data" stay two words: "shortdata" is written nowhere
    rows = ["We read the reviews and write their sum",
            "maries of the papers, and the summaries are short",
            "data that two raters compare with the reviews."]
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, rows)]
    doc = read_document(write(tmp_path / "split.pdf", [page]))
    assert doc.sections[0].text == ("We read the reviews and write their summaries of the papers, and the summaries are "
                                    "short data that two raters compare with the reviews.")


def test_a_hyphenated_word_whose_first_piece_is_a_word_is_joined(tmp_path: Path) -> None:
    # issue 39: "set-" + "tled": "set" is a word of the document, "tled" only opens the line after
    # the hyphen (a piece, no word), so the hyphen is TeX's and the word is "settled"; "well-"
    # + "known" stays hyphenated: both pieces are words and "wellknown" is written nowhere; so
    # does "low-" + "dimensional": "dimensional" is written as a part of "three-dimensional"
    rows = ["We set the threshold once, and the value set-",
            "tled before the text was read; the rule is well-",
            "known and the known rules are well kept by the low-",
            "dimensional readers of three-dimensional and low pages."]
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, rows)]
    doc = read_document(write(tmp_path / "hyphen.pdf", [page]))
    assert doc.sections[0].text == ("We set the threshold once, and the value settled before the text was read; the rule "
                                    "is well-known and the known rules are well kept by the low-dimensional readers of "
                                    "three-dimensional and low pages.")



def test_a_hyphen_between_two_words_follows_how_english_writes_the_word(tmp_path: Path) -> None:
    # issue 39: "guide-" + "lines" and "lower-" + "bound": both pieces are words of the document
    # and neither form is written elsewhere; English writes "guidelines" solid (a word of the
    # shipped list) and "lowerbound" is no word, so the first hyphen is TeX's, the second the word's
    rows = ["A guide for the lines of text: we follow the guide-",
            "lines, and the lower of the two values is the lower-",
            "bound that each bound of the readers takes."]
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, rows)]
    doc = read_document(write(tmp_path / "english.pdf", [page]))
    assert doc.sections[0].text == ("A guide for the lines of text: we follow the guidelines, and the lower of the two "
                                    "values is the lower-bound that each bound of the readers takes.")


LEFT = ["the first column holds these lines of text,", "set one below the other in the left half",
        "of the page, each of them short enough to", "end well before the middle of the page and",
        "followed by the lines of the right column,", "which the reader reads after the left one"]
RIGHT = ["from its top to its bottom, as a person", "reads a journal page that is set in two",
         "columns, each line again short enough to", "start after the middle of the page, and so",
         "the text goes on to the next page where", "the columns are short and end up the page"]


def _columns(left: list[str], right: list[str], y: float) -> list:
    return _text(y, left) + _text(y, right, x=330)


def test_a_short_last_page_of_a_two_column_paper_is_read_column_by_column(tmp_path: Path) -> None:
    # issue 39: a last page holding only three lines in the left column and two in the right is
    # two-column too when the paper's other pages are (no line crosses the middle there)
    tail_left = ["while the left column of the last page has", "only three lines of text on it and then",
                 "the paragraph goes on in the right column"]
    tail_right = ["where two more lines close the paper, as", "the reader expects them to close it here."]
    first = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_columns(LEFT, RIGHT, 680)]
    second = [*_columns(LEFT, RIGHT, 740)]
    third = [*_columns(tail_left, tail_right, 740)]
    doc = read_document(write(tmp_path / "short.pdf", [first, second, third]))
    assert doc.sections[0].text.split() == " ".join((LEFT + RIGHT) * 2 + tail_left + tail_right).split()


def test_a_heading_opening_the_right_column_beside_the_abstract_heading_is_read_with_its_column(
        tmp_path: Path) -> None:
    # issue 39 (acmart): the right column opens with a section heading on three rows whose first
    # row sits beside the "ABSTRACT" heading, above the first line of prose; the title block
    # above is read row by row, the heading goes with the column it opens
    page = [TITLE, line(72, 618, "ABSTRACT", 12, "F2"), *_text(604, LEFT),
            line(330, 618, "2", 12, "F2"), line(345, 618, "READING ORDER ACROSS", 12, "F2"),
            line(345, 604, "TWO COLUMNS OF A PAGE", 12, "F2"), *_text(588, RIGHT, x=330)]
    doc = read_document(write(tmp_path / "beside.pdf", [page]))
    assert [(s.title, s.text) for s in doc.sections] == [
        ("Abstract", " ".join(LEFT)), ("Reading order across two columns of a page", " ".join(RIGHT))]


def test_an_author_note_set_on_a_later_page_goes_with_the_title_block(tmp_path: Path) -> None:
    # issue 39 (JMLR/PMLR): the note of the title block's "*" sits under the footnote rule of
    # page 2; it is an author note (its mark is the title block's and it reads like one), the
    # numbered note below it ("1.") is a footnote of its own
    first = [TITLE, line(230, 715, "Jane Q. Doe*, Example University"), line(72, 700, "1 Introduction", 12, "F2"),
             *_text(680, PROSE), line(300, 50, "1")]
    second = [*_text(740, PROSE), rule(72, 192, 130),
              line(72, 118, "*Corresponding author; funded by a reading fellowship. Homepage", 8),
              line(72, 108, "https://example.org/jdoe", 8),
              line(72, 98, "1. The guide is part of the supplementary material.", 8), line(300, 50, "2")]
    doc = read_document(write(tmp_path / "later.pdf", [first, second]))
    assert doc.sections[0].text.split("\n\n") == [
        " ".join(PROSE), " ".join(PROSE), "[^1]: The guide is part of the supplementary material."]
    [block] = [r.text for r in doc.removed if r.item == "author block"]
    assert block.split("\n")[1:] == ["*Corresponding author; funded by a reading fellowship. Homepage",
                                     "https://example.org/jdoe"]


def test_the_venue_line_of_a_permission_block_goes_with_the_title_block(tmp_path: Path) -> None:
    # issue 39 (acmart): the permission block's venue line ("Conference’17, ...") right above its
    # ISBN line is part of the block, and the sentence the footnote interrupts, going on with "(",
    # is joined again
    first = [TITLE, line(72, 700, "1 Introduction", 12, "F2"),
             line(72, 680, "We count every sentence of the corpus once, as the annotation guide^1 says,"),
             line(72, 668, "and Robert Kern, then an undergraduate student"),
             line(72, 130, "1 The guide is part of the supplementary material.", 8),
             line(72, 110, "Workshop on Layout, June 2026, Lisbon, Portugal", 8),
             line(72, 100, "2026. ACM ISBN 978-x-xxxx-xxxx-x/YY/MM", 8), line(72, 90, "https://doi.org/10.1145/nnnnnnn", 8)]
    second = [line(72, 740, "(now at a company), helped with the tests."), *_text(720, PROSE)]
    doc = read_document(write(tmp_path / "permission.pdf", [first, second]))
    assert doc.sections[0].text.split("\n\n") == [
        "We count every sentence of the corpus once, as the annotation guide^1 says, and Robert Kern, then an "
        "undergraduate student (now at a company), helped with the tests.",
        "[^1]: The guide is part of the supplementary material.", " ".join(PROSE)]
    [block] = [r.text for r in doc.removed if r.item == "author block"]
    assert block.split("\n") == ["Workshop on Layout, June 2026, Lisbon, Portugal", "2026. ACM ISBN 978-x-xxxx-xxxx-x/YY/MM",
                                 "https://doi.org/10.1145/nnnnnnn"]


def test_a_venue_footer_on_the_last_row_of_page_one_is_removed_with_its_date(tmp_path: Path) -> None:
    # issue 39 (elsarticle): "Preprint submitted to ..." and the date beside it on page 1's last
    # row, above the bottom margin: a venue note, the date with it
    first = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, PROSE),
             line(72, 100, "Preprint submitted to Journal of Examples", 8), line(480, 100, "March 3, 2026", 8)]
    doc = read_document(write(tmp_path / "footer.pdf", [first, _text(740, PROSE)]))
    assert doc.sections[0].text == " ".join(PROSE) + "\n\n" + " ".join(PROSE)
    assert [r.text for r in doc.removed if r.item == "venue note"] == [
        "Preprint submitted to Journal of Examples", "March 3, 2026"]


def test_an_indented_full_line_after_a_display_equation_starts_a_paragraph(tmp_path: Path) -> None:
    # issue 39: the paragraph after a centred equation ran on into it; after a display line, a
    # line ending at the column's right edge and indented from its left edge opens a paragraph,
    # one set flush left goes on with the paragraph. The full lines repeat one sentence (one
    # width); the indented line is that sentence less "its " (Helvetica: i 222 + t 278 + s 500 +
    # space 278 = 1278/1000 em = 12.78 pt at 10 pt), set 12.78 pt in, so it ends where they do
    full = "the reader keeps each table whole and counts its cells once"
    opening = "the reader keeps each table whole and counts cells once"
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, [full] * 3),
            line(190, 644, "share(e) = kept / all (1)"), line(72 + 12.78, 632, opening), *_text(620, [full] * 2),
            line(190, 596, "mean = share / n (2)"), line(72, 584, full)]
    doc = read_document(write(tmp_path / "equation.pdf", [page]))
    assert doc.sections[0].text.split("\n\n") == [
        " ".join([full] * 3) + " share(e) = kept / all (1)",
        " ".join([opening, full, full]) + " mean = share / n (2) " + full]


def test_an_abstract_whose_line_reads_like_names_is_no_part_of_the_author_block(tmp_path: Path) -> None:
    # issue 39 (acmart, small format): the abstract's third line is mostly capitalised names (no
    # prose line by its words) but set to the first line's measure (widths measured: 72.2-418.2
    # and 72.9-417.5 pt), so the abstract starts at its first line, not after it
    abstract = ["We ask whether any reviewing model scores the same science differently, and",
                "when only the wording changes: in 2001, Jane Doe and John Roe founded the",
                "Reviewing Robustness Tools (now Robust Reviews, Inc.) in Lyon, France. Yet",
                "the scores move by up to 1.5 points while human raters see no change."]
    page = [TITLE, AUTHOR, *_text(680, abstract), line(72, 610, "1 Introduction", 12, "F2"), *_text(590, PROSE)]
    doc = read_document(write(tmp_path / "names.pdf", [page]))
    assert [(s.title, s.text) for s in doc.sections] == [("Abstract", " ".join(abstract)), ("Introduction", " ".join(PROSE))]


def test_a_short_bold_italic_line_set_smaller_is_a_heading_a_level_down(tmp_path: Path) -> None:
    # issue 39 (the SciPy paper's paragraph headings): "Sparse matrices" in bold italic 9 pt (the
    # text 10 pt) under "Data structures" in bold 10 pt, the text after it opening in lower case;
    # it ends far before the column's right edge (where the repeated full lines end), so no
    # sentence runs on from it; "cKDTree", a name in a monospaced bold italic, is one too though
    # it opens in lower case
    full = "scipy.sparse offers seven formats for sparse matrices and more"
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *_text(680, [full] * 3),
            line(72, 630, "Data structures", 10, "F2"), line(72, 616, "Sparse matrices", 9, "F4"),
            *_text(604, [full] * 3), line(72, 556, "cKDTree", 9, "F5"), *_text(544, [full] * 3)]
    doc = read_document(write(tmp_path / "paragraph.pdf", [page]))
    assert [(s.title, s.level, s.text) for s in doc.sections] == [
        ("Introduction", 1, " ".join([full] * 3)), ("Data structures", 2, ""), ("Sparse matrices", 3, " ".join([full] * 3)),
        ("cKDTree", 3, " ".join([full] * 3))]


BODY = ["We measure how the scores of a reviewing model move when only the wording of the paper",
        "changes, and we report the shift on every paper of the study with its interval."]
ROMAN = ["I", "II", "III", "IV"]


def _untitled(numbering: str, sections: int) -> tuple[list, list[str]]:
    """A page that opens with its first section heading (no title block): ``sections`` headings in
    one bold 12 pt font, numbered "1", "1." or "I." or not at all, each with two lines of prose;
    the page number low on the page but above the bottom margin (a short page)."""
    names = ["Introduction", "Related Work", "Method", "Results"][:sections]
    page, y = [], 720
    for k, name in enumerate(names):
        number = {"arabic": f"{k + 1} ", "dotted": f"{k + 1}. ", "roman": f"{ROMAN[k]}. ", "none": ""}[numbering]
        page += [line(72, y, number + name, 12, "F2"), *_text(y - 20, BODY)]
        y -= 70
    return page + [line(300, 140, "1")], names


def test_a_paper_without_a_title_block_keeps_its_first_section() -> None:
    # C3 (a fresh user's trial): a paper set without \maketitle opens with "1 Introduction" in the
    # largest font; that is a section heading (its font and numbering are the other headings'),
    # not a title, and its paragraph is no abstract. 12 generated pages: 4 numberings x 2-4
    # sections (unnumbered from 3 sections: two other headings share the font); the page number
    # above the bottom margin is removed (a heading's number is no page number's place)
    import tempfile

    cases = [(n, k) for n in ("arabic", "dotted", "roman", "none") for k in (2, 3, 4) if n != "none" or k >= 3]
    assert len(cases) == 11
    with tempfile.TemporaryDirectory() as tmp:
        for numbering, sections in cases:
            page, names = _untitled(numbering, sections)
            doc = read_document(write(Path(tmp) / f"{numbering}{sections}.pdf", [page]))
            assert doc.title == "", (numbering, sections, doc.title)
            assert [s.title for s in doc.sections] == names, (numbering, sections)
            assert all(s.text == " ".join(BODY) for s in doc.sections), (numbering, sections)
            assert [r.text for r in doc.removed if r.item == "page number"] == ["1"], (numbering, sections)


def test_a_title_in_its_own_font_is_kept_over_numbered_sections(tmp_path: Path) -> None:
    # the control: a title in a font no other line uses stays the title, even one opening with a number
    for title in ("A Study of Layout Defects", "3 Ways Reviewers Read Layout"):
        page, names = _untitled("arabic", 3)
        doc = read_document(write(tmp_path / "titled.pdf", [[line(150, 760, title, 18, "F2"), *page]]))
        assert doc.title == title and [s.title for s in doc.sections] == names


def test_two_column_headings_on_one_row_above_the_columns_stay_two_headings(tmp_path: Path) -> None:
    # IEEE's short first page: "I. INTRODUCTION" heads the left column on the row where
    # "IV. RESULTS" heads the right one; each heads its column, not one title-block row
    left = ["the first column holds these lines of text, set one below", "the other in the left half of the page."]
    right = ["the right column holds the results of the study, which", "the reader reads after the left one,",
             "from its top to its bottom, as a person", "reads a journal page that is set in two",
             "columns, each line again short enough to", "start after the middle of the page."]
    page = [line(120, 700, "I. INTRODUCTION", 8), line(400, 700, "IV. RESULTS", 8),
            *_text(686, left + left + left, x=50), *_text(688, right, x=320)]
    doc = read_document(write(tmp_path / "ieee.pdf", [page]))
    assert [s.title.lower() for s in doc.sections] == ["introduction", "results"]
    assert doc.sections[1].text == " ".join(right)


def test_the_abstract_heading_is_found_in_a_font_that_names_no_weight(tmp_path: Path) -> None:
    # a fresh user's trial: article with T1 fonts and no cm-super sets headings in bitmap Type 3
    # fonts, whose names give no weight; the word "Abstract" alone on its line, small and not
    # bold, is still the abstract's heading, and the title block ends above it (before: the
    # abstract was removed with the authors as "author block")
    page = [TITLE, line(250, 715, "Jane Q. Doe"), line(240, 700, "Example University"),
            line(290, 670, "Abstract", 9), *_text(655, ABSTRACT[:1]),
            line(72, 620, "1 Introduction", 14), *_text(600, PROSE)]
    doc = read_document(write(tmp_path / "t1.pdf", [page]))
    assert [(s.title, s.text) for s in doc.sections] == [("Abstract", ABSTRACT[0]), ("Introduction", " ".join(PROSE))]
    assert [r.text for r in doc.removed if r.item == "author block"] == ["Jane Q. Doe\nExample University"]


CONTACT_PARAGRAPH = [  # {0}: where the address goes on the line chosen, else "the authors"
    "We release the corpus of rewritten manuscripts, and {0} answer every question about it,",
    "together with every score the models gave; for questions about the data write to {0},",
    "who answer within a week and keep a list of known problems with the annotations, so",
    "that later studies can correct them before they reuse the corpus; {0} read every report.",
]
EMAILS = ("data.owner@example.org", "{jane,john}@example.org")


def _contact_pages() -> list[tuple[str, list]]:
    """Generated first pages: the title, an author line with its address, then a paragraph that
    gives a contact address on one of its lines (2 address forms x 4 lines x first line indented
    or not x with or without an 'Abstract' heading above it = 32 pages), each with the paragraph as
    a blinded text must read: the address replaced by "[anonymized email]", every other word kept."""
    out = []
    for email in EMAILS:
        for at in range(len(CONTACT_PARAGRAPH)):
            for indent in (0, 15):
                for heading in (False, True):
                    rows = [r.format(email if k == at else "the authors") for k, r in enumerate(CONTACT_PARAGRAPH)]
                    page = [TITLE, AUTHOR]
                    top = 680
                    if heading:
                        page.append(line(72, top, "Abstract", 12, "F2"))
                        top -= 20
                    page += [line(72 + (indent if k == 0 else 0), top - 12 * k, text) for k, text in enumerate(rows)]
                    page += [line(72, top - 70, "1 Introduction", 12, "F2"), *_text(top - 90, PROSE)]
                    blinded = [r.format("[anonymized email]" if k == at else "the authors")
                               for k, r in enumerate(CONTACT_PARAGRAPH)]
                    out.append((" ".join(blinded), page))
    return out


def test_a_paragraph_giving_an_address_loses_only_the_address(tmp_path: Path) -> None:
    # before: 8 of the 32 generated paragraphs lost words besides the address (a line of running
    # text with an address in it was not prose, so the title block ran on into the paragraph)
    pages = _contact_pages()
    assert len(pages) == 32
    lost = []
    for k, (expected, page) in enumerate(pages):
        doc = read_document(write(tmp_path / f"c{k}.pdf", [page]))
        text = " ".join(doc.to_markdown().split())
        if expected not in text:
            lost.append(k)
        assert "Jane Q. Doe" not in text and "jane@example.org" not in text  # the author block still goes
    assert lost == []
