package sqltypes

import (
	"runtime"
	"runtime/debug"
	"unsafe"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// PostgreSQL's field limit. No value built in memory (text, bytea, an
// array, json) may exceed MaxAllocSize, 1 GB - 1: palloc refuses more. Each
// way of building a value meets the limit in its own place in PostgreSQL
// and so fails with its own message, and the checks below are those
// places, one function per family, so every builder calls the one that
// matches how PostgreSQL builds that value, and before it allocates: a
// value past the limit must fail without costing the process its size.
//
//   - AppendLimit: a growing buffer (StringInfo) — string_agg, concat,
//     concat_ws, format, replace, json_agg, array_to_string, and every json
//     text (to_json, json_agg, jsonb's output, in jsonOut, whose escaping
//     may grow a string sixfold): 54000 "out of memory" with "Cannot
//     enlarge string buffer containing N bytes by M more bytes.".
//   - LengthLimit: a function that computes its result's length first —
//     repeat, lpad, rpad, translate: 54000 "requested length too large".
//   - AllocLimit: a value allocated at its full size in one request — the
//     || operator of text and bytea, array_agg's growing element array:
//     XX000 "invalid memory alloc request size N".
//   - ArrayElemsLimit / ArrayBytesLimit: an array's element count past
//     MaxArraySize (array_cat, array_append), or its data past
//     MaxAllocSize (ARRAY[...], array_agg): 54000 "array size exceeds the
//     maximum allowed (N)".
//   - JSONBArrayLimit / JSONBObjectLimit: a jsonb container's elements
//     past 256 MB (jsonb_agg, jsonb_object_agg): 54000 "total size of jsonb
//     array (object) elements exceeds the maximum of 268435455 bytes".

// MaxAllocSize is PostgreSQL's MaxAllocSize, the largest value in memory.
const MaxAllocSize = 1<<30 - 1

// MaxArraySize is PostgreSQL's MaxArraySize, the most elements an array
// may have (MaxAllocSize / sizeof(Datum)).
const MaxArraySize = MaxAllocSize / 8

// varHeader is a varlena's header (VARHDRSZ), part of a value's size.
const varHeader = 4

// jsonbMaxContainer is JENTRY_OFFLENMASK, the most bytes of a jsonb
// container's elements.
const jsonbMaxContainer = 1<<28 - 1

// AppendLimit checks appending more bytes to a buffer holding have, as
// PostgreSQL's enlargeStringInfo: the buffer, with its terminating NUL,
// must stay within MaxAllocSize.
func AppendLimit(have, more int64) error {
	if more < 0 || more >= MaxAllocSize-have {
		return enlargeError(have, more)
	}
	return nil
}

// enlargeError is enlargeStringInfo's refusal to append more bytes to a
// buffer holding have: every StringInfo fails with it (json's builders
// too, jsonOut).
func enlargeError(have, more int64) error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "out of memory").
		WithDetail("Cannot enlarge string buffer containing %d bytes by %d more bytes.", have, more)
}

// LengthLimit checks a text or bytea result of n bytes whose length a
// function computed before building it (repeat, lpad): with its header it
// must be a valid allocation.
func LengthLimit(n int64) error {
	if n < 0 || n > MaxAllocSize-varHeader {
		return pgerr.New(pgerr.ProgramLimitExceeded, "requested length too large")
	}
	return nil
}

// AllocLimit checks one allocation of n bytes (a varlena's header
// included), as palloc does.
func AllocLimit(n int64) error {
	if n < 0 || n > MaxAllocSize {
		return pgerr.New(pgerr.InternalError, "invalid memory alloc request size %d", n)
	}
	return nil
}

// ArrayElemsLimit checks an array of n elements.
func ArrayElemsLimit(n int64) error {
	if n < 0 || n > MaxArraySize {
		return pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", MaxArraySize)
	}
	return nil
}

// MaxAccumElems is the most elements an array built one at a time may
// take (array_agg, ARRAY(subquery), string_to_array): PostgreSQL's
// accumArrayResult doubles an array of Datums from 64 entries, so the next
// element past it asks for 2^27 of them, 1 GB, which palloc refuses.
const MaxAccumElems = 1 << 26

// AccumElemsLimit checks an array built one element at a time that has
// reached n elements, as accumArrayResult's growth meets palloc's limit:
// XX000 "invalid memory alloc request size 1073741824".
func AccumElemsLimit(n int64) error {
	if n > MaxAccumElems {
		return AllocLimit(2 * MaxAccumElems * 8)
	}
	return nil
}

// ArrayBytesLimit checks an array whose element data takes n bytes.
func ArrayBytesLimit(n int64) error {
	if n < 0 || n > MaxAllocSize {
		return pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", MaxAllocSize)
	}
	return nil
}

// JSONBArrayLimit checks a jsonb array whose elements take n bytes.
func JSONBArrayLimit(n int64) error {
	if n < 0 || n > jsonbMaxContainer {
		return pgerr.New(pgerr.ProgramLimitExceeded, "total size of jsonb array elements exceeds the maximum of %d bytes", jsonbMaxContainer)
	}
	return nil
}

// JSONBStringLimit checks a string of n bytes, a value's or a key's,
// becoming part of a jsonb value, as PostgreSQL's checkStringLen does
// (jsonb_in, to_jsonb and the jsonb builders and aggregates).
func JSONBStringLimit(n int) error {
	if n > jsonbMaxContainer {
		return pgerr.New(pgerr.ProgramLimitExceeded, "string too long to represent as jsonb string").
			WithDetail("Due to an implementation restriction, jsonb strings cannot exceed %d bytes.", jsonbMaxContainer)
	}
	return nil
}

// JSONBObjectLimit checks a jsonb object whose keys and values take n
// bytes.
func JSONBObjectLimit(n int64) error {
	if n < 0 || n > jsonbMaxContainer {
		return pgerr.New(pgerr.ProgramLimitExceeded, "total size of jsonb object elements exceeds the maximum of %d bytes", jsonbMaxContainer)
	}
	return nil
}

// DatumSize is a lower bound of the bytes v takes in an array or a tuple
// (PostgreSQL's varlena header included for the string kinds), for
// builders that check a limit as they go without rendering each value:
// being a lower bound, it never fails a value PostgreSQL would build.
func DatumSize(v Value) int64 {
	switch v.K {
	case KindNull:
		return 0
	case KindEnum:
		return 4 // the label's OID
	case KindMoney, KindLSN, KindXID8:
		return 8
	case KindTID:
		return 6
	case KindGeo:
		return geoDatumSize(v)
	case KindBit:
		return int64(len(v.S)) + 5 // a short varlena header and the bit count
	case KindText, KindBytes, KindBPChar, KindJSON, KindCitext, KindXML, KindGeometry, KindJSONPath, KindLtree, KindLquery, KindLtxtquery:
		if len(v.S) < 127 {
			return int64(len(v.S)) + 1
		}
		return int64(len(v.S)) + varHeader
	case KindArray:
		var n int64
		for _, e := range v.Array().Elems {
			n += DatumSize(e)
		}
		return n
	case KindJSONB:
		return varHeader + jsonbDatumBytes(v)
	}
	return 4
}

// jsonbDatumBytes is a lower bound of a jsonb's datum past its varlena
// header, exact but for numbers: PostgreSQL's binary form holds a 4-byte
// header for each container (a scalar at the top is an array of one), a
// 4-byte JEntry for each key and each value inside one, and the bytes of
// strings and keys as they are; a number's numeric datum, which may be
// shorter than its text, and the alignment padding count nothing. A
// stored jsonb's normal text is read, not parsed: an escape stands for
// at least one byte.
func jsonbDatumBytes(v Value) int64 {
	if s, ok := storedText(v); ok {
		return storedJSONBBytes(s)
	}
	j := v.JSONB()
	if j == nil {
		return 0
	}
	n, _ := JSONBLimits(j)
	return n
}

// JSONBLimits checks jsonb j's containers against PostgreSQL's limit on
// a container's entries and data (convertToJsonb: 54000 "total size of
// jsonb array elements exceeds ...", or object elements), a scalar at
// the top counting as the array of one it is stored as, and returns
// jsonbDatumBytes of j. Numbers and padding count nothing, so it never
// fails a value PostgreSQL would build.
func JSONBLimits(j *JSONValue) (int64, error) {
	n, err := jsonbContainerBytes(j)
	if err != nil || j.Kind == JSONArray || j.Kind == JSONObject {
		return n, err
	}
	return n + 8, JSONBArrayLimit(n + 8)
}

// jsonbContainerBytes is JSONBLimits below the top: a container's header,
// entries and data, which convertJsonbArray and convertJsonbObject check
// together; a string's bytes.
func jsonbContainerBytes(j *JSONValue) (int64, error) {
	switch j.Kind {
	case JSONArray, JSONObject:
		n := int64(4 * (len(j.Keys) + len(j.Elems)))
		for _, k := range j.Keys {
			n += int64(len(k))
		}
		for i := range j.Elems {
			e, err := jsonbContainerBytes(&j.Elems[i])
			if err != nil {
				return 0, err
			}
			n += e
		}
		n += 4 // the header, which the limit counts with the rest
		if j.Kind == JSONObject {
			if err := JSONBObjectLimit(n); err != nil {
				return 0, err
			}
		} else if err := JSONBArrayLimit(n); err != nil {
			return 0, err
		}
		return n, nil
	case JSONString:
		return int64(len(j.Str)), nil
	}
	return 0, nil
}

// storedJSONBBytes is jsonbDatumBytes of a jsonb's normal text s: a
// string (key or value) is a JEntry and its bytes, a number, true, false
// or null a JEntry, a container a header and, inside another, a JEntry.
func storedJSONBBytes(s string) int64 {
	var n int64
	containers := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			n += 4
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++ // the escape's letter; \uXXXX's digits follow
					if i < len(s) && s[i] == 'u' {
						i += 4
					}
				}
				n++
			}
		case c == '{' || c == '[':
			n += 8 // its header, and its JEntry (taken back at the top)
			containers++
		case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
			if i == 0 || s[i-1] == ' ' || s[i-1] == '[' {
				n += 4
			}
		}
	}
	if containers > 0 && (s[0] == '{' || s[0] == '[') {
		return n - 4 // the top container has no JEntry
	}
	return n + 4 // a top-level scalar: the array of one's header
}

// bufferChunk is the most a Buffer allocates at once: a value grows by
// chunks of it, never by copying what it holds into a buffer twice as big.
const bufferChunk = 64 << 20

// Buffer builds a text or bytea value as PostgreSQL's StringInfo does
// (string_agg): each append is checked against the field limit first
// (AppendLimit), so no value past it is ever built.
//
// Why chunks and collections: a buffer that doubles holds its old copy
// and the new one at each step, and the collector runs when the heap has
// grown --gc-percent (400 by default) since the last collection, so while
// one value grows to 1 GB the heap may reach five times what is live: the
// appended values are often garbage of their own (each row's repeat(...)
// in string_agg(repeat(...), ”)), and what a collection frees stays
// resident until the runtime's scavenger slowly returns it. string_agg of
// a 1.1 GB value grew the process by 3.8 GB. So the buffer grows by chunks
// of bufferChunk (the pieces are joined once, at the end, as PostgreSQL
// copies its buffer into the result), runs a collection every
// bufferChunk appended past the first chunk (a few a value, each marking
// little: the chunks hold no pointers), and hands its memory back to the
// system when it gives up.
//
// Its chunks and the joined value are charged to the large-values gate
// (MakeBytes) for as long as they live, so sessions building values of a
// gigabyte at once meet --all-sessions-memory-limit (53200) rather than
// the machine's memory.
type Buffer struct {
	// What names the value for a refusal's message ("string_agg's
	// value"); "a text value" when empty.
	What string
	full [][]byte // filled chunks
	cur  []byte
	n    int64
}

// what is the value's name for the gate.
func (x *Buffer) what() string {
	if x.What == "" {
		return "a text value"
	}
	return x.What
}

// fail empties the buffer after a refused append and returns err.
func (x *Buffer) fail(err error) error {
	big := x.n >= bufferChunk
	*x = Buffer{What: x.What}
	if big {
		debug.FreeOSMemory()
	}
	return err
}

// Len is the bytes appended.
func (x *Buffer) Len() int64 { return x.n }

// Append appends s, or fails with 54000 before the value passes the field
// limit (the buffer is then emptied: the statement fails).
func (x *Buffer) Append(s string) error {
	if err := AppendLimit(x.n, int64(len(s))); err != nil {
		return x.fail(err)
	}
	for len(s) > 0 {
		if len(x.cur) == cap(x.cur) {
			if len(x.cur) >= bufferChunk {
				next, err := MakeBytes(bufferChunk, x.what())
				if err != nil {
					return x.fail(err)
				}
				x.full = append(x.full, x.cur)
				x.cur = next
				runtime.GC()
			} else {
				// The first chunk doubles, as a small value's buffer.
				c := min(max(2*cap(x.cur), len(x.cur)+len(s), 256), bufferChunk)
				next, err := MakeBytes(int64(c), x.what())
				if err != nil {
					return x.fail(err)
				}
				x.cur = append(next, x.cur...)
			}
		}
		k := min(len(s), cap(x.cur)-len(x.cur))
		x.cur = append(x.cur, s[:k]...)
		s = s[k:]
		x.n += int64(k)
	}
	return nil
}

// String returns what was built so far; the buffer keeps it, so a window
// aggregate may read it after each row and go on appending. The string
// shares the buffer's bytes, which appends never overwrite (they only
// write past what was returned). Chunks are joined into one as they are
// copied, each dropped once copied, so joining never holds the value
// twice over; the join's one allocation may be refused by the gate
// (53200).
func (x *Buffer) String() (string, error) {
	if len(x.full) > 0 {
		out, err := MakeBytes(x.n, x.what())
		if err != nil {
			return "", x.fail(err)
		}
		for i, c := range x.full {
			out = append(out, c...)
			x.full[i] = nil // each chunk goes as soon as it is copied
		}
		out = append(out, x.cur...)
		x.full, x.cur = nil, out
	}
	return unsafe.String(unsafe.SliceData(x.cur), len(x.cur)), nil
}

// RecordLimit checks a row of fields (ROW(...), a whole-row reference) as
// heap_form_tuple's allocation does: the tuple's header (HEAPTUPLESIZE
// and a MAXALIGNed t_hoff, with a null bitmap when a field is NULL) and
// its data, each varlena past a short header aligned to 4 bytes (other
// fields count DatumSize's lower bound, unaligned). A row past the field
// limit is XX000 with the size asked for.
func RecordLimit(fields []Value) error {
	const heapTupleSize, headerSize = 24, 23
	var bound int64
	for _, v := range fields {
		if s, ok := storedText(v); ok {
			bound += 8*int64(len(s)) + 16 // storedJSONBBytes's most, unread
		} else {
			bound += DatumSize(v) + 3
		}
	}
	if bound <= MaxAllocSize/2 {
		return nil // the common case, without reading a stored jsonb's text
	}
	var data int64
	nulls := false
	for _, v := range fields {
		if v.IsNull() {
			nulls = true
			continue
		}
		n := DatumSize(v)
		if n > 127 {
			data = (data + 3) &^ 3
		}
		data += n
	}
	hoff := int64(headerSize)
	if nulls {
		hoff += int64(len(fields)+7) / 8
	}
	hoff = (hoff + 7) &^ 7
	return AllocLimit(heapTupleSize + hoff + data)
}
