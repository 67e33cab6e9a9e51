package executor_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/wire"
)

// TestBatchWritesEqualRowByRow is a property test of the write set's
// batch encoding (catalog.Encoder: shared layouts, key and attribute
// arenas): random rows are loaded by multi-row INSERTs and by COPY into a
// table with btree, Z-order, unique, partial and expression indexes over
// several shards, and then every item the store holds (each table and
// index partition scanned) must be exactly the item the one-row-at-a-time
// functions (catalog.Table.RowKey, RowAttrs, EntryKeyPK, EntryAttrs) form
// for the stored rows: the same keys, no other, and the same attributes.
func TestBatchWritesEqualRowByRow(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			e := newEnv(t,
				`CREATE TABLE p (a int, b text, c float8, d timestamp, n numeric, f bytea, g bool, PRIMARY KEY (a, b DESC)) WITH (shards = 3)`,
				`CREATE INDEX p_bc ON p (b, c DESC) INCLUDE (n) WITH (shards = 2)`,
				`CREATE INDEX p_z ON p USING zorder (c, d) INCLUDE (f)`,
				`CREATE UNIQUE INDEX p_u ON p (a, c)`,
				`CREATE INDEX p_part ON p (d) WHERE g`,
				`CREATE INDEX p_expr ON p (lower(b))`,
			)
			rng := rand.New(rand.NewPCG(seed, 29))
			next := 0
			row := func() []sqltypes.Value {
				next++
				v := []sqltypes.Value{sqltypes.NewInt(int64(next)), sqltypes.NewText(fmt.Sprintf("K%03d", rng.IntN(50)))}
				for c := 2; c < 7; c++ {
					if rng.IntN(6) == 0 {
						v = append(v, sqltypes.Null)
						continue
					}
					switch c {
					case 2:
						v = append(v, sqltypes.NewFloat(math.Round(rng.NormFloat64()*1e4)/100))
					case 3:
						v = append(v, sqltypes.NewTimestamp(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()+rng.Int64N(1e12)))
					case 4:
						v = append(v, sqltypes.NewText(fmt.Sprintf("%d.%02d", rng.IntN(1000), rng.IntN(100))))
					case 5:
						v = append(v, sqltypes.NewText(fmt.Sprintf(`\x%06x`, rng.IntN(1<<24))))
					case 6:
						v = append(v, sqltypes.NewBool(rng.IntN(2) == 0))
					}
				}
				return v
			}
			literal := func(v sqltypes.Value) string {
				if v.IsNull() {
					return "NULL"
				}
				return "'" + strings.ReplaceAll(sqltypes.FormatText(v), "'", "''") + "'"
			}
			for range 4 {
				// A multi-row INSERT of up to 300 rows.
				var sb strings.Builder
				sb.WriteString("INSERT INTO p VALUES ")
				for i := range 1 + rng.IntN(300) {
					if i > 0 {
						sb.WriteString(", ")
					}
					cells := []string{}
					for _, v := range row() {
						cells = append(cells, literal(v))
					}
					sb.WriteString("(" + strings.Join(cells, ", ") + ")")
				}
				e.mustExec(sb.String())
				// A COPY of up to 3 batches of rows.
				sess, err := e.eng.NewSession(e.ctx, wire.SessionParams{User: "test"})
				if err != nil {
					t.Fatal(err)
				}
				st, err := sess.Parse(e.ctx, "COPY p FROM STDIN", nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := st[0].Execute(e.ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				in := res.(wire.CopyIn)
				for range 1 + rng.IntN(3) {
					batch := make([][]sqltypes.Value, 1+rng.IntN(400))
					for i := range batch {
						batch[i] = row()
					}
					if err := in.Rows(e.ctx, batch); err != nil {
						t.Fatal(err)
					}
				}
				if err := in.Finish(e.ctx); err != nil {
					t.Fatal(err)
				}
				res.Close()
				sess.Close()
			}
			checkItemsRowByRow(t, e, e.table("p"), next)
		})
	}
}

// checkItemsRowByRow compares every item of table tb's and its indexes'
// partitions with the items the Table methods form for its stored rows
// (rows of them, each at version 1).
func checkItemsRowByRow(t *testing.T, e *env, tb *catalog.Table, rows int) {
	t.Helper()
	names := map[uint16]string{catalog.VersionAttrID: catalog.VersionAttr, catalog.ExpiresAttrID: kv.ExpiresAttr}
	for _, c := range tb.Columns {
		names[c.ID] = c.AttrName()
	}
	attrText := func(attrs []kv.Attr) string {
		out := make([]string, len(attrs))
		for i, a := range attrs {
			name := a.Name
			if a.ID != 0 {
				name = names[a.ID]
			}
			out[i] = fmt.Sprintf("%s=%d:%d:%x:%q:%x", name, a.Kind, a.I, math.Float64bits(a.F), a.S, a.B)
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	stored := map[string]string{}
	scan := func(part []byte) {
		it := e.log.Scan(e.ctx, kv.ScanRequest{Partition: part, Consistent: true})
		defer it.Close()
		for it.Next() {
			item := it.Item()
			stored[string(item.Key.Partition)+"\x00"+string(item.Key.Sort)] = attrText(item.Attrs)
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
	}
	for sh := range tb.Shards {
		scan(tb.Partition(sh))
	}
	for _, ix := range tb.Indexes {
		for sh := range max(ix.Shards, 1) {
			scan(catalog.IndexPartition(ix.ID, sh))
		}
	}
	want := map[string]string{}
	n := 0
	for sh := range tb.Shards {
		it := e.log.Scan(e.ctx, kv.ScanRequest{Partition: tb.Partition(sh), Consistent: true})
		for it.Next() {
			row := make([]sqltypes.Value, len(tb.Columns))
			if err := tb.DecodeRow(it.Item().Attrs, row); err != nil {
				t.Fatal(err)
			}
			n++
			key := tb.RowKey(row)
			want[string(key.Partition)+"\x00"+string(key.Sort)] = attrText(tb.RowAttrs(row, 1))
			for _, ix := range tb.Indexes {
				erow, in, err := ir.IndexRow(tb, ix, row)
				if err != nil {
					t.Fatal(err)
				}
				if !in {
					continue
				}
				k := tb.EntryKeyPK(ix, erow, key.Sort)
				want[string(k.Partition)+"\x00"+string(k.Sort)] = attrText(tb.EntryAttrs(ix, row))
			}
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		it.Close()
	}
	if n != rows {
		t.Fatalf("%d rows stored, want %d", n, rows)
	}
	for k, v := range want {
		if got, ok := stored[k]; !ok {
			t.Errorf("item %q missing", k)
		} else if got != v {
			t.Errorf("item %q:\n got %s\nwant %s", k, got, v)
		}
	}
	for k := range stored {
		if _, ok := want[k]; !ok {
			t.Errorf("item %q stored that the rows do not form", k)
		}
	}
}
