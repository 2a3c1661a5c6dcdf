#!/usr/bin/env bash
# `make scale-test`: node dependencies, HAProxy, Postgres and Kafka, the client's build (the widget page),
# then the runner (ops/scale/scale-test.ts). Exits non-zero when any of its checks failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -d node_modules ]] || npm ci --no-audit --no-fund
bash ops/scale/ensure-lb.sh
bash ops/services-up.sh
[[ -f client/dist/index.html ]] || npm run build -w client
npx tsx ops/scale/scale-test.ts "$@"
