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
SCRIPT_NAME=bench-sidebyside
# shellcheck source=lib/apt.sh
source "$repo_root/scripts/lib/apt.sh"

if [[ ! -x /usr/lib/postgresql/15/bin/pg_ctl ]] && ! command -v pg_ctl >/dev/null 2>&1; then
	echo "bench-sidebyside: installing PostgreSQL 15 (Debian package postgresql)" >&2
	apt_install postgresql
	# The package starts a cluster on 5432; the harness uses its own, so
	# leave that one as the package set it up.
fi

if [[ " $* " == *" -workload spatial "* || " $* " == *" -workload=spatial "* ]] &&
	[[ ! -f /usr/share/postgresql/15/extension/postgis.control ]]; then
	echo "bench-sidebyside: installing PostGIS 3 for PostgreSQL 15 (Debian package postgresql-15-postgis-3)" >&2
	apt_install postgresql-15-postgis-3
fi

bin_dir="$(mktemp -d "${TMPDIR:-/tmp}/zproxy-bench-XXXXXX")"
trap 'rm -rf "$bin_dir"' EXIT
go build -o "$bin_dir/zproxy" ./cmd/zproxy
go build -o "$bin_dir/sidebyside" ./bench/sidebyside
"$bin_dir/sidebyside" -zproxy-bin "$bin_dir/zproxy" "$@"
