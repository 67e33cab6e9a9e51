#!/usr/bin/env python3
"""Regenerates json_pg_test.go: json, jsonb, array and char(n) cases
evaluated on PostgreSQL 15 (see pgrun.py):
    python3 testdata/gen_json.py > json_pg_test.go
"""
from pgrun import run, emit

def q(s):
    return "'" + s.replace("'", "''") + "'"

json_inputs = ['01', '-0', '1.', '.5', '1e5', '1E+5', '-', 'tru', 'TRUE', '[1,]', '{"a"}', '"\\u0000"', '"\\ud800"',
               '"\\ud83d\\ude00"', '"a\\qb"', ' [1 , 2 ] ', '{"b":1, "a":{"c":[]}}', '"é"', '"\\u00e9"', '1e400', '-0.0',
               '[1e-2, 1E2, 0.10]', '', '"\\u001f"', '{"a":1,"a":2}', '{"aa":1,"b":2,"a":3}', '{"":0}', 'null', ' true ',
               '[[[]]]', '{"a":{"b":{"c":null}}}', '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"tab\there"', '[1,2', '{"a":1}}',
               '{"a":1,}', '"\\u00"', '123456789012345678901234567890', '-1.5e-3', '1e', '"x"y', '[1 2]', '{1:2}',
               '"\\ud83d"', '"\\ude00"', '{"b":[1,{"c":"d"}],"a":true}', '[null,false,"",0]']
sort_inputs = ['null', '[]', '[1]', '[null]', '1', '"a"', 'true', 'false', '{}', '{"a":1}', '{"aa":1,"c":1}', '{"b":1,"d":1}',
               '[1,2]', '["a"]', '2', '"b"', '[[]]', '[{}]', '""', '-1', '1.0', '{"a":null}', '{"a":[]}', '[[1,2]]', '[[3]]',
               '{"a":{"x":1,"y":1}}', '{"a":{"z":1}}', '["a",1]', '["b",0]', '[true]', '[false,1]']
docs = ['{"a":1,"b":[1,2,{"c":"x\\ny"}],"d":null,"e":"s"}', '[1,"two",[3],{"four":4},null]', '"str"', '5', 'null',
        '{"a":{"b":{"c":[10,20,30]}}}', '[]', '{}']
fields = ['a', 'b', 'c', 'd', 'e', 'x', '']
idxs = [0, 1, 2, 4, 5, -1, -2, -6]
paths = ['{}', '{a}', '{b,2,c}', '{b,1}', '{a,b,c,1}', '{a,b,c,-1}', '{1}', '{3,four}', '{b,x}', '{a,b,c,9}', '{b,0,x}']
contains = [('[1,2,[3]]', '[[3]]'), ('[1,2]', '1'), ('1', '[1]'), ('{"a":{"b":1,"c":2}}', '{"a":{"b":1}}'),
            ('[1,[2]]', '[2]'), ('{"a":[1,2]}', '{"a":1}'), ('[{"a":1,"b":2}]', '[{"a":1}]'), ('[]', '[]'),
            ('{}', '[]'), ('"a"', '"a"'), ('[1,1,2]', '[2,2,1]'), ('{"a":[1,2,3]}', '{"a":[3,1]}'),
            ('{"a":1}', '{}'), ('[1,2]', '[]'), ('[[1,2]]', '[1]'), ('{"a":{"b":[1]}}', '{"a":{"b":[]}}'),
            ('1', '1.0'), ('["a"]', '"a"'), ('[{"a":1}]', '{"a":1}'), ('null', 'null'), ('[null]', 'null')]
exists = [('{"a":1}', 'a'), ('{"a":1}', 'b'), ('["a","b"]', 'a'), ('["a",1]', '1'), ('"a"', 'a'), ('{"a":{"b":1}}', 'b'), ('[["a"]]', 'a')]
arrays = [('{1,2,NULL}', 'int'), ('{{1,2},{3,4}}', 'int'), ('[0:1]={a,b}', 'text'), ('{"","a b","NULL",null,"x\\\\y","q\\""}', 'text'),
          ('{ 1 , 2 }', 'int'), ('{}', 'int'), ('{1.239}', 'numeric(5,2)'), ('{1.5}', 'float4'), ('{0.1}', 'float8'),
          ('{1,2', 'int'), ('{{1},{2,3}}', 'int'), ('1,2', 'int'), ('{1,2}x', 'int'), ('{a b}', 'text'), ('{  a  b  }', 'text'),
          ('{\\\\a}', 'text'), ('{{}}', 'int'), ('{{{{{{{1}}}}}}}', 'int'), ('{a,"b}', 'text'), ('{"a"b}', 'text'),
          ('{1,,2}', 'int'), ('{,}', 'int'), ('{x}', 'int'), ('[1:2]={1}', 'int'), ('[1:2][3:4]={{1,2},{3,4}}', 'int'),
          ('{2024-01-01 10:00}', 'timestamp'), ('{"1 day",2 hours}', 'interval'), ('{"{\\"a\\": 1}",null}', 'jsonb'),
          ('{t,f,NULL}', 'bool'), ('{\\\\x00ff}', 'bytea'), ('{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', 'uuid'),
          ('{ab,abcd}', 'char(3)'), ('{ab,"  "}', 'varchar(2)'), ('{NULL}', 'text'), ('{"NULL"}', 'text'), ('{nULl}', 'text'),
          ('{{1,2},{3,4}', 'int'), ('{1}}', 'int'), ('[2]={1,2}', 'int'), ('[-1:0]={5,6}', 'int'), ('{"a\\\\"}', 'text'),
          ('{1 2}', 'int'), (' { 1 } ', 'int'), ('{ "a" , "b" }', 'text'), ('{"a" "b"}', 'text'), ('{1.5e3}', 'numeric')]
arrcmp = [('{1,NULL}', '{1,2}'), ('{1,2}', '{1,2,3}'), ('{2}', '{1,2,3}'), ('[0:0]={1}', '{1}'), ('{{1,2}}', '{1,2}'),
          ('{NULL}', '{NULL}'), ('{}', '{NULL}'), ('{1,2}', '{1,2}')]
bpchar = [('ab', 'char(4)'), ('abcd ', 'char(4)'), ('abcde', 'char(4)'), ('  ', 'char(2)'), ('ab  ', 'bpchar'), ('é', 'char(3)'),
          ('', 'char(2)'), ('abc', 'char')]
bpcmp = [("'a'::char(3)", "'a  '::char(5)"), ("'a'::char(3)", "'a'::text"), ("'a '::char(3)", "'a '::text"), ("'a'::char(3)", "'a\t'::char(3)"),
         ("'b'::char(2)", "'a '::char(2)"), ("'ab'::char(2)", "'ab '::varchar")]
build = ["jsonb_build_object('a',1,'b',0, 'c', 1.50, 'd', 'x'::text, 'e', null, 1, true)", "json_build_object('a',1,'b','x')",
         "jsonb_build_object('a',1,'a',2)", "jsonb_build_object('a')", "jsonb_build_object(null, 1)", "jsonb_build_object()",
         "to_jsonb('2024-01-01 10:00'::timestamp)", "to_jsonb('2024-01-01 10:00+00'::timestamptz)", "to_jsonb('NaN'::float8)",
         "to_jsonb('1e20'::float8)", "to_jsonb(interval '1 day')", "to_jsonb('\\xff'::bytea)", "to_jsonb(array[1,null])",
         "to_jsonb('a\"b'::text)", "to_jsonb('infinity'::timestamp)", "to_jsonb('NaN'::numeric)", "to_json(1.50)",
         "to_jsonb('ab'::char(4))", "to_json(array[[1,2],[3,4]])", "to_jsonb(array[[1,2],[3,4]])", "to_json('x'::text)",
         "to_json('2024-02-29'::date)", "to_jsonb('0001-01-01 BC'::date)", "to_jsonb(true)", "to_json(null::int)",
         "json_build_array(1,'a',null)", "jsonb_build_array(1,'a',null)", "to_jsonb('{\"b\":1,\"a\":2}'::json)",
         "to_json('{\"b\":1,\"a\":2}'::jsonb)", "to_json(1.5::float4)", "to_jsonb(-0.0::float8)", "to_jsonb(1e-7::float8)",
         "to_jsonb(12345678901234567890::numeric)", "to_jsonb('Infinity'::numeric)", "to_jsonb(uuid 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')"]
agg = ["(select json_agg(x) from (values (1),(2),(null)) t(x))", "(select jsonb_agg(x) from (values ('a'),('b')) t(x))",
       "(select json_agg(x) from (values (array[1,2]),(array[3])) t(x))", "(select json_agg(x) from (values (1)) t(x) where false)",
       "(select json_agg(x) from (values ('{\"a\":1}'::jsonb),('[2]')) t(x))"]
casts = [("'1.5'::jsonb", "numeric"), ("'\"1.5\"'::jsonb", "numeric"), ("'1.5'::jsonb", "int"), ("'true'::jsonb", "bool"),
         ("'1e2'::jsonb", "float8"), ("'null'::jsonb", "int"), ("'[1]'::jsonb", "numeric"), ("'1'::jsonb", "bool"),
         ("'{\"b\":1,\"a\":2}'::json", "jsonb"), ("'{\"b\":1,\"a\":2}'::jsonb", "json"), ("'2.5'::jsonb", "int"), ("'-2.5'::jsonb", "int4"),
         ("'{\"a\": 1}'::jsonb", "text"), ("' [1] '::json", "text"), ("'{1,2}'::int[]", "text[]"), ("'{1.5,2.5}'::numeric[]", "int[]"),
         ("'{a,b}'::text[]", "int[]"), ("'{1,NULL}'::int[]", "text"), ("'abc'::text", "char(2)"), ("'ab '::char(3)", "text"),
         ("'ab '::char(3)", "varchar"), ("'abc'::varchar", "char(5)"), ("1.5::numeric", "char(5)"), ("'{\"a\":1}'", "jsonb[]")]

cases = []
for s in json_inputs:
    cases.append(("json", s, "", "%s::json" % q(s)))
    cases.append(("jsonb", s, "", "%s::jsonb" % q(s)))
for d in docs:
    for f in fields:
        cases.append(("field", d, f, "%s::jsonb -> %s" % (q(d), q(f))))
        cases.append(("fieldtext", d, f, "%s::jsonb ->> %s" % (q(d), q(f))))
        cases.append(("jsonfield", d, f, "%s::json -> %s" % (q(d), q(f))))
    for i in idxs:
        cases.append(("index", d, str(i), "%s::jsonb -> %d" % (q(d), i)))
        cases.append(("indextext", d, str(i), "%s::jsonb ->> %d" % (q(d), i)))
    for p in paths:
        cases.append(("path", d, p, "%s::jsonb #> %s" % (q(d), q(p))))
        cases.append(("pathtext", d, p, "%s::jsonb #>> %s" % (q(d), q(p))))
        cases.append(("jsonpath", d, p, "%s::json #> %s" % (q(d), q(p))))
    cases.append(("each", d, "", "(select string_agg(key || '=' || value::text, ';') from jsonb_each(%s))" % q(d)))
    cases.append(("eachtext", d, "", "(select string_agg(key || '=' || coalesce(value, '<null>'), ';') from jsonb_each_text(%s))" % q(d)))
    cases.append(("elements", d, "", "(select string_agg(value::text, ';') from jsonb_array_elements(%s))" % q(d)))
    cases.append(("typeof", d, "", "jsonb_typeof(%s)" % q(d)))
    cases.append(("arraylength", d, "", "jsonb_array_length(%s)" % q(d)))
cases.append(("jsoneach", '{"b":1,"a":"x","b":2}', "", "(select string_agg(key || '=' || value::text, ';') from json_each('{\"b\":1,\"a\":\"x\",\"b\":2}'))"))
cases.append(("jsonelements", '[1, "x" , [2]]', "", "(select string_agg(value::text, ';') from json_array_elements('[1, \"x\" , [2]]'))"))
for a, b in contains:
    cases.append(("contains", a, b, "%s::jsonb @> %s::jsonb" % (q(a), q(b))))
    cases.append(("contained", a, b, "%s::jsonb <@ %s::jsonb" % (q(a), q(b))))
for a, k in exists:
    cases.append(("exists", a, k, "%s::jsonb ? %s" % (q(a), q(k))))
cases.append(("existsany", '{"a":1}', "{b,a}", "'{\"a\":1}'::jsonb ?| '{b,a}'"))
cases.append(("existsany", '{"a":1}', "{NULL}", "'{\"a\":1}'::jsonb ?| '{NULL}'"))
cases.append(("existsall", '{"a":1}', "{a,NULL}", "'{\"a\":1}'::jsonb ?& '{a,NULL}'"))
cases.append(("existsall", '{"a":1,"b":2}', "{a,c}", "'{\"a\":1,\"b\":2}'::jsonb ?& '{a,c}'"))
for a in sort_inputs:
    for b in sort_inputs:
        cases.append(("jsonbcmp", a, b, "sign((%s::jsonb > %s::jsonb)::int - (%s::jsonb < %s::jsonb)::int)" % (q(a), q(b), q(a), q(b))))
for s, t in arrays:
    cases.append(("array", s, t, "%s::%s[]" % (q(s), t)))
for a, b in arrcmp:
    cases.append(("arraycmp", a, b, "sign((%s::int[] > %s::int[])::int - (%s::int[] < %s::int[])::int)" % (q(a), q(b), q(a), q(b))))
setup = []
for i, (s, t) in enumerate(bpchar):
    cases.append(("bpchar", s, t, "format('[%%s]', %s::%s)" % (q(s), t)))
    setup.append("CREATE TEMP TABLE bp%d (c %s);" % (i, t))
    cases.append(("bpcharassign", s, t, "!INSERT INTO bp%d VALUES (%s) RETURNING format('[%%s]', c)" % (i, q(s))))
for a, b in bpcmp:
    cases.append(("bpcmp", a, b, "sign((%s > %s)::int - (%s < %s)::int)" % (a, b, a, b)))
for e in build:
    cases.append(("build", e, "", e))
for e in agg:
    cases.append(("agg", e, "", e))
for e, t in casts:
    cases.append(("cast", e, t, "(%s)::%s" % (e, t)))

res = run([c[3] for c in cases], setup=["\\o /dev/null"] + setup + ["\\o"])
emit('gen_json.py', 'jsonPGCases', cases, res)
