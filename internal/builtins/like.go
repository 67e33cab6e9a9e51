package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// LikeMatch reports whether s matches the SQL LIKE pattern pat, unit by
// unit (runes for text, bytes for bytea): % matches any run of units, _
// any one, and esc makes the unit after it literal. A pattern ending in
// esc is 22025 once matching reaches that escape, as PostgreSQL's
// MatchText raises it (a subject used up before then is no match, no
// error).
func LikeMatch[T byte | rune](s, pat []T, esc T) (bool, error) {
	// Iterative matching that backtracks to the last %, which can only
	// need to cover more of s: linear in practice.
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(pat) {
			c := pat[pi]
			switch {
			case c == esc:
				if pi+1 == len(pat) {
					return false, pgerr.New(pgerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
				}
				if pat[pi+1] == s[si] {
					si, pi = si+1, pi+2
					continue
				}
			case c == '%':
				starP, starS = pi, si
				pi++
				continue
			case c == '_' || c == s[si]:
				si, pi = si+1, pi+1
				continue
			}
		}
		if starP < 0 {
			return false, nil
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(pat) && pat[pi] == '%' {
		pi++
	}
	return pi == len(pat), nil
}

// bytea LIKE and NOT LIKE (~~ and !~~, bytealike and byteanlike): the
// pattern's bytes, with backslash its escape. bytea has no ILIKE, and no
// ESCAPE clause (like_escape of bytea yields bytea, but the grammar's
// ESCAPE calls the text one).
func init() {
	for _, op := range []string{"~~", "!~~"} {
		neg := op == "!~~"
		RegisterOperator(op, binop(tBytea, tBytea, tBool, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			m, err := LikeMatch([]byte(a.S), []byte(b.S), '\\')
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewBool(m != neg), nil
		}))
	}
}
