"""asyncpg against zproxy (or, with E2E_POSTGRES, PostgreSQL).

Usage: python3 asyncpg_client.py HOST PORT USER DBNAME [PART...]

asyncpg speaks only the extended protocol, in binary format, and pipelines:
it sends Parse/Describe/Flush and waits for the answer before Bind, so an
error found at Parse or Describe must come back at the Flush, not only at
a Sync. Parts: connect (the database asked for, queries of every type,
errors at Parse and Describe, a portal read in chunks by a cursor),
copy (copy_records_to_table, copy_to_table, copy_from_query, copy_from_table),
pool (a pool of connections, released with asyncpg's reset query). Prints one
line per check and "PASS" at the end; exits non-zero at the first mismatch.
"""

import asyncio
import datetime
import decimal
import io
import sys
import uuid

import asyncpg

UTC = datetime.timezone.utc


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def check(what, got, want):
    if got != want:
        fail("%s: got %r, want %r" % (what, got, want))
    print("ok  " + what, flush=True)


async def expect_error(what, coro, sqlstate):
    try:
        await coro
    except asyncpg.PostgresError as e:
        if e.sqlstate != sqlstate:
            fail("%s: SQLSTATE %s (%s), want %s" % (what, e.sqlstate, e, sqlstate))
        print("ok  %s: %s %s" % (what, e.sqlstate, e), flush=True)
        return
    fail("%s: no error, want %s" % (what, sqlstate))


async def part_connect(conn, dbname):
    check("current_database", await conn.fetchval("SELECT current_database()"), dbname)
    await conn.execute("DROP TABLE IF EXISTS apg_t")
    await conn.execute("CREATE TABLE apg_t (id bigint PRIMARY KEY, name text, score double precision, "
                       "ok boolean, at timestamptz, day date, raw bytea, u uuid, amount numeric(10,2))")
    rows = [
        (1, "héllo ☃", 1.5, True, datetime.datetime(2024, 2, 29, 13, 45, 56, 789012, tzinfo=UTC),
         datetime.date(2024, 2, 29), b"\x00\xff'", uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), decimal.Decimal("12.34")),
        (2, None, None, None, None, None, None, None, None),
        (3, "", -0.25, False, datetime.datetime(1999, 12, 31, 23, 59, 59, tzinfo=UTC),
         datetime.date(1900, 1, 1), b"", uuid.UUID(int=0), decimal.Decimal("-0.50")),
    ]
    await conn.executemany("INSERT INTO apg_t VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", rows)
    got = [tuple(r) for r in await conn.fetch("SELECT * FROM apg_t ORDER BY id")]
    check("rows round-trip in binary", got, rows)
    check("fetchval with a parameter", await conn.fetchval("SELECT name FROM apg_t WHERE id = $1", 1), "héllo ☃")
    check("fetchrow", tuple(await conn.fetchrow("SELECT id, ok FROM apg_t WHERE score < $1", 0.0)), (3, False))

    # Errors found at Parse and at Describe come back at asyncpg's Flush.
    await expect_error("syntax error at Parse", conn.fetch("SELEC 1"), "42601")
    await expect_error("unknown table at Describe", conn.prepare("SELECT * FROM apg_nosuch"), "42P01")
    await expect_error("unknown column at Describe", conn.fetchval("SELECT nosuch FROM apg_t"), "42703")
    await expect_error("duplicate key at Execute", conn.execute("INSERT INTO apg_t (id) VALUES (1)"), "23505")
    check("the connection goes on", await conn.fetchval("SELECT count(*) FROM apg_t"), 3)

    # A prepared statement, executed several times.
    ps = await conn.prepare("SELECT id FROM apg_t WHERE id >= $1 ORDER BY id")
    check("prepared statement", [r["id"] for r in await ps.fetch(2)], [2, 3])
    check("prepared statement again", await ps.fetchval(3), 3)
    check("parameter types", [t.name for t in ps.get_parameters()], ["int8"])
    check("result columns", [a.name for a in ps.get_attributes()], ["id"])

    # A cursor reads a portal in chunks (Execute with a row limit) inside a
    # transaction.
    async with conn.transaction():
        await conn.execute("INSERT INTO apg_t (id) SELECT g FROM generate_series(10, 59) g")
        seen = [r["id"] async for r in conn.cursor("SELECT id FROM apg_t WHERE id >= 10 ORDER BY id", prefetch=7)]
        check("cursor with prefetch", seen, list(range(10, 60)))
        cur = await conn.cursor("SELECT id FROM apg_t WHERE id >= $1 ORDER BY id", 10)
        check("cursor.fetch", [r["id"] for r in await cur.fetch(3)], [10, 11, 12])
        await cur.forward(10)
        check("cursor.forward then fetchrow", (await cur.fetchrow())["id"], 23)
    check("rows committed", await conn.fetchval("SELECT count(*) FROM apg_t"), 53)
    async with conn.transaction():
        await conn.execute("DELETE FROM apg_t WHERE id >= 10")


async def part_copy(conn):
    await conn.execute("DROP TABLE IF EXISTS apg_copy")
    await conn.execute("CREATE TABLE apg_copy (id int PRIMARY KEY, name text NOT NULL, score float8, at timestamp)")
    records = [(i, "name %d" % i, i / 4, datetime.datetime(2024, 1, 1) + datetime.timedelta(minutes=i)) for i in range(1, 1001)]
    res = await conn.copy_records_to_table("apg_copy", records=records)
    check("copy_records_to_table (binary COPY FROM)", res, "COPY 1000")
    check("copied rows", await conn.fetchval("SELECT sum(id) FROM apg_copy"), 500500)
    res = await conn.copy_records_to_table("apg_copy", records=[(2001, "x"), (2002, "y")], columns=["id", "name"])
    check("copy_records_to_table with columns", res, "COPY 2")
    check("unnamed columns are NULL", await conn.fetchval("SELECT count(*) FROM apg_copy WHERE score IS NULL"), 2)

    # A bad row anywhere leaves nothing written.
    await expect_error("duplicate key in COPY", conn.copy_records_to_table("apg_copy", records=[(3001, "a"), (1, "dup")], columns=["id", "name"]), "23505")
    await expect_error("NULL in a NOT NULL column", conn.copy_records_to_table("apg_copy", records=[(3002, None)], columns=["id", "name"]), "23502")
    check("nothing of the failed COPYs", await conn.fetchval("SELECT count(*) FROM apg_copy"), 1002)

    src = io.BytesIO(b"id,name\n5001,\"quoted, with comma\"\n5002,\n")
    res = await conn.copy_to_table("apg_copy", source=src, columns=["id", "name"], format="csv", header=True, null="NULL")
    check("copy_to_table (CSV with a header)", res, "COPY 2")
    check("CSV values", await conn.fetchval("SELECT name FROM apg_copy WHERE id = 5001"), "quoted, with comma")
    check("CSV empty string", await conn.fetchval("SELECT name FROM apg_copy WHERE id = 5002"), "")

    out = io.BytesIO()
    res = await conn.copy_from_query("SELECT id, name, score FROM apg_copy WHERE id <= 3 ORDER BY id", output=out, format="csv")
    check("copy_from_query", res, "COPY 3")
    check("copy_from_query output", out.getvalue(), b"1,name 1,0.25\n2,name 2,0.5\n3,name 3,0.75\n")
    out = io.BytesIO()
    res = await conn.copy_from_table("apg_copy", output=out, columns=["id", "name"], delimiter="|")
    check("copy_from_table", res, "COPY 1004")
    lines = set(out.getvalue().decode().splitlines())
    check("copy_from_table text output", {"1|name 1", "2001|x", "5001|quoted, with comma", "5002|"} <= lines, True)


async def part_pool(host, port, user, dbname):
    pool = await asyncpg.create_pool(host=host, port=port, user=user, database=dbname, min_size=2, max_size=4)
    try:
        async def work(i):
            async with pool.acquire() as c:
                await c.execute("SET application_name = 'apg-%d'" % i)
                return await c.fetchval("SELECT $1::int * 2", i)
        got = await asyncio.gather(*[work(i) for i in range(20)])
        check("20 queries over a pool of 4", got, [2 * i for i in range(20)])
        async with pool.acquire() as c:
            # The pool's reset query ran at release: RESET ALL.
            check("settings reset on release", await c.fetchval("SHOW application_name"), "")
    finally:
        await asyncio.wait_for(pool.close(), 20)


async def main():
    host, port, user, dbname = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    parts = sys.argv[5:] or ["connect", "copy", "pool"]
    conn = await asyncpg.connect(host=host, port=port, user=user, database=dbname, timeout=10)
    try:
        if "connect" in parts:
            await part_connect(conn, dbname)
        if "copy" in parts:
            await part_copy(conn)
    finally:
        await conn.close()
    if "pool" in parts:
        await part_pool(host, port, user, dbname)
    print("PASS", flush=True)


asyncio.run(asyncio.wait_for(main(), 50))
