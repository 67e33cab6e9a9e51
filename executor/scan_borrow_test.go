package executor

import (
	"context"
	"fmt"
	"testing"
	"unsafe"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// reusingKV is a store of one range whose iterator, as Pebble's does,
// hands out items whose string attributes live in one buffer (buf) that
// the next item overwrites.
type reusingKV struct {
	kv.ReadWriter
	notes []string
	buf   []byte
}

func (s *reusingKV) Scan(context.Context, kv.ScanRequest) kv.Iterator {
	return &reusingIt{s: s, pos: -1}
}

// inBuf reports whether v's text lies in the store's buffer.
func (s *reusingKV) inBuf(v string) bool {
	if v == "" {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(v))), uintptr(unsafe.Pointer(&s.buf[0]))
	return p >= lo && p < lo+uintptr(len(s.buf))
}

type reusingIt struct {
	s   *reusingKV
	pos int
}

func (it *reusingIt) Next() bool {
	it.pos++
	return it.pos < len(it.s.notes)
}

func (it *reusingIt) Item() kv.Item {
	n := copy(it.s.buf, it.s.notes[it.pos])
	return kv.Item{Key: kv.Key{Sort: []byte(fmt.Sprint(it.pos))}, Attrs: []kv.Attr{
		{Name: "id", Kind: kv.AttrInt, I: int64(it.pos)},
		{Name: "note", Kind: kv.AttrString, S: unsafe.String(&it.s.buf[0], n)},
	}}
}

func (it *reusingIt) Seek([]byte)  {}
func (it *reusingIt) Err() error   { return nil }
func (it *reusingIt) Close() error { return nil }

// TestScanSinkBorrows: a sink that keeps nothing of a row (scanRows.borrow,
// a COPY TO's push) gets text values that alias the store's item, the
// same values a copying scan gives; a sink that may keep values (an
// in-scan aggregate's) and a scan with a residual filter get copies.
func TestScanSinkBorrows(t *testing.T) {
	tb := &catalog.Table{ID: 7, Name: "t", Columns: []catalog.Column{{Name: "id", Type: sqltypes.TypeInt8}, {Name: "note", Type: sqltypes.TypeText}}}
	always := &ir.Const{V: sqltypes.NewBool(true), Typ: sqltypes.TypeBool}
	for _, tc := range []struct {
		name     string
		borrow   bool
		residual ir.Expr
		shared   bool
	}{
		{"push", true, nil, true},
		{"aggregate", false, nil, false},
		{"push with a filter", true, always, false},
	} {
		store := &reusingKV{notes: []string{"alpha", "beta", "", "a longer note"}, buf: make([]byte, 64)}
		n := &optimizer.Scan{Table: tb, Method: optimizer.FullScan, Shards: []int{0}, Needed: []int{0, 1}, Residual: tc.residual,
			Ranges: []optimizer.KeyRange{{}}}
		ec := &execCtx{ex: &Executor{}, kv: store, eval: &ir.EvalContext{}}
		var got []string
		shared := 0
		s := &scanRows{ec: ec, node: n, statKey: n, borrow: tc.borrow, sink: func(row []sqltypes.Value) error {
			if int(row[0].I) != len(got) {
				t.Errorf("%s: row %d has id %d", tc.name, len(got), row[0].I)
			}
			got = append(got, string([]byte(row[1].S)))
			if store.inBuf(row[1].S) {
				shared++
			}
			return nil
		}}
		ctx := context.Background()
		err := s.start(ctx)
		for more := true; err == nil && more; {
			_, more, err = s.Next(ctx)
		}
		s.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(store.notes) {
			t.Errorf("%s: got %q, want %q", tc.name, got, store.notes)
		}
		if want := map[bool]int{true: 3, false: 0}[tc.shared]; shared != want {
			t.Errorf("%s: %d values alias the store's item, want %d", tc.name, shared, want)
		}
	}
}
