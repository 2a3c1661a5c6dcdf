#!/usr/bin/env bash
# Makes sure the services the integration tests use are reachable: Postgres and a Kafka broker.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${KESHER_CACHE_DIR:-$HOME/.cache/kesher}"
mkdir -p "$cache"
rm -f "$cache/kafka/started-by-services-up"

bash "$here/postgres/ensure.sh"

if [[ -z "${KAFKA_BROKERS:-}" ]] && ! (exec 3<>/dev/tcp/127.0.0.1/9092) 2>/dev/null; then
  bash "$here/kafka/start.sh"
  mkdir -p "$cache/kafka" && touch "$cache/kafka/started-by-services-up"
else
  echo "kafka: using ${KAFKA_BROKERS:-127.0.0.1:9092}"
fi
