#!/usr/bin/env bash
# bench-dynamodb.sh — Z-order box queries on DynamoDB Local: zproxy's ranges
# versus one [zmin, zmax] Query with a filter versus a filtered Scan
# (bench/dynamodb/README.md).
#
# Installs DynamoDB Local when missing (scripts/dynamodb-local.sh install),
# starts an in-memory instance on DYNAMODB_LOCAL_PORT (default 18300) unless
# one already runs there, builds cmd/zproxy and the harness, runs it, and
# stops the instance afterwards if this script started it. Every argument
# goes to the harness, e.g.:
#
#   scripts/bench-dynamodb.sh                      # 100,000 rows, ~10 minutes
#   scripts/bench-dynamodb.sh -rows 10000          # quick run
#   scripts/bench-dynamodb.sh -shards 4            # sharded table and index
#   scripts/bench-dynamodb.sh -h                   # all flags
#
# Not part of `make test`.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
export PATH="$PATH:/usr/local/go/bin"
export DYNAMODB_LOCAL_PORT="${DYNAMODB_LOCAL_PORT:-18300}"
# A long run wants the JVM's own defaults rather than the tests' quick-start
# options.
export DYNAMODB_LOCAL_JAVA_OPTS="${DYNAMODB_LOCAL_JAVA_OPTS-}"
# DynamoDB Local accepts any credentials whose key id is letters and digits.
export AWS_ACCESS_KEY_ID="${AWS_ACCESS_KEY_ID:-zproxybench}"
export AWS_SECRET_ACCESS_KEY="${AWS_SECRET_ACCESS_KEY:-zproxybench}"
export AWS_REGION="${AWS_REGION:-us-east-1}"

local_sh=scripts/dynamodb-local.sh
"$local_sh" check || "$local_sh" install
started=0
if ! "$local_sh" status >/dev/null 2>&1; then
	"$local_sh" start
	started=1
fi

bin_dir="$(mktemp -d "${TMPDIR:-/tmp}/zproxy-bench-dynamodb-XXXXXX")"
cleanup() {
	rm -rf "$bin_dir"
	if [[ "$started" -eq 1 ]]; then
		"$local_sh" stop
	fi
}
trap cleanup EXIT

go build -o "$bin_dir/zproxy" ./cmd/zproxy
go build -o "$bin_dir/bench-dynamodb" ./bench/dynamodb
"$bin_dir/bench-dynamodb" -zproxy-bin "$bin_dir/zproxy" \
	-endpoint "http://127.0.0.1:$DYNAMODB_LOCAL_PORT" "$@"
