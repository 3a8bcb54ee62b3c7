#!/usr/bin/env bash
# System packages some tests need: headless Chromium renders the HTML report (tests/report).
# Installed with Debian's apt when missing and when running as root; otherwise those tests say why.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
else
  echo "note: chromium not installed and not root; the HTML rendering test will fail until it is" >&2
fi
