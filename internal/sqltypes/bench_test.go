package sqltypes

import (
	"slices"
	"testing"
)

// benchRows builds n rows shaped like the readings table (int, timestamp,
// float, text): the values the executor copies, sorts and hashes.
func benchRows(n int) [][]Value {
	rows := make([][]Value, n)
	for i := range rows {
		rows[i] = []Value{NewInt(int64(i * 7919 % n)), NewTimestamp(1704103200000000 - PGEpochMicros + int64(i)*1e6),
			NewFloat(float64(i%1000) / 10), NewText("note")}
	}
	return rows
}

// BenchmarkCopyRows copies rows of Values, as every operator that buffers
// rows (sort, hash join, spill) does; it measures what Value's size costs.
func BenchmarkCopyRows(b *testing.B) {
	rows := benchRows(10000)
	dst := make([]Value, 0, 4*len(rows))
	b.ReportAllocs()
	for b.Loop() {
		dst = dst[:0]
		for _, r := range rows {
			dst = append(dst, r...)
		}
	}
}

// BenchmarkSortRows sorts rows by their first column with Compare.
func BenchmarkSortRows(b *testing.B) {
	rows := benchRows(10000)
	work := make([][]Value, len(rows))
	b.ReportAllocs()
	for b.Loop() {
		copy(work, rows)
		slices.SortFunc(work, func(x, y []Value) int { return Compare(x[0], y[0]) })
	}
}

// BenchmarkHashRows hashes whole rows, as grouping and DISTINCT do.
func BenchmarkHashRows(b *testing.B) {
	rows := benchRows(10000)
	b.ReportAllocs()
	var h uint64
	for b.Loop() {
		for _, r := range rows {
			for _, v := range r {
				h = v.Hash(h)
			}
		}
	}
	_ = h
}

// BenchmarkNumeric measures the per-row numeric operations an aggregate or
// a filter runs.
func BenchmarkNumeric(b *testing.B) {
	x, _ := ParseNumeric("12345.678")
	y, _ := ParseNumeric("0.25")
	b.Run("add", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = AddNumeric(x, y)
		}
	})
	b.Run("div", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = DivNumeric(x, y)
		}
	})
	b.Run("compare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Compare(x, y)
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = ParseNumeric("12345.678")
		}
	})
	b.Run("format", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 32)
		for b.Loop() {
			buf = AppendText(buf[:0], x)
		}
	})
}

// BenchmarkJSONB measures parsing a small document and one -> lookup.
func BenchmarkJSONB(b *testing.B) {
	const doc = `{"sensor": 7, "tags": ["a", "b"], "reading": {"celsius": 21.5, "ok": true}}`
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = ParseJSONB(doc)
		}
	})
	v, _ := ParseText(TypeJSONB, doc)
	b.Run("field", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = JSONGetField(v, "reading", false)
		}
	})
}
