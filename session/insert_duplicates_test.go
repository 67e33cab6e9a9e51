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

// TestInsertReportsFirstDuplicate checks which duplicate a multi-row
// INSERT reports when its rows collide with stored rows and with each
// other, on the primary key and on a unique constraint: PostgreSQL inserts
// row by row and fails at the first row that collides (its primary key
// checked before its unique constraint), so the message and detail name
// that row's key, whichever kind of duplicate comes later. Each statement
// carries enough new rows that the store checks them in one batch (past
// kv/pebble's condIterAfter). The expected errors are PostgreSQL 15's.
func TestInsertReportsFirstDuplicate(t *testing.T) {
	cases := []struct {
		name         string
		rows         string // the colliding rows, between the new ones
		constraint   string
		detail       string
		rowsAtTheEnd bool // the colliding rows come after the new ones
	}{
		{"stored key at the end", "(7, 'y', 1)", "bw_pkey", "Key (id)=(7) already exists.", true},
		{"repeated key at the end", "(115, 'y', 1)", "bw_pkey", "Key (id)=(115) already exists.", true},
		{"stored unique value at the end", "(200, 'u3', 1)", "bw_u_key", "Key (u)=(u3) already exists.", true},
		{"repeated unique value at the end", "(201, 'x120', 1)", "bw_u_key", "Key (u)=(x120) already exists.", true},
		{"stored key before a repeated key", "(300, 'a', 1), (5, 'b', 1), (301, 'c', 1), (300, 'd', 1)", "bw_pkey", "Key (id)=(5) already exists.", false},
		{"repeated key before a stored key", "(300, 'a', 1), (300, 'b', 1), (301, 'c', 1), (7, 'd', 1)", "bw_pkey", "Key (id)=(300) already exists.", false},
		{"stored unique value before a repeated one", "(300, 'a', 1), (301, 'u4', 1), (302, 'c', 1), (303, 'a', 1)", "bw_u_key", "Key (u)=(u4) already exists.", false},
		{"repeated unique value before a stored one", "(300, 'a', 1), (301, 'a', 1), (302, 'c', 1), (303, 'u4', 1)", "bw_u_key", "Key (u)=(a) already exists.", false},
		{"stored unique value before a repeated key", "(300, 'a', 1), (301, 'u9', 1), (300, 'c', 1)", "bw_u_key", "Key (u)=(u9) already exists.", false},
		{"repeated key before a stored unique value", "(300, 'a', 1), (300, 'b', 1), (301, 'u9', 1)", "bw_pkey", "Key (id)=(300) already exists.", false},
	}
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			t.Cleanup(func() { store.Close() })
			_, sess := newSession(t, store)
			mustExec(t, sess, `CREATE TABLE bw (id INT PRIMARY KEY, u TEXT UNIQUE, v INT)`)
			mustExec(t, sess, `CREATE INDEX bw_v ON bw (v)`)
			mustExec(t, sess, `INSERT INTO bw SELECT g, 'u' || g, g % 7 FROM generate_series(1, 20) g`)
			var fresh []string
			for g := 100; g <= 130; g++ {
				fresh = append(fresh, fmt.Sprintf("(%d, 'x%d', 1)", g, g))
			}
			for _, c := range cases {
				rows := c.rows + ", " + strings.Join(fresh, ", ")
				if c.rowsAtTheEnd {
					rows = strings.Join(fresh, ", ") + ", " + c.rows
				}
				_, err := runSQL(context.Background(), sess, "INSERT INTO bw VALUES "+rows)
				e := pgerr.As(err)
				if e == nil || e.Code != pgerr.UniqueViolation {
					t.Errorf("%s: %v, want 23505", c.name, err)
					continue
				}
				if want := fmt.Sprintf("duplicate key value violates unique constraint %q", c.constraint); e.Message != want || e.Detail != c.detail {
					t.Errorf("%s: %s (%s), want %s (%s)", c.name, e.Message, e.Detail, want, c.detail)
				}
			}
			// COPY reports the same row, with its line number: the stream
			// is written in one batch (Pebble) or a transaction batch by
			// batch (DynamoDB), and the batches of 2 rows put the
			// repetition in another batch than the first row.
			for _, c := range []struct {
				rows       [][]sqltypes.Value
				constraint string
				detail     string
				row        int64
			}{
				{copyRows(300, "a", 5, "b", 301, "c", 300, "d"), "bw_pkey", "Key (id)=(5) already exists.", 1},
				{copyRows(300, "a", 301, "u9", 300, "c"), "bw_u_key", "Key (u)=(u9) already exists.", 1},
				{copyRows(300, "a", 301, "b", 300, "c", 7, "d"), "bw_pkey", "Key (id)=(300) already exists.", 2},
				{copyRows(300, "a", 301, "u4", 302, "c", 303, "a"), "bw_u_key", "Key (u)=(u4) already exists.", 1},
				{copyRows(300, "a", 301, "b", 302, "c", 303, "a", 5, "e"), "bw_u_key", "Key (u)=(a) already exists.", 3},
			} {
				for _, batch := range []int{2, 100} {
					_, err := copyIn(context.Background(), sess, "COPY bw (id, u) FROM STDIN", c.rows, batch)
					var re *wire.CopyRowError
					e := pgerr.As(err)
					if !errors.As(err, &re) || e == nil || e.Code != pgerr.UniqueViolation || re.Row != c.row || e.Detail != c.detail ||
						e.Message != fmt.Sprintf("duplicate key value violates unique constraint %q", c.constraint) {
						t.Errorf("COPY %v in batches of %d: %v (%+v), want %s at row %d", c.rows, batch, err, e, c.detail, c.row)
					}
				}
			}
			if got := mustExec(t, sess, `SELECT count(*), max(id) FROM bw`); strings.Join(got, ",") != "20|20" {
				t.Errorf("after the failed INSERTs and COPYs the table holds %v, want 20|20", got)
			}
		})
	}
}

// copyRows are rows of (id, u) for COPY, from pairs of values.
func copyRows(pairs ...any) [][]sqltypes.Value {
	var out [][]sqltypes.Value
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, []sqltypes.Value{sqltypes.NewInt(int64(pairs[i].(int))), sqltypes.NewText(pairs[i+1].(string))})
	}
	return out
}
