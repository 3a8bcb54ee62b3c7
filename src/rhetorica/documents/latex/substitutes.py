"""Stand-ins for files a shared LaTeX project lacks, used only in a compile's temporary copy.

Papers shared without their conference style (``neurips_2021.sty``, ``iclr2020_conference.sty``,
``ismir.sty``), their journal class (``wlscirep.cls``), a package Debian's TeX Live no longer ships
(``nth``), a bibliography style, or their figures cannot compile as they are. :class:`Substitutes`
names what is missing; :func:`apply_substitutes` writes, in the compile copy only:

- a missing package: a package of that name that accepts every option, loads ``natbib`` when the
  name is a venue style (the NeurIPS, ICLR and ICML styles load it; option ``nonatbib`` skips it)
  and then sets Times/Helvetica as those styles do (``ptm``/``phv``, scalable, so ``microtype``
  works), and provides the title-block and cross-reference commands such styles define (``\\And``
  and ``\\AND`` inside ``\\maketitle`` only, since ``amsmath`` has its own ``\\And``, ``\\iclrfinalcopy``, ISMIR's ``\\oneauthor``...``\\fourauthors``, ``\\multauthor``,
  ``\\figref``/``\\tabref``/``\\secref``/``\\eqnref``, the ``ack`` environment) plus ``\\nth``;
- a missing class: ``article`` with the class's options, ``authblk`` (``\\author[1]{...}``,
  ``\\affil``), ``calc``, ``enumitem``, ``xcolor`` (packages journal classes load), and at the end
  of the preamble ``amssymb`` and ``url`` unless the project loaded them (or ``hyperref``,
  ``newtxmath``) itself, the same commands, ``\\keywords``, and an ``abstract`` given before
  ``\\begin{document}`` kept and printed after the title;
- a missing bibliography style: a copy of ``plainnat.bst``;
- a missing figure: a framed box with the file name, by a redefinition of ``\\includegraphics``
  placed before the main file's first line (on that same line, so log line numbers do not move);
- missing pgfplots data (``\\addplot table {Data/x.dat}`` whose file the shared copy lacks): a
  two-point placeholder table of that name, so the axes are drawn and the document compiles;
- TikZ externalization (it runs pdflatex through shell escape, which is never allowed): disabled
  the same way, so the pictures are drawn inline.

Every command is defined with ``\\providecommand``: a real definition loaded elsewhere wins. These
texts are rhetorica's own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from pydantic import BaseModel, ConfigDict

_VENUE_STYLE = re.compile(r"iclr|neurips|nips|icml|aistats|colm|tmlr|uai|corl|colt", re.I)
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.+/ -]+$")

_COMMON = r"""
\expandafter\ifx\csname rhetorica@common\endcsname\relax
\def\rhetorica@common{}
\providecommand{\iclrfinalcopy}{}
\providecommand{\oneauthor}[2]{\author{#1\\#2}}
\providecommand{\twoauthors}[4]{\author{#1\\#2\and #3\\#4}}
\providecommand{\threeauthors}[6]{\author{#1\\#2\and #3\\#4\and #5\\#6}}
\providecommand{\fourauthors}[8]{\author{#1\\#2\and #3\\#4\and #5\\#6\and #7\\#8}}
\providecommand{\multauthor}[2]{\author{#1\\#2}}
\providecommand{\keywords}[1]{}
\AtBeginDocument{%
  \let\rhetorica@maketitle@\maketitle
  \renewcommand{\maketitle}{\begingroup\def\And{\and}\def\AND{\and}\rhetorica@maketitle@\endgroup}%
  \@ifundefined{ack}{\newenvironment{ack}{\section*{Acknowledgments}}{}}{}%
  \providecommand{\figref}[1]{Figure~\ref{#1}}%
  \providecommand{\tabref}[1]{Table~\ref{#1}}%
  \providecommand{\secref}[1]{Section~\ref{#1}}%
  \providecommand{\eqnref}[1]{Equation~(\ref{#1})}%
  \providecommand{\citen}[1]{\cite{#1}}%
  \providecommand{\nth}[1]{#1\textsuperscript{\ifcase#1 th\or st\or nd\or rd\else th\fi}}%
}
\fi
"""

_NO_EXTERNALIZE = r"\AtBeginDocument{\ifdefined\tikzexternaldisable\tikzexternaldisable\fi}"

_PACKAGE = r"""\NeedsTeXFormat{LaTeX2e}
\ProvidesPackage{%(name)s}[2000/01/01 rhetorica substitute for a missing package]
\newif\ifrhetorica@natbib
%(natbib)s
\DeclareOption{nonatbib}{\rhetorica@natbibfalse}
\DeclareOption*{}
\ProcessOptions\relax
\ifrhetorica@natbib\RequirePackage{natbib}\fi
%(fonts)s
"""

_CLASS = r"""\NeedsTeXFormat{LaTeX2e}
\ProvidesClass{%(name)s}[2000/01/01 rhetorica substitute for a missing class: article]
\DeclareOption*{\PassOptionsToClass{\CurrentOption}{article}}
\ProcessOptions\relax
\LoadClass{article}
\RequirePackage{authblk}
\RequirePackage{calc}
\RequirePackage{enumitem}
\RequirePackage{xcolor}
\RequirePackage{environ}
\AddToHook{begindocument/before}{%%
  \@ifpackageloaded{amssymb}{}{\@ifpackageloaded{newtxmath}{}{\RequirePackage{amssymb}}}%%
  \@ifpackageloaded{hyperref}{}{\@ifpackageloaded{url}{}{\RequirePackage{url}}}}
\let\rhetorica@abstract\relax
\let\rhetorica@abstractenv\abstract
\let\rhetorica@endabstractenv\endabstract
\RenewEnviron{abstract}{%%
  \ifx\@onlypreamble\@notprerr
    \rhetorica@abstractenv\BODY\rhetorica@endabstractenv
  \else
    \global\let\rhetorica@abstract\BODY
  \fi}
\let\rhetorica@maketitle\maketitle
\renewcommand{\maketitle}{\rhetorica@maketitle
  \ifx\rhetorica@abstract\relax\else
    \rhetorica@abstractenv\rhetorica@abstract\rhetorica@endabstractenv
  \fi}
"""

_GRAPHICS = (
    r"\makeatletter\AtBeginDocument{\let\rhetorica@includegraphics\includegraphics"
    r"\renewcommand{\includegraphics}[2][]{\@ifundefined{rhetorica@missing@#2}"
    r"{\rhetorica@includegraphics[#1]{#2}}{\fbox{\rule{0pt}{3em}\texttt{\detokenize{#2}}}}}}"
    r"%(names)s\makeatother"
)


#: A pgfplots table that stands in for a missing data file: two numeric rows, columns 0 and 1 (the
#: columns ``\addplot table`` reads when no ``x=``/``y=`` is given).
_PLOT_DATA = "0 0\n1 1\n"


class Substitutes(BaseModel):
    """What a compile replaces: missing package and class names (no extension), bibliography styles
    (no extension), figure file names (as written in ``\\includegraphics``) and pgfplots data files
    (as named in pgfplots' "Could not read table file" error, relative to the main file's folder)."""

    model_config = ConfigDict(frozen=True)

    packages: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    bibstyles: tuple[str, ...] = ()
    graphics: tuple[str, ...] = ()
    plot_data: tuple[str, ...] = ()
    tikz_externalize_off: bool = False

    @property
    def empty(self) -> bool:
        """Nothing replaced."""
        return not (self.packages or self.classes or self.bibstyles or self.graphics or self.plot_data
                    or self.tikz_externalize_off)

    def describe(self) -> tuple[str, ...]:
        """One line per replaced file, for the compile result."""
        return (
            *(f"{n}.sty: substitute package" for n in self.packages),
            *(f"{n}.cls: substitute class (article)" for n in self.classes),
            *(f"{n}.bst: substitute bibliography style (plainnat)" for n in self.bibstyles),
            *(f"{n}: missing figure drawn as a box" for n in self.graphics),
            *(f"{n}: missing plot data replaced by a two-point placeholder table" for n in self.plot_data),
            *(["TikZ externalization disabled (it needs shell escape)"] if self.tikz_externalize_off else []),
        )

    def merge(self, other: Substitutes) -> Substitutes:
        """The union of both (order kept, no duplicates)."""
        return Substitutes(
            packages=tuple(dict.fromkeys(self.packages + other.packages)),
            classes=tuple(dict.fromkeys(self.classes + other.classes)),
            bibstyles=tuple(dict.fromkeys(self.bibstyles + other.bibstyles)),
            graphics=tuple(dict.fromkeys(self.graphics + other.graphics)),
            plot_data=tuple(dict.fromkeys(self.plot_data + other.plot_data)),
            tikz_externalize_off=self.tikz_externalize_off or other.tikz_externalize_off,
        )


def apply_substitutes(build: Path, main: str, substitutes: Substitutes) -> None:
    """Write the substitutes into the compile copy ``build`` (beside the main file ``main``).

    Raises:
        ValueError: a substitute name has characters outside letters, digits and ``_.+/ -``.
    """
    for name in (*substitutes.packages, *substitutes.classes, *substitutes.bibstyles, *substitutes.graphics,
                 *substitutes.plot_data):
        if not _SAFE_NAME.match(name) or ".." in name:
            raise ValueError(f"refusing to substitute the file name {name!r} (unexpected characters)")
    folder = (build / main).parent
    for name in substitutes.packages:
        venue = bool(_VENUE_STYLE.search(name))
        natbib = r"\rhetorica@natbibtrue" if venue else ""
        fonts = r"\renewcommand{\rmdefault}{ptm}\renewcommand{\sfdefault}{phv}" if venue else ""
        _write(folder / f"{name}.sty", _PACKAGE % {"name": name, "natbib": natbib, "fonts": fonts} + _COMMON)
    for name in substitutes.classes:
        _write(folder / f"{name}.cls", _CLASS % {"name": name} + _COMMON)
    if substitutes.bibstyles:
        plainnat = subprocess.run(["kpsewhich", "plainnat.bst"], capture_output=True, text=True, check=False).stdout.strip()
        for name in substitutes.bibstyles:
            if plainnat:
                shutil.copyfile(plainnat, folder / f"{name}.bst")
    for name in substitutes.plot_data:
        if not (folder / name).exists():
            _write(folder / name, _PLOT_DATA)
    prefix = ""
    if substitutes.graphics:
        names = "".join(rf"\expandafter\def\csname rhetorica@missing@{n}\endcsname{{}}" for n in substitutes.graphics)
        prefix += _GRAPHICS % {"names": names}
    if substitutes.tikz_externalize_off:
        prefix += _NO_EXTERNALIZE
    if prefix:
        path = build / main
        path.write_bytes(prefix.encode() + path.read_bytes())


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
