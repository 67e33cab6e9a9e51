package parser

import "testing"

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT * FROM t WHERE a = 5 AND b = 'x'", "SELECT * FROM t WHERE a = $1 AND b = $2"},
		{"select * from t where a = $1 and b = 2.5e3", "select * from t where a = $1 and b = $2"},
		{"SELECT a - 1, -2, f(-3), x-4 FROM t LIMIT 10", "SELECT a - $1, $2, f($3), x-$4 FROM t LIMIT $5"},
		{"SELECT 'it''s', E'\\n', $$d$$::text, B'01' -- 7\n FROM t", "SELECT $1, $2, $3::text, $4 -- 7\n FROM t"},
		{`SELECT "9" FROM t WHERE x IN (1, 2, 3)`, `SELECT "9" FROM t WHERE x IN ($1, $2, $3)`},
		{"INSERT INTO t VALUES (1, 'a')", "INSERT INTO t VALUES ($1, $2)"},
		{"SET work_mem = '64MB'", "SET work_mem = '64MB'"},
		{"CREATE TABLE t (a int DEFAULT 5)", "CREATE TABLE t (a int DEFAULT 5)"},
	}
	for _, c := range cases {
		got, _ := Normalize(c.in)
		if got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNormalizeID(t *testing.T) {
	same := [][2]string{
		{"SELECT * FROM t WHERE a = 5", "select  *  from T where a=7 /* c */"},
		{"SELECT * FROM t WHERE a = -5", "SELECT * FROM t WHERE a = 6"},
		{"SELECT $1::int", "SELECT $1::int"},
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
		{"SET x = 1", "SET x = 2"},
		{"SELECT a - 1 FROM t", "SELECT a, -1 FROM t"},
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
