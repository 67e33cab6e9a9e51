package session_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/wire"
)

// copyIn runs COPY ... FROM STDIN through the session with rows already
// decoded, as wire hands them over, in batches of batch rows.
func copyIn(ctx context.Context, sess wire.Session, sql string, rows [][]sqltypes.Value, batch int) (string, error) {
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		return "", err
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		return "", err
	}
	defer res.Close()
	in, ok := res.(wire.CopyIn)
	if !ok {
		return "", fmt.Errorf("%T is no wire.CopyIn", res)
	}
	for from := 0; from < len(rows); from += batch {
		if err := in.Rows(ctx, rows[from:min(from+batch, len(rows))]); err != nil {
			return "", err
		}
	}
	if err := in.Finish(ctx); err != nil {
		return "", err
	}
	return res.Tag(), nil
}

// TestCopyFromBackends: COPY FROM's rows on every backend, with defaults
// for the columns not copied, index entries, and all-or-nothing when a row
// is bad, whether the bad row is found as it is formed, against the store,
// or against an earlier row of the same COPY.
func TestCopyFromBackends(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			mustExec(t, sess, "CREATE TABLE cp (id int PRIMARY KEY, name text NOT NULL, score float8, tag text)")
			mustExec(t, sess, "CREATE INDEX cp_by_name ON cp (name) INCLUDE (score)")
			mustExec(t, sess, "INSERT INTO cp VALUES (1000, 'existing', 0, NULL)")
			row := func(id int64, name any) []sqltypes.Value {
				v := sqltypes.Null
				if s, ok := name.(string); ok {
					v = sqltypes.NewText(s)
				}
				return []sqltypes.Value{sqltypes.NewInt(id), v, sqltypes.NewFloat(float64(id) / 2)}
			}
			var rows [][]sqltypes.Value
			for i := int64(1); i <= 250; i++ {
				rows = append(rows, row(i, fmt.Sprintf("n%03d", i)))
			}
			tag, err := copyIn(ctx, sess, "COPY cp (id, name, score) FROM STDIN", rows, 64)
			if err != nil || tag != "COPY 250" {
				t.Fatalf("COPY: %q, %v", tag, err)
			}
			if got := mustExec(t, sess, "SELECT count(*), sum(score), count(tag) FROM cp WHERE id < 1000"); got[0] != "250|15687.5|0" {
				t.Errorf("after COPY: %v", got)
			}
			// The index is maintained: an index-only read finds the rows.
			if got := mustExec(t, sess, "SELECT score FROM cp WHERE name = 'n123'"); len(got) != 1 || got[0] != "61.5" {
				t.Errorf("through the index: %v", got)
			}

			for _, tc := range []struct {
				name string
				rows [][]sqltypes.Value
				code string
				row  int64
			}{
				{"NULL in a NOT NULL column", [][]sqltypes.Value{row(2001, "a"), row(2002, nil)}, pgerr.NotNullViolation.String(), 1},
				{"duplicate of a stored row", [][]sqltypes.Value{row(2001, "a"), row(2002, "b"), row(1000, "c")}, pgerr.UniqueViolation.String(), 2},
				{"duplicate within the COPY", [][]sqltypes.Value{row(2001, "a"), row(2002, "b"), row(2001, "c")}, pgerr.UniqueViolation.String(), 2},
			} {
				_, err := copyIn(ctx, sess, "COPY cp (id, name, score) FROM STDIN", tc.rows, 2)
				var re *wire.CopyRowError
				if !errors.As(err, &re) || pgerr.CodeOf(err).String() != tc.code || re.Row != tc.row {
					t.Errorf("%s: %v (%+v), want %s at row %d", tc.name, err, re, tc.code, tc.row)
				}
				if got := mustExec(t, sess, "SELECT count(*) FROM cp WHERE id > 2000"); got[0] != "0" {
					t.Errorf("%s: %s rows kept", tc.name, got[0])
				}
			}
			// A COPY abandoned before its end (the client failed it) writes
			// nothing either.
			stmts, err := sess.Parse(ctx, "COPY cp (id, name) FROM STDIN", nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := stmts[0].Execute(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.(wire.CopyIn).Rows(ctx, [][]sqltypes.Value{{sqltypes.NewInt(3000), sqltypes.NewText("x")}}); err != nil {
				t.Fatal(err)
			}
			res.Close()
			if got := mustExec(t, sess, "SELECT count(*) FROM cp WHERE id = 3000"); got[0] != "0" {
				t.Errorf("an abandoned COPY kept %s rows", got[0])
			}
			if got := mustExec(t, sess, "CHECK TABLE cp"); len(got) != 2 || got[0][len(got[0])-1] != 't' || got[1][len(got[1])-1] != 't' {
				t.Errorf("CHECK TABLE: %v", got)
			}
		})
	}
}

// TestCopyOptionErrors: PostgreSQL's checks of COPY's options, in its
// order, with its codes.
func TestCopyOptionErrors(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, "CREATE TABLE ct (a int PRIMARY KEY, b text)")
	mustExec(t, sess, "CREATE VIEW cv AS SELECT a FROM ct")
	for _, tc := range []struct{ sql, code string }{
		{"COPY ct TO STDOUT (FORMAT xml)", pgerr.InvalidParameterValue.String()},
		{"COPY ct TO STDOUT (FORMAT csv, FORMAT csv)", pgerr.SyntaxError.String()},
		{"COPY ct TO STDOUT (DELIMITER '||')", pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (FORMAT binary, DELIMITER ',')", pgerr.SyntaxError.String()},
		{"COPY ct TO STDOUT (FORMAT binary, NULL 'x')", pgerr.SyntaxError.String()},
		{"COPY ct TO STDOUT (FORMAT binary, HEADER)", pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (DELIMITER E'\\n')", pgerr.InvalidParameterValue.String()},
		{"COPY ct TO STDOUT (NULL E'a\\nb')", pgerr.InvalidParameterValue.String()},
		{"COPY ct TO STDOUT (DELIMITER 'a')", pgerr.InvalidParameterValue.String()},
		{`COPY ct TO STDOUT (QUOTE '"')`, pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (FORMAT csv, QUOTE 'ab')", pgerr.FeatureNotSupported.String()},
		{`COPY ct TO STDOUT (FORMAT csv, DELIMITER '"')`, pgerr.InvalidParameterValue.String()},
		{`COPY ct TO STDOUT (ESCAPE '\')`, pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (FORMAT csv, FORCE_QUOTE (a), FORCE_NOT_NULL (a))", pgerr.FeatureNotSupported.String()},
		{"COPY ct FROM STDIN (FORMAT csv, FORCE_QUOTE (a))", pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (FORCE_QUOTE *)", pgerr.FeatureNotSupported.String()},
		{"COPY ct FROM STDIN (FORMAT csv, FORCE_NOT_NULL (zz))", pgerr.UndefinedColumn.String()},
		{"COPY ct (a) FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b))", pgerr.InvalidColumnReference.String()},
		{"COPY ct TO STDOUT (DELIMITER ',', NULL 'a,b')", pgerr.FeatureNotSupported.String()},
		{`COPY ct TO STDOUT (FORMAT csv, NULL 'a"b')`, pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (HEADER match)", pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (HEADER maybe)", pgerr.SyntaxError.String()},
		{"COPY ct TO STDOUT (ENCODING 'nope')", pgerr.InvalidParameterValue.String()},
		{"COPY ct TO STDOUT (bogus 1)", pgerr.SyntaxError.String()},
		{"COPY ct (a, a) TO STDOUT", pgerr.DuplicateColumn.String()},
		{"COPY ct (zz) TO STDOUT", pgerr.UndefinedColumn.String()},
		{"COPY nosuch TO STDOUT", pgerr.UndefinedTable.String()},
		{"COPY cv TO STDOUT", pgerr.WrongObjectType.String()},
		{"COPY cv FROM STDIN", pgerr.WrongObjectType.String()},
		{"COPY ct FROM '/etc/passwd'", pgerr.FeatureNotSupported.String()},
		{"COPY ct TO PROGRAM 'cat'", pgerr.FeatureNotSupported.String()},
		{"COPY ct TO STDOUT (FORMAT csv, ESCAPE '')", pgerr.FeatureNotSupported.String()},
	} {
		stmts, err := sess.Parse(ctx, tc.sql, nil)
		if err == nil {
			var res wire.Result
			if res, err = stmts[0].Execute(ctx, nil); err == nil {
				res.Close()
			}
		}
		if got := pgerr.CodeOf(err).String(); got != tc.code {
			t.Errorf("%s: %v (%s), want %s", tc.sql, err, got, tc.code)
		}
	}
}

// TestCopyGeneratedColumns: COPY FROM computes generated columns as
// INSERT does, and refuses to copy into one, as PostgreSQL.
func TestCopyGeneratedColumns(t *testing.T) {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	_, sess := newSession(t, store)
	mustExec(t, sess, "CREATE TABLE cg (id int PRIMARY KEY, b text, lo text GENERATED ALWAYS AS (lower(b)) STORED)")
	rows := [][]sqltypes.Value{{sqltypes.NewInt(1), sqltypes.NewText("NINE")}, {sqltypes.NewInt(2), sqltypes.Null}}
	if tag, err := copyIn(ctx, sess, "COPY cg (id, b) FROM STDIN", rows, 1); err != nil || tag != "COPY 2" {
		t.Fatalf("COPY: %q, %v", tag, err)
	}
	if got := mustExec(t, sess, "SELECT id, lo FROM cg ORDER BY id"); strings.Join(got, " ") != "1|nine 2|NULL" {
		t.Errorf("after COPY: %v", got)
	}
	// Without a column list, every column but the generated ones.
	if tag, err := copyIn(ctx, sess, "COPY cg FROM STDIN", [][]sqltypes.Value{{sqltypes.NewInt(3), sqltypes.NewText("X")}}, 1); err != nil || tag != "COPY 1" {
		t.Fatalf("COPY without columns: %q, %v", tag, err)
	}
	if got := mustExec(t, sess, "SELECT lo FROM cg WHERE id = 3"); strings.Join(got, " ") != "x" {
		t.Errorf("after COPY without columns: %v", got)
	}
	_, err = copyIn(ctx, sess, "COPY cg (id, lo) FROM STDIN", nil, 1)
	if pgerr.CodeOf(err) != pgerr.InvalidColumnReference {
		t.Errorf("COPY into a generated column: %v, want 42P10", err)
	}
}

// TestCopyComputedTableOut: COPY of a table zproxy computes out is COPY
// (SELECT ...) TO, with its column list and options.
func TestCopyComputedTableOut(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	for _, tc := range []struct {
		sql  string
		want string // a row the output holds, its values joined by |
	}{
		{"COPY pg_am (amname, amtype) TO STDOUT", "btree|i"},
		{"COPY pg_catalog.pg_namespace (nspname) TO STDOUT (FORMAT csv, HEADER)", "information_schema"},
		{"COPY pg_language (lanname, lanpltrusted) TO STDOUT", "plpgsql|t"},
	} {
		rows, tag, _, err := copyOutRows(ctx, sess, tc.sql, false, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if !slices.Contains(rows, tc.want) || tag != fmt.Sprintf("COPY %d", len(rows)) {
			t.Errorf("%s: %q (%s), want %q among them", tc.sql, rows, tag, tc.want)
		}
	}
}
