"""pgcli's completion refresher against a server: the queries pgcli 3.5 runs
to complete schemas, tables, views, columns, foreign keys, functions, types
and databases (pgcli.pgexecute.PGExecute), over a small schema this script
makes. The answers expected are PostgreSQL 15's.

usage: pgcli_client.py host port user dbname"""

import sys

import psycopg
from pgcli.pgexecute import PGExecute

from checks import check

host, port, user, db = sys.argv[1:5]

setup = psycopg.connect(host=host, port=port, user=user, dbname=db, autocommit=True)
with setup.cursor() as cur:
    for q in [
        "DROP VIEW IF EXISTS pgcli_v",
        "DROP TABLE IF EXISTS pgcli_child",
        "DROP TABLE IF EXISTS pgcli_parent",
        "CREATE EXTENSION IF NOT EXISTS citext",
        "CREATE TABLE pgcli_parent (id INT PRIMARY KEY, name citext NOT NULL)",
        "CREATE TABLE pgcli_child (id INT PRIMARY KEY, parent_id INT REFERENCES pgcli_parent (id), note TEXT)",
        "CREATE VIEW pgcli_v AS SELECT id, name FROM pgcli_parent",
    ]:
        cur.execute(q)

e = PGExecute(database=db, user=user, password=None, host=host, port=int(port), dsn=None)

mine = lambda rows: sorted(tuple(r) for r in rows if r[1].startswith("pgcli_"))
check("schemata", sorted(s for s in e.schemata() if not s.startswith(("pg_temp", "pg_toast_temp"))),
      ["information_schema", "pg_catalog", "pg_toast", "public"])
check("tables", mine(e.tables()), [("public", "pgcli_child"), ("public", "pgcli_parent")])
check("views", mine(e.views()), [("public", "pgcli_v")])
check("table columns", sorted((r[1], r[2], r[3], r[4]) for r in e.table_columns() if r[1].startswith("pgcli_")), [
    ("pgcli_child", "id", "integer", False),
    ("pgcli_child", "note", "text", False),
    ("pgcli_child", "parent_id", "integer", False),
    ("pgcli_parent", "id", "integer", False),
    ("pgcli_parent", "name", "citext", False),
])
check("view columns", sorted((r[1], r[2], r[3]) for r in e.view_columns() if r[1].startswith("pgcli_")),
      [("pgcli_v", "id", "integer"), ("pgcli_v", "name", "citext")])
check("foreign keys", [(f.parentschema, f.parenttable, f.parentcolumn, f.childschema, f.childtable, f.childcolumn)
                       for f in e.foreignkeys() if f.childtable.startswith("pgcli_")],
      [("public", "pgcli_parent", "id", "public", "pgcli_child", "parent_id")])
funcs = sorted((f.schema_name, f.func_name, f.arg_types or (), f.return_type, f.is_aggregate, f.is_set_returning)
               for f in e.functions()
               if f.func_name in ("array_length", "lower", "now", "count", "generate_subscripts")
               and not any(a in ("anyrange", "anymultirange") for a in (f.arg_types or ())))
check("functions", funcs, [
    ("pg_catalog", "array_length", ("anyarray", "integer"), "integer", False, False),
    ("pg_catalog", "count", (), "bigint", True, False),
    ("pg_catalog", "count", ("\"any\"",), "bigint", True, False),
    ("pg_catalog", "generate_subscripts", ("anyarray", "integer"), "integer", False, True),
    ("pg_catalog", "generate_subscripts", ("anyarray", "integer", "boolean"), "integer", False, True),
    ("pg_catalog", "lower", ("text",), "text", False, False),
    ("pg_catalog", "now", (), "timestamp with time zone", False, False),
])
check("types", sorted(tuple(r) for r in e.datatypes() if r[1] in ("int4", "text", "citext", "timestamptz")),
      [("public", "citext")])
check("databases", db in list(e.databases()), True)
print("PASS")
