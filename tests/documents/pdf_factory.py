"""Write small, valid PDFs with real text for tests (Helvetica, one text line per entry)."""

from __future__ import annotations

from pathlib import Path

# A page is a list of (x, y, size, bold, text) or (x, y, size, bold, text, angle in degrees);
# y is from the bottom of a 612 x 792 pt page.
PageSpec = list[tuple]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_objects(path: Path, objects: list[bytes]) -> Path:
    """Write PDF object bodies as a PDF 1.4 file with a correct cross-reference table; return ``path``.

    ``objects[i]`` becomes object ``i + 1`` (generation 0), so references are ``"<i + 1> 0 R"``;
    ``objects[0]`` must be the document catalog (the trailer's ``/Root``). Each body is written as
    given (a dictionary, or a stream dictionary followed by ``stream ... endstream``).
    """
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{off:010d} 00000 n \n".encode() for off in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def write_pdf(path: Path, pages: list[PageSpec]) -> Path:
    """Write ``pages`` as a PDF 1.4 file with a correct cross-reference table."""
    objects: list[bytes] = []
    n_pages = len(pages)
    first_page = 5
    kids = " ".join(f"{first_page + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    for i, lines in enumerate(pages):
        ops = []
        for x, y, size, bold, text, *angle in lines:
            font = "/F2" if bold else "/F1"
            if angle:
                import math

                c, s_ = math.cos(math.radians(angle[0])), math.sin(math.radians(angle[0]))
                ops.append(f"BT {font} {size} Tf {c:.4f} {s_:.4f} {-s_:.4f} {c:.4f} {x} {y} Tm ({_escape(text)}) Tj ET")
            else:
                ops.append(f"BT {font} {size} Tf {x} {y} Td ({_escape(text)}) Tj ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {first_page + 2 * i + 1} 0 R "
            "/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return write_objects(path, objects)


def paper_pages(n_pages: int) -> list[PageSpec]:
    """A synthetic paper: title, author line, Abstract, numbered sections, References, page numbers."""
    pages: list[PageSpec] = []
    for p in range(n_pages):
        lines: PageSpec = []
        y = 720.0
        if p == 0:
            lines += [(150, 740, 18, True, "A Synthetic Study of Long Documents"),
                      (200, 715, 10, False, "Jane Q. Doe, Example University, jane@example.org"),
                      (72, 680, 12, True, "Abstract")]
            lines += [(72, 665, 10, False, "We test that long documents are read without hanging.")]
            y = 630.0
        if p == 1:
            lines.append((72, y, 12, True, "1 Introduction"))
            y -= 20
        if p == n_pages - 1:
            lines.append((72, y, 12, True, "References"))
            y -= 20
        for k in range(20):
            lines.append((72, y, 10, False, f"Sentence {k} on page {p + 1} describes the method in plain words."))
            y -= 12
        lines.append((300, 40, 10, False, str(p + 1)))
        pages.append(lines)
    return pages
