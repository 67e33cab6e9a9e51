package session_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// copyOutRows runs COPY ... TO STDOUT through the session and returns its
// rows (each value's text, joined by |) and tag: pushed by the result
// where it can push them (wire.CopyPusher) when push is set, else pulled
// through Next, as before the push path. pushed says which path served.
// fn, when set, sees each row's number first and may fail the COPY.
func copyOutRows(ctx context.Context, sess wire.Session, sql string, push bool, fn func(n int) error) (rows []string, tag string, pushed bool, err error) {
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		return nil, "", false, err
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		return nil, "", false, err
	}
	defer res.Close()
	take := func(row []sqltypes.Value) error {
		if fn != nil {
			if err := fn(len(rows)); err != nil {
				return err
			}
		}
		parts := make([]string, len(row))
		for i, v := range row {
			if v.IsNull() {
				parts[i] = "NULL"
			} else {
				parts[i] = string(sqltypes.AppendText(nil, v))
			}
		}
		rows = append(rows, strings.Join(parts, "|"))
		return nil
	}
	if p, ok := res.(wire.CopyPusher); ok && push {
		if pushed, err = p.PushRows(ctx, take); err != nil {
			return rows, "", pushed, err
		}
	}
	for !pushed {
		row, ok, err := res.Next(ctx)
		if err != nil {
			return rows, "", false, err
		}
		if !ok {
			break
		}
		if err := take(row); err != nil {
			return rows, "", false, err
		}
	}
	return rows, res.Tag(), pushed, nil
}

// TestCopyToPush: COPY of a bare table scan pushes its rows from the scan
// (each stored row decoded into one reused row), and they are the rows,
// in the order, and the tag the pulled path gives, over a table whose
// columns were dropped, renamed and added after rows were written, with
// rows of both stored value formats (a row whose attributes start past 64
// KiB is written in format 1); other plans are pulled as before.
func TestCopyToPush(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, "CREATE TABLE cpt (id int PRIMARY KEY, gone text, a text, f float8, ts timestamp)")
	mustExec(t, sess, "INSERT INTO cpt SELECT g, 'x' || g, 'a' || g, g / 4.0, '2026-01-01'::timestamp + g * interval '1 hour' FROM generate_series(1, 1500) g")
	mustExec(t, sess, "INSERT INTO cpt VALUES (2000, repeat('y', 70000), 'big', NULL, NULL)")
	mustExec(t, sess, "ALTER TABLE cpt DROP COLUMN gone")
	mustExec(t, sess, "ALTER TABLE cpt RENAME COLUMN a TO b")
	mustExec(t, sess, "ALTER TABLE cpt ADD COLUMN n int8 DEFAULT 7")
	mustExec(t, sess, "INSERT INTO cpt VALUES (3000, repeat('z', 70000), -0.0, 'infinity', -9223372036854775808), (3001, E'tab\\there', 'NaN', NULL, NULL)")
	for _, tc := range []struct {
		sql    string
		pushed bool
		rows   int
	}{
		{"COPY cpt TO STDOUT", true, 1503},
		{"COPY cpt (n, b, id) TO STDOUT", true, 1503},
		{"COPY cpt TO STDOUT (FORMAT csv, HEADER)", true, 1503},
		{"COPY (SELECT ts, b FROM cpt) TO STDOUT", true, 1503},
		{"COPY (SELECT * FROM cpt WHERE f > 100) TO STDOUT", true, 1101}, // NaN sorts above every number
		{"COPY (SELECT id + 1, b FROM cpt) TO STDOUT", false, 1503},
		{"COPY (SELECT * FROM cpt ORDER BY b) TO STDOUT", false, 1503},
		{"COPY (SELECT * FROM cpt LIMIT 10) TO STDOUT", false, 10},
		{"COPY (SELECT * FROM cpt WHERE id = 5) TO STDOUT", false, 1},
		{"COPY (SELECT count(*) FROM cpt) TO STDOUT", false, 1},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			want, wantTag, _, err := copyOutRows(ctx, sess, tc.sql, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, tag, pushed, err := copyOutRows(ctx, sess, tc.sql, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pushed != tc.pushed {
				t.Errorf("pushed %v, want %v", pushed, tc.pushed)
			}
			if len(want) != tc.rows || wantTag != fmt.Sprintf("COPY %d", tc.rows) {
				t.Errorf("pulled %d rows, tag %q; want %d", len(want), wantTag, tc.rows)
			}
			if tag != wantTag || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("pushed %d rows, tag %q; pulled %d rows, tag %q", len(got), tag, len(want), wantTag)
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("row %d: pushed %.80q, pulled %.80q", i, got[i], want[i])
					}
				}
			}
		})
	}
}

// TestCopyToPushStops: a pushed COPY stops at the consumer's error (the
// connection's, returned as it is), at a cancel (within a thousand rows
// or so, as the scan looks at its context), and, inside a transaction
// block, the block sees its own writes.
func TestCopyToPushStops(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, "CREATE TABLE cps (id int PRIMARY KEY, v text)")
	mustExec(t, sess, "INSERT INTO cps SELECT g, 'v' || g FROM generate_series(1, 5000) g")

	lost := errors.New("connection lost")
	rows, _, pushed, err := copyOutRows(ctx, sess, "COPY cps TO STDOUT", true, func(n int) error {
		if n == 10 {
			return lost
		}
		return nil
	})
	if !pushed || err != lost || len(rows) != 10 {
		t.Errorf("consumer's error: pushed %v, %d rows, %v; want pushed, 10 rows, %v", pushed, len(rows), err, lost)
	}

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rows, _, pushed, err = copyOutRows(cctx, sess, "COPY cps TO STDOUT", true, func(n int) error {
		if n == 100 {
			cancel()
		}
		return nil
	})
	if !pushed || !errors.Is(err, context.Canceled) || len(rows) >= 2500 {
		t.Errorf("cancel: pushed %v, %d rows, %v; want pushed, under 2500 rows, context canceled", pushed, len(rows), err)
	}

	mustExec(t, sess, "BEGIN")
	mustExec(t, sess, "DELETE FROM cps WHERE id > 10")
	mustExec(t, sess, "INSERT INTO cps VALUES (9999, 'mine')")
	rows, tag, pushed, err := copyOutRows(ctx, sess, "COPY cps TO STDOUT", true, nil)
	if err != nil || !pushed || tag != "COPY 11" || rows[len(rows)-1] != "9999|mine" {
		t.Errorf("in a block: pushed %v, %q, %v, last %q", pushed, tag, err, rows[len(rows)-1:])
	}
	mustExec(t, sess, "ROLLBACK")
	if got := mustExec(t, sess, "SELECT count(*) FROM cps"); got[0] != "5000" {
		t.Errorf("after ROLLBACK: %v", got)
	}
}

// TestCopyToPushPrivileges: the pushed COPY is checked as before: a table
// needs SELECT on the columns it copies.
func TestCopyToPushPrivileges(t *testing.T) {
	ctx := context.Background()
	eng, admin := adminEngine(t, true)
	ok := pgerr.SuccessfulCompletion
	expectSQL(t, admin, "CREATE TABLE cpp (id int PRIMARY KEY, secret text)", ok, "")
	expectSQL(t, admin, "INSERT INTO cpp VALUES (1, 's1'), (2, 's2')", ok, "")
	expectSQL(t, admin, "CREATE ROLE bob LOGIN", ok, "")
	expectSQL(t, admin, "GRANT SELECT (id) ON cpp TO bob", ok, "")
	bob := login(t, eng, "bob")
	for _, tc := range []struct {
		sql  string
		code pgerr.Code
		rows string
	}{
		{"COPY cpp TO STDOUT", pgerr.InsufficientPrivilege, ""},
		{"COPY cpp (secret) TO STDOUT", pgerr.InsufficientPrivilege, ""},
		{"COPY (SELECT secret FROM cpp) TO STDOUT", pgerr.InsufficientPrivilege, ""},
		{"COPY cpp (id) TO STDOUT", ok, "1,2"},
		{"COPY (SELECT id FROM cpp) TO STDOUT", ok, "1,2"},
	} {
		rows, _, pushed, err := copyOutRows(ctx, bob, tc.sql, true, nil)
		if code := pgerr.CodeOf(err); code != tc.code || strings.Join(rows, ",") != tc.rows || pushed != (tc.code == ok) {
			t.Errorf("%s: %v (%s), rows %q, pushed %v; want %s, %q", tc.sql, err, code, rows, pushed, tc.code, tc.rows)
		}
	}
}
