package builtins

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The string functions, as PostgreSQL 15 defines them in a UTF8 database
// created with the C locale: lengths and positions count characters (bytes
// for bytea), and case mapping (upper, lower, initcap) touches only ASCII
// letters, as it does under that locale; zproxy's text ordering is the C
// collation's too.

var (
	bytea  = T(sqltypes.TypeBytea)
	int4   = T(sqltypes.TypeInt4)
	bpchar = T(sqltypes.TypeBPChar)
)

// textFn registers a strict function of text arguments (and the int4
// parameters given in params) that returns text.
func textFn(params []Param, f func(a []sqltypes.Value) (string, error)) Overload {
	return Overload{Params: params, Result: Returns(sqltypes.TypeText), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		s, err := f(a)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewText(s), nil
	}}
}

func intFn(params []Param, f func(a []sqltypes.Value) int64) Overload {
	return Overload{Params: params, Result: Returns(sqltypes.TypeInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(f(a)), nil
	}}
}

func bytesFn(params []Param, f func(a []sqltypes.Value) ([]byte, error)) Overload {
	return Overload{Params: params, Result: Returns(sqltypes.TypeBytea), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		b, err := f(a)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBytes(b), nil
	}}
}

func init() {
	// substring / substr: by characters for text, by bytes for bytea.
	for _, name := range []string{"substring", "substr"} {
		Register(name,
			textFn([]Param{text, int4}, func(a []sqltypes.Value) (string, error) {
				return substringRunes(a[0].S, a[1].I, 0, false)
			}),
			textFn([]Param{text, int4, int4}, func(a []sqltypes.Value) (string, error) {
				return substringRunes(a[0].S, a[1].I, a[2].I, true)
			}),
			bytesFn([]Param{bytea, int4}, func(a []sqltypes.Value) ([]byte, error) {
				s, err := substringBytes(a[0].S, a[1].I, 0, false)
				return []byte(s), err
			}),
			bytesFn([]Param{bytea, int4, int4}, func(a []sqltypes.Value) ([]byte, error) {
				s, err := substringBytes(a[0].S, a[1].I, a[2].I, true)
				return []byte(s), err
			}))
	}
	// substring(text FROM pattern) is the regular-expression form: the part
	// matching the pattern, or its first parenthesized subexpression.
	Register("substring", Overload{Params: []Param{text, text}, Result: Returns(sqltypes.TypeText),
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return substringRegex(a[0].S, a[1].S)
		}})

	// substring(text SIMILAR pattern ESCAPE e) is substring(text,
	// similar_to_escape(pattern, e)): the part between the pattern's
	// escape-double-quote separators, or the whole match.
	Register("substring", Overload{Params: []Param{text, text, text}, Result: Returns(sqltypes.TypeText),
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			pat, err := SimilarToRegex(a[1].S, a[2].S)
			if err != nil {
				return sqltypes.Null, err
			}
			return substringRegex(a[0].S, pat)
		}})

	position := func(a []sqltypes.Value) int64 {
		i := strings.Index(a[0].S, a[1].S)
		if i < 0 {
			return 0
		}
		return int64(utf8.RuneCountInString(a[0].S[:i])) + 1
	}
	Register("strpos", intFn([]Param{text, text}, position))
	// The catalog's position(string, substring), strpos's order; the
	// syntax POSITION(substring IN string) is this call with its
	// arguments swapped (the binder's business).
	Register("position", intFn([]Param{text, text}, position),
		intFn([]Param{bytea, bytea}, func(a []sqltypes.Value) int64 {
			return int64(strings.Index(a[0].S, a[1].S) + 1)
		}))

	trims := map[string]func(s, cut string) string{
		"btrim": func(s, cut string) string { return strings.Trim(s, cut) },
		"ltrim": func(s, cut string) string { return strings.TrimLeft(s, cut) },
		"rtrim": func(s, cut string) string { return strings.TrimRight(s, cut) },
	}
	for name, trim := range trims {
		trim := trim
		Register(name,
			textFn([]Param{text}, func(a []sqltypes.Value) (string, error) { return trim(a[0].S, " "), nil }),
			textFn([]Param{text, text}, func(a []sqltypes.Value) (string, error) { return trim(a[0].S, a[1].S), nil }),
			bytesFn([]Param{bytea, bytea}, func(a []sqltypes.Value) ([]byte, error) {
				return []byte(trimBytes(name, a[0].S, a[1].S)), nil
			}))
	}

	Register("split_part", textFn([]Param{text, text, int4}, func(a []sqltypes.Value) (string, error) {
		return splitPart(a[0].S, a[1].S, a[2].I)
	}))
	Register("replace", textFn([]Param{text, text, text}, func(a []sqltypes.Value) (string, error) {
		if a[1].S == "" {
			return a[0].S, nil
		}
		if err := replaceLimit(a[0].S, a[1].S, a[2].S); err != nil {
			return "", err
		}
		return strings.ReplaceAll(a[0].S, a[1].S, a[2].S), nil
	}))
	Register("translate", textFn([]Param{text, text, text}, func(a []sqltypes.Value) (string, error) {
		// As lpad, sized for the worst case first: every byte of the
		// string replaced by a 4-byte character.
		if err := sqltypes.LengthLimit(int64(len(a[0].S)) * utf8.UTFMax); err != nil {
			return "", err
		}
		return translate(a[0].S, a[1].S, a[2].S), nil
	}))
	Register("left", textFn([]Param{text, int4}, func(a []sqltypes.Value) (string, error) {
		r := []rune(a[0].S)
		return string(r[:keepRunes(len(r), a[1].I)]), nil
	}))
	Register("right", textFn([]Param{text, int4}, func(a []sqltypes.Value) (string, error) {
		r := []rune(a[0].S)
		return string(r[len(r)-keepRunes(len(r), a[1].I):]), nil
	}))
	for _, name := range []string{"lpad", "rpad"} {
		left := name == "lpad"
		Register(name,
			textFn([]Param{text, int4}, func(a []sqltypes.Value) (string, error) { return pad(a[0].S, a[1].I, " ", left) }),
			textFn([]Param{text, int4, text}, func(a []sqltypes.Value) (string, error) { return pad(a[0].S, a[1].I, a[2].S, left) }))
	}
	Register("repeat", textFn([]Param{text, int4}, func(a []sqltypes.Value) (string, error) {
		if a[1].I <= 0 || a[0].S == "" {
			return "", nil
		}
		if err := sqltypes.LengthLimit(int64(len(a[0].S)) * a[1].I); err != nil {
			return "", err
		}
		return sqltypes.Repeat(a[0].S, a[1].I, "repeat's result")
	}))
	Register("reverse", textFn([]Param{text}, func(a []sqltypes.Value) (string, error) {
		r := []rune(a[0].S)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r), nil
	}))
	Register("initcap", textFn([]Param{text}, func(a []sqltypes.Value) (string, error) { return initcap(a[0].S), nil }))
	Register("upper", textFn([]Param{text}, func(a []sqltypes.Value) (string, error) { return asciiCase(a[0].S, 'a', 'z', 'A'-'a'), nil }))
	Register("lower", textFn([]Param{text}, func(a []sqltypes.Value) (string, error) { return asciiCase(a[0].S, 'A', 'Z', 'a'-'A'), nil }))

	// Lengths: characters of text; char(n) without its padding; bytes of
	// bytea. octet_length of char(n) counts the padding, as stored.
	runes := func(a []sqltypes.Value) int64 { return int64(utf8.RuneCountInString(a[0].S)) }
	unpadded := func(a []sqltypes.Value) int64 { return int64(utf8.RuneCountInString(strings.TrimRight(a[0].S, " "))) }
	octets := func(a []sqltypes.Value) int64 { return int64(len(a[0].S)) }
	bits := func(a []sqltypes.Value) int64 { return 8 * int64(len(a[0].S)) }
	for _, name := range []string{"length", "char_length", "character_length"} {
		Register(name, intFn([]Param{text}, runes), intFn([]Param{bpchar}, unpadded))
	}
	Register("length", intFn([]Param{bytea}, octets))
	Register("octet_length", intFn([]Param{text}, octets), intFn([]Param{bpchar}, octets), intFn([]Param{bytea}, octets))
	Register("bit_length", intFn([]Param{text}, bits), intFn([]Param{bpchar}, bits), intFn([]Param{bytea}, bits))

	Register("starts_with", Overload{Params: []Param{text, text}, Result: Returns(sqltypes.TypeBool),
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(strings.HasPrefix(a[0].S, a[1].S)), nil
		}})
	Register("chr", textFn([]Param{int4}, func(a []sqltypes.Value) (string, error) { return chr(a[0].I) }))
	Register("ascii", intFn([]Param{text}, func(a []sqltypes.Value) int64 {
		r, _ := utf8.DecodeRuneInString(a[0].S)
		if a[0].S == "" {
			return 0
		}
		return int64(r)
	}))
	md5hex := func(a []sqltypes.Value) (string, error) {
		sum := md5.Sum([]byte(a[0].S))
		return hex.EncodeToString(sum[:]), nil
	}
	Register("md5", textFn([]Param{text}, md5hex), textFn([]Param{bytea}, md5hex))
	for name, h := range map[string]func() hash.Hash{"sha224": sha256.New224, "sha256": sha256.New, "sha384": sha512.New384, "sha512": sha512.New} {
		h := h
		Register(name, bytesFn([]Param{bytea}, func(a []sqltypes.Value) ([]byte, error) {
			d := h()
			d.Write([]byte(a[0].S))
			return d.Sum(nil), nil
		}))
	}
	Register("encode", textFn([]Param{bytea, text}, func(a []sqltypes.Value) (string, error) { return encode(a[0].S, a[1].S) }))
	Register("decode", bytesFn([]Param{text, text}, func(a []sqltypes.Value) ([]byte, error) { return decode(a[0].S, a[1].S) }))
	for _, t := range []sqltypes.Type{sqltypes.TypeInt4, sqltypes.TypeInt8} {
		mask := uint64(1)<<32 - 1
		if t.ID == sqltypes.Int8 {
			mask = ^uint64(0)
		}
		Register("to_hex", textFn([]Param{T(t)}, func(a []sqltypes.Value) (string, error) {
			return strconv.FormatUint(uint64(a[0].I)&mask, 16), nil
		}))
	}
	Register("gen_random_uuid", Overload{Result: Returns(sqltypes.TypeUUID), Volatility: Volatile,
		Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) { return randomUUID() }})

	// concat, concat_ws and format print their "any" arguments with each
	// type's output function (char(n) keeps its padding, booleans are t
	// and f), so they are bound per call to the argument types; they are
	// stable, as in PostgreSQL, because that output depends on the
	// session's DateStyle, TimeZone and other output settings.
	anyArgs := Param{Any: true, Pseudo: AnyType}
	Register("concat", Overload{Params: []Param{anyArgs}, Variadic: true, MinArgs: 1, CalledOnNull: true, Volatility: Stable,
		Result: Returns(sqltypes.TypeText), Typed: func(ts []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				s, err := joinOutputs(ctx, ts, a, "")
				return sqltypes.NewText(s), err
			}
		}})
	Register("concat_ws", Overload{Params: []Param{text, anyArgs}, Variadic: true, MinArgs: 2, CalledOnNull: true, Volatility: Stable,
		Result: Returns(sqltypes.TypeText), Typed: func(ts []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if a[0].IsNull() {
					return sqltypes.Null, nil
				}
				s, err := joinOutputs(ctx, ts[1:], a[1:], a[0].S)
				return sqltypes.NewText(s), err
			}
		}})
	// format('%s', VARIADIC NULL::text[]) formats with no arguments (too
	// few for a %s), where concat's VARIADIC NULL is NULL.
	formatFn := Overload{Params: []Param{text, anyArgs}, Variadic: true, MinArgs: 2, CalledOnNull: true, Volatility: Stable, NullSpreadEmpty: true,
		Result: Returns(sqltypes.TypeText), Typed: func(ts []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if a[0].IsNull() {
					return sqltypes.Null, nil
				}
				s, err := format(ctx, a[0].S, ts[1:], a[1:])
				if err != nil {
					return sqltypes.Null, err
				}
				return sqltypes.NewText(s), nil
			}
		}}
	// format(text) and format(text, VARIADIC "any") are two functions in
	// pg_proc; one implementation serves both.
	formatText := formatFn
	formatText.Params, formatText.Variadic, formatText.MinArgs = []Param{text}, false, 0
	Register("format", formatText, formatFn)
}

// OutputText is the text a value's type prints it as (its output
// function): what concat and format show.
func OutputText(t sqltypes.Type, v sqltypes.Value) string {
	if v.K == sqltypes.KindText {
		return v.S
	}
	return string(sqltypes.AppendTextAs(nil, t, v))
}

// OutputText is the text a value's type prints it as in the session's
// output settings (DateStyle, TimeZone, ...): what concat, format and
// array_to_string show. A nil ctx prints in PostgreSQL's defaults.
func (ctx *Context) OutputText(t sqltypes.Type, v sqltypes.Value) string {
	if ctx == nil {
		return OutputText(t, v)
	}
	if v.K == sqltypes.KindText {
		return v.S
	}
	return string(sqltypes.AppendTextStyled(nil, t, v, ctx.OutputStyle()))
}

// OutputStyle is the session's output settings with its TimeZone.
func (ctx *Context) OutputStyle() sqltypes.Style {
	st := ctx.Style
	st.Location = ctx.Location
	return st
}

// joinOutputs is concat and concat_ws: the values' output texts, NULLs
// skipped, joined by sep in one buffer as PostgreSQL's concat_internal
// appends them (the separator, then the value, each checked).
func joinOutputs(ctx *Context, ts []sqltypes.Type, vals []sqltypes.Value, sep string) (string, error) {
	out := sqltypes.Buffer{What: "concat's result"}
	first := true
	for i, v := range vals {
		if v.IsNull() {
			continue
		}
		if !first {
			if err := out.Append(sep); err != nil {
				return "", err
			}
		}
		first = false
		if err := out.Append(ctx.OutputText(ts[i], v)); err != nil {
			return "", err
		}
	}
	return out.String()
}

// replaceLimit fails, before anything is built, the replace() whose result
// would pass the field limit where PostgreSQL's buffer does: it appends
// the text before each match, then the replacement, then the rest.
func replaceLimit(s, from, to string) error {
	if len(to) <= len(from) {
		return nil // no longer than s
	}
	var have int64
	for {
		i := strings.Index(s, from)
		if i < 0 {
			return sqltypes.AppendLimit(have, int64(len(s)))
		}
		if err := sqltypes.AppendLimit(have, int64(i)); err != nil {
			return err
		}
		have += int64(i)
		if err := sqltypes.AppendLimit(have, int64(len(to))); err != nil {
			return err
		}
		have += int64(len(to))
		s = s[i+len(from):]
	}
}

// substringRunes is substring(s FROM start [FOR n]) by characters:
// positions before the first character count towards n.
func substringRunes(s string, start, n int64, hasLen bool) (string, error) {
	from, to, err := substringBounds(start, n, hasLen)
	if err != nil || to <= from && hasLen {
		return "", err
	}
	// Walk the runes once, cutting at the byte offsets of from and to.
	b0, b1 := len(s), len(s)
	i := int64(1)
	for off := range s {
		if i == from {
			b0 = off
		}
		if hasLen && i == to {
			b1 = off
			break
		}
		i++
	}
	if b0 > b1 {
		return "", nil
	}
	return s[b0:b1], nil
}

func substringBytes(s string, start, n int64, hasLen bool) (string, error) {
	from, to, err := substringBounds(start, n, hasLen)
	if err != nil {
		return "", err
	}
	lo, hi := from-1, int64(len(s))
	if hasLen && to-1 < hi {
		hi = to - 1
	}
	if lo >= hi {
		return "", nil
	}
	return s[lo:hi], nil
}

// substringBounds turns SQL's start and length into the 1-based positions
// [from, to) of the characters kept (to is meaningless without a length).
func substringBounds(start, n int64, hasLen bool) (from, to int64, err error) {
	if hasLen && n < 0 {
		return 0, 0, pgerr.New(pgerr.SubstringError, "negative substring length not allowed")
	}
	from = max(start, 1)
	to = start + n // int4 operands: no overflow in int64
	return from, to, nil
}

// trimBytes is btrim/ltrim/rtrim of bytea: the bytes of cut, not runes.
func trimBytes(name, s, cut string) string {
	in := func(c byte) bool { return strings.IndexByte(cut, c) >= 0 }
	lo, hi := 0, len(s)
	if name != "rtrim" {
		for lo < hi && in(s[lo]) {
			lo++
		}
	}
	if name != "ltrim" {
		for hi > lo && in(s[hi-1]) {
			hi--
		}
	}
	return s[lo:hi]
}

// splitPart is split_part: field n from the left, or from the right when
// n is negative (PostgreSQL 14).
func splitPart(s, delim string, n int64) (string, error) {
	if n == 0 {
		return "", pgerr.New(pgerr.InvalidParameterValue, "field position must not be zero")
	}
	if s == "" {
		return "", nil
	}
	if delim == "" {
		if n == 1 || n == -1 {
			return s, nil
		}
		return "", nil
	}
	parts := strings.Split(s, delim)
	i := n - 1
	if n < 0 {
		i = int64(len(parts)) + n
	}
	if i < 0 || i >= int64(len(parts)) {
		return "", nil
	}
	return parts[i], nil
}

// translate replaces each character of s found in from by the character
// at the same place in to, or drops it when to is shorter.
func translate(s, from, to string) string {
	f, t := []rune(from), []rune(to)
	var sb strings.Builder
	for _, c := range s {
		k := -1
		for i, x := range f {
			if x == c {
				k = i
				break
			}
		}
		switch {
		case k < 0:
			sb.WriteRune(c)
		case k < len(t):
			sb.WriteRune(t[k])
		}
	}
	return sb.String()
}

// keepRunes is how many of n characters left(s, k) keeps (right(s, k)
// keeps as many from the other end): k of them, or all but -k.
func keepRunes(n int, k int64) int {
	if k < 0 {
		k += int64(n)
	}
	return int(min(max(k, 0), int64(n)))
}

// pad is lpad/rpad: s cut or filled to n characters with repetitions of
// fill.
func pad(s string, n int64, fill string, left bool) (string, error) {
	n = max(n, 0)
	// PostgreSQL sizes the result for n characters of the encoding's
	// longest (4 bytes in UTF8) before it looks at s.
	if err := sqltypes.LengthLimit(n * utf8.UTFMax); err != nil {
		return "", err
	}
	have := int64(utf8.RuneCountInString(s))
	if have >= n {
		return s[:runePrefix(s, n)], nil
	}
	fillRunes := int64(utf8.RuneCountInString(fill))
	if fillRunes == 0 {
		return s, nil
	}
	// The padding is whole repetitions of fill and a prefix of it,
	// built in place rather than as characters.
	want := n - have
	whole, part := want/fillRunes, fill[:runePrefix(fill, want%fillRunes)]
	buf, err := sqltypes.MakeBytes(int64(len(s))+whole*int64(len(fill))+int64(len(part)), "the padded string")
	if err != nil {
		return "", err
	}
	if !left {
		buf = append(buf, s...)
	}
	buf = append(sqltypes.AppendRepeat(buf, fill, whole), part...)
	if left {
		buf = append(buf, s...)
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
}

// runePrefix is the byte length of s's first n characters (all of s when
// it has fewer).
func runePrefix(s string, n int64) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// asciiCase shifts the ASCII letters in [lo, hi] by delta.
func asciiCase(s string, lo, hi byte, delta int) string {
	b := []byte(s)
	for i, c := range b {
		if c >= lo && c <= hi {
			b[i] = byte(int(c) + delta)
		}
	}
	return string(b)
}

// initcap upper-cases the first letter of each run of ASCII letters and
// digits and lower-cases the rest.
func initcap(s string) string {
	b := []byte(s)
	wasAlnum := false
	for i, c := range b {
		switch {
		case wasAlnum && c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case !wasAlnum && c >= 'a' && c <= 'z':
			b[i] = c - ('a' - 'A')
		}
		wasAlnum = isASCIIAlnum(c)
	}
	return string(b)
}

func chr(code int64) (string, error) {
	switch {
	case code == 0:
		return "", pgerr.New(pgerr.ProgramLimitExceeded, "null character not permitted")
	case code < 0:
		return "", pgerr.New(pgerr.InvalidParameterValue, "character number must be positive")
	case code > utf8.MaxRune:
		return "", pgerr.New(pgerr.ProgramLimitExceeded, "requested character too large for encoding: %d", code)
	case code >= 0xD800 && code <= 0xDFFF:
		return "", pgerr.New(pgerr.ProgramLimitExceeded, "requested character not valid for encoding: %d", code)
	}
	return string(rune(code)), nil
}

func init() {
	// overlay(s PLACING r FROM start [FOR n]): s with n characters (bytes
	// for bytea; by default as many as r has) from start replaced by r.
	overlay := func(a []sqltypes.Value, chars bool, n int64) (string, error) {
		sub := substringBytes
		if chars {
			sub = substringRunes
		}
		head, err := sub(a[0].S, 1, a[2].I-1, true)
		if err != nil {
			return "", err
		}
		tail, err := sub(a[0].S, a[2].I+n, 0, false)
		if err != nil {
			return "", err
		}
		// PostgreSQL's text_overlay concatenates twice: the head and
		// the replacement, then that and the tail, each allocated whole.
		if err := sqltypes.AllocLimit(int64(len(head)) + int64(len(a[1].S)) + 4); err != nil {
			return "", err
		}
		if err := sqltypes.AllocLimit(int64(len(head)) + int64(len(a[1].S)) + int64(len(tail)) + 4); err != nil {
			return "", err
		}
		return sqltypes.Concat("overlay's result", head, a[1].S, tail)
	}
	Register("overlay",
		textFn([]Param{text, text, int4}, func(a []sqltypes.Value) (string, error) {
			return overlay(a, true, int64(utf8.RuneCountInString(a[1].S)))
		}),
		textFn([]Param{text, text, int4, int4}, func(a []sqltypes.Value) (string, error) { return overlay(a, true, a[3].I) }),
		bytesFn([]Param{bytea, bytea, int4}, func(a []sqltypes.Value) ([]byte, error) {
			s, err := overlay(a, false, int64(len(a[1].S)))
			return []byte(s), err
		}),
		bytesFn([]Param{bytea, bytea, int4, int4}, func(a []sqltypes.Value) ([]byte, error) {
			s, err := overlay(a, false, a[3].I)
			return []byte(s), err
		}))
}

// substringRegex is substring(s FROM pattern): the part of s matching the
// pattern, or its first parenthesized subexpression; NULL without a match.
func substringRegex(s, pattern string) (sqltypes.Value, error) {
	re, err := CompileRegex(pattern, "")
	if err != nil {
		return sqltypes.Null, err
	}
	m := re.FindStringSubmatchIndex(s)
	switch {
	case m == nil:
		return sqltypes.Null, nil
	case len(m) > 2:
		if m[2] < 0 {
			return sqltypes.Null, nil
		}
		return sqltypes.NewText(s[m[2]:m[3]]), nil
	}
	return sqltypes.NewText(s[m[0]:m[1]]), nil
}
