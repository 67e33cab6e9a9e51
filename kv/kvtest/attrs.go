package kvtest

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/kv"
)

// AttrEqual reports whether two attributes are the same value: same name,
// same kind, and the payload that kind uses equal. Floats compare by bit
// pattern, so -0 differs from +0, except that every NaN equals every NaN.
// Bytes compare by content, so nil equals empty.
func AttrEqual(a, b kv.Attr) bool {
	if a.Name != b.Name || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case kv.AttrNull:
		return true
	case kv.AttrBool:
		return (a.I != 0) == (b.I != 0)
	case kv.AttrInt:
		return a.I == b.I
	case kv.AttrFloat:
		if math.IsNaN(a.F) || math.IsNaN(b.F) {
			return math.IsNaN(a.F) && math.IsNaN(b.F)
		}
		return math.Float64bits(a.F) == math.Float64bits(b.F)
	case kv.AttrString:
		return a.S == b.S
	case kv.AttrBytes:
		return bytes.Equal(a.B, b.B)
	}
	return false
}

// AttrsEqual reports whether two attribute lists hold the same attributes,
// in any order (a backend that stores attributes in a map, as DynamoDB does,
// need not keep the written order). Names must be unique within each list.
func AttrsEqual(want, got []kv.Attr) bool {
	if len(want) != len(got) {
		return false
	}
	byName := make(map[string]kv.Attr, len(got))
	for _, a := range got {
		byName[a.Name] = a
	}
	for _, w := range want {
		g, ok := byName[w.Name]
		if !ok || !AttrEqual(w, g) {
			return false
		}
	}
	return true
}

// FormatAttrs renders attributes sorted by name, for test failure messages.
func FormatAttrs(attrs []kv.Attr) string {
	sorted := slices.Clone(attrs)
	slices.SortFunc(sorted, func(a, b kv.Attr) int { return strings.Compare(a.Name, b.Name) })
	var sb strings.Builder
	sb.WriteByte('{')
	for i, a := range sorted {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%q:", a.Name)
		switch a.Kind {
		case kv.AttrNull:
			sb.WriteString("NULL")
		case kv.AttrBool:
			fmt.Fprintf(&sb, "bool(%v)", a.I != 0)
		case kv.AttrInt:
			fmt.Fprintf(&sb, "int(%d)", a.I)
		case kv.AttrFloat:
			fmt.Fprintf(&sb, "float(%v, bits %#x)", a.F, math.Float64bits(a.F))
		case kv.AttrString:
			if len(a.S) > 64 {
				fmt.Fprintf(&sb, "string(len %d, %q...)", len(a.S), a.S[:64])
			} else {
				fmt.Fprintf(&sb, "string(%q)", a.S)
			}
		case kv.AttrBytes:
			if len(a.B) > 64 {
				fmt.Fprintf(&sb, "bytes(len %d, %x...)", len(a.B), a.B[:64])
			} else {
				fmt.Fprintf(&sb, "bytes(%x)", a.B)
			}
		default:
			fmt.Fprintf(&sb, "kind(%d)", a.Kind)
		}
	}
	sb.WriteByte('}')
	return sb.String()
}
