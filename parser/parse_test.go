package parser

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// restore prints a statement's AST back as SQL, for comparisons.
func restore(t testing.TB, n ast.Node) string {
	t.Helper()
	var sb strings.Builder
	ctx := format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreKeyWordLowercase|
		format.RestoreNameBackQuotes|format.RestoreStringWithoutCharset, &sb)
	if err := n.Restore(ctx); err != nil {
		t.Fatalf("restore: %v", err)
	}
	return sb.String()
}

func parseOneOK(t *testing.T, q string) Statement {
	t.Helper()
	sts, err := Parse(q)
	if err != nil {
		t.Fatalf("Parse(%q): %v", q, err)
	}
	if len(sts) != 1 {
		t.Fatalf("Parse(%q): %d statements, want 1", q, len(sts))
	}
	return sts[0]
}

func TestRewrite(t *testing.T) {
	tests := []struct{ in, want string }{
		{`SELECT A, "B", "c""d" FROM T`, "select `a`,`B`,`c\"d` from `t`"},
		{`select "Foo"."Bar" from "Foo"`, "select `Foo`.`Bar` from `Foo`"},
		{`SELECT 'It''s', 'a\b', E'x\ty\\z\'q', E'\x41\101\u00e9', $$a'b$$, $t$ $$ $t$`,
			"select 'It''s','a\\b','x\ty\\z''q','AAé','a''b',' $$ '"},
		{`SELECT 'a' || 'b'`, "select 'a'|zp_op('||')|'b'"},
		{`SELECT a::int, a::integer, a::int4, a::int2, a::smallint, a::bigint, a::int8`,
			"select zp_cast(`a`, 'integer'),zp_cast(`a`, 'integer'),zp_cast(`a`, 'integer'),zp_cast(`a`, 'smallint'),zp_cast(`a`, 'smallint'),zp_cast(`a`, 'bigint'),zp_cast(`a`, 'bigint')"},
		{`SELECT a::real, a::float4, a::double precision, a::float8, a::float, a::float(10)`,
			"select zp_cast(`a`, 'real'),zp_cast(`a`, 'real'),zp_cast(`a`, 'double precision'),zp_cast(`a`, 'double precision'),zp_cast(`a`, 'double precision'),zp_cast(`a`, 'real')"},
		{`SELECT a::text, a::varchar(5), a::character varying(7), a::varchar, a::bool, a::boolean`,
			"select zp_cast(`a`, 'text'),zp_cast(`a`, 'character varying(5)'),zp_cast(`a`, 'character varying(7)'),zp_cast(`a`, 'character varying'),zp_cast(`a`, 'boolean'),zp_cast(`a`, 'boolean')"},
		{`SELECT a::timestamp, a::timestamptz, a::timestamp with time zone, a::timestamp without time zone, a::timestamp(3), a::date, a::bytea, a::uuid`,
			"select zp_cast(`a`, 'timestamp without time zone'),zp_cast(`a`, 'timestamp with time zone'),zp_cast(`a`, 'timestamp with time zone'),zp_cast(`a`, 'timestamp without time zone'),zp_cast(`a`, 'timestamp(3) without time zone'),zp_cast(`a`, 'date'),zp_cast(`a`, 'bytea'),zp_cast(`a`, 'uuid')"},
		{`SELECT a::int::text, (a + 1)::text, f(a, b)::int, t.a::int, $1::date, -1::int, '1'::int8`,
			"select zp_cast(zp_cast(`a`, 'integer'), 'text'),zp_cast((`a`+1), 'text'),zp_cast(f(`a`, `b`), 'integer'),zp_cast(`t`.`a`, 'integer'),zp_cast(?, 'date'),-zp_cast(1, 'integer'),zp_cast('1', 'bigint')"},
		{`SELECT CAST(a AS bigint), CAST(CAST(b AS int) AS text), CAST(a AS int)::text`,
			"select zp_cast(`a`, 'bigint'),zp_cast(zp_cast(`b`, 'integer'), 'text'),zp_cast(zp_cast(`a`, 'integer'), 'text')"},
		{`SELECT date '2024-01-01', timestamp with time zone '2024-01-01 00:00:00+00', timestamp '2024-01-01'::date`,
			"select zp_cast('2024-01-01', 'date'),zp_cast('2024-01-01 00:00:00+00', 'timestamp with time zone'),zp_cast(zp_cast('2024-01-01', 'timestamp without time zone'), 'date')"},
		{`SELECT 1 FROM t WHERE (a)::int = 1 AND a IN (1, 2)`,
			"select 1 from `t` where zp_cast((`a`), 'integer')=1 and `a` in (1,2)"},
		{`SELECT rank, key, range FROM t`, "select `rank`,`key`,`range` from `t`"},
		{`SELECT /*+ USE_INDEX(readings, by_place) */ a FROM readings -- trailing`,
			"select /*+ use_index(`readings` `by_place`)*/ `a` from `readings`"},
		{`SELECT /* a comment ; with 'quote' */ 1 /* nested /* inner */ still */`, "select 1"},
		{`SELECT a FROM t WHERE b LIKE 'x%' AND c <> 2 AND d != 3 ORDER BY a DESC LIMIT 10 OFFSET 5`,
			"select `a` from `t` where `b` like 'x%' and `c`!=2 and `d`!=3 order by `a` desc limit 5,10"},
		{`INSERT INTO r VALUES (1, 'x') ON CONFLICT (a, "B") DO UPDATE SET c = EXCLUDED.c, d = r.d + 1`,
			"insert into `r` values (1,'x') on duplicate key update `c`=`excluded`.`c`,`d`=`r`.`d`+1"},
		{`INSERT INTO r (a) VALUES ($1) ON CONFLICT DO NOTHING`, "insert into `r` (`a`) values (?)"},
		{`UPDATE readings SET note = 'x' WHERE sensor_id = 7 AND ts >= '2024-01-01'`,
			"update `readings` set `note`='x' where `sensor_id`=7 and `ts`>='2024-01-01'"},
		{`DELETE FROM readings WHERE sensor_id = 7`, "delete from `readings` where `sensor_id`=7"},
		{`DROP TABLE IF EXISTS readings`, "drop table if exists `readings`"},
		{`SHOW INDEXES FROM readings`, "show index in `readings`"},
		{`CHECK TABLE readings`, "admin check table `readings`"},
		{`ADMIN CHECK TABLE readings`, "admin check table `readings`"},
		{`SELECT a FROM t JOIN u ON t.a = u.b`, "select `a` from `t` join `u` on `t`.`a`=`u`.`b`"},
		{`BEGIN`, "start transaction"},
		{`BEGIN TRANSACTION READ ONLY`, "start transaction read only"},
		{`START TRANSACTION ISOLATION LEVEL SERIALIZABLE`, "begin serializable"},
		{`BEGIN READ WRITE, ISOLATION LEVEL READ COMMITTED`, "begin read committed"},
		{`SAVEPOINT a`, "savepoint a"}, {`RELEASE a`, "release savepoint a"}, {`RELEASE SAVEPOINT a`, "release savepoint a"},
		{`ROLLBACK TO a`, "rollback TO a"}, {`ROLLBACK WORK TO SAVEPOINT a`, "rollback TO a"},
		{`COMMIT`, "commit"}, {`END`, "commit"}, {`COMMIT WORK`, "commit"},
		{`ROLLBACK`, "rollback"}, {`ABORT TRANSACTION`, "rollback"},
		{`SET zproxy.allow_full_scan = off`, "set @@session.`zproxy.allow_full_scan`='off'"},
		{`SET SESSION Search_Path TO "$user", public`, "set @@session.`search_path`='\"$user\", public'"},
		{`SET extra_float_digits = -3`, "set @@session.`extra_float_digits`='-3'"},
		{`SET TIME ZONE 'UTC'`, "set @@session.`timezone`='UTC'"},
		{`SET datestyle TO DEFAULT`, "set @@session.`datestyle`=default"},
		{`SET NAMES 'UTF8'`, "set @@session.`client_encoding`='UTF8'"},
		{`RESET statement_timeout`, "set @@session.`statement_timeout`=default"},
		{`RESET ALL`, "set @@session.`all`=default"},
		{`SHOW server_version`, "show session variables like 'server\\_version'"},
		{`SHOW ALL`, "show session variables"},
		{`SHOW TIME ZONE`, "show session variables like 'timezone'"},
		{`DROP INDEX by_note`, "drop index `by_note` on ``"},
		{`DROP INDEX IF EXISTS public.by_note CASCADE`, "drop index if exists `public.by_note` on ``"},
		{`DROP INDEX by_note ON readings`, "drop index `by_note` on `readings`"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			st := parseOneOK(t, tt.in)
			if got := restore(t, st.AST); got != tt.want {
				t.Errorf("Parse(%q)\n got  %s\n want %s\n (TiDB text %q)", tt.in, got, tt.want, st.SQL)
			}
		})
	}
}

func TestCreateTable(t *testing.T) {
	q := `CREATE TABLE IF NOT EXISTS Readings (
  a SMALLINT, b INTEGER NOT NULL, c int, d INT4, e int2, f BIGINT, g int8,
  h REAL, i float4, j DOUBLE PRECISION, k float8, l float, m float(20),
  n TEXT, o VARCHAR(20), p character varying(300), q varchar, r BOOLEAN, s bool,
  t TIMESTAMP, u TIMESTAMPTZ, v timestamp with time zone, w timestamp without time zone,
  x DATE, y BYTEA, z UUID, "Quoted Col" text DEFAULT 'x',
  PRIMARY KEY (b, t DESC)
) WITH (shards = 4, Mutability = 'immutable_rows')`
	st := parseOneOK(t, q)
	ct, ok := st.AST.(*ast.CreateTableStmt)
	if !ok {
		t.Fatalf("AST is %T", st.AST)
	}
	if !ct.IfNotExists || ct.Table.Name.O != "readings" {
		t.Errorf("table %q ifNotExists %v", ct.Table.Name.O, ct.IfNotExists)
	}
	want := []sqltypes.Type{
		sqltypes.TypeInt2, sqltypes.TypeInt4, sqltypes.TypeInt4, sqltypes.TypeInt4, sqltypes.TypeInt2, sqltypes.TypeInt8, sqltypes.TypeInt8,
		sqltypes.TypeFloat4, sqltypes.TypeFloat4, sqltypes.TypeFloat8, sqltypes.TypeFloat8, sqltypes.TypeFloat8, sqltypes.TypeFloat4,
		sqltypes.TypeText, {ID: sqltypes.Varchar, Width: 20}, {ID: sqltypes.Varchar, Width: 300}, {ID: sqltypes.Varchar}, sqltypes.TypeBool, sqltypes.TypeBool,
		sqltypes.TypeTimestamp, sqltypes.TypeTimestampTZ, sqltypes.TypeTimestampTZ, sqltypes.TypeTimestamp,
		sqltypes.TypeDate, sqltypes.TypeBytea, sqltypes.TypeUUID, sqltypes.TypeText,
	}
	if len(ct.Cols) != len(want) {
		t.Fatalf("%d columns, want %d", len(ct.Cols), len(want))
	}
	for i, col := range ct.Cols {
		got, err := ColumnType(col.Tp)
		if err != nil || got != want[i] {
			t.Errorf("column %s: ColumnType = %v, %v; want %v", col.Name.Name.O, got, err, want[i])
		}
	}
	if name := ct.Cols[len(ct.Cols)-1].Name.Name.O; name != "Quoted Col" {
		t.Errorf("quoted column name %q", name)
	}
	var pk *ast.Constraint
	for _, c := range ct.Constraints {
		if c.Tp == ast.ConstraintPrimaryKey {
			pk = c
		}
	}
	if pk == nil || len(pk.Keys) != 2 || pk.Keys[0].Column.Name.L != "b" || pk.Keys[0].Desc || pk.Keys[1].Column.Name.L != "t" || !pk.Keys[1].Desc {
		t.Errorf("primary key lost its columns or DESC: %s", restore(t, ct))
	}
	if !reflect.DeepEqual(st.With, map[string]string{"shards": "4", "mutability": "immutable_rows"}) {
		t.Errorf("With = %v", st.With)
	}
}

func TestCreateTempTable(t *testing.T) {
	tests := []struct {
		sql            string
		temp, global   bool
		onCommit, view string
	}{
		{sql: `CREATE TEMP TABLE t (a int)`, temp: true, onCommit: "preserve rows"},
		{sql: `create temporary table t (a int) on commit delete rows`, temp: true, onCommit: "delete rows"},
		{sql: `CREATE LOCAL TEMP TABLE t (a int) ON COMMIT DROP`, temp: true, onCommit: "drop"},
		{sql: `CREATE GLOBAL TEMPORARY TABLE t (a int) WITH (shards = 2) ON COMMIT PRESERVE ROWS`, temp: true, global: true, onCommit: "preserve rows"},
		{sql: `CREATE TABLE t (a int)`},
		{sql: `CREATE TEMP VIEW v AS SELECT 1`, temp: true, view: "v"},
		{sql: `CREATE OR REPLACE TEMPORARY VIEW v AS SELECT 1`, temp: true, view: "v"},
	}
	for _, tc := range tests {
		st := parseOneOK(t, tc.sql)
		if st.Temp != tc.temp || st.TempGlobal != tc.global || st.OnCommit != tc.onCommit {
			t.Errorf("%s: Temp %v TempGlobal %v OnCommit %q", tc.sql, st.Temp, st.TempGlobal, st.OnCommit)
		}
		if cv, ok := st.AST.(*ast.CreateViewStmt); tc.view != "" && (!ok || cv.ViewName.Name.O != tc.view) {
			t.Errorf("%s: AST %T", tc.sql, st.AST)
		}
	}
}

func TestCreateIndexUnnamed(t *testing.T) {
	for _, tc := range []struct {
		sql     string
		unnamed bool
		table   string
	}{
		{`CREATE INDEX ON t (a)`, true, "t"},
		{`create unique index on only "T" using btree (a, b desc)`, true, "T"},
		{`CREATE INDEX CONCURRENTLY ON t (a)`, true, "t"},
		{`CREATE INDEX i ON t (a)`, false, "t"},
	} {
		st := parseOneOK(t, tc.sql)
		ci, ok := st.AST.(*ast.CreateIndexStmt)
		if !ok {
			t.Fatalf("%s: AST %T", tc.sql, st.AST)
		}
		if st.IndexUnnamed != tc.unnamed || (ci.IndexName == UnnamedIndex) != tc.unnamed || ci.Table.Name.O != tc.table {
			t.Errorf("%s: IndexUnnamed %v, name %q, table %q", tc.sql, st.IndexUnnamed, ci.IndexName, ci.Table.Name.O)
		}
	}
}

func TestCreateTableLike(t *testing.T) {
	for _, tc := range []struct {
		sql      string
		like     []LikeClause
		likeOnly bool
		cols     int
	}{
		{sql: `CREATE TABLE t (LIKE s)`, like: []LikeClause{{Table: "s", Including: map[string]bool{}}}, likeOnly: true, cols: 1},
		{sql: `CREATE TABLE t (a int, LIKE public."S" INCLUDING ALL EXCLUDING INDEXES, b text)`, cols: 2,
			like: []LikeClause{{Schema: "public", Table: "S", Before: 1, Including: map[string]bool{"comments": true, "compression": true, "constraints": true,
				"defaults": true, "generated": true, "identity": true, "indexes": false, "statistics": true, "storage": true}}}},
		{sql: `create table t (a int, like s including defaults)`, cols: 1, like: []LikeClause{{Table: "s", Before: 1, Including: map[string]bool{"defaults": true}}}},
		{sql: `CREATE TABLE t (LIKE s, LIKE u)`, likeOnly: true, cols: 1,
			like: []LikeClause{{Table: "s", Including: map[string]bool{}}, {Table: "u", Including: map[string]bool{}}}},
	} {
		st := parseOneOK(t, tc.sql)
		ct, ok := st.AST.(*ast.CreateTableStmt)
		if !ok {
			t.Fatalf("%s: AST %T", tc.sql, st.AST)
		}
		for i := range st.Like {
			st.Like[i].Position = 0
		}
		if !reflect.DeepEqual(st.Like, tc.like) || st.LikeOnly != tc.likeOnly || len(ct.Cols) != tc.cols {
			t.Errorf("%s: Like %+v LikeOnly %v, %d columns", tc.sql, st.Like, st.LikeOnly, len(ct.Cols))
		}
	}
}

func TestColumnTypeRejectsOthers(t *testing.T) {
	// MySQL types a user might try are refused by the scanner, or left by
	// name for the binder to look up as user-defined types (which it
	// refuses when there is none), so they can never reach ColumnType
	// disguised as a supported type.
	for _, q := range []string{`CREATE TABLE t (a datetime)`, `CREATE TABLE t (a tinyint)`, `CREATE TABLE t (a aclitem)`, `CREATE TABLE t (a aclitem[])`, `CREATE TABLE t (a enum)`} {
		sts, err := Parse(q)
		if err == nil && len(sts) == 1 && sts[0].Columns["a"] != nil && sts[0].Columns["a"].TypeName != "" {
			continue
		}
		if code := pgerr.CodeOf(err); code != pgerr.UndefinedObject && code != pgerr.FeatureNotSupported {
			t.Errorf("Parse(%q) = %v (code %s), want 42704 or 0A000 or a user type name", q, err, code)
		}
	}
}

func TestCastOf(t *testing.T) {
	for _, typ := range sqltypes.AllTypes() {
		for _, tt := range []sqltypes.Type{typ, {ID: typ.ID, Width: 12}} {
			if tt.Width != 0 && tt.ID != sqltypes.Varchar {
				continue
			}
			if tt.ID == sqltypes.Bit && tt.Width == 0 {
				// format_type prints bit of no length as "bit", which
				// PostgreSQL's grammar reads as bit(1).
				tt.Width = 1
			}
			q := fmt.Sprintf("SELECT a::%s, CAST(a AS %s)", tt, tt)
			st := parseOneOK(t, q)
			for _, f := range st.AST.(*ast.SelectStmt).Fields.Fields {
				operand, got, ok := CastOf(f.Expr)
				if !ok || got != tt {
					t.Errorf("%s: CastOf = %v, %v; want %v", q, got, ok, tt)
					continue
				}
				if cn, isCol := operand.(*ast.ColumnNameExpr); !isCol || cn.Name.Name.L != "a" {
					t.Errorf("%s: operand %T", q, operand)
				}
			}
		}
	}
	st := parseOneOK(t, "SELECT zp_cast(a, 'nonsense'), f(a)")
	for _, f := range st.AST.(*ast.SelectStmt).Fields.Fields {
		if _, _, ok := CastOf(f.Expr); ok {
			t.Errorf("CastOf accepted %s", restore(t, f.Expr))
		}
	}
}

func TestParams(t *testing.T) {
	tests := []struct {
		in    string
		num   int
		order []int
	}{
		{`SELECT $1`, 1, []int{1}},
		{`SELECT $2, $1, $2`, 2, []int{2, 1, 2}},
		{`SELECT * FROM t WHERE a = $3 AND b IN ($1, $10) LIMIT $2`, 10, []int{3, 1, 10, 2}},
		{`INSERT INTO t VALUES ($2::int, $1)`, 2, []int{2, 1}},
		{`SELECT '$1', "$2", $$ $3 $$ -- $4`, 0, nil},
		{`EXPLAIN SELECT a FROM t WHERE a = $1`, 1, []int{1}},
	}
	for _, tt := range tests {
		st := parseOneOK(t, tt.in)
		if st.NumParams != tt.num || !reflect.DeepEqual(st.ParamOrder, tt.order) {
			t.Errorf("%s: NumParams %d ParamOrder %v, want %d %v", tt.in, st.NumParams, st.ParamOrder, tt.num, tt.order)
		}
		// Order fields agree with ParamOrder.
		var markers []ast.ParamMarkerExpr
		st.AST.Accept(visitFunc(func(n ast.Node) {
			if m, ok := n.(ast.ParamMarkerExpr); ok {
				markers = append(markers, m)
			}
		}))
		if len(markers) != len(tt.order) {
			t.Errorf("%s: %d markers, want %d", tt.in, len(markers), len(tt.order))
		}
	}
}

type visitFunc func(ast.Node)

func (f visitFunc) Enter(n ast.Node) (ast.Node, bool) { f(n); return n, false }
func (f visitFunc) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func TestSplit(t *testing.T) {
	tests := []struct {
		in    string
		texts []string
	}{
		{``, nil},
		{`   `, nil},
		{`;;;`, nil},
		{`-- only a comment`, nil},
		{`/* c */ ; -- x`, nil},
		{`SELECT 1`, []string{`SELECT 1`}},
		{`SELECT 1;`, []string{`SELECT 1`}},
		{" SELECT 1 ; SELECT 2;\n-- c\nSELECT 3", []string{`SELECT 1`, `SELECT 2`, `SELECT 3`}},
		{`SELECT ';' ; SELECT "a;b" FROM t`, []string{`SELECT ';'`, `SELECT "a;b" FROM t`}},
		{`SELECT $$;$$; SELECT $x$ ; $x$`, []string{`SELECT $$;$$`, `SELECT $x$ ; $x$`}},
		{`SELECT 1 /* ; */; SELECT 2 -- ;`, []string{`SELECT 1`, `SELECT 2`}},
		{`SELECT E'\';'; SELECT 2`, []string{`SELECT E'\';'`, `SELECT 2`}},
	}
	for _, tt := range tests {
		sts, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		var texts []string
		for _, st := range sts {
			texts = append(texts, st.Text)
			if tt.in[st.Offset:st.Offset+len(st.Text)] != st.Text {
				t.Errorf("Parse(%q): Text %q not at Offset %d", tt.in, st.Text, st.Offset)
			}
		}
		if !reflect.DeepEqual(texts, tt.texts) {
			t.Errorf("Parse(%q) texts %q, want %q", tt.in, texts, tt.texts)
		}
	}
}

// TestLiteralsUntouched checks that nothing inside strings, quoted
// identifiers or dollar quotes is rewritten.
func TestLiteralsUntouched(t *testing.T) {
	tests := []struct {
		in   string
		want string // the string value of the first select field
	}{
		{`SELECT 'ABC $1 ::int -- /* ; "x"'`, `ABC $1 ::int -- /* ; "x"`},
		{`SELECT 'a\nb'`, `a\nb`},
		{`SELECT E'a\nb'`, "a\nb"},
		{`SELECT E'\\'`, `\`},
		{`SELECT E'\u263A\U0001F600'`, "☺😀"},
		{`SELECT $$It's E'x' $1$$`, `It's E'x' $1`},
		{`SELECT $fn$ $$ '' $fn$`, ` $$ '' `},
		{`SELECT 'x''y'`, `x'y`},
		{`SELECT 'CAST(a AS int)'`, `CAST(a AS int)`},
		{`SELECT '/*+ USE_INDEX(t, i) */'`, `/*+ USE_INDEX(t, i) */`},
		{`SELECT 'multi' 'part'`, `multipart`},
	}
	for _, tt := range tests {
		st := parseOneOK(t, tt.in)
		f := st.AST.(*ast.SelectStmt).Fields.Fields[0]
		v, ok := f.Expr.(ast.ValueExpr)
		if !ok {
			t.Errorf("%s: field is %T", tt.in, f.Expr)
			continue
		}
		if got, _ := v.GetValue().(string); got != tt.want {
			t.Errorf("%s: value %q, want %q", tt.in, got, tt.want)
		}
	}
	// N'...' is a bpchar constant: its value stays whole inside the cast.
	nat := parseOneOK(t, `SELECT N'nat''s $1'`).AST.(*ast.SelectStmt).Fields.Fields[0].Expr
	if call, ok := nat.(*ast.FuncCallExpr); !ok || len(call.Args) != 2 {
		t.Errorf("N'nat''s $1': %T", nat)
	} else if v, _ := call.Args[0].(ast.ValueExpr).GetValue().(string); v != `nat's $1` {
		t.Errorf("N'nat''s $1': value %q", v)
	}
	st := parseOneOK(t, `SELECT "Mixed Case ""x"" $1 ::int" FROM "T`+"`"+`ick"`)
	sel := st.AST.(*ast.SelectStmt)
	if got := sel.Fields.Fields[0].Expr.(*ast.ColumnNameExpr).Name.Name.O; got != `Mixed Case "x" $1 ::int` {
		t.Errorf("quoted identifier %q", got)
	}
	if got := sel.From.TableRefs.Left.(*ast.TableSource).Source.(*ast.TableName).Name.O; got != "T`ick" {
		t.Errorf("quoted table %q", got)
	}
}

func TestIndexDDL(t *testing.T) {
	st := parseOneOK(t, `CREATE INDEX IF NOT EXISTS by_place ON readings USING ZORDER (lat, lon(16), ts DESC) INCLUDE (celsius, "Note") WITH (shards = 8)`)
	ci, ok := st.AST.(*ast.CreateIndexStmt)
	if !ok {
		t.Fatalf("AST %T", st.AST)
	}
	if !ci.IfNotExists || ci.IndexName != "by_place" || ci.Table.Name.O != "readings" {
		t.Errorf("got %s", restore(t, ci))
	}
	parts := ci.IndexPartSpecifications
	if len(parts) != 3 || parts[1].Length != 16 || !parts[2].Desc || parts[0].Desc {
		t.Errorf("key parts %s", restore(t, ci))
	}
	if st.IndexMethod != "zorder" || !reflect.DeepEqual(st.Include, []string{"celsius", "Note"}) || st.With["shards"] != "8" {
		t.Errorf("method %q include %q with %v", st.IndexMethod, st.Include, st.With)
	}
	st = parseOneOK(t, `CREATE INDEX by_note ON readings (note, ts DESC) INCLUDE (celsius)`)
	if st.IndexMethod != "btree" || st.With != nil || len(st.Include) != 1 {
		t.Errorf("method %q include %q with %v", st.IndexMethod, st.Include, st.With)
	}
	st = parseOneOK(t, `CREATE UNIQUE INDEX u ON t USING btree (a)`)
	if ci := st.AST.(*ast.CreateIndexStmt); ci.KeyType != ast.IndexKeyTypeUnique || st.IndexMethod != "btree" {
		t.Errorf("unique index: %s %q", restore(t, ci), st.IndexMethod)
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		in   string
		want ExplainOptions
	}{
		{`EXPLAIN SELECT 1`, ExplainOptions{Format: "text", Costs: true}},
		{`EXPLAIN ANALYZE SELECT 1`, ExplainOptions{Analyze: true, Format: "text", Costs: true, Timing: true, Summary: true}},
		{`EXPLAIN ANALYZE VERBOSE SELECT 1`, ExplainOptions{Analyze: true, Verbose: true, Format: "text", Costs: true, Timing: true, Summary: true}},
		{`EXPLAIN (FORMAT JSON) SELECT 1`, ExplainOptions{Format: "json", Costs: true}},
		{`EXPLAIN (FORMAT yaml) SELECT 1`, ExplainOptions{Format: "yaml", Costs: true}},
		{`EXPLAIN (FORMAT 'xml') SELECT 1`, ExplainOptions{Format: "xml", Costs: true}},
		{`EXPLAIN (ANALYZE, FORMAT TEXT) SELECT 1`, ExplainOptions{Analyze: true, Format: "text", Costs: true, Timing: true, Summary: true}},
		{`EXPLAIN (ANALYZE false, COSTS off) SELECT 1`, ExplainOptions{Format: "text"}},
		{`EXPLAIN (ANALYZE 1, TIMING 0, SUMMARY 'OFF', BUFFERS TRUE, WAL on, SETTINGS) SELECT 1`,
			ExplainOptions{Analyze: true, Format: "text", Costs: true, Buffers: true, WAL: true, Settings: true}},
		{`EXPLAIN (TIMING off, SUMMARY) SELECT 1`, ExplainOptions{Format: "text", Costs: true, Summary: true}},
		{`EXPLAIN (ANALYZE, ANALYZE off, FORMAT json, FORMAT xml) SELECT 1`, ExplainOptions{Format: "xml", Costs: true}},
	}
	for _, tt := range tests {
		st := parseOneOK(t, tt.in)
		ex, ok := st.AST.(*ast.ExplainStmt)
		if !ok || st.Explain == nil || *st.Explain != tt.want || ex.Analyze != tt.want.Analyze {
			t.Errorf("%s: AST %T options %+v", tt.in, st.AST, st.Explain)
			continue
		}
		if _, ok := ex.Stmt.(*ast.SelectStmt); !ok {
			t.Errorf("%s: explained %T", tt.in, ex.Stmt)
		}
	}
	st := parseOneOK(t, `EXPLAIN INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b`)
	if st.OnConflict == nil || len(st.AST.(*ast.ExplainStmt).Stmt.(*ast.InsertStmt).OnDuplicate) != 1 {
		t.Errorf("explain of upsert: %s %+v", restore(t, st.AST), st.OnConflict)
	}
}

// TestExplainOptionErrors holds PostgreSQL 15's answers to bad EXPLAIN
// options, taken from the server: message, SQLSTATE and whether it points
// at the option.
func TestExplainOptionErrors(t *testing.T) {
	tests := []struct {
		in, code, msg string
		pos           int
	}{
		{`EXPLAIN (GENERIC_PLAN) SELECT 1`, "42601", `unrecognized EXPLAIN option "generic_plan"`, 10},
		{`EXPLAIN (memory) SELECT 1`, "42601", `unrecognized EXPLAIN option "memory"`, 10},
		{`EXPLAIN (analyze maybe) SELECT 1`, "42601", "analyze requires a Boolean value", 0},
		{`EXPLAIN (analyze 2) SELECT 1`, "42601", "analyze requires a Boolean value", 0},
		{`EXPLAIN (analyze '1') SELECT 1`, "42601", "analyze requires a Boolean value", 0},
		{`EXPLAIN (analyze 1.0) SELECT 1`, "42601", "analyze requires a Boolean value", 0},
		{`EXPLAIN (costs yes) SELECT 1`, "42601", "costs requires a Boolean value", 0},
		{`EXPLAIN (format foo) SELECT 1`, "22023", `unrecognized value for EXPLAIN option "format": "foo"`, 10},
		{`EXPLAIN (format 'JSON') SELECT 1`, "22023", `unrecognized value for EXPLAIN option "format": "JSON"`, 10},
		{`EXPLAIN (format 1) SELECT 1`, "22023", `unrecognized value for EXPLAIN option "format": "1"`, 10},
		{`EXPLAIN (format) SELECT 1`, "42601", "format requires a parameter", 0},
		{`EXPLAIN (timing) SELECT 1`, "22023", "EXPLAIN option TIMING requires ANALYZE", 0},
		{`EXPLAIN (wal) SELECT 1`, "22023", "EXPLAIN option WAL requires ANALYZE", 0},
		{`EXPLAIN (timing, wal) SELECT 1`, "22023", "EXPLAIN option WAL requires ANALYZE", 0},
	}
	for _, tt := range tests {
		err := parseOrOptionErr(tt.in)
		var pe *pgerr.Error
		if !errors.As(err, &pe) || pe.Code.String() != tt.code || pe.Message != tt.msg || pe.Position != tt.pos {
			t.Errorf("%s: %v, want %s %s at %d", tt.in, err, tt.code, tt.msg, tt.pos)
		}
	}
}

func TestOnConflict(t *testing.T) {
	st := parseOneOK(t, `INSERT INTO readings VALUES (1, 2) ON CONFLICT (sensor_id, ts) DO UPDATE SET celsius = EXCLUDED.celsius`)
	if st.OnConflict == nil || st.OnConflict.DoNothing || !reflect.DeepEqual(st.OnConflict.Columns, []string{"sensor_id", "ts"}) {
		t.Fatalf("OnConflict %+v", st.OnConflict)
	}
	as := st.AST.(*ast.InsertStmt).OnDuplicate
	if len(as) != 1 || as[0].Column.Name.L != "celsius" {
		t.Fatalf("assignments %v", as)
	}
	ref := as[0].Expr.(*ast.ColumnNameExpr).Name
	if ref.Table.L != "excluded" || ref.Name.L != "celsius" {
		t.Errorf("EXCLUDED ref %s", restore(t, ref))
	}
	st = parseOneOK(t, `INSERT INTO readings VALUES (1, 2) ON CONFLICT DO NOTHING`)
	if st.OnConflict == nil || !st.OnConflict.DoNothing || st.OnConflict.Columns != nil || st.AST.(*ast.InsertStmt).OnDuplicate != nil {
		t.Errorf("DO NOTHING: %+v", st.OnConflict)
	}
}

func TestHints(t *testing.T) {
	st := parseOneOK(t, `SELECT /*+ USE_INDEX(readings, by_place) IGNORE_INDEX(readings, by_note) */ a FROM readings`)
	hints := st.AST.(*ast.SelectStmt).TableHints
	if len(hints) != 2 || hints[0].HintName.L != "use_index" || hints[1].HintName.L != "ignore_index" {
		t.Fatalf("hints %v", hints)
	}
	if len(hints[0].Tables) != 1 || hints[0].Tables[0].TableName.L != "readings" || len(hints[0].Indexes) != 1 || hints[0].Indexes[0].L != "by_place" {
		t.Errorf("use_index hint %s", restore(t, hints[0]))
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		in      string
		code    string
		pos     int
		message string // a substring
	}{
		{`SELECT 1 FROM t WHERE a = = 2`, pgerr.SyntaxError.String(), 27, `syntax error at or near "="`},
		{"SELECT 1;\n SELEC 2", pgerr.SyntaxError.String(), 12, `"SELEC"`},
		{`SELECT 'é', 'ü' + , 2`, pgerr.SyntaxError.String(), 19, `","`},
		{`SELECT a::int + , 2 FROM t`, pgerr.SyntaxError.String(), 17, `","`},
		{`SELECT E'x\n' + FROM`, pgerr.SyntaxError.String(), 17, `"FROM"`},
		{`SELECT "Ü" + FROM t`, pgerr.SyntaxError.String(), 14, `"FROM"`},
		{`SELECT 1 +`, pgerr.SyntaxError.String(), 11, `at end of input`},
		{`SELECT 1 +; SELECT 2`, pgerr.SyntaxError.String(), 11, `";"`},
		{`SELECT 'abc`, pgerr.SyntaxError.String(), 8, `unterminated quoted string`},
		{`SELECT "abc`, pgerr.SyntaxError.String(), 8, `unterminated quoted identifier`},
		{`SELECT 1 /* abc`, pgerr.SyntaxError.String(), 10, `unterminated /* comment`},
		{`SELECT $$abc`, pgerr.SyntaxError.String(), 8, `unterminated dollar-quoted string`},
		{`SELECT E'abc`, pgerr.SyntaxError.String(), 8, `unterminated quoted string`},
		{`SELECT ""`, pgerr.SyntaxError.String(), 8, `zero-length delimited identifier`},
		{`SELECT 12abc`, pgerr.SyntaxError.String(), 8, `trailing junk`},
		{"SELECT `a`", pgerr.FeatureNotSupported.String(), 8, "operator `"},
		{`SELECT CAST(1 AS pg_node_tree)`, pgerr.FeatureNotSupported.String(), 18, `type pg_node_tree is not supported`},
		{`SELECT ::int`, pgerr.SyntaxError.String(), 8, `"::"`},
		{`SELECT E'\uD800'`, pgerr.InvalidEscapeSequence.String(), 0, `invalid Unicode escape`},
		{`SELECT E'\xff'`, "22021", 0, `invalid byte sequence for encoding "UTF8": 0xff`},
		{`SELECT 'a', E'ab\xe2\x28\xa1'`, "22021", 0, `"UTF8": 0xe2 0x28 0xa1`},
		{`SELECT E'\xc3'`, "22021", 0, `"UTF8": 0xc3`},
		{`SELECT E'\x00'`, "22021", 0, `"UTF8": 0x00`},
		{`SELECT $0`, pgerr.UndefinedParameter.String(), 8, `there is no parameter $0`},
		{`INSERT INTO t VALUES (1) ON CONFLICT DO UPDATE SET a = 1`, pgerr.SyntaxError.String(), 26, `inference specification`},
		{`INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 1 WHERE RETURNING a`, pgerr.SyntaxError.String(), 68, `RETURNING`},
		{`CREATE INDEX i ON t USING spgist (a)`, pgerr.FeatureNotSupported.String(), 27, `index method spgist`},
		{`CREATE TABLE t (a int) WITH (shards = 4, shards = 5)`, pgerr.SyntaxError.String(), 42, `more than once`},
		{`CREATE UNLOGGED TABLE t (a int)`, pgerr.FeatureNotSupported.String(), 8, `UNLOGGED`},
		{`CREATE TABLE t (a int) ON COMMIT DROP`, pgerr.InvalidTableDefinition.String(), 24, `ON COMMIT can only be used on temporary tables`},
		{`CREATE TEMP TABLE t (a int) ON COMMIT DELETE`, pgerr.SyntaxError.String(), 39, ``},
		{`EXPLAIN (FORMAT HTML) SELECT 1`, pgerr.InvalidParameterValue.String(), 10, `unrecognized value for EXPLAIN option "format"`},
		{`EXPLAIN (BOGUS) SELECT 1`, pgerr.SyntaxError.String(), 10, `unrecognized EXPLAIN option`},
		{`EXPLAIN`, pgerr.SyntaxError.String(), 8, `end of input`},
		{`SET x`, pgerr.SyntaxError.String(), 6, `end of input`},
		{`SET x = `, pgerr.SyntaxError.String(), 9, `end of input`},
		{`SHOW a b`, pgerr.SyntaxError.String(), 8, `"b"`},
		{`DROP INDEX a, b`, pgerr.FeatureNotSupported.String(), 13, `several`},
		{`COMMIT now`, pgerr.SyntaxError.String(), 8, `"now"`},
		{`SELECT a ~ FROM t`, pgerr.SyntaxError.String(), 12, `FROM`},
		{`SELECT a COLLATE "de_DE" FROM t`, pgerr.UndefinedObject.String(), 10, `collation "de_DE"`},
	}
	for _, tt := range tests {
		err := parseOrOptionErr(tt.in)
		pe := pgerr.As(err)
		if pe == nil {
			t.Errorf("Parse(%q) = %v, want error %s", tt.in, err, tt.code)
			continue
		}
		if pe.Code.String() != tt.code || tt.pos != 0 && pe.Position != tt.pos || !strings.Contains(pe.Message, tt.message) {
			t.Errorf("Parse(%q) = %s %q at %d; want %s %q at %d", tt.in, pe.Code, pe.Message, pe.Position, tt.code, tt.message, tt.pos)
		}
	}
}

// TestPosition checks that positions the planner reads from the AST map
// back through the rewrites to the client's text.
func TestPosition(t *testing.T) {
	q := `SELECT 1; SELECT "Ünï", a::int, zz FROM t`
	sts, err := Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	st := sts[1]
	fields := st.AST.(*ast.SelectStmt).Fields.Fields
	last := fields[len(fields)-1].Expr
	want := strings.Index(q, "zz")
	if got := st.Position(last.OriginTextPosition()); got != len([]rune(q[:want]))+1 {
		t.Errorf("Position of zz = %d, want %d (TiDB offset %d in %q)", got, len([]rune(q[:want]))+1, last.OriginTextPosition(), st.SQL)
	}
}

func TestConcurrentParse(t *testing.T) {
	queries := []string{
		`SELECT a, b FROM t WHERE a = $1 AND b > $2::int ORDER BY a LIMIT 5`,
		`INSERT INTO t VALUES ($1, 'x') ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b`,
		`CREATE TABLE x (a bigint, b text, PRIMARY KEY (a)) WITH (shards = 2)`,
	}
	want := make([]string, len(queries))
	for i, q := range queries {
		want[i] = restore(t, parseOneOK(t, q).AST)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				k := (g + i) % len(queries)
				sts, err := Parse(queries[k])
				if err != nil {
					t.Error(err)
					return
				}
				if got := restore(t, sts[0].AST); got != want[k] {
					t.Errorf("concurrent parse of %q: %s", queries[k], got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestLimits covers the statements that once crashed or wedged the process:
// nesting past MaxExprDepth fails with PostgreSQL's 54001 before any tree is
// built, long chains of AND/OR are fine, long numeric literals reach the
// planner as text, and a negative LIMIT or OFFSET has its own SQLSTATE.
func TestLimits(t *testing.T) {
	deep := func(open, leaf, close string, n int) string {
		return "SELECT " + strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
	}
	for _, c := range []struct {
		name, sql, code string
	}{
		{"600,000-term sum", "SELECT 1" + strings.Repeat("+1", 600_000), pgerr.StatementTooComplex.String()},
		{"1 MB of parentheses", deep("(", "1", ")", 500_000), pgerr.StatementTooComplex.String()},
		{"deep CASE", deep("CASE WHEN true THEN ", "1", " END", MaxExprDepth+1), pgerr.StatementTooComplex.String()},
		{"deep NOT", "SELECT " + strings.Repeat("NOT ", MaxExprDepth+1) + "true", pgerr.StatementTooComplex.String()},
		{"deep function calls", deep("abs(", "1", ")", MaxExprDepth+1), pgerr.StatementTooComplex.String()},
		{"4,000-term sum", "SELECT 1" + strings.Repeat("+1", 4000), ""},
		{"30,000 ORs", "SELECT 1 WHERE " + strings.Repeat("1 = 1 OR ", 30_000) + "true", ""},
		{"100,000 ANDs", "SELECT 1 WHERE " + strings.Repeat("true AND ", 100_000) + "true", ""},
		{"82-digit literal", "SELECT " + strings.Repeat("1234567890", 8) + "12", ""},
		{"negative LIMIT", "SELECT 1 LIMIT -1", pgerr.InvalidRowCountInLimitClause.String()},
		{"negative OFFSET", "SELECT 1 OFFSET -1", pgerr.InvalidRowCountInResultOffsetClause.String()},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.sql)
			if got := pgerr.CodeOf(err).String(); c.code == "" && err != nil || c.code != "" && got != c.code {
				t.Fatalf("got %v (%s), want %q", err, got, c.code)
			}
		})
	}
}

func TestSequenceStatements(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	cases := []struct {
		sql  string
		want SequenceStatement
		err  string
	}{
		{sql: `CREATE SEQUENCE s`, want: SequenceStatement{Kind: "create", Names: []string{"s"}}},
		{sql: `CREATE SEQUENCE IF NOT EXISTS public.s AS integer INCREMENT BY -2 MINVALUE -10 NO MAXVALUE START WITH 5 CACHE 20 CYCLE OWNED BY t.id`,
			want: SequenceStatement{Kind: "create", IfNotExists: true, Names: []string{"public.s"}, Qualified: true, Options: SequenceOptions{
				Type: "integer", Increment: i64(-2), Min: i64(-10), NoMax: true, Start: i64(5), Cache: i64(20), Cycle: boolp(true), OwnedBy: "t.id"}}},
		{sql: `CREATE SEQUENCE app.s`, want: SequenceStatement{Kind: "create", Names: []string{"app.s"}, Qualified: true}},
		{sql: `CREATE SEQUENCE s BIT_REVERSED`, want: SequenceStatement{Kind: "create", Names: []string{"s"}, Options: SequenceOptions{BitReversed: true}}},
		{sql: `ALTER SEQUENCE IF EXISTS s RESTART WITH 7 NO CYCLE`, want: SequenceStatement{Kind: "alter", IfExists: true, Names: []string{"s"}, Options: SequenceOptions{Restart: i64(7), Cycle: boolp(false)}}},
		{sql: `ALTER SEQUENCE s RESTART`, want: SequenceStatement{Kind: "alter", Names: []string{"s"}, Options: SequenceOptions{RestartStart: true}}},
		{sql: `ALTER SEQUENCE s RENAME TO t`, want: SequenceStatement{Kind: "alter", Names: []string{"s"}, RenameTo: "t"}},
		{sql: `ALTER SEQUENCE s SET SCHEMA "App"`, want: SequenceStatement{Kind: "alter", Names: []string{"s"}, RenameTo: "App", SetSchema: true}},
		{sql: `ALTER SEQUENCE s SET SCHEMA a b`, err: "42601"},
		{sql: `DROP SEQUENCE IF EXISTS a, b CASCADE`, want: SequenceStatement{Kind: "drop", IfExists: true, Names: []string{"a", "b"}, Cascade: true}},
		{sql: `CREATE SEQUENCE s START 1 START 2`, err: "42601"},
		{sql: `CREATE SEQUENCE s AS text`, err: "22023"},
		{sql: `CREATE SEQUENCE s RESTART 1`, err: "42601"},
		{sql: `CREATE TEMP SEQUENCE s`, want: SequenceStatement{Kind: "create", Names: []string{"s"}, Temp: true}},
		{sql: `CREATE SEQUENCE pg_temp.s`, want: SequenceStatement{Kind: "create", Names: []string{"s"}, Temp: true}},
		{sql: `CREATE UNLOGGED SEQUENCE s`, err: "0A000"},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			stmts, err := Parse(c.sql)
			if c.err != "" {
				if pgerr.CodeOf(err).String() != c.err {
					t.Fatalf("err = %v (%s), want %s", err, pgerr.CodeOf(err), c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := *stmts[0].Sequence
			got.Pos = 0
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
	o, err := ParseSequenceOptions("START WITH 100 INCREMENT 5")
	if err != nil || *o.Start != 100 || *o.Increment != 5 {
		t.Fatalf("identity options: %+v %v", o, err)
	}
}

func boolp(b bool) *bool { return &b }

func TestAlterTableStatements(t *testing.T) {
	cases := []struct {
		sql   string
		kinds []AlterKind
		err   string
	}{
		{sql: `ALTER TABLE t ADD COLUMN c int DEFAULT 5 NOT NULL`, kinds: []AlterKind{AlterAddColumn}},
		{sql: `ALTER TABLE IF EXISTS ONLY public.t ADD IF NOT EXISTS c text, DROP COLUMN IF EXISTS d CASCADE`, kinds: []AlterKind{AlterAddColumn, AlterDropColumn}},
		{sql: `ALTER TABLE t RENAME COLUMN a TO b`, kinds: []AlterKind{AlterRenameColumn}},
		{sql: `ALTER TABLE t RENAME a TO b`, kinds: []AlterKind{AlterRenameColumn}},
		{sql: `ALTER TABLE t RENAME TO u`, kinds: []AlterKind{AlterRenameTable}},
		{sql: `ALTER TABLE t ALTER COLUMN a SET DEFAULT now(), ALTER b DROP DEFAULT, ALTER a SET NOT NULL, ALTER b DROP NOT NULL`,
			kinds: []AlterKind{AlterSetDefault, AlterDropDefault, AlterSetNotNull, AlterDropNotNull}},
		{sql: `ALTER TABLE t ALTER COLUMN a TYPE bigint, ALTER b SET DATA TYPE varchar(10) USING b::varchar(10)`, kinds: []AlterKind{AlterColumnType, AlterColumnType}},
		{sql: `ALTER TABLE t SET (ttl = '30 days', ttl_column = ts)`, kinds: []AlterKind{AlterSetOptions}},
		{sql: `ALTER TABLE t RESET (ttl, ttl_column)`, kinds: []AlterKind{AlterResetOptions}},
		{sql: `ALTER INDEX IF EXISTS i RENAME TO j`, kinds: []AlterKind{AlterRenameIndex}},
		{sql: `ALTER TABLE t RENAME TO u, ADD c int`, err: "42601"},
		{sql: `ALTER TABLE t ALTER a SET STATISTICS 5`, err: "0A000"},
		{sql: `ALTER TABLE t ADD COLUMN`, err: "42601"},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			stmts, err := Parse(c.sql)
			if c.err != "" {
				if pgerr.CodeOf(err).String() != c.err {
					t.Fatalf("err = %v (%s), want %s", err, pgerr.CodeOf(err), c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []AlterKind
			for _, a := range stmts[0].Alter.Actions {
				got = append(got, a.Kind)
			}
			if !reflect.DeepEqual(got, c.kinds) {
				t.Fatalf("kinds %v, want %v", got, c.kinds)
			}
		})
	}
	st, _ := Parse(`ALTER TABLE t ADD COLUMN c int DEFAULT 5 NOT NULL, ALTER d SET DEFAULT 'x' || 'y'`)
	a := st[0].Alter.Actions
	if a[0].Extras == nil || a[0].Extras.Default != "5" || a[1].Default != "'x' || 'y'" {
		t.Fatalf("defaults: %+v %+v", a[0].Extras, a[1])
	}
}

func TestAlterPrimaryKey(t *testing.T) {
	for sql, want := range map[string][]KeyPart{
		`ALTER TABLE t ADD PRIMARY KEY (a, b DESC)`:                        {{Column: "a"}, {Column: "b", Desc: true}},
		`ALTER TABLE t ADD CONSTRAINT t_pk PRIMARY KEY (a)`:                {{Column: "a"}},
		`ALTER TABLE t ALTER PRIMARY KEY USING COLUMNS (b)`:                {{Column: "b"}},
		`ALTER TABLE t DROP CONSTRAINT t_pkey, ADD PRIMARY KEY (b ASC, c)`: {{Column: "b"}, {Column: "c"}},
	} {
		stmts, err := Parse(sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		a := stmts[0].Alter.Actions[0]
		if a.Kind != AlterPrimaryKey || !reflect.DeepEqual(a.Key, want) {
			t.Errorf("%s: %+v", sql, a)
		}
	}
	// Other constraints stay with TiDB's grammar.
	stmts, err := Parse(`ALTER TABLE t ADD CONSTRAINT u UNIQUE (a)`)
	if err == nil && stmts[0].Alter != nil {
		t.Errorf("UNIQUE parsed as a primary-key change")
	}
}

// TestCreateTableAs: CREATE TABLE ... AS and SELECT ... INTO parse as
// their query (what TiDB is given, restored), with the table to create
// in Statement.CreateAs and the temporary table's settings beside it.
func TestCreateTableAs(t *testing.T) {
	tests := []struct {
		sql   string
		query string // the AST, restored
		want  CreateTableAs
		temp  bool
		on    string // OnCommit
		with  map[string]string
	}{
		{sql: `CREATE TABLE c AS SELECT 1 AS a`, query: "select 1 as `a`", want: CreateTableAs{Name: "c", Pos: 14}},
		{sql: `create table if not exists public."C x" (p, "Q") as select a, b, c from t with no data`,
			query: "select `a`,`b`,`c` from `t`",
			want:  CreateTableAs{Schema: "public", Name: "C x", Pos: 28, Columns: []string{"p", "Q"}, IfNotExists: true, NoData: true}},
		{sql: `CREATE TABLE c AS SELECT 1 WITH DATA`, query: "select 1", want: CreateTableAs{Name: "c", Pos: 14}},
		{sql: `CREATE TABLE c AS VALUES (1, 'a'), (2, 'b')`, query: "values row(1,'a'), row(2,'b')", want: CreateTableAs{Name: "c", Pos: 14}},
		{sql: `CREATE TABLE c AS TABLE t`, query: "table `t`", want: CreateTableAs{Name: "c", Pos: 14}},
		{sql: `CREATE TABLE c AS (SELECT 1) UNION SELECT 2`, query: "(select 1) union select 2", want: CreateTableAs{Name: "c", Pos: 14}},
		{sql: `CREATE TABLE c AS WITH w AS (SELECT 1 AS a) SELECT a FROM w`, query: "with `w` as (select 1 as `a`) select `a` from `w`", want: CreateTableAs{Name: "c", Pos: 14}},
		{sql: `CREATE TABLE c USING heap WITH (shards = 4) AS SELECT 1`, query: "select 1", want: CreateTableAs{Name: "c", Pos: 14}, with: map[string]string{"shards": "4"}},
		{sql: `CREATE TEMP TABLE c AS SELECT 1`, query: "select 1", want: CreateTableAs{Name: "c", Pos: 19}, temp: true, on: "preserve rows"},
		{sql: `CREATE LOCAL TEMPORARY TABLE c ON COMMIT DROP AS SELECT 1`, query: "select 1", want: CreateTableAs{Name: "c", Pos: 30}, temp: true, on: "drop"},
		{sql: `CREATE TEMP TABLE c (x) WITHOUT OIDS ON COMMIT DELETE ROWS AS SELECT 1`, query: "select 1", want: CreateTableAs{Name: "c", Pos: 19, Columns: []string{"x"}}, temp: true, on: "delete rows"},
		{sql: `SELECT a, b INTO t2 FROM t WHERE a > 1`, query: "select `a`,`b` from `t` where `a`>1", want: CreateTableAs{Name: "t2", Pos: 18, SelectInto: true}},
		{sql: `SELECT 1 INTO TABLE s.t2`, query: "select 1", want: CreateTableAs{Schema: "s", Name: "t2", Pos: 21, SelectInto: true}},
		{sql: `SELECT 1 INTO TEMP t2`, query: "select 1", want: CreateTableAs{Name: "t2", Pos: 20, SelectInto: true}, temp: true, on: "preserve rows"},
		{sql: `SELECT 1 INTO GLOBAL TEMPORARY TABLE t2`, query: "select 1", want: CreateTableAs{Name: "t2", Pos: 38, SelectInto: true}, temp: true, on: "preserve rows"},
		{sql: `WITH w AS (SELECT 1 AS a) SELECT a INTO t2 FROM w`, query: "with `w` as (select 1 as `a`) select `a` from `w`", want: CreateTableAs{Name: "t2", Pos: 41, SelectInto: true}},
		{sql: `(SELECT 1 INTO t2) UNION SELECT 2 ORDER BY 1`, query: "(select 1) union select 2 order by 1", want: CreateTableAs{Name: "t2", Pos: 16, SelectInto: true}},
		{sql: `SELECT a INTO t2 FROM t FOR UPDATE`, query: "select `a` from `t` for update", want: CreateTableAs{Name: "t2", Pos: 15, SelectInto: true}},
	}
	for _, tc := range tests {
		st := parseOneOK(t, tc.sql)
		if st.CreateAs == nil {
			t.Errorf("%s: no CreateAs", tc.sql)
			continue
		}
		if !reflect.DeepEqual(*st.CreateAs, tc.want) {
			t.Errorf("%s: CreateAs %+v, want %+v", tc.sql, *st.CreateAs, tc.want)
		}
		if got := restore(t, st.AST); got != tc.query {
			t.Errorf("%s: query %q, want %q", tc.sql, got, tc.query)
		}
		if st.Temp != tc.temp || st.OnCommit != tc.on {
			t.Errorf("%s: Temp %v OnCommit %q", tc.sql, st.Temp, st.OnCommit)
		}
		if len(st.With) > 0 || len(tc.with) > 0 {
			if !reflect.DeepEqual(st.With, tc.with) {
				t.Errorf("%s: With %v, want %v", tc.sql, st.With, tc.with)
			}
		}
	}
	// Other statements with an AS or an INTO are not CREATE TABLE ... AS.
	for _, q := range []string{
		`CREATE TABLE t (a int GENERATED ALWAYS AS IDENTITY)`,
		`CREATE VIEW v AS SELECT 1`,
		`INSERT INTO t SELECT 1`,
		`WITH w AS (SELECT 1) INSERT INTO t SELECT * FROM w`,
		`SELECT 1 AS a`,
	} {
		if st := parseOneOK(t, q); st.CreateAs != nil {
			t.Errorf("%s: CreateAs %+v", q, *st.CreateAs)
		}
	}
	// An error in the query points into the client's text.
	q := `CREATE TABLE c (x) AS SELECT zz FROM t`
	st := parseOneOK(t, q)
	zz := st.AST.(*ast.SelectStmt).Fields.Fields[0].Expr
	if got, want := st.Position(zz.OriginTextPosition()), strings.Index(q, "zz")+1; got != want {
		t.Errorf("Position of zz = %d, want %d", got, want)
	}
	// So does a SELECT whose INTO clause was taken out.
	q = `SELECT 1, zz INTO c FROM t`
	st = parseOneOK(t, q)
	zz = st.AST.(*ast.SelectStmt).Fields.Fields[1].Expr
	if got, want := st.Position(zz.OriginTextPosition()), strings.Index(q, "zz")+1; got != want {
		t.Errorf("Position of zz = %d, want %d", got, want)
	}
}

// TestCreateTableAsErrors: PostgreSQL's errors for the forms it refuses,
// with their positions.
func TestCreateTableAsErrors(t *testing.T) {
	tests := []struct {
		in      string
		code    pgerr.Code
		pos     int
		message string // a substring
	}{
		{`CREATE TABLE c (a int) AS SELECT 1`, pgerr.SyntaxError, 24, `syntax error at or near "AS"`},
		{`CREATE TABLE c () AS SELECT 1`, pgerr.SyntaxError, 19, `syntax error at or near "AS"`},
		{`CREATE TABLE c AS DELETE FROM t`, pgerr.SyntaxError, 19, `"DELETE"`},
		{`CREATE TABLE c AS EXECUTE p`, pgerr.FeatureNotSupported, 19, `AS EXECUTE`},
		{`CREATE TABLE c ON COMMIT DROP AS SELECT 1`, pgerr.InvalidTableDefinition, 16, `ON COMMIT can only be used on temporary tables`},
		{`CREATE UNLOGGED TABLE c AS SELECT 1`, pgerr.FeatureNotSupported, 8, `UNLOGGED`},
		{`CREATE TABLE c USING gin AS SELECT 1`, pgerr.ObjectNotInPrerequisiteState, 0, `access method "gin" is not of type TABLE`},
		{`CREATE TABLE c USING nope AS SELECT 1`, pgerr.UndefinedObject, 0, `access method "nope" does not exist`},
		{`CREATE TABLE c TABLESPACE x AS SELECT 1`, pgerr.SyntaxError, 16, `"TABLESPACE"`},
		{`CREATE TABLE select AS SELECT 1`, pgerr.SyntaxError, 14, `"select"`},
		{`CREATE TABLE c AS SELECT 1 INTO d`, pgerr.SyntaxError, 33, `SELECT ... INTO is not allowed here`},
		{`SELECT 1 UNION SELECT 2 INTO d`, pgerr.SyntaxError, 30, `INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT`},
		{`SELECT * FROM (SELECT 1 INTO d) s`, pgerr.SyntaxError, 30, `SELECT ... INTO is not allowed here`},
		{`WITH w AS (SELECT 1 INTO d) SELECT 1`, pgerr.SyntaxError, 26, `SELECT ... INTO is not allowed here`},
		{`INSERT INTO t SELECT 1 INTO d`, pgerr.SyntaxError, 29, `SELECT ... INTO is not allowed here`},
		{`WITH w AS (SELECT 1) INSERT INTO t SELECT 1 INTO d`, pgerr.SyntaxError, 50, `SELECT ... INTO is not allowed here`},
		{`SELECT 1 FROM t INTO d`, pgerr.SyntaxError, 17, `syntax error at or near "INTO"`},
		{`SELECT 1 INTO d INTO e`, pgerr.SyntaxError, 17, `syntax error at or near "INTO"`},
		{`SELECT 1 INTO FROM t`, pgerr.SyntaxError, 15, `"FROM"`},
		{`SELECT 1 INTO UNLOGGED d`, pgerr.FeatureNotSupported, 15, `UNLOGGED`},
		{`CREATE VIEW v AS SELECT 1 INTO d`, pgerr.FeatureNotSupported, 0, `views must not contain SELECT INTO`},
		{`COPY (SELECT 1 INTO d) TO STDOUT`, pgerr.FeatureNotSupported, 0, `COPY (SELECT INTO) is not supported`},
		{`DECLARE c CURSOR FOR SELECT 1 INTO d`, pgerr.SyntaxError, 36, `SELECT ... INTO is not allowed here`},
	}
	for _, tt := range tests {
		err := parseOrOptionErr(tt.in)
		pe := pgerr.As(err)
		if pe == nil {
			t.Errorf("Parse(%q) = %v, want error %s", tt.in, err, tt.code)
			continue
		}
		if pe.Code != tt.code || tt.pos != 0 && pe.Position != tt.pos || !strings.Contains(pe.Message, tt.message) {
			t.Errorf("Parse(%q) = %s %q at %d; want %s %q at %d", tt.in, pe.Code, pe.Message, pe.Position, tt.code, tt.message, tt.pos)
		}
	}
}

// parseOrOptionErr is Parse's error, or else the EXPLAIN option error the
// binder raises once the explained statement is bound (ExplainOptions.Err).
func parseOrOptionErr(in string) error {
	sts, err := Parse(in)
	if err == nil && len(sts) == 1 && sts[0].Explain != nil {
		return sts[0].Explain.Err
	}
	return err
}
