"""psycopg 3 against zproxy (or, with E2E_POSTGRES, PostgreSQL).

Usage: python3 psycopg3_client.py HOST PORT USER DBNAME

psycopg 3 uses the extended protocol with server-side parameters. Covered:
prepared statements (prepare=True: named statements Bound again and again),
the DEALLOCATE ALL it sends after a rollback that follows prepared
statements, a pipeline in which a statement fails (the error must come back
while the client waits at a Flush), COPY in text and binary format both
ways, and named (server-side) cursors: DECLARE, FETCH FORWARD, MOVE, a
SCROLL cursor going back, a WITH HOLD cursor outliving its transaction.
Prints one line per check and "PASS" at the end; exits non-zero at the
first mismatch.
"""

import datetime
import sys

import psycopg
from psycopg import errors


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def check(what, got, want):
    if got != want:
        fail("%s: got %r, want %r" % (what, got, want))
    print("ok  " + what, flush=True)


def expect_error(what, fn, exc):
    try:
        fn()
    except exc as e:
        print("ok  %s: %s %s" % (what, e.sqlstate, str(e).splitlines()[0]), flush=True)
        return
    fail("%s: no %s" % (what, exc.__name__))


def main():
    host, port, user, dbname = sys.argv[1:5]
    conninfo = "host=%s port=%s user=%s dbname=%s connect_timeout=10" % (host, port, user, dbname)
    conn = psycopg.connect(conninfo, autocommit=True)
    conn.execute("DROP TABLE IF EXISTS pg3_t")
    conn.execute("CREATE TABLE pg3_t (id int PRIMARY KEY, name text, at timestamp)")

    # Prepared statements: psycopg names them and Binds them again.
    for i in range(1, 6):
        conn.execute("INSERT INTO pg3_t (id, name) VALUES (%s, %s)", (i, "n%d" % i), prepare=True)
    check("prepared inserts", conn.execute("SELECT count(*) FROM pg3_t").fetchone()[0], 5)
    got = [conn.execute("SELECT name FROM pg3_t WHERE id = %s", (i,), prepare=True).fetchone()[0] for i in (2, 4)]
    check("prepared select", got, ["n2", "n4"])
    check("server knows them", conn.execute("SELECT name FROM pg3_t WHERE id = %s", (5,), prepare=True).fetchone()[0], "n5")

    # A rollback after prepared statements: psycopg 3 sends DEALLOCATE ALL
    # and prepares them again afterwards.
    conn.autocommit = False
    conn.execute("SELECT name FROM pg3_t WHERE id = %s", (1,), prepare=True)
    conn.rollback()
    check("prepared again after DEALLOCATE ALL",
          conn.execute("SELECT name FROM pg3_t WHERE id = %s", (3,), prepare=True).fetchone()[0], "n3")
    conn.rollback()
    conn.autocommit = True

    # A pipeline in which one statement fails: the error reaches the
    # client, what follows it up to the next sync is skipped, and the
    # connection goes on.
    try:
        with conn.pipeline() as p:
            conn.execute("INSERT INTO pg3_t (id, name) VALUES (%s, %s)", (10, "before"))
            p.sync()
            conn.execute("INSERT INTO pg3_nosuch VALUES (%s)", (1,))
            conn.execute("INSERT INTO pg3_t (id, name) VALUES (%s, %s)", (11, "skipped"))
        fail("pipeline: no error")
    except errors.UndefinedTable as e:
        print("ok  pipeline error: %s" % e.sqlstate, flush=True)
    check("pipeline: the statement before the sync ran", conn.execute("SELECT name FROM pg3_t WHERE id = 10").fetchone()[0], "before")
    check("pipeline: the statement after the error did not", conn.execute("SELECT count(*) FROM pg3_t WHERE id = 11").fetchone()[0], 0)
    with conn.pipeline():
        cur1 = conn.execute("SELECT 1")
        cur2 = conn.execute("SELECT %s::int + 1", (1,))
    check("pipelined results", (cur1.fetchone()[0], cur2.fetchone()[0]), (1, 2))

    # COPY, text format both ways.
    cur = conn.cursor()
    with cur.copy("COPY pg3_t (id, name, at) FROM STDIN") as copy:
        for i in range(100, 200):
            copy.write_row((i, "tab\there" if i == 100 else "c%d" % i, datetime.datetime(2024, 1, 1, 0, i % 60)))
        copy.write_row((200, None, None))
    check("COPY FROM rows", cur.rowcount, 101)
    check("COPY FROM escapes", conn.execute("SELECT name FROM pg3_t WHERE id = 100").fetchone()[0], "tab\there")
    with cur.copy("COPY (SELECT id, name FROM pg3_t WHERE id IN (100, 101, 200) ORDER BY id) TO STDOUT") as copy:
        data = b"".join(bytes(b) for b in copy)
    check("COPY TO text", data, b"100\ttab\\there\n101\tc101\n200\t\\N\n")
    # Binary format both ways.
    with cur.copy("COPY pg3_t (id, name, at) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(["int4", "text", "timestamp"])
        copy.write_row((300, "binary", datetime.datetime(2024, 5, 6, 7, 8, 9, 123456)))
        copy.write_row((301, None, None))
    with cur.copy("COPY (SELECT id, name, at FROM pg3_t WHERE id >= 300 ORDER BY id) TO STDOUT (FORMAT BINARY)") as copy:
        copy.set_types(["int4", "text", "timestamp"])
        rows = list(copy.rows())
    check("COPY binary round trip", rows, [(300, "binary", datetime.datetime(2024, 5, 6, 7, 8, 9, 123456)), (301, None, None)])
    # A bad row: nothing of the COPY is written.
    def bad_copy():
        with cur.copy("COPY pg3_t (id, name) FROM STDIN") as copy:
            copy.write_row((400, "ok"))
            copy.write_row((100, "duplicate"))
    expect_error("COPY with a duplicate key", bad_copy, errors.UniqueViolation)
    check("nothing of the failed COPY", conn.execute("SELECT count(*) FROM pg3_t WHERE id = 400").fetchone()[0], 0)

    # Named (server-side) cursors, inside transactions.
    conn.autocommit = False
    with conn.cursor(name="srv") as sc:
        sc.execute("SELECT id FROM pg3_t WHERE id BETWEEN %s AND %s ORDER BY id", (100, 199))
        check("cursor description", [d.name for d in sc.description], ["id"])
        check("fetchmany", [r[0] for r in sc.fetchmany(3)], [100, 101, 102])
        sc.scroll(10)
        check("scroll (MOVE) then fetchone", sc.fetchone()[0], 113)
        check("fetchall", len(sc.fetchall()), 86)
    conn.commit()
    with conn.cursor(name="scrolly", scrollable=True) as sc:
        sc.execute("SELECT id FROM pg3_t WHERE id BETWEEN 100 AND 109 ORDER BY id")
        sc.fetchmany(5)
        sc.scroll(-3)
        check("SCROLL cursor goes back", sc.fetchone()[0], 102)
        sc.scroll(0, mode="absolute")
        check("scroll absolute", sc.fetchone()[0], 100)
    conn.commit()
    with conn.cursor(name="held", withhold=True) as sc:
        sc.execute("SELECT id FROM pg3_t WHERE id BETWEEN 100 AND 104 ORDER BY id")
        conn.commit()
        check("WITH HOLD cursor after commit", [r[0] for r in sc.fetchall()], [100, 101, 102, 103, 104])
    conn.commit()
    with conn.cursor(name="forward_only", scrollable=False) as sc:
        sc.execute("SELECT id FROM pg3_t ORDER BY id")
        sc.fetchmany(2)
        expect_error("NO SCROLL cursor cannot go back", lambda: sc.scroll(-1), errors.ObjectNotInPrerequisiteState)
    conn.rollback()
    conn.close()
    print("PASS", flush=True)


main()
