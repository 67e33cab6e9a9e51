package parser

import (
	"reflect"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestConstraintSyntax checks what the rewriter lifts out of constraint
// syntax TiDB's grammar lacks, and the TiDB statement that remains.
func TestConstraintSyntax(t *testing.T) {
	tests := []struct {
		sql     string
		restore string
		want    ConstraintSyntax
	}{
		{
			sql:     `CREATE TABLE c (a INT CONSTRAINT x NOT NULL CONSTRAINT y UNIQUE CONSTRAINT z REFERENCES p ON DELETE SET DEFAULT)`,
			restore: "create table `c` (`a` int not null unique key references `p` on delete set default)",
			want:    ConstraintSyntax{ColumnNames: map[string]map[string]string{"a": {"not": "x", "unique": "y", "references": "z"}}},
		},
		{
			sql:     `CREATE TABLE c (a INT UNIQUE NULLS NOT DISTINCT, b INT UNIQUE NULLS DISTINCT)`,
			restore: "create table `c` (`a` int unique key,`b` int unique key)",
			want:    ConstraintSyntax{ColumnNullsNotDistinct: map[string]bool{"a": true}},
		},
		{
			sql:     `CREATE TABLE c (a INT, b INT, CHECK (a > 0), UNIQUE (a), CONSTRAINT u UNIQUE NULLS NOT DISTINCT (a, b))`,
			restore: "create table `c` (`a` int,`b` int,check(`a`>0) enforced,unique(`a`),unique `u`(`a`, `b`))",
			want:    ConstraintSyntax{TableNullsNotDistinct: map[int]bool{2: true}},
		},
		{
			sql:     `CREATE TABLE c (a INT REFERENCES p DEFERRABLE INITIALLY IMMEDIATE, b INT REFERENCES p NOT DEFERRABLE, c INT REFERENCES p INITIALLY DEFERRED)`,
			restore: "create table `c` (`a` int references `p`,`b` int references `p`,`c` int references `p`)",
			want:    ConstraintSyntax{ColumnDeferral: map[string]string{"a": Deferrable, "c": InitiallyDeferred}},
		},
		{
			sql:     `CREATE TABLE c (a INT, UNIQUE (a) DEFERRABLE, FOREIGN KEY (a) REFERENCES p DEFERRABLE INITIALLY DEFERRED)`,
			restore: "create table `c` (`a` int,unique(`a`),constraint foreign key (`a`) references `p`)",
			want:    ConstraintSyntax{TableDeferral: map[int]string{0: Deferrable, 1: InitiallyDeferred}},
		},
		{
			sql:     `ALTER TABLE t ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES p DEFERRABLE INITIALLY DEFERRED NOT VALID`,
			restore: "alter table `t` add constraint `f` foreign key (`a`) references `p`",
			want:    ConstraintSyntax{Specs: []AlterSpecSyntax{{NotValid: true, Deferral: InitiallyDeferred}}},
		},
		{
			sql:     `CREATE UNIQUE INDEX u ON t (a) NULLS NOT DISTINCT`,
			restore: "create unique index `u` on `t` (`a`)",
			want:    ConstraintSyntax{IndexNullsNotDistinct: true},
		},
		{
			sql:     `ALTER TABLE ONLY public.t ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES p (id) NOT VALID`,
			restore: "alter table `public`.`t` add constraint `f` foreign key (`a`) references `p`(`id`)",
			want:    ConstraintSyntax{Specs: []AlterSpecSyntax{{NotValid: true}}, TableOnly: true},
		},
		{
			sql:     `ALTER TABLE t ADD UNIQUE NULLS NOT DISTINCT (a)`,
			restore: "alter table `t` add unique(`a`)",
			want:    ConstraintSyntax{Specs: []AlterSpecSyntax{{NullsNotDistinct: true}}},
		},
		{
			sql:     `ALTER TABLE t DROP CONSTRAINT IF EXISTS x CASCADE`,
			restore: "alter table `t` drop check `x`",
			want:    ConstraintSyntax{Specs: []AlterSpecSyntax{{IfExists: true, Cascade: true}}},
		},
		{
			sql:     `ALTER TABLE t DROP CONSTRAINT x RESTRICT`,
			restore: "alter table `t` drop check `x`",
			want:    ConstraintSyntax{Specs: []AlterSpecSyntax{{}}},
		},
		{
			sql:     `ALTER TABLE t VALIDATE CONSTRAINT x`,
			restore: "alter table `t` alter check `x` enforced",
			want:    ConstraintSyntax{Specs: []AlterSpecSyntax{{Validate: true}}},
		},
	}
	for _, tc := range tests {
		st := parseOneOK(t, tc.sql)
		if got := restore(t, st.AST); got != tc.restore {
			t.Errorf("%s:\n got  %s\n want %s", tc.sql, got, tc.restore)
		}
		got := ConstraintSyntax{}
		if st.Constraints != nil {
			got = *st.Constraints
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: lifted %+v, want %+v", tc.sql, got, tc.want)
		}
	}
}

// TestConstraintSyntaxRefused: what zproxy refuses, with PostgreSQL's
// codes.
func TestConstraintSyntaxRefused(t *testing.T) {
	for sql, code := range map[string]string{
		`CREATE TABLE c (a INT, b INT, FOREIGN KEY (a, b) REFERENCES p ON DELETE SET NULL (a))`: pgerr.FeatureNotSupported.String(),
		`CREATE TABLE c (a INT, EXCLUDE USING gist (a WITH =) INCLUDE (a))`:                     pgerr.FeatureNotSupported.String(),
		`CREATE TABLE c (a INT, EXCLUDE USING gist (a gist_int4_ops WITH =))`:                   pgerr.FeatureNotSupported.String(),
	} {
		if _, err := Parse(sql); pgerr.CodeOf(err).String() != code {
			t.Errorf("%s: %v, want %s", sql, err, code)
		}
	}
}

func TestOnConflictOnConstraint(t *testing.T) {
	st := parseOneOK(t, `INSERT INTO t VALUES (1) ON CONFLICT ON CONSTRAINT t_a_key DO UPDATE SET a = 2`)
	if st.OnConflict == nil || st.OnConflict.Constraint != "t_a_key" || st.OnConflict.DoNothing {
		t.Fatalf("ON CONFLICT ON CONSTRAINT: %+v", st.OnConflict)
	}
	st = parseOneOK(t, `INSERT INTO t VALUES (1) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING`)
	if st.OnConflict == nil || st.OnConflict.Constraint != "t_pkey" || !st.OnConflict.DoNothing {
		t.Fatalf("ON CONFLICT ON CONSTRAINT ... DO NOTHING: %+v", st.OnConflict)
	}
}

// TestConstraintActionsGoToTiDB checks which ALTER TABLE statements the
// front end's ALTER TABLE parser takes (ADD COLUMN, its column
// constraints included) and which it leaves to TiDB's grammar (actions on
// table constraints).
func TestConstraintActionsGoToTiDB(t *testing.T) {
	tests := []struct {
		sql  string
		tidb bool
	}{
		{`ALTER TABLE c ADD COLUMN pid INT REFERENCES p`, false},
		{`ALTER TABLE c ADD u INT CONSTRAINT uu UNIQUE, ADD COLUMN k INT CHECK (k > 0)`, false},
		{`ALTER TABLE c ADD COLUMN x INT, ADD CONSTRAINT x_pos CHECK (x > 0)`, true},
		{`ALTER TABLE c ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES p`, true},
		{`ALTER TABLE c ADD UNIQUE (a)`, true},
		{`ALTER TABLE c ADD FOREIGN KEY (a) REFERENCES p`, true},
		{`ALTER TABLE c DROP CONSTRAINT x`, true},
		{`ALTER TABLE c VALIDATE CONSTRAINT x`, true},
		{`ALTER TABLE c RENAME CONSTRAINT x TO y`, true},
		{`ALTER TABLE c DROP COLUMN x`, false},
	}
	for _, tc := range tests {
		stmts, err := Parse(tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if got := stmts[0].Alter == nil; got != tc.tidb {
			t.Errorf("%s: left to TiDB = %v, want %v", tc.sql, got, tc.tidb)
		}
	}
}

// TestRenameColumnRefs checks which words of a check's text name the
// renamed column.
func TestRenameColumnRefs(t *testing.T) {
	tests := []struct{ sql, want string }{
		{`a > 0`, `"b" > 0`},
		{`("a" >= 0) AND (a < c)`, `("b" >= 0) AND ("b" < c)`},
		{`a(a) > a::a`, `a("b") > "b"::a`},
		{`t.a > 0 AND (x).a > 0 AND CAST(a AS a) > 0`, `t."b" > 0 AND (x).a > 0 AND CAST("b" AS a) > 0`},
		{`a <> 'a' AND A > a '1'`, `"b" <> 'a' AND "b" > a '1'`},
		{`"A" > 0`, `"A" > 0`},
	}
	for _, tc := range tests {
		got, err := RenameColumnRefs(tc.sql, "a", "b")
		if err != nil || got != tc.want {
			t.Errorf("RenameColumnRefs(%q) = %q, %v; want %q", tc.sql, got, err, tc.want)
		}
	}
}
