#!/usr/bin/env bash
# Validates docker-compose.yml with whichever Compose is here: the `docker compose` plugin, or Debian's
# docker-compose (installed when missing and possible: this machine has only the docker client, no plugin).
set -euo pipefail
cd "$(dirname "$0")/.."
if docker compose version >/dev/null 2>&1; then
  docker compose config --quiet && echo "compose: docker-compose.yml is valid (docker compose)"
  exit 0
fi
if ! command -v docker-compose >/dev/null && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
  (apt-get install -y -qq docker-compose >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq docker-compose >/dev/null; }) || true
fi
if command -v docker-compose >/dev/null; then
  docker-compose config -q && echo "compose: docker-compose.yml is valid (docker-compose $(docker-compose version --short 2>/dev/null))"
  exit 0
fi
echo "!!! compose: no docker compose here; docker-compose.yml was NOT validated" >&2
[[ "${CI:-}" == "true" ]] && exit 1
exit 0
