# Kesher — the two set-up commands are `make start` and `make test` (see README.md).
SHELL := /bin/bash
.DEFAULT_GOAL := start
STAMP := node_modules/.kesher-install-stamp

.PHONY: start test lint format typecheck test-unit bench bench-platform bench-api bench-chat bench-answers bench-retrieval bench-aggregates bench-client bench-ingest client services-up services-down kafka-start kafka-stop compose-check

# Dependencies are installed from the lockfile whenever it is newer than the last install.
$(STAMP): package.json package-lock.json contracts/package.json services/package.json projections/package.json client/package.json ops/package.json
	npm ci --no-audit --no-fund
	@touch $(STAMP)

# The owner's PWA is rebuilt when client/dist is missing or older than any client source.
CLIENT_SOURCES := $(shell find client/src client/public client/scripts client/widget -type f 2>/dev/null) client/index.html client/visitor.html client/vite.config.ts client/vite.visitor.config.ts client/vite.widget.config.ts client/package.json contracts/package.json $(shell find contracts/src -type f 2>/dev/null)
client/dist/index.html: $(STAMP) $(CLIENT_SOURCES)
	npm run build -w client

client: client/dist/index.html

## Runs Kesher on the embedded default (PGlite under DATA_DIR, in-process bus): no services needed.
## The API also serves the built client, so one URL shows the whole product.
start: $(STAMP) client/dist/index.html
	npm start --silent

## The whole test suite on real Postgres and a real Kafka broker (started here from Maven Central jars).
test: $(STAMP)
	bash ops/test.sh

## Format check (Prettier, .prettierrc.json), then ESLint with the module boundaries (eslint.config.js); part
## of `make test`. `make format` rewrites the files. ESLint's cache makes a second run read only changed files.
lint: $(STAMP)
	npx prettier --check . --log-level warn
	npx eslint . --cache --cache-location node_modules/.cache/eslint

format: $(STAMP)
	npx prettier --write . --log-level warn

typecheck: $(STAMP)
	npx tsc -b

## Unit tests only (no services).
test-unit: $(STAMP)
	npx vitest run unit.test

bench: bench-platform bench-api bench-chat bench-answers bench-retrieval bench-aggregates bench-client bench-ingest

bench-api: $(STAMP)
	bash ops/bench/run.sh api

bench-platform: $(STAMP)
	bash ops/bench/run.sh platform

## Ingest isolation: /health latency and another owner's upload while hostile files (decompression bombs, pathological structure) are read.
bench-ingest: $(STAMP)
	bash ops/bench/run.sh ingest

## Chat latency (time to first token, run completion, Kesher's overhead over the model), 200 visitors at once, the widget's and embed page's sizes.
bench-chat: $(STAMP) client/dist/index.html
	bash ops/chromium/ensure.sh
	bash ops/bench/run.sh chat

## The built-in engine's answers on the labelled set (fact hits, pollution, abstentions, recall@5), before and after.
bench-answers: $(STAMP)
	bash ops/bench/run.sh answers

## Folding aggregates whose state grows with their stream (a long conversation, a crawled site's pages), in memory.
bench-aggregates: $(STAMP)
	npx tsx ops/bench/aggregate-fold.bench.ts

bench-retrieval: $(STAMP)
	bash ops/bench/run.sh retrieval-paths

## The client's figures (bundle sizes, installability, Lighthouse) in the system Chromium; needs no services.
bench-client: $(STAMP) client/dist/index.html
	bash ops/chromium/ensure.sh
	npx tsx ops/bench/client.bench.ts

## The Smart Web Crawler against Crawlee's CheerioCrawler on a 2,000-page local site (speed, memory), a scheduled recrawl of it unchanged, sales pages, extraction; needs no services.
.PHONY: bench-crawl
bench: bench-crawl
bench-crawl: $(STAMP)
	npx tsx ops/bench/crawl.bench.ts

## Analytics over a seeded log of 1,000,000+ events: rebuild of every analytics read model, the dashboard and GraphQL latency, live-counter lag, export speed.
.PHONY: bench-analytics
bench: bench-analytics
bench-analytics: $(STAMP)
	bash ops/bench/run.sh analytics

## Billing: a signed Stripe webhook → the subscription read model updated (p99), 2,000 webhooks with 20 % repeats applied once each (per second), what plan enforcement adds to a limit check (p95).
.PHONY: bench-billing
bench: bench-billing
bench-billing: $(STAMP)
	bash ops/bench/run.sh billing

## Automation: which workflow fires among 200 × 10 phrases (p95), accuracy on the labelled Hebrew/English set, what a run's API action round trip adds beyond the endpoint's own time.
.PHONY: bench-automation
bench: bench-automation
bench-automation: $(STAMP)
	bash ops/bench/run.sh automation

## Channels: a signed webhook delivery's 200, inbound message → answer sent (built-in engine, WhatsApp stand-in), 1,000 deliveries with 20 % redelivered answered once each.
.PHONY: bench-channels
bench: bench-channels
bench-channels: $(STAMP)
	bash ops/bench/run.sh channels

## Identity: "Forgot password?" for a known and an unknown address (no timing tell), a reset from its mailed link.
.PHONY: bench-identity
bench: bench-identity
bench-identity: $(STAMP)
	bash ops/bench/run.sh identity

services-up:
	bash ops/services-up.sh

services-down:
	bash ops/kafka/stop.sh

kafka-start:
	bash ops/kafka/start.sh

kafka-stop:
	bash ops/kafka/stop.sh

compose-check:
	bash ops/compose-check.sh

## The production topology replicated behind HAProxy (2 APIs, 2 workers, relay, projector on Postgres and Kafka), driven through it with an API replica and a worker SIGKILLed mid-answer; then every read model rebuilt from the log and compared (ops/scale/README.md).
.PHONY: scale-test
scale-test: $(STAMP) client/dist/index.html
	bash ops/scale/run.sh
