package parser

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/zproxy/zproxy/internal/pgerr"
)

var fuzzSeeds = []string{
	`SELECT c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default, a !~* b, x = ANY(ARRAY[1,2]), a[1:2][3]`,
	`SELECT (f(x)).n, ARRAY(SELECT 1), 'a' SIMILAR TO 'b' ESCAPE '#', 'x'::"char", unnest(a), x LIKE ANY(y)`,
	`COMMENT ON COLUMN t.c IS 'x'`,
	`UPDATE t SET a[1] = 2, a[2:$1] = '{3}', j['k'][0] = '1' WHERE id = $2`,
	`INSERT INTO t AS x (id, a[1], j['k']['l']) VALUES (1, 2, '3') ON CONFLICT (id) DO UPDATE SET a[2] = excluded.a[1]`,
	``, `;`, `SELECT 1`, `select $2, $1, $2`, `SELECT 'a''b' || E'\x41\n' || $$x$$ FROM "T"`,
	`SELECT a::int::text, CAST(b AS varchar(3)), date '2024-01-01' FROM t WHERE c = $1`,
	`CREATE TABLE r (a bigint, b timestamptz, PRIMARY KEY (a, b DESC)) WITH (shards = 4)`,
	`CREATE INDEX i ON r USING zorder (a, b(8)) INCLUDE (c) WITH (shards = 2)`,
	`INSERT INTO r VALUES (1) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b`,
	`EXPLAIN (ANALYZE, FORMAT JSON) SELECT /*+ USE_INDEX(r, i) */ * FROM r`,
	`SET zproxy.allow_full_scan = off; SHOW ALL; RESET ALL; BEGIN; COMMIT`,
	`SELECT 'unterminated`, `SELECT /* /* */`, `SELECT $a$ $b$`, `SELECT 1 -- c`, `DROP INDEX IF EXISTS i`,
	// Found by FuzzParse: TiDB's decimal code panicked on 82 digits.
	`SELECT 1234567890123456789012345678901234567890123456789012345678901234567890123456789012`,
	`SELECT 0.12345678901234567890123456789012345678901234567890123456789012345678901234567890123`,
	`CREATE FUNCTION f(a int DEFAULT 1) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN a THEN 1 END; SELECT 2; END; SELECT 3`,
	`CREATE OR REPLACE PROCEDURE p(INOUT x int) AS $$ SELECT 1 $$ LANGUAGE sql; CALL p(x => 1); DO $$ BEGIN END $$`,
	`CREATE TRIGGER t BEFORE INSERT OR UPDATE OF a ON t FOR EACH ROW WHEN (NEW.a > 0) EXECUTE FUNCTION f('x')`,
	// PostgreSQL's precedence: OPERATOR(pg_catalog.op) at the Op level,
	// the non-associative comparisons, LIKE and IS, chained IS tests.
	`SELECT 2 OPERATOR(pg_catalog.*) 3 + 1, OPERATOR(pg_catalog.-) 2 + 1, 'x' || 1 OPERATOR(pg_catalog.+) 2 = 3`,
	`SELECT 1 < 2 = true, a LIKE b LIKE c, x IS DISTINCT FROM y IS NOT FALSE, '%' IS NOT NULL IS NOT UNKNOWN`,
	`UPDATE t SET a = b = c, (d, e) = (f = g, 1) WHERE x BETWEEN 1 AND 2 = true IS TRUE IS TRUE`,
	`MERGE INTO t AS x USING (VALUES (1, $1)) AS s(a, b) ON x.a = s.a WHEN MATCHED AND CASE WHEN s.b THEN true END THEN UPDATE SET b = DEFAULT WHEN NOT MATCHED THEN INSERT (a) OVERRIDING USER VALUE VALUES (s.a)`,
	`WITH q AS (SELECT 1) MERGE INTO ONLY t USING q JOIN u USING (a) ON t.a = q.a WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT DEFAULT VALUES`,
	`EXPLAIN MERGE INTO t USING s ON true WHEN MATCHED THEN DO NOTHING`, `(MERGE INTO t`, `WITH m AS (MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE) SELECT 1`,
	`SELECT 1 LIMIT -1`, `SELECT 1 OFFSET -5`, `SELECT ((((((((1))))))))`, `SELECT CASE WHEN CASE WHEN 1 THEN 2 END THEN 3 END`,
}

// FuzzParse: Parse never panics; a success has every statement's Text at
// its Offset, a failure is a *pgerr.Error with a position inside the query.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		sts, err := Parse(q)
		if err != nil {
			pe := pgerr.As(err)
			if pe == nil {
				t.Fatalf("Parse(%q): error %v is not a *pgerr.Error", q, err)
			}
			if pe.Position < 0 || pe.Position > utf8.RuneCountInString(q)+1 {
				t.Fatalf("Parse(%q): position %d out of range", q, pe.Position)
			}
			return
		}
		for _, st := range sts {
			if st.AST == nil && !st.ParsedApart() {
				t.Fatalf("Parse(%q): nil AST for %q", q, st.Text)
			}
			if st.Offset < 0 || st.Offset+len(st.Text) > len(q) || q[st.Offset:st.Offset+len(st.Text)] != st.Text || st.Text == "" {
				t.Fatalf("Parse(%q): Text %q not at Offset %d", q, st.Text, st.Offset)
			}
			if len(st.ParamOrder) > 0 && st.NumParams == 0 {
				t.Fatalf("Parse(%q): markers without NumParams", q)
			}
		}
	})
}

// FuzzScanner: a value written as a plain, escape or dollar-quoted string,
// or as a quoted identifier, comes out of Parse unchanged.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{"", "x", "it's", `back\slash`, "$1 ::int -- /* ; \"q\"", "Ünï\tcode\n", "$$", "`tick`", "a''b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return
		}
		queries := []string{
			"SELECT '" + strings.ReplaceAll(s, "'", "''") + "'",
			"SELECT E'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'",
		}
		if !strings.Contains(s, "$zq") {
			queries = append(queries, "SELECT $zq$"+s+"$zq$")
		}
		for _, q := range queries {
			st := parseOneOK(t, q)
			v, ok := st.AST.(*ast.SelectStmt).Fields.Fields[0].Expr.(ast.ValueExpr)
			if !ok {
				t.Fatalf("%q: not a value", q)
			}
			if got, _ := v.GetValue().(string); got != s {
				t.Fatalf("%q: value %q, want %q", q, got, s)
			}
		}
		if s != "" {
			q := `SELECT 1 AS "` + strings.ReplaceAll(s, `"`, `""`) + `"`
			st := parseOneOK(t, q)
			if got := st.AST.(*ast.SelectStmt).Fields.Fields[0].AsName.O; got != s {
				t.Fatalf("%q: alias %q, want %q", q, got, s)
			}
		}
	})
}

func BenchmarkParseSelect(b *testing.B) {
	q := `SELECT sensor_id, ts, celsius FROM readings WHERE sensor_id = $1 AND ts >= $2::timestamp AND ts < $3 ORDER BY ts DESC LIMIT 100`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseInsert(b *testing.B) {
	q := `INSERT INTO readings VALUES (1, '2024-01-01 10:00:00', 21.5, 40.7, -73.9, 'ok'), (1, '2024-01-02 10:00:00', NULL, 40.8, -74.0, NULL)`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(q); err != nil {
			b.Fatal(err)
		}
	}
}
