package builtins

import (
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_column_size("any"): the bytes PostgreSQL's datum of the value takes,
// as a computed value (a 4-byte varlena header, never compressed). A
// stored column read straight from its table the planner binds to
// StoredDatumSize instead: PostgreSQL's on-disk form. The
// types whose datum layout zproxy reproduces are the fixed-length ones,
// the string kinds, numeric and arrays of fixed-length elements; the
// others (jsonb, records, ranges, arrays of strings ...) are refused
// rather than guessed.

const varHeader = 4 // VARHDRSZ

func init() {
	Register("pg_column_size", Overload{Params: []Param{{Any: true, Pseudo: AnyType}}, Result: Returns(sqltypes.TypeInt4), Volatility: Stable,
		Doc: "bytes required to store the value, perhaps with compression",
		Typed: func(ts []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			t := ts[0].StripDomain()
			return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				n, err := datumSize(t, a[0])
				if err != nil {
					return sqltypes.Null, err
				}
				return sqltypes.NewInt(n), nil
			}
		}})
}

// datumSize is the size of v's datum of type t.
func datumSize(t sqltypes.Type, v sqltypes.Value) (int64, error) {
	if n := t.Size(); n > 0 {
		return int64(n), nil
	}
	switch v.K {
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindBPChar, sqltypes.KindJSON, sqltypes.KindCitext, sqltypes.KindXML:
		return varHeader + int64(len(v.S)), nil
	case sqltypes.KindNumeric:
		return numericSize(v.Numeric()), nil
	case sqltypes.KindArray:
		if n, ok := fixedArraySize(t, v.Array()); ok {
			return n, nil
		}
	}
	return 0, pgerr.New(pgerr.FeatureNotSupported, "pg_column_size of type %s is not supported", t)
}

// shortVarlenaMax is VARATT_SHORT_MAX: the largest varlena (header
// included) that a 1-byte header can describe.
const shortVarlenaMax = 127

// StoredDatumSize is pg_column_size of a value of type t read from a
// stored row: PostgreSQL's heap tuple packs a varlena whose data fits in
// 126 bytes behind a 1-byte header (VARATT_CAN_MAKE_SHORT), so such a
// value measures 3 bytes less than computed. Longer values keep the
// 4-byte header; PostgreSQL's toaster would compress them in a row over
// 2 kB, which zproxy's storage does not (README).
func StoredDatumSize(t sqltypes.Type, v sqltypes.Value) (int64, error) {
	t = t.StripDomain()
	n, err := datumSize(t, v)
	if err != nil || t.Size() > 0 {
		return n, err
	}
	if short := n - varHeader + 1; short <= shortVarlenaMax {
		return short, nil
	}
	return n, nil
}

// numericSize is the size of PostgreSQL's numeric datum of d: the varlena
// header, a 2-byte header (4 when the weight or display scale is out of
// the short form's range) and 2 bytes per base-10000 digit, leading and
// trailing zero digits dropped.
func numericSize(d *apd.Decimal) int64 {
	if d.Form != apd.Finite {
		return varHeader + 2 // NaN and the infinities: the short header alone
	}
	digits := d.Coeff.String()
	if digits == "0" {
		digits = ""
	}
	var intPart, fracPart string
	switch exp := int(d.Exponent); {
	case exp >= 0:
		if digits != "" {
			intPart = digits + strings.Repeat("0", exp)
		}
	case len(digits) > -exp:
		intPart, fracPart = digits[:len(digits)+exp], digits[len(digits)+exp:]
	default:
		fracPart = strings.Repeat("0", -exp-len(digits)) + digits
	}
	dscale := max(0, -int(d.Exponent))
	intPart = strings.Repeat("0", (4-len(intPart)%4)%4) + intPart
	fracPart += strings.Repeat("0", (4-len(fracPart)%4)%4)
	var groups []string
	for i := 0; i < len(intPart); i += 4 {
		groups = append(groups, intPart[i:i+4])
	}
	weight := len(groups) - 1
	for i := 0; i < len(fracPart); i += 4 {
		groups = append(groups, fracPart[i:i+4])
	}
	for len(groups) > 0 && groups[0] == "0000" {
		groups, weight = groups[1:], weight-1
	}
	for len(groups) > 0 && groups[len(groups)-1] == "0000" {
		groups = groups[:len(groups)-1]
	}
	if len(groups) == 0 {
		weight = 0
	}
	header := int64(2)
	if dscale > 63 || weight < -64 || weight > 63 {
		header = 4
	}
	return varHeader + header + 2*int64(len(groups))
}

// fixedArraySize is the size of an array of a fixed-length element type
// whose length is a multiple of its alignment (so no element is padded):
// the header (MAXALIGNed, with a null bitmap when an element is NULL)
// and the non-NULL elements. ok is false for other element types.
func fixedArraySize(t sqltypes.Type, a *sqltypes.ArrayValue) (int64, bool) {
	size := int64(t.ElemType().StripDomain().Size())
	switch size {
	case 1, 2, 4, 8, 16:
	default:
		return 0, false
	}
	maxAlign := func(n int64) int64 { return (n + 7) &^ 7 }
	ndim := int64(len(a.Dims))
	header := int64(16) + 8*ndim // vl_len_, ndim, dataoffset, elemtype; dims and lower bounds
	nonNull := int64(0)
	for _, e := range a.Elems {
		if !e.IsNull() {
			nonNull++
		}
	}
	if nonNull < int64(len(a.Elems)) {
		header += (int64(len(a.Elems)) + 7) / 8
	}
	return maxAlign(header) + nonNull*size, true
}
