#!/usr/bin/env bash
# System packages some tests need: headless Chromium renders the HTML report (tests/report).
# Installed with Debian's apt when missing and when running as root; otherwise those tests say why.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  :
elif [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
else
  echo "note: chromium not installed and not root; the HTML rendering test will fail until it is" >&2
fi
# --- TeX Live for the PDF fidelity harness (tests/documents/test_fidelity.py, benchmarks/fidelity) ---
# Publisher classes (acmart, IEEEtran, llncs) and the packages the shared projects load; lmodern for
# scalable T1 fonts; texlive-science (siunitx, algorithmicx) for the two projects only the full
# benchmark compiles; wamerican is the word list of its glued-word count. About 65 s on Debian 12.
if command -v latexmk >/dev/null 2>&1; then
  :
elif [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends latexmk texlive-latex-base \
    texlive-latex-recommended texlive-latex-extra texlive-publishers texlive-fonts-recommended texlive-science \
    lmodern wamerican >/dev/null
else
  echo "note: TeX Live not installed and not root; the fidelity tests are skipped until it is" >&2
fi
# --- end TeX Live ---
