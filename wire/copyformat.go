package wire

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// CopyFormat is the layout of COPY's data: PostgreSQL's text, CSV or binary
// format with the options of the statement, as the session resolved them.
type CopyFormat struct {
	Binary bool
	CSV    bool
	// Delimiter separates fields (tab in text, ',' in CSV); Null is the
	// NULL marker (\N in text, the empty string in CSV).
	Delimiter byte
	Null      string
	// Header: the first line names the columns (skipped on input; checked
	// against the columns with HeaderMatch).
	Header      bool
	HeaderMatch bool
	// Quote and Escape are CSV's quote and escape characters.
	Quote  byte
	Escape byte
	// Per column: FORCE_QUOTE (output), FORCE_NOT_NULL and FORCE_NULL
	// (input); nil means none.
	ForceQuote   []bool
	ForceNotNull []bool
	ForceNull    []bool
	// Table names the relation in CONTEXT lines ("COPY t, line 3").
	Table string
	// Columns are the columns copied: their names (header, errors) and
	// types (how fields convert).
	Columns []Column
	// Encoding is the encoding of text and CSV data (COPY's ENCODING
	// option, PostgreSQL's name for it); empty: the client's.
	Encoding string
}

// binarySignature starts a binary COPY stream.
var binarySignature = []byte("PGCOPY\n\377\r\n\000")

// maxCopyDisplay is how much of a line or value CONTEXT quotes
// (PostgreSQL's MAX_COPY_DATA_DISPLAY).
const maxCopyDisplay = 100

// copyDecoder turns the bytes of COPY FROM STDIN, in whatever chunks they
// arrive, into rows of values (copyfromparse.c's rules).
type copyDecoder struct {
	f     *CopyFormat
	style sqltypes.Style // the session's TimeZone and DateStyle values are read in
	buf   []byte         // bytes not yet decoded
	// line counts input lines (rows in binary) as CONTEXT numbers them.
	line int64
	// eol is the line ending the first line used: "\n", "\r\n" or "\r".
	eol         string
	headerDone  bool
	binHeader   bool // the binary header has been read
	done        bool // \. or the binary trailer was seen
	fields      []field
	unescaped   []byte
	fieldValues []sqltypes.Value
	// resume is how far into the incomplete line left in buf lineEnd has
	// looked (0: not at all), and resumeQuote whether it was inside a CSV
	// quote there: the next feed goes on from there, so a long line costs
	// its length once, not once per CopyData message.
	resume      int
	resumeQuote bool
}

// field is one field of a line: its raw bytes and its value after
// unescaping (null reports the NULL marker).
type field struct {
	raw    []byte
	val    []byte
	null   bool
	quoted bool
}

// copyRow is one decoded row with the line it came from.
type copyRow struct {
	vals []sqltypes.Value
	line int64
	text string // the line, for CONTEXT (text and CSV)
}

// copyError builds an error of the COPY at a line, with PostgreSQL's
// CONTEXT: "COPY t, line N", optionally followed by ", column c: "value""
// or by ": "line"".
func (f *CopyFormat) copyError(pe *pgerr.Error, line int64, col string, quoted string, haveQuote bool) *pgerr.Error {
	where := "COPY " + f.Table + ", line " + strconv.FormatInt(line, 10)
	switch {
	case col != "" && haveQuote:
		where += ", column " + col + ": \"" + limitDisplay(quoted) + "\""
	case col != "":
		where += ", column " + col
	case haveQuote:
		where += ": \"" + limitDisplay(quoted) + "\""
	}
	pe.AddContext(where)
	return pe
}

// limitDisplay cuts a value for CONTEXT as limit_printout_length does.
func limitDisplay(s string) string {
	if len(s) <= maxCopyDisplay {
		return s
	}
	cut := maxCopyDisplay
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func badCopy(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.BadCopyFileFormat, format, args...)
}

// feed decodes the complete rows in data (and what was left over before
// it), calling emit for each. last says no more data will come.
func (d *copyDecoder) feed(data []byte, last bool, emit func(copyRow) error) error {
	if d.done {
		return nil // data after the end marker is ignored, as in PostgreSQL
	}
	if len(d.buf) > 0 {
		d.buf = append(d.buf, data...)
		data = d.buf
	}
	var used int
	var err error
	if d.f.Binary {
		used, err = d.feedBinary(data, last, emit)
	} else {
		used, err = d.feedText(data, last, emit)
	}
	if err != nil {
		return err
	}
	rest := data[used:]
	if d.done {
		rest = nil
	}
	d.buf = append(d.buf[:0], rest...)
	return nil
}

// feedText decodes the complete lines of data; it returns how many bytes
// it consumed.
func (d *copyDecoder) feedText(data []byte, last bool, emit func(copyRow) error) (int, error) {
	pos := 0
	for pos < len(data) {
		end, next, ok, err := d.lineEnd(data, pos, last)
		if err != nil {
			return pos, err
		}
		if !ok {
			break
		}
		line := data[pos:end]
		pos = next
		d.line++
		if d.f.CSV && d.eol != "" {
			// Line breaks inside quoted fields count as lines, as in
			// PostgreSQL: a row is numbered by its last line.
			d.line += int64(bytes.Count(line, []byte(d.eol[len(d.eol)-1:])))
		}
		if !d.headerDone && d.f.Header {
			d.headerDone = true
			if err := d.checkHeader(line); err != nil {
				return pos, err
			}
			continue
		}
		d.headerDone = true
		if string(line) == `\.` {
			d.done = true
			return len(data), nil
		}
		row, err := d.parseLine(line)
		if err != nil {
			return pos, err
		}
		if err := emit(row); err != nil {
			return pos, err
		}
	}
	return pos, nil
}

// lineEnd finds the end of the line starting at pos: the end of its
// content, where the next line starts, and whether the line is complete
// (with last, the data's end ends the last line). In CSV a quoted field
// may hold line breaks.
func (d *copyDecoder) lineEnd(data []byte, pos int, last bool) (end, next int, ok bool, err error) {
	inQuote := false
	start := pos
	if d.resume > 0 && pos+d.resume <= len(data) {
		// Only ever the first line of a feed: an incomplete line ends it.
		start, inQuote = pos+d.resume, d.resumeQuote
	}
	d.resume = 0
	// mark is where to resume if the line does not end in data: the first
	// byte looked at from two before the end on, whose handling never
	// looked past the end (an escape looks one byte ahead).
	mark, markQuote := -1, false
	for i := start; i < len(data); i++ {
		if mark < 0 && i >= len(data)-2 {
			mark, markQuote = i, inQuote
		}
		c := data[i]
		if d.f.CSV {
			switch {
			case inQuote && c == d.f.Escape && d.f.Escape != d.f.Quote && i+1 < len(data) && (data[i+1] == d.f.Quote || data[i+1] == d.f.Escape):
				i++
				continue
			case c == d.f.Quote:
				inQuote = !inQuote
				continue
			case inQuote:
				continue
			}
		} else if c == '\\' {
			i++ // an escaped character, even an escaped line break
			continue
		}
		if c != '\n' && c != '\r' {
			continue
		}
		eol := "\n"
		if c == '\r' {
			if i+1 >= len(data) && !last {
				d.resume, d.resumeQuote = i-pos, inQuote
				return 0, 0, false, nil // is it \r\n? wait for more
			}
			eol = "\r"
			if i+1 < len(data) && data[i+1] == '\n' {
				eol = "\r\n"
			}
		}
		if d.eol == "" {
			d.eol = eol
		} else if eol != d.eol {
			return 0, 0, false, d.eolError(c)
		}
		return i, i + len(eol), true, nil
	}
	if last && pos < len(data) {
		if d.f.CSV && inQuote {
			return 0, 0, false, d.f.copyError(badCopy("unterminated CSV quoted field"), d.line+1, "", string(data[pos:]), true)
		}
		return len(data), len(data), true, nil
	}
	if mark > pos {
		d.resume, d.resumeQuote = mark-pos, markQuote
	}
	return 0, 0, false, nil
}

// eolError is PostgreSQL's complaint about a line ending unlike the first
// line's.
func (d *copyDecoder) eolError(c byte) error {
	var pe *pgerr.Error
	switch {
	case c == '\r' && d.f.CSV:
		pe = badCopy("unquoted carriage return found in data").WithHint("Use quoted CSV field to represent carriage return.")
	case c == '\r':
		pe = badCopy("literal carriage return found in data").WithHint("Use \"\\r\" to represent carriage return.")
	case d.f.CSV:
		pe = badCopy("unquoted newline found in data").WithHint("Use quoted CSV field to represent newline.")
	default:
		pe = badCopy("literal newline found in data").WithHint("Use \"\\n\" to represent newline.")
	}
	return d.f.copyError(pe, d.line+1, "", "", false)
}

// splitLine cuts a line into fields (text or CSV rules).
func (d *copyDecoder) splitLine(line []byte) ([]field, error) {
	d.fields = d.fields[:0]
	d.unescaped = d.unescaped[:0]
	if d.f.CSV {
		return d.splitCSV(line)
	}
	start := 0
	for i := 0; ; i++ {
		if i < len(line) && line[i] == '\\' {
			i++
			continue
		}
		if i < len(line) && line[i] != d.f.Delimiter {
			continue
		}
		raw := line[start:min(i, len(line))]
		fd := field{raw: raw}
		if string(raw) == d.f.Null {
			fd.null = true
		} else {
			val, err := d.unescape(raw)
			if err != nil {
				return nil, err
			}
			fd.val = val
		}
		d.fields = append(d.fields, fd)
		if i >= len(line) {
			return d.fields, nil
		}
		start = i + 1
	}
}

// unescape resolves text format's backslash sequences.
func (d *copyDecoder) unescape(raw []byte) ([]byte, error) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw, nil
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			out = append(out, c)
			continue
		}
		i++
		c = raw[i]
		switch c {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'v':
			out = append(out, '\v')
		case 'x':
			v, n := 0, 0
			for n < 2 && i+1 < len(raw) && isHex(raw[i+1]) {
				v = v*16 + hexVal(raw[i+1])
				i++
				n++
			}
			if n == 0 {
				out = append(out, 'x')
			} else {
				out = append(out, byte(v))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for n := 1; n < 3 && i+1 < len(raw) && raw[i+1] >= '0' && raw[i+1] <= '7'; n++ {
				v = v*8 + int(raw[i+1]-'0')
				i++
			}
			out = append(out, byte(v))
		default:
			out = append(out, c)
		}
	}
	return out, nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

// splitCSV cuts a CSV line into fields: quoted parts may hold the
// delimiter, line breaks and doubled (or escaped) quotes; an unquoted field
// equal to the NULL string is NULL (FORCE_NULL makes a quoted one NULL too,
// FORCE_NOT_NULL neither).
func (d *copyDecoder) splitCSV(line []byte) ([]field, error) {
	q, e, delim := d.f.Quote, d.f.Escape, d.f.Delimiter
	i := 0
	for {
		start := i
		var val []byte
		quoted := false
		for i < len(line) && line[i] != delim {
			if line[i] != q {
				val = append(val, line[i])
				i++
				continue
			}
			quoted = true
			i++
			for {
				if i >= len(line) {
					return nil, badCopy("unterminated CSV quoted field")
				}
				c := line[i]
				if c == e && i+1 < len(line) && (line[i+1] == q || line[i+1] == e) && (e != q || line[i+1] == q) {
					val = append(val, line[i+1])
					i += 2
					continue
				}
				if c == q {
					i++
					break
				}
				val = append(val, c)
				i++
			}
		}
		raw := line[start:i]
		fd := field{raw: raw, val: val, quoted: quoted}
		if val == nil {
			fd.val = []byte{}
		}
		col := len(d.fields)
		notNull := col < len(d.f.ForceNotNull) && d.f.ForceNotNull[col]
		forceNull := col < len(d.f.ForceNull) && d.f.ForceNull[col]
		switch {
		case !quoted && !notNull && string(raw) == d.f.Null:
			fd.null = true
		case quoted && forceNull && string(val) == d.f.Null:
			fd.null = true
		}
		d.fields = append(d.fields, fd)
		if i >= len(line) {
			return d.fields, nil
		}
		i++ // the delimiter
	}
}

// parseLine turns one line into a row of the copied columns' types.
func (d *copyDecoder) parseLine(line []byte) (copyRow, error) {
	text := string(line)
	fields, err := d.splitLine(line)
	if err != nil {
		if pe := pgerr.As(err); pe != nil {
			return copyRow{}, d.f.copyError(pe, d.line, "", text, true)
		}
		return copyRow{}, err
	}
	cols := d.f.Columns
	if len(cols) == 0 && len(fields) == 1 && len(line) == 0 {
		fields = fields[:0] // COPY of no columns: empty lines
	}
	if len(fields) > len(cols) {
		return copyRow{}, d.f.copyError(badCopy("extra data after last expected column"), d.line, "", text, true)
	}
	if len(fields) < len(cols) {
		return copyRow{}, d.f.copyError(badCopy("missing data for column \"%s\"", cols[len(fields)].Name), d.line, "", text, true)
	}
	vals := make([]sqltypes.Value, len(cols))
	for i, fd := range fields {
		if fd.null {
			vals[i] = sqltypes.Null
			continue
		}
		if err := checkTextBytes(fd.val); err != nil {
			return copyRow{}, d.f.copyError(pgerr.Classify(err), d.line, "", "", false)
		}
		v, err := parseTextIn(cols[i].Type, fd.val, d.style)
		if err != nil {
			return copyRow{}, d.f.copyError(pgerr.Classify(err), d.line, cols[i].Name, string(fd.val), true)
		}
		vals[i] = v
	}
	return copyRow{vals: vals, line: d.line, text: text}, nil
}

// parseTextIn reads a value's text form in a session whose settings are
// st: a timestamptz without an offset is wall-clock time in st.Location,
// ambiguous dates are read in DateStyle's field order.
func parseTextIn(t sqltypes.Type, b []byte, st sqltypes.Style) (sqltypes.Value, error) {
	if t.ID == sqltypes.Unknown {
		return sqltypes.NewText(string(b)), nil
	}
	return sqltypes.ParseTextStyled(t, string(b), st)
}

// checkHeader reads the header line: skipped, or with HEADER MATCH
// compared with the column names.
func (d *copyDecoder) checkHeader(line []byte) error {
	if !d.f.HeaderMatch {
		return nil
	}
	fields, err := d.splitLine(line)
	if err != nil {
		return d.f.copyError(pgerr.Classify(err), d.line, "", string(line), true)
	}
	if len(fields) != len(d.f.Columns) {
		return d.f.copyError(badCopy("wrong number of fields in header line: got %d, expected %d", len(fields), len(d.f.Columns)), d.line, "", string(line), true)
	}
	for i, fd := range fields {
		switch {
		case fd.null:
			return d.f.copyError(badCopy("column name mismatch in header line field %d: got null value (\"%s\"), expected \"%s\"", i+1, fd.raw, d.f.Columns[i].Name), d.line, "", string(line), true)
		case string(fd.val) != d.f.Columns[i].Name:
			return d.f.copyError(badCopy("column name mismatch in header line field %d: got \"%s\", expected \"%s\"", i+1, fd.val, d.f.Columns[i].Name), d.line, "", string(line), true)
		}
	}
	return nil
}

// feedBinary decodes the complete tuples of a binary stream.
func (d *copyDecoder) feedBinary(data []byte, last bool, emit func(copyRow) error) (int, error) {
	pos := 0
	if !d.binHeader {
		if len(data) < len(binarySignature)+8 {
			if last {
				return 0, d.f.copyError(badCopy("COPY file signature not recognized"), 0, "", "", false)
			}
			return 0, nil
		}
		if !bytes.Equal(data[:len(binarySignature)], binarySignature) {
			return 0, d.f.copyError(badCopy("COPY file signature not recognized"), 0, "", "", false)
		}
		switch flags := binary.BigEndian.Uint32(data[len(binarySignature):]); {
		case flags&(1<<16) != 0:
			return 0, d.f.copyError(badCopy("invalid COPY file header (WITH OIDS)"), 0, "", "", false)
		case flags>>17 != 0:
			return 0, d.f.copyError(badCopy("unrecognized critical flags in COPY file header"), 0, "", "", false)
		}
		ext := int(binary.BigEndian.Uint32(data[len(binarySignature)+4:]))
		hdr := len(binarySignature) + 8 + ext
		if ext < 0 || len(data) < hdr {
			if last || ext < 0 {
				return 0, d.f.copyError(badCopy("invalid COPY file header (wrong length)"), 0, "", "", false)
			}
			return 0, nil
		}
		pos, d.binHeader = hdr, true
	}
	cols := d.f.Columns
	for pos+2 <= len(data) {
		n := int(int16(binary.BigEndian.Uint16(data[pos:])))
		if n == -1 {
			d.done = true
			return len(data), nil
		}
		line := d.line + 1
		if n != len(cols) {
			return pos, d.f.copyError(badCopy("row field count is %d, expected %d", n, len(cols)), line, "", "", false)
		}
		p := pos + 2
		complete := true
		vals := make([]sqltypes.Value, len(cols))
		for i := 0; i < n; i++ {
			if p+4 > len(data) {
				complete = false
				break
			}
			size := int(int32(binary.BigEndian.Uint32(data[p:])))
			p += 4
			if size == -1 {
				vals[i] = sqltypes.Null
				continue
			}
			if size < 0 {
				return pos, d.f.copyError(badCopy("invalid field size"), line, cols[i].Name, "", false)
			}
			if p+size > len(data) {
				complete = false
				break
			}
			v, err := DecodeBinary(cols[i].Type, data[p:p+size])
			if err != nil {
				pe := pgerr.Classify(err)
				if pe.Code == pgerr.InvalidBinaryRepresentation {
					pe = pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format")
				}
				return pos, d.f.copyError(pe, line, cols[i].Name, "", false)
			}
			vals[i] = v
			p += size
		}
		if !complete {
			break
		}
		d.line++
		if err := emit(copyRow{vals: vals, line: d.line}); err != nil {
			return p, err
		}
		pos = p
	}
	if last && pos < len(data) {
		// A stream may end without its trailer, but not inside a tuple.
		return pos, d.f.copyError(badCopy("unexpected EOF in COPY data"), d.line+1, "", "", false)
	}
	return pos, nil
}

// copyEncoder writes rows in a COPY TO STDOUT format.
type copyEncoder struct {
	f     *CopyFormat
	style sqltypes.Style // the session's output settings
	// charset is the encoding the rows' text is sent in, nil for UTF8
	// (or binary data).
	charset *pgenc.Encoding
	val     []byte
	// special marks the bytes a value's text form cannot hold as they
	// are: those text format escapes, or those that make CSV quote it.
	special [256]bool
	// plain marks the kinds of value whose text never holds a special
	// byte in this format and these settings (plainKinds): their text
	// goes out as it is appended, not scanned byte by byte for escapes.
	plain [256]bool
}

// plainKinds are the kinds whose text is made of a few known bytes, for
// the encoder to tell whether any of them is special (newCopyEncoder):
// the digits, signs and letters of integers, floats (exponents,
// Infinity, NaN, and %g's form when extra_float_digits rounds), booleans
// and uuids, and of dates and timestamps in the ISO style (the era, the
// zone offset, infinity; the other styles print month and zone names).
var plainKinds = []struct {
	kind     sqltypes.Kind
	alphabet string
	iso      bool // only under DateStyle ISO
}{
	{sqltypes.KindInt, "-0123456789", false},
	{sqltypes.KindFloat, "-+.0123456789eEInfinityNa", false},
	{sqltypes.KindBool, "tf", false},
	{sqltypes.KindUUID, "-0123456789abcdef", false},
	{sqltypes.KindDate, "-+:. 0123456789BCinfty", true},
	{sqltypes.KindTimestamp, "-+:. 0123456789BCinfty", true},
	{sqltypes.KindTimestampTZ, "-+:. 0123456789BCinfty", true},
}

// newCopyEncoder returns an encoder of f's format in a session whose
// output settings are style.
func newCopyEncoder(f *CopyFormat, style sqltypes.Style) *copyEncoder {
	e := &copyEncoder{f: f, style: style}
	if f.CSV {
		for _, c := range []byte{f.Delimiter, f.Quote, '\n', '\r'} {
			e.special[c] = true
		}
	} else {
		for _, c := range []byte{'\\', '\b', '\f', '\n', '\r', '\t', '\v', f.Delimiter} {
			e.special[c] = true
		}
	}
	for _, p := range plainKinds {
		if p.iso && style.Date != sqltypes.DateStyleISO {
			continue
		}
		plain := true
		for i := 0; i < len(p.alphabet); i++ {
			if e.special[p.alphabet[i]] {
				plain = false
			}
		}
		e.plain[p.kind] = plain
	}
	return e
}

// header returns what precedes the rows: the binary header, or a header
// line of column names.
func (e *copyEncoder) header() []byte {
	if e.f.Binary {
		out := append([]byte(nil), binarySignature...)
		return binary.BigEndian.AppendUint64(out, 0) // flags, no extension
	}
	if !e.f.Header {
		return nil
	}
	var out []byte
	for i, c := range e.f.Columns {
		if i > 0 {
			out = append(out, e.f.Delimiter)
		}
		if e.f.CSV {
			out = e.appendCSV(out, []byte(c.Name), false, len(e.f.Columns) == 1)
		} else {
			out = e.appendText(out, []byte(c.Name))
		}
	}
	return append(out, '\n')
}

// trailer returns what follows the rows.
func (e *copyEncoder) trailer() []byte {
	if e.f.Binary {
		return []byte{0xff, 0xff}
	}
	return nil
}

// row appends one row to out.
func (e *copyEncoder) row(out []byte, row []sqltypes.Value) ([]byte, error) {
	cols := e.f.Columns
	if e.f.Binary {
		out = binary.BigEndian.AppendUint16(out, uint16(len(row)))
		for i, v := range row {
			if v.IsNull() {
				out = binary.BigEndian.AppendUint32(out, 0xffffffff)
				continue
			}
			at := len(out)
			out = append(out, 0, 0, 0, 0)
			var err error
			if out, err = AppendBinary(out, cols[i].Type, v); err != nil {
				return out, err
			}
			binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at-4))
		}
		return out, nil
	}
	for i, v := range row {
		if i > 0 {
			out = append(out, e.f.Delimiter)
		}
		if v.IsNull() {
			out = append(out, e.f.Null...)
			continue
		}
		// The value's text goes straight into out; only one that holds a
		// special byte (or, in CSV, needs quotes for another reason) is
		// taken back out and written again, escaped or quoted.
		at := len(out)
		if v.K == sqltypes.KindJSONB {
			// jsonb_out fails past MaxAllocSize as PostgreSQL's does.
			var err error
			if out, err = sqltypes.AppendJSONB(out, v.JSONB()); err != nil {
				return out, err
			}
		} else {
			out = sqltypes.AppendTextStyled(out, cols[i].Type, v, e.style)
		}
		// An integer with a name in S is a reg* value, printed as its
		// name: not plain.
		clean := e.plain[v.K] && (v.K != sqltypes.KindInt || v.S == "")
		if !clean {
			clean = true
			for _, c := range out[at:] {
				if e.special[c] {
					clean = false
					break
				}
			}
		}
		if e.f.CSV {
			force := i < len(e.f.ForceQuote) && e.f.ForceQuote[i]
			if clean && !force && !e.csvNeedsQuote(out[at:], len(row) == 1) {
				continue
			}
			e.val = append(e.val[:0], out[at:]...)
			out = e.appendCSV(out[:at], e.val, force, len(row) == 1)
		} else if !clean {
			e.val = append(e.val[:0], out[at:]...)
			out = e.appendText(out[:at], e.val)
		}
	}
	return append(out, '\n'), nil
}

// csvNeedsQuote reports whether a value without special bytes needs
// quotes anyway: when it equals the NULL string, or is "\." alone in a
// single-column row.
func (e *copyEncoder) csvNeedsQuote(s []byte, single bool) bool {
	return string(s) == e.f.Null || single && string(s) == `\.`
}

// appendText escapes a value as CopyAttributeOutText does: control
// characters by their letters first, then the delimiter and backslash.
func (e *copyEncoder) appendText(out, s []byte) []byte {
	for _, c := range s {
		switch {
		case c == '\\':
			out = append(out, '\\', '\\')
		case c == '\b':
			out = append(out, '\\', 'b')
		case c == '\f':
			out = append(out, '\\', 'f')
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\r':
			out = append(out, '\\', 'r')
		case c == '\t':
			out = append(out, '\\', 't')
		case c == '\v':
			out = append(out, '\\', 'v')
		case c == e.f.Delimiter:
			out = append(out, '\\', c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// appendCSV quotes a value as CopyAttributeOutCSV does: when forced, when
// it equals the NULL string, when it is "\." alone in a single-column row,
// or when it holds the delimiter, the quote or a line break.
func (e *copyEncoder) appendCSV(out, s []byte, force, single bool) []byte {
	q, esc := e.f.Quote, e.f.Escape
	quote := force || e.csvNeedsQuote(s, single)
	if !quote {
		for _, c := range s {
			if c == e.f.Delimiter || c == q || c == '\n' || c == '\r' {
				quote = true
				break
			}
		}
	}
	if !quote {
		return append(out, s...)
	}
	out = append(out, q)
	for _, c := range s {
		if c == q || c == esc {
			out = append(out, esc)
		}
		out = append(out, c)
	}
	return append(out, q)
}
