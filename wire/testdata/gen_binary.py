#!/usr/bin/env python3
"""Regenerates binary_pg_test.go: the binary wire form PostgreSQL 15's
send functions produce for values of the issue 14 types:
    python3 testdata/gen_binary.py > binary_pg_test.go
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "internal", "sqltypes", "testdata"))
from pgrun import run, gostr

cases = []
for s in ["0", "0.000", "1", "-1", "1.50", "123456789012345678901234567890.0123456789", "0.00012", "-0.1", "10000",
          "99990000", "1e20", "0.0001", "12345.6789", "NaN", "Infinity", "-Infinity", "1e-30", "9999.9999", "-168484283963664.0",
          "0.000000000000000000000000000001", "100000000", "0.5", "1e-16383"]:
    cases.append(("numeric", s, "numeric_send('%s'::numeric)" % s))
for s in ["0", "1 year 2 mons 3 days 04:05:06.000005", "-1 mons -2 days -00:00:00.000003", "178956970 years 7 mons 2147483647 days"]:
    cases.append(("interval", s, "interval_send('%s'::interval)" % s))
for s, t in [("{1,NULL,3}", "int4"), ("{}", "int4"), ("[1:2][0:2]={{1,2,3},{4,5,6}}", "int4"), ('{a,"","x\\"y",NULL}', "text"),
             ("{1.5,-0.25}", "float8"), ("{1.50,-2}", "numeric"), ("{2024-01-01 10:00:00}", "timestamp"), ("{t,f}", "bool"),
             ('{"1 day"}', "interval"), ('{"{\\"a\\": 1}"}', "jsonb"), ("{ab}", "char(3)"), ("{{1},{2}}", "int8"),
             ("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "uuid"), ("{1.5}", "float4"), ("{2024-02-29}", "date"), ("{7}", "int2")]:
    cases.append(("array:" + t, s, "array_send('%s'::%s[])" % (s.replace("'", "''"), t)))
for s in ['{"b": [1, 2.50], "a": null}', '"é"', '[]']:
    cases.append(("jsonb", s, "jsonb_send('%s'::jsonb)" % s))
    cases.append(("json", s, "json_send('%s'::json)" % s))
cases.append(("char(4)", "ab", "bpcharsend('ab'::char(4))"))
for s in ["infinity", "-infinity", "4714-11-24 BC"]:
    cases.append(("timestamp", s, "timestamp_send('%s'::timestamp)" % s))
    cases.append(("date", s, "date_send('%s'::date)" % s))
for s in ["00:00", "10:30:15.5", "23:59:59.999999", "24:00"]:
    cases.append(("time", s, "time_send('%s'::time)" % s))
for s in ["00:00+00", "10:30:15.5-05:30", "23:59:59.999999+14", "24:00-15:59:59"]:
    cases.append(("timetz", s, "timetz_send('%s'::timetz)" % s))
for s in ["{10:00,NULL}"]:
    cases.append(("array:time", s, "array_send('%s'::time[])" % s))
for s in ["", "0", "1", "10101", "11111111", "101010101", "1111000011110000111"]:
    cases.append(("bit varying", s, "varbit_send('%s'::varbit)" % s))
    if s:
        cases.append(("bit(%d)" % len(s), s, "bit_send('%s'::bit(%d))" % (s, len(s))))
cases.append(("array:bit(3)", "{101,NULL,010}", "array_send('{101,NULL,010}'::bit(3)[])"))
cases.append(("array:bit varying", "{1,0110}", "array_send('{1,0110}'::varbit[])"))
for s in ["$0.00", "$1,234.56", "-$0.01", "$92,233,720,368,547,758.07", "-$92,233,720,368,547,758.08"]:
    cases.append(("money", s, "cash_send('%s'::money)" % s))
cases.append(("array:money", "{$1.00,NULL}", "array_send('{$1.00,NULL}'::money[])"))
for t, vals in [("int4range", ["[1,5)", "empty", "(,)", "(,-3]", "[2147483646,)"]), ("int8range", ["[-9223372036854775808,0)", "empty"]),
                ("numrange", ["(1.50,2.5]", "(,NaN]", "[0,0]"]), ("tsrange", ['["2024-01-01 10:00:00","2024-01-02 00:00:00.5")', "[-infinity,infinity]"]),
                ("tstzrange", ['("2024-01-01 10:00:00+00",)']), ("daterange", ["[2024-02-29,2024-03-01)", "[-infinity,infinity]"])]:
    for s in vals:
        cases.append((t, s, "range_send('%s'::%s)" % (s, t)))
for t, vals in [("int4multirange", ["{}", "{[1,3),[5,7)}", "{(,0),[3,)}"]), ("nummultirange", ["{[1.5,2.25]}"]),
                ("datemultirange", ["{[2024-01-01,2024-01-03),[2024-02-01,infinity]}"]), ("tstzmultirange", ['{["2024-01-01 10:00:00+00",)}'])]:
    for s in vals:
        cases.append((t, s, "multirange_send('%s'::%s)" % (s, t)))
for s, t in [('{"[1,5)",empty,NULL}', "int4range"), ('{"[2024-01-01,)"}', "daterange"), ('{"{[1,2)}",NULL}', "int4multirange")]:
    cases.append(("array:" + t, s, "array_send('%s'::%s[])" % (s, t)))
for t, vals in [("inet", ["192.168.1.5", "10.0.0.0/8", "::1", "2001:db8::1/64", "::ffff:1.2.3.4", "0.0.0.0/0"]),
                ("cidr", ["10.0.0.0/8", "192.168.1.5/32", "2001:db8::/32", "::/0"]),
                ("macaddr", ["08:00:2b:01:02:03", "ff:ff:ff:ff:ff:ff"]),
                ("macaddr8", ["08:00:2b:01:02:03:04:05", "08:00:2b:ff:fe:01:02:03"])]:
    for s in vals:
        cases.append((t, s, "%s_send('%s'::%s)" % (t, s, t)))
for s, t in [("{10.0.0.1,NULL,::1/64}", "inet"), ("{10.0.0.0/8}", "cidr"), ("{08:00:2b:01:02:03}", "macaddr"),
             ("{08:00:2b:01:02:03:04:05}", "macaddr8")]:
    cases.append(("array:" + t, s, "array_send('%s'::%s[])" % (s, t)))
for s in ["<a>x</a>", "", "abc &amp; <b c=\"1\"/>", "<?xml version=\"1.0\" standalone=\"yes\"?><a/>", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>"]:
    cases.append(("xml", s, "xml_send('%s'::xml)" % s))
for s in ["0/0", "16/B374D848", "FFFFFFFF/FFFFFFFF"]:
    cases.append(("pg_lsn", s, "pg_lsn_send('%s'::pg_lsn)" % s))
for s in ["0", "7", "4294967295"]:
    cases.append(("xid", s, "xidsend('%s'::xid)" % s))
for s in ["0", "9", "18446744073709551615"]:
    cases.append(("xid8", s, "xid8send('%s'::xid8)" % s))
for s in ["(0,0)", "(1,2)", "(4294967295,65535)"]:
    cases.append(("tid", s, "tidsend('%s'::tid)" % s))
cases.append(("array:pg_lsn", "{0/1,NULL}", "array_send('{0/1,NULL}'::pg_lsn[])"))
cases.append(("array:tid", '{"(1,2)"}', "array_send('{\"(1,2)\"}'::tid[])"))
for t, fn, vals in [("point", "point_send", ["(1,2)", "(-0,1.5e-300)", "(NaN,-Infinity)"]),
                    ("lseg", "lseg_send", ["[(0,0),(1.5,-2)]"]),
                    ("box", "box_send", ["(2,2),(0,0)", "(1,5),(3,-1)"]),
                    ("line", "line_send", ["{1,-1,0.5}", "[(0,0),(0,1)]"]),
                    ("path", "path_send", ["((0,0),(1,1),(2,0))", "[(0,0),(1,1)]", "(1,2)"]),
                    ("polygon", "poly_send", ["(0,0),(1,1),(2,0)", "(1,2)"]),
                    ("circle", "circle_send", ["<(1,2),3>", "<(0,0),0>"])]:
    for s in vals:
        cases.append((t, s, "%s('%s'::%s)" % (fn, s, t)))
for s, t in [('{"(1,2)",NULL}', "point"), ("{(1,1),(0,0);(3,3),(2,2)}", "box"), ('{"<(1,2),3>"}', "circle"),
             ('{"((0,0),(1,1))"}', "path"), ('{"((0,0),(1,1),(1,0))"}', "polygon"), ('{"[(0,0),(1,1)]"}', "lseg"), ('{"{1,2,3}"}', "line")]:
    cases.append(("array:" + t, s, "array_send('%s'::%s[])" % (s, t)))
res = run(["encode(%s, 'hex')" % c[2] for c in cases])
print("// Code generated by testdata/gen_binary.py from PostgreSQL 15; DO NOT EDIT.\n")
print("package wire\n")
print("// binaryPGCases are (type, text value, hex of PostgreSQL's send function).")
print("var binaryPGCases = [][3]string{")
for (t, s, _), r in zip(cases, res):
    assert r[0] == 'ok', (t, s, r)
    print("\t{%s, %s, %s}," % (gostr(t), gostr(s), gostr(r[1].replace("\n", ""))))
print("}")
