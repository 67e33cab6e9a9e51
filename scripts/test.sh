#!/usr/bin/env bash
# test.sh — the body of `make test` after the dependencies are installed:
# start DynamoDB Local (stopped again on exit, if this script started it),
# then go vet, a gofmt check and every Go test with the race detector.
#
# Environment:
#   DYNAMODB_LOCAL_PORT  port of the DynamoDB Local instance (default 18000,
#                        away from the emulator's usual 8000)
#   GO_TEST_TIMEOUT      per-package go test timeout (default 27m: the session
#                        package runs every SQL script on Pebble and DynamoDB
#                        Local under the race detector)
#   GO_TEST_FLAGS        extra go test flags (e.g. -run or -v)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

export DYNAMODB_LOCAL_PORT="${DYNAMODB_LOCAL_PORT:-18000}"
# The run is long and DynamoDB Local's CPU is what the session package's
# DynamoDB leg waits on: the JVM's optimising compiler, which the quick-start
# default (-XX:TieredStopAtLevel=1) leaves out, makes each request take
# about 2.5x less CPU once warm (zorder_align.slt: 85 s -> 34 s of the JVM's
# CPU).
export DYNAMODB_LOCAL_JAVA_OPTS="${DYNAMODB_LOCAL_JAVA_OPTS--XX:+UseSerialGC}"
ddb="$repo_root/scripts/dynamodb-local.sh"

# Leave alone an instance that was already running (someone else's, or
# another checkout's on the same port: every test makes tables of its own
# names, so sharing one is safe); stop the one started here however this
# script ends.
if "$ddb" status >/dev/null 2>&1; then
	:
elif curl -s -m 2 "http://127.0.0.1:$DYNAMODB_LOCAL_PORT/" 2>/dev/null | grep -q 'com.amazonaws.dynamodb'; then
	echo "test: using the DynamoDB Local another checkout runs on port $DYNAMODB_LOCAL_PORT"
else
	trap '"$ddb" stop' EXIT
	"$ddb" start
fi
export DYNAMODB_ENDPOINT="http://127.0.0.1:$DYNAMODB_LOCAL_PORT"
echo "test: DynamoDB Local at $DYNAMODB_ENDPOINT"

echo "test: go vet ./..."
go vet ./...

echo "test: gofmt"
unformatted="$(find . -name '*.go' -not -path './.git/*' -not -path './.cache/*' -print0 | xargs -0 gofmt -l)"
if [[ -n "$unformatted" ]]; then
	echo "gofmt would change these files:" >&2
	echo "$unformatted" >&2
	exit 1
fi

echo "test: go test -race ./..."
# -parallel 4: the session package's SQL scripts run in parallel (each on a
# store of its own), and its DynamoDB Local leg waits on round trips more
# than it computes, so more scripts than cores keep both cores busy.
#
# The session package runs longest (every SQL script on Pebble and on
# DynamoDB Local): it starts at once beside the other packages, instead of
# where go test's package order would start it (near the end, after the
# others had the cores), and its output follows theirs.
#
# The SQL scripts' DynamoDB leg is the package's long pole: it waits on
# DynamoDB Local's JVM, not on the CPU of zproxy's code. It runs in a
# process of its own from the start (-sql-scripts), with more scripts at a
# time, instead of after the package's sequential tests, and without the
# race detector: its Go side is the code the Pebble leg runs under -race,
# and kv/dynamodb's own tests and the session tests' DynamoDB legs keep
# -race on the DynamoDB client's concurrency.
timeout="${GO_TEST_TIMEOUT:-27m}"
session_log="$(mktemp)"
scripts_log="$(mktemp)"
# shellcheck disable=SC2086 # GO_TEST_FLAGS is a list of flags
go test -race -count=1 -parallel 4 -timeout "$timeout" ${GO_TEST_FLAGS:-} ./session -args -sql-scripts=pebble >"$session_log" 2>&1 &
session_pid=$!
# shellcheck disable=SC2086
go test -count=1 -parallel 6 -timeout "$timeout" ${GO_TEST_FLAGS:-} -run '^TestSQLScripts$' ./session -args -sql-scripts=dynamodb >"$scripts_log" 2>&1 &
scripts_pid=$!
status=0
# shellcheck disable=SC2086
go test -race -count=1 -parallel 4 -timeout "$timeout" ${GO_TEST_FLAGS:-} $(go list ./... | grep -v '/session$') || status=$?
session_status=0
wait "$session_pid" || session_status=$?
scripts_status=0
wait "$scripts_pid" || scripts_status=$?
echo "test: session (-race; its SQL scripts on Pebble)"
cat "$session_log"
echo "test: session's SQL scripts on DynamoDB Local"
cat "$scripts_log"
rm -f "$session_log" "$scripts_log"
if [[ $status -ne 0 || $session_status -ne 0 || $scripts_status -ne 0 ]]; then
	exit 1
fi
