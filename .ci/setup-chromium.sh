#!/usr/bin/env bash
# Installs headless Chromium for the HTML report's browser test (Debian package "chromium"). Idempotent: does
# nothing when a chromium binary is already on the PATH. Without it, that test is skipped, not failed.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-chromium: no apt-get here; the HTML report's browser test will be skipped" >&2
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium
