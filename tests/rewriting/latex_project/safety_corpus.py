"""Generated corpora for the rewrite-safety tests: shell/pipe/Lua attempts and prose-only rewrites.

The attempts are built here from payloads (what runs a command, opens a pipe or runs Lua) and
disguises (how the command is reached), without using the code under test; each is put after
the first editable paragraph of a project. The prose rewrites are made with the rule-based
rewriter and with sentence-level edits that add only prose markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rhetorica.documents.latex.project import LatexProject, Paragraph, apply_replacements
from rhetorica.rewriting.rule_based import rewrite_text

CMD = "touch pwned"

#: What runs a shell command, opens a pipe or runs Lua, written plainly.
PAYLOADS: dict[str, str] = {
    "write18": f"\\immediate\\write18{{{CMD}}}",
    "write18-deferred": f"\\write18{{{CMD}}}",
    "expl3-shell-now": "\\ExplSyntaxOn \\sys_shell_now:n {touch~pwned} \\ExplSyntaxOff",
    "expl3-shell-shipout": "\\ExplSyntaxOn \\sys_shell_shipout:n {touch~pwned} \\ExplSyntaxOff",
    "expl3-iow": "\\ExplSyntaxOn \\iow_now:Nn \\c_term_iow {x} \\sys_shell_now:e {touch~pwned} \\ExplSyntaxOff",
    "iffileexists-pipe": f"\\IfFileExists{{|\"{CMD}\"}}{{}}{{}}",
    "iffileexists-pipe-bare": f"\\IfFileExists{{|{CMD}}}{{yes}}{{no}}",
    "inputiffileexists-pipe": f"\\InputIfFileExists{{|\"{CMD}\"}}{{}}{{}}",
    "input-pipe-braced": f"\\input{{|\"{CMD}\"}}",
    "input-pipe-primitive": f"\\input|\"{CMD}\" ",
    "openin-pipe": f"\\newread\\r \\openin\\r=|\"{CMD}\" \\closein\\r",
    "openin-pipe-quoted": f"\\newread\\r \\openin\\r=\"|{CMD}\" \\closein\\r",
    "includegraphics-pipe": f"\\includegraphics{{|\"{CMD}\"}}",
    "directlua": "\\directlua{os.execute(\"touch pwned\")}",
    "latelua": "\\latelua{os.execute(\"touch pwned\")}",
    "luaexec": "\\luaexec{os.execute(\"touch pwned\")}",
    "shellescape-pkg": f"\\ShellEscape{{{CMD}}}",
    "new-sty": "\\usepackage{evil}",
    "new-tex": "\\input{evil}",
    "everypar": f"\\everypar{{\\immediate\\write18{{{CMD}}}}}",
    "atenddocument": f"\\AtEndDocument{{\\immediate\\write18{{{CMD}}}}}",
    "scantokens": f"\\scantokens{{\\immediate\\write18{{{CMD}}}}}",
    "pdfprimitive": f"\\pdfprimitive\\immediate\\pdfprimitive\\write18{{{CMD}}}",
}
#: Files a payload brings with it (a new style or .tex file that runs the command).
PAYLOAD_FILES: dict[str, dict[str, str]] = {
    "new-sty": {"evil.sty": f"\\immediate\\write18{{{CMD}}}\n"},
    "new-tex": {"evil.tex": f"\\immediate\\write18{{{CMD}}}\n"},
}

#: How ``\\immediate\\write18`` is reached without being spelled.
DISGUISES: dict[str, str] = {
    "let": f"\\let\\w\\write \\immediate\\w18{{{CMD}}}",
    "let-equals": f"\\let\\w=\\write \\immediate\\w18{{{CMD}}}",
    "let-immediate": f"\\let\\now=\\immediate \\now\\write18{{{CMD}}}",
    "global-let": f"\\global\\let\\w\\write \\immediate\\w18{{{CMD}}}",
    "futurelet": f"\\futurelet\\w\\write\\relax \\immediate\\w18{{{CMD}}}",
    "def": f"\\def\\run{{\\immediate\\write18}}\\run{{{CMD}}}",
    "edef": f"\\edef\\run{{\\noexpand\\immediate\\noexpand\\write18}}\\run{{{CMD}}}",
    "gdef": f"\\gdef\\run#1{{\\immediate\\write18{{#1}}}}\\run{{{CMD}}}",
    "xdef": f"\\xdef\\run{{\\noexpand\\write}}\\immediate\\run18{{{CMD}}}",
    "newcommand": f"\\newcommand{{\\run}}[1]{{\\immediate\\write18{{#1}}}}\\run{{{CMD}}}",
    "providecommand": f"\\providecommand\\run{{\\immediate\\write18}}\\run{{{CMD}}}",
    "robustcommand": f"\\DeclareRobustCommand\\run{{\\immediate\\write18}}\\run{{{CMD}}}",
    "newdocumentcommand": f"\\NewDocumentCommand\\run{{m}}{{\\immediate\\write18{{#1}}}}\\run{{{CMD}}}",
    "expandafter-csname": f"\\expandafter\\immediate\\csname write\\endcsname18{{{CMD}}}",
    "csname-chain": f"\\csname immediate\\endcsname\\csname write\\endcsname18{{{CMD}}}",
    "csname-string": f"\\csname\\string w\\string r\\string i\\string t\\string e\\endcsname18{{{CMD}}}",
    "csname-numexpr": f"\\immediate\\csname write\\endcsname\\numexpr 9+9\\relax{{{CMD}}}",
    "csname-lowercase": f"\\lowercase{{\\csname WRITE\\endcsname}}18{{{CMD}}}",
    "romannumeral": f"\\immediate\\write\\romannumeral`\\^^R{{{CMD}}}",
    "catcode-pipe-escape": f"\\catcode`\\|=0 |immediate|write18{{{CMD}}}",
    "catcode-number": f"\\catcode124=0 |immediate|write18{{{CMD}}}",
    "catcode-active": f"\\catcode`\\!=13 \\def!{{\\immediate\\write18}}!{{{CMD}}}",
    "makeatletter": f"\\makeatletter\\@@input|\"{CMD}\" \\makeatother",
    "afterassignment": f"\\afterassignment\\immediate\\let\\x\\relax\\write18{{{CMD}}}",
}


def caret_hex(text: str, letter: str) -> str:
    """Every ``letter`` inside a control word written as ``^^xx`` (two lowercase hex digits)."""
    return re.sub(r"(\\[A-Za-z]*?)" + letter, lambda m: m.group(1) + f"^^{ord(letter):02x}", text)


def caret_char(text: str, letter: str) -> str:
    """Every ``letter`` inside a control word written as ``^^c`` (the character 64 code points away)."""
    code = ord(letter)
    shifted = chr(code - 64 if code >= 64 else code + 64)
    return re.sub(r"(\\[A-Za-z]*?)" + letter, lambda m: m.group(1) + "^^" + shifted, text)


def caret_backslash(text: str) -> str:
    """Every backslash written as ``^^5c``."""
    return text.replace("\\", "^^5c")


ENCODINGS: dict[str, Callable[[str], str]] = {
    "hex-i": lambda t: caret_hex(t, "i"),
    "char-i": lambda t: caret_char(t, "i"),
    "hex-backslash": caret_backslash,
    "hex-e": lambda t: caret_hex(t, "e"),
}


@dataclass(frozen=True)
class Attempt:
    """One generated attempt: a name, the line added after a paragraph, the files it brings."""

    name: str
    line: str
    files: tuple[tuple[str, str], ...] = ()


def attempts() -> list[Attempt]:
    """Every payload and disguise as written, then each ``\\immediate\\write18`` form, the expl3
    payloads and the pipe payloads under every ``^^`` encoding."""
    out = [Attempt(name, text, tuple(PAYLOAD_FILES.get(name, {}).items())) for name, text in PAYLOADS.items()]
    out += [Attempt(f"disguise:{name}", text) for name, text in DISGUISES.items()]
    encoded = ["write18", "expl3-shell-now", "iffileexists-pipe", "openin-pipe", "directlua", "let", "def",
               "csname-chain"]
    for name in encoded:
        text = PAYLOADS.get(name) or DISGUISES[name]
        for enc, encode in ENCODINGS.items():
            changed = encode(text)
            if changed != text:
                out.append(Attempt(f"{name}+{enc}", changed))
    out.append(Attempt("pipe-as-hex-bar", f"\\input{{^^7c\"{CMD}\"}}"))
    out.append(Attempt("iffileexists-pipe-as-hex-bar", f"\\IfFileExists{{^^7c{CMD}}}{{}}{{}}"))
    return out


def add_after_first_paragraph(project: LatexProject, attempt: Attempt) -> tuple[str, int]:
    """Write ``attempt`` on a new line after the project's first editable paragraph (and its
    files beside the main file); returns the file and 1-based line of the added line."""
    paragraph = project.paragraphs()[0]
    apply_replacements(project, {paragraph: paragraph.text + "\n" + attempt.line})
    folder = (project.root / project.main).parent
    for name, text in attempt.files:
        (folder / name).write_text(text, encoding="utf-8")
    return paragraph.file, paragraph.end_line + 1


# --- prose-only rewrites ------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[a-z]{3}\.) (?=[A-Z][a-z]+ )")


def _balanced(text: str) -> bool:
    return text.count("{") == text.count("}") and text.count("$") % 2 == 0 and "%" not in text


def _plain_words(text: str) -> Iterator[re.Match[str]]:
    """Lower-case words of 6+ letters standing in running text: outside braces and math, not right
    after a backslash or inside a comment."""
    depth, dollars = 0, 0
    last = 0
    for m in re.finditer(r"(?<![\\A-Za-z@])[a-z]{6,}(?![A-Za-z])", text):
        chunk = text[last : m.start()]
        depth += chunk.count("{") - chunk.count("}")
        dollars += chunk.count("$")
        last = m.start()
        line_start = text.rfind("\n", 0, m.start()) + 1
        if depth == 0 and dollars % 2 == 0 and "%" not in text[line_start : m.start()]:
            yield m


def confidence_up(text: str) -> str | None:
    return rewrite_text(text, "confidence:+")


def confidence_down(text: str) -> str | None:
    return rewrite_text(text, "confidence:-")


def emphasis(text: str) -> str | None:
    """The first plain word in ``\\emph{}`` and the second in ``\\textbf{}``."""
    words = list(_plain_words(text))[:2]
    if len(words) < 2:
        return None
    (a, b) = words
    return (text[: a.start()] + f"\\emph{{{a.group(0)}}}" + text[a.end() : b.start()] + f"\\textbf{{{b.group(0)}}}"
            + text[b.end():])


def quotes_and_tie(text: str) -> str | None:
    """A plain word in TeX quotes (``` ``word'' ```) and a ``~`` tie before it."""
    words = list(_plain_words(text))
    if not words or text[words[0].start() - 1 : words[0].start()] != " ":
        return None
    w = words[0]
    return text[: w.start() - 1] + f"~``{w.group(0)}''" + text[w.end():]


def footnote(text: str) -> str | None:
    """A prose footnote, with a dash and an ellipsis, at the paragraph's end."""
    stripped = text.rstrip()
    return stripped + "\\footnote{We state this once more here \\textemdash{} briefly, \\ldots{} and plainly.}" + text[len(stripped):]


def swap_sentences(text: str) -> str | None:
    """The first two sentences of the paragraph swapped (when both are balanced)."""
    parts = _SENTENCE_END.split(text, maxsplit=2)
    if len(parts) < 3 or not (_balanced(parts[0]) and _balanced(parts[1])):
        return None
    return parts[1] + " " + parts[0] + " " + parts[2]


def list_of_points(text: str) -> str | None:
    """The paragraph's sentences as an ``itemize`` list (when every one is balanced)."""
    parts = _SENTENCE_END.split(text.strip())
    if len(parts) < 2 or not all(_balanced(p) for p in parts):
        return None
    return "\\begin{itemize}\n" + "\n".join(f"\\item {p}" for p in parts) + "\n\\end{itemize}"


#: Prose-only rewrite dimensions: each maps a paragraph's text to its rewrite (``None``: not applicable).
PROSE_DIMENSIONS: dict[str, Callable[[str], str | None]] = {
    "confidence:+": confidence_up,
    "confidence:-": confidence_down,
    "emphasis": emphasis,
    "quotes-and-tie": quotes_and_tie,
    "footnote": footnote,
    "swap-sentences": swap_sentences,
    "itemize": list_of_points,
}
#: Each dimension is applied to every ``SHARES``-th paragraph, once per residue (three variants
#: per dimension and project, on different paragraphs).
SHARES = 3


def prose_rewrite(project: LatexProject, dimension: str, share: int) -> int:
    """Apply ``dimension`` to the paragraphs whose index is ``share`` modulo :data:`SHARES`; returns
    how many paragraphs changed."""
    rewrite = PROSE_DIMENSIONS[dimension]
    edits: dict[Paragraph, str] = {}
    for index, paragraph in enumerate(project.paragraphs()):
        if index % SHARES != share:
            continue
        new = rewrite(paragraph.text)
        if new is not None and new != paragraph.text:
            edits[paragraph] = new
    apply_replacements(project, edits)
    return len(edits)
