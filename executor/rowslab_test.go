package executor

import (
	"testing"
	"unsafe"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// TestReusedRowSlabsHoldOneBatch: a stream whose rows are reused
// (scanRows.reuseRows) allocates one batch's rows in all, however many
// batches it fills, while the rows of one batch never share memory and
// hold what was written into them; rows a residual filter drops (carved,
// not kept) only add the slabs they took. A stream that hands its rows
// over allocates new rows for every batch.
func TestReusedRowSlabsHoldOneBatch(t *testing.T) {
	const cols = 6
	rowBytes := cols * int(unsafe.Sizeof(sqltypes.Value{}))
	for _, c := range []struct {
		name      string
		reuse     bool
		dropEvery int // every dropEvery-th row is carved and not kept (0: none)
		maxRows   int // rows' worth of slabs allocated over the batches, at most
	}{
		{"reused", true, 0, reuseBatchRows},
		// (A rejected row is the next row, spare: it takes no slab.)
		{"reused, a filter drops rows", true, 5, reuseBatchRows},
		{"handed over", false, 0, 1 << 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &scanRows{node: &optimizer.Scan{}, reuseRows: c.reuse}
			if c.dropEvery > 0 {
				s.node.Residual = &ir.Const{V: sqltypes.NewBool(true)}
			}
			st := &shardStream{s: s}
			seen := map[*sqltypes.Value]bool{}
			allocated := 0
			const batches = 6
			most := st.batchMax()
			for b := range batches {
				st.reuseBatch()
				carved := 0
				for len(st.batch) < most {
					row := st.newRow(cols)
					if !seen[&row[0]] {
						seen[&row[0]] = true
						allocated++
					}
					for i := range row {
						row[i] = sqltypes.NewInt(int64(b*1000 + len(st.batch)))
					}
					if carved++; c.dropEvery > 0 && carved%c.dropEvery == 0 {
						st.spare = row // as emit keeps a row its filter rejects
						continue
					}
					st.batch = append(st.batch, scanItem{row: row})
				}
				// Every row of the batch still holds its own values.
				for i, it := range st.batch {
					for _, v := range it.row {
						if v.K != sqltypes.KindInt || v.I != int64(b*1000+i) {
							t.Fatalf("batch %d row %d: %v, want %d", b, i, v, b*1000+i)
						}
					}
				}
				st.take()
			}
			if allocated > c.maxRows {
				t.Errorf("%d rows' worth of slabs (%d bytes) over %d batches, want at most %d", allocated, allocated*rowBytes, batches, c.maxRows)
			}
			if !c.reuse && allocated != batches*most {
				t.Errorf("rows handed over: %d rows allocated, want %d", allocated, batches*most)
			}
		})
	}
}
