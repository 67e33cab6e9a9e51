package builtins

import (
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// format is PostgreSQL's format(fmt, args...): conversions
// %[argpos$][-][width|*|*n$]{s,I,L} and %%. An explicit argument position
// moves the implicit one: the next conversion without a position takes the
// argument after it.
func format(ctx *Context, f string, ts []sqltypes.Type, args []sqltypes.Value) (string, error) {
	var sb strings.Builder
	next := 0 // index into args of the next implicit argument
	take := func(pos int) (int, error) {
		if pos > 0 {
			next = pos - 1
		}
		if next >= len(args) {
			return 0, pgerr.New(pgerr.InvalidParameterValue, "too few arguments for format()")
		}
		next++
		return next - 1, nil
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			sb.WriteByte(f[i])
			continue
		}
		spec, err := parseFormatSpec(f, i+1)
		if err != nil {
			return "", err
		}
		i = spec.end
		if spec.conv == '%' {
			sb.WriteByte('%')
			continue
		}
		width := spec.width
		if spec.widthArg >= 0 {
			k, err := take(spec.widthArg)
			if err != nil {
				return "", err
			}
			if width, err = formatWidth(ts[k], args[k]); err != nil {
				return "", err
			}
		}
		k, err := take(spec.argPos)
		if err != nil {
			return "", err
		}
		s, err := formatConversion(ctx, spec.conv, ts[k], args[k])
		if err != nil {
			return "", err
		}
		left := spec.minus
		if width < 0 {
			left, width = true, -width
		}
		pad := max(width-utf8.RuneCountInString(s), 0)
		if err := sqltypes.AppendLimit(int64(sb.Len()), int64(len(s))+int64(pad)); err != nil {
			return "", err
		}
		padding := strings.Repeat(" ", pad)
		if left {
			sb.WriteString(s + padding)
		} else {
			sb.WriteString(padding + s)
		}
	}
	return sb.String(), nil
}

// formatSpec is one parsed conversion.
type formatSpec struct {
	argPos   int  // 1-based explicit argument, 0: the next one
	widthArg int  // -1: no width argument; 0: the next one; n: argument n
	width    int  // a width written in the format
	minus    bool // left-justify
	conv     byte // s, I, L or % (for %%)
	end      int  // index of the conversion character
}

func errUnterminated() error {
	return pgerr.New(pgerr.InvalidParameterValue, "unterminated format() type specifier").
		WithHint(`For a single "%%" use "%%%%".`)
}

// parseFormatSpec parses the conversion that starts after the % at i.
func parseFormatSpec(f string, i int) (formatSpec, error) {
	spec := formatSpec{widthArg: -1}
	if i >= len(f) {
		return spec, errUnterminated()
	}
	if f[i] == '%' {
		spec.conv, spec.end = '%', i
		return spec, nil
	}
	digits := func() (int, bool, error) {
		n, found := 0, false
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			if n > (1<<31-1-9)/10 {
				return 0, false, pgerr.New(pgerr.NumericValueOutOfRange, "number is out of range")
			}
			n = n*10 + int(f[i]-'0')
			i++
			found = true
		}
		if i >= len(f) {
			return 0, false, errUnterminated()
		}
		return n, found, nil
	}
	n, found, err := digits()
	if err != nil {
		return spec, err
	}
	switch {
	case found && f[i] != '$':
		spec.width = n // a width directly followed by the type
	case found:
		if n == 0 {
			return spec, pgerr.New(pgerr.InvalidParameterValue, "format specifies argument 0, but arguments are numbered from 1")
		}
		spec.argPos = n
		if i++; i >= len(f) {
			return spec, errUnterminated()
		}
		fallthrough
	default:
		for f[i] == '-' {
			spec.minus = true
			if i++; i >= len(f) {
				return spec, errUnterminated()
			}
		}
		if f[i] == '*' {
			if i++; i >= len(f) {
				return spec, errUnterminated()
			}
			n, found, err := digits()
			if err != nil {
				return spec, err
			}
			spec.widthArg = 0
			if found {
				if f[i] != '$' {
					return spec, pgerr.New(pgerr.InvalidParameterValue, `width argument position must be ended by "$"`)
				}
				if n == 0 {
					return spec, pgerr.New(pgerr.InvalidParameterValue, "format specifies argument 0, but arguments are numbered from 1")
				}
				spec.widthArg = n
				if i++; i >= len(f) {
					return spec, errUnterminated()
				}
			}
		} else if n, _, err := digits(); err != nil {
			return spec, err
		} else {
			spec.width = n
		}
	}
	if c := f[i]; c != 's' && c != 'I' && c != 'L' {
		r, _ := utf8.DecodeRuneInString(f[i:])
		return spec, pgerr.New(pgerr.InvalidParameterValue, "unrecognized format() type specifier \"%c\"", r).
			WithHint(`For a single "%%" use "%%%%".`)
	}
	spec.conv, spec.end = f[i], i
	return spec, nil
}

// formatWidth reads a width argument: NULL is no width; other types go
// through their text form to an integer.
func formatWidth(t sqltypes.Type, v sqltypes.Value) (int, error) {
	if v.IsNull() {
		return 0, nil
	}
	if v.K == sqltypes.KindInt && (t.ID == sqltypes.Int2 || t.ID == sqltypes.Int4) {
		return int(v.I), nil
	}
	n, err := sqltypes.ParseText(sqltypes.TypeInt4, OutputText(t, v))
	if err != nil {
		return 0, err
	}
	if n.I == -1<<31 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "number is out of range")
	}
	return int(n.I), nil
}

func formatConversion(ctx *Context, conv byte, t sqltypes.Type, v sqltypes.Value) (string, error) {
	if v.IsNull() {
		switch conv {
		case 'I':
			return "", pgerr.New(pgerr.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
		case 'L':
			return "NULL", nil
		}
		return "", nil
	}
	s := ctx.OutputText(t, v)
	switch conv {
	case 'I':
		return sqltypes.QuotedIdent(s)
	case 'L':
		// quote_literal_cstr: the worst case and a NUL, allocated first.
		return sqltypes.QuotedLiteral(s, 1)
	}
	return s, nil
}
