#!/usr/bin/env bash
# Makes sure HAProxy (Debian's package) is installed: the load balancer `make scale-test` puts in front of
# the API replicas. Quiet when it is already there; installs it otherwise (as root, or through sudo).
set -euo pipefail
if command -v haproxy >/dev/null 2>&1; then exit 0; fi

as_root=()
if [[ $(id -u) != 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then as_root=(sudo -n); else
    echo "haproxy is missing and this user cannot install it (not root, no sudo): apt-get install haproxy" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
install() { "${as_root[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -q haproxy >/dev/null; }
echo "installing haproxy from Debian…"
# The package index may be missing or stale on a fresh machine: refresh it only when the package is not found.
if ! apt-cache show haproxy >/dev/null 2>&1 || ! install; then
  "${as_root[@]}" apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null
  install
fi
# Its first line only, without a pipe into head: under pipefail, haproxy writing on after head has gone
# is a SIGPIPE that fails the script, and CI with it, though haproxy is installed.
version=$(haproxy -v)
echo "${version%%$'\n'*}"
