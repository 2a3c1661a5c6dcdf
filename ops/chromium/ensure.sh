#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium for the client's browser tests and bench.
# Playwright's own browser download does not work on these machines, so the system package is used.
set -euo pipefail
if [[ -x /usr/bin/chromium ]]; then exit 0; fi
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "chromium is missing and this user cannot install it: run 'apt-get install -y chromium' as root" >&2
    exit 1
  fi
else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
test -x /usr/bin/chromium
