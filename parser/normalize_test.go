package parser

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT * FROM t WHERE a = 5 AND b = 'x'", "SELECT * FROM t WHERE a = $1 AND b = $2"},
		{"select * from t where a = $1 and b = 2.5e3", "select * from t where a = $1 and b = $2"},
		{"SELECT a - 1, -2, f(-3), x-4 FROM t LIMIT 10", "SELECT a - $1, $2, f($3), x-$4 FROM t LIMIT $5"},
		{"SELECT 'it''s', E'\\n', $$d$$::text, B'01' -- 7\n FROM t", "SELECT $1, $2, $3::text, $4 FROM t"},
		{`SELECT "9" FROM t WHERE x IN (1, 2, 3)`, `SELECT "9" FROM t WHERE x IN ($1, $2, $3)`},
		{"INSERT INTO t VALUES (1, 'a')", "INSERT INTO t VALUES ($1, $2)"},
		// Every spelling of a string constant.
		{"SELECT E'it\\'s \\x41', e'\\u00e9'", "SELECT $1, $2"},
		{"SELECT U&'d\\0061t\\+000061', u&'x' UESCAPE '!'", "SELECT $1, $2 UESCAPE $3"},
		{`SELECT U&"d\0061t" FROM t`, `SELECT U&"d\0061t" FROM t`},
		{"SELECT $$it's$$, $tag$a $$ b$tag$, $a$x$b$y$b$z$a$", "SELECT $1, $2, $3"},
		{"SELECT B'0101', b'1', X'1F', x'ff', N'nat'", "SELECT $1, $2, $3, $4, $5"},
		{"SELECT 1, 1.5, .5, 1e10, 1.5E-3, -7, - 8", "SELECT $1, $2, $3, $4, $5, $6, - $7"},
		// Typed literals, casts and arrays keep their type, lose their value.
		{"SELECT DATE '2024-01-01', interval '1 day', timestamptz '2024-01-01 00:00+02'", "SELECT DATE $1, interval $2, timestamptz $3"},
		{"SELECT '{1,2}'::int[], ARRAY[3, 4], ARRAY['a','b'], '(1,2)'::point", "SELECT $1::int[], ARRAY[$2, $3], ARRAY[$4,$5], $6::point"},
		{"SELECT CAST('5' AS int), TRUE, false, NULL", "SELECT CAST($1 AS int), $2, $3, $4"},
		{"SELECT a IS NULL, b IS NOT TRUE, c IS DISTINCT FROM NULL FROM t", "SELECT a IS NULL, b IS NOT TRUE, c IS DISTINCT FROM $1 FROM t"},
		{"SELECT 'a'::varchar(20), CAST(1 AS numeric(10, 2)), round(x, 2), now()::timestamp(3)", "SELECT $1::varchar(20), CAST($2 AS numeric(10, 2)), round(x, $3), now()::timestamp(3)"},
		{"CREATE TABLE t (a varchar(20) NOT NULL DEFAULT 'x', b bool DEFAULT true)", "CREATE TABLE t (a varchar(20) NOT NULL DEFAULT $1, b bool DEFAULT true)"},
		// Comments go, however they are spelled, quotes and all.
		{"SELECT /* it's 'x' */ a -- don't 'y'\nFROM t", "SELECT a FROM t"},
		{"SELECT /* outer /* 'nested' */ still */ 1", "SELECT $1"},
		{"/* lead */ SELECT 1 -- trail", "SELECT $1"},
		{"SELECT /*+ USE_INDEX(t, i) */ a FROM t", "SELECT a FROM t"},
		// Parameters already there come first.
		{"SELECT $2, $1, 'a', 3", "SELECT $2, $1, $3, $4"},
		{"SELECT a FROM t WHERE b = $3 AND c = 'x' OR d = $1", "SELECT a FROM t WHERE b = $3 AND c = $4 OR d = $1"},
		// A symbol never fuses with a neighbouring word.
		{"SELECT interval'1 day', 'x'AS a", "SELECT interval $1, $2 AS a"},
		// Utility statements lose their constants too, passwords above all.
		{"SET work_mem = '64MB'", "SET work_mem = $1"},
		{"CREATE TABLE t (a int DEFAULT 5)", "CREATE TABLE t (a int DEFAULT $1)"},
		{"CREATE ROLE r LOGIN PASSWORD 'hunter2'", "CREATE ROLE r LOGIN PASSWORD $1"},
		{"CREATE USER u WITH PASSWORD E'p\\'w' VALID UNTIL '2030-01-01'", "CREATE USER u WITH PASSWORD $1 VALID UNTIL $2"},
		{"ALTER ROLE r WITH ENCRYPTED PASSWORD $p$s3cr'et$p$", "ALTER ROLE r WITH ENCRYPTED PASSWORD $1"},
		{"ALTER USER u PASSWORD 'SCRAM-SHA-256$4096:c2FsdA==$aGFzaA==:a2V5'", "ALTER USER u PASSWORD $1"},
		{"ALTER ROLE r PASSWORD NULL", "ALTER ROLE r PASSWORD NULL"},
		{"EXPLAIN SELECT * FROM t WHERE a = 42", "EXPLAIN SELECT * FROM t WHERE a = $1"},
		{"PREPARE p AS SELECT $1 + 5", "PREPARE p AS SELECT $1 + $2"},
		{"COMMENT ON TABLE t IS 'private note'", "COMMENT ON TABLE t IS $1"},
		// What the scanner refuses is dropped whole: it cannot tell the
		// constants from the rest.
		{"ALTER ROLE r PASSWORD 'unterminated", Unnormalised},
		{"SELECT $$a", Unnormalised},
		{"SELECT 1 /* open", Unnormalised},
		{"SELECT 12abc, 'secret'", Unnormalised},
		{"", ""},
	}
	for _, c := range cases {
		got, _ := Normalize(c.in)
		if got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// No constant of a statement survives in its normal form, whatever it
// spells.
func TestNormalizeKeepsNoSecret(t *testing.T) {
	for _, q := range []string{
		"ALTER ROLE r PASSWORD 'Sekr1t'",
		"ALTER ROLE r PASSWORD E'Sekr1t'",
		"ALTER ROLE r PASSWORD U&'Sekr1t'",
		"ALTER ROLE r PASSWORD $$Sekr1t$$",
		"ALTER ROLE r PASSWORD $q$Sekr1t$q$",
		"ALTER ROLE r PASSWORD 'Sekr1t' -- 'Sekr1t'",
		"ALTER ROLE r PASSWORD 'Sekr1t' /* Sekr1t */",
		"SELECT 'Sekr1t' FROM t",
		"SELECT * FROM t WHERE pw = 'Sekr1t'",
		"SELECT 'a' || 'Sekr1t'",
		"SELECT x'5365' || 'Sekr1t'",
		"SELECT 'Sekr1t",
	} {
		got, _ := Normalize(q)
		if strings.Contains(got, "Sekr1t") {
			t.Errorf("Normalize(%q) = %q keeps the secret", q, got)
		}
	}
}

func TestNormalizeID(t *testing.T) {
	same := [][2]string{
		{"SELECT * FROM t WHERE a = 5", "select  *  from T where a=7 /* c */"},
		{"SELECT * FROM t WHERE a = -5", "SELECT * FROM t WHERE a = 6"},
		{"SELECT $1::int", "SELECT $1::int"},
		// A utility statement's constants are not part of its ID, so the
		// ID tells nothing of a password.
		{"ALTER ROLE r PASSWORD 'a'", "ALTER ROLE r PASSWORD 'b'"},
		{"SET x = 1", "SET x = 2"},
		{"SELECT /*+ hint */ 1 /* c */", "SELECT /*+ hint */ 2"},
	}
	for _, p := range same {
		_, a := Normalize(p[0])
		_, b := Normalize(p[1])
		if a != b {
			t.Errorf("%q and %q have different IDs", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"SELECT * FROM t WHERE a = 5", "SELECT * FROM u WHERE a = 5"},
		{"SELECT * FROM t WHERE a = 5", `SELECT * FROM t WHERE "a " = 5`},
		{"SELECT a - 1 FROM t", "SELECT a, -1 FROM t"},
		{"SELECT /*+ USE_INDEX(t, i) */ a FROM t", "SELECT a FROM t"},
		{"SELECT $1", "SELECT 1"},
	}
	for _, p := range differ {
		_, a := Normalize(p[0])
		_, b := Normalize(p[1])
		if a == b {
			t.Errorf("%q and %q share an ID", p[0], p[1])
		}
	}
}

func FuzzNormalize(f *testing.F) {
	f.Add("SELECT * FROM t WHERE a = -5 AND b = 'x' LIMIT 3")
	f.Add("SELECT $$a$$, E'\\x41', $2")
	f.Fuzz(func(t *testing.T, s string) {
		n, _ := Normalize(s)
		// Normalising is idempotent: the normal form of the normal form
		// is itself (its ID differs, as parameters are not constants).
		n2, _ := Normalize(n)
		if _, err := scan(s); err == nil && n2 != n {
			t.Fatalf("Normalize(%q) = %q, again %q", s, n, n2)
		}
	})
}
