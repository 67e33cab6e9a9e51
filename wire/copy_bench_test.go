package wire

import (
	"math/rand"
	"syscall"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// processCPU is the process's user and system CPU time: on a shared
// machine the benchmarks' wall time measures the neighbours as much.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCopyEncode measures COPY TO's encoding of rows of the readings
// shape (bigint, timestamp, three float8s, text), one op a row, in each
// format, with the process CPU time per row besides the wall time (bench/README.md, issue 29: COPY TO).
func BenchmarkCopyEncode(b *testing.B) {
	cols := []Column{{Name: "sensor_id", Type: sqltypes.TypeInt8}, {Name: "ts", Type: sqltypes.TypeTimestamp},
		{Name: "celsius", Type: sqltypes.TypeFloat8}, {Name: "lat", Type: sqltypes.TypeFloat8},
		{Name: "lon", Type: sqltypes.TypeFloat8}, {Name: "note", Type: sqltypes.TypeText}}
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	rows := make([][]sqltypes.Value, 1024)
	for i := range rows {
		note := sqltypes.Null
		if i%3 != 0 {
			note = sqltypes.NewText("code-" + string(rune('a'+rng.Intn(26))))
		}
		rows[i] = []sqltypes.Value{sqltypes.NewInt(int64(i % 100)), sqltypes.NewTimestamp(base + rng.Int63n(26e12)),
			sqltypes.NewFloat(float64(rng.Intn(4000)-1000) / 100), sqltypes.NewFloat(40 + rng.Float64()),
			sqltypes.NewFloat(-74.5 + rng.Float64()), note}
	}
	for _, bc := range []struct {
		name string
		f    *CopyFormat
	}{
		{"text", &CopyFormat{Delimiter: '\t', Null: `\N`, Columns: cols}},
		{"csv", &CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Columns: cols}},
		{"binary", &CopyFormat{Binary: true, Columns: cols}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			enc := newCopyEncoder(bc.f, sqltypes.Style{})
			var out []byte
			b.ReportAllocs()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				var err error
				if out, err = enc.row(out[:0], rows[i%len(rows)]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
