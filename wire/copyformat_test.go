package wire

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

var copyTestColumns = []Column{
	{Name: "i", Type: sqltypes.TypeInt8},
	{Name: "t", Type: sqltypes.TypeText},
	{Name: "f", Type: sqltypes.TypeFloat8},
	{Name: "b", Type: sqltypes.TypeBool},
	{Name: "ts", Type: sqltypes.TypeTimestamp},
	{Name: "by", Type: sqltypes.TypeBytea},
}

func textFormat() *CopyFormat {
	return &CopyFormat{Delimiter: '\t', Null: `\N`, Table: "t", Columns: copyTestColumns}
}

func csvFormat() *CopyFormat {
	return &CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Table: "t", Columns: copyTestColumns}
}

// decodeAll decodes data fed in chunks of the given sizes (cycled).
func decodeAll(f *CopyFormat, data []byte, chunks []int) ([][]sqltypes.Value, error) {
	d := &copyDecoder{f: f}
	var rows [][]sqltypes.Value
	emit := func(r copyRow) error { rows = append(rows, r.vals); return nil }
	for i := 0; len(data) > 0; i++ {
		n := len(data)
		if len(chunks) > 0 {
			n = min(chunks[i%len(chunks)], n)
		}
		if err := d.feed(data[:n], false, emit); err != nil {
			return rows, err
		}
		data = data[n:]
	}
	return rows, d.feed(nil, true, emit)
}

// randomValue makes values with the characters that need escaping or
// quoting in COPY's formats.
func randomValue(rng *rand.Rand, t sqltypes.Type) sqltypes.Value {
	if rng.IntN(6) == 0 {
		return sqltypes.Null
	}
	switch t.ID {
	case sqltypes.Int8:
		return sqltypes.NewInt(rng.Int64() - rng.Int64())
	case sqltypes.Float8:
		return sqltypes.NewFloat(rng.NormFloat64() * 1e6)
	case sqltypes.Bool:
		return sqltypes.NewBool(rng.IntN(2) == 0)
	case sqltypes.Timestamp:
		return sqltypes.NewTimestamp(rng.Int64N(4e15) - 2e15)
	case sqltypes.Bytea:
		b := make([]byte, rng.IntN(5))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return sqltypes.NewBytes(b)
	}
	parts := []string{"a", "\t", "\n", "\r", "\\", ",", `"`, "'", "\\N", "\\.", "é", " ", "N", ".", "x\x01y", ""}
	var sb strings.Builder
	for n := rng.IntN(5); n > 0; n-- {
		sb.WriteString(parts[rng.IntN(len(parts))])
	}
	return sqltypes.NewText(sb.String())
}

// TestCopyRoundTrip: rows encoded in each format and decoded again, the
// stream cut into random chunks, are the rows we started with.
func TestCopyRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	formats := map[string]*CopyFormat{
		"text":        textFormat(),
		"csv":         csvFormat(),
		"binary":      {Binary: true, Table: "t", Columns: copyTestColumns},
		"csv-escape":  {CSV: true, Delimiter: ';', Quote: '\'', Escape: '\\', Null: "NULL", Table: "t", Columns: copyTestColumns},
		"text-header": {Delimiter: '|', Null: "", Header: true, HeaderMatch: true, Table: "t", Columns: copyTestColumns},
		"csv-header":  {CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Header: true, HeaderMatch: true, Table: "t", Columns: copyTestColumns},
	}
	for name, f := range formats {
		t.Run(name, func(t *testing.T) {
			for trial := 0; trial < 200; trial++ {
				rows := make([][]sqltypes.Value, rng.IntN(6))
				for i := range rows {
					rows[i] = make([]sqltypes.Value, len(copyTestColumns))
					for j, c := range copyTestColumns {
						rows[i][j] = randomValue(rng, c.Type)
						if f.Null == "" && !f.Binary && !f.CSV && rows[i][j].K == sqltypes.KindText && rows[i][j].S == "" {
							rows[i][j] = sqltypes.NewText("e") // '' is NULL when NULL is ''
						}
					}
				}
				enc := newCopyEncoder(f, sqltypes.Style{})
				data := enc.header()
				for _, r := range rows {
					var err error
					if data, err = enc.row(data, r); err != nil {
						t.Fatal(err)
					}
				}
				data = append(data, enc.trailer()...)
				chunks := []int{1 + rng.IntN(7), 1 + rng.IntN(40), len(data)}
				got, err := decodeAll(f, data, chunks)
				if err != nil {
					t.Fatalf("decoding %q: %v", data, err)
				}
				if len(got) != len(rows) {
					t.Fatalf("%q: %d rows, want %d", data, len(got), len(rows))
				}
				for i := range rows {
					for j := range rows[i] {
						if !sqltypes.Identical(got[i][j], rows[i][j]) && !(got[i][j].K == sqltypes.KindFloat && got[i][j].F == rows[i][j].F) {
							t.Fatalf("%q: row %d column %d: got %v, want %v", data, i, j, got[i][j], rows[i][j])
						}
					}
				}
			}
		})
	}
}

// TestCopyDecodeErrors: PostgreSQL's messages and CONTEXT lines.
func TestCopyDecodeErrors(t *testing.T) {
	two := []Column{{Name: "a", Type: sqltypes.TypeInt4}, {Name: "b", Type: sqltypes.TypeText}}
	for _, tc := range []struct {
		name  string
		f     *CopyFormat
		data  string
		code  string
		msg   string
		where string
	}{
		{"missing", textFormat2(two), "1\tx\n2\n", pgerr.BadCopyFileFormat.String(), `missing data for column "b"`, `COPY t, line 2: "2"`},
		{"extra", textFormat2(two), "1\tx\ty\n", pgerr.BadCopyFileFormat.String(), "extra data after last expected column", `COPY t, line 1: "1	x	y"`},
		{"bad int", textFormat2(two), "1\tx\nz\ty\n", pgerr.InvalidTextRepresentation.String(), `invalid input syntax for type integer: "z"`, `COPY t, line 2, column a: "z"`},
		{"mixed line ends", textFormat2(two), "1\tx\r\n2\ty\n", pgerr.BadCopyFileFormat.String(), "literal newline found in data", `COPY t, line 2`},
		{"carriage return", textFormat2(two), "1\tx\n2\ty\r3\tz\n", pgerr.BadCopyFileFormat.String(), "literal carriage return found in data", `COPY t, line 2`},
		{"unterminated", &CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Table: "t", Columns: two}, "1,\"x\n", pgerr.BadCopyFileFormat.String(), "unterminated CSV quoted field", "COPY t, line 1: \"1,\"x\n\""},
		{"header", &CopyFormat{Delimiter: '\t', Null: `\N`, Header: true, HeaderMatch: true, Table: "t", Columns: two}, "a\tc\n", pgerr.BadCopyFileFormat.String(), `column name mismatch in header line field 2: got "c", expected "b"`, `COPY t, line 1: "a	c"`},
		{"signature", &CopyFormat{Binary: true, Table: "t", Columns: two}, "PGCOPY\nxxxxxxxxxxxx", pgerr.BadCopyFileFormat.String(), "COPY file signature not recognized", `COPY t, line 0`},
		{"field count", &CopyFormat{Binary: true, Table: "t", Columns: two}, "PGCOPY\n\377\r\n\000\000\000\000\000\000\000\000\000\000\001", pgerr.BadCopyFileFormat.String(), "row field count is 1, expected 2", `COPY t, line 1`},
		{"bad utf8", textFormat2(two), "1\t\xff\n", pgerr.CharacterNotInRepertoire.String(), `invalid byte sequence for encoding "UTF8": 0xff`, `COPY t, line 1`},
		{"after a multi-line field", &CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Table: "t", Columns: two}, "1,\"x\ny\"\nz,w\n", pgerr.InvalidTextRepresentation.String(), `invalid input syntax for type integer: "z"`, `COPY t, line 3, column a: "z"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeAll(tc.f, []byte(tc.data), []int{3})
			pe := pgerr.As(err)
			if pe == nil || pe.Code.String() != tc.code || pe.Message != tc.msg || pe.Where != tc.where {
				t.Errorf("got %+v, want %s %q %q", pe, tc.code, tc.msg, tc.where)
			}
		})
	}
}

func textFormat2(cols []Column) *CopyFormat {
	return &CopyFormat{Delimiter: '\t', Null: `\N`, Table: "t", Columns: cols}
}

// TestCopyDecodeText covers text format's escapes and end marker, and
// CSV's NULL and FORCE rules, with PostgreSQL's readings.
func TestCopyDecodeText(t *testing.T) {
	two := []Column{{Name: "a", Type: sqltypes.TypeText}, {Name: "b", Type: sqltypes.TypeText}}
	show := func(rows [][]sqltypes.Value) string {
		var parts []string
		for _, r := range rows {
			var cells []string
			for _, v := range r {
				if v.IsNull() {
					cells = append(cells, "NULL")
				} else {
					cells = append(cells, "<"+v.S+">")
				}
			}
			parts = append(parts, strings.Join(cells, ","))
		}
		return strings.Join(parts, ";")
	}
	csv := func() *CopyFormat {
		return &CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Table: "t", Columns: two}
	}
	forced := csv()
	forced.ForceNotNull = []bool{true, false}
	forced.ForceNull = []bool{false, true}
	for _, tc := range []struct {
		f          *CopyFormat
		data, want string
	}{
		{textFormat2(two), "a\\tb\t\\N\n\\x41\\101\\\\\t\\\\N\n", `<a	b>,NULL;<AA\>,<\N>`},
		{textFormat2(two), "x\ty\n\\.\nignored\tafter\n", `<x>,<y>`},
		{textFormat2(two), "x\ty\r\nz\tw\r\n", `<x>,<y>;<z>,<w>`},
		{textFormat2(two), "x\t\n", `<x>,<>`},
		{textFormat2(two), "no newline\tat end", `<no newline>,<at end>`},
		{textFormat2(two), "a\\\nb\tc\n", "<a\nb>,<c>"},
		{csv(), "\"a,b\",\"\"\n,\"x\"\"y\"\n", `<a,b>,<>;NULL,<x"y>`},
		{csv(), "\"multi\nline\",2\n", "<multi\nline>,<2>"},
		{forced, ",\"\"\n", `<>,NULL`},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '\'', Escape: '\\', Null: "N", Table: "t", Columns: two}, "'it\\'s',N\n", `<it's>,NULL`},
	} {
		rows, err := decodeAll(tc.f, []byte(tc.data), []int{2})
		if err != nil {
			t.Errorf("%q: %v", tc.data, err)
			continue
		}
		if got := show(rows); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.data, got, tc.want)
		}
	}
}

// TestCopyEncode: PostgreSQL's output of COPY TO for values that need
// escaping or quoting.
func TestCopyEncode(t *testing.T) {
	two := []Column{{Name: "a", Type: sqltypes.TypeText}, {Name: "b", Type: sqltypes.TypeText}}
	row := []sqltypes.Value{sqltypes.NewText("x\\y\ttab\n"), sqltypes.Null}
	mixed := []Column{{Name: "f", Type: sqltypes.TypeFloat8}, {Name: "g", Type: sqltypes.TypeFloat8}, {Name: "t", Type: sqltypes.TypeText}}
	for _, tc := range []struct {
		f    *CopyFormat
		row  []sqltypes.Value
		want string
	}{
		{textFormat2(two), row, "x\\\\y\\ttab\\n\t\\N\n"},
		{&CopyFormat{Delimiter: ',', Null: `\N`, Columns: two}, []sqltypes.Value{sqltypes.NewText("a,b"), sqltypes.NewText("")}, "a\\,b,\n"},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Columns: two}, row, "\"x\\y\ttab\n\",\n"},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Columns: two}, []sqltypes.Value{sqltypes.NewText(""), sqltypes.NewText(`say "hi"`)}, `"","say ""hi"""` + "\n"},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', ForceQuote: []bool{true, true}, Columns: two}, []sqltypes.Value{sqltypes.NewText("1"), sqltypes.Null}, "\"1\",\n"},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '\\', Columns: two[:1]}, []sqltypes.Value{sqltypes.NewText(`\.`)}, `"\\."` + "\n"},
		// A value's text is written in place and taken back only when it
		// holds a byte to escape or quote, whatever its type (PostgreSQL 15's
		// output for these formats).
		{&CopyFormat{Delimiter: '-', Null: `\N`, Columns: mixed}, []sqltypes.Value{sqltypes.NewFloat(-1.5), sqltypes.NewFloat(1e-7), sqltypes.NewText("x")}, `\-1.5-1e\-07-x` + "\n"},
		{&CopyFormat{CSV: true, Delimiter: 'e', Quote: '"', Escape: '"', Columns: mixed}, []sqltypes.Value{sqltypes.NewFloat(-1.5), sqltypes.NewFloat(1e-7), sqltypes.NewText("x")}, `-1.5e"1e-07"ex` + "\n"},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Null: "12", Columns: []Column{{Name: "i", Type: sqltypes.TypeInt4}, {Name: "t", Type: sqltypes.TypeText}}}, []sqltypes.Value{sqltypes.NewInt(12), sqltypes.NewText("N")}, `"12",N` + "\n"},
	} {
		enc := newCopyEncoder(tc.f, sqltypes.Style{})
		got, err := enc.row(nil, tc.row)
		if err != nil || string(got) != tc.want {
			t.Errorf("got %q (%v), want %q", got, err, tc.want)
		}
	}
	h := newCopyEncoder(&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Header: true, Columns: []Column{{Name: "a,b"}, {Name: "c"}}}, sqltypes.Style{}).header()
	if string(h) != "\"a,b\",c\n" {
		t.Errorf("header %q", h)
	}
}

// FuzzCopyDecode: no input makes the decoders panic, and what they accept
// decodes the same whatever the chunking.
func FuzzCopyDecode(f *testing.F) {
	for _, seed := range []string{"1\tx\n", "\"a,\"\"b\",2\n", "PGCOPY\n\377\r\n\000\000\000\000\000\000\000\000\000\000\002\000\000\000\001A\377\377\377\377\377\377", "a\\\nb\tc\r\n", "\\.\n", "x\t\\x4\\777\n"} {
		f.Add([]byte(seed), uint8(0), uint8(3))
		f.Add([]byte(seed), uint8(1), uint8(1))
		f.Add([]byte(seed), uint8(2), uint8(5))
	}
	two := []Column{{Name: "a", Type: sqltypes.TypeText}, {Name: "b", Type: sqltypes.TypeText}}
	f.Fuzz(func(t *testing.T, data []byte, kind, chunk uint8) {
		formats := []*CopyFormat{
			textFormat2(two),
			{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Table: "t", Columns: two},
			{Binary: true, Table: "t", Columns: two},
		}
		cf := formats[int(kind)%len(formats)]
		whole, errWhole := decodeAll(cf, data, nil)
		parts, errParts := decodeAll(cf, data, []int{1 + int(chunk)%16})
		if (errWhole == nil) != (errParts == nil) {
			t.Fatalf("whole: %v, in chunks: %v", errWhole, errParts)
		}
		if errWhole == nil && len(whole) != len(parts) {
			t.Fatalf("whole: %d rows, in chunks: %d", len(whole), len(parts))
		}
	})
}

// TestCopyStyled: COPY TO prints values in the session's output settings
// and COPY FROM reads dates in its DateStyle field order, as PostgreSQL
// 15 does under DateStyle 'SQL, DMY', extra_float_digits -3 and
// bytea_output escape, TimeZone America/New_York:
//
//	COPY (SELECT 1/3::float8, '2024-03-04'::date, '\x5c0a'::bytea,
//	  '2024-03-04 15:00+00'::timestamptz) TO STDOUT [CSV]
func TestCopyStyled(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	st := sqltypes.Style{Date: sqltypes.DateStyleSQL, Order: sqltypes.DateOrderDMY, RoundFloats: true, ExtraFloatDigits: -3, ByteaEscape: true, Location: ny}
	cols := []Column{{Name: "f", Type: sqltypes.TypeFloat8}, {Name: "d", Type: sqltypes.TypeDate}, {Name: "b", Type: sqltypes.TypeBytea}, {Name: "tz", Type: sqltypes.TypeTimestampTZ}}
	row := []sqltypes.Value{sqltypes.NewFloat(1.0 / 3), sqltypes.NewDate(19786), sqltypes.NewBytes([]byte{0x5c, 0x0a}), sqltypes.NewTimestampTZ(sqltypes.TimestampFromUnixMicro(1709564400000000))}
	for _, tc := range []struct {
		f    *CopyFormat
		want string
	}{
		{&CopyFormat{Delimiter: '\t', Null: `\N`, Columns: cols}, "0.333333333333\t04/03/2024\t\\\\\\\\\\\\012\t04/03/2024 10:00:00 EST\n"},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Columns: cols}, "0.333333333333,04/03/2024,\\\\\\012,04/03/2024 10:00:00 EST\n"},
	} {
		got, err := newCopyEncoder(tc.f, st).row(nil, row)
		if err != nil || string(got) != tc.want {
			t.Errorf("got %q (%v), want %q", got, err, tc.want)
		}
	}
	d := &copyDecoder{f: &CopyFormat{Delimiter: '\t', Null: `\N`, Table: "t", Columns: cols[1:2]}, style: st}
	var got []sqltypes.Value
	if err := d.feed([]byte("04/03/2024\n"), true, func(r copyRow) error { got = r.vals; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].K != sqltypes.KindDate || got[0].I != 19786 {
		t.Errorf("COPY FROM read 04/03/2024 under DMY as %v, want 2024-03-04", got)
	}
}

// TestCopyRanges: range columns (and an array of ranges) through COPY's
// text and CSV forms, as PostgreSQL 15 reads and writes them:
//
//	COPY (SELECT 1, '[1,5]'::int4range, '["2024-01-01 00:00:00+00",)'::tstzrange,
//	  '{"[1.5,2)",empty}'::numrange[], 'empty'::daterange) TO STDOUT [(FORMAT csv)]
func TestCopyRanges(t *testing.T) {
	cols := []Column{{Name: "i", Type: sqltypes.TypeInt4}, {Name: "r", Type: sqltypes.Type{ID: sqltypes.Int4Range}},
		{Name: "t", Type: sqltypes.Type{ID: sqltypes.TstzRange}}, {Name: "n", Type: sqltypes.ArrayOf(sqltypes.Type{ID: sqltypes.NumRange})},
		{Name: "d", Type: sqltypes.Type{ID: sqltypes.DateRange}}}
	for _, tc := range []struct {
		f        *CopyFormat
		in, want string
	}{
		{&CopyFormat{Delimiter: '\t', Null: `\N`, Table: "t", Columns: cols},
			"1\t[1,5]\t[\"2024-01-01 00:00:00+00\",)\t{\"[1.5,2)\",empty}\tempty\n",
			"1\t[1,6)\t[\"2024-01-01 00:00:00+00\",)\t{\"[1.5,2)\",empty}\tempty\n"},
		{&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Table: "t", Columns: cols},
			"1,\"[1,5]\",\"[\"\"2024-01-01 00:00:00+00\"\",)\",\"{\"\"[1.5,2)\"\",empty}\",empty\n",
			"1,\"[1,6)\",\"[\"\"2024-01-01 00:00:00+00\"\",)\",\"{\"\"[1.5,2)\"\",empty}\",empty\n"},
	} {
		rows, err := decodeAll(tc.f, []byte(tc.in), []int{3})
		if err != nil || len(rows) != 1 {
			t.Fatalf("%q: %v, %v", tc.in, rows, err)
		}
		got, err := newCopyEncoder(tc.f, sqltypes.Style{}).row(nil, rows[0])
		if err != nil || string(got) != tc.want {
			t.Errorf("%q: got %q (%v), want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestCopyEncodePlainKinds: a value of a kind the encoder writes without
// scanning (copyEncoder.plain) comes out exactly as the scanning path
// writes it, in every format whose delimiter, quote or NULL string is one
// of the bytes such values hold, and the scan is skipped where nothing
// can need escaping or quoting (the default formats).
func TestCopyEncodePlainKinds(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	values := []sqltypes.Value{
		sqltypes.NewInt(0), sqltypes.NewInt(-42), sqltypes.NewInt(math.MinInt64),
		sqltypes.NewFloat(-1.5), sqltypes.NewFloat(1e-7), sqltypes.NewFloat(1e21), sqltypes.NewFloat(math.Inf(-1)), sqltypes.NewFloat(math.NaN()),
		sqltypes.NewBool(true), sqltypes.NewBool(false),
		sqltypes.NewUUID([16]byte{0xde, 0xad, 0xbe, 0xef, 9: 0xa0}),
		sqltypes.NewDate(19786), sqltypes.NewDate(sqltypes.MinDate), sqltypes.NewDate(sqltypes.DateInfinity),
		sqltypes.NewTimestamp(sqltypes.MinTimestamp), sqltypes.NewTimestamp(1709564400123456), sqltypes.NewTimestamp(sqltypes.TimestampNegInfinity),
		sqltypes.NewTimestampTZ(1709564400000000), sqltypes.NewTimestampTZ(sqltypes.TimestampInfinity),
	}
	cols := make([]Column, len(values))
	for i, v := range values {
		cols[i] = Column{Name: "c", Type: sqltypes.TypeText}
		switch v.K {
		case sqltypes.KindInt:
			cols[i].Type = sqltypes.TypeInt8
		case sqltypes.KindFloat:
			cols[i].Type = sqltypes.TypeFloat8
		case sqltypes.KindBool:
			cols[i].Type = sqltypes.TypeBool
		case sqltypes.KindUUID:
			cols[i].Type = sqltypes.TypeUUID
		case sqltypes.KindDate:
			cols[i].Type = sqltypes.TypeDate
		case sqltypes.KindTimestamp:
			cols[i].Type = sqltypes.TypeTimestamp
		case sqltypes.KindTimestampTZ:
			cols[i].Type = sqltypes.TypeTimestampTZ
		}
	}
	var formats []*CopyFormat
	for _, c := range []byte("\t,-+.:e EInfinityNaBCtfabcdef0123456789") {
		formats = append(formats, &CopyFormat{Delimiter: c, Null: `\N`, Columns: cols},
			&CopyFormat{CSV: true, Delimiter: c, Quote: '"', Escape: '"', Columns: cols},
			&CopyFormat{CSV: true, Delimiter: ',', Quote: c, Escape: c, Columns: cols},
			&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Null: string(c), Columns: cols})
	}
	formats = append(formats, &CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Null: "-42", Columns: cols},
		&CopyFormat{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Null: "t", Columns: cols})
	styles := []sqltypes.Style{{}, {Location: ny}, {Date: sqltypes.DateStyleSQL, Order: sqltypes.DateOrderDMY, Location: ny},
		{Date: sqltypes.DateStylePostgres}, {Date: sqltypes.DateStyleGerman}, {RoundFloats: true, ExtraFloatDigits: -3}}
	for _, st := range styles {
		for _, f := range formats {
			enc := newCopyEncoder(f, st)
			ref := newCopyEncoder(f, st)
			ref.plain = [256]bool{} // every value scanned
			for i, v := range values {
				row := []sqltypes.Value{v}
				one := *f
				one.Columns = cols[i : i+1]
				enc.f, ref.f = &one, &one
				got, err1 := enc.row(nil, row)
				want, err2 := ref.row(nil, row)
				if err1 != nil || err2 != nil || string(got) != string(want) {
					t.Errorf("style %+v, format %+v, %v: got %q (%v), want %q (%v)", st, one, v, got, err1, want, err2)
				}
			}
		}
	}
	for _, f := range []*CopyFormat{{Delimiter: '\t', Null: `\N`}, {CSV: true, Delimiter: ',', Quote: '"', Escape: '"'}} {
		enc := newCopyEncoder(f, sqltypes.Style{})
		for _, k := range []sqltypes.Kind{sqltypes.KindInt, sqltypes.KindFloat, sqltypes.KindBool, sqltypes.KindUUID, sqltypes.KindDate, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ} {
			if !enc.plain[k] {
				t.Errorf("CSV %v: kind %d is scanned for special bytes", f.CSV, k)
			}
		}
		if enc.plain[sqltypes.KindText] {
			t.Errorf("CSV %v: text is not scanned", f.CSV)
		}
	}
	if enc := newCopyEncoder(&CopyFormat{Delimiter: ':', Null: `\N`}, sqltypes.Style{}); enc.plain[sqltypes.KindTimestamp] || !enc.plain[sqltypes.KindInt] {
		t.Errorf("delimiter ':': plain timestamps %v, ints %v", enc.plain[sqltypes.KindTimestamp], enc.plain[sqltypes.KindInt])
	}
}
