#!/usr/bin/env bash
# bench-sidebyside.sh — zproxy vs PostgreSQL 15, side by side (bench/README.md).
#
# Installs PostgreSQL 15 from Debian when its server binaries are missing
# (needs root or sudo), then builds and runs bench/sidebyside, which starts a
# throw-away PostgreSQL cluster and a zproxy on temporary directories, loads
# the same data into both, runs the query classes and prints the tables.
# Every argument goes to the harness, e.g.:
#
#   scripts/bench-sidebyside.sh -rows 50000        # quick run
#   scripts/bench-sidebyside.sh                    # 1,000,000 rows
#   scripts/bench-sidebyside.sh -h                 # all flags
#
# Not part of `make test`.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
export PATH="$PATH:/usr/local/go/bin"

as_root() {
	if [[ "$(id -u)" -eq 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@"
	else
		echo "bench-sidebyside: need root or sudo to run: $*" >&2
		return 1
	fi
}

if [[ ! -x /usr/lib/postgresql/15/bin/pg_ctl ]] && ! command -v pg_ctl >/dev/null 2>&1; then
	echo "bench-sidebyside: installing PostgreSQL 15 (Debian package postgresql)" >&2
	export DEBIAN_FRONTEND=noninteractive
	as_root apt-get install -y -q postgresql >/dev/null 2>&1 ||
		{ as_root apt-get update -q && as_root apt-get install -y -q postgresql; }
	# The package starts a cluster on 5432; the harness uses its own, so
	# leave that one as the package set it up.
fi

bin_dir="$(mktemp -d "${TMPDIR:-/tmp}/zproxy-bench-XXXXXX")"
trap 'rm -rf "$bin_dir"' EXIT
go build -o "$bin_dir/zproxy" ./cmd/zproxy
go build -o "$bin_dir/sidebyside" ./bench/sidebyside
"$bin_dir/sidebyside" -zproxy-bin "$bin_dir/zproxy" "$@"
