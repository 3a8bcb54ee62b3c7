#!/usr/bin/env bash
# System packages some tests need, installed with Debian's apt when missing (as root):
# - headless Chromium renders the HTML report (tests/report);
# - binutils' objdump disassembles the installed llama.cpp CPU library (tests/models/test_embedded_build.py);
# - TeX Live for the PDF fidelity harness and the compiled-LaTeX scan corpus (tests/documents):
#   publisher classes (acmart, IEEEtran, llncs) and the packages the shared projects load, lmodern for
#   scalable T1 fonts, texlive-science (siunitx, algorithmicx) for the projects the full benchmark
#   compiles, wamerican for its glued-word count, cm-super-minimal for scalable T1 Computer Modern
#   (microtype's font expansion in the LaTeX-project compiles, tests/rewriting/latex_project). About
#   100 s on Debian 12.
# Without root the tests that need a missing package fail and say which one.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium chromium-driver)
command -v objdump >/dev/null 2>&1 || missing+=(binutils)
command -v latexmk >/dev/null 2>&1 || missing+=(latexmk texlive-latex-base texlive-latex-recommended
  texlive-latex-extra texlive-publishers texlive-fonts-recommended texlive-science lmodern wamerican)
command -v kpsewhich >/dev/null 2>&1 && ! kpsewhich type1ec.sty >/dev/null 2>&1 && missing+=(cm-super-minimal)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "note: ${missing[*]} not installed and not root; the tests that need them will fail until they are" >&2
fi
