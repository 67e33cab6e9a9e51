package sqltypes

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// floatReference is float8out/float4out with extra_float_digits = 1 as
// strconv spells it: the shortest digits, exponential ('e', at least two
// exponent digits) outside [-4, maxExp), else positional ('f').
func floatReference(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0"
	case f == 0:
		return "0"
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	exp, err := strconv.Atoi(e[strings.LastIndexByte(e, 'e')+1:])
	if err != nil {
		panic(err)
	}
	maxExp := 15
	if bits == 32 {
		maxExp = 6
	}
	if exp < -4 || exp >= maxExp {
		return e
	}
	return strconv.FormatFloat(f, 'f', -1, bits)
}

// TestAppendFloatShortest checks AppendFloat's one-pass layout against
// the two-pass reference on PostgreSQL's boundary values (checked against
// PostgreSQL 15 in e2e's COPY test) and on random bit patterns of both
// widths.
func TestAppendFloatShortest(t *testing.T) {
	cases := []struct {
		f    float64
		bits int
		want string
	}{
		{1e-7, 64, "1e-07"},
		{1e21, 64, "1e+21"},
		{1e15, 64, "1e+15"},
		{1e14, 64, "100000000000000"},
		{123456789012345.6, 64, "123456789012345.6"},
		{0.0001, 64, "0.0001"},
		{0.00001, 64, "1e-05"},
		{-0.000123, 64, "-0.000123"},
		{1.5e300, 64, "1.5e+300"},
		{5e-324, 64, "5e-324"},
		{math.MaxFloat64, 64, "1.7976931348623157e+308"},
		{-12.5, 64, "-12.5"},
		{100, 64, "100"},
		{float64(float32(1e6)), 32, "1e+06"},
		{float64(float32(123456)), 32, "123456"},
		{float64(float32(0.1)), 32, "0.1"},
		{float64(float32(3.4e38)), 32, "3.4e+38"},
		{math.Copysign(0, -1), 64, "-0"},
		{math.Inf(-1), 32, "-Infinity"},
		{math.NaN(), 64, "NaN"},
	}
	for _, c := range cases {
		if got := string(AppendFloat(nil, c.f, c.bits)); got != c.want {
			t.Errorf("AppendFloat(%v, %d) = %q, want %q", c.f, c.bits, got, c.want)
		}
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		f, bits := math.Float64frombits(rng.Uint64()), 64
		switch i % 4 {
		case 1:
			f, bits = float64(math.Float32frombits(rng.Uint32())), 32
		case 2:
			// Values of everyday magnitude, where the positional form is
			// taken.
			f = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.Intn(24)-6))
		case 3:
			f, bits = float64(float32((rng.Float64()-0.5)*math.Pow(10, float64(rng.Intn(12)-6)))), 32
		}
		if got, want := string(AppendFloat([]byte("x"), f, bits)), "x"+floatReference(f, bits); got != want {
			t.Fatalf("AppendFloat(%b, %d) = %q, want %q", f, bits, got, want)
		}
	}
}

// TestAppendFloatHundredths: the whole-hundredths shortcut gives the
// reference's text for hundredths of every magnitude up to its bound, on
// both sides of it, and near values that are not hundredths.
func TestAppendFloatHundredths(t *testing.T) {
	check := func(f float64) {
		t.Helper()
		if got, want := string(AppendFloat(nil, f, 64)), floatReference(f, 64); got != want {
			t.Fatalf("AppendFloat(%v) = %q, want %q", f, got, want)
		}
	}
	for _, f := range []float64{0.01, -0.01, 0.1, 0.05, 1.94, -1.9, 12, 100, 0.29, 1.15, 9999999999999.99, 1e13 - 1, 1e13, 1e13 + 0.5, 123456789012.34, 0.001, 0.015, 1.005} {
		check(f)
	}
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 300000; i++ {
		k := rng.Int63n(int64(math.Pow(10, float64(1+rng.Intn(16))))) - rng.Int63n(1000)
		f := float64(k) / 100
		check(f)
		check(math.Nextafter(f, math.Inf(1)))
		check(f / 10)
	}
}

func BenchmarkAppendFloat(b *testing.B) {
	vals := []float64{15.27, 40.712776, -74.005974, 1e-7, 1e21, 12345.678901234}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendFloat(buf[:0], vals[i%len(vals)], 64)
	}
}
