#!/usr/bin/env bash
# make bench / make bench-<suite>: brings up the services a suite needs, then runs it.
set -euo pipefail
cd "$(dirname "$0")/../.."
suite="${1:-platform}"
shift || true
bash ops/services-up.sh
npx tsx "ops/bench/${suite}.bench.ts" "$@"
