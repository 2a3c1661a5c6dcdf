#!/usr/bin/env bash
# `make test`: typecheck, make sure Postgres and Kafka are up (starting Kafka if needed), run every test.
# In CI (CI=true) a service that cannot be started fails the run; outside CI the affected suites print
# that they were not run, and why.
set -euo pipefail
cd "$(dirname "$0")/.."

npx tsc -b
# Format (and lint) rules hold on every landing: one failing file fails the run, before anything slow.
make --no-print-directory lint

started_kafka=0
if bash ops/services-up.sh; then
  [[ -f "${KESHER_CACHE_DIR:-$HOME/.cache/kesher}/kafka/started-by-services-up" ]] && started_kafka=1
elif [[ "${CI:-}" == "true" ]]; then
  echo "services could not be started; CI needs real Postgres and Kafka" >&2
  exit 1
else
  echo "!!! some services are not available; their suites will report themselves as not run" >&2
fi

status=0
# The owner's PWA: build, component tests (jsdom), then the browser tests in Debian's Chromium against
# the real server (the e2e suite starts and stops it). ensure.sh installs chromium when it is missing.
npm run typecheck -w client || status=$?
npm run build -w client
# docker-compose.yml: validated, and its topology started without Docker (after the build: the api serves it).
bash ops/compose-check.sh || status=$?
npm run test -w client || status=$?
if bash ops/chromium/ensure.sh; then
  npm run test:e2e -w client || status=$?
elif [[ "${CI:-}" == "true" ]]; then
  echo "chromium could not be installed; CI needs the browser tests" >&2
  status=1
else
  echo "!!! chromium is not available; the client's browser tests were not run" >&2
fi
npx vitest run || status=$?
# Tests that stop and restart the broker, alone so they cannot pull it from under other suites.
KESHER_OUTAGE_PASS=1 npx vitest run || status=$?
# The production topology replicated behind HAProxy, with an API replica and a worker killed mid-answer
# (ops/scale/README.md): about 3 minutes, most of it the eight processes starting on a busy machine.
if bash ops/scale/ensure-lb.sh; then
  bash ops/scale/run.sh || status=$?
elif [[ "${CI:-}" == "true" ]]; then
  echo "haproxy could not be installed; CI needs the scale test" >&2
  status=1
else
  echo "!!! haproxy is not available; the scale test was not run" >&2
fi
if [[ $started_kafka == 1 && "${KESHER_KEEP_KAFKA:-}" != "1" ]]; then bash ops/kafka/stop.sh || true; fi
exit $status
