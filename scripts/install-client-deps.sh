#!/usr/bin/env bash
# install-client-deps.sh — install the database clients that e2e/clients
# drives against zproxy, beyond what install-test-deps.sh provides:
#   - psycopg2, psycopg 3 and asyncpg for Debian's python3 (python3-psycopg2,
#     python3-psycopg, python3-asyncpg), with SQLAlchemy 1.4 and pandas
#     (python3-sqlalchemy, python3-pandas) for the catalog and write
#     scenarios, Django 3.2 (python3-django) for its migrate scenario, and
#     pgcli 3.5 (pgcli) for its completion queries;
#   - node-postgres with pg-cursor and pg-copy-streams, and the ORMs
#     Sequelize, TypeORM (with reflect-metadata) and knex (npm, pinned by
#     e2e/clients/testdata/node/package-lock.json) into
#     e2e/clients/testdata/node/node_modules, with the machine's Node.js and
#     npm (Debian's nodejs/npm when missing); nothing of it is committed;
#   - PEV2 (explain.dalibo.com's plan viewer) with jsdom and Vue (npm, pinned
#     by optimizer/testdata/pev2/package-lock.json) into
#     optimizer/testdata/pev2/node_modules, for optimizer's
#     TestPEV2ReadsJSONPlans; nothing of it is committed either;
#   - the PostgreSQL JDBC driver (libpostgresql-jdbc-java, the jar under
#     /usr/share/java) and a JDK for javac (default-jdk-headless when missing);
#   - ActiveRecord 6.1 and the pg gem (ruby-activerecord, ruby-pg) for the
#     Rails ORM scenario;
#   - Chromium (chromium, with fonts-dejavu-core for its text), which
#     e2e/console runs headless to load the browser console's pages and
#     take their screenshots;
#   - pgbench, which bookworm ships in the server package postgresql-15
#     (postgresql-client-16 and later ship it themselves); no cluster is
#     created or started for it.
# lib/pq needs nothing here: it is a Go module in go.mod.
# Idempotent and quiet when everything is present. Needs root or sudo only
# when a Debian package is missing.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRIPT_NAME=install-client-deps
# shellcheck source=lib/apt.sh
source "$repo_root/scripts/lib/apt.sh"
node_dir="$repo_root/e2e/clients/testdata/node"

need=()

# The tests run Debian's interpreter (/usr/bin/python3), since that is the
# one python3-psycopg2 installs into, whatever python3 comes first on PATH.
if ! { [[ -x /usr/bin/python3 ]] && /usr/bin/python3 -c 'import psycopg2' >/dev/null 2>&1; }; then
	need+=(python3 python3-psycopg2)
fi
if ! /usr/bin/python3 -c 'import sqlalchemy, pandas' >/dev/null 2>&1; then
	need+=(python3-sqlalchemy python3-pandas)
fi
if ! /usr/bin/python3 -c 'import django' >/dev/null 2>&1; then
	need+=(python3-django)
fi
if ! /usr/bin/python3 -c 'import psycopg' >/dev/null 2>&1; then
	need+=(python3-psycopg)
fi
if ! /usr/bin/python3 -c 'import asyncpg' >/dev/null 2>&1; then
	need+=(python3-asyncpg)
fi
# pgcli, whose completion queries TestPgcliCompletion runs.
if ! /usr/bin/python3 -c 'import pgcli' >/dev/null 2>&1; then
	need+=(pgcli)
fi

if [[ ! -f /usr/share/java/postgresql.jar ]]; then
	need+=(libpostgresql-jdbc-java)
fi

# ActiveRecord 6.1 with the pg gem, for the Rails ORM scenario.
if ! { command -v ruby >/dev/null 2>&1 && ruby -e 'require "active_record"; require "pg"' >/dev/null 2>&1; }; then
	need+=(ruby ruby-activerecord ruby-pg)
fi
if ! command -v javac >/dev/null 2>&1; then
	need+=(default-jdk-headless)
fi

if ! command -v node >/dev/null 2>&1; then
	need+=(nodejs)
fi

# Headless Chromium for e2e/console (driven over the DevTools pipe).
if ! command -v chromium >/dev/null 2>&1; then
	need+=(chromium fonts-dejavu-core)
fi
if ! command -v npm >/dev/null 2>&1; then
	need+=(npm)
fi

pgbench_ok() {
	command -v pgbench >/dev/null 2>&1 && pgbench --version >/dev/null 2>&1
}
if ! pgbench_ok; then
	# Installing the server package would create and start a "main" cluster;
	# pgbench only needs the binary, so switch that off first (a drop-in that
	# postgresql-common's createcluster.conf reads).
	if [[ ! -e /etc/postgresql-common/createcluster.conf ]]; then
		as_root mkdir -p /etc/postgresql-common/createcluster.d
		echo "create_main_cluster = false" |
			as_root tee /etc/postgresql-common/createcluster.d/zproxy-no-main-cluster.conf >/dev/null
	fi
	need+=(postgresql-client)
	if ! apt-cache show postgresql-client 2>/dev/null | grep -q '^Depends:.*postgresql-client-1[6-9]'; then
		need+=(postgresql-15)
	fi
fi

if ((${#need[@]} > 0)); then
	apt_install "${need[@]}"
fi

pgbench_ok || {
	echo "install-client-deps: pgbench still not runnable after installing ${need[*]}" >&2
	exit 1
}

# node-postgres, its cursor and COPY companions and the ORMs, pinned by
# package.json / package-lock.json.
node_missing=false
for m in pg pg-cursor pg-copy-streams sequelize typeorm knex reflect-metadata; do
	[[ -f "$node_dir/node_modules/$m/package.json" ]] || node_missing=true
done
if $node_missing; then
	echo "install-client-deps: installing node-postgres, pg-cursor, pg-copy-streams, Sequelize, TypeORM and knex into $node_dir/node_modules"
	(cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1 ||
		npm install --no-audit --no-fund --loglevel=error)
fi

# PEV2, the plan viewer of explain.dalibo.com, with jsdom and Vue, pinned by
# optimizer/testdata/pev2/package-lock.json: optimizer's TestPEV2ReadsJSONPlans
# loads zproxy's EXPLAIN (FORMAT JSON) plans into it.
pev2_dir="$repo_root/optimizer/testdata/pev2"
if [[ ! -f "$pev2_dir/node_modules/pev2/package.json" ]]; then
	echo "install-client-deps: installing PEV2, jsdom and Vue into $pev2_dir/node_modules"
	(cd "$pev2_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1 ||
		npm install --no-audit --no-fund --loglevel=error)
fi
