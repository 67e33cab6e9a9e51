"""Concurrent money transfers through psycopg2: issue 15's concurrency test.

Usage: python3 psycopg2_bank.py USER DBNAME CLIENTS TRANSFERS HOST:PORT [HOST:PORT ...]

CLIENTS threads, each with its own connection (client i to the i-th
endpoint, round robin, so two proxies over one store share the work), each
commit TRANSFERS transfers between random accounts: in one REPEATABLE READ
transaction, debit one account, credit another and record the transfer in
bank_transfers. A transaction that fails with 40001 (serialization failure)
is rolled back and retried, as PostgreSQL's documentation tells clients of
REPEATABLE READ to do; any other error fails the run. Meanwhile an auditor
reads the total in its own transactions: it must never change. At the end
every account's balance must equal its opening balance plus what the
recorded transfers moved, and the number of recorded transfers must be
CLIENTS * TRANSFERS. Prints the checks and PASS; exits 1 on a mismatch.
"""

import random
import sys
import threading
import time

import psycopg2
import psycopg2.errorcodes
import psycopg2.extensions as ext

from checks import fail

ACCOUNTS = 8
OPENING = 1000



def main():
    user, dbname = sys.argv[1], sys.argv[2]
    clients, transfers = int(sys.argv[3]), int(sys.argv[4])
    endpoints = [e.rsplit(":", 1) for e in sys.argv[5:]]

    def connect(i):
        host, port = endpoints[i % len(endpoints)]
        conn = psycopg2.connect(host=host, port=port, user=user, dbname=dbname, connect_timeout=10)
        conn.set_session(isolation_level=ext.ISOLATION_LEVEL_REPEATABLE_READ)
        return conn

    setup = connect(0)
    setup.autocommit = True
    cur = setup.cursor()
    cur.execute("DROP TABLE IF EXISTS bank_accounts")
    cur.execute("DROP TABLE IF EXISTS bank_transfers")
    cur.execute("CREATE TABLE bank_accounts (id integer PRIMARY KEY, balance integer NOT NULL)")
    cur.execute("CREATE TABLE bank_transfers (client integer, seq integer, src integer NOT NULL, "
                "dst integer NOT NULL, amount integer NOT NULL, PRIMARY KEY (client, seq))")
    cur.execute("INSERT INTO bank_accounts SELECT g, %s FROM generate_series(1, %s) g", (OPENING, ACCOUNTS))
    total = OPENING * ACCOUNTS

    errors = []
    retries = [0] * clients
    done = threading.Event()
    audits = [0]

    def transfer(i):
        rng = random.Random(i)
        try:
            conn = connect(i)
            cur = conn.cursor()
            for seq in range(transfers):
                src, dst = rng.sample(range(1, ACCOUNTS + 1), 2)
                amount = rng.randint(1, 50)
                while True:
                    try:
                        # Lower id first: in PostgreSQL two transfers taking
                        # the same rows in opposite orders could deadlock.
                        for acct, delta in sorted([(src, -amount), (dst, amount)]):
                            cur.execute("UPDATE bank_accounts SET balance = balance + %s WHERE id = %s", (delta, acct))
                            if cur.rowcount != 1:
                                raise RuntimeError("UPDATE of account %d changed %d rows" % (acct, cur.rowcount))
                        cur.execute("INSERT INTO bank_transfers VALUES (%s, %s, %s, %s, %s)", (i, seq, src, dst, amount))
                        conn.commit()
                        break
                    except psycopg2.Error as e:
                        conn.rollback()
                        if e.pgcode != psycopg2.errorcodes.SERIALIZATION_FAILURE:
                            raise
                        retries[i] += 1
            conn.close()
        except Exception as e:  # reported by the main thread
            errors.append("client %d: %r" % (i, e))

    def audit():
        try:
            conn = connect(0)
            cur = conn.cursor()
            while not done.is_set():
                try:
                    cur.execute("SELECT sum(balance), count(*) FROM bank_accounts")
                    got, n = cur.fetchone()
                    conn.commit()
                except psycopg2.Error as e:
                    conn.rollback()
                    if e.pgcode != psycopg2.errorcodes.SERIALIZATION_FAILURE:
                        raise
                    continue
                if got != total or n != ACCOUNTS:
                    errors.append("auditor saw a total of %s over %s accounts, want %d over %d" % (got, n, total, ACCOUNTS))
                    return
                audits[0] += 1
                time.sleep(0.01)
            conn.close()
        except Exception as e:
            errors.append("auditor: %r" % e)

    start = time.time()
    auditor = threading.Thread(target=audit)
    auditor.start()
    workers = [threading.Thread(target=transfer, args=(i,)) for i in range(clients)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    done.set()
    auditor.join()
    elapsed = time.time() - start
    if errors:
        fail("; ".join(errors))

    cur.execute("SELECT sum(balance) FROM bank_accounts")
    got = cur.fetchone()[0]
    if got != total:
        fail("the total is %d after the transfers, want %d" % (got, total))
    print("ok  total unchanged: %d" % got, flush=True)
    cur.execute("SELECT count(*) FROM bank_transfers")
    n = cur.fetchone()[0]
    if n != clients * transfers:
        fail("%d transfers recorded, want %d" % (n, clients * transfers))
    print("ok  %d transfers recorded" % n, flush=True)
    cur.execute("""SELECT a.id, a.balance,
                          %s + coalesce((SELECT sum(amount) FROM bank_transfers WHERE dst = a.id), 0)
                             - coalesce((SELECT sum(amount) FROM bank_transfers WHERE src = a.id), 0)
                   FROM bank_accounts a ORDER BY a.id""", (OPENING,))
    for acct, balance, expected in cur.fetchall():
        if balance != expected:
            fail("account %d holds %d, its transfers say %d" % (acct, balance, expected))
    print("ok  every balance matches its recorded transfers", flush=True)
    print("stats: %d clients over %d endpoint(s), %d transfers in %.1fs, %d retries after 40001, %d audits"
          % (clients, len(endpoints), n, elapsed, sum(retries), audits[0]), flush=True)
    setup.close()
    print("PASS", flush=True)


main()
