"""Small PDFs written operator by operator, for the PDF tests: text runs with their own font, size
and rise (``Ts``: superscripts and subscripts), Helvetica (``/F1``), Helvetica-Bold (``/F2``),
Courier (``/F3``, monospaced), Helvetica-BoldOblique (``/F4``) and Courier-BoldOblique (``/F5``), on
612 x 792 pt pages."""

from __future__ import annotations

from pathlib import Path

from tests.documents.pdf_factory import write_objects

# a run: (font "F1" ... "F5", size in pt, rise in pt, text); a line: (x, y, [runs]); a
# drawing: a string of PDF path operators ("100 500 m 300 500 l S"), drawn as given
Run = tuple[str, float, float, str]
TextLine = tuple[float, float, list[Run]]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def line(x: float, y: float, text: str, size: float = 10, font: str = "F1") -> TextLine:
    """One run of plain text."""
    return (x, y, [(font, size, 0.0, text)])


def rule(x0: float, x1: float, y: float, width: float = 0.5) -> str:
    """A horizontal rule from ``x0`` to ``x1`` at height ``y``, ``width`` pt thick (a filled
    rectangle, as TeX draws ``\\hrule``)."""
    return f"{x0} {y} {x1 - x0} {width} re f"


def write(path: Path, pages: list[list[TextLine | str]]) -> Path:
    """Write ``pages`` (lists of lines and drawings; ``y`` from the page's bottom) as a PDF;
    returns ``path``."""
    first = 8
    kids = " ".join(f"{first + 2 * i} 0 R" for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-BoldOblique >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier-BoldOblique >>",
    ]
    for i, lines in enumerate(pages):
        ops = []
        for item in lines:
            if isinstance(item, str):
                ops.append(item)
                continue
            x, y, runs = item
            body = " ".join(f"/{font} {size} Tf {rise} Ts ({_escape(text)}) Tj" for font, size, rise, text in runs)
            ops.append(f"BT {x} {y} Td {body} ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {first + 2 * i + 1} 0 R "
            "/Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R /F4 6 0 R /F5 7 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return write_objects(path, objects)
