#!/usr/bin/env bash
# install-test-deps.sh — install what `make test` needs beyond Go:
#   - psql (Debian's postgresql-client), for the e2e tests driving the real client;
#   - PostgreSQL 15's server (Debian's postgresql-15), the oracle of the
#     differential test (e2e/differential), which starts its own cluster;
#   - PostGIS 3 for it (Debian's postgresql-15-postgis-3), the oracle of
#     the spatial differential test (TestSpatialAgainstPostGIS);
#   - Java 17+ and DynamoDB Local, through scripts/dynamodb-local.sh install.
# Idempotent and quiet when everything is present. Needs root or sudo only
# when a Debian package is missing.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRIPT_NAME=install-test-deps
# shellcheck source=lib/apt.sh
source "$repo_root/scripts/lib/apt.sh"

if ! command -v psql >/dev/null 2>&1; then
	apt_install postgresql-client
	command -v psql >/dev/null 2>&1 || {
		echo "install-test-deps: postgresql-client installed but psql is not on PATH" >&2
		exit 1
	}
fi

if [[ ! -x /usr/lib/postgresql/15/bin/pg_ctl ]]; then
	# The package may start a cluster of its own on 5432; the test does not
	# use it.
	apt_install postgresql-15
	[[ -x /usr/lib/postgresql/15/bin/pg_ctl ]] || {
		echo "install-test-deps: postgresql-15 installed but /usr/lib/postgresql/15/bin/pg_ctl is missing" >&2
		exit 1
	}
fi

if [[ ! -f /usr/share/postgresql/15/extension/postgis.control ]]; then
	apt_install postgresql-15-postgis-3
	[[ -f /usr/share/postgresql/15/extension/postgis.control ]] || {
		echo "install-test-deps: postgresql-15-postgis-3 installed but postgis.control is missing" >&2
		exit 1
	}
fi

if ! "$repo_root/scripts/dynamodb-local.sh" check; then
	echo "install-test-deps: installing Java and DynamoDB Local"
fi
"$repo_root/scripts/dynamodb-local.sh" install
