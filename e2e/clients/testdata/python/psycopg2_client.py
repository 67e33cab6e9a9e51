"""psycopg2 against zproxy: the scenario of e2e/clients (see doc.go there).

Usage: python3 psycopg2_client.py HOST PORT TABLE

psycopg2 interpolates parameters into the SQL text on the client and sends
simple-protocol queries ('...'::bytea, '...'::timestamptz and so on). With
autocommit off (its default) it sends BEGIN before the first statement of a
transaction. Prints one line per check and exits non-zero on the first
mismatch.
"""

import datetime
import sys
import uuid

import psycopg2
import psycopg2.extras

UTC = datetime.timezone.utc
IST = datetime.timezone(datetime.timedelta(hours=5, minutes=30))

COLUMNS = ["id", "sm", "i", "bi", "r", "d", "tx", "vc", "b", "ts", "tz", "dt", "by", "u"]

# The type OIDs PostgreSQL reports for the columns, in order.
OIDS = [23, 21, 23, 20, 700, 701, 25, 1043, 16, 1114, 1184, 1082, 17, 2950]

ROWS = [
    (1, 12345, 2147483647, -9223372036854775808, 1.5, 3.141592653589793,
     "héllo, wörld ☃", "varchar", True,
     datetime.datetime(2024, 2, 29, 13, 45, 56, 789012),
     datetime.datetime(2024, 6, 30, 23, 59, 59, 500000, tzinfo=UTC),
     datetime.date(2024, 2, 29), b"\x00\x01\xff'\\",
     uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")),
    (2,) + (None,) * 13,
    (3, -32768, 0, 9223372036854775807, -0.25, 1e300, "", "x", False,
     datetime.datetime(1999, 12, 31, 23, 59, 59),
     datetime.datetime(2001, 2, 3, 4, 5, 6, tzinfo=IST),
     datetime.date(1900, 1, 1), b"",
     uuid.UUID("00000000-0000-0000-0000-000000000000")),
]


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def normalise(v):
    if isinstance(v, memoryview):
        return bytes(v)
    return v


def expect_error(conn, sql, args, code):
    cur = conn.cursor()
    try:
        cur.execute(sql, args)
    except psycopg2.Error as e:
        if e.pgcode != code:
            fail("%s: SQLSTATE %s (%s), want %s" % (sql, e.pgcode, e.pgerror, code))
        print("ok: %s -> %s" % (sql, code), flush=True)
    else:
        fail("%s: no error, want SQLSTATE %s" % (sql, code))
    finally:
        # The transaction psycopg2 opened is aborted: end it, as an
        # application would.
        conn.rollback()


def count_rows(conn, table):
    cur = conn.cursor()
    cur.execute("SELECT count(*) FROM " + table)
    (n,) = cur.fetchone()
    conn.commit()
    return n


def main():
    host, port, table = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    psycopg2.extras.register_uuid()
    conn = psycopg2.connect(host=host, port=port, user="zproxy", dbname="zproxy",
                            connect_timeout=10, sslmode="disable",
                            application_name="zproxy-e2e-psycopg2")
    if conn.autocommit:
        fail("autocommit is on; the test is about psycopg2's default BEGIN")
    cur = conn.cursor()
    cur.execute("""CREATE TABLE %s (id integer NOT NULL, sm smallint, i integer, bi bigint,
        r real, d double precision, tx text, vc varchar(20), b boolean, ts timestamp,
        tz timestamptz, dt date, by bytea, u uuid, PRIMARY KEY (id)) WITH (shards = 2)""" % table)
    conn.commit()
    print("ok: create table in a transaction", flush=True)

    placeholders = "(" + ", ".join(["%s"] * len(COLUMNS)) + ")"
    wrapped = [tuple(psycopg2.Binary(v) if isinstance(v, bytes) else v for v in row)
               for row in ROWS]
    cur.execute("INSERT INTO %s VALUES %s" % (table, placeholders), wrapped[0])
    if cur.rowcount != 1:
        fail("insert of one row: rowcount %d" % cur.rowcount)
    cur.execute("INSERT INTO %s VALUES %s, %s" % (table, placeholders, placeholders),
                wrapped[1] + wrapped[2])
    if cur.rowcount != 2:
        fail("insert of two rows: rowcount %d" % cur.rowcount)
    conn.commit()
    print("ok: inserts with parameters of every type", flush=True)

    cur.execute("SELECT %s FROM %s ORDER BY id" % (", ".join(COLUMNS), table))
    got_oids = [d.type_code for d in cur.description]
    if got_oids != OIDS:
        fail("column type OIDs %r, want %r" % (got_oids, OIDS))
    got_names = [d.name for d in cur.description]
    if got_names != COLUMNS:
        fail("column names %r, want %r" % (got_names, COLUMNS))
    rows = [tuple(normalise(v) for v in row) for row in cur.fetchall()]
    conn.commit()
    if len(rows) != len(ROWS):
        fail("%d rows, want %d" % (len(rows), len(ROWS)))
    for got, want in zip(rows, ROWS):
        for name, g, w in zip(COLUMNS, got, want):
            if type(g) is not type(w) or g != w:
                fail("row %s column %s: got %r (%s), want %r (%s)"
                     % (want[0], name, g, type(g).__name__, w, type(w).__name__))
    print("ok: read back %d rows, values and type OIDs exact" % len(rows), flush=True)

    cur.execute("SELECT tx, bi FROM " + table + " WHERE id = %s AND b = %s", (1, True))
    if cur.fetchall() != [(ROWS[0][6], ROWS[0][3])]:
        fail("point select with parameters")
    conn.commit()
    print("ok: point select with parameters", flush=True)

    expect_error(conn, "INSERT INTO " + table + " (id, tx) VALUES (%s, %s)", (1, "dup"), "23505")
    if count_rows(conn, table) != 3:
        fail("after the duplicate key error the table does not hold 3 rows")
    expect_error(conn, "SELECT * FROM no_such_table WHERE id = %s", (1,), "42P01")
    if count_rows(conn, table) != 3:
        fail("count after the unknown table error")
    print("ok: connection usable after errors", flush=True)

    # An explicit ROLLBACK of a transaction that did nothing.
    cur = conn.cursor()
    cur.execute("SELECT 1")
    conn.rollback()
    conn.close()
    print("PASS", flush=True)


if __name__ == "__main__":
    main()
