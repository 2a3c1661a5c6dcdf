#!/usr/bin/env bash
# docker-compose.yml, checked two ways (both run by `make test`):
#  1. Compose itself validates the file, where a Compose is here: the `docker compose` plugin, or Debian's
#     docker-compose (installed when missing and possible: this machine has only the docker client).
#  2. Its production topology is started without Docker (ops/compose/production-topology.compose.test.ts):
#     each Kesher service's command and environment, as the image and the file give them, against the
#     local Postgres and Kafka; /api/v1/health must answer and an owner's registration, assistant and
#     answered question must flow through the relay, Kafka, the workers and the projector.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

# Compose needs AUTH_SECRET to resolve the file (it refuses to start without one); any value validates it.
export AUTH_SECRET="${AUTH_SECRET:-compose-check-secret-compose-check-secret}"
validated=0
if docker compose version >/dev/null 2>&1; then
  docker compose config --quiet && echo "compose: docker-compose.yml is valid (docker compose)" && validated=1 || status=1
else
  if ! command -v docker-compose >/dev/null && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    (apt-get install -y -qq docker-compose >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq docker-compose >/dev/null; }) || true
  fi
  if command -v docker-compose >/dev/null; then
    docker-compose config -q && echo "compose: docker-compose.yml is valid (docker-compose $(docker-compose version --short 2>/dev/null))" && validated=1 || status=1
  fi
fi
if [[ $validated == 0 && $status == 0 ]]; then
  echo "!!! compose: no docker compose here; docker-compose.yml was NOT validated by Compose" >&2
  [[ "${CI:-}" == "true" ]] && status=1
fi

# The topology test reports itself as not run (with the reason) when Postgres or Kafka is missing.
KESHER_COMPOSE_PASS=1 npx vitest run || status=$?
exit $status
