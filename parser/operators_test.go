package parser

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestPGOperatorRewrites checks the TiDB text of the respelled constructs.
func TestPGOperatorRewrites(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`SELECT a ~ 'x'`, `zp_op('~', a , 'x')`},
		{`SELECT a !~* 'x' AND b = 1`, `zp_op('!~*', a , 'x') and b = 1`},
		{`SELECT c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default`, `zp_op('~', c.relname , zp_collate('^(t)$' , 'default') )`},
		{`SELECT a OPERATOR(pg_catalog.=) b`, `((a) = (b))`},
		// OPERATOR(pg_catalog.op) is at PostgreSQL's level of the other
		// operators (Op), whatever op: looser than + - * / % ^, tighter
		// than the comparisons, left-associative with || and the rest.
		{`SELECT 2 OPERATOR(pg_catalog.*) 3 + 1`, `((2) * (3 + 1))`},
		{`SELECT 1 + 2 OPERATOR(pg_catalog.*) 3 ^ 2`, `((1 + 2) * (3 ^ 2))`},
		{`SELECT OPERATOR(pg_catalog.-) 2 + 1`, `(- (2 + 1))`},
		{`SELECT 1 OPERATOR(pg_catalog.<) 2 = true`, `((1) < (2)) = true`},
		{`SELECT 'x' OPERATOR(pg_catalog.||) 1 OPERATOR(pg_catalog.+) 2`, `(('x' | zp_op('||') | 1) + (2))`},
		{`SELECT a ~ b OPERATOR(pg_catalog.*) c ~ d`, `zp_op('~', ((zp_op('~', a , b)) * (c)) , d)`},
		{`SELECT 'ab' LIKE OPERATOR(pg_catalog.-) 2 || '%'`, `like ((- (2)) | zp_op('||') | '%')`},
		{`SELECT x::text ~ 'a'`, `zp_op('~', zp_cast(x, 'text') , 'a')`},
		{`SELECT ARRAY[1,2]`, `zp_array(1,2)`},
		{`SELECT ARRAY[[1,2],[3,4]]`, `zp_array(zp_array(1,2),zp_array(3,4))`},
		{`SELECT ARRAY(SELECT 1)::text[]`, `zp_cast(zp_array_sub((select 1)), 'text[]')`},
		{`SELECT a[1], a[1][2], a[1:2], a[:2], a[2:]`, `zp_subscript(a, 1), zp_subscript(a, 1, 2), zp_slice(a, 1, 2), zp_slice(a, zp_nobound(), 2), zp_slice(a, 2, zp_nobound())`},
		{`SELECT x = ANY(arr), x <> ALL ('{1}'), x = ANY(SELECT 1)`, `zp_any(x , '=', (arr)), zp_all(x , '<>',  ('{1}')), x = any(select 1)`},
		{`SELECT x LIKE ANY(ARRAY['a%']), x NOT LIKE ALL(p)`, `zp_any(x , '~~', (zp_array('a%'))), zp_all(x  , '!~~', (p))`},
		{`SELECT a SIMILAR TO 'b%' ESCAPE '#', a NOT SIMILAR TO 'c'`, `zp_op('~', a , zp_similar( 'b%' , '#')), zp_op('!~', a  , zp_similar( 'c'))`},
		{`SELECT (f(x)).n, (r.keys).x`, `zp_field((f(x)), 'n'), zp_field((r.keys), 'x')`},
		{`SELECT 'x'::"char", 'int4'::pg_catalog.regtype`, `zp_cast('x', '"char"'), zp_cast('int4', 'regtype')`},
		{`SELECT session_user, user, current_schema`, `session_user(), user(), current_schema()`},
		{`SELECT 1 AS default, cardinality(a)`, "1 as `default`, `cardinality`(a)"},
		{`SELECT a & 1, a | 2`, `zp_op('&', a , 1), zp_op('|', a , 2)`},
		// CAST(...) is a primary on either side (cast is reserved).
		{`SELECT 1 & CAST(3 AS int), CAST(1 AS int) & 3, a ~~ cast(b AS text)`, `zp_op('&', 1 , zp_cast(3 , 'integer' )), zp_op('&', zp_cast(1 , 'integer' ) , 3), zp_op('~~', a , zp_cast(b , 'text' ))`},
		// The prefix ~ (bitwise NOT) takes what binds tighter than it.
		{`SELECT ~a, ~ 1 + 1, ~ ~b, 1 - ~c`, `zp_op('~', a), zp_op('~', 1 + 1), zp_op('~', zp_op('~', b)), 1 - zp_op('~', c)`},
		// << and >> are other operators, left-associative with ||.
		{`SELECT a << 1 || b >> 2`, `zp_op('>>', zp_op('<<', a , 1) | zp_op('||') | b , 2)`},
		// IN's left operand may be an IN predicate, which TiDB takes in
		// parentheses only; its own left operand reaches over the
		// operators binding tighter than IN.
		{`SELECT 1 IN (1) IN (true) IN (true)`, `((1 in (1)) in (true)) in (true)`},
		{`SELECT a + 1 NOT IN (1) IN (false), 1 = b IN (2) NOT BETWEEN c AND d`, `(a + 1 not in (1)) in (false), 1 = (b in (2)) not between c and d`},
		{`SELECT 'a' || b IN ('x') LIKE 'f%'`, `('a' | zp_op('||') | b in ('x')) like 'f%'`},
		{`SELECT B'0101', x'1F', b'', bit '1', bit(2) '10'`, `zp_cast('b0101', 'bit'), zp_cast('x1F', 'bit'), zp_cast('b', 'bit'), zp_cast('1', 'bit'), zp_cast('10', 'bit(2)')`},
	} {
		st, err := Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		// Spacing is the rewriter's business: compare without it.
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if !strings.Contains(squash(st[0].SQL), squash(tc.want)) {
			t.Errorf("%s\n got %s\nwant it to contain %s", tc.in, st[0].SQL, tc.want)
		}
	}
}

func TestPGOperatorErrors(t *testing.T) {
	for _, tc := range []struct{ in, code string }{
		{`SELECT a ~`, "42601"},
		{`SELECT a COLLATE "xx_YY"`, "42704"},
		{`SELECT a OPERATOR(myschema) b`, "42601"},
		{`SELECT a[]`, "42601"},
		{`CREATE TABLE t (o regclass)`, "0A000"},
		{`CREATE TABLE t (o oidvector)`, "0A000"},
	} {
		_, err := Parse(tc.in)
		if err == nil || pgerr.Classify(err).Code.String() != tc.code {
			t.Errorf("%s: %v, want %s", tc.in, err, tc.code)
		}
	}
}
