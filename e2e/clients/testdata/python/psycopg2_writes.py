"""psycopg2's transaction flows against zproxy (or PostgreSQL): issue 15.

Usage: python3 psycopg2_writes.py HOST PORT USER DBNAME

psycopg2 starts a transaction (BEGIN) before the first statement after
connect, commit or rollback unless autocommit is on; applications rely on
rollback undoing everything since, on an error failing the whole block
until rollback, and on `with conn:` committing on success and rolling back
on an exception. Each check prints one line; the first mismatch exits 1.
"""

import sys

import psycopg2
import psycopg2.errors
import psycopg2.extensions as ext

from checks import check, fail


def expect_sqlstate(what, fn, code):
    try:
        fn()
    except psycopg2.Error as e:
        if e.pgcode != code:
            fail("%s: SQLSTATE %s (%s), want %s" % (what, e.pgcode, e.pgerror, code))
        print("ok  %s: %s" % (what, code), flush=True)
        return
    fail("%s: no error, want SQLSTATE %s" % (what, code))


def keys(conn, table):
    """The keys of table as another connection sees them (committed rows)."""
    cur = conn.cursor()
    cur.execute("SELECT k FROM %s ORDER BY k" % table)
    return [r[0] for r in cur.fetchall()]


def main():
    host, port, user, dbname = sys.argv[1:5]

    def connect():
        return psycopg2.connect(host=host, port=port, user=user, dbname=dbname, connect_timeout=10)

    conn = connect()
    # The observer reads in autocommit, so every read sees what is committed.
    obs = connect()
    obs.autocommit = True
    setup = obs.cursor()
    for t in ("w2_kv", "w2_serial"):
        setup.execute("DROP TABLE IF EXISTS " + t)
    setup.execute("CREATE TABLE w2_kv (k integer PRIMARY KEY, v text)")
    setup.execute("CREATE TABLE w2_serial (id bigserial PRIMARY KEY, name text NOT NULL)")

    check("autocommit is off by default", conn.autocommit, False)
    cur = conn.cursor()

    # insert, insert, rollback: nothing.
    cur.execute("INSERT INTO w2_kv VALUES (%s, %s)", (1, "a"))
    check("inside the block", conn.get_transaction_status(), ext.TRANSACTION_STATUS_INTRANS)
    cur.execute("INSERT INTO w2_kv VALUES (%s, %s)", (2, "b"))
    cur.execute("SELECT count(*) FROM w2_kv")
    check("the block reads its own writes", cur.fetchone()[0], 2)
    check("other connections do not see them", keys(obs, "w2_kv"), [])
    conn.rollback()
    check("rollback keeps nothing", keys(obs, "w2_kv"), [])

    # An error in the second statement fails the block; nothing is kept.
    cur.execute("INSERT INTO w2_kv VALUES (%s, %s)", (10, "first"))
    expect_sqlstate("duplicate key in the block",
                    lambda: cur.execute("INSERT INTO w2_kv VALUES (%s, %s), (%s, %s)", (11, "x", 10, "dup")), "23505")
    check("block failed", conn.get_transaction_status(), ext.TRANSACTION_STATUS_INERROR)
    expect_sqlstate("next statement in the failed block", lambda: cur.execute("SELECT 1"), "25P02")
    conn.rollback()
    check("after the failed block nothing is kept", keys(obs, "w2_kv"), [])
    cur.execute("SELECT count(*) FROM w2_kv")
    check("the connection goes on after rollback", cur.fetchone()[0], 0)
    conn.rollback()

    # The commit path.
    cur.executemany("INSERT INTO w2_kv VALUES (%s, %s)", [(20, "p"), (21, "q"), (22, "r")])
    check("not visible before commit", keys(obs, "w2_kv"), [])
    conn.commit()
    check("commit keeps every row", keys(obs, "w2_kv"), [20, 21, 22])
    cur.execute("UPDATE w2_kv SET v = v || '!' WHERE k >= %s", (21,))
    check("UPDATE rowcount", cur.rowcount, 2)
    cur.execute("DELETE FROM w2_kv WHERE k = 20")
    conn.commit()
    ocur = obs.cursor()
    ocur.execute("SELECT k, v FROM w2_kv ORDER BY k")
    check("UPDATE and DELETE committed together", ocur.fetchall(), [(21, "q!"), (22, "r!")])

    # `with conn:` commits when the body ends, rolls back when it raises.
    with conn:
        with conn.cursor() as c:
            c.execute("INSERT INTO w2_kv VALUES (30, 'ctx')")
    check("with conn: commits", keys(obs, "w2_kv"), [21, 22, 30])

    class Boom(Exception):
        pass

    try:
        with conn:
            with conn.cursor() as c:
                c.execute("INSERT INTO w2_kv VALUES (31, 'ctx')")
                c.execute("DELETE FROM w2_kv WHERE k = 21")
                raise Boom()
    except Boom:
        pass
    check("with conn: rolls back on an exception", keys(obs, "w2_kv"), [21, 22, 30])
    try:
        with conn:
            with conn.cursor() as c:
                c.execute("INSERT INTO w2_kv VALUES (32, 'ctx')")
                c.execute("INSERT INTO w2_kv VALUES (30, 'dup')")
    except psycopg2.errors.UniqueViolation:
        print("ok  with conn: a database error propagates", flush=True)
    check("with conn: rolls back on a database error", keys(obs, "w2_kv"), [21, 22, 30])

    # Autocommit on: no BEGIN, each statement stands alone.
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("INSERT INTO w2_kv VALUES (40, 'auto')")
    check("autocommit: idle after a statement", conn.get_transaction_status(), ext.TRANSACTION_STATUS_IDLE)
    check("autocommit: visible at once", keys(obs, "w2_kv"), [21, 22, 30, 40])
    expect_sqlstate("autocommit: a failing statement", lambda: cur.execute("INSERT INTO w2_kv VALUES (41, 'x'), (40, 'dup')"), "23505")
    check("autocommit: the failing statement left nothing, earlier ones stay", keys(obs, "w2_kv"), [21, 22, 30, 40])
    cur.execute("SELECT 1")
    check("autocommit: no failed block after an error", cur.fetchone()[0], 1)
    conn.autocommit = False

    # RETURNING id of a BIGSERIAL.
    cur = conn.cursor()
    cur.execute("INSERT INTO w2_serial (name) VALUES (%s) RETURNING id", ("one",))
    first = cur.fetchone()[0]
    check("RETURNING id of a bigserial", first, 1)
    cur.execute("INSERT INTO w2_serial (name) VALUES ('two'), ('three') RETURNING id, name")
    check("multi-row RETURNING", cur.fetchall(), [(2, "two"), (3, "three")])
    check("RETURNING column type is int8", cur.description[0].type_code, 20)
    conn.rollback()
    cur.execute("INSERT INTO w2_serial (name) VALUES ('four') RETURNING id")
    check("a rolled-back insert still used its sequence values", cur.fetchone()[0], 4)
    cur.execute("UPDATE w2_serial SET name = upper(name) WHERE id = 4 RETURNING id, name")
    check("UPDATE ... RETURNING", cur.fetchall(), [(4, "FOUR")])
    cur.execute("SELECT currval('w2_serial_id_seq')")
    check("currval after the inserts", cur.fetchone()[0], 4)
    conn.commit()
    ocur.execute("SELECT id, name FROM w2_serial ORDER BY id")
    check("committed serial rows", ocur.fetchall(), [(4, "FOUR")])

    # Savepoints spelled as SQL, the way applications do without an ORM.
    cur.execute("INSERT INTO w2_kv VALUES (50, 'outer')")
    cur.execute("SAVEPOINT a")
    cur.execute("INSERT INTO w2_kv VALUES (51, 'inner')")
    cur.execute("ROLLBACK TO SAVEPOINT a")
    cur.execute("INSERT INTO w2_kv VALUES (52, 'after')")
    cur.execute("SAVEPOINT b")
    expect_sqlstate("duplicate key after SAVEPOINT b", lambda: cur.execute("INSERT INTO w2_kv VALUES (50, 'dup')"), "23505")
    expect_sqlstate("the block is failed until ROLLBACK TO", lambda: cur.execute("SELECT 1"), "25P02")
    cur.execute("ROLLBACK TO SAVEPOINT b")
    cur.execute("SELECT k FROM w2_kv WHERE k >= 50 ORDER BY k")
    check("ROLLBACK TO recovers the block", [r[0] for r in cur.fetchall()], [50, 52])
    cur.execute("RELEASE SAVEPOINT a")
    expect_sqlstate("a released savepoint is gone", lambda: cur.execute("ROLLBACK TO SAVEPOINT a"), "3B001")
    conn.rollback()
    check("rollback drops the savepoints' block entirely", keys(obs, "w2_kv"), [21, 22, 30, 40])
    cur.execute("INSERT INTO w2_kv VALUES (60, 'outer')")
    cur.execute("SAVEPOINT s1")
    cur.execute("INSERT INTO w2_kv VALUES (61, 'kept')")
    cur.execute("SAVEPOINT s2")
    cur.execute("DELETE FROM w2_kv WHERE k = 21")
    cur.execute("ROLLBACK TO SAVEPOINT s2")
    cur.execute("RELEASE SAVEPOINT s1")
    conn.commit()
    check("commit keeps what the savepoints kept", keys(obs, "w2_kv"), [21, 22, 30, 40, 60, 61])

    conn.close()
    obs.close()
    print("PASS", flush=True)


main()
