#!/usr/bin/env python3
"""Regenerates numeric_pg_test.go: numeric cases evaluated on PostgreSQL 15.

Run with a PostgreSQL 15 listening on /tmp/pg15:15998 (see pgrun.py):
    python3 testdata/gen_numeric.py > numeric_pg_test.go
"""
from pgrun import run, emit

inputs = [" 1.50 ", "+.5", "5.", ".", "1e3", "1.5e+2", "1.50e-3", "00012.3400", "-0.000", "-0", "0",
          "inf", "+inf", "-Infinity", "nan", "NaN ", "1_000", "0x10", "1e", "-", "", "1 2", "1e-30",
          "123456789012345678901234567890.123456789", "-99999999999999999999", "0.000000000000000000001",
          "1e131072", "1e-16384", "9.9999", "1E5", "  -12.5e-1  ", "1.e2", "1e+", "--1", "\t3\n"]
vals = ["0", "1", "-1", "1.5", "-1.5", "2.25", "0.001", "3", "7", "-7", "10", "100", "0.1", "1.00", "123456789.123456789",
        "99999.9999", "0.0000001", "1e20", "-2.5", "NaN", "Infinity", "-Infinity", "12345678901234567890", "0.3333"]
binops = [("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("mod", "%")]
unary = [("sqrt", "sqrt(%s)"), ("exp", "exp(%s)"), ("ln", "ln(%s)"), ("round", "round(%s)"), ("ceil", "ceil(%s)"),
         ("floor", "floor(%s)"), ("trunc", "trunc(%s)"), ("abs", "abs(%s)"), ("neg", "-(%s)"), ("sign", "sign(%s)"),
         ("toint4", "(%s)::int4"), ("toint8", "(%s)::int8"), ("toint2", "(%s)::int2"), ("tofloat8", "(%s)::float8"), ("tofloat4", "(%s)::float4")]
rounds = [("round2", "round(%s, 2)"), ("roundm1", "round(%s, -1)"), ("trunc2", "trunc(%s, 2)"), ("truncm1", "trunc(%s, -1)"), ("round5", "round(%s, 5)")]
pows = [("2", "3"), ("2", "0.5"), ("2.5", "-2"), ("-2", "3"), ("-2", "0.5"), ("0", "-1"), ("0", "0"), ("10", "-3"), ("1.5", "2.5"),
        ("0.5", "100"), ("3", "40"), ("NaN", "0"), ("1", "NaN"), ("Infinity", "-1"), ("-Infinity", "3"), ("2", "Infinity"),
        ("0.5", "-Infinity"), ("1.0001", "10000"), ("7", "1.00"), ("100", "0.5"), ("2", "-1000"), ("9.99", "2")]
logs = [("10", "100"), ("2", "8"), ("2", "10"), ("10", "0.001"), ("1.5", "7")]
typmods = [("123.456", 5, 2), ("999.995", 5, 2), ("12345", 5, -2), ("0.00012", 3, 5), ("NaN", 3, 1), ("Infinity", 3, 1),
           ("1234.5", 3, 0), ("-0.5", 1, 0), ("0.5", 1, 1), ("99.5", 2, 0), ("-1e-10", 5, 3), ("1", 1, 1), ("0", 1, 1), ("9.95", 2, 1)]
floats = ["0.1", "1e20", "1.0/3", "123456789.123456789", "-0.0", "'NaN'", "'Infinity'", "1e-300", "2.5", "100", "1e15", "1e16", "0.000012345678901234"]

cases = []
for s in inputs:
    cases.append(("parse", s, "", "'%s'::numeric" % s.replace("'", "''")))
for a in vals:
    for b in vals:
        for name, op in binops:
            cases.append((name, a, b, "'%s'::numeric %s '%s'::numeric" % (a, op, b)))
for a in vals:
    for name, fmt in unary + rounds:
        cases.append((name, a, "", fmt % ("'%s'::numeric" % a)))
for a, b in pows:
    cases.append(("power", a, b, "power('%s'::numeric, '%s'::numeric)" % (a, b)))
for a, b in logs:
    cases.append(("log", a, b, "log('%s'::numeric, '%s'::numeric)" % (a, b)))
for a, p, s in typmods:
    cases.append(("typmod", a, "%d,%d" % (p, s), "'%s'::numeric(%d,%d)" % (a, p, s)))
for f in floats:
    cases.append(("fromfloat8", f, "", "(%s)::float8::numeric" % f))
    cases.append(("fromfloat4", f, "", "(%s)::float4::numeric" % f))

res = run([c[3] for c in cases])
emit('gen_numeric.py', 'numericPGCases', cases, res)
