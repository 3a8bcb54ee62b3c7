#!/usr/bin/env bash
# System packages some tests need: headless Chromium renders the HTML report (tests/report), and
# binutils' objdump disassembles the installed llama.cpp CPU library (tests/models/test_embedded_build.py).
# Installed with Debian's apt when missing and when running as root; otherwise those tests say why.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium chromium-driver)
command -v objdump >/dev/null 2>&1 || missing+=(binutils)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "note: ${missing[*]} not installed and not root; the tests that need them will fail until they are" >&2
fi
