"""SQLAlchemy (Debian's 1.4, psycopg2 dialect) against zproxy or PostgreSQL.

Connects with create_engine, introspects a table the Go test created (the
inspector calls ORMs and migration tools make), maps a class with the ORM,
inserts and counts through a Session (Query.count() wraps the query in a
subquery), and round-trips a DataFrame with pandas to_sql / read_sql.
Prints one line per check, then PASS; any exception or mismatch exits 1.

Usage: sqlalchemy_client.py host port database user table
"""
import sys

import sqlalchemy as sa
from sqlalchemy import orm


def main():
    host, port, db, user, table = sys.argv[1:6]
    engine = sa.create_engine(f"postgresql+psycopg2://{user}@{host}:{port}/{db}")
    with engine.connect() as conn:
        print("server_version_info", engine.dialect.server_version_info[:1])
        print("select 1:", conn.execute(sa.text("select 1")).scalar())

    insp = sa.inspect(engine)
    print("schemas:", [s for s in insp.get_schema_names() if s == "public"])
    print("tables:", [t for t in insp.get_table_names() if t.startswith(table)])
    print("views:", [v for v in insp.get_view_names() if v.startswith(table)])
    for c in insp.get_columns(table):
        print("column:", c["name"], str(c["type"]), c["nullable"], c["default"], c.get("autoincrement"))
    print("pk:", insp.get_pk_constraint(table))
    print("fks:", insp.get_foreign_keys(table))
    for ix in sorted(insp.get_indexes(table), key=lambda i: i["name"]):
        print("index:", ix["name"], ix["column_names"], ix["unique"])
    print("unique:", insp.get_unique_constraints(table))
    print("has_table:", insp.has_table(table), insp.has_table(table + "_nosuch"))

    base = orm.declarative_base()

    class Item(base):
        __tablename__ = table
        id = sa.Column(sa.BigInteger, primary_key=True)
        name = sa.Column(sa.String(20), nullable=False)
        price = sa.Column(sa.Float)

    with orm.Session(engine) as session:
        session.add_all([Item(id=i, name=f"item{i}", price=i * 1.5) for i in range(1, 6)])
        session.commit()
        print("count:", session.query(Item).count())
        print("filtered count:", session.query(Item).filter(Item.price > 3).count())
        first = session.query(Item).order_by(Item.id.desc()).first()
        print("first:", first.id, first.name, first.price)

    import pandas as pd

    df = pd.DataFrame({"k": [1, 2, 3], "label": ["a", "b", None], "v": [0.5, 1.5, 2.5]})
    df.to_sql(table + "_df", engine, index=False, if_exists="fail")
    back = pd.read_sql(f"SELECT k, label, v FROM {table}_df ORDER BY k", engine)
    print("read_sql:", back.to_dict("list"))
    print("PASS")


if __name__ == "__main__":
    main()
