package session_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCopyQualifiedNames: COPY binds names as every statement does, as
// pg_dump's restore writes them under its empty search_path: public.t is
// public's t past a temporary t, a bare name finds the temporary t, and a
// bare name of public's relation off the path none (42P01).
func TestCopyQualifiedNames(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			mustExec(t, sess, "CREATE TABLE public.cq (a int)")
			mustExec(t, sess, "CREATE TABLE public.cq_only (a int)")
			mustExec(t, sess, "CREATE TEMP TABLE cq (a int)")
			mustExec(t, sess, "SET search_path = ''")
			ints := func(vs ...int64) [][]sqltypes.Value {
				var rows [][]sqltypes.Value
				for _, v := range vs {
					rows = append(rows, []sqltypes.Value{sqltypes.NewInt(v)})
				}
				return rows
			}
			for _, tc := range []struct {
				sql  string
				rows [][]sqltypes.Value
				tag  string // "" for 42P01
			}{
				{"COPY public.cq FROM STDIN", ints(1, 2), "COPY 2"},
				{"COPY cq FROM STDIN", ints(3), "COPY 1"},
				{"COPY public.cq_only (a) FROM STDIN", ints(4), "COPY 1"},
				{"COPY cq_only FROM STDIN", ints(5), ""},
			} {
				tag, err := copyIn(ctx, sess, tc.sql, tc.rows, 10)
				if tc.tag == "" {
					if pgerr.CodeOf(err) != pgerr.UndefinedTable {
						t.Errorf("%s: %v, want 42P01", tc.sql, err)
					}
					continue
				}
				if err != nil || tag != tc.tag {
					t.Errorf("%s: %q, %v; want %q", tc.sql, tag, err, tc.tag)
				}
			}
			for sql, want := range map[string]string{
				"SELECT pg_catalog.sum(a) FROM public.cq":      "3",
				"SELECT pg_catalog.sum(a) FROM pg_temp.cq":     "3",
				"SELECT pg_catalog.sum(a) FROM public.cq_only": "4",
			} {
				if got := mustExec(t, sess, sql); len(got) != 1 || got[0] != want {
					t.Errorf("%s: %v, want %s", sql, got, want)
				}
			}
		})
	}
}
