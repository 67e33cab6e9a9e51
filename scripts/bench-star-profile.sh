#!/usr/bin/env bash
# bench-star-profile.sh — the star-join benchmark with a CPU profile of zproxy
# per query class (bench/README.md, "Star join").
#
# Runs bench/sidebyside -workload star with the given arguments while
# `perf record` samples the zproxy process (zproxy has no pprof endpoint),
# then prints, for each class, the functions that took zproxy's CPU while
# that class ran, with and without their callees. Needs perf and the rights
# to attach to a process (root, or kernel.perf_event_paranoid <= 1).
#
#   scripts/bench-star-profile.sh -classes "box by region" -iterations 300
#   OUT=/tmp/star scripts/bench-star-profile.sh -what-if     # keep the files
#
# Not part of `make test`.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
export PATH="$PATH:/usr/local/go/bin"
command -v perf >/dev/null || { echo "bench-star-profile: perf not found (apt-get install linux-perf)" >&2; exit 1; }

out="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/zproxy-star-profile-XXXXXX")/star}"
port=26432
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	[[ ${args[i]} == -zproxy-port ]] && port=${args[i + 1]}
	[[ ${args[i]} == -zproxy-port=* ]] && port=${args[i]#*=}
done

bin_dir="$(mktemp -d "${TMPDIR:-/tmp}/zproxy-bench-XXXXXX")"
trap 'rm -rf "$bin_dir"' EXIT
go build -o "$bin_dir/zproxy" ./cmd/zproxy
go build -o "$bin_dir/sidebyside" ./bench/sidebyside
"$bin_dir/sidebyside" -zproxy-bin "$bin_dir/zproxy" -workload star "$@" >"$out.md" 2>"$out.log" &
harness=$!

# The queries start after the dimensions are loaded; profile from there on.
until grep -q "loading the dimensions" "$out.log" 2>/dev/null; do
	kill -0 "$harness" 2>/dev/null || { cat "$out.log" >&2; exit 1; }
	sleep 1
done
pid=$(ss -ltnp "sport = :$port" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
[[ -n $pid ]] || { echo "bench-star-profile: no process listens on port $port" >&2; exit 1; }
# Wall-clock timestamps, so the harness's log lines delimit each class.
perf record -k CLOCK_REALTIME -F 499 --call-graph fp -p "$pid" -o "$out.perf" >"$out.perf.log" 2>&1 &
perf_pid=$!
wait "$harness" || { cat "$out.log" >&2; exit 1; }
kill -INT "$perf_pid" 2>/dev/null || true # perf stops by itself when zproxy exits
wait "$perf_pid" || true

day=$(date +%F)
epoch() { date -d "$day $1" +%s; }
# The reports are cut short with head and may match nothing: neither is a
# failure.
set +o pipefail
# "[hh:mm:ss] class NAME, round i/n: N queries per system" starts a class's
# round; the next "class NAME, round i/n: zproxy p50" line ends it.
grep -E '^\[[0-9:]+\] class .*, round [0-9]+/[0-9]+: ' "$out.log" |
	sed -E 's/^\[([0-9:]+)\] class (.*), round ([0-9]+)\/[0-9]+: (.*)$/\1\t\2\t\3\t\4/' |
	while IFS=$'\t' read -r at class round what; do
		if [[ $what == *"queries per system" ]]; then
			start=$at
			continue
		fi
		echo
		echo "=== $class, round $round ($start - $at): by self time, then with callees (zproxy and pebble)"
		perf report -i "$out.perf" --time "$(epoch "$start"),$(epoch "$at")" --no-children --sort symbol --stdio -g none 2>/dev/null |
			grep -vE '^#|^$' | sed -E 's/[ -]+$//' | head -15 || true
		perf report -i "$out.perf" --time "$(epoch "$start"),$(epoch "$at")" --children --sort symbol --stdio -g none 2>/dev/null |
			grep -vE '^#|^$' | grep -E 'zproxy/(executor|kv|zorder|catalog)|pebble\.\(|gcBgMarkWorker ' | sed -E 's/[ -]+$//' | head -20 || true
	done
echo
echo "results: $out.md; log: $out.log; profile: $out.perf" >&2
