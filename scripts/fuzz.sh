#!/usr/bin/env bash
# fuzz.sh — run every fuzz target of the module for a short while.
# go test -fuzz takes one target of one package at a time, so this finds the
# targets (func FuzzXxx(f *testing.F) in *_test.go files) and runs each.
#
# Environment:
#   FUZZTIME  how long to fuzz each target (default 10s)
#   FUZZ_PKG  restrict to one package directory, e.g. ./parser
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
fuzztime="${FUZZTIME:-10s}"

found=0
while IFS= read -r dir; do
	while IFS= read -r target; do
		found=1
		echo "fuzz: $dir $target ($fuzztime)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$dir"
	done < <(grep -h -o '^func Fuzz[A-Za-z0-9_]*(' "$dir"/*_test.go | sed 's/^func //; s/($//' | sort -u)
done < <(grep -rl --include='*_test.go' '^func Fuzz' "${FUZZ_PKG:-.}" |
	grep -v -e '^\./\.cache/' -e '^\./\.git/' | xargs -r -n1 dirname | sed 's|^\([^./]\)|./\1|' | sort -u)

if [[ "$found" -eq 0 ]]; then
	echo "fuzz: no fuzz targets found" >&2
fi
