package e2e

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestSearchCycleOverTheWire: the record and record[] columns of SEARCH
// and CYCLE reach pgx as PostgreSQL sends them, in the extended protocol
// (pgx's cached statements ask for binary results where it can decode
// them) and in the simple one (E2E_POSTGRES checks the same against
// PostgreSQL).
func TestSearchCycleOverTheWire(t *testing.T) {
	tg := newTarget(t)
	const q = `WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SEARCH BREADTH FIRST BY n SET ord CYCLE n SET c USING p SELECT n, ord, c, p FROM t ORDER BY ord`
	for _, c := range []struct {
		mode pgx.QueryExecMode
		want []string // fmt.Sprint of each row's values as pgx decodes them
	}{
		// Binary: a record is its fields, a record[] a list of them.
		{pgx.QueryExecModeCacheStatement, []string{"1 [0 1] false [[1]]", "2 [1 2] false [[1] [2]]", "3 [2 3] false [[1] [2] [3]]"}},
		// Text: a record is its text, a record[] a list of those.
		{pgx.QueryExecModeSimpleProtocol, []string{"1(0,1)false [(1)]", "2(1,2)false [(1) (2)]", "3(2,3)false [(1) (2) (3)]"}},
	} {
		mode := c.mode
		conn := tg.Connect(t, mode)
		rows, err := conn.Query(testCtx(t), q)
		if err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		var got []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatalf("%v: %v", mode, err)
			}
			got = append(got, fmt.Sprint(vals...))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		oids := []uint32{}
		for _, fd := range rows.FieldDescriptions() {
			oids = append(oids, fd.DataTypeOID)
		}
		want := c.want
		if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(oids) != "[23 2249 16 2287]" {
			t.Errorf("%v: rows %q, types %v; want %q, [23 2249 16 2287]", mode, got, oids, want)
		}
	}
}
