#!/usr/bin/env python3
"""Fill an .slt script's expected rows and error codes from PostgreSQL.

usage: scripts/slt-from-postgres.py in.slt out.slt  (in and out may be the
same file)

The PostgreSQL server is PGHOST:PGPORT (127.0.0.1:5432) as PGUSER
(postgres); the script runs in a fresh database, SLT_DATABASE
(zproxy_slt), with TimeZone UTC. Records keep their kind; query rows and
'statement error' codes are replaced by what PostgreSQL returns, and a
mismatch (PostgreSQL fails a 'statement ok', or runs a 'statement error')
is reported on stderr. A record whose statement PostgreSQL cannot run the
way zproxy does (USING zorder, WITH (shards = ...)) carries the comment
'# zproxy' on the line before it and is copied unchanged."""
import os
import re
import subprocess
import sys

DB = os.environ.get("SLT_DATABASE", "zproxy_slt")
CONN = ["-h", os.environ.get("PGHOST", "127.0.0.1"), "-p", os.environ.get("PGPORT", "5432"),
        "-U", os.environ.get("PGUSER", "postgres")]

def psql(sql, db):
    p = subprocess.run(["psql"] + CONN + ["-d", db, "-X", "-q", "-A", "-t",
                        "-F", "|", "-P", "null=NULL", "-v", "VERBOSITY=verbose", "-v", "ON_ERROR_STOP=1",
                        "-c", "SET TIME ZONE 'UTC'", "-c", "SET extra_float_digits = 1", "-c", sql],
                       capture_output=True, text=True)
    if p.returncode != 0:
        m = re.search(r"ERROR:\s+([0-9A-Z]{5}):", p.stderr)
        return None, (m.group(1) if m else "?????"), p.stderr
    out = p.stdout
    if out.endswith("\n"):
        out = out[:-1]
    return (out.split("\n") if out != "" else []), None, ""

def main():
    src, dst = sys.argv[1], sys.argv[2]
    subprocess.run(["psql"] + CONN + ["-X", "-q", "-c", f"DROP DATABASE IF EXISTS {DB}"], check=True)
    subprocess.run(["psql"] + CONN + ["-X", "-q", "-c", f"CREATE DATABASE {DB}"], check=True)
    lines = open(src).read().split("\n")
    out = []
    i = 0
    keep = False
    while i < len(lines):
        line = lines[i]
        t = line.strip()
        if t == "" or t.startswith("#") or t.startswith("notice "):
            if t == "# zproxy":
                keep = True
            out.append(line)
            i += 1
            continue
        head = t.split()
        # collect the record
        rec = [line]
        i += 1
        while i < len(lines) and lines[i].strip() != "":
            rec.append(lines[i])
            i += 1
        if keep:
            out.extend(rec)
            keep = False
            continue
        body = rec[1:]
        if "----" in [b.strip() for b in body]:
            body = body[:[b.strip() for b in body].index("----")]
        sql = "\n".join(body)
        rows, code, err = psql(sql, DB)
        if head[0] == "statement":
            if code is None and head[1] == "ok":
                out.extend(rec)
            elif code is not None and head[1] == "error":
                out.append("statement error " + code)
                out.extend(body)
            else:
                sys.stderr.write(f"MISMATCH ({' '.join(head)}): {sql}\n  {err or rows}\n")
                out.extend(rec)
        else:  # query
            if code is not None:
                if len(head) > 1 and head[1] == "error":
                    out.append("query error " + code)
                    out.extend(body)
                else:
                    sys.stderr.write(f"QUERY FAILED: {sql}\n  {err}\n")
                    out.extend(rec)
                continue
            if len(head) > 1 and head[1] == "rowsort":
                rows = sorted(rows)
            out.append(" ".join(head))
            out.extend(body)
            out.append("----")
            out.extend(rows)
    open(dst, "w").write("\n".join(out))

main()
