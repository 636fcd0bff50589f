# Graph design service. Two commands set everything up on a fresh machine:
#   make run    installs what is missing, starts Neo4j + Redis + the service (Ctrl-C stops all)
#   make test   the same set-up, then every check and test against a throw-away Neo4j + Redis
SHELL := /bin/bash
.DEFAULT_GOAL := help
# Node.js 24 LTS: scripts/ensure-node.sh (run by `make deps`) installs it into .tools/node when
# the machine's node is older; every target finds it first on PATH.
export PATH := $(CURDIR)/.tools/node/bin:$(PATH)

PORT ?= 8080
TEST_NEO4J_PORT ?= 27687
TEST_REDIS_PORT ?= 26379
# integration-split's own pair when run alone; in make test it has only the Redis port (it
# shares integration's Neo4j).
TEST_SPLIT_NEO4J_PORT ?= 27787
TEST_SPLIT_REDIS_PORT ?= 26479
# The restore drill's own pair (it stops and starts its Neo4j), so that it runs beside the rest.
TEST_DRILL_NEO4J_PORT ?= 27887
TEST_DRILL_REDIS_PORT ?= 26579
# The abuse suite's pair and the fault tests' pair, so that each runs beside another suite.
TEST_ABUSE_NEO4J_PORT ?= 27987
TEST_ABUSE_REDIS_PORT ?= 26679
TEST_FAULTS_NEO4J_PORT ?= 28087
TEST_FAULTS_REDIS_PORT ?= 26779
# Where `make backup` writes and `make restore` reads (BACKUP=FILE; default: the newest there).
BACKUP_DIR ?= backups
# First of six loopback ports (3 masters, 3 replicas) for the Redis Cluster run.
TEST_REDIS_CLUSTER_PORT ?= 26391
# Neo4j settings of every test store (deploy/neo4j/test-stores.conf: plans kept for the run).
TEST_NEO4J_CONF ?= $(CURDIR)/deploy/neo4j/test-stores.conf
BENCH_NEO4J_PORT ?= 28687
BENCH_REDIS_PORT ?= 28379
# Graph sizes of `make bench` / `make bench-store` (comma-separated; quicker runs: BENCH_SIZES=1000,10000).
BENCH_SIZES ?= 1000,10000,100000
# Every mocha run ends with a plain 'label: N passed, N failed' line (and appends its counts
# to $(TEST_COUNTS), which .ci/run adds up).
TEST_COUNTS ?= .run/test-counts
REPORTER = --reporter ./test/support/countingReporter.cjs --reporter-option counts=$(TEST_COUNTS) --reporter-option label=$(1)
MOCHA_INTEGRATION := npx mocha $(call REPORTER,integration) --require tsx/cjs --require test/support/harness.ts 'test/**/*.test.ts' \
  --ignore 'test/abuse/**' --ignore 'test/drills/**' --ignore test/faults.test.ts
# The fault tests (test/faults.test.ts) stop and restart a Neo4j and a Redis of their own
# and mostly wait on them (a minute and a half), so they run on a stack of their own,
# after the split run and beside integration. Beside the Redis Cluster run, the restore
# drill and the abuse suite, four runs on two cores, they were too slow for their bounds
# and so was the cluster run's graphctl test.
MOCHA_FAULTS := npx mocha $(call REPORTER,faults) --require tsx/cjs --require test/support/harness.ts test/faults.test.ts
# The same HTTP suite through separate processes; the fault, docs-page,
# deployment-file, run-split and worker-process tests run once, in process. So do the
# tests of the store itself and of the operator CLI (store writes and reads through the
# executor, the add-run facts read, the derived findings, the store migration and the
# indexes it drops, fork cost, graphctl, the plans of pinned statements, the shadow
# tests a full read's plan runs, the plan warm-up): they reach Neo4j directly, by the same path in either
# topology. So does the test of which statement records a batch: it counts statements
# in the metrics of the process it calls, which in split mode runs none.
SPLIT_ONCE := faults docsPage deploy runSplit workerProcess recordWrites addRunPrefetch runFindings \
  storeMigration droppedIndexes forkCost graphctl pinnedPlans recordAhead shadowProbes planWarmup
MOCHA_SPLIT := npx mocha $(call REPORTER,integration-split) --require tsx/cjs --require test/support/harness.ts --require test/support/splitMode.ts \
  'test/**/*.test.ts' $(foreach t,$(SPLIT_ONCE),--ignore test/$(t).test.ts) --ignore 'test/abuse/**' --ignore 'test/drills/**'
# The abuse suite (test/abuse/): attacks on memory, Redis and Neo4j, on its own run so its
# root hook can hold the API process's heap and Redis used_memory to a budget
# (test/support/abuseBudget.ts states the bounds). --expose-gc lets it collect first.
MOCHA_ABUSE := env NODE_OPTIONS="$${NODE_OPTIONS:+$$NODE_OPTIONS }--expose-gc" npx mocha $(call REPORTER,abuse) \
  --require tsx/cjs --require test/support/abuseBudget.ts 'test/abuse/**/*.test.ts'

# The Redis users (rate limits, idempotency keys, auth-cache epoch and revocation, the
# decisions and purge queues, the gateway's bookmarks) again, against a 6-node Redis
# Cluster (REDIS_CLUSTER_NODES), plus the failover test that stops a master. Only those files
# (the rest never touch Redis), and of them not the tests that reach Neo4j alone
# (REDIS_CLUSTER_SKIP, test titles): purge.test.ts's batch deletions (its queue's Redis
# side, jobs waiting and deduplicated, is in the restart and Redis-outage tests, which
# stay) and history retention, `graphctl decisions import` (written directly, no queue),
# and of graphctl's tests all but `keys revoke` (the one that bumps the revocation epoch
# in Redis). Those took about half of this run's time (a graphctl command is a process of
# its own), and the integration run has passed them already.
REDIS_CLUSTER_FILES := test/auth.test.ts test/idempotency.test.ts test/decisionIngestion.test.ts \
  test/purge.test.ts test/graphctl.test.ts test/bookmarks.test.ts test/rateLimitLeases.test.ts \
  test/revocationFeed.test.ts test/cluster/redisFailover.cluster.ts
REDIS_CLUSTER_SKIP := ^(background purges \(queue|history retention \(sweepHistory\)|graphctl decisions import|graphctl \(operator interface\) (keys create --projects|members add|fails clearly))
# Its Neo4j is cold: before the first test, test/support/warmPlansFirst.ts plans the write
# path's statements as a service process does when it starts (about half a minute alone,
# one to two minutes beside the restore drill and the abuse suite), so no test pays for that.
# 60 s a test: failovers and process starts.
MOCHA_REDIS_CLUSTER := npx mocha $(call REPORTER,integration-redis-cluster) --timeout 60000 --require tsx/cjs --require test/support/harness.ts \
  --require test/support/warmPlansFirst.ts \
  --grep '$(REDIS_CLUSTER_SKIP)' --invert $(REDIS_CLUSTER_FILES)

.PHONY: help deps web run backup restore restore-drill cluster-and-drill faults test check observability cycles types types-check typecheck lint format unit integration integrations integrations-on-one-store bench bench-cpu bench-store bench-large clean fuzz examples run-split integration-split bench-split bench-web bench-mcp abuse integration-redis-cluster statements

help:
	@echo "make run      start Neo4j, Redis and the API on http://127.0.0.1:$(PORT) (Ctrl-C stops all)"
	@echo "make test     static checks, unit tests, integration tests on a throw-away stack"
	@echo "make bench    benchmarks at 1k/10k/100k nodes (BENCH_SIZES), then split against in process, then MCP against HTTP (medians, ratios)"
	@echo "make bench-store  the versioned store's benchmarks alone (fork, merge, validate, scoped reads current and pinned, revert, storage)"
	@echo "make bench-cpu    a 10-delta batch (BENCH_CPU_ARGS=\"--deltas 100\": 100) through HTTP, the handler and as bare Cypher, alternating: p50, CPU per batch of Node and Neo4j, ratios"
	@echo "make statements  the statements a delta batch runs, by name, with full text and PROFILE plans, on a small seeded throw-away stack"
	@echo "make bench-large  a large graph (SIZE=100000 nodes) through a running 'make run': graphctl import, fork, batches, validate, streamed read, export (LARGE_FILL=1: fill and merge too)"
	@echo "make backup  dump make run's Neo4j into $(BACKUP_DIR)/ (Neo4j stops for the dump; writes answer 503 meanwhile)"
	@echo "make restore BACKUP=FILE  load a dump into make run's Neo4j (default: the newest in $(BACKUP_DIR)/)"
	@echo "make types    regenerate shared/api/openapi.generated.ts from openapi/"
	@echo "make integration-redis-cluster  the Redis-using tests against a 6-node Redis Cluster"
	@echo "make run-split the same API as separate processes (gateway, 5 services, worker)"
	@echo "make web      build the web viewer served at /app (web/ -> web/dist; run/test/bench build it)"
	@echo "make fuzz     schemathesis against the service on a throw-away stack (a few minutes)"
	@echo "make examples record the review, feed, webhook, rebase and node-history examples of openapi/ from a real session (throw-away stack; not in make test)"

deps:
	@scripts/ensure-deps.sh

# The web viewer at /app: web/src bundled by esbuild into web/dist (not committed).
web:
	@npx tsx web/build.ts

run: deps web
	PORT=$(PORT) scripts/run-dev.sh node_modules/.bin/tsx services/launcher/main.ts

# Backup and restore of the Neo4j of `make run` (.data/neo4j) with neo4j-admin's dump and
# load (scripts/neo4j-backup.sh; docs/OPERATIONS.md, "Backup and restore"). Community
# dumps and loads a stopped database only: Neo4j stops meanwhile and the maintenance flag
# makes the service refuse writes (503) until it is back.
backup:
	scripts/neo4j-backup.sh backup $(BACKUP_DIR)

restore:
	@file="$(BACKUP)"; [[ -n "$$file" ]] || file="$$(ls -1t $(BACKUP_DIR)/*.dump 2>/dev/null | head -n 1)"; \
	[[ -n "$$file" ]] || { echo "no dump in $(BACKUP_DIR)/: make restore BACKUP=FILE" >&2; exit 1; }; \
	scripts/neo4j-backup.sh restore "$$file"

types:
	npm run -s gen:types

# The generated types are committed; fail when they no longer match openapi/.
types-check:
	@npx openapi-typescript openapi/graph-design-service.yaml --default-non-nullable=false -o .run/openapi.generated.check.ts >/dev/null 2>&1
	@diff -q shared/api/openapi.generated.ts .run/openapi.generated.check.ts >/dev/null || \
	  (echo "shared/api/openapi.generated.ts is stale: run 'make types' and commit" >&2; exit 1)
	@echo "types: generated types match openapi/"

typecheck:
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p web/tsconfig.json --noEmit

lint:
	npx eslint .
	npx prettier --check . >/dev/null || (echo "formatting differs: run 'npm run format'" >&2; npx prettier --list-different . >&2; exit 1)

check: types-check typecheck lint cycles observability

# The alerting rules and dashboard of deploy/observability: promtool (Debian's prometheus
# package, installed by scripts/ensure-deps.sh) checks the rules and runs their unit tests
# (alerts.test.yaml) and checks the example Prometheus configuration. That every metric
# they name is one the service exports is test/observability.test.ts (make integration).
observability:
	@command -v promtool >/dev/null || { echo "promtool missing: run scripts/ensure-deps.sh" >&2; exit 1; }
	@promtool check rules deploy/observability/alerts.yaml
	@promtool test rules deploy/observability/alerts.test.yaml
	@promtool check config --syntax-only deploy/observability/prometheus.example.yaml

# No import cycle between any two files of services/, shared/, tools/ and bench/ (a cycle
# ties modules so that neither can change or load alone). eslint.config.mjs keeps the
# other boundary: another service only through its index.ts, shared/ never imports services/.
cycles:
	@npx madge --circular --no-spinner --extensions ts,tsx --ts-config tsconfig.json services shared tools bench

unit:
	npx mocha $(call REPORTER,unit) 'services/**/*.spec.ts' 'shared/**/*.spec.ts' 'bench/**/*.spec.ts' 'web/**/*.spec.ts' 'tools/**/*.spec.ts'

integration:
	scripts/with-stack.sh test $(TEST_NEO4J_PORT) $(TEST_REDIS_PORT) -- $(MOCHA_INTEGRATION)

abuse:
	scripts/with-stack.sh test-abuse $(TEST_ABUSE_NEO4J_PORT) $(TEST_ABUSE_REDIS_PORT) -- $(MOCHA_ABUSE)

faults:
	scripts/with-stack.sh test-faults $(TEST_FAULTS_NEO4J_PORT) $(TEST_FAULTS_REDIS_PORT) -- $(MOCHA_FAULTS)

integration-split:
	scripts/with-stack.sh test-split $(TEST_SPLIT_NEO4J_PORT) $(TEST_SPLIT_REDIS_PORT) -- $(MOCHA_SPLIT)

# integration and integration-split side by side on one Neo4j, each with a Redis of its
# own, the fault tests (a stack of their own) after the split run; the split side's output
# is kept in .run/integration-split.log and printed when both are done, so that the two
# do not interleave. One Neo4j, because much of a Neo4j's CPU in these runs is its first
# time through each statement: planning it (seconds for the largest; half of the Java
# threads' samples) and the JVM's JIT compiling that code (4 of the 9 CPU minutes of an
# integration run). Two stores paid that twice on the same two cores: measured on this
# suite, 15 to 17 minutes on two stores, 10 to 12 on one. Every test makes its own users
# and projects, so the two runs share a store as the tests of one run do. The tests in
# SPLIT_ONCE, which reach the store itself, run in the integration run only, as before.
integrations:
	@mkdir -p .run
	scripts/with-stack.sh test $(TEST_NEO4J_PORT) $(TEST_REDIS_PORT) -- $(MAKE) --no-print-directory integrations-on-one-store

# (integrations' body: NEO4J_URI and REDIS_URL are integration's stack, which the split
# run's stack shares the Neo4j of)
integrations-on-one-store:
	@echo "integration-split, then the fault tests, run beside integration; their output follows integration's"
	@{ scripts/with-stack.sh test-split - $(TEST_SPLIT_REDIS_PORT) -- $(MOCHA_SPLIT); s=$$?; \
	  $(MAKE) --no-print-directory faults || s=1; exit $$s; } >.run/integration-split.log 2>&1 & split=$$!; \
	$(MOCHA_INTEGRATION); status=$$?; \
	wait $$split || status=1; \
	cat .run/integration-split.log; exit $$status

# The restore drill (test/drills/restoreDrill.test.ts): fills a store, backs it up with
# scripts/neo4j-backup.sh, wipes it, restores it while writes are tried, and finds
# everything as before. It stops and starts Neo4j, so it has a stack of its own.
restore-drill:
	scripts/with-stack.sh test-drill $(TEST_DRILL_NEO4J_PORT) $(TEST_DRILL_REDIS_PORT) -- \
	  npx mocha $(call REPORTER,restore-drill) --require tsx/cjs 'test/drills/**/*.test.ts'

# integration-redis-cluster, the restore drill and the abuse suite side by side, each on
# stores of its own (the first two mostly wait: on Redis failovers, on Neo4j stopping and
# starting); the drill's output follows, then the abuse suite's.
cluster-and-drill:
	@mkdir -p .run
	@$(MAKE) --no-print-directory restore-drill >.run/restore-drill.log 2>&1 & drill=$$!; \
	$(MAKE) --no-print-directory abuse >.run/abuse.log 2>&1 & abuse=$$!; \
	$(MAKE) --no-print-directory integration-redis-cluster; status=$$?; \
	wait $$drill || status=1; \
	wait $$abuse || status=1; \
	cat .run/restore-drill.log .run/abuse.log; exit $$status

integration-redis-cluster:
	scripts/with-stack.sh test-cluster $(TEST_NEO4J_PORT) $(TEST_REDIS_PORT) -- \
	  scripts/redis-cluster.sh run test-cluster $(TEST_REDIS_CLUSTER_PORT) -- $(MOCHA_REDIS_CLUSTER)

# the test targets' stores (and those their tests start) read TEST_NEO4J_CONF
test integration abuse faults integration-split integrations restore-drill cluster-and-drill \
integration-redis-cluster: export NEO4J_CONF_FILE = $(TEST_NEO4J_CONF)

# The static checks and the unit tests need no store and each keeps about one core busy:
# they run side by side (each one's output whole when it ends), then the suites on stores.
test: deps web
	@mkdir -p .run && rm -f $(TEST_COUNTS)
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -j2 --output-sync=target check unit && \
	$(MAKE) --no-print-directory integrations cluster-and-drill; status=$$?; \
	echo "make test took $$(( $$(date +%s) - start ))s"; \
	scripts/test-total.sh $(TEST_COUNTS) tests || status=1; exit $$status

# Separate-process mode: gateway, projects, branches, graph-read, graph-write,
# decisions and the worker as separate processes on loopback.
run-split: deps web
	PORT=$(PORT) scripts/run-dev.sh scripts/run-split.sh

# Contract fuzzing: schemathesis from .venv/ (installed by the script).
fuzz: deps
	scripts/fuzz.sh

# The examples of the review, feed, webhook, rebase and node-history operations in
# openapi/, recorded from a real session on a throw-away stack (tools/examples/; ports
# EXAMPLES_NEO4J_PORT, EXAMPLES_REDIS_PORT, EXAMPLES_HTTP_PORT), then `make types`.
# Not part of `make test`: it rewrites the document, to be reviewed and committed.
examples: deps
	scripts/record-examples.sh

bench: deps
	@scripts/build-bench.sh
	NEO4J_HEAP_MAX=$${NEO4J_HEAP_MAX:-4g} scripts/with-stack.sh bench $(BENCH_NEO4J_PORT) $(BENCH_REDIS_PORT) -- node .run/bench-dist/bench/run.js --sizes $(BENCH_SIZES) $(BENCH_ARGS)
	@$(MAKE) --no-print-directory bench-split
	@$(MAKE) --no-print-directory bench-web
	@$(MAKE) --no-print-directory bench-mcp

# The versioned store alone: fork, batches, validate, full read, scoped reads at the head
# and pinned, merges, revert, stored records and the layout comparison (property joins
# against versioned relationships) at BENCH_SIZES (no gateway, split, web or MCP).
bench-store: deps
	@scripts/build-bench.sh
	NEO4J_HEAP_MAX=$${NEO4J_HEAP_MAX:-4g} scripts/with-stack.sh bench $(BENCH_NEO4J_PORT) $(BENCH_REDIS_PORT) -- node .run/bench-dist/bench/run.js --sizes $(BENCH_SIZES) --only writes,reads,merge,history,layout $(BENCH_ARGS)

# Where a 10-delta batch's CPU goes: the batch through the applyDeltas handler and its bare
# Cypher, alternating in rounds, each with p50 latency and CPU per batch of Node and of Neo4j.
bench-cpu: deps
	@scripts/build-bench.sh
	scripts/with-stack.sh bench-cpu $(BENCH_NEO4J_PORT) $(BENCH_REDIS_PORT) -- \
	  node .run/bench-dist/bench/batchCpu.js --pid-file .run/bench-cpu/neo4j.pid $(BENCH_CPU_ARGS)

# The statements of a delta batch (applyDeltas), each by name with its full text and the
# plan it ran with (PROFILE), on a throw-away stack seeded with a small graph: one run of
# additions, a mixed batch and positions alone (bench/batchStatements.ts).
statements: deps
	scripts/with-stack.sh statements $(BENCH_NEO4J_PORT) $(BENCH_REDIS_PORT) -- \
	  npx tsx bench/batchStatements.ts $(STATEMENTS_ARGS)

# Time to first render of the web viewer: a 1k-node branch and a 100k-node main
# opened at their top level, in headless chromium (median and ratio).
bench-web: deps web
	NEO4J_HEAP_MAX=$${NEO4J_HEAP_MAX:-4g} scripts/with-stack.sh bench-web $(BENCH_NEO4J_PORT) $(BENCH_REDIS_PORT) -- npx tsx bench/webBench.ts $(BENCH_WEB_ARGS)

# Latency of separate-process mode against in process (median p50 ratio), then read
# scaling: one and two graph-read processes under the same concurrent read load
# (READ_SCALING_ARGS, e.g. --connections 16 --duration 10).
bench-split: deps
	scripts/with-stack.sh bench-split $(BENCH_NEO4J_PORT) $(BENCH_REDIS_PORT) -- \
	  sh -c 'npx tsx bench/splitBench.ts && npx tsx bench/readScaling.ts $(READ_SCALING_ARGS)'

# Latency of a subtree read and a 10-delta apply through MCP (/mcp) beside plain HTTP.
bench-mcp: deps
	scripts/with-stack.sh bench-mcp $(BENCH_NEO4J_PORT) $(BENCH_REDIS_PORT) -- npx tsx bench/mcpBench.ts $(MCP_BENCH_ARGS)

# A 100k-node graph through the service `make run` serves, with its default memory: fill,
# staged merge, validate, streamed full read, export, import (start `make run` first).
bench-large: deps
	PORT=$(PORT) LARGE_NODES=$(or $(SIZE),$${LARGE_NODES:-100000}) scripts/bench-large.sh

clean:
	rm -rf .run dist
