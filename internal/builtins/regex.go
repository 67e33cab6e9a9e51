package builtins

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostgreSQL's regular expressions (its "advanced regular expressions",
// AREs) run on Go's regexp package (RE2) after one translation,
// TranslateRegex. What the two share passes through; PostgreSQL's
// spellings RE2 lacks are respelled (\m \M \y \Y [[:<:]] [[:>:]] become
// word boundaries, \Z becomes \z); what RE2 cannot do at all (back
// references, lookahead and lookbehind) is 2201B with a message saying so.
// As in PostgreSQL, '.' and bracket expressions match newlines unless the
// 'n' flag asks for newline-sensitive matching.

// regexCache holds compiled patterns, keyed by flags and pattern: a pattern
// that is not a constant (read from a column) compiles once per distinct
// text, as PostgreSQL's own cache does.
var regexCache sync.Map

const maxRegexCache = 4096

var regexCacheLen int64
var regexCacheMu sync.Mutex

func invalidRegex(format string, args ...any) error {
	return pgerr.New(pgerr.InvalidRegularExpression, "invalid regular expression: "+format, args...)
}

// CompileRegex compiles a PostgreSQL pattern with flags (as regexp_replace
// takes them: i case-insensitive, c case-sensitive, n newline-sensitive,
// s not, g global is the caller's, x expanded is refused). It caches.
func CompileRegex(pattern, flags string) (*regexp.Regexp, error) {
	key := flags + "\x00" + pattern
	if re, ok := regexCache.Load(key); ok {
		return re.(*regexp.Regexp), nil
	}
	goPattern, err := TranslateRegex(pattern, flags)
	if err != nil {
		return nil, err
	}
	return compileCached(key, goPattern)
}

// compileCached compiles an RE2 pattern, reporting a failure as
// PostgreSQL's 2201B, and keeps it in regexCache under key while the cache
// holds fewer than maxRegexCache patterns (patterns read from rows or sent
// by clients must not grow it without bound).
func compileCached(key, goPattern string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(goPattern)
	if err != nil {
		if msg, ok := pgRegexError(err); ok {
			return nil, invalidRegex("%s", msg)
		}
		msg := err.Error()
		if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "error parsing regexp") {
			msg = msg[i+2:]
		}
		return nil, invalidRegex("%s", msg)
	}
	regexCacheMu.Lock()
	if regexCacheLen < maxRegexCache {
		regexCacheLen++
		regexCache.Store(key, re)
	}
	regexCacheMu.Unlock()
	return re, nil
}

// pgRegexError words an RE2 syntax error as PostgreSQL's regex library
// (regerror) words the same fault of the pattern; ok false for faults it
// has no counterpart of.
func pgRegexError(err error) (string, bool) {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return "", false
	}
	switch se.Code {
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
		return "parentheses () not balanced", true
	case syntax.ErrMissingBracket:
		return "brackets [] not balanced", true
	case syntax.ErrInvalidEscape, syntax.ErrTrailingBackslash:
		return "invalid escape \\ sequence", true
	case syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp:
		return "quantifier operand invalid", true
	case syntax.ErrInvalidRepeatSize:
		return "invalid repetition count(s)", true
	case syntax.ErrInvalidCharRange:
		if strings.HasPrefix(se.Expr, "[:") {
			return "invalid character class", true // RE2 calls [:nope:] a range
		}
		return "invalid character range", true
	case syntax.ErrInvalidCharClass:
		return "invalid character class", true
	}
	return "", false
}

// TranslateRegex turns a PostgreSQL ARE with flags into RE2 syntax.
func TranslateRegex(p, flags string) (string, error) {
	icase, newline := false, false
	for _, f := range flags {
		switch f {
		case 'i':
			icase = true
		case 'c':
			icase = false
		case 'n', 'm':
			newline = true
		case 's', 'p', 'w':
			newline = false
		case 'g':
		case 'x', 'e', 'b', 'q', 't':
			if f == 'q' {
				p = regexp.QuoteMeta(p)
				continue
			}
			if f == 't' {
				continue
			}
			return "", invalidRegex("flag %q is not supported (zproxy runs regular expressions on RE2)", string(f))
		default:
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid regular expression option: %q", string(f))
		}
	}
	// An ARE may start with embedded options: (?i) and friends.
	if strings.HasPrefix(p, "***:") {
		p = p[4:]
	} else if strings.HasPrefix(p, "***=") {
		p = regexp.QuoteMeta(p[4:])
	}
	if strings.HasPrefix(p, "(?") {
		if end := strings.IndexByte(p, ')'); end > 2 && strings.Trim(p[2:end], "bceimnpqstwx") == "" {
			inner, err := TranslateRegex(p[end+1:], flags+p[2:end])
			return inner, err
		}
	}
	var sb strings.Builder
	prefix := "(?s"
	if newline {
		prefix = "(?m"
	}
	if icase {
		prefix += "i"
	}
	sb.WriteString(prefix + ")")
	inBracket := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			i++
			switch {
			case n >= '1' && n <= '9' && !inBracket:
				return "", invalidRegex("back references (\\%c) are not supported (zproxy runs regular expressions on RE2)", n)
			case n == 'm' || n == 'M' || n == 'y':
				sb.WriteString(`\b`)
			case n == 'Y':
				sb.WriteString(`\B`)
			case n == 'Z':
				sb.WriteString(`\z`)
			default:
				sb.WriteByte('\\')
				sb.WriteByte(n)
			}
		case c == '[' && !inBracket:
			if strings.HasPrefix(p[i:], "[[:<:]]") || strings.HasPrefix(p[i:], "[[:>:]]") {
				sb.WriteString(`\b`)
				i += 6
				continue
			}
			inBracket = true
			sb.WriteByte(c)
			// A ']' first in the bracket (after an optional '^') is literal.
			if i+1 < len(p) && p[i+1] == '^' {
				sb.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				sb.WriteString(`\]`)
				i++
			}
		case c == '[' && inBracket && i+1 < len(p) && (p[i+1] == ':' || p[i+1] == '.' || p[i+1] == '='):
			end := strings.Index(p[i+2:], string(p[i+1])+"]")
			if end < 0 {
				return "", invalidRegex("brackets [] not balanced")
			}
			sb.WriteString(p[i : i+2+end+2])
			i += 2 + end + 1
		case c == ']' && inBracket:
			inBracket = false
			sb.WriteByte(c)
		case !inBracket && c == '(' && (strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") ||
			strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!")):
			return "", invalidRegex("lookahead and lookbehind constraints are not supported (zproxy runs regular expressions on RE2)")
		default:
			sb.WriteByte(c)
		}
	}
	if inBracket {
		return "", invalidRegex("brackets [] not balanced")
	}
	return sb.String(), nil
}

// SimilarToRegex is similar_to_escape: the ARE a SIMILAR TO pattern means,
// anchored at both ends. escape is the escape character ("" for none,
// "\\" by default).
func SimilarToRegex(pat, escape string) (string, error) {
	if len([]rune(escape)) > 1 {
		return "", pgerr.New(pgerr.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	var sb strings.Builder
	sb.WriteString("^(?:")
	inBracket := false
	nquotes := 0
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case escape != "" && string(c) == escape:
			if i+1 >= len(rs) {
				return "", pgerr.New(pgerr.InvalidEscapeSequence, "invalid escape string")
			}
			i++
			if rs[i] == '"' && !inBracket {
				// The escape-double-quote separators mark the part
				// SUBSTRING(... SIMILAR ...) returns: what precedes the
				// first matches as little as it can, as PostgreSQL's
				// similar_escape writes it.
				switch nquotes {
				case 0:
					sb.WriteString("){1,1}?(")
				case 1:
					sb.WriteString("){1,1}(?:")
				default:
					return "", pgerr.New(pgerr.InvalidUseOfEscapeCharacter, "SQL regular expression may not contain more than two escape-double-quote separators")
				}
				nquotes++
				continue
			}
			sb.WriteString(regexp.QuoteMeta(string(rs[i])))
		case inBracket:
			if c == ']' {
				inBracket = false
			}
			if c == '\\' {
				sb.WriteString(`\\`)
				continue
			}
			sb.WriteRune(c)
		case c == '[':
			inBracket = true
			sb.WriteRune(c)
		case c == '%':
			sb.WriteString(".*")
		case c == '_':
			sb.WriteByte('.')
		case c == '.' || c == '^' || c == '$' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(c)
		default:
			sb.WriteRune(c) // | * + ? { } ( ) keep their regex meaning
		}
	}
	sb.WriteString(")$")
	return sb.String(), nil
}

func init() {
	textT := T(sqltypes.TypeText)
	Register("similar_to_escape",
		Overload{Params: []Param{textT}, Result: Returns(sqltypes.TypeText), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			s, err := SimilarToRegex(a[0].S, "\\")
			return sqltypes.NewText(s), err
		}},
		Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.TypeText), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			s, err := SimilarToRegex(a[0].S, a[1].S)
			return sqltypes.NewText(s), err
		}})
	replace := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		flags := ""
		if len(a) > 3 {
			flags = a[3].S
		}
		n := int64(1)
		if strings.Contains(flags, "g") {
			n = 0
		}
		return regexReplace(a[0].S, a[1].S, a[2].S, flags, 1, n)
	}
	Register("regexp_replace",
		Overload{Params: []Param{textT, textT, textT}, Result: Returns(sqltypes.TypeText), Eval: replace},
		Overload{Params: []Param{textT, textT, textT, textT}, Result: Returns(sqltypes.TypeText), Eval: replace})
	match := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		flags := ""
		if len(a) > 2 {
			flags = a[2].S
			if strings.Contains(flags, "g") {
				return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "regexp_match() does not support the \"global\" option").
					WithHint("Use the regexp_matches function instead.")
			}
		}
		re, err := CompileRegex(a[1].S, flags)
		if err != nil {
			return sqltypes.Null, err
		}
		m := re.FindStringSubmatchIndex(a[0].S)
		if m == nil {
			return sqltypes.Null, nil
		}
		return matchArray(a[0].S, m), nil
	}
	Register("regexp_match",
		Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), Eval: match},
		Overload{Params: []Param{textT, textT, textT}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), Eval: match})
	split := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		flags := ""
		if len(a) > 2 {
			flags = a[2].S
		}
		parts, err := RegexSplit(a[0].S, a[1].S, flags)
		if err != nil {
			return sqltypes.Null, err
		}
		if err := sqltypes.AccumElemsLimit(int64(len(parts))); err != nil {
			return sqltypes.Null, err
		}
		elems, err := sqltypes.MakeElems(int64(len(parts)), "regexp_split_to_array's array")
		if err != nil {
			return sqltypes.Null, err
		}
		for i, p := range parts {
			elems[i] = sqltypes.NewText(p)
		}
		return sqltypes.NewArray1(sqltypes.TypeText, elems), nil
	}
	Register("regexp_split_to_array",
		Overload{Params: []Param{textT, textT}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), Eval: split},
		Overload{Params: []Param{textT, textT, textT}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), Eval: split})
}

// matchArray is regexp_match's result: the parenthesized subexpressions'
// matches, or the whole match when the pattern has none.
func matchArray(s string, m []int) sqltypes.Value {
	if len(m) == 2 {
		return sqltypes.NewArray1(sqltypes.TypeText, []sqltypes.Value{sqltypes.NewText(s[m[0]:m[1]])})
	}
	elems := make([]sqltypes.Value, 0, len(m)/2-1)
	for g := 1; g < len(m)/2; g++ {
		if m[2*g] < 0 {
			elems = append(elems, sqltypes.Null)
		} else {
			elems = append(elems, sqltypes.NewText(s[m[2*g]:m[2*g+1]]))
		}
	}
	return sqltypes.NewArray1(sqltypes.TypeText, elems)
}

// RegexMatches is regexp_matches: one array per match (all of them with
// the g flag, else the first).
func RegexMatches(s, pattern, flags string) ([]sqltypes.Value, error) {
	re, err := CompileRegex(pattern, strings.ReplaceAll(flags, "g", ""))
	if err != nil {
		return nil, err
	}
	n := 1
	if strings.Contains(flags, "g") {
		n = -1
	}
	var out []sqltypes.Value
	for _, m := range re.FindAllStringSubmatchIndex(s, n) {
		out = append(out, matchArray(s, m))
	}
	return out, nil
}

// RegexSplit is regexp_split_to_array and _to_table: the text between
// matches; empty matches at the very start and end split nothing, as in
// PostgreSQL.
func RegexSplit(s, pattern, flags string) ([]string, error) {
	if strings.Contains(flags, "g") {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "regexp_split_to_table() does not support the \"global\" option")
	}
	re, err := CompileRegex(pattern, flags)
	if err != nil {
		return nil, err
	}
	var out []string
	start := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[1] == 0 || m[0] >= len(s) {
			continue // an empty match at the start or end
		}
		out = append(out, s[start:m[0]])
		start = m[1]
	}
	return append(out, s[start:]), nil
}

// pgReplacement turns regexp_replace's replacement (\1..\9 for groups, \&
// for the whole match, \\ for a backslash) into Go's Expand syntax.
func pgReplacement(r string) string {
	var sb strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '$':
			sb.WriteString("$$")
		case c == '\\' && i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9':
			sb.WriteString("${" + string(r[i+1]) + "}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '&':
			sb.WriteString("${0}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '\\':
			sb.WriteByte('\\')
			i++
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
