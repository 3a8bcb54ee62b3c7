"""Protected spans: extraction per kind, kept / missing / added."""

from __future__ import annotations

from rhetorica.documents.models import Document
from rhetorica.validation.spans import compare_spans, extract_spans

ORIGINAL = (
    r"We train for 100 epochs on 8 GPUs and reach 95.3\% accuracy [12], see \citep{kipf2017, "
    r"defferrard2016} and Eq.~\eqref{eq:loss}.\label{sec:exp} Code: https://github.com/x/y. "
    r"Smith et al. (2020) and (Kipf and Welling, 2017) use $x_1 = 0.5$ and 12 ms steps."
    "\n\\begin{equation} y = 2x \\end{equation}"
)


def test_extract_every_kind() -> None:
    assert extract_spans(ORIGINAL) == {
        ("number", "100"),
        ("number", "8"),
        ("number", "95.3%"),
        ("number", "12ms"),
        ("citation_marker", "[12]"),
        ("citation_marker", "Smith et al. (2020)"),
        ("citation_marker", "(Kipf and Welling, 2017)"),
        ("citation_key", "kipf2017"),
        ("citation_key", "defferrard2016"),
        ("ref", "eq:loss"),
        ("label", "sec:exp"),
        ("url", "https://github.com/x/y"),
        ("equation", "$x_1=0.5$"),
        ("equation", r"\begin{equation}y=2x\end{equation}"),
    }


def test_faithful_rewrite_keeps_everything_despite_reordering_and_spacing() -> None:
    variant = (
        r"Training runs 100 epochs on 8 GPUs, reaching 95.3 \% accuracy [12] "
        r"\citep{defferrard2016,kipf2017}; see Eq.~\eqref{eq:loss}.\label{sec:exp} "
        r"Code is at https://github.com/x/y. Both Smith et al. (2020) and "
        r"(Kipf and Welling, 2017) set $x_1=0.5$ with 12ms steps. "
        "\\begin{equation}\n y = 2x\n\\end{equation}"
    )
    report = compare_spans(ORIGINAL, variant)
    assert (report.original, report.kept, report.kept_fraction) == (14, 14, 1.0)
    assert report.missing == [] and report.added == []


def test_missing_and_added_spans_are_reported() -> None:
    variant = ORIGINAL.replace("95.3", "96.1").replace("defferrard2016", "bruna2014")
    report = compare_spans(ORIGINAL, variant)
    assert [(s.kind, s.value) for s in report.missing] == [
        ("citation_key", "defferrard2016"),
        ("number", "95.3%"),
    ]
    assert [(s.kind, s.value) for s in report.added] == [
        ("citation_key", "bruna2014"),
        ("number", "96.1%"),
    ]
    assert report.kept == 12 and report.kept_fraction == 12 / 14


def test_text_without_spans_keeps_everything() -> None:
    report = compare_spans("Plain words only.", "Other plain words.")
    assert report.original == 0 and report.kept_fraction == 1.0


def test_names_with_digits_are_not_split_into_spurious_numbers() -> None:
    assert extract_spans("We use ResNet-50 and L2 loss on COCO2017 with bge-large-en-v1.5.") == {
        ("number", "50"),
    }


def test_real_paper_against_itself_keeps_all_spans(shared_papers: dict[str, Document]) -> None:
    for name, doc in shared_papers.items():
        text = "\n\n".join(s.text for s in doc.sections)
        report = compare_spans(text, text)
        assert report.original > 50 and report.kept_fraction == 1.0, name
