"""Render LaTeX body text as Markdown-ish plain text.

Conventions (what a reviewer model sees):
- math is kept verbatim as LaTeX: inline ``$...$``/``\\(...\\)``, display ``\\[...\\]`` and math
  environments (``equation``, ``align`` ...) on their own lines, their ``\\label`` included;
- citations and cross-references are kept verbatim (``\\citep{key1,key2}``, ``\\ref{sec:x}``), and
  so is every ``\\label{sec:x}`` they point at: at the start of a section's text, inside its
  equation, at the end of its float's caption line. Every ``\\ref`` a reader sees can be followed to
  its target by key. Resolving references to numbers instead would mean re-implementing LaTeX's
  counters (numbering styles, appendices, cleveref names, subequations) and a wrong number is worse
  than a key; the rewriters' protected spans keep labels and refs alike
  (:mod:`rhetorica.validation.spans`);
- figures are dropped, their captions kept as lines ``Figure: <caption>`` (``Subfigure:`` inside a
  ``subfigure``), tables become ``Table: <caption>`` plus ``| a | b |`` rows;
- ``\\emph`` -> ``*x*``, ``\\textbf`` -> ``**x**``, ``\\texttt`` -> backticks, ``\\href`` ->
  ``[text](url)``, footnotes -> ``^[text]``, lists -> ``- item`` / ``1. item``;
- sectioning commands become markers that :func:`split_sections` turns into sections.
"""

from __future__ import annotations

import re
import unicodedata

from rhetorica.documents.latex.source import read_group

MATH_ENVS = {
    "equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*",
    "eqnarray", "eqnarray*", "flalign", "flalign*", "alignat", "alignat*", "displaymath", "math",
    "dmath", "dmath*",
}
FIGURE_ENVS = {"figure", "figure*", "wrapfigure", "SCfigure", "subfigure", "wrapfig"}
TABLE_ENVS = {"table", "table*", "wraptable", "longtable", "sidewaystable"}
TABULAR_ENVS = {"tabular", "tabular*", "tabularx", "tabu", "longtable", "tabulary", "array"}
DROP_ENVS = {
    "comment", "tikzpicture", "picture", "pgfpicture", "thebibliography", "titlepage",
    "acronym", "filecontents", "filecontents*",
}
VERBATIM_ENVS = {"verbatim", "verbatim*", "lstlisting", "minted", "Verbatim", "alltt"}
LIST_ENVS = {"itemize": "-", "enumerate": "1.", "description": "-", "compactitem": "-", "compactenum": "1."}
THEOREM_ENVS = {
    "theorem", "lemma", "proposition", "corollary", "definition", "remark", "proof", "example",
    "assumption", "claim", "conjecture", "observation", "fact", "hypothesis", "note", "property",
}
SECTION_LEVELS = {
    "part": 1, "chapter": 1, "section": 1, "subsection": 2, "subsubsection": 3,
}
KEEP_VERBATIM = re.compile(
    r"(cite[a-zA-Z]*|[a-zA-Z]*cite[a-zA-Z]*|ref|eqref|autoref|cref|Cref|pageref|vref|nameref|"
    r"labelcref|crefrange|Crefrange|label)"
)
_LABEL = re.compile(r"\\label\s*\{[^{}]*\}")
DROP_WITH_ARGS = {
    # command: number of mandatory arguments dropped with it
    "includegraphics": 1, "vspace": 1, "hspace": 1, "bibliographystyle": 1,
    "setlength": 2, "addtolength": 2, "setcounter": 2, "addtocounter": 2, "color": 1,
    "pagestyle": 1, "thispagestyle": 1, "title": 1, "author": 1, "date": 1, "thanks": 1,
    "affil": 1, "affiliation": 1, "email": 1, "institute": 1, "address": 1, "keywords": 1,
    "nocite": 1, "input": 1, "include": 1, "usepackage": 1, "captionsetup": 1, "graphicspath": 1,
    "newlength": 1, "hypersetup": 1, "multauthor": 2, "icmlauthor": 2, "icmlaffiliation": 2,
    "icmlcorrespondingauthor": 2, "icmlkeywords": 1, "titlespacing": 4, "DeclareMathOperator": 2,
    "newtheorem": 2, "theoremstyle": 1, "bibliography": 1, "addbibresource": 1, "newif": 0,
    "enlargethispage": 1, "linespread": 1, "definecolor": 3, "fontsize": 2, "renewcommand": 2,
    "crefname": 3, "Crefname": 3, "setstretch": 1, "algrenewcommand": 1, "algnewcommand": 1,
    "rule": 2, "raisebox": 1, "phantom": 1, "hphantom": 1, "vphantom": 1, "looseness": 0,
    "pdfrender": 1,
}
#: pdfTeX's primitive whose argument is PDF page code, never typeset text (pdfTeX manual,
#: ``\pdfliteral [shipout] [direct|page|raw] {...}``; ``\special`` goes with the I/O primitives):
#: its keywords and braced argument are dropped.
PDF_CODE = re.compile(r"\\pdfliteral(?:\s*shipout)?(?:\s*(?:direct|page|raw))?\s*(?=\{)")
WORD_COMMANDS = {
    "ldots": "...", "dots": "...", "textendash": "–", "textemdash": "—", "LaTeX": "LaTeX",
    "TeX": "TeX", "eg": "e.g.", "ie": "i.e.", "etal": "et al.", "etc": "etc.", "wrt": "w.r.t.",
    "textbackslash": "\\", "textasciitilde": "~", "textbar": "|", "S": "§", "P": "¶",
    "copyright": "©", "dag": "†", "ddag": "‡", "textdagger": "†", "textdaggerdbl": "‡",
    "i": "ı", "o": "ø", "O": "Ø", "ss": "ß", "ae": "æ", "AE": "Æ", "aa": "å", "AA": "Å", "l": "ł",
    "L": "Ł", "oe": "œ", "OE": "Œ", "textregistered": "®", "texttrademark": "™",
    "checkmark": "\u2713", "textless": "<", "textgreater": ">", "textquoteright": "’", "textquoteleft": "‘",
    "newline": "\n", "linebreak": "\n", "par": "\n\n", "item": "\n- ", "quad": " ", "qquad": " ",
    "enspace": " ", "space": " ", "noindent": "", "centering": "", "maketitle": "",
    "appendix": "", "today": "", "and": ", ", "And": ", ", "AND": ", ",
    "State": "\n", "Statex": "\n", "Require": "\nRequire: ", "Ensure": "\nEnsure: ",
    "Return": "return ", "EndFor": "\nend for", "EndIf": "\nend if", "EndWhile": "\nend while",
    "EndFunction": "\nend function", "EndProcedure": "\nend procedure", "Else": "\nelse",
}
FORMAT = {
    "emph": "*", "textit": "*", "textsl": "*", "mathit": "*", "textbf": "**", "bfseries": "",
    "texttt": "`",
}
ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a", "d": "\u0323", "b": "\u0331",
}
SYMBOLS = {"%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}", ",": " ",
           " ": " ", ";": " ", ":": " ", "!": "", "/": "", "-": "", "@": "", "\n": " ", "\t": " "}

MARK = "\x01"  # section marker: \x01<level>|<title>\x01
PH = "\x00"  # math placeholder: \x00<n>\x00
# Compiled once and matched at a position (pattern.match(text, i)), so that reading a long body
# neither recompiles nor copies the rest of the text at every command.
_MATH_START = re.compile(r"[\\$]")  # the only characters that can open a math span
_PLAIN = re.compile(r"[^\\{}~&`'-]+")  # a run of characters that render as themselves
_BEGIN = re.compile(r"\\begin\{([a-zA-Z*]+)\}")
_CONTROL_WORD = re.compile(r"\\([a-zA-Z@]+)(\*?)")
_IO_ARGS = re.compile(r"\s*(?:\d+|\\[a-zA-Z@]+|-?\d+)?\s*=?\s*")
_DIMENSION = re.compile(r"\s*=?\s*-?[\d.]+\s*(pt|em|ex|cm|mm|in|bp|sp|mu)\b")
_ACCENT_BASE = re.compile(r"\s*(\\[a-zA-Z]+|.)")


class Renderer:
    """Turns LaTeX body source into Markdown-ish text; math is stored aside in ``self.math``."""

    def __init__(self) -> None:
        self.math: list[str] = []

    # ---- math -------------------------------------------------------------------------------
    def protect_math(self, text: str) -> str:
        """Replace every math span by a placeholder; keep the LaTeX in ``self.math``."""
        out: list[str] = []
        i, n = 0, len(text)
        start_plain = 0
        while i < n:
            ch = text[i]
            span: tuple[int, str, bool] | None = None  # (end index, source, display)
            if ch == "\\" and i + 1 < n:
                nxt = text[i + 1]
                if nxt == "\\" or nxt == "$":
                    i += 2
                    continue
                if nxt in "[(":
                    close = "\\]" if nxt == "[" else "\\)"
                    j = text.find(close, i + 2)
                    j = n if j == -1 else j + 2
                    span = (j, text[i:j], nxt == "[")
                elif text.startswith("\\begin{", i):
                    m = _BEGIN.match(text, i)
                    if m and m.group(1) in MATH_ENVS:
                        end_tag = f"\\end{{{m.group(1)}}}"
                        j = text.find(end_tag, i)
                        j = n if j == -1 else j + len(end_tag)
                        span = (j, text[i:j], True)
                elif text.startswith("\\ensuremath", i):
                    group = read_group(text, i + len("\\ensuremath"))
                    if group is not None:
                        span = (group[1], f"${group[0]}$", False)
            elif ch == "$":
                display = text.startswith("$$", i)
                delim = "$$" if display else "$"
                j = i + len(delim)
                while j < n:
                    if text[j] == "\\":
                        j += 2
                        continue
                    if text.startswith(delim, j):
                        break
                    j += 1
                j = min(n, j + len(delim))
                span = (j, text[i:j], display)
            if span is None:
                found = _MATH_START.search(text, i + 1)
                i = found.start() if found else n
                continue
            out.append(text[start_plain:i])
            end, source, display = span
            # inline math stays on one line (a macro whose body spans lines, e.g. \linefrac, must
            # not break the text's line or paragraph); display math keeps its own lines
            self.math.append(source.strip() if display else _one_line(source))
            token = f"{PH}{len(self.math) - 1}{PH}"
            out.append(f"\n\n{token}\n\n" if display else token)
            i = start_plain = end
        out.append(text[start_plain:])
        return "".join(out)

    def restore_math(self, text: str) -> str:
        return re.sub(f"{PH}(\\d+){PH}", lambda m: self.math[int(m.group(1))], text)

    # ---- main scanner -----------------------------------------------------------------------
    def render(self, text: str) -> str:
        """Render a fragment (math already protected)."""
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "\\":
                piece, i = self._command(text, i)
                out.append(piece)
            elif ch == "{":
                group = read_group(text, i)
                assert group is not None
                out.append(self.render(group[0]))
                i = group[1]
            elif ch == "}":
                i += 1
            elif ch == "~":
                out.append(" ")
                i += 1
            elif ch == "&":
                out.append(" | ")
                i += 1
            elif text.startswith("---", i):
                out.append("—")
                i += 3
            elif text.startswith("--", i):
                out.append("–")
                i += 2
            elif text.startswith("``", i) or text.startswith("''", i):
                out.append('"')
                i += 2
            else:
                plain = _PLAIN.match(text, i)  # None at a lone "-", "`" or "'"
                out.append(plain.group() if plain else ch)
                i = plain.end() if plain else i + 1
        return "".join(out)

    def _command(self, text: str, i: int) -> tuple[str, int]:
        n = len(text)
        m = _CONTROL_WORD.match(text, i)
        if not m:
            sym = text[i + 1 : i + 2]
            if sym == "\\":
                j = i + 2
                opt = read_group(text, j, "[", "]")
                return "\n", opt[1] if opt else j
            if sym in ACCENTS and sym not in "~":
                return self._accent(sym, text, i + 2)
            if sym == "~":
                return self._accent(sym, text, i + 2)
            return SYMBOLS.get(sym, sym), i + 2
        name = m.group(1)
        j = m.end()
        if name in ACCENTS and len(name) == 1 and read_group(text, j) is not None:
            return self._accent(name, text, j)
        if name == "begin":
            return self._environment(text, j)
        if name == "end":
            group = read_group(text, j)
            return "", group[1] if group else j
        if name in SECTION_LEVELS or name in {"paragraph", "subparagraph"}:
            opt = read_group(text, j, "[", "]")
            j = opt[1] if opt else j
            group = read_group(text, j)
            labels = " ".join(_LABEL.findall(group[0])) if group else ""  # \section{Intro\label{s}}
            title = self._inline(_LABEL.sub("", group[0])) if group else ""
            j = group[1] if group else j
            if name in SECTION_LEVELS:
                return f"\n\n{MARK}{SECTION_LEVELS[name]}|{title}{MARK}\n\n{labels}", j
            return f"\n\n**{title.rstrip('.')}.** ", j
        if KEEP_VERBATIM.fullmatch(name):
            k = j
            while True:
                opt = read_group(text, k, "[", "]")
                if opt is None:
                    break
                k = opt[1]
            group = read_group(text, k)
            if group is None:
                return "", j
            if name == "nocite":
                return "", group[1]
            return text[i : group[1]], group[1]
        if name in FORMAT:
            group = read_group(text, j)
            if group is None:
                return "", j
            inner = self.render(group[0]).strip()
            mark = FORMAT[name]
            return (f"{mark}{inner}{mark}" if inner else ""), group[1]
        if name in {"write", "message", "typeout", "openout", "closeout", "openin", "read", "special"}:
            # \write18{...} (shell escape) and other I/O primitives print nothing on the page:
            # the stream number or handle and the braced text go with the command
            k = _IO_ARGS.match(text, j)
            k_end = k.end() if k else j
            group = read_group(text, k_end)
            return "", group[1] if group else k_end
        if name == "immediate":
            return "", j
        if name == "verb" and j < n:
            delim = text[j]
            end = text.find(delim, j + 1)
            end = n if end == -1 else end
            return f"`{text[j + 1:end]}`", end + 1
        if name == "url":
            group = read_group(text, j)
            return (group[0].strip(), group[1]) if group else ("", j)
        if name == "href":
            url = read_group(text, j)
            if url is None:
                return "", j
            label = read_group(text, url[1])
            if label is None:
                return url[0].strip(), url[1]
            return f"[{self._inline(label[0])}]({url[0].strip()})", label[1]
        if name == "tnote":  # threeparttable's note mark, set as a superscript
            group = read_group(text, j)
            return (f"^{self._inline(group[0])}", group[1]) if group else ("", j)
        if name in {"footnote", "footnotetext"}:
            opt = read_group(text, j, "[", "]")
            group = read_group(text, opt[1] if opt else j)
            if group is None:
                return "", j
            return f"^[{self._inline(group[0])}]", group[1]
        if name in {"caption", "subcaption", "captionof"}:
            # a caption outside a figure/table environment (e.g. \captionof in minipage)
            k = j
            if name == "captionof":
                kind = read_group(text, k)
                k = kind[1] if kind else k
            opt = read_group(text, k, "[", "]")
            group = read_group(text, opt[1] if opt else k)
            if group is None:
                return "", j
            return f"\n\nFigure: {self._inline(group[0])}\n\n", group[1]
        if name in {"texorpdfstring"}:
            first = read_group(text, j)
            second = read_group(text, first[1]) if first else None
            if first is None:
                return "", j
            return self.render(first[0]), (second[1] if second else first[1])
        if name in {"textcolor", "colorbox"}:
            color = read_group(text, j)
            body = read_group(text, color[1]) if color else None
            if body is None:
                return "", j
            return self.render(body[0]), body[1]
        if name in {"multicolumn", "multirow", "resizebox", "scalebox", "parbox", "makebox",
                    "framebox", "adjustbox", "rotatebox", "fbox", "shortstack"}:
            skip = {"multicolumn": 2, "multirow": 2, "resizebox": 2, "scalebox": 1, "parbox": 1,
                    "makebox": 0, "framebox": 0, "adjustbox": 1, "rotatebox": 1, "fbox": 0,
                    "shortstack": 0}[name]
            k = j
            opt = read_group(text, k, "[", "]")
            k = opt[1] if opt else k
            for _ in range(skip):
                g = read_group(text, k)
                if g is None:
                    break
                k = g[1]
                opt = read_group(text, k, "[", "]")
                k = opt[1] if opt else k
            return "", k  # the content group that follows renders as a plain group
        if name in {"ding", "Pisymbol"}:
            if name == "Pisymbol":  # \Pisymbol{pzd}{51}: the font family, then the code
                family = read_group(text, j)
                j = family[1] if family and family[0].strip() == "pzd" else j
            group = read_group(text, j)
            if group is None:
                return "", j
            return dingbat(group[0]), group[1]
        if name in {"num", "si", "SI", "qty"}:
            opt = read_group(text, j, "[", "]")
            value = read_group(text, opt[1] if opt else j)
            if value is None:
                return "", j
            k = value[1]
            out = value[0].strip()
            if name in {"SI", "qty"}:
                unit = read_group(text, k)
                if unit:
                    k = unit[1]
                    out += " " + re.sub(r"\\([a-zA-Z]+)", r"\1", unit[0]).strip()
            return out, k
        if name in WORD_COMMANDS:
            out = WORD_COMMANDS[name]
            if text[j : j + 2] == "{}":
                j += 2
            elif out and out[-1].isalnum() and text[j : j + 1] == " ":
                out += " "
            return out, j
        code = PDF_CODE.match(text, i) if name == "pdfliteral" else None
        if code and (g := read_group(text, code.end())) is not None:
            return "", g[1]
        if name in DROP_WITH_ARGS:
            k = j
            opt = read_group(text, k, "[", "]")
            k = opt[1] if opt else k
            for _ in range(DROP_WITH_ARGS[name]):
                g = read_group(text, k)
                if g is None:
                    break
                k = g[1]
                opt = read_group(text, k, "[", "]")
                k = opt[1] if opt else k
            return "", k
        # unknown command: drop the control word and optional args; a following {group} renders
        k = j
        opt = read_group(text, k, "[", "]") if text[k : k + 1] == "[" else None
        k = opt[1] if opt else k
        # swallow dimension assignments such as \vskip 2pt / \itemsep=0pt
        dim = _DIMENSION.match(text, k)
        if dim:
            k = dim.end()
        return "", k

    def _accent(self, accent: str, text: str, j: int) -> tuple[str, int]:
        group = read_group(text, j)
        if group is not None:
            base, k = self.render(group[0]), group[1]
        else:
            m = _ACCENT_BASE.match(text, j)
            if not m:
                return "", j
            base = self.render(m.group(1))
            k = m.end()
        if not base:
            return "", k
        return unicodedata.normalize("NFC", base[0] + ACCENTS[accent] + base[1:]), k

    def _inline(self, text: str) -> str:
        """Render a title-like argument on one line."""
        return re.sub(r"\s+", " ", self.render(text)).strip()

    # ---- environments -----------------------------------------------------------------------
    def _environment(self, text: str, j: int) -> tuple[str, int]:
        group = read_group(text, j)
        if group is None:
            return "", j
        env, k = group[0].strip(), group[1]
        body, end = _environment_body(text, env, k)
        if env in DROP_ENVS:
            return "", end
        if env in VERBATIM_ENVS:
            return f"\n\n```\n{body.strip(chr(10))}\n```\n\n", end
        if env in FIGURE_ENVS:
            return self._captions(body, "Figure"), end
        if env in TABLE_ENVS or env in TABULAR_ENVS:
            return self._table(env, body), end
        if env in {"algorithm", "algorithm*"}:
            caption = self._captions(body, "Algorithm")
            rest = _remove_captions(body)
            return caption + self.render(rest) + "\n\n", end
        if env in LIST_ENVS:
            return self._list(body, LIST_ENVS[env]), end
        if env in THEOREM_ENVS:
            opt = read_group(body, 0, "[", "]")
            note = f" ({self._inline(opt[0])})" if opt else ""
            body = body[opt[1]:] if opt else body
            label = env.capitalize()
            head = f"*{label}.*" if env == "proof" else f"**{label}{note}.**"
            return f"\n\n{head} {self.render(body).strip()}\n\n", end
        if env in {"abstract"}:
            return "", end
        # environments with arguments of their own (minipage{width}, tabularx...) lose them
        opt = read_group(body, 0, "[", "]")
        if env in {"minipage", "wrapfigure", "multicols", "adjustbox"}:
            body = body[opt[1]:] if opt else body
            arg = read_group(body, 0)
            body = body[arg[1]:] if arg else body
        return "\n\n" + self.render(body) + "\n\n", end

    def _captions(self, body: str, kind: str) -> str:
        """Caption lines of a float; captions inside ``subfigure``/``subtable`` are prefixed ``Sub``."""
        sub_ranges = [(m.start(), m.end()) for m in re.finditer(
            r"\\begin\{sub(figure|table)\}.*?\\end\{sub(figure|table)\}", body, re.DOTALL)]
        lines: list[str] = []
        for m in re.finditer(r"\\(caption|subcaption|subfigure|subfloat|subtable)(?![a-zA-Z])\*?", body):
            k = m.end()
            opt = read_group(body, k, "[", "]")
            if m.group(1) in {"subfigure", "subfloat", "subtable"}:
                if opt and opt[0].strip():
                    lines.append(f"Sub{kind.lower()}: {self._inline(opt[0])}")
                continue
            group = read_group(body, opt[1] if opt else k)
            if group is None:
                continue
            inner = self._inline(group[0])
            if not inner:
                continue
            inside_sub = any(a <= m.start() < b for a, b in sub_ranges) or m.group(1) == "subcaption"
            lines.append(f"{'Sub' + kind.lower() if inside_sub else kind}: {inner}")
        labels = [m.group(0) for m in _LABEL.finditer(body)]  # the float's labels end its caption line
        if labels:
            lines[-1:] = [" ".join([*lines[-1:], *labels])]
        return "\n\n" + "\n".join(lines) + "\n\n" if lines else "\n\n"

    def _table(self, env: str, body: str) -> str:
        caption = self._captions(body, "Table") if env not in TABULAR_ENVS or env == "longtable" else ""
        rows: list[str] = []
        for m in re.finditer(r"\\begin\{(tabular\*?|tabularx|tabu|tabulary|array)\}", body):
            inner, _ = _environment_body(body, m.group(1), m.end())
            rows.extend(self._tabular_rows(inner, m.group(1)))
        if env in TABULAR_ENVS:
            rows.extend(self._tabular_rows(_remove_captions(body), env))
        table = "\n".join(rows)
        return f"{caption.rstrip()}\n{table}\n\n" if rows else caption

    def _tabular_rows(self, inner: str, env: str) -> list[str]:
        k = 0
        for _ in range({"tabular*": 2, "tabularx": 2, "tabulary": 2}.get(env, 1)):
            opt = read_group(inner, k, "[", "]")
            k = opt[1] if opt else k
            spec = read_group(inner, k)
            k = spec[1] if spec else k
        inner = re.sub(r"\\(hline|toprule|midrule|bottomrule|endhead|endfirsthead|endfoot|endlastfoot)\b", "", inner[k:])
        inner = re.sub(r"\\(cline|cmidrule)(\([^)]*\))?\{[^{}]*\}", "", inner)
        rows = []
        for line in self.render(inner).split("\n"):
            cells = [re.sub(r"\s+", " ", c).strip() for c in line.split(" | ")]
            if any(cells):
                rows.append("| " + " | ".join(cells) + " |")
        return rows

    def _list(self, body: str, marker: str) -> str:
        parts = re.split(r"\\item(?![a-zA-Z])", body)
        out: list[str] = []
        for part in parts[1:]:
            label = read_group(part, 0, "[", "]")
            prefix = ""
            if label is not None:
                prefix = f"**{self._inline(label[0])}** "
                part = part[label[1]:]
            text = re.sub(r"[ \t]*\n[ \t]*", " ", self.render(part).strip())
            out.append(f"{marker} {prefix}{text}")
        return "\n\n" + "\n".join(out) + "\n\n"


# ZapfDingbats codes (pifont's ``\\ding``) whose Unicode character is not at the block's offset
# (Adobe's zapfdingbats.txt glyph list through ZapfDingbats.afm's encoding)
_DINGBATS_ELSEWHERE = {
    37: "\u260e", 42: "\u261b", 43: "\u261e", 72: "\u2605", 108: "\u25cf", 110: "\u25a0", 115: "\u25b2",
    116: "\u25bc", 117: "\u25c6", 119: "\u25d7", 168: "\u2663", 169: "\u2666", 170: "\u2665", 171: "\u2660",
    213: "\u2192", 214: "\u2194", 215: "\u2195",
}


def dingbat(code: str) -> str:
    """The Unicode character pifont's ``\\ding{code}`` prints (ZapfDingbats, e.g. 51 -> "✓",
    55 -> "✗", 72 -> "★", 172 -> "①").

    ``code`` is a TeX number as written: decimal (``51``), octal (``'63``), hexadecimal (``"33``)
    or a character (`` `3 ``). A code with no glyph, or no number, prints nothing here (``""``):
    the digits of a code are never page text.
    """
    code = code.strip()
    try:
        if code[:1] in {"'", '"'}:
            value = int(code[1:], 8 if code[0] == "'" else 16)
        elif code[:1] == "`":
            value = ord(code[-1])
        else:
            value = int(code)
    except (ValueError, IndexError):
        return ""
    if value in _DINGBATS_ELSEWHERE:
        return _DINGBATS_ELSEWHERE[value]
    if 33 <= value <= 126:
        return chr(0x2700 + value - 0x20)
    if 128 <= value <= 141:
        return chr(0x2768 + value - 128)
    if 172 <= value <= 181:
        return chr(0x2460 + value - 172)
    if 161 <= value <= 254 and value != 240:
        return chr(0x26C0 + value)
    return ""


def _environment_body(text: str, env: str, start: int) -> tuple[str, int]:
    """Body of ``env`` starting at ``start`` (nesting of the same name respected) and end index."""
    begin_tag, end_tag = f"\\begin{{{env}}}", f"\\end{{{env}}}"
    depth, k = 1, start
    while True:
        nb, ne = text.find(begin_tag, k), text.find(end_tag, k)
        if ne == -1:
            return text[start:], len(text)
        if nb != -1 and nb < ne:
            depth, k = depth + 1, nb + len(begin_tag)
            continue
        depth -= 1
        if depth == 0:
            return text[start:ne], ne + len(end_tag)
        k = ne + len(end_tag)


def _remove_captions(body: str) -> str:
    out, pos = [], 0
    for m in re.finditer(r"\\caption\*?", body):
        if m.start() < pos:
            continue
        opt = read_group(body, m.end(), "[", "]")
        group = read_group(body, opt[1] if opt else m.end())
        if group is None:
            continue
        out.append(body[pos : m.start()])
        pos = group[1]
    out.append(body[pos:])
    return "".join(out)


_BLOCK_START = re.compile(r"^(\||- |\d+\. |Figure:|Table:|Sub\w+:|Algorithm:|```|\x00\d+\x00$)")


def tidy(text: str) -> str:
    """Normalise whitespace: one paragraph per line, block lines (lists, tables, captions) kept."""
    text = text.replace("\r", "")
    # runs of spaces, tabs and no-break spaces become one space (the same as re.sub("[ \t\u00a0]+", " "),
    # without a match per single space between words)
    text = re.sub("  +", " ", text.replace("\t", " ").replace("\u00a0", " "))
    blocks = re.split(r"\n\s*\n", text)
    out: list[str] = []
    for block in blocks:
        lines = [ln.strip() for ln in block.split("\n") if ln.strip()]
        if not lines:
            continue
        if any(_BLOCK_START.match(ln) for ln in lines):
            merged: list[str] = []
            for ln in lines:
                if merged and not _BLOCK_START.match(ln) and not _BLOCK_START.match(merged[-1]):
                    merged[-1] += " " + ln
                else:
                    merged.append(ln)
            out.append("\n".join(merged))
        else:
            out.append(" ".join(lines))
    joined = "\n\n".join(out)
    return re.sub(r" +([.,;:!?)])", r"\1", joined).replace("( ", "(")


def _one_line(math: str) -> str:
    """Inline math with each run of white space holding a line break made one space, and no space
    just inside its delimiters (``$ a $`` stays as written when on one line)."""
    if "\n" not in math:
        return math
    flat = re.sub(r"\s*\n\s*", " ", math)
    m = re.fullmatch(r"(\$|\\\()\s*(.*?)\s*(\$|\\\))", flat, re.S)
    return f"{m.group(1)}{m.group(2)}{m.group(3)}" if m else flat


def split_sections(text: str) -> list[tuple[int, str, str]]:
    """Split rendered text at section markers into ``(level, title, body)``; leading text has
    level 1 and title ``""``.
    """
    parts = re.split(f"{MARK}(\\d)\\|(.*?){MARK}", text, flags=re.DOTALL)
    sections: list[tuple[int, str, str]] = [(1, "", parts[0])]
    for k in range(1, len(parts), 3):
        sections.append((int(parts[k]), parts[k + 1].strip(), parts[k + 2]))
    return sections
