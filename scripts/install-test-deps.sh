#!/usr/bin/env bash
# install-test-deps.sh — install what `make test` needs beyond Go:
#   - psql (Debian's postgresql-client), for the e2e tests driving the real client;
#   - Java 17+ and DynamoDB Local, through scripts/dynamodb-local.sh install.
# Idempotent and quiet when everything is present. Needs root or sudo only
# when a Debian package is missing.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

as_root() {
	if [[ "$(id -u)" -eq 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@"
	else
		echo "install-test-deps: need root or sudo to run: $*" >&2
		return 1
	fi
}

# apt_install installs Debian packages, refreshing the package lists only
# when the packages cannot be installed from the lists already present.
apt_install() {
	command -v apt-get >/dev/null 2>&1 || {
		echo "install-test-deps: apt-get not found; install $* by hand" >&2
		return 1
	}
	local log
	log="$(mktemp)"
	export DEBIAN_FRONTEND=noninteractive
	if ! as_root apt-get install -y -q --no-install-recommends "$@" >"$log" 2>&1; then
		if ! { as_root apt-get update -q && as_root apt-get install -y -q --no-install-recommends "$@"; } >>"$log" 2>&1; then
			cat "$log" >&2
			rm -f "$log"
			echo "install-test-deps: could not install $*" >&2
			return 1
		fi
	fi
	rm -f "$log"
	hash -r
}

if ! command -v psql >/dev/null 2>&1; then
	echo "install-test-deps: installing postgresql-client (psql)"
	apt_install postgresql-client
	command -v psql >/dev/null 2>&1 || {
		echo "install-test-deps: postgresql-client installed but psql is not on PATH" >&2
		exit 1
	}
fi

if ! "$repo_root/scripts/dynamodb-local.sh" check; then
	echo "install-test-deps: installing Java and DynamoDB Local"
fi
"$repo_root/scripts/dynamodb-local.sh" install
