package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// binarySample is one value in zproxy's form and in the Go form pgtype
// encodes.
type binarySample struct {
	t     sqltypes.Type
	v     sqltypes.Value
	goVal any
}

const (
	minDay = -719162                     // 0001-01-01 in days since 1970
	maxDay = 2932896                     // 9999-12-31
	minUS  = int64(minDay) * 86400e6     // 0001-01-01 00:00:00
	maxUS  = int64(maxDay+1)*86400e6 - 1 // 9999-12-31 23:59:59.999999
)

// binarySamples returns edge values and n random values of every type.
func binarySamples(r *rand.Rand, n int) []binarySample {
	var out []binarySample
	add := func(t sqltypes.Type, v sqltypes.Value, g any) { out = append(out, binarySample{t, v, g}) }
	ints := []int64{0, 1, -1, math.MinInt16, math.MaxInt16, math.MinInt32, math.MaxInt32, math.MinInt64, math.MaxInt64}
	floats := []float64{0, math.Copysign(0, -1), 1.5, -2.25, math.Inf(1), math.Inf(-1), math.NaN(),
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, math.SmallestNonzeroFloat32}
	for i := 0; i < n; i++ {
		ints = append(ints, int64(r.Uint64()))
		floats = append(floats, math.Float64frombits(r.Uint64()), r.NormFloat64()*1e6)
	}
	for _, i := range ints {
		add(sqltypes.TypeInt2, sqltypes.NewInt(int64(int16(i))), int16(i))
		add(sqltypes.TypeInt4, sqltypes.NewInt(int64(int32(i))), int32(i))
		add(sqltypes.TypeInt8, sqltypes.NewInt(i), i)
	}
	for _, f := range floats {
		add(sqltypes.TypeFloat4, sqltypes.NewFloat(float64(float32(f))), float32(f))
		add(sqltypes.TypeFloat8, sqltypes.NewFloat(f), f)
	}
	add(sqltypes.TypeBool, sqltypes.NewBool(true), true)
	add(sqltypes.TypeBool, sqltypes.NewBool(false), false)
	texts := []string{"", "a", "héllo ✓", "tab\there", "\U0001F600"}
	blobs := [][]byte{{}, {0}, {0xff, 0, 0x80}}
	days := []int64{0, -1, 10957, minDay, maxDay}
	micros := []int64{0, -1, 1, pgEpochUS, minUS, maxUS}
	for i := 0; i < n; i++ {
		var sb []rune
		for j := r.IntN(12); j > 0; j-- {
			c := rune(r.IntN(0x10FFFF-1) + 1)
			if utf8.ValidRune(c) {
				sb = append(sb, c)
			}
		}
		texts = append(texts, string(sb))
		b := make([]byte, r.IntN(40))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		blobs = append(blobs, b)
		days = append(days, minDay+r.Int64N(maxDay-minDay+1))
		micros = append(micros, minUS+r.Int64N(maxUS-minUS+1))
	}
	for _, s := range texts {
		add(sqltypes.TypeText, sqltypes.NewText(s), s)
		add(sqltypes.Type{ID: sqltypes.Varchar}, sqltypes.NewText(s), s)
	}
	for _, b := range blobs {
		add(sqltypes.TypeBytea, sqltypes.NewBytes(b), b)
		if len(b) >= 16 {
			u := [16]byte(b[:16])
			add(sqltypes.TypeUUID, sqltypes.NewUUID(u), u)
		}
	}
	for _, d := range days {
		add(sqltypes.TypeDate, sqltypes.NewDate(d), time.Unix(d*86400, 0).UTC())
	}
	for _, us := range micros {
		ts := sqltypes.TimestampFromUnixMicro(us)
		add(sqltypes.TypeTimestamp, sqltypes.NewTimestamp(ts), time.UnixMicro(us).UTC())
		add(sqltypes.TypeTimestampTZ, sqltypes.NewTimestampTZ(ts), time.UnixMicro(us).UTC())
	}
	return out
}

func sameValue(a, b sqltypes.Value) bool {
	if a.K != b.K {
		return false
	}
	if a.K == sqltypes.KindFloat {
		return math.Float64bits(a.F) == math.Float64bits(b.F) || math.IsNaN(a.F) && math.IsNaN(b.F)
	}
	return a == b
}

// TestBinaryMatchesPgtype uses pgx's own codecs as the oracle for the
// binary formats, in both directions.
func TestBinaryMatchesPgtype(t *testing.T) {
	m := pgtype.NewMap()
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range binarySamples(r, 200) {
		name := fmt.Sprintf("%s %#v", s.t, s.goVal)
		mine, err := AppendBinary(make([]byte, 0, 8), s.t, s.v)
		if err != nil {
			t.Errorf("%s: AppendBinary: %v", name, err)
			continue
		}
		want, err := m.Encode(s.t.OID(), pgtype.BinaryFormatCode, s.goVal, nil)
		if err != nil {
			t.Fatalf("%s: pgtype encode: %v", name, err)
		}
		if s.t.ID == sqltypes.Float8 && math.Float64bits(s.v.F) == goNaN {
			// pgtype sends Go's NaN as it is; PostgreSQL sends C's
			// (e2e TestCopyToBytes), and it is the oracle.
			want = binary.BigEndian.AppendUint64(nil, cNaN)
		}
		if !bytes.Equal(mine, want) {
			t.Errorf("%s: encoded %x, pgtype %x", name, mine, want)
		}
		back, err := DecodeBinary(s.t, want)
		if err != nil || !sameValue(back, s.v) {
			t.Errorf("%s: decoded %#v, %v; want %#v", name, back, err, s.v)
		}
		// pgtype reads what we write.
		switch g := s.goVal.(type) {
		case time.Time:
			var got time.Time
			if err := m.Scan(s.t.OID(), pgtype.BinaryFormatCode, mine, &got); err != nil || !got.Equal(g) {
				t.Errorf("%s: pgtype scanned %v, %v", name, got, err)
			}
		case float64:
			var got float64
			if err := m.Scan(s.t.OID(), pgtype.BinaryFormatCode, mine, &got); err != nil ||
				math.Float64bits(got) != math.Float64bits(g) && !(math.IsNaN(got) && math.IsNaN(g)) {
				t.Errorf("%s: pgtype scanned %v, %v", name, got, err)
			}
		case float32:
			var got float32
			if err := m.Scan(s.t.OID(), pgtype.BinaryFormatCode, mine, &got); err != nil ||
				math.Float32bits(got) != math.Float32bits(g) && !(got != got && g != g) {
				t.Errorf("%s: pgtype scanned %v, %v", name, got, err)
			}
		default:
			var got any
			if err := m.Scan(s.t.OID(), pgtype.BinaryFormatCode, mine, &got); err != nil {
				t.Errorf("%s: pgtype scan: %v", name, err)
			} else if u, ok := got.([16]uint8); ok && u != g {
				t.Errorf("%s: pgtype scanned %v", name, got)
			} else if !ok && fmt.Sprint(got) != fmt.Sprint(g) {
				t.Errorf("%s: pgtype scanned %#v", name, got)
			}
		}
	}
}

func TestAppendBinaryCasts(t *testing.T) {
	tests := []struct {
		t    sqltypes.Type
		v    sqltypes.Value
		want []byte
		code string
	}{
		{t: sqltypes.TypeFloat8, v: sqltypes.NewInt(2), want: []byte{0x40, 0, 0, 0, 0, 0, 0, 0}},
		{t: sqltypes.TypeInt4, v: sqltypes.NewText("12"), want: []byte{0, 0, 0, 12}},
		{t: sqltypes.TypeInt2, v: sqltypes.NewInt(1 << 20), code: pgerr.NumericValueOutOfRange.String()},
		{t: sqltypes.TypeUnknown, v: sqltypes.NewInt(5), want: []byte("5")},
		{t: sqltypes.TypeUUID, v: sqltypes.NewBool(true), code: pgerr.CannotCoerce.String()},
	}
	for _, tt := range tests {
		got, err := AppendBinary(nil, tt.t, tt.v)
		if code := pgerr.CodeOf(err).String(); tt.code != "" && code != tt.code || tt.code == "" && (err != nil || !bytes.Equal(got, tt.want)) {
			t.Errorf("AppendBinary(%s, %#v) = %x, %v", tt.t, tt.v, got, err)
		}
	}
}

func TestDecodeBinaryErrors(t *testing.T) {
	tests := []struct {
		t    sqltypes.Type
		in   []byte
		code string
	}{
		{sqltypes.TypeInt4, []byte{1, 2, 3}, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeInt8, nil, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeBool, []byte{}, pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeUUID, make([]byte, 15), pgerr.InvalidBinaryRepresentation.String()},
		{sqltypes.TypeText, []byte{0xff, 0xfe}, pgerr.CharacterNotInRepertoire.String()},
		// ±infinity decode (TestBinaryMatchesPostgres); just inside them is
		// past what zproxy's µs from 1970 can hold.
		{sqltypes.TypeDate, []byte{0x7f, 0xff, 0xff, 0xfe}, pgerr.DatetimeFieldOverflow.String()},
		{sqltypes.TypeTimestamp, []byte{0x80, 0, 0, 0, 0, 0, 0, 1}, pgerr.DatetimeFieldOverflow.String()},
		{sqltypes.TypeTimestampTZ, []byte{0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}, pgerr.DatetimeFieldOverflow.String()},
	}
	for _, tt := range tests {
		_, err := DecodeBinary(tt.t, tt.in)
		if got := pgerr.CodeOf(err).String(); got != tt.code {
			t.Errorf("DecodeBinary(%s, %x): code %s (%v), want %s", tt.t, tt.in, got, err, tt.code)
		}
	}
}

// fuzzTypes are the types FuzzDecodeBinary picks from by its first byte.
var fuzzTypes = func() []sqltypes.Type {
	var ts []sqltypes.Type
	for _, t := range sqltypes.AllTypes() {
		ts = append(ts, t, sqltypes.ArrayOf(t))
	}
	ts = append(ts, sqltypes.SystemTypes()...)
	return append(ts, sqltypes.TypeUnknown, sqltypes.NumericType(6, 2), sqltypes.Type{ID: sqltypes.BPChar, Width: 3},
		sqltypes.IntervalType(sqltypes.IntervalDay, -1))
}()

// FuzzDecodeBinary feeds arbitrary bytes to the binary decoders: they never
// panic, fail only with the documented codes, and what they accept encodes
// back to the same bytes (or, where the input may carry what PostgreSQL
// normalizes away, to bytes that decode to the same value).
func FuzzDecodeBinary(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	index := map[sqltypes.Type]uint8{}
	for i, t := range fuzzTypes {
		index[t] = uint8(i)
	}
	for _, s := range binarySamples(r, 2) {
		b, err := AppendBinary(nil, s.t, s.v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(index[s.t], b)
	}
	for _, c := range binaryPGCases {
		typ, _ := sqltypes.ParseTypeName(strings.TrimPrefix(c[0], "array:"))
		if strings.HasPrefix(c[0], "array:") {
			typ = sqltypes.ArrayOf(typ)
		}
		b, _ := hex.DecodeString(c[2])
		if i, ok := index[typ]; ok {
			f.Add(i, b)
		}
	}
	f.Add(index[sqltypes.TypeInt4], []byte{1})
	f.Add(index[sqltypes.TypeNumeric], numericBytes(2, 32767, 0, 0, 9999, 9999)) // PostgreSQL's largest weight
	f.Add(index[sqltypes.TypeNumeric], numericBytes(2, -32768, 0x4000, 3, 1, 2)) // all digits hidden by the scale
	f.Add(index[sqltypes.TypeText], []byte{0xc3})
	f.Add(index[sqltypes.TypeChar], []byte{0xc3}) // "char" takes any byte, printed \303
	f.Add(index[sqltypes.TypeDate], []byte{0x80, 0, 0, 0})
	f.Add(index[sqltypes.Type{ID: sqltypes.VarBit}], []byte{0, 0, 0, 3, 0xff}) // pad bits set
	f.Add(index[sqltypes.Type{ID: sqltypes.Bit}], []byte{0, 0, 0, 9, 0xff})    // a byte short
	f.Add(index[sqltypes.Type{ID: sqltypes.Bit}], []byte{0xff, 0, 0, 1, 0})    // negative length
	f.Add(index[sqltypes.Type{ID: sqltypes.Money}], []byte{0, 1})
	f.Add(index[sqltypes.Type{ID: sqltypes.XML}], []byte("<a>"))                               // not well-formed
	f.Add(index[sqltypes.Type{ID: sqltypes.XML}], []byte(`<?xml version="1.0"?><a/><!--c-->`)) // declaration dropped
	f.Add(index[sqltypes.Type{ID: sqltypes.TID}], []byte{0, 0, 0, 1, 0})                       // a byte short
	f.Add(index[sqltypes.TypeJSONPath], []byte("\x01$.a ? (@ > 1)"))                           // printed canonically
	f.Add(index[sqltypes.TypeJSONPath], []byte("\x02$"))                                       // unknown version
	f.Add(index[sqltypes.Type{ID: sqltypes.PgLSN}], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add(index[sqltypes.Type{ID: sqltypes.XID}], []byte{0xff, 0xff, 0xff, 0xff})
	f.Add(index[sqltypes.Type{ID: sqltypes.GeoPath}], []byte{1, 0, 0, 0, 0})                                    // no points
	f.Add(index[sqltypes.Type{ID: sqltypes.GeoPolygon}], []byte{0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0})            // points missing
	f.Add(index[sqltypes.Type{ID: sqltypes.GeoLine}], make([]byte, 24))                                         // A and B zero
	f.Add(index[sqltypes.Type{ID: sqltypes.GeoCircle}], append(make([]byte, 16), 0xbf, 0xf0, 0, 0, 0, 0, 0, 0)) // radius -1
	f.Fuzz(func(t *testing.T, id uint8, data []byte) {
		typ := fuzzTypes[int(id)%len(fuzzTypes)]
		v, err := DecodeBinary(typ, data)
		if err != nil {
			switch code := pgerr.CodeOf(err); code {
			case pgerr.InvalidBinaryRepresentation, pgerr.DatetimeFieldOverflow, pgerr.CharacterNotInRepertoire,
				pgerr.NumericValueOutOfRange, pgerr.InvalidTextRepresentation, pgerr.DatatypeMismatch,
				pgerr.StringDataRightTruncation, pgerr.ProgramLimitExceeded, pgerr.UntranslatableCharacter, pgerr.StatementTooComplex, pgerr.NameTooLong, pgerr.InvalidTimeZoneDisplacementValue,
				// As PostgreSQL's pq_getmsg* in a type's recv function: a short
				// buffer is 08P01 (an ERROR, the connection stays), an hstore
				// key of length -1 is 22004; a range's bounds out of order
				// are 22000; xml_recv checks the text is well-formed content.
				pgerr.ProtocolViolation, pgerr.NullValueNotAllowed, pgerr.DataException, pgerr.InvalidXMLContent,
				// jsonpath_recv parses the text (42601 and the like_regex
				// errors) after its version byte (XX000 for another).
				pgerr.SyntaxError, pgerr.InvalidRegularExpression, pgerr.FeatureNotSupported, pgerr.InternalError:
			default:
				t.Fatalf("DecodeBinary(%s, %x): code %s: %v", typ, data, code, err)
			}
			return
		}
		out, err := AppendBinary(nil, typ, v)
		if err != nil {
			t.Fatalf("re-encoding %s as %s: %v", sqltypes.FormatText(v), typ, err)
		}
		switch {
		case typ.ID == sqltypes.Bool:
			if out[0] != 0 != (data[0] != 0) {
				t.Fatalf("bool %x re-encoded as %x", data, out)
			}
		case typ.ID == sqltypes.Float4 || typ.ID == sqltypes.Float8:
			if !math.IsNaN(v.F) && !bytes.Equal(out, data) {
				t.Fatalf("%s %x re-encoded as %x", typ, data, out)
			}
		case typ.ID == sqltypes.Numeric || typ.ID == sqltypes.JSONB || typ.ID == sqltypes.JSON ||
			typ.ID == sqltypes.Array || typ.ID == sqltypes.BPChar || typ.ID == sqltypes.Interval ||
			typ.ID == sqltypes.Int2Vector || typ.ID == sqltypes.OidVector || typ.ID == sqltypes.Hstore ||
			typ.ID == sqltypes.Bit || typ.ID == sqltypes.VarBit || typ.IsRange() || typ.IsMultirange() ||
			typ.Kind() == sqltypes.KindInet || typ.ID == sqltypes.MacAddr8 || typ.ID == sqltypes.GeoBox ||
			typ.ID == sqltypes.GeoPath:
			// Zero digits, json spacing, array flags, float NaNs,
			// element forms, hstore's pairs (any negative length is a
			// NULL value; keys are sorted and deduplicated), a bit
			// string's pad bits (bit_recv clears them), a range's flags
			// and a discrete range's bounds (range_recv canonicalises
			// them), a multirange's ranges (multirange_recv sorts and
			// merges them), inet's is_cidr byte (the type's on the way
			// out) and a macaddr8 (which reads a 6-byte EUI-48 too) may
			// be written in more than one way; box_recv reorders a box's
			// corners, and path_recv reads any byte but 0 as closed.
			back, err := DecodeBinary(typ, out)
			if err != nil || !sqltypes.Equal(back, v) || sqltypes.FormatText(back) != sqltypes.FormatText(v) {
				t.Fatalf("%s %x -> %x -> %v", typ, data, out, err)
			}
		case typ.ID == sqltypes.XML || typ.ID == sqltypes.JSONPath || typ.Elem == sqltypes.JSONPath:
			// xml_send writes xml_out's text: a version 1.0 declaration
			// is dropped, so only the text must survive; jsonpath_send
			// writes the canonical text of the path read.
			back, err := DecodeBinary(typ, out)
			if err != nil || sqltypes.FormatText(back) != sqltypes.FormatText(v) {
				t.Fatalf("%s %x -> %x -> %v", typ, data, out, err)
			}
		case !bytes.Equal(out, data):
			t.Fatalf("%s %x re-encoded as %x", typ, data, out)
		}
	})
}

func BenchmarkDataRow(b *testing.B) {
	c := &conn{}
	cols := []Column{{Type: sqltypes.TypeInt8}, {Type: sqltypes.TypeText}, {Type: sqltypes.TypeFloat8}, {Type: sqltypes.TypeTimestamp}}
	row := []sqltypes.Value{sqltypes.NewInt(123456), sqltypes.NewText("some text"), sqltypes.NewFloat(21.5), sqltypes.NewTimestamp(sqltypes.TimestampFromUnixMicro(1704103200000000))}
	for _, formats := range [][]int16{nil, {formatBinary}} {
		b.Run(fmt.Sprintf("formats=%v", formats), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.encodeRow(cols, formats, row); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The row sent: encoded into the send buffer (emptied now and
		// then, as a flush does).
		b.Run(fmt.Sprintf("send/formats=%v", formats), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(c.wbuf) > 32<<10 {
					c.wbuf = c.wbuf[:0]
				}
				if err := c.sendDataRow(cols, formats, row); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSendDataRowAllocs: a row sent as a DataRow costs no allocation once
// the connection's buffers have grown (the message is the connection's
// own, encoded at once).
func TestSendDataRowAllocs(t *testing.T) {
	c := &conn{}
	cols := []Column{{Type: sqltypes.TypeInt8}, {Type: sqltypes.TypeTimestampTZ}, {Type: sqltypes.TypeFloat8}}
	row := []sqltypes.Value{sqltypes.NewInt(123456), {K: sqltypes.KindTimestampTZ, I: 1704103200000000}, sqltypes.NewFloat(21.5)}
	send := func() {
		c.wbuf = c.wbuf[:0]
		if err := c.sendDataRow(cols, nil, row); err != nil {
			t.Fatal(err)
		}
	}
	send()
	if n := testing.AllocsPerRun(100, send); n != 0 {
		t.Errorf("%v allocations a row, want 0", n)
	}
	if len(c.wbuf) == 0 || c.wbuf[0] != 'D' {
		t.Fatalf("sent %q, want a DataRow", c.wbuf)
	}
}
