package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// newTypeSample is a value of one of the issue 14 types, the Go value pgx
// encodes for it, and a check of what pgx scans from zproxy's bytes.
type newTypeSample struct {
	t     sqltypes.Type
	v     sqltypes.Value
	goVal any
	scan  func(m *pgtype.Map, b []byte) error
}

func mustText(t sqltypes.Type, s string) sqltypes.Value {
	v, err := sqltypes.ParseText(t, s)
	if err != nil {
		panic(fmt.Sprintf("%s %q: %v", t, s, err))
	}
	return v
}

func numericSample(s string) newTypeSample {
	v := mustText(sqltypes.TypeNumeric, s)
	var n pgtype.Numeric
	if err := n.Scan(sqltypes.FormatText(v)); err != nil {
		panic(err)
	}
	// pgx keeps the digits it was given: 1.50 is Int 150, Exp -2, so the
	// dscale it sends is the one PostgreSQL would.
	return newTypeSample{t: sqltypes.TypeNumeric, v: v, goVal: n, scan: func(m *pgtype.Map, b []byte) error {
		var got pgtype.Numeric
		if err := m.Scan(1700, pgtype.BinaryFormatCode, b, &got); err != nil {
			return err
		}
		d := v.Numeric()
		switch {
		case got.NaN || d.Form == apd.NaN:
			if got.NaN != (d.Form == apd.NaN) {
				return fmt.Errorf("pgx read %+v", got)
			}
			return nil
		case got.InfinityModifier != pgtype.Finite || d.Form == apd.Infinite:
			if d.Form != apd.Infinite || (got.InfinityModifier == pgtype.NegativeInfinity) != d.Negative {
				return fmt.Errorf("pgx read %+v", got)
			}
			return nil
		}
		// pgx keeps no scale for zero: compare the values.
		r := new(big.Rat).SetInt(got.Int)
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(got.Exp))), nil))
		if got.Exp < 0 {
			r.Quo(r, p)
		} else {
			r.Mul(r, p)
		}
		want, _ := new(big.Rat).SetString(sqltypes.FormatText(v))
		if r.Cmp(want) != 0 {
			return fmt.Errorf("pgx read %v", r)
		}
		return nil
	}}
}

func newTypeSamples(r *rand.Rand, n int) []newTypeSample {
	var out []newTypeSample
	for _, s := range []string{"0", "0.000", "1", "-1", "1.50", "123456789012345678901234567890.0123456789", "0.00012",
		"-0.1", "10000", "99990000", "1e20", "0.0001", "12345.6789", "NaN", "Infinity", "-Infinity", "1e-30", "9999.9999"} {
		out = append(out, numericSample(s))
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteString(fmt.Sprint(r.Int64N(1e15)))
		if r.IntN(2) == 0 {
			b.WriteString(".")
			for k := r.IntN(12); k >= 0; k-- {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		out = append(out, numericSample(b.String()))
	}
	ivs := []sqltypes.IntervalValue{{}, {Months: 14, Days: 3, Micros: 4*3600e6 + 5}, {Months: -1, Days: -2, Micros: -3}}
	for i := 0; i < n; i++ {
		ivs = append(ivs, sqltypes.IntervalValue{Months: int32(r.Uint32()), Days: int32(r.Uint32()), Micros: int64(r.Uint64())})
	}
	for _, iv := range ivs {
		iv := iv
		out = append(out, newTypeSample{t: sqltypes.TypeInterval, v: sqltypes.NewInterval(iv),
			goVal: pgtype.Interval{Microseconds: iv.Micros, Days: iv.Days, Months: iv.Months, Valid: true},
			scan: func(m *pgtype.Map, b []byte) error {
				var got pgtype.Interval
				if err := m.Scan(1186, pgtype.BinaryFormatCode, b, &got); err != nil {
					return err
				}
				if got.Microseconds != iv.Micros || got.Days != iv.Days || got.Months != iv.Months {
					return fmt.Errorf("pgx read %+v", got)
				}
				return nil
			}})
	}
	str := func(oid uint32, t sqltypes.Type, v sqltypes.Value, want string) newTypeSample {
		return newTypeSample{t: t, v: v, goVal: want, scan: func(m *pgtype.Map, b []byte) error {
			var got string
			if err := m.Scan(oid, pgtype.BinaryFormatCode, b, &got); err != nil {
				return err
			}
			if got != want {
				return fmt.Errorf("pgx read %q", got)
			}
			return nil
		}}
	}
	char4 := sqltypes.Type{ID: sqltypes.BPChar, Width: 4}
	out = append(out, str(1042, char4, mustText(char4, "ab"), "ab  "), str(1042, sqltypes.TypeBPChar, mustText(sqltypes.TypeBPChar, "x "), "x "))
	for _, j := range []string{`{"b": [1, 2.50], "a": null}`, `"é\n"`, `[]`, `12345678901234567890`} {
		out = append(out, str(114, sqltypes.TypeJSON, mustText(sqltypes.TypeJSON, j), j))
		jb := mustText(sqltypes.TypeJSONB, j)
		out = append(out, str(3802, sqltypes.TypeJSONB, jb, sqltypes.FormatText(jb)))
	}
	// Timestamps and dates at the ends of their ranges and at infinity.
	for _, us := range []int64{sqltypes.TimestampInfinity, sqltypes.TimestampNegInfinity, sqltypes.MinTimestamp, sqltypes.EndTimestamp - 1} {
		us := us
		ts := pgtype.Timestamp{Valid: true}
		switch us {
		case sqltypes.TimestampInfinity:
			ts.InfinityModifier = pgtype.Infinity
		case sqltypes.TimestampNegInfinity:
			ts.InfinityModifier = pgtype.NegativeInfinity
		default:
			ts.Time = sqltypes.TimestampTime(us).UTC()
		}
		out = append(out, newTypeSample{t: sqltypes.TypeTimestamp, v: sqltypes.NewTimestamp(us), goVal: ts, scan: func(m *pgtype.Map, b []byte) error {
			var got pgtype.Timestamp
			if err := m.Scan(1114, pgtype.BinaryFormatCode, b, &got); err != nil {
				return err
			}
			if got.InfinityModifier != ts.InfinityModifier || !got.Time.Equal(ts.Time) {
				return fmt.Errorf("pgx read %+v", got)
			}
			return nil
		}})
	}
	for _, d := range []int64{sqltypes.DateInfinity, sqltypes.DateNegInfinity, sqltypes.MinDate, sqltypes.MaxDate} {
		d := d
		pd := pgtype.Date{Valid: true}
		switch d {
		case sqltypes.DateInfinity:
			pd.InfinityModifier = pgtype.Infinity
		case sqltypes.DateNegInfinity:
			pd.InfinityModifier = pgtype.NegativeInfinity
		default:
			pd.Time = time.Unix(d*86400, 0).UTC()
		}
		out = append(out, newTypeSample{t: sqltypes.TypeDate, v: sqltypes.NewDate(d), goVal: pd, scan: func(m *pgtype.Map, b []byte) error {
			var got pgtype.Date
			if err := m.Scan(1082, pgtype.BinaryFormatCode, b, &got); err != nil {
				return err
			}
			if got.InfinityModifier != pd.InfinityModifier || !got.Time.Equal(pd.Time) {
				return fmt.Errorf("pgx read %+v", got)
			}
			return nil
		}})
	}
	// Arrays: NULL elements, several dimensions, lower bounds.
	arr := func(t sqltypes.Type, text string, goVal any, check func(m *pgtype.Map, b []byte) error) {
		out = append(out, newTypeSample{t: t, v: mustText(t, text), goVal: goVal, scan: check})
	}
	int4s := sqltypes.ArrayOf(sqltypes.TypeInt4)
	one := int32(1)
	arr(int4s, "{1,NULL,3}", []*int32{&one, nil, ptr(int32(3))}, func(m *pgtype.Map, b []byte) error {
		var got []*int32
		if err := m.Scan(1007, pgtype.BinaryFormatCode, b, &got); err != nil {
			return err
		}
		if len(got) != 3 || *got[0] != 1 || got[1] != nil || *got[2] != 3 {
			return fmt.Errorf("pgx read %v", got)
		}
		return nil
	})
	arr(int4s, "{}", []int32{}, func(m *pgtype.Map, b []byte) error {
		var got []int32
		if err := m.Scan(1007, pgtype.BinaryFormatCode, b, &got); err != nil || len(got) != 0 {
			return fmt.Errorf("pgx read %v, %v", got, err)
		}
		return nil
	})
	twoD := pgtype.Array[int32]{Elements: []int32{1, 2, 3, 4, 5, 6}, Dims: []pgtype.ArrayDimension{{Length: 2, LowerBound: 1}, {Length: 3, LowerBound: 0}}, Valid: true}
	arr(int4s, "[1:2][0:2]={{1,2,3},{4,5,6}}", twoD, func(m *pgtype.Map, b []byte) error {
		var got pgtype.Array[int32]
		if err := m.Scan(1007, pgtype.BinaryFormatCode, b, &got); err != nil {
			return err
		}
		if fmt.Sprint(got.Elements, got.Dims) != fmt.Sprint(twoD.Elements, twoD.Dims) {
			return fmt.Errorf("pgx read %v %v", got.Elements, got.Dims)
		}
		return nil
	})
	texts := []string{"a", "", "with \"quotes\" and \\", "NULL", "é"}
	arr(sqltypes.ArrayOf(sqltypes.TypeText), `{a,"","with \"quotes\" and \\","NULL",é}`, texts, func(m *pgtype.Map, b []byte) error {
		var got []string
		if err := m.Scan(1009, pgtype.BinaryFormatCode, b, &got); err != nil {
			return err
		}
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", texts) {
			return fmt.Errorf("pgx read %q", got)
		}
		return nil
	})
	floats := []float64{1.5, -0.25}
	arr(sqltypes.ArrayOf(sqltypes.TypeFloat8), "{1.5,-0.25}", floats, func(m *pgtype.Map, b []byte) error {
		var got []float64
		if err := m.Scan(1022, pgtype.BinaryFormatCode, b, &got); err != nil || fmt.Sprint(got) != fmt.Sprint(floats) {
			return fmt.Errorf("pgx read %v, %v", got, err)
		}
		return nil
	})
	nums := []pgtype.Numeric{}
	for _, s := range []string{"1.50", "-2"} {
		var n pgtype.Numeric
		_ = n.Scan(s)
		nums = append(nums, n)
	}
	arr(sqltypes.ArrayOf(sqltypes.TypeNumeric), "{1.50,-2}", nums, func(m *pgtype.Map, b []byte) error {
		var got []pgtype.Numeric
		if err := m.Scan(1231, pgtype.BinaryFormatCode, b, &got); err != nil || len(got) != 2 {
			return fmt.Errorf("pgx read %v, %v", got, err)
		}
		return nil
	})
	ts := []time.Time{time.UnixMicro(1704103200000000).UTC()}
	arr(sqltypes.ArrayOf(sqltypes.TypeTimestamp), "{2024-01-01 10:00:00}", ts, func(m *pgtype.Map, b []byte) error {
		var got []time.Time
		if err := m.Scan(1115, pgtype.BinaryFormatCode, b, &got); err != nil || len(got) != 1 || !got[0].Equal(ts[0]) {
			return fmt.Errorf("pgx read %v, %v", got, err)
		}
		return nil
	})
	return out
}

func ptr[T any](v T) *T { return &v }

// TestBinaryMatchesPostgres: the bytes AppendBinary writes are the bytes
// PostgreSQL 15's send functions produce, and DecodeBinary reads them back.
func TestBinaryMatchesPostgres(t *testing.T) {
	for _, c := range binaryPGCases {
		typ, ok := sqltypes.ParseTypeName(strings.TrimPrefix(c[0], "array:"))
		if !ok {
			t.Fatalf("type %q", c[0])
		}
		if strings.HasPrefix(c[0], "array:") {
			typ = sqltypes.ArrayOf(typ)
		}
		v := mustText(typ, c[1])
		want, err := hex.DecodeString(c[2])
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendBinary(nil, typ, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s %s: encoded %x, %v; PostgreSQL %x", typ, c[1], got, err, want)
		}
		back, err := DecodeBinary(typ, want)
		// xml is sent as xml_out prints it (a declaration of version 1.0
		// dropped), so what comes back is equal in its text only.
		if err != nil || v.K != sqltypes.KindXML && !sqltypes.Equal(back, v) || sqltypes.FormatText(back) != sqltypes.FormatText(v) {
			t.Errorf("%s %x: decoded %s, %v; want %s", typ, want, sqltypes.FormatText(back), err, sqltypes.FormatText(v))
		}
	}
}

// TestBinaryNewTypesPgtype: pgx reads what zproxy writes and zproxy reads
// what pgx writes, for numeric, interval, char(n), json, jsonb, arrays and
// infinite timestamps and dates. (Byte equality is checked against
// PostgreSQL itself above: pgx writes zero's weight and empty arrays
// differently, and keeps leading and trailing zero digits.)
func TestBinaryNewTypesPgtype(t *testing.T) {
	m := pgtype.NewMap()
	r := rand.New(rand.NewPCG(21, 22))
	for _, s := range newTypeSamples(r, 100) {
		name := fmt.Sprintf("%s %s", s.t, sqltypes.FormatText(s.v))
		mine, err := AppendBinary(nil, s.t, s.v)
		if err != nil {
			t.Errorf("%s: AppendBinary: %v", name, err)
			continue
		}
		want, err := m.Encode(s.t.OID(), pgtype.BinaryFormatCode, s.goVal, nil)
		if err != nil {
			t.Fatalf("%s: pgtype encode: %v", name, err)
		}
		back, err := DecodeBinary(s.t, want)
		if err != nil || !sqltypes.Equal(back, s.v) || sqltypes.FormatText(back) != sqltypes.FormatText(s.v) {
			t.Errorf("%s: decoded %s, %v", name, sqltypes.FormatText(back), err)
		}
		if err := s.scan(m, mine); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNumericBinaryDscale: the binary form carries the display scale and
// digits hidden by it are cut, as numeric_recv does.
func TestNumericBinaryDscale(t *testing.T) {
	// 1.5 with dscale 0: ndigits 2, weight 0, pos, dscale 0, digits 1 5000.
	v, err := DecodeBinary(sqltypes.TypeNumeric, []byte{0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0x13, 0x88})
	if err != nil || sqltypes.FormatText(v) != "1" {
		t.Errorf("hidden digits: %s, %v", sqltypes.FormatText(v), err)
	}
	v, err = DecodeBinary(sqltypes.TypeNumeric, []byte{0, 1, 0, 0, 0, 0, 0, 3, 0, 7})
	if err != nil || sqltypes.FormatText(v) != "7.000" {
		t.Errorf("padded scale: %s, %v", sqltypes.FormatText(v), err)
	}
	// numeric(4,1) applies to binary parameters too.
	if _, err := DecodeBinary(sqltypes.NumericType(4, 1), []byte{0, 1, 0, 1, 0, 0, 0, 0, 0, 1}); pgerr.CodeOf(err) != pgerr.NumericValueOutOfRange {
		t.Errorf("10000 as numeric(4,1): %v", err)
	}
}

// numericBytes is numeric_send's layout: ndigits, weight, sign, dscale,
// then the base-10000 digits.
func numericBytes(ndigits, weight int, sign uint16, dscale int, digits ...uint16) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(ndigits))
	b = binary.BigEndian.AppendUint16(b, uint16(int16(weight)))
	b = binary.BigEndian.AppendUint16(b, sign)
	b = binary.BigEndian.AppendUint16(b, uint16(dscale))
	for _, d := range digits {
		b = binary.BigEndian.AppendUint16(b, d)
	}
	return b
}

func repeatDigit(n int, d uint16) []uint16 {
	s := make([]uint16, n)
	for i := range s {
		s[i] = d
	}
	return s
}

// TestNumericBinaryRecvLimits: numeric_recv takes any int16 weight and up
// to 65535 digits, and checks its fields in order; the expected text
// (length, first and last characters) and errors are PostgreSQL 15's for
// the same bytes as a bind parameter.
func TestNumericBinaryRecvLimits(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		// text: len:first10:last10 of the value's text; or a SQLSTATE and
		// message.
		want string
	}{
		{"weight 32767", numericBytes(1, 32767, 0, 0, 1), "131069:1000000000:0000000000"},
		{"full integer range", numericBytes(2, 32767, 0, 0, 9999, 9999), "131072:9999999900:0000000000"},
		{"leading zero digits", numericBytes(3, 32767, 0, 0, 0, 0, 1), "131061:1000000000:0000000000"},
		{"weight -32768", numericBytes(1, -32768, 0, 16383, 1), "16385:0.00000000:0000000000"},
		{"weight -32768 leading zeros", numericBytes(3, -32768, 0, 0, 0, 0, 1), "1:0:0"},
		{"last scale digit", numericBytes(1, -4096, 0, 16383, 1234), "16385:0.00000000:0000000123"},
		{"3001 digits", numericBytes(3001, 0, 0, 0, repeatDigit(3001, 1)...), "1:1:1"},
		{"32768 digits", numericBytes(32768, 0, 0, 0, repeatDigit(32768, 1)...), "1:1:1"},
		{"hidden digits", numericBytes(2, 0, 0x4000, 2, 1, 5678), "5:-1.56:-1.56"},
		{"negative zero", numericBytes(1, 0, 0x4000, 2, 0), "4:0.00:0.00"},
		{"NaN with digits", numericBytes(1, 0, 0xC000, 5, 1), "3:NaN:NaN"},
		{"NaN with scale", numericBytes(0, 7, 0xC000, 0x3fff), "3:NaN:NaN"},
		{"65535 digits, one sent", numericBytes(65535, 0, 0, 0, 1), "08P01 insufficient data left in message"},
		{"a digit short", numericBytes(2, 0, 0, 0, 1), "08P01 insufficient data left in message"},
		{"7 bytes", make([]byte, 7), "08P01 insufficient data left in message"},
		{"5 bytes", make([]byte, 5), "08P01 insufficient data left in message"},
		{"bad sign before short", numericBytes(2, 0, 0x1234, 0)[:6], `22P03 invalid sign in external "numeric" value`},
		{"bad scale", numericBytes(1, 0, 0, 16384, 1), `22P03 invalid scale in external "numeric" value`},
		{"bad digit", numericBytes(1, 0, 0, 0, 10000), `22P03 invalid digit in external "numeric" value`},
		{"bad digit before short", numericBytes(2, 0, 0, 0, 10000), `22P03 invalid digit in external "numeric" value`},
		{"bad NaN digit", numericBytes(1, 0, 0xC000, 0, 10000), `22P03 invalid digit in external "numeric" value`},
		{"bytes left over", append(numericBytes(1, 0, 0, 0, 1), 0), "22P03 incorrect binary data format for type numeric"},
	}
	for _, tc := range tests {
		v, err := DecodeBinary(sqltypes.TypeNumeric, tc.in)
		var got string
		if err != nil {
			pe := pgerr.As(err)
			got = pe.Code.String() + " " + pe.Message
		} else {
			s := sqltypes.FormatText(v)
			got = fmt.Sprintf("%d:%s:%s", len(s), s[:min(10, len(s))], s[max(0, len(s)-10):])
			// What was read goes back out as numeric_send writes it and
			// reads back the same.
			out, err := AppendBinary(nil, sqltypes.TypeNumeric, v)
			if err != nil {
				t.Errorf("%s: send: %v", tc.name, err)
			} else if back, err := DecodeBinary(sqltypes.TypeNumeric, out); err != nil || sqltypes.FormatText(back) != s {
				t.Errorf("%s: send and recv: %v", tc.name, err)
			}
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestDecodeBinaryNewTypeErrors(t *testing.T) {
	tests := []struct {
		t    sqltypes.Type
		in   []byte
		code string
	}{
		// numeric_recv's pq_getmsgint runs out of bytes: 08P01.
		{sqltypes.TypeNumeric, []byte{0, 1, 0, 0}, pgerr.ProtocolViolation.String()},
		{sqltypes.TypeNumeric, []byte{0, 1, 0, 0, 0x12, 0, 0, 0, 0, 1}, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeNumeric, []byte{0, 1, 0, 0, 0, 0, 0, 0, 0x27, 0x10}, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeNumeric, []byte{0xff, 0xff, 0, 0, 0, 0, 0, 0}, pgerr.ProtocolViolation.String()},
		{sqltypes.TypeInterval, make([]byte, 15), pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeJSONB, []byte("{}"), pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeJSONB, []byte("\x01{"), pgerr.InvalidTextRepresentation.String()},
		{sqltypes.TypeJSON, []byte("nope"), pgerr.InvalidTextRepresentation.String()},
		{sqltypes.Type{ID: sqltypes.BPChar, Width: 1}, []byte("ab"), pgerr.StringDataRightTruncation.String()},
		{sqltypes.ArrayOf(sqltypes.TypeInt4), []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 23}, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.ArrayOf(sqltypes.TypeInt4), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20}, pgerr.DatatypeMismatch.String()},
		{sqltypes.ArrayOf(sqltypes.TypeInt4), []byte{0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 23}, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.ArrayOf(sqltypes.TypeInt4), []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 23, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1}, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeTimestamp, []byte{0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}, pgerr.DatetimeFieldOverflow.String()},
		{sqltypes.TypeDate, []byte{0x7f, 0xff, 0xff, 0xfe}, pgerr.DatetimeFieldOverflow.String()},
	}
	for _, tt := range tests {
		_, err := DecodeBinary(tt.t, tt.in)
		if got := pgerr.CodeOf(err).String(); got != tt.code {
			t.Errorf("DecodeBinary(%s, %x): code %s (%v), want %s", tt.t, tt.in, got, err, tt.code)
		}
	}
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
