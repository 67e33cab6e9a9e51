#!/usr/bin/env bash
# difftest.sh — a long differential campaign of zproxy against PostgreSQL 15
# (e2e/differential): random schemas, rows and statements on both servers,
# every result compared, every mismatch minimised and written out as a SQL
# script with both servers' answers.
#
# Installs PostgreSQL 15 from Debian when its server binaries are missing
# (needs root or sudo). The test starts its own throw-away cluster and its
# own zproxy. Every argument goes to the test, after these defaults:
#
#   -duration 20m        how long (or -queries N for a number of statements)
#   -seed <time>         the campaign's seed (printed; pass it to replay)
#   -repro-dir DIR       minimised repros and summary.txt
#                        (default difftest-out/<seed>)
#   -minimize 60s        time to shrink each mismatch
#   -max-minimized 0     shrink every mismatch (the test's -max-per-signature
#                        still stops at 4 of one kind and SQLSTATE)
#   -max-cost 1e7        skip statements PostgreSQL estimates costlier
#
# e.g. scripts/difftest.sh -seed 7 -duration 30m
#      scripts/difftest.sh -queries 2000
#
# It prints the statements compared per construct, the mismatches by kind,
# and where the repros are; it exits non-zero when there was a mismatch.
# Not part of `make test`, which runs a short campaign with a fixed seed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
export PATH="$PATH:/usr/local/go/bin"
SCRIPT_NAME=difftest
# shellcheck source=lib/apt.sh
source "$repo_root/scripts/lib/apt.sh"

if [[ ! -x /usr/lib/postgresql/15/bin/pg_ctl ]] && ! command -v pg_ctl >/dev/null 2>&1; then
	apt_install postgresql-15
fi

seed="$(date +%s)"
out=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	case "${args[i]}" in
	-seed | --seed) seed="${args[i + 1]:-$seed}" ;;
	-seed=* | --seed=*) seed="${args[i]#*=}" ;;
	-repro-dir | --repro-dir) out="${args[i + 1]:-}" ;;
	-repro-dir=* | --repro-dir=*) out="${args[i]#*=}" ;;
	esac
done
out="${out:-difftest-out/$seed}"
mkdir -p "$out"
echo "difftest: seed $seed, repros and summary in $out" >&2

# -v streams the mismatches as they are found; the summary comes last.
go test -count=1 -timeout 0 -run '^TestCampaign$' ./e2e/differential -v -args \
	-duration 20m -queries 0 -seed "$seed" -repro-dir "$out" \
	-minimize 60s -max-minimized 0 -max-cost 1e7 "$@"
