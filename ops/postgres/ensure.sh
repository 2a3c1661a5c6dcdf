#!/usr/bin/env bash
# Makes sure a Postgres answers at DATABASE_URL (default: this machine's server at 127.0.0.1:5432,
# trust auth, database `test`). Where the server is a local Debian cluster that stopped, starts it.
set -euo pipefail
url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"

ready() { psql "$url" -Atqc 'select 1' >/dev/null 2>&1 || node -e "
  const pg = require('pg'); const c = new pg.Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
  c.connect().then(() => c.end()).then(() => process.exit(0), () => process.exit(1));" "$url" 2>/dev/null; }

if ready; then echo "postgres: ready at ${url%%\?*}"; exit 0; fi

if [[ -z "${DATABASE_URL:-}" ]] && command -v pg_ctlcluster >/dev/null; then
  echo "postgres: not answering; starting the local cluster"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  for _ in $(seq 1 30); do ready && { echo "postgres: ready"; exit 0; }; sleep 1; done
fi
echo "postgres: not reachable at ${url%%\?*} (set DATABASE_URL to a reachable server)" >&2
exit 1
