"""SQLAlchemy 1.4's ORM unit of work and pandas' to_sql against zproxy or
PostgreSQL: issue 15.

Usage: python3 sqlalchemy_writes.py HOST PORT USER DBNAME

Declarative models whose Integer primary keys become SERIAL columns
(metadata.create_all), Session.add_all + commit (an INSERT ... RETURNING
per row), session.rollback() after an IntegrityError, begin_nested()
(SAVEPOINT sa_savepoint_N) rolled back alone, and pandas to_sql with
if_exists='replace' then 'append' (the index written as a column) read back
with read_sql. Prints one line per check, then PASS; exits 1 at the first
mismatch.
"""

import datetime
import sys

import pandas as pd
import pandas.testing
import sqlalchemy as sa
from sqlalchemy import exc, orm

from checks import check, fail


Base = orm.declarative_base()


class Account(Base):
    __tablename__ = "sa_w_account"
    id = sa.Column(sa.Integer, primary_key=True)
    owner = sa.Column(sa.String(40), nullable=False)
    balance = sa.Column(sa.Integer, nullable=False, server_default=sa.text("0"))
    opened = sa.Column(sa.DateTime(timezone=True), server_default=sa.func.now())


class Note(Base):
    __tablename__ = "sa_w_note"
    id = sa.Column(sa.Integer, primary_key=True)
    account_id = sa.Column(sa.Integer, nullable=False)
    body = sa.Column(sa.Text)


def committed(engine, sql):
    """What a separate connection sees (committed rows only)."""
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(sql))]


def main():
    host, port, user, dbname = sys.argv[1:5]
    engine = sa.create_engine(f"postgresql+psycopg2://{user}@{host}:{port}/{dbname}", future=True)
    Base.metadata.drop_all(engine)
    Base.metadata.create_all(engine)
    with engine.connect() as conn:
        default = conn.execute(sa.text(
            "SELECT column_default FROM information_schema.columns "
            "WHERE table_name = 'sa_w_account' AND column_name = 'id'")).scalar()
    check("Integer primary key became a serial", default, "nextval('sa_w_account_id_seq'::regclass)")

    with orm.Session(engine) as session:
        # add_all + commit: the keys come back through RETURNING.
        accounts = [Account(owner=o) for o in ("ann", "bob", "cy")]
        session.add_all(accounts)
        session.commit()
        check("add_all keys", [a.id for a in accounts], [1, 2, 3])
        check("server defaults fetched after commit", [a.balance for a in accounts], [0, 0, 0])
        check("now() default filled", all(isinstance(a.opened, datetime.datetime) for a in accounts), True)
        check("committed rows", committed(engine, "SELECT id, owner FROM sa_w_account ORDER BY id"),
              [(1, "ann"), (2, "bob"), (3, "cy")])

        # An IntegrityError: the flush fails, session.rollback() undoes the
        # whole transaction (the earlier flushed row too) and the session
        # goes on.
        session.add(Account(owner="lost"))
        session.flush()
        session.expunge(accounts[0])  # so the database, not the identity map, refuses id 1
        session.add(Account(id=1, owner="duplicate"))
        try:
            session.commit()
            fail("duplicate primary key: no IntegrityError")
        except exc.IntegrityError as e:
            check("IntegrityError SQLSTATE", e.orig.pgcode, "23505")
        try:
            session.query(Account).count()
            fail("the session was usable before rollback()")
        except exc.PendingRollbackError:
            print("ok  PendingRollbackError until rollback()", flush=True)
        session.rollback()
        check("after rollback() the session works", session.query(Account).count(), 3)
        check("nothing of the failed transaction", committed(engine, "SELECT count(*) FROM sa_w_account WHERE owner IN ('lost', 'duplicate')"), [(0,)])

        # Updates through the unit of work.
        ann = session.get(Account, 1)
        ann.balance += 100
        session.add(Note(account_id=ann.id, body="deposit"))
        session.commit()
        check("ORM update and insert committed together",
              committed(engine, "SELECT a.balance, n.body FROM sa_w_account a JOIN sa_w_note n ON n.account_id = a.id"),
              [(100, "deposit")])

        # Nested transactions: the inner one rolled back alone.
        session.add(Account(owner="outer"))
        inner = session.begin_nested()
        session.add(Account(owner="inner"))
        session.flush()
        check("the inner row is visible inside", session.query(Account).filter_by(owner="inner").count(), 1)
        inner.rollback()
        check("the inner row is gone after its rollback", session.query(Account).filter_by(owner="inner").count(), 0)
        # An IntegrityError inside begin_nested() rolls back to the
        # savepoint; the outer transaction carries on.
        session.expunge(accounts[1])
        try:
            with session.begin_nested():
                session.add(Account(id=2, owner="dup"))
            fail("begin_nested: no IntegrityError")
        except exc.IntegrityError as e:
            check("nested IntegrityError SQLSTATE", e.orig.pgcode, "23505")
        with session.begin_nested():
            session.add(Account(owner="released"))
        ann.balance -= 30
        session.commit()
        check("outer and released rows kept, inner and duplicate dropped",
              committed(engine, "SELECT owner FROM sa_w_account WHERE id > 3 ORDER BY id"), [("outer",), ("released",)])
        check("the outer update committed", committed(engine, "SELECT balance FROM sa_w_account WHERE id = 1"), [(70,)])

        # Deleting through the ORM, then rolling back.
        session.delete(session.get(Account, 2))
        session.flush()
        session.rollback()
        check("a rolled-back delete keeps the row", committed(engine, "SELECT count(*) FROM sa_w_account WHERE id = 2"), [(1,)])

    # pandas: to_sql replace, then append, the index as a column.
    first = pd.DataFrame({
        "name": ["a", "b", None],
        "qty": [1, 2, 3],
        "price": [1.5, float("nan"), -2.25],
        "ok": [True, False, True],
        "at": pd.to_datetime(["2024-01-01 10:00", "2024-02-29 23:59:59", "1999-12-31"]),
    }, index=pd.Index([10, 20, 30], name="idx"))
    second = pd.DataFrame({
        "name": ["d", "é☃"],
        "qty": [4, -5],
        "price": [0.0, 1e300],
        "ok": [False, False],
        "at": pd.to_datetime(["2030-06-30 12:00", "1970-01-01"]),
    }, index=pd.Index([40, 50], name="idx"))
    # pandas 1.5 calls Engine.execute, which a future=True engine lacks.
    engine = sa.create_engine(f"postgresql+psycopg2://{user}@{host}:{port}/{dbname}")
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE IF EXISTS sa_w_frame"))
    check("to_sql replace rows", first.to_sql("sa_w_frame", engine, if_exists="replace", index=True), 3)
    # A second replace drops and recreates the table.
    check("to_sql replace again", first.to_sql("sa_w_frame", engine, if_exists="replace", index=True), 3)
    check("to_sql append rows", second.to_sql("sa_w_frame", engine, if_exists="append", index=True), 2)
    back = pd.read_sql("SELECT * FROM sa_w_frame ORDER BY idx", engine, index_col="idx")
    want = pd.concat([first, second])
    pandas.testing.assert_frame_equal(back, want)
    print("ok  read_sql round trip of to_sql replace + append", flush=True)
    check("read_sql with params", pd.read_sql(sa.text("SELECT qty FROM sa_w_frame WHERE idx >= :lo ORDER BY idx"),
                                              engine, params={"lo": 30})["qty"].tolist(), [3, 4, -5])

    engine.dispose()
    print("PASS", flush=True)


main()
