#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing (Playwright's own download cannot be used).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if command -v apt-get >/dev/null 2>&1; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
else
  echo "install-chromium: no apt-get here; install Chromium at /usr/bin/chromium yourself" >&2
  exit 1
fi
