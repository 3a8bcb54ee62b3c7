"""Generated LaTeX pages for the reader's tables and code listings: each case's source and its
ground truth (the cells of a table, the lines of a listing) come from one specification, compiled
with pdflatex (``-no-shell-escape``) in a one-column and a two-column class."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from itertools import product
from pathlib import Path

PROSE = ("We study how a reviewing model reacts when the wording of a manuscript changes while its content stays "
         "fixed, and every rewrite keeps the claims, the numbers and the citations of the original paper. ")
CLASSES = {"onecolumn": r"\documentclass{article}", "twocolumn": r"\documentclass[twocolumn]{article}"}
RULES = ("booktabs", "hline", "grid", "none")  # top/mid/bottom rules; \hline; \hline with |l|c|; no rules
SHAPES = ("plain", "empty", "pipe", "group", "short", "multirow")
COLUMNS = (2, 3, 5)
WORDS = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel", "Juniper", "Larch", "Maple", "Oak",
         "Pine", "Rowan", "Spruce", "Willow", "Yew", "Aspen"]


@dataclass(frozen=True)
class TableCase:
    """One generated table: ``rows`` its printed cells row by row (the header first; a group label
    or a short row has fewer cells than ``columns``), ``latex`` its source."""

    rule: str
    shape: str
    columns: int
    rows: tuple[tuple[str, ...], ...]
    latex: str


def _cell(text: str) -> str:
    return text.replace("|", r"\textbar{}")


def table_case(index: int, rule: str, shape: str, columns: int) -> TableCase:
    """The table of the given rule style, shape and column count; its words are unique in the
    corpus (the row labels carry ``index``)."""
    word = WORDS[index % len(WORDS)]
    header = [f"{word}{index}"] + [f"Score {k}" for k in range(1, columns)]
    body = [[f"Run {index}{r}"] + [f"{index}.{r}{k}" for k in range(1, columns)] for r in range(1, 4)]
    printed = [list(header)] + [list(row) for row in body]
    tex = [list(header)] + [list(row) for row in body]
    if shape == "empty":  # an empty cell in the middle of a row
        tex[2][1] = printed[2][1] = ""
    elif shape == "pipe":  # a vertical bar printed in a cell
        tex[1][0] = printed[1][0] = f"a|b {index}"
    elif shape == "group":  # a row-group label over the columns
        label = f"Group {index}"
        tex.insert(1, [rf"\multicolumn{{{columns}}}{{l}}{{{label}}}"])
        printed.insert(1, [label])
    elif shape == "short":  # a short last row: its first two cells only
        tex.append([f"Total {index}", f"{index}.99"])
        printed.append([f"Total {index}", f"{index}.99"])
    elif shape == "multirow":  # a label spanning two rows: the second row's first cell is empty
        tex[2][0] = rf"\multirow{{2}}{{*}}{{Pair {index}}}"
        tex[3][0] = ""
        printed[2][0], printed[3][0] = f"Pair {index}", ""
    spec = ("|" + "|".join("l" + "r" * (columns - 1)) + "|") if rule == "grid" else "l" + "r" * (columns - 1)
    top, mid, bottom = {"booktabs": (r"\toprule", r"\midrule", r"\bottomrule"), "none": ("", "", "")}.get(
        rule, (r"\hline", r"\hline", r"\hline"))
    lines = [" & ".join(c if c.startswith("\\multi") else _cell(c) for c in row) + r" \\" for row in tex]
    latex = (f"\\begin{{table}}[h]\\centering\\begin{{tabular}}{{{spec}}}{top}\n{lines[0]}{mid}\n"
             + "\n".join(lines[1:]) + f"{bottom}\n\\end{{tabular}}\\caption{{Results of run {index}.}}\\end{{table}}\n")
    return TableCase(rule, shape, columns, tuple(tuple(r) for r in printed if r), latex)


def table_cases() -> dict[str, list[TableCase]]:
    """Per document (``<class>-<rule>``): the 18 tables of one rule style, every shape in every
    column count; 8 documents, 144 tables."""
    out: dict[str, list[TableCase]] = {}
    index = 0
    for klass, rule in product(CLASSES, RULES):
        cases = []
        for shape, columns in product(SHAPES, COLUMNS):
            index += 1
            cases.append(table_case(index, rule, shape, columns))
        out[f"{klass}-{rule}"] = cases
    return out


def compile_pdf(folder: Path, klass: str, preamble: str, body: str) -> Path:
    """``body`` compiled in ``klass`` (a key of :data:`CLASSES`) under ``folder``; the PDF's path."""
    folder.mkdir(parents=True, exist_ok=True)
    source = (f"{CLASSES[klass]}\n\\usepackage[T1]{{fontenc}}\\usepackage{{lmodern}}{preamble}\n"
              f"\\title{{A Study of Generated Layouts}}\\author{{Jane Roe}}\n\\begin{{document}}\\maketitle\n"
              f"\\begin{{abstract}}{PROSE}\\end{{abstract}}\n\\section{{Introduction}}{PROSE}\n{body}\n"
              f"\\section{{Conclusion}}{PROSE}\n\\end{{document}}\n")
    (folder / "paper.tex").write_text(source)
    subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "paper.tex"], cwd=folder,
                   capture_output=True, timeout=300, check=False)
    return folder / "paper.pdf"


def table_document(folder: Path, name: str, cases: list[TableCase]) -> Path:
    """The PDF of one document of :func:`table_cases`: each table between two paragraphs."""
    klass = name.split("-")[0]
    body = "".join(f"{PROSE}\n{case.latex}\n{PROSE}\n\n" for case in cases)
    return compile_pdf(folder / name, klass, r"\usepackage{booktabs,multirow}", body)


ENVIRONMENTS = ("verbatim", "lst-tt", "lst-tt-numbers", "lst-default")
LISTINGS = ("short", "nested", "blank", "longline")


@dataclass(frozen=True)
class CodeCase:
    """One generated listing: ``lines`` as printed (indentation in spaces), ``latex`` its source,
    ``name`` the identifier its first line defines (unique in the corpus)."""

    name: str
    environment: str
    listing: str
    lines: tuple[str, ...]
    latex: str


def code_case(index: int, environment: str, listing: str) -> CodeCase:
    """The listing of the given environment (``verbatim``; ``lstlisting`` in a typewriter font, with
    or without line numbers, or in the class's default font) and shape: three lines with one
    indented (``short``), six lines indented to three depths (``nested``), two functions apart by a
    blank line (``blank``), one line of 85 characters or so (``longline``); its names carry ``index``."""
    name = f"step{index}"
    lines = {
        "short": [f"def {name}(x):", "    y = x * 2  # double", "    return y"],
        "nested": [f"def {name}(rows):", "    total = 0", "    for row in rows:", "        if row.ok:",
                   "            total += row.size", "    return total"],
        "blank": [f"def {name}(a):", "    return a + 1", "", f"def {name}_inverse(a):", "    return a - 1"],
        "longline": [f"{name} = combine_all_the_inputs(first_argument, second_argument, third_argument)"],
    }[listing]
    opening = {"verbatim": r"\begin{verbatim}", "lst-tt": r"\begin{lstlisting}[basicstyle=\ttfamily\small]",
               "lst-tt-numbers": r"\begin{lstlisting}[basicstyle=\ttfamily\small,numbers=left]",
               "lst-default": r"\begin{lstlisting}"}[environment]
    closing = r"\end{verbatim}" if environment == "verbatim" else r"\end{lstlisting}"
    latex = opening + "\n" + "\n".join(lines) + "\n" + closing + "\n"
    return CodeCase(name, environment, listing, tuple(lines), latex)


def code_cases() -> dict[str, list[CodeCase]]:
    """Per document (``<class>-<environment>``): the four listings of one environment; 8 documents,
    32 listings."""
    out: dict[str, list[CodeCase]] = {}
    index = 0
    for klass, environment in product(CLASSES, ENVIRONMENTS):
        cases = []
        for listing in LISTINGS:
            index += 1
            cases.append(code_case(index, environment, listing))
        out[f"{klass}-{environment}"] = cases
    return out


def code_document(folder: Path, name: str, cases: list[CodeCase]) -> Path:
    """The PDF of one document of :func:`code_cases`: each listing between two paragraphs."""
    klass = name.split("-")[0]
    body = "".join(f"{PROSE}\n{case.latex}{PROSE}\n\n" for case in cases)
    return compile_pdf(folder / name, klass, r"\usepackage{listings}", body)


OPERATORS = ("sum", "prod", "bigcup", "bigoplus")
PLACES = ("alone", "after", "two")  # the operator opens the display; follows "y ="; two operators


@dataclass(frozen=True)
class MathCase:
    """One displayed formula with a large operator: ``key`` a word of it (``\\text{...}``) unique
    in the corpus, ``limits`` each operator's ``(lower, upper)`` limits as printed (``upper`` empty
    when it has none), ``latex`` its source."""

    key: str
    operator: str
    place: str
    limits: tuple[tuple[str, str], ...]
    latex: str


def math_case(index: int, operator: str, place: str, upper: bool) -> MathCase:
    """The display of ``operator`` at ``place`` (:data:`PLACES`), its limits ``k=1`` and ``N``
    (``upper``) or ``k=1`` alone."""
    key = f"key{index}"

    def op(lower: str, top: str) -> str:
        return rf"\{operator}_{{{lower}}}" + (f"^{{{top}}}" if upper else "")

    formula = {"alone": op("k=1", "N") + rf" \text{{{key}}}_k",
               "after": rf"y = {op('k=1', 'N')} \text{{{key}}}_k",
               "two": rf"y = {op('k=1', 'N')} a_k + {op('j=2', 'M')} \text{{{key}}}_j"}[place]
    limits = [("k=1", "N" if upper else "")] + ([("j=2", "M" if upper else "")] if place == "two" else [])
    return MathCase(key, operator, place, tuple(limits), f"\\begin{{equation}}{formula}\\end{{equation}}\n")


def math_cases() -> dict[str, list[MathCase]]:
    """Per class: every operator at every place, with both limits and with the lower alone; 2
    documents, 48 displays."""
    out: dict[str, list[MathCase]] = {}
    index = 0
    for klass in CLASSES:
        cases = []
        for operator, place, upper in product(OPERATORS, PLACES, (True, False)):
            index += 1
            cases.append(math_case(index, operator, place, upper))
        out[klass] = cases
    return out


def math_document(folder: Path, name: str, cases: list[MathCase]) -> Path:
    """The PDF of one document of :func:`math_cases`: each display inside a paragraph."""
    body = "".join(f"{PROSE}\n{case.latex}where {PROSE}\n\n" for case in cases)
    return compile_pdf(folder / name, name, r"\usepackage{amsmath}", body)


def control_body(index: int) -> str:
    """One section of a control page that holds no code: a numbered heading and a subheading,
    prose, a table of tabular digits (:func:`table_case`, booktabs), a displayed equation with
    words in it and one of single letters spaced by TeX's math spacing (``t = a ◦ b``), a
    figure's caption under a drawn box and a list; its words carry ``index``."""
    table = table_case(index, "booktabs", "plain", 3 + index % 3).latex
    return (f"\\section{{Results of Setting {index}}}{PROSE}\n\\subsection{{Effect of Wording {index}}}{PROSE}\n"
            f"{table}\n{PROSE}\n\\begin{{equation}}\\text{{score}}_{{{index}}} = \\frac{{1}}{{N}}\\sum_{{i=1}}^{{N}} "
            f"\\left(x_i - \\bar{{x}}\\right)^2 + \\text{{bias term}}\\end{{equation}}\nwhere {PROSE}\n"
            f"\\begin{{equation}}t = a \\circ b, \\quad u = c \\circ d + e\\end{{equation}}\n"
            f"\\begin{{figure}}[h]\\centering\\rule{{3cm}}{{2cm}}\\caption{{Scores of setting {index} across "
            f"the rewrites, with 95\\% intervals.}}\\end{{figure}}\n"
            f"\\begin{{itemize}}\\item First finding {index}: {PROSE}\\item Second finding {index}.\\end{{itemize}}\n")


def control_document(folder: Path, klass: str, sections: int = 12) -> Path:
    """A document of :func:`control_body` sections in ``klass`` (a key of :data:`CLASSES`): the
    layouts a listing's rule must leave alone."""
    body = "".join(control_body(k) for k in range(1, sections + 1))
    return compile_pdf(folder / f"control-{klass}", klass, r"\usepackage{booktabs,amsmath}", body)
