package builtins

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The citext extension's functions (version 1.6): the string functions
// it overloads for citext so that they ignore case, as its SQL
// definitions do (strpos of the lower cases, the regular-expression
// functions with the "i" flag unless the flags say "c", replace and
// split_part through a case-insensitive pattern of the quoted string).
// Every other function reaches a citext through its implicit cast to
// text. The type itself is sqltypes.Citext (citext.go).

// callText calls the text overload of a built-in function with the
// citext arguments read as text.
func callText(ctx *Context, name string, args []sqltypes.Value) (sqltypes.Value, error) {
	types := make([]sqltypes.Type, len(args))
	texts := make([]sqltypes.Value, len(args))
	for i, a := range args {
		types[i], texts[i] = sqltypes.TypeText, a
		if a.K == sqltypes.KindCitext {
			texts[i] = sqltypes.NewText(a.S)
		}
	}
	if args[len(args)-1].K == sqltypes.KindInt {
		types[len(args)-1] = sqltypes.TypeInt4
	}
	r, err := Resolve(name, types)
	if err != nil {
		return sqltypes.Null, err
	}
	return r.Eval(ctx, texts)
}

// citextFlags adds "i" to regular-expression flags unless they ask for
// case sensitivity ("c").
func citextFlags(flags string) string {
	if strings.Contains(flags, "c") {
		return flags
	}
	return flags + "i"
}

// quoteRegex backslash-quotes every character but letters, digits and _,
// as citext's replace and split_part do
// (regexp_replace($2, '([^a-zA-Z_0-9])', E'\\\\\\1', 'g')).
func quoteRegex(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func init() {
	ci := T(sqltypes.TypeCitext)
	text := T(sqltypes.TypeText)
	int4 := T(sqltypes.TypeInt4)
	texts := sqltypes.ArrayOf(sqltypes.TypeText)
	fn := func(params []Param, result sqltypes.Type, doc string, f func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc, Eval: f}
	}

	Register("strpos", fn([]Param{ci, ci}, sqltypes.TypeInt4, "the position of the substring, ignoring case", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		s, sub := sqltypes.CitextFold(a[0].S), sqltypes.CitextFold(a[1].S)
		i := strings.Index(s, sub)
		if i < 0 {
			return sqltypes.NewInt(0), nil
		}
		// The fold maps each character to one character: the count of
		// characters before the match is the position in the original.
		return sqltypes.NewInt(int64(utf8.RuneCountInString(s[:i])) + 1), nil
	}))
	Register("replace", fn([]Param{ci, ci, ci}, sqltypes.TypeText, "every occurrence of the substring, in any case, replaced", func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return callText(ctx, "regexp_replace", []sqltypes.Value{a[0], sqltypes.NewText(quoteRegex(a[1].S)), a[2], sqltypes.NewText("gi")})
	}))
	Register("split_part", fn([]Param{ci, ci, int4}, sqltypes.TypeText, "the n-th field split at the delimiter, in any case", func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		parts, err := callText(ctx, "regexp_split_to_array", []sqltypes.Value{a[0], sqltypes.NewText(quoteRegex(a[1].S)), sqltypes.NewText("i")})
		if err != nil || parts.IsNull() {
			return sqltypes.Null, err
		}
		// An array subscript: out of range (0 and negatives too) is NULL.
		elems := parts.Array().Elems
		if a[2].I < 1 || a[2].I > int64(len(elems)) {
			return sqltypes.Null, nil
		}
		return elems[a[2].I-1], nil
	}))
	Register("translate", fn([]Param{ci, ci, text}, sqltypes.TypeText, "the characters of from, in either case, translated", func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		lower, upper := strings.Map(unicode.ToLower, a[1].S), strings.Map(unicode.ToUpper, a[1].S)
		once, err := callText(ctx, "translate", []sqltypes.Value{a[0], sqltypes.NewText(lower), a[2]})
		if err != nil {
			return sqltypes.Null, err
		}
		return callText(ctx, "translate", []sqltypes.Value{once, sqltypes.NewText(upper), a[2]})
	}))

	regex := func(name string, result sqltypes.Type, doc string, params ...Param) Overload {
		return fn(params, result, doc, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			args := append([]sqltypes.Value(nil), a...)
			// The flags are the argument after the pattern (and the
			// replacement, for regexp_replace).
			at := 2
			if name == "regexp_replace" {
				at = 3
			}
			if len(args) > at {
				if args[at].IsNull() {
					return sqltypes.Null, nil
				}
				args[at] = sqltypes.NewText(citextFlags(args[at].S))
			} else {
				args = append(args, sqltypes.NewText("i"))
			}
			return callText(ctx, name, args)
		})
	}
	Register("regexp_replace",
		regex("regexp_replace", sqltypes.TypeText, "the first match of the pattern, ignoring case, replaced", ci, ci, text),
		regex("regexp_replace", sqltypes.TypeText, "matches of the pattern, ignoring case unless the flags say c, replaced", ci, ci, text, text))
	Register("regexp_match",
		regex("regexp_match", texts, "the first match of the pattern, ignoring case", ci, ci),
		regex("regexp_match", texts, "the first match of the pattern, ignoring case unless the flags say c", ci, ci, text))
	Register("regexp_split_to_array",
		regex("regexp_split_to_array", texts, "the string split at matches of the pattern, ignoring case", ci, ci),
		regex("regexp_split_to_array", texts, "the string split at matches of the pattern, ignoring case unless the flags say c", ci, ci, text))

	// citext's min and max are the aggregates' own (agg_basic.go): they
	// compare citext values by their fold.
}
