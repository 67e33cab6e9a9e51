#!/usr/bin/env bash
# fuzz-campaign.sh — fuzz every target of the module for a while and report,
# per target, how many inputs it ran and whether it found a crasher.
#
# Unlike scripts/fuzz.sh (a quick pass for `make fuzz`), it keeps going
# after a target fails, so one crasher does not hide the others, and ends
# with a table: package, target, execs, new corpus entries, result. A
# crasher is written by `go test` to <package>/testdata/fuzz/<Target>/,
# where it stays as a regression test that plain `go test` runs; the table
# names the file.
#
# Usage: scripts/fuzz-campaign.sh [DURATION]   (default 1m per target)
#
# Environment:
#   FUZZ_PKG     restrict to packages under a directory, e.g. ./wire
#   FUZZ_MATCH   restrict to targets matching a grep -E pattern
#   FUZZ_WORKERS go test -parallel for the fuzzing workers (default: GOMAXPROCS)
#   FUZZ_LOG     directory for each target's full output (default: a temp dir)
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
export PATH="$PATH:/usr/local/go/bin"
duration="${1:-${FUZZTIME:-1m}}"
logdir="${FUZZ_LOG:-$(mktemp -d -t zproxy-fuzz-XXXXXX)}"
mkdir -p "$logdir"
parallel=()
if [[ -n "${FUZZ_WORKERS:-}" ]]; then
	parallel=(-parallel "$FUZZ_WORKERS")
fi

results=()
failed=0
while IFS= read -r dir; do
	while IFS= read -r target; do
		if [[ -n "${FUZZ_MATCH:-}" ]] && ! grep -qE "$FUZZ_MATCH" <<<"$target"; then
			continue
		fi
		log="$logdir/$(echo "${dir#./}" | tr / _)_${target}.log"
		before=$(ls "$dir/testdata/fuzz/$target" 2>/dev/null | wc -l)
		echo "fuzz: $dir $target for $duration (log: $log)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$duration" "${parallel[@]}" "$dir" >"$log" 2>&1
		status=$?
		# The last progress line holds the totals:
		# "fuzz: elapsed: 1m0s, execs: 123456 (2057/sec), new interesting: 3 (total: 40)"
		execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | awk '{print $2}')
		newer=$(grep -o 'new interesting: [0-9]*' "$log" | tail -1 | awk '{print $3}')
		after=$(ls "$dir/testdata/fuzz/$target" 2>/dev/null | wc -l)
		result="ok"
		if [[ $status -ne 0 ]]; then
			failed=1
			crasher=$(grep -o 'testdata/fuzz/[^ ]*' "$log" | tail -1)
			result="FAIL${crasher:+ ($dir/$crasher)}"
			if [[ "$after" -le "$before" && -z "$crasher" ]]; then
				result="FAIL (see $log)"
			fi
		fi
		results+=("$(printf '%-22s %-28s %12s %6s  %s' "${dir#./}" "$target" "${execs:-0}" "${newer:-0}" "$result")")
	done < <(grep -h -o '^func Fuzz[A-Za-z0-9_]*(' "$dir"/*_test.go | sed 's/^func //; s/($//' | sort -u)
done < <(grep -rl --include='*_test.go' '^func Fuzz' "${FUZZ_PKG:-.}" |
	grep -v -e '^\./\.cache/' -e '^\./\.git/' | xargs -r -n1 dirname | sed 's|^\([^./]\)|./\1|' | sort -u)

echo
printf '%-22s %-28s %12s %6s  %s\n' package target execs new result
for r in "${results[@]}"; do
	echo "$r"
done
exit "$failed"
