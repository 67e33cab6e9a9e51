package builtins

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostgreSQL 15's string functions: unistr, normalize, is_normalized and
// string_to_table.

func invalidUnicodeEscape() error {
	return pgerr.New(pgerr.SyntaxError, "invalid Unicode escape").
		WithHint(`Unicode escapes must be \XXXX, \+XXXXXX, \uXXXX, or \UXXXXXXXX.`)
}

func invalidSurrogatePair() error {
	return pgerr.New(pgerr.SyntaxError, "invalid Unicode surrogate pair")
}

// hexDigits is the value of s[i:i+n] when it is n hex digits.
func hexDigits(s string, i, n int) (rune, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+n], 16, 32)
	if err != nil || strings.ContainsAny(s[i:i+n], "+-_xX") {
		return 0, false
	}
	return rune(v), true
}

// Unistr is unistr(text): \XXXX, \uXXXX, \+XXXXXX and \UXXXXXXXX are
// code points (a UTF-16 surrogate pair written as two escapes is one),
// \\ is a backslash, as PostgreSQL reads them.
func Unistr(s string) (string, error) {
	var b strings.Builder
	var pairFirst rune
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			if pairFirst != 0 {
				return "", invalidSurrogatePair()
			}
			b.WriteByte(s[i])
			i++
			continue
		}
		var cp rune
		var ok bool
		switch rest := s[i+1:]; {
		case strings.HasPrefix(rest, `\`):
			if pairFirst != 0 {
				return "", invalidSurrogatePair()
			}
			b.WriteByte('\\')
			i += 2
			continue
		case len(rest) >= 4 && func() bool { cp, ok = hexDigits(s, i+1, 4); return ok }():
			i += 5
		case len(rest) >= 5 && rest[0] == 'u' && func() bool { cp, ok = hexDigits(s, i+2, 4); return ok }():
			i += 6
		case len(rest) >= 7 && rest[0] == '+' && func() bool { cp, ok = hexDigits(s, i+2, 6); return ok }():
			i += 8
		case len(rest) >= 9 && rest[0] == 'U' && func() bool { cp, ok = hexDigits(s, i+2, 8); return ok }():
			i += 10
		default:
			return "", invalidUnicodeEscape()
		}
		if cp <= 0 || cp > 0x10FFFF {
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid Unicode code point: %04X", cp)
		}
		switch {
		case pairFirst != 0:
			if !(cp >= 0xDC00 && cp <= 0xDFFF) {
				return "", invalidSurrogatePair()
			}
			b.WriteRune(utf16.DecodeRune(pairFirst, cp))
			pairFirst = 0
		case cp >= 0xDC00 && cp <= 0xDFFF:
			return "", invalidSurrogatePair()
		case cp >= 0xD800 && cp <= 0xDBFF:
			pairFirst = cp
		default:
			b.WriteRune(cp)
		}
	}
	if pairFirst != 0 {
		return "", invalidSurrogatePair()
	}
	return b.String(), nil
}

// normalForm reads a Unicode normalization form's name, as normalize and
// is_normalized take it (any case).
func normalForm(name string) (norm.Form, error) {
	switch strings.ToUpper(name) {
	case "NFC":
		return norm.NFC, nil
	case "NFD":
		return norm.NFD, nil
	case "NFKC":
		return norm.NFKC, nil
	case "NFKD":
		return norm.NFKD, nil
	}
	return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid normalization form: %s", name)
}

// splitToTable is string_to_table's (and string_to_array's) split: no
// pieces of an empty string, one piece per character for a NULL
// delimiter, the whole string for an empty one; a piece equal to
// nullStr (when given) is NULL. The pieces are counted first and go
// straight into values that share the string's bytes, so a long string
// of short pieces costs one element array, charged to the process's gate
// when large (sqltypes.MakeElems); string_to_array's is held to
// PostgreSQL's accumulation limit (forArray).
func splitToTable(a []sqltypes.Value, forArray bool) ([]sqltypes.Value, error) {
	if a[0].IsNull() {
		return nil, nil
	}
	s := a[0].S
	var n int
	switch {
	case s == "":
		return nil, nil
	case a[1].IsNull():
		n = utf8.RuneCountInString(s)
	case a[1].S == "":
		n = 1
	default:
		n = strings.Count(s, a[1].S) + 1
	}
	if forArray {
		if err := sqltypes.AccumElemsLimit(int64(n)); err != nil {
			return nil, err
		}
	}
	out, err := sqltypes.MakeElems(int64(n), "string_to_array's array")
	if err != nil {
		return nil, err
	}
	for i := range out {
		var p string
		switch {
		case a[1].IsNull():
			_, size := utf8.DecodeRuneInString(s)
			p, s = s[:size], s[size:]
		case i == n-1:
			p = s
		default:
			at := strings.Index(s, a[1].S)
			p, s = s[:at], s[at+len(a[1].S):]
		}
		out[i] = sqltypes.NewText(p)
		if len(a) > 2 && !a[2].IsNull() && p == a[2].S {
			out[i] = sqltypes.Null
		}
	}
	return out, nil
}

func init() {
	textT := T(sqltypes.TypeText)
	Register("unistr", Overload{Params: []Param{textT}, Result: Returns(sqltypes.TypeText),
		Doc: "unescape Unicode characters",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			s, err := Unistr(a[0].S)
			return sqltypes.NewText(s), err
		}})

	// formOf is the form a call names, NFC when it names none.
	formOf := func(a []sqltypes.Value) (norm.Form, error) {
		if len(a) > 1 {
			return normalForm(a[1].S)
		}
		return norm.NFC, nil
	}
	normalize := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		form, err := formOf(a)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(form.String(a[0].S)), nil
	}
	// normalize(text, form DEFAULT 'NFC'): PostgreSQL's grammar reads
	// normalize(s, NFKC) with the form as a keyword (parser/pgsyntax.go
	// quotes it).
	doc := "Unicode normalization"
	Register("normalize",
		Overload{Params: []Param{textT}, Result: Returns(sqltypes.TypeText), Doc: doc, Eval: normalize},
		Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeText), Doc: doc, Eval: normalize})
	isNormalized := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		form, err := formOf(a)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBool(form.IsNormalString(a[0].S)), nil
	}
	doc = "check Unicode normalization"
	Register("is_normalized",
		Overload{Params: []Param{textT}, Result: Returns(sqltypes.TypeBool), Doc: doc, Eval: isNormalized},
		Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeBool), Doc: doc, Eval: isNormalized})

	split := &SetFunc{Rows: func(_ *Context, a []sqltypes.Value) (SetRows, error) {
		pieces, err := splitToTable(a, false)
		return Column(pieces), err
	}}
	doc = "split delimited text"
	Register("string_to_table",
		Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeText), CalledOnNull: true, Doc: doc, Set: split},
		Overload{Params: []Param{textT, textT, textT}, Result: Returns(sqltypes.TypeText), CalledOnNull: true, Doc: doc + ", with null string", Set: split})
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}
func isIdentCont(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }
func isScannerSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// ParseIdent is parse_ident(qualified name, strict): the name's parts,
// quoted ones as written ("" for a double quote), unquoted ones folded to
// lower case; with strict, nothing may follow the last part.
func ParseIdent(s string, strict bool) ([]string, error) {
	invalid := func(detail string) error {
		e := pgerr.New(pgerr.InvalidParameterValue, "string is not a valid identifier: \"%s\"", s)
		if detail != "" {
			e = e.WithDetail("%s", detail)
		}
		return e
	}
	var parts []string
	p := 0
	skipSpace := func() {
		for p < len(s) && isScannerSpace(s[p]) {
			p++
		}
	}
	skipSpace()
	afterDot := false
	for {
		switch {
		case p < len(s) && s[p] == '"':
			var b strings.Builder
			p++
			for {
				q := strings.IndexByte(s[p:], '"')
				if q < 0 {
					return nil, invalid("String has unclosed double quotes.")
				}
				b.WriteString(s[p : p+q])
				p += q + 1
				if p < len(s) && s[p] == '"' {
					b.WriteByte('"')
					p++
					continue
				}
				break
			}
			if b.Len() == 0 {
				return nil, invalid("Quoted identifier must not be empty.")
			}
			parts = append(parts, b.String())
		case p < len(s) && isIdentStart(s[p]):
			start := p
			for p++; p < len(s) && isIdentCont(s[p]); p++ {
			}
			// Only ASCII letters fold, as PostgreSQL folds identifiers in
			// a multibyte encoding.
			parts = append(parts, strings.Map(func(r rune) rune {
				if r >= 'A' && r <= 'Z' {
					return r + 'a' - 'A'
				}
				return r
			}, s[start:p]))
		case p < len(s) && s[p] == '.':
			return nil, invalid(`No valid identifier before ".".`)
		case afterDot:
			return nil, invalid(`No valid identifier after ".".`)
		default:
			return nil, invalid("")
		}
		skipSpace()
		switch {
		case p < len(s) && s[p] == '.':
			afterDot = true
			p++
			skipSpace()
		case p >= len(s):
			return parts, nil
		default:
			if strict {
				return nil, invalid("")
			}
			return parts, nil
		}
	}
}

func init() {
	textT := T(sqltypes.TypeText)
	parse := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		strict := len(a) < 2 || a[1].Bool()
		parts, err := ParseIdent(a[0].S, strict)
		if err != nil {
			return sqltypes.Null, err
		}
		elems := make([]sqltypes.Value, len(parts))
		for i, p := range parts {
			elems[i] = sqltypes.NewText(p)
		}
		return sqltypes.NewArray1(sqltypes.TypeText, elems), nil
	}
	// parse_ident(text, strict boolean DEFAULT true).
	doc := "parse qualified identifier to array of identifiers"
	Register("parse_ident",
		Overload{Params: []Param{textT}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), Doc: doc, Eval: parse},
		Overload{Params: []Param{textT, T(sqltypes.TypeBool)}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), Doc: doc, Eval: parse})
}
