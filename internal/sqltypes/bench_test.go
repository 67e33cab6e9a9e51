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
		rows[i] = []Value{NewInt(int64(i * 7919 % n)), NewTimestamp(1704103200000000 + int64(i)*1e6),
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
