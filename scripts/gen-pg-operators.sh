#!/usr/bin/env bash
# gen-pg-operators.sh — write PostgreSQL 15's whole pg_operator to
# catalog/pgcatalog/testdata/pg_operator.txt from a running PostgreSQL 15
# (psql's usual PGHOST/PGPORT/PGUSER settings choose it), one row a line:
# oid|name|kind|canmerge|canhash|left|right|result|commutator|negator|
# function OID|function.
#
# session's TestOperatorsAgainstPostgres binds every one of these whose
# types zproxy has and checks that catalog/pgcatalog/operators_gen.go
# (zproxy's pg_operator, and the operators whose implementation functions
# a query may call by name) lists exactly those that bind with
# PostgreSQL's result type; `go test ./session -run
# TestOperatorsAgainstPostgres -update-operators` rewrites it.
#
#   PGHOST=/tmp PGPORT=5432 PGUSER=postgres scripts/gen-pg-operators.sh
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo_root/catalog/pgcatalog/testdata/pg_operator.txt"

version=$(psql -XAtc "show server_version_num")
if [[ "${version:0:2}" != 15 ]]; then
	echo "gen-pg-operators: PostgreSQL 15 wanted, the server is $version" >&2
	exit 1
fi

psql -XAt -F'|' -c "
	select o.oid, oprname, oprkind,
	       case when oprcanmerge then 't' else 'f' end,
	       case when oprcanhash then 't' else 'f' end,
	       oprleft::oid, oprright::oid, oprresult::oid, oprcom::oid, oprnegate::oid,
	       oprcode::oid, oprcode
	from pg_operator o
	where oprnamespace = 'pg_catalog'::regnamespace
	order by o.oid" >"$out"
echo "gen-pg-operators: $(wc -l <"$out") operators written to $out"
