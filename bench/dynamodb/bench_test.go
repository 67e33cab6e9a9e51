package main

import (
	"bytes"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Every reading inside a box has its index entry key within the naive range
// and within zproxy's budgeted ranges; readings outside the box may or may
// not be (that is the over-cover), but the box test rejects them.
func TestRangesCoverBoxEntries(t *testing.T) {
	tbl, ix := readingsTable()
	d := &direct{t: tbl, ix: ix, zs: tbl.ZSchema(ix)}
	ds := newDataset(3, 20000)
	for ci, c := range []boxClass{{2, 0.01}, {3, 0.01}, {2, 0.05}, {3, 0.001}} {
		for bi, b := range c.boxes(3, ci, 4) {
			lo, hi := d.naiveRange(b)
			budgeted := d.zs.Ranges(d.zbox(b), 64)
			clipped := b
			if !clipped.threeD {
				clipped.threeD, clipped.tsLo, clipped.tsHi = true, baseTime.UnixMicro(), baseTime.Add(timeSpan).UnixMicro()-1
			}
			clippedRanges := d.zs.Ranges(d.zbox(clipped), 64)
			in := 0
			for i := range ds.rows() {
				r := ds.rowAt(i)
				if !b.contains(r.lat, r.lon, r.ts.UnixMicro()) {
					continue
				}
				in++
				row := []sqltypes.Value{sqltypes.NewInt(r.sensorID), sqltypes.NewTimestamp(sqltypes.TimestampFromTime(r.ts)),
					sqltypes.NewFloat(r.celsius), sqltypes.NewFloat(r.lat), sqltypes.NewFloat(r.lon), sqltypes.Null}
				key := tbl.EntryKey(ix, row).Sort
				if bytes.Compare(key, lo) < 0 || (hi != nil && bytes.Compare(key, hi) >= 0) {
					t.Fatalf("%s box %d: in-box entry %x outside naive range [%x, %x)", c, bi, key, lo, hi)
				}
				if !inRanges(key, budgeted) {
					t.Fatalf("%s box %d: in-box entry %x outside the budgeted ranges", c, bi, key)
				}
				if !inRanges(key, clippedRanges) {
					t.Fatalf("%s box %d: in-box entry %x outside the clipped ranges", c, bi, key)
				}
			}
			if in == 0 {
				t.Errorf("%s box %d holds no reading: the test proves nothing", c, bi)
			}
		}
	}
}

func inRanges(key []byte, rs []zorder.Range) bool {
	for _, r := range rs {
		if bytes.Compare(key, r.Lo) >= 0 && (r.Hi == nil || bytes.Compare(key, r.Hi) < 0) {
			return true
		}
	}
	return false
}

// The naive range ends just past the upper corner's address, so an entry
// at that address (any primary key) is inside and the next address is not.
func TestNaiveRangeEnd(t *testing.T) {
	tbl, ix := readingsTable()
	d := &direct{t: tbl, ix: ix, zs: tbl.ZSchema(ix)}
	b := box{latLo: 40.1, latHi: 40.2, lonLo: -74.3, lonHi: -74.2, threeD: true, tsLo: baseTime.UnixMicro(), tsHi: baseTime.UnixMicro() + 1e9}
	zb := d.zbox(b)
	upper := d.zs.Encode([]uint64{zb[0].Hi, zb[1].Hi, zb[2].Hi})
	_, hi := d.naiveRange(b)
	atUpper := append(append([]byte(nil), upper...), 0xff, 0xff)
	if bytes.Compare(atUpper, hi) >= 0 {
		t.Fatalf("entry at the upper corner %x is not below the range end %x", atUpper, hi)
	}
	if !bytes.Equal(hi, kv.PrefixEnd(upper)) {
		t.Fatalf("range end %x, want PrefixEnd(%x)", hi, upper)
	}
}

func TestParseExplain(t *testing.T) {
	const text = `Project  (actual rows=2 time=511.719ms)
      output: sensor_id, ts
  ->  Scan readings via zorder index by_place: z-order ranges  (actual rows=2 time=511.716ms items read=2 store requests=128 capacity=1.0)
            shards: 2 of 2
            key ranges: 64 [0xb1249251…, 0xb1249b75…) [0xb126, 0xb127) ...
Execution: 511.747 ms, 2 items read, 128 store requests, backend dynamodb
Capacity consumed: 1.5 units
`
	ps, err := parseExplain(text)
	if err != nil {
		t.Fatal(err)
	}
	want := planStats{items: 2, requests: 128, ranges: 64, capacity: 1.5, firstRange: "[0xb1249251…, 0xb1249b75…)"}
	if ps != want {
		t.Fatalf("parseExplain = %+v, want %+v", ps, want)
	}
	addr := []byte{0xb1, 0x24, 0x92, 0x51, 0x05}
	if !startPrinted(ps.firstRange, addr) {
		t.Errorf("startPrinted(%q, %x) = false", ps.firstRange, addr)
	}
	for _, p := range []string{"[0xb1249252…, 0xb1249b75…)", "[min, max)", "[0xb1249251, max)"} {
		if startPrinted(p, addr) {
			t.Errorf("startPrinted(%q, %x) = true", p, addr)
		}
	}
	if !startPrinted("[0xb124925105, 0xb1249b75…)", addr) || !startPrinted("[min, max)", nil) {
		t.Error("startPrinted rejects a full address or min")
	}
	for _, bad := range []string{
		"Scan readings via primary key: range scan\nExecution: 1 ms, 2 items read, 3 store requests\nCapacity consumed: 1 units",
		"Scan readings via zorder index by_place: z-order ranges\nCapacity consumed: 1 units",
	} {
		if _, err := parseExplain(bad); err == nil {
			t.Errorf("parseExplain(%q) succeeded", bad)
		}
	}
}

// Boxes hold about fraction × rows readings, and rows are reproducible.
func TestDataAndBoxes(t *testing.T) {
	ds := newDataset(1, 10000)
	if ds.rowAt(123) != ds.rowAt(123) {
		t.Fatal("rows are not a function of the seed and the row number")
	}
	seen := map[pk]bool{}
	for i := range ds.rows() {
		r := ds.rowAt(i)
		k := pk{r.sensorID, r.ts.UnixMicro()}
		if seen[k] {
			t.Fatalf("duplicate primary key %v", k)
		}
		seen[k] = true
	}
	for ci, c := range []boxClass{{2, 0.05}, {3, 0.05}} {
		total := 0
		bs := c.boxes(1, ci, 20)
		for _, b := range bs {
			total += ds.inBox(b)
		}
		mean := float64(total) / float64(len(bs))
		want := c.fraction * float64(ds.rows())
		if mean < want*0.7 || mean > want*1.3 {
			t.Errorf("%s: %.0f readings per box, want about %.0f", c, mean, want)
		}
	}
}

// The offline counts are of the right entries: under both layouts a
// skip-scan returns exactly the readings in the box, and every budget's
// ranges hold at least those.
func TestOfflineCounts(t *testing.T) {
	ds := newDataset(5, 3000)
	d, encodings, _ := offlineData(ds)
	for ci, c := range []boxClass{{2, 0.01}, {3, 0.05}} {
		for bi, b := range c.boxes(5, ci, 3) {
			in := ds.inBox(b)
			zb := d.clippedBox(b)
			for e, enc := range encodings {
				items, rows := enc.skipScan(enc.zs, zb, enc.zs.Ranges(zb, skipScanBudget))
				// Equal codes at the box's float edges are in the box by
				// code; none of these random edges hits a reading exactly.
				if rows != in || items < rows {
					t.Errorf("%s box %d, encoding %d: skip-scan %d rows (%d items), the box holds %d", c, bi, e, rows, items, in)
				}
				for _, budget := range []int{1, 16, 256} {
					if n, _ := enc.inRanges(enc.zs.Ranges(zb, budget)); n < in {
						t.Errorf("%s box %d, encoding %d, budget %d: ranges hold %d entries, fewer than the box's %d", c, bi, e, budget, n, in)
					}
				}
			}
		}
	}
}
