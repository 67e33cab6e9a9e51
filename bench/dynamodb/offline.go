package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/zorder"
)

// skipScanBudget is the ranges a skip-scan seeks within
// (optimizer.DefaultOptions' SkipScanBudget).
const skipScanBudget = 8

// readingsTable mirrors the benchmark's schema: readings with by_place.
func readingsTable() (*catalog.Table, *catalog.Index) {
	typ := func(id sqltypes.TypeID) sqltypes.Type { return sqltypes.Type{ID: id} }
	t := &catalog.Table{ID: 7, Name: "readings", Shards: 1, Columns: []catalog.Column{
		{Name: "sensor_id", Type: typ(sqltypes.Int8), NotNull: true},
		{Name: "ts", Type: typ(sqltypes.Timestamp), NotNull: true},
		{Name: "celsius", Type: typ(sqltypes.Float8)},
		{Name: "lat", Type: typ(sqltypes.Float8)},
		{Name: "lon", Type: typ(sqltypes.Float8)},
		{Name: "note", Type: typ(sqltypes.Text)},
	}, PrimaryKey: []catalog.KeyColumn{{Column: 0}, {Column: 1}}}
	ix := &catalog.Index{ID: 9, Name: "by_place", Kind: catalog.KindZOrder, Shards: 1,
		Columns: []catalog.KeyColumn{{Column: 3}, {Column: 4}, {Column: 1}}, Include: []int{2, 5}}
	t.Indexes = []*catalog.Index{ix}
	return t, ix
}

// The -offline mode answers, without DynamoDB or zproxy, how many index
// entries the ranges of each budget hold for the run's boxes: the items a
// Query per range reads (method (d)), counted on the generated data in
// memory; and how many a skip-scan reads, as on the embedded store. Beside
// zproxy's default layout it counts the data-aligned one (CREATE INDEX ...
// WITH (align = 'data')), in which each attribute leads with the top bits
// of its code that the data leaves fixed (zorder.Attr.Lead). Without leads
// interleaved codes weigh every attribute's top bit alike, and by_place's
// data spans 2^47 lat codes (floats in [40, 41)), 2^46 lon codes but only
// 2^41 ts codes (30 days of microseconds), so a box that is a cube in the
// data is, in address terms, 64 times longer in lat than in ts: covering
// it takes far more ranges than covering a cube.

// entrySet is the sorted index entry keys of the data under one layout.
type entrySet struct {
	keys [][]byte
	zs   *zorder.Schema
}

// inRanges counts the entries in ranges, and the ranges holding any.
func (e entrySet) inRanges(rs []zorder.Range) (items, nonempty int) {
	for _, r := range rs {
		a := sort.Search(len(e.keys), func(i int) bool { return bytes.Compare(e.keys[i], r.Lo) >= 0 })
		b := len(e.keys)
		if r.Hi != nil {
			b = sort.Search(len(e.keys), func(i int) bool { return bytes.Compare(e.keys[i], r.Hi) >= 0 })
		}
		items += b - a
		if b > a {
			nonempty++
		}
	}
	return items, nonempty
}

// skipScan counts the entries a skip-scan of ranges reads, as the executor
// reads on a store with cheap seeks (the embedded one): every entry the
// iterator returns, and at each entry outside the box a seek to the next
// address inside it (zorder.Schema.NextInBox).
func (e entrySet) skipScan(zs *zorder.Schema, b zorder.Box, rs []zorder.Range) (items, rows int) {
	at := func(key []byte) int {
		return sort.Search(len(e.keys), func(i int) bool { return bytes.Compare(e.keys[i], key) >= 0 })
	}
	for _, r := range rs {
		end := len(e.keys)
		if r.Hi != nil {
			end = at(r.Hi)
		}
		for i := at(r.Lo); i < end; {
			items++
			inside, next, more := zs.NextInBox(b, e.keys[i][:zs.AddrLen()])
			switch {
			case inside:
				rows++
				i++
			case !more:
				i = end
			default:
				i = max(at(next), i+1)
			}
		}
	}
	return items, rows
}

// offlineData generates the dataset's index entries under zproxy's default
// layout and the data-aligned one, and the harness's view of the index with
// the data's exact bounds; leads are the aligned layout's.
func offlineData(ds dataset) (d *direct, encodings []entrySet, leads []int) {
	tbl, ix := readingsTable()
	zs := tbl.ZSchema(ix)
	dims := len(ix.Columns)
	codes := make([][]uint64, ds.rows())
	lo, hi := make([]uint64, dims), make([]uint64, dims)
	for i := range codes {
		r := ds.rowAt(i)
		row := []sqltypes.Value{sqltypes.NewInt(r.sensorID), sqltypes.NewTimestamp(sqltypes.TimestampFromTime(r.ts)),
			sqltypes.NewFloat(r.celsius), sqltypes.NewFloat(r.lat), sqltypes.NewFloat(r.lon), sqltypes.Null}
		codes[i] = make([]uint64, dims)
		for d, k := range ix.Columns {
			c := catalog.ZCode(zs.Attr(d), row[k.Column])
			codes[i][d] = c
			if i == 0 || c < lo[d] {
				lo[d] = c
			}
			if i == 0 || c > hi[d] {
				hi[d] = c
			}
		}
	}
	aligned := zs.Attrs()
	leads = make([]int, dims)
	for d := range aligned {
		leads[d] = aligned[d].DataLead(lo[d], hi[d])
		aligned[d].Lead = leads[d]
	}
	encodings = []entrySet{{zs: zs}, {zs: zorder.MustSchema(aligned...)}}
	for e := range encodings {
		enc := &encodings[e]
		for i, c := range codes {
			// The row number stands in for the primary key that makes
			// entry keys unique.
			enc.keys = append(enc.keys, fmt.Appendf(enc.zs.Encode(c), "%08d", i))
		}
		slices.SortFunc(enc.keys, bytes.Compare)
	}
	return &direct{t: tbl, ix: ix, zs: zs, bounds: &catalog.ZBounds{Lo: lo, Hi: hi}}, encodings, leads
}

// runOffline prints, per box class, the items read per row returned by the
// ranges of each budget under both encodings, and by a skip-scan.
func runOffline(w io.Writer, cfg settings) {
	ds := newDataset(cfg.seed, cfg.rows)
	d, encodings, leads := offlineData(ds)
	budgets := cfg.budgets
	if len(budgets) == 0 {
		budgets = []int{16, 64, 256}
	}
	fmt.Fprintf(w, "## Offline: items read per row returned by Query per range, %d rows, boxes of seed %d\n\n", ds.rows(), cfg.seed)
	fmt.Fprintf(w, "Data bounds are the data's exact codes (zproxy's stored bounds are a little wider). Data-aligned: WITH (align = 'data'), leads (lat, lon, ts) %d, %d, %d bits.\n\n", leads[0], leads[1], leads[2])
	fmt.Fprint(w, "| class | boxes | rows / box |")
	for _, b := range budgets {
		fmt.Fprintf(w, " budget %d: zproxy's encoding | data-aligned |", b)
	}
	fmt.Fprint(w, " skip-scan (embedded): zproxy's encoding | data-aligned |")
	fmt.Fprint(w, "\n|---|---:|---:|")
	for range budgets {
		fmt.Fprint(w, "---:|---:|")
	}
	fmt.Fprint(w, "---:|---:|")
	fmt.Fprintln(w)
	ci := 0
	for _, dims := range []int{2, 3} {
		for _, f := range cfg.fractions {
			c := boxClass{dims: dims, fraction: f}
			boxes := c.boxes(cfg.seed, ci, cfg.queries)
			ci++
			rows := 0
			items := make([][2]int, len(budgets))
			nonempty := make([][2]int, len(budgets))
			var skipItems [2]int
			for _, b := range boxes {
				rows += ds.inBox(b)
				zb := d.clippedBox(b)
				for e, enc := range encodings {
					for bi, budget := range budgets {
						n, ne := enc.inRanges(enc.zs.Ranges(zb, budget))
						items[bi][e] += n
						nonempty[bi][e] += ne
					}
					n, _ := enc.skipScan(enc.zs, zb, enc.zs.Ranges(zb, skipScanBudget))
					skipItems[e] += n
				}
			}
			fmt.Fprintf(w, "| %s | %d | %.0f |", c, len(boxes), float64(rows)/float64(len(boxes)))
			for bi := range budgets {
				for e := range encodings {
					fmt.Fprintf(w, " %.2f (%.0f non-empty) |", float64(items[bi][e])/float64(max(rows, 1)), float64(nonempty[bi][e])/float64(len(boxes)))
				}
			}
			for e := range encodings {
				fmt.Fprintf(w, " %.2f |", float64(skipItems[e])/float64(max(rows, 1)))
			}
			fmt.Fprintln(w)
		}
	}
	costCurve(w, cfg, ds, d, encodings[0])
}

// requestWeights are the prices of a request, in items, costCurve shows.
var requestWeights = []float64{1, 2, 4, 8}

// costCurve prints, per box class and request weight w, what the budget
// the optimizer's cost model would choose reads (zproxy's encoding): the
// budget among the powers of two up to 256 (optimizer.zBudgets) whose
// estimate, the box's rows times the row over-cover (address over-cover
// times the Laplace-smoothed share of the cover inside the data bounds, as
// optimizer.rowOverCover) plus w per range, is least. The box's rows are
// counted, not estimated from a histogram.
func costCurve(w io.Writer, cfg settings, ds dataset, d *direct, enc entrySet) {
	zs := d.zs
	dataBox := zs.Universe()
	d.bounds.Clip(dataBox)
	fmt.Fprintf(w, "\n### Budget chosen by cost at request weight w (items per request)\n\n| class |")
	for _, rw := range requestWeights {
		fmt.Fprintf(w, " w = %g: items / row | requests |", rw)
	}
	fmt.Fprint(w, "\n|---|")
	for range requestWeights {
		fmt.Fprint(w, "---:|---:|")
	}
	fmt.Fprintln(w)
	type option struct {
		est          float64
		items, count int
	}
	ci := 0
	for _, dims := range []int{2, 3} {
		for _, f := range cfg.fractions {
			c := boxClass{dims: dims, fraction: f}
			var perBox [][]option
			rows := 0
			for _, b := range c.boxes(cfg.seed, ci, cfg.queries) {
				in := ds.inBox(b)
				rows += in
				zb := d.clippedBox(b)
				var opts []option
				for budget := 1; budget <= 256; budget *= 2 {
					cv := zs.Plan(zb, budget)
					share := (zs.CoverShare(cv.Ranges, dataBox, 128)*128 + 1) / 129
					est := min(float64(in)*max(cv.Covered/cv.InBox*share, 1), float64(ds.rows()))
					items, _ := enc.inRanges(cv.Ranges)
					opts = append(opts, option{est, items, len(cv.Ranges)})
				}
				perBox = append(perBox, opts)
			}
			ci++
			fmt.Fprintf(w, "| %s |", c)
			for _, rw := range requestWeights {
				items, requests := 0, 0
				for _, opts := range perBox {
					best := 0
					for i, o := range opts {
						if o.est+rw*float64(o.count) < opts[best].est+rw*float64(opts[best].count) {
							best = i
						}
					}
					items += opts[best].items
					requests += opts[best].count
				}
				fmt.Fprintf(w, " %.2f | %.0f |", float64(items)/float64(max(rows, 1)), float64(requests)/float64(len(perBox)))
			}
			fmt.Fprintln(w)
		}
	}
}
