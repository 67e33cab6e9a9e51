package builtins

import (
	"regexp"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostgreSQL 15's regexp_count, regexp_instr, regexp_substr, regexp_like
// and the start/N forms of regexp_replace. They share PostgreSQL's way of
// walking a string's matches, which differs from Go's FindAll in two ways
// clients can see: an empty match right after a non-empty one counts
// (regexp_count('aaa', 'a*') is 2), and a search from a start position
// still sees the text before it, so '^' does not match there and \m
// looks at the character before (regexp_count('abcabc', '^b', 2) is 0).

// pgRegex is a compiled pattern and its form for searching from inside a
// string: "\A." then a lazy skip then the pattern as group 1, run on the
// string from one character before the search position, so the pattern's
// anchors and word boundaries see that character.
type pgRegex struct {
	re, from *regexp.Regexp
}

func compilePGRegex(pattern, flags string) (*pgRegex, error) {
	re, err := CompileRegex(pattern, flags)
	if err != nil {
		return nil, err
	}
	key := "\x01" + flags + "\x00" + pattern
	if from, ok := regexCache.Load(key); ok {
		return &pgRegex{re: re, from: from.(*regexp.Regexp)}, nil
	}
	from, err := regexp.Compile(`(?s:\A.)(?s:.*?)(` + re.String() + `)`)
	if err != nil {
		return nil, invalidRegex("%s", err.Error())
	}
	regexCacheMu.Lock()
	if regexCacheLen < maxRegexCache {
		regexCacheLen++
		regexCache.Store(key, from)
	}
	regexCacheMu.Unlock()
	return &pgRegex{re: re, from: from}, nil
}

// find is the first match at or after byte offset pos of s, as submatch
// byte offsets into s (nil for none).
func (r *pgRegex) find(s string, pos int) []int {
	if pos == 0 {
		return r.re.FindStringSubmatchIndex(s)
	}
	if pos > len(s) {
		return nil
	}
	_, size := utf8.DecodeLastRuneInString(s[:pos])
	prev := pos - size
	m := r.from.FindStringSubmatchIndex(s[prev:])
	if m == nil {
		return nil
	}
	loc := m[2:]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += prev
		}
	}
	return loc
}

// findAll is the matches from byte offset pos on, at most n of them (n < 0:
// all), as PostgreSQL walks them (see each).
func (r *pgRegex) findAll(s string, pos, n int) [][]int {
	var out [][]int
	r.each(s, pos, func(loc []int) bool {
		out = append(out, loc)
		return n < 0 || len(out) < n
	})
	return out
}

// each calls yield with the matches from byte offset pos on, one at a
// time, until yield returns false: after an empty match the search moves
// one character on, after any other it resumes where the match ended.
// A caller that builds as it goes holds no list of the matches, which
// over a long string would take many times the string's size.
func (r *pgRegex) each(s string, pos int, yield func(loc []int) bool) {
	for pos <= len(s) {
		loc := r.find(s, pos)
		if loc == nil || !yield(loc) {
			return
		}
		if loc[1] > loc[0] {
			pos = loc[1]
			continue
		}
		if loc[1] >= len(s) {
			return
		}
		_, size := utf8.DecodeRuneInString(s[loc[1]:])
		pos = loc[1] + size
	}
}

// byteOffset is the byte offset of 1-based character position start in
// s; past the end it is len(s)+1, where nothing matches.
func byteOffset(s string, start int64) int {
	if start <= 1 {
		return 0
	}
	n := int64(1)
	for i := range s {
		if n == start {
			return i
		}
		n++
	}
	if n == start {
		return len(s)
	}
	return len(s) + 1
}

func badRegexParam(name string, v int64) error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": %d", name, v)
}

func noGlobal(fn, flags string) error {
	if strings.Contains(flags, "g") {
		return pgerr.New(pgerr.InvalidParameterValue, "%s() does not support the \"global\" option", fn)
	}
	return nil
}

// regexArgs reads the optional arguments of regexp_count, _instr and
// _substr: which argument (by index, -1 for none) holds start, N,
// endoption, flags and subexpr.
type regexArgs struct {
	start, n, endoption, flags, subexpr int
}

func (ra regexArgs) read(fn string, a []sqltypes.Value) (start, n, endoption, subexpr int64, flags string, err error) {
	start, n = 1, 1
	get := func(i int) (int64, bool) {
		if i >= 0 && i < len(a) {
			return a[i].I, true
		}
		return 0, false
	}
	if v, ok := get(ra.start); ok {
		if start = v; v <= 0 {
			return 0, 0, 0, 0, "", badRegexParam("start", v)
		}
	}
	if v, ok := get(ra.n); ok {
		if n = v; v <= 0 {
			return 0, 0, 0, 0, "", badRegexParam("n", v)
		}
	}
	if v, ok := get(ra.endoption); ok {
		if endoption = v; v != 0 && v != 1 {
			return 0, 0, 0, 0, "", badRegexParam("endoption", v)
		}
	}
	if ra.flags >= 0 && ra.flags < len(a) {
		flags = a[ra.flags].S
		if err := noGlobal(fn, flags); err != nil {
			return 0, 0, 0, 0, "", err
		}
	}
	if v, ok := get(ra.subexpr); ok {
		if subexpr = v; v < 0 {
			return 0, 0, 0, 0, "", badRegexParam("subexpr", v)
		}
	}
	return start, n, endoption, subexpr, flags, nil
}

// nthMatch is the span (byte offsets) of subexpression sub of the n-th
// match of pattern in s from character start; ok is false when there is
// no such match or the subexpression did not take part in it.
func nthMatch(s, pattern, flags string, start, n, sub int64) (lo, hi int, ok bool, err error) {
	r, err := compilePGRegex(pattern, flags)
	if err != nil {
		return 0, 0, false, err
	}
	if sub > int64(r.re.NumSubexp()) {
		return 0, 0, false, nil
	}
	ms := r.findAll(s, byteOffset(s, start), int(min(n, int64(len(s))+1)))
	if int64(len(ms)) < n {
		return 0, 0, false, nil
	}
	m := ms[n-1]
	if m[2*sub] < 0 {
		return 0, 0, false, nil
	}
	return m[2*sub], m[2*sub+1], true, nil
}

// regexReplace is regexp_replace: the n-th match from character start
// replaced (n = 0: every one). The result is built as PostgreSQL builds
// it, in a buffer checked against the field limit as it grows (54000
// "out of memory" past 1 GB), the text before each match and then the
// replacement appended; the matches are walked one at a time.
func regexReplace(s, pattern, repl, flags string, start, n int64) (sqltypes.Value, error) {
	r, err := compilePGRegex(pattern, flags)
	if err != nil {
		return sqltypes.Null, err
	}
	tmpl := pgReplacement(repl)
	out := sqltypes.Buffer{What: "regexp_replace's result"}
	var expanded []byte
	seen, last := int64(0), 0
	r.each(s, byteOffset(s, start), func(m []int) bool {
		seen++
		if seen < n {
			return true
		}
		if err = out.Append(s[last:m[0]]); err != nil {
			return false
		}
		expanded = r.re.ExpandString(expanded[:0], tmpl, s, m)
		if err = out.Append(unsafe.String(unsafe.SliceData(expanded), len(expanded))); err != nil {
			return false
		}
		last = m[1]
		return n == 0
	})
	switch {
	case err != nil:
		return sqltypes.Null, err
	case seen == 0 || seen < n:
		return sqltypes.NewText(s), nil
	}
	if err := out.Append(s[last:]); err != nil {
		return sqltypes.Null, err
	}
	res, err := out.String()
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.NewText(res), nil
}

func init() {
	textT, intT := T(sqltypes.TypeText), T(sqltypes.TypeInt4)
	params := func(ps ...Param) []Param { return ps }
	count := func(ra regexArgs) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			start, _, _, _, flags, err := ra.read("regexp_count", a)
			if err != nil {
				return sqltypes.Null, err
			}
			r, err := compilePGRegex(a[1].S, flags)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewInt(int64(len(r.findAll(a[0].S, byteOffset(a[0].S, start), -1)))), nil
		}
	}
	doc := "number of times the POSIX regular expression matches the string"
	Register("regexp_count",
		Overload{Params: params(textT, textT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: count(regexArgs{-1, -1, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: count(regexArgs{2, -1, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT, textT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: count(regexArgs{2, -1, -1, 3, -1})})

	instr := func(ra regexArgs) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			start, n, endoption, sub, flags, err := ra.read("regexp_instr", a)
			if err != nil {
				return sqltypes.Null, err
			}
			lo, hi, ok, err := nthMatch(a[0].S, a[1].S, flags, start, n, sub)
			if err != nil || !ok {
				return sqltypes.NewInt(0), err
			}
			at := lo
			if endoption == 1 {
				at = hi
			}
			return sqltypes.NewInt(int64(utf8.RuneCountInString(a[0].S[:at])) + 1), nil
		}
	}
	doc = "position of the N-th match of the POSIX regular expression in the string"
	Register("regexp_instr",
		Overload{Params: params(textT, textT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: instr(regexArgs{-1, -1, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: instr(regexArgs{2, -1, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT, intT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: instr(regexArgs{2, 3, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT, intT, intT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: instr(regexArgs{2, 3, 4, -1, -1})},
		Overload{Params: params(textT, textT, intT, intT, intT, textT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: instr(regexArgs{2, 3, 4, 5, -1})},
		Overload{Params: params(textT, textT, intT, intT, intT, textT, intT), Result: Returns(sqltypes.TypeInt4), Doc: doc, Eval: instr(regexArgs{2, 3, 4, 5, 6})})

	substr := func(ra regexArgs) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			start, n, _, sub, flags, err := ra.read("regexp_substr", a)
			if err != nil {
				return sqltypes.Null, err
			}
			lo, hi, ok, err := nthMatch(a[0].S, a[1].S, flags, start, n, sub)
			if err != nil || !ok {
				return sqltypes.Null, err
			}
			return sqltypes.NewText(a[0].S[lo:hi]), nil
		}
	}
	doc = "the N-th substring matching the POSIX regular expression"
	Register("regexp_substr",
		Overload{Params: params(textT, textT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: substr(regexArgs{-1, -1, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: substr(regexArgs{2, -1, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT, intT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: substr(regexArgs{2, 3, -1, -1, -1})},
		Overload{Params: params(textT, textT, intT, intT, textT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: substr(regexArgs{2, 3, -1, 4, -1})},
		Overload{Params: params(textT, textT, intT, intT, textT, intT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: substr(regexArgs{2, 3, -1, 4, 5})})

	like := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		flags := ""
		if len(a) > 2 {
			flags = a[2].S
			if err := noGlobal("regexp_like", flags); err != nil {
				return sqltypes.Null, err
			}
		}
		re, err := CompileRegex(a[1].S, flags)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBool(re.MatchString(a[0].S)), nil
	}
	doc = "whether the POSIX regular expression matches the string"
	Register("regexp_like",
		Overload{Params: params(textT, textT), Result: Returns(sqltypes.TypeBool), Doc: doc, Eval: like},
		Overload{Params: params(textT, textT, textT), Result: Returns(sqltypes.TypeBool), Doc: doc, Eval: like})

	// regexp_replace(source, pattern, replacement, start [, N [, flags]]):
	// without N, the first match from start (as without start); N = 0
	// replaces every match, and then the g flag changes nothing.
	replaceFrom := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		start, n := a[3].I, int64(1)
		if start <= 0 {
			return sqltypes.Null, badRegexParam("start", start)
		}
		if len(a) > 4 {
			if n = a[4].I; n < 0 {
				return sqltypes.Null, badRegexParam("n", n)
			}
		}
		flags := ""
		if len(a) > 5 {
			flags = a[5].S
		}
		return regexReplace(a[0].S, a[1].S, a[2].S, flags, start, n)
	}
	doc = "replace the N-th match of the POSIX regular expression from a start position"
	Register("regexp_replace",
		Overload{Params: params(textT, textT, textT, intT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: replaceFrom},
		Overload{Params: params(textT, textT, textT, intT, intT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: replaceFrom},
		Overload{Params: params(textT, textT, textT, intT, intT, textT), Result: Returns(sqltypes.TypeText), Doc: doc, Eval: replaceFrom})
}
