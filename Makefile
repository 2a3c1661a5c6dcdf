# Kesher — the two set-up commands are `make start` and `make test` (see README.md).
SHELL := /bin/bash
.DEFAULT_GOAL := start
STAMP := node_modules/.kesher-install-stamp

.PHONY: start test typecheck test-unit bench bench-platform bench-api services-up services-down kafka-start kafka-stop compose-check

# Dependencies are installed from the lockfile whenever it is newer than the last install.
$(STAMP): package.json package-lock.json contracts/package.json services/package.json projections/package.json
	npm ci --no-audit --no-fund
	@touch $(STAMP)

## Runs Kesher on the embedded default (PGlite under DATA_DIR, in-process bus): no services needed.
start: $(STAMP)
	npm start --silent

## The whole test suite on real Postgres and a real Kafka broker (started here from Maven Central jars).
test: $(STAMP)
	bash ops/test.sh

typecheck: $(STAMP)
	npx tsc -b

## Unit tests only (no services).
test-unit: $(STAMP)
	npx vitest run unit.test

bench: bench-platform bench-api

bench-api: $(STAMP)
	bash ops/bench/run.sh api

bench-platform: $(STAMP)
	bash ops/bench/run.sh platform

services-up:
	bash ops/services-up.sh

services-down:
	bash ops/kafka/stop.sh

kafka-start:
	bash ops/kafka/start.sh

kafka-stop:
	bash ops/kafka/stop.sh

compose-check:
	docker compose config --quiet
