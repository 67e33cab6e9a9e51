package sqltypes

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// ArrayValue is a PostgreSQL array: elements in row-major order with the
// length and lower bound of each dimension. A zero-dimensional array
// (Dims empty) is the empty array '{}'. Arrays are immutable once built.
type ArrayValue struct {
	Elem  Type    // element type, modifiers included
	Dims  []int32 // length of each dimension
	Lower []int32 // lower bound of each dimension; nil means all 1
	Elems []Value // len = product of Dims
	// Vector marks an int2vector or oidvector (oidtypes.go): one
	// dimension with lower bound 0, printed space-separated.
	Vector bool
	// Record marks a row value (oidtypes.go): its elements are the
	// fields, printed as (a,b).
	Record bool
	// FieldTypes are a record's fields' types when known (composite.go).
	FieldTypes []Type
}

// MaxArrayDims is PostgreSQL's MAXDIM.
const MaxArrayDims = 6

// NewArray1 returns a one-dimensional array value of elem with the given
// elements (ARRAY[...], array_agg).
func NewArray1(elem Type, elems []Value) Value {
	a := &ArrayValue{Elem: elem, Elems: elems}
	if len(elems) > 0 {
		a.Dims = []int32{int32(len(elems))}
	}
	return NewArray(a)
}

// LowerBound returns the lower bound of dimension d (from 0).
func (a *ArrayValue) LowerBound(d int) int32 {
	if a.Lower == nil {
		return 1
	}
	return a.Lower[d]
}

func (a *ArrayValue) defaultBounds() bool {
	for _, l := range a.Lower {
		if l != 1 {
			return false
		}
	}
	return true
}

func malformedArray(s, detail string, args ...any) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed array literal: %q", s).WithDetail(detail, args...)
}

func isArraySpace(c byte) bool { return isPGSpace(c) }

// ParseArray parses PostgreSQL array input ('{1,2,NULL}', '{{1,2},{3,4}}',
// '[0:1]={a,b}', quoted and backslash-escaped elements) with elements of
// type elem, whose modifiers apply to every element.
func ParseArray(s string, elem Type) (*ArrayValue, error) {
	return parseArrayStyled(s, elem, Style{})
}

// parseArrayStyled is ParseArray with elements read in a session whose
// settings are st (ParseTextStyled).
func parseArrayStyled(s string, elem Type, st Style) (*ArrayValue, error) {
	p := 0
	skip := func() {
		for p < len(s) && isArraySpace(s[p]) {
			p++
		}
	}
	skip()
	var lower, upper []int32
	explicit := false
	if p < len(s) && s[p] == '[' {
		explicit = true
		for p < len(s) && s[p] == '[' {
			p++
			lo, hi, n, ok := parseDimBounds(s[p:])
			if !ok {
				return nil, malformedArray(s, "\"[\" must introduce explicitly-specified array dimensions.")
			}
			p += n
			if hi < lo-1 {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "upper bound cannot be less than lower bound")
			}
			lower, upper = append(lower, lo), append(upper, hi)
			if len(lower) > MaxArrayDims {
				return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(lower), MaxArrayDims)
			}
			skip()
		}
		if !strings.HasPrefix(s[p:], "=") {
			return nil, malformedArray(s, "Missing \"=\" after array dimensions.")
		}
		p++
		skip()
	}
	if p >= len(s) || s[p] != '{' {
		return nil, malformedArray(s, "Array value must start with \"{\" or dimension information.")
	}
	ap := arrayParser{s: s, p: p, delim: elem.ArrayDelim(), elem: elem, st: st}
	if err := ap.parse(); err != nil {
		return nil, err
	}
	for ap.p < len(s) && isArraySpace(s[ap.p]) {
		ap.p++
	}
	if ap.p != len(s) {
		return nil, malformedArray(s, "Junk after closing right brace.")
	}
	a := &ArrayValue{Elem: elem, Dims: ap.dims, Elems: ap.elems}
	if len(ap.elems) == 0 {
		a.Dims = nil
	}
	if explicit {
		if len(lower) != len(a.Dims) {
			return nil, malformedArray(s, "Specified array dimensions do not match array contents.")
		}
		for i := range lower {
			if upper[i]-lower[i]+1 != a.Dims[i] {
				return nil, malformedArray(s, "Specified array dimensions do not match array contents.")
			}
		}
		if !(&ArrayValue{Lower: lower}).defaultBounds() {
			a.Lower = lower
		}
	}
	return a, nil
}

// parseDimBounds reads "lo:hi]" or "hi]" after a '['.
func parseDimBounds(s string) (lo, hi int32, n int, ok bool) {
	num := func(i int) (int32, int, bool) {
		j := i
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return 0, i, false
		}
		v, err := strconv.ParseInt(s[i:k], 10, 32)
		return int32(v), k, err == nil
	}
	a, i, ok := num(0)
	if !ok {
		return 0, 0, 0, false
	}
	lo, hi = 1, a
	if i < len(s) && s[i] == ':' {
		b, j, ok := num(i + 1)
		if !ok {
			return 0, 0, 0, false
		}
		lo, hi, i = a, b, j
	}
	if i >= len(s) || s[i] != ']' {
		return 0, 0, 0, false
	}
	return lo, hi, i + 1, true
}

type arrayParser struct {
	s     string
	p     int
	delim byte // the element separator (ArrayDelim)
	elem  Type
	st    Style // the session's settings elements are read in
	dims  []int32
	elems []Value
}

// parse reads the brace structure, checking that sub-arrays match.
func (ap *arrayParser) parse() error {
	const (
		afterOpen = iota
		afterItem
		afterComma
	)
	s := ap.s
	depth, ndims := 0, 0
	var counts [MaxArrayDims + 1]int32
	var dims [MaxArrayDims]int32
	state := afterComma
	for {
		for ap.p < len(s) && isArraySpace(s[ap.p]) {
			ap.p++
		}
		if ap.p >= len(s) {
			return malformedArray(s, "Unexpected end of input.")
		}
		switch c := s[ap.p]; {
		case c == '{':
			if state == afterItem || ndims > 0 && depth >= ndims {
				return malformedArray(s, "Unexpected \"{\" character.")
			}
			if depth == MaxArrayDims {
				return pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", depth+1, MaxArrayDims)
			}
			depth++
			counts[depth] = 0
			ap.p++
			state = afterOpen
		case c == '}':
			if depth == 0 || state == afterComma {
				return malformedArray(s, "Unexpected \"}\" character.")
			}
			ap.p++
			if state == afterOpen {
				// Empty braces are only the whole empty array '{}'.
				if depth != 1 || ndims > 0 {
					return malformedArray(s, "Unexpected \"}\" character.")
				}
				return nil
			}
			if ndims == 0 {
				ndims = depth
			}
			if n := counts[depth]; dims[depth-1] == 0 {
				dims[depth-1] = n
			} else if dims[depth-1] != n {
				return malformedArray(s, "Multidimensional arrays must have sub-arrays with matching dimensions.")
			}
			depth--
			if depth == 0 {
				ap.dims = append([]int32(nil), dims[:ndims]...)
				return nil
			}
			counts[depth]++
			state = afterItem
		case c == ap.delim:
			if state != afterItem {
				return malformedArray(s, "Unexpected \",\" character.")
			}
			ap.p++
			state = afterComma
		default:
			if state == afterItem {
				return malformedArray(s, "Unexpected array element.")
			}
			if ndims == 0 {
				ndims = depth
			} else if depth != ndims {
				return malformedArray(s, "Multidimensional arrays must have sub-arrays with matching dimensions.")
			}
			v, err := ap.element()
			if err != nil {
				return err
			}
			if ap.elems, err = AppendElem(ap.elems, v, "the array's input"); err != nil {
				return err
			}
			counts[depth]++
			state = afterItem
		}
	}
}

// element reads one quoted or unquoted element and converts it.
func (ap *arrayParser) element() (Value, error) {
	s := ap.s
	var b strings.Builder
	quoted, escaped := false, false
	trailingSpace := 0 // blanks at the end of an unquoted element
	for ap.p < len(s) {
		c := s[ap.p]
		switch {
		case c == '\\':
			if ap.p+1 >= len(s) {
				return Null, malformedArray(s, "Unexpected end of input.")
			}
			b.WriteByte(s[ap.p+1])
			ap.p += 2
			escaped = true
			trailingSpace = 0
			continue
		case c == '"':
			if !quoted && b.Len() > 0 {
				return Null, malformedArray(s, "Incorrectly quoted array element.")
			}
			if quoted {
				ap.p++
				// After the closing quote only blanks may follow.
				for ap.p < len(s) && isArraySpace(s[ap.p]) {
					ap.p++
				}
				if ap.p < len(s) && s[ap.p] != ap.delim && s[ap.p] != '}' {
					return Null, malformedArray(s, "Incorrectly quoted array element.")
				}
				return ParseTextStyled(ap.elem, b.String(), ap.st)
			}
			quoted = true
			ap.p++
			continue
		}
		if quoted {
			b.WriteByte(c)
			ap.p++
			continue
		}
		if c == ap.delim || c == '}' {
			break
		}
		if c == '{' {
			return Null, malformedArray(s, "Unexpected \"{\" character.")
		}
		if isArraySpace(c) {
			if b.Len() > 0 {
				b.WriteByte(c)
				trailingSpace++
			}
			ap.p++
			continue
		}
		b.WriteByte(c)
		trailingSpace = 0
		ap.p++
	}
	if quoted {
		return Null, malformedArray(s, "Unexpected end of input.")
	}
	text := b.String()
	text = text[:len(text)-trailingSpace]
	if !escaped && strings.EqualFold(text, "NULL") {
		return Null, nil
	}
	return ParseTextStyled(ap.elem, text, ap.st)
}

// AppendArray appends PostgreSQL's text output of an array.
func AppendArray(buf []byte, a *ArrayValue) []byte {
	if a.Vector {
		return appendVector(buf, a)
	}
	if a.Record {
		return appendRecord(buf, a)
	}
	return appendArrayAs(buf, a, a.Elem, Style{})
}

func appendArrayAs(buf []byte, a *ArrayValue, elem Type, st Style) []byte {
	if len(a.Dims) == 0 {
		return append(buf, "{}"...)
	}
	if !a.defaultBounds() {
		for d := range a.Dims {
			lo := a.LowerBound(d)
			buf = append(buf, '[')
			buf = strconv.AppendInt(buf, int64(lo), 10)
			buf = append(buf, ':')
			buf = strconv.AppendInt(buf, int64(lo+a.Dims[d]-1), 10)
			buf = append(buf, ']')
		}
		buf = append(buf, '=')
	}
	buf, _ = appendArrayDim(buf, a, elem, 0, 0, st)
	return buf
}

func appendArrayDim(buf []byte, a *ArrayValue, elem Type, d, i int, st Style) ([]byte, int) {
	buf = append(buf, '{')
	for k := int32(0); k < a.Dims[d]; k++ {
		if k > 0 {
			buf = append(buf, elem.ArrayDelim())
		}
		if d < len(a.Dims)-1 {
			buf, i = appendArrayDim(buf, a, elem, d+1, i, st)
			continue
		}
		buf = appendArrayElem(buf, a.Elems[i], elem, st)
		i++
	}
	return append(buf, '}'), i
}

func appendArrayElem(buf []byte, v Value, elem Type, st Style) []byte {
	if v.IsNull() {
		return append(buf, "NULL"...)
	}
	start := len(buf)
	buf = AppendTextStyled(buf, elem, v, st)
	text := buf[start:]
	need := len(text) == 0 || strings.EqualFold(string(text), "NULL")
	for _, c := range text {
		if c == '"' || c == '\\' || c == '{' || c == '}' || c == elem.ArrayDelim() || isArraySpace(c) {
			need = true
			break
		}
	}
	if !need {
		return buf
	}
	q := make([]byte, 0, len(text)+2)
	q = append(q, '"')
	for _, c := range text {
		if c == '"' || c == '\\' {
			q = append(q, '\\')
		}
		q = append(q, c)
	}
	q = append(q, '"')
	return append(buf[:start], q...)
}

// CompareArrays is PostgreSQL's btree order for arrays: element by element
// (NULL above every value), then the number of elements, the number of
// dimensions, and each dimension's length and lower bound.
func CompareArrays(a, b *ArrayValue) int {
	n := min(len(a.Elems), len(b.Elems))
	for i := 0; i < n; i++ {
		x, y := a.Elems[i], b.Elems[i]
		switch {
		case x.IsNull() && y.IsNull():
			continue
		case x.IsNull():
			return 1
		case y.IsNull():
			return -1
		}
		if c := Compare(x, y); c != 0 {
			return c
		}
	}
	if len(a.Elems) != len(b.Elems) {
		return cmpInt(len(a.Elems), len(b.Elems))
	}
	if len(a.Dims) != len(b.Dims) {
		return cmpInt(len(a.Dims), len(b.Dims))
	}
	for d := range a.Dims {
		if a.Dims[d] != b.Dims[d] {
			return cmpInt(int(a.Dims[d]), int(b.Dims[d]))
		}
		if la, lb := a.LowerBound(d), b.LowerBound(d); la != lb {
			return cmpInt(int(la), int(lb))
		}
	}
	return 0
}

func hashArray(h uint64, a *ArrayValue) uint64 {
	h = hashUint64(h, uint64(len(a.Dims)))
	for d := range a.Dims {
		h = hashUint64(h, uint64(a.Dims[d])<<32|uint64(uint32(a.LowerBound(d))))
	}
	for _, e := range a.Elems {
		h = e.Hash(h)
	}
	return h
}

// CastArray converts every element of an array to elem's type (array to
// array casts); the shape is kept.
func CastArray(v Value, elem Type, explicit bool) (Value, error) {
	return castArrayWith(v, elem, func(e Value) (Value, error) {
		if explicit {
			return CastExplicit(e, elem)
		}
		return Cast(e, elem)
	})
}

// castArrayWith converts every element of an array by cast to elem's type.
func castArrayWith(v Value, elem Type, cast func(Value) (Value, error)) (Value, error) {
	a := v.Array()
	out := &ArrayValue{Elem: elem, Dims: a.Dims, Lower: a.Lower, Elems: make([]Value, len(a.Elems))}
	for i, e := range a.Elems {
		c, err := cast(e)
		if err != nil {
			return Null, err
		}
		out.Elems[i] = c
	}
	return NewArray(out), nil
}
