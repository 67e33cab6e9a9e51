package sqltypes

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// The ltree extension's types (PostgreSQL 15's contrib/ltree 1.2): ltree,
// a path of labels ("Top.Science.Astronomy"); lquery, a pattern over paths
// ("*.Science.*{1,2}", "Top.!Art|Sport@.*"); and ltxtquery, a boolean
// query over a path's labels ("Science & !Astro*"). A value of each keeps
// its canonical text (what the output function prints) in S, so equal
// values are equal strings. An ltree's text is also its btree order:
// ltree_cmp compares label by label, a label by its bytes with a shorter
// prefix first, and then the path with fewer labels first; since '.' sorts
// below every byte a label may hold (letters, digits, '_' and the bytes of
// non-ASCII letters), that is exactly the byte order of the dotted text,
// so ltree keys and compares as its string (TestLtreeOrderIsTextOrder).

// The limits of ltree.h.
const (
	// LtreeMaxLevels is LTREE_MAX_LEVELS, the most labels of an ltree
	// (and the most items of an lquery, and a count's largest bound).
	LtreeMaxLevels = 65535
	// ltreeLabelMaxChars is LTREE_LABEL_MAX_CHARS.
	ltreeLabelMaxChars = 255
)

// NewLtree returns an ltree value of its canonical text.
func NewLtree(s string) Value { return Value{K: KindLtree, S: s} }

// NewLquery returns an lquery value of its canonical text.
func NewLquery(s string) Value { return Value{K: KindLquery, S: s} }

// NewLtxtquery returns an ltxtquery value of its canonical text.
func NewLtxtquery(s string) Value { return Value{K: KindLtxtquery, S: s} }

// ltreeLabelChar is ltree's ISLABEL in PostgreSQL 15: an ASCII letter,
// digit or '_', or a non-ASCII character iswalpha or iswdigit accepts
// under the database's UTF-8 ctype (glibc derives alpha from Unicode's
// Alphabetic property and counts non-ASCII decimal digits as letters).
func ltreeLabelChar(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) || unicode.Is(unicode.Nd, r)
}

func ltreeSyntaxAt(typ string, pos int) *pgerr.Error {
	return pgerr.New(pgerr.SyntaxError, "%s syntax error at character %d", typ, pos)
}

// finishLabel is finish_nodeitem: a label must not be empty nor longer
// than 255 characters (pos is the character after it).
func finishLabel(typ string, label string, chars, pos int) error {
	if label == "" {
		return ltreeSyntaxAt(typ, pos).WithDetail("Empty labels are not allowed.")
	}
	if chars > ltreeLabelMaxChars {
		return pgerr.New(pgerr.NameTooLong, "label string is too long").
			WithDetail("Label length is %d, must be at most %d, at character %d.", chars, ltreeLabelMaxChars, pos)
	}
	return nil
}

// ParseLtree reads an ltree's text as ltree_in does: labels separated by
// '.', no blanks, the empty string the empty path.
func ParseLtree(s string) (Value, error) {
	if n := strings.Count(s, ".") + 1; n > LtreeMaxLevels {
		return Null, pgerr.New(pgerr.ProgramLimitExceeded, "number of ltree labels (%d) exceeds the maximum allowed (%d)", n, LtreeMaxLevels)
	}
	pos, start, chars := 1, -1, 0
	for i, r := range s {
		switch {
		case start < 0:
			if !ltreeLabelChar(r) {
				return Null, ltreeSyntaxAt("ltree", pos)
			}
			start, chars = i, 0
		case r == '.':
			if err := finishLabel("ltree", s[start:i], chars, pos); err != nil {
				return Null, err
			}
			start = -1
		case !ltreeLabelChar(r):
			return Null, ltreeSyntaxAt("ltree", pos)
		}
		chars++
		pos++
	}
	switch {
	case start >= 0:
		if err := finishLabel("ltree", s[start:], chars, pos); err != nil {
			return Null, err
		}
	case s != "":
		return Null, pgerr.New(pgerr.SyntaxError, "ltree syntax error").WithDetail("Unexpected end of input.")
	}
	return NewLtree(s), nil
}

// LtreeLabels splits an ltree's canonical text into its labels.
func LtreeLabels(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ".")
}

// LtreeLevels is nlevel: how many labels the path has.
func LtreeLevels(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, ".") + 1
}

// LtreeCmp is ltree_cmp's value (ltree_compare): its sign is the btree
// order, its magnitude PostgreSQL's (ten times the labels left in a, plus
// one, times the first difference: of the bytes' sign, or of the labels'
// lengths, or of the numbers of labels).
func LtreeCmp(a, b string) int {
	al, bl := LtreeLabels(a), LtreeLabels(b)
	an := len(al)
	for i := 0; i < len(al) && i < len(bl); i++ {
		x, y := al[i], bl[i]
		n := min(len(x), len(y))
		switch c := strings.Compare(x[:n], y[:n]); {
		case c != 0:
			return c * 10 * (an + 1)
		case len(x) != len(y):
			return (len(x) - len(y)) * 10 * (an + 1)
		}
		an--
	}
	return (len(al) - len(bl)) * 10 * (an + 1)
}

// LtreeIsAncestor reports whether path a is an ancestor of path b or b
// itself (a @> b, inner_isparent).
func LtreeIsAncestor(a, b string) bool {
	return a == "" || b == a || strings.HasPrefix(b, a) && b[len(a)] == '.'
}

// LtreeConcat is ltree || ltree, refusing a path of too many labels.
func LtreeConcat(a, b string) (Value, error) {
	if n := LtreeLevels(a) + LtreeLevels(b); n > LtreeMaxLevels {
		return Null, pgerr.New(pgerr.ProgramLimitExceeded, "number of ltree levels (%d) exceeds the maximum allowed (%d)", n, LtreeMaxLevels)
	}
	switch {
	case a == "":
		return NewLtree(b), nil
	case b == "":
		return NewLtree(a), nil
	}
	return NewLtree(a + "." + b), nil
}

// Subltree is subltree(path, start, end): the labels from start up to
// (not including) end, 0-based.
func Subltree(s string, start, end int64) (Value, error) {
	labels := LtreeLabels(s)
	n := int64(len(labels))
	if start < 0 || end < 0 || start >= n || start > end {
		return Null, pgerr.New(pgerr.InvalidParameterValue, "invalid positions")
	}
	end = min(end, n)
	return NewLtree(strings.Join(labels[start:end], ".")), nil
}

// Subpath is subpath(path, offset[, len]) with PostgreSQL's rules for a
// negative offset (from the end) and length (leave that many off the
// end); hasLen tells the three-argument form.
func Subpath(s string, start, length int64, hasLen bool) (Value, error) {
	n := int64(LtreeLevels(s))
	// int32 arithmetic, as subpath's.
	start32, len32 := int32(start), int32(length)
	end := start32 + len32
	if start32 < 0 {
		start32 = int32(n) + start32
		end = start32 + len32
	}
	if start32 < 0 {
		start32 = int32(n) + start32
		end = start32 + len32
	}
	switch {
	case len32 < 0:
		end = int32(n) + len32
	case len32 == 0:
		if hasLen {
			end = start32
		} else {
			end = 0xffff
		}
	}
	return Subltree(s, int64(start32), int64(end))
}

// LtreeIndex is index(a, b[, offset]): the position of the first
// occurrence of b's labels in a at or after offset, or -1.
func LtreeIndex(a, b string, offset int64) int64 {
	al, bl := LtreeLabels(a), LtreeLabels(b)
	start := int(offset)
	if start < 0 {
		if -start >= len(al) {
			start = 0
		} else {
			start = len(al) + start
		}
	}
	if len(al)-start < len(bl) || len(al) == 0 || len(bl) == 0 {
		return -1
	}
	for i := 0; i <= len(al)-len(bl); i++ {
		if i < start {
			continue
		}
		j := 0
		for j < len(bl) && al[i+j] == bl[j] {
			j++
		}
		if j == len(bl) {
			return int64(i)
		}
	}
	return -1
}

// Lca is lca_inner: the longest common ancestor of the paths, which is
// always a proper ancestor of each of them; ok is false (a NULL result)
// when there are none, or one of them is empty.
func Lca(paths []string) (string, bool) {
	if len(paths) == 0 || paths[0] == "" {
		return "", false
	}
	first := LtreeLabels(paths[0])
	num := len(first) - 1
	for _, p := range paths[1:] {
		labels := LtreeLabels(p)
		switch len(labels) {
		case 0:
			return "", false
		case 1:
			num = 0
		default:
			tmp := min(num, len(labels)-1)
			num = 0
			for i := 0; i < tmp && first[i] == labels[i]; i++ {
				num = i + 1
			}
		}
	}
	return strings.Join(first[:num], "."), true
}

// Label match flags of lquery and ltxtquery items (ltree.h).
const (
	ltreeAnyEnd    = 0x01 // '*': the label starts with the item
	ltreeInCase    = 0x02 // '@': case-insensitive
	ltreeSubLexeme = 0x04 // '%': match '_'-separated words
)

// ltreeItem is one label of an lquery level or an ltxtquery operand.
type ltreeItem struct {
	name  string
	flags uint8
}

func appendItem(buf []byte, it ltreeItem) []byte {
	buf = append(buf, it.name...)
	if it.flags&ltreeSubLexeme != 0 {
		buf = append(buf, '%')
	}
	if it.flags&ltreeInCase != 0 {
		buf = append(buf, '@')
	}
	if it.flags&ltreeAnyEnd != 0 {
		buf = append(buf, '*')
	}
	return buf
}

// ltreeFold is str_tolower of the database's UTF-8 ctype, character by
// character.
func ltreeFold(s string) string { return strings.Map(unicode.ToLower, s) }

// ltreeCompare is strncmp or, for '@', ltree_strncasecmp (both strings'
// first n bytes lowered, then compared over n bytes): whether a[:n] and
// b[:n] match.
func ltreeCompare(a, b string, n int, incase bool) bool {
	if !incase {
		return a[:n] == b[:n]
	}
	x, y := ltreeFold(a[:n]), ltreeFold(b[:n])
	return x[:min(n, len(x))] == y[:min(n, len(y))]
}

// matchWord reports whether query word q matches label word t: equal, or
// for '*' a prefix of it.
func matchWord(q, t string, flags uint8) bool {
	if !(len(t) == len(q) || len(t) > len(q) && flags&ltreeAnyEnd != 0) {
		return false
	}
	return ltreeCompare(q, t, len(q), flags&ltreeInCase != 0)
}

// lexemes splits a label into its '_'-separated words.
func lexemes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '_' })
}

// matchItem is one item against one label: compare_subnode for '%'
// (every word of the item matches some word of the label), else the
// label itself.
func matchItem(it ltreeItem, label string) bool {
	if it.flags&ltreeSubLexeme == 0 {
		return matchWord(it.name, label, it.flags)
	}
	words := lexemes(label)
	for _, q := range lexemes(it.name) {
		ok := false
		for _, t := range words {
			if matchWord(q, t, it.flags) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// lqueryLevel is one item of an lquery: alternatives (none for '*'),
// negated by '!', repeated low to high times ({n,m}; a '*' counts any
// number of labels, a plain item exactly one).
type lqueryLevel struct {
	items     []ltreeItem
	not       bool
	count     bool // an explicit {...} on a non-'*' item (LQL_COUNT)
	low, high int
}

// LqueryPattern is a parsed lquery.
type LqueryPattern struct{ levels []lqueryLevel }

// lquery parser states (ltree_io.c's LQPRS_*).
const (
	lqWaitLevel = iota
	lqWaitDelim
	lqWaitOpen
	lqWaitFNum
	lqWaitSNum
	lqWaitND
	lqWaitClose
	lqWaitEnd
	lqWaitVar
)

// atoiPG is C's atoi over the digits at the start of s: glibc's strtol
// saturates, then the long is cut to an int.
func atoiPG(s string) int {
	var n int64
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n > (1<<63-1-9)/10 {
			n = 1<<63 - 1
			break
		}
		n = n*10 + int64(s[i]-'0')
	}
	return int(int32(n))
}

// ParseLquery reads an lquery as lquery_in does.
func ParseLquery(s string) (*LqueryPattern, error) {
	if n := strings.Count(s, ".") + 1; n > LtreeMaxLevels {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of lquery items (%d) exceeds the maximum allowed (%d)", n, LtreeMaxLevels)
	}
	q := &LqueryPattern{levels: []lqueryLevel{{}}}
	cur := &q.levels[0]
	state, pos := lqWaitLevel, 1
	var it *ltreeItem // the item being read
	start, chars := 0, 0
	syntax := func() error { return ltreeSyntaxAt("lquery", pos) }
	// finish is finish_nodeitem for the item ending at byte i: flag
	// characters after the label are not part of it.
	finish := func(i int) error {
		end, p, c := i, pos, chars
		for end > start && strings.IndexByte("@*%", s[end-1]) >= 0 {
			end, p, c = end-1, p-1, c-1
		}
		it.name = s[start:end]
		return finishLabel("lquery", it.name, c, p)
	}
	newItem := func(at int) {
		cur.items = append(cur.items, ltreeItem{})
		it = &cur.items[len(cur.items)-1]
		start, chars = at, 0
	}
	nextLevel := func() {
		q.levels = append(q.levels, lqueryLevel{})
		cur = &q.levels[len(q.levels)-1]
	}
	for i, r := range s {
		switch state {
		case lqWaitLevel:
			switch {
			case ltreeLabelChar(r):
				newItem(i)
				state = lqWaitDelim
			case r == '!':
				newItem(i + 1)
				chars = -1 // the '!' is counted below
				cur.not = true
				state = lqWaitDelim
			case r == '*':
				state = lqWaitOpen
			default:
				return nil, syntax()
			}
		case lqWaitVar:
			if !ltreeLabelChar(r) {
				return nil, syntax()
			}
			newItem(i)
			state = lqWaitDelim
		case lqWaitDelim:
			switch {
			case r == '@':
				it.flags |= ltreeInCase
			case r == '*':
				it.flags |= ltreeAnyEnd
			case r == '%':
				it.flags |= ltreeSubLexeme
			case r == '|':
				if err := finish(i); err != nil {
					return nil, err
				}
				state = lqWaitVar
			case r == '{':
				if err := finish(i); err != nil {
					return nil, err
				}
				cur.count = true
				state = lqWaitFNum
			case r == '.':
				if err := finish(i); err != nil {
					return nil, err
				}
				nextLevel()
				state = lqWaitLevel
			case ltreeLabelChar(r):
				if it.flags != 0 { // no label characters after a flag
					return nil, syntax()
				}
			default:
				return nil, syntax()
			}
		case lqWaitOpen:
			switch r {
			case '{':
				state = lqWaitFNum
			case '.':
				cur.low, cur.high = 0, LtreeMaxLevels
				nextLevel()
				state = lqWaitLevel
			default:
				return nil, syntax()
			}
		case lqWaitFNum:
			switch {
			case r == ',':
				state = lqWaitSNum
			case r >= '0' && r <= '9':
				low := atoiPG(s[i:])
				if low < 0 || low > LtreeMaxLevels {
					return nil, pgerr.New(pgerr.ProgramLimitExceeded, "lquery syntax error").
						WithDetail("Low limit (%d) exceeds the maximum allowed (%d), at character %d.", low, LtreeMaxLevels, pos)
				}
				cur.low = low
				state = lqWaitND
			default:
				return nil, syntax()
			}
		case lqWaitSNum:
			switch {
			case r >= '0' && r <= '9':
				high := atoiPG(s[i:])
				if high < 0 || high > LtreeMaxLevels {
					return nil, pgerr.New(pgerr.ProgramLimitExceeded, "lquery syntax error").
						WithDetail("High limit (%d) exceeds the maximum allowed (%d), at character %d.", high, LtreeMaxLevels, pos)
				}
				if cur.low > high {
					return nil, pgerr.New(pgerr.SyntaxError, "lquery syntax error").
						WithDetail("Low limit (%d) is greater than high limit (%d), at character %d.", cur.low, high, pos)
				}
				cur.high = high
				state = lqWaitClose
			case r == '}':
				cur.high = LtreeMaxLevels
				state = lqWaitEnd
			default:
				return nil, syntax()
			}
		case lqWaitClose:
			if r == '}' {
				state = lqWaitEnd
			} else if r < '0' || r > '9' {
				return nil, syntax()
			}
		case lqWaitND:
			switch {
			case r == '}':
				cur.high = cur.low
				state = lqWaitEnd
			case r == ',':
				state = lqWaitSNum
			case r < '0' || r > '9':
				return nil, syntax()
			}
		case lqWaitEnd:
			if r != '.' {
				return nil, syntax()
			}
			nextLevel()
			state = lqWaitLevel
		}
		if state == lqWaitDelim {
			chars++
		}
		pos++
	}
	switch state {
	case lqWaitDelim:
		if err := finish(len(s)); err != nil {
			return nil, err
		}
	case lqWaitOpen:
		cur.low, cur.high = 0, LtreeMaxLevels
	case lqWaitEnd:
	default:
		return nil, pgerr.New(pgerr.SyntaxError, "lquery syntax error").WithDetail("Unexpected end of input.")
	}
	return q, nil
}

// String is lquery_out's text.
func (q *LqueryPattern) String() string {
	var buf []byte
	for i, l := range q.levels {
		if i > 0 {
			buf = append(buf, '.')
		}
		if len(l.items) == 0 {
			buf = append(buf, '*')
		} else {
			if l.not {
				buf = append(buf, '!')
			}
			for j, it := range l.items {
				if j > 0 {
					buf = append(buf, '|')
				}
				buf = appendItem(buf, it)
			}
		}
		if !l.count && len(l.items) > 0 {
			continue
		}
		switch {
		case l.low == l.high:
			buf = append(strconv.AppendInt(append(buf, '{'), int64(l.low), 10), '}')
		case l.low == 0 && l.high == LtreeMaxLevels:
			if len(l.items) > 0 {
				buf = append(buf, "{,}"...)
			}
		case l.low == 0:
			buf = append(strconv.AppendInt(append(buf, "{,"...), int64(l.high), 10), '}')
		case l.high == LtreeMaxLevels:
			buf = append(strconv.AppendInt(append(buf, '{'), int64(l.low), 10), ",}"...)
		default:
			buf = strconv.AppendInt(append(buf, '{'), int64(l.low), 10)
			buf = append(strconv.AppendInt(append(buf, ','), int64(l.high), 10), '}')
		}
	}
	return string(buf)
}

// ParseLqueryValue reads an lquery's text into its value (the canonical
// text).
func ParseLqueryValue(s string) (Value, error) {
	q, err := ParseLquery(s)
	if err != nil {
		return Null, err
	}
	return NewLquery(q.String()), nil
}

// checkLevel is checkLevel: whether one label matches a level, '!'
// inverting, '*' matching anything.
func (l *lqueryLevel) checkLevel(label string) bool {
	if len(l.items) == 0 {
		return !l.not
	}
	for _, it := range l.items {
		if matchItem(it, label) {
			return !l.not
		}
	}
	return l.not
}

// Match is ltree ~ lquery (ltq_regex's checkCond): the levels match the
// labels in order, each as many times as its count allows.
func (q *LqueryPattern) Match(path string) bool {
	return checkCond(q.levels, LtreeLabels(path))
}

func checkCond(levels []lqueryLevel, labels []string) bool {
	for len(levels) > 0 {
		l := &levels[0]
		low, high := 1, 1
		if l.count || len(l.items) == 0 {
			low, high = l.low, l.high
		}
		high = min(high, len(labels))
		if high < low {
			return false
		}
		levels = levels[1:]
		for n := 0; n < high; n++ {
			if n >= low && checkCond(levels, labels) {
				return true
			}
			if !l.checkLevel(labels[0]) {
				return false
			}
			labels = labels[1:]
		}
	}
	return len(labels) == 0
}

// LqueryMatch is ltree ~ lquery over the values' texts.
func LqueryMatch(path, query string) (bool, error) {
	q, err := ParseLquery(query)
	if err != nil {
		return false, err
	}
	return q.Match(path), nil
}

// ltxtNode is a node of an ltxtquery: an operand (op 0) or '!', '&', '|'.
type ltxtNode struct {
	op          byte
	item        ltreeItem
	left, right *ltxtNode // '!' has right only
}

// LtxtqueryExpr is a parsed ltxtquery.
type LtxtqueryExpr struct{ root *ltxtNode }

// ltxtquery tokens and parser states (ltxtquery_io.c).
const (
	ltxtEnd = iota
	ltxtErr
	ltxtVal
	ltxtOpr
	ltxtOpen
	ltxtClose

	ltxtWaitOperand  = 1
	ltxtInOperand    = 2
	ltxtWaitOperator = 3
)

type ltxtParser struct {
	s      string
	i      int
	state  int
	count  int
	out    []*ltxtNode // the postfix form, in push order
	sumlen int         // the operands' bytes, each with its terminator
}

// token is gettoken_query: the next token; an operand's item or an
// operator's character with it.
func (p *ltxtParser) token() (int, ltreeItem, byte, error) {
	var it ltreeItem
	start := 0
	for {
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		if p.i >= len(p.s) {
			r, size = 0, 1
		}
		switch p.state {
		case ltxtWaitOperand:
			switch {
			case r == '!':
				p.i++
				return ltxtOpr, it, '!', nil
			case r == '(':
				p.count++
				p.i++
				return ltxtOpen, it, 0, nil
			case r != 0 && ltreeLabelChar(r):
				p.state = ltxtInOperand
				start = p.i
			case r == 0 || !unicode.IsSpace(r):
				return ltxtErr, it, 0, pgerr.New(pgerr.SyntaxError, "operand syntax error")
			}
		case ltxtInOperand:
			switch {
			case r != 0 && ltreeLabelChar(r):
				if it.flags != 0 {
					return ltxtErr, it, 0, pgerr.New(pgerr.SyntaxError, "modifiers syntax error")
				}
			case r == '%':
				it.flags |= ltreeSubLexeme
			case r == '@':
				it.flags |= ltreeInCase
			case r == '*':
				it.flags |= ltreeAnyEnd
			default:
				it.name = strings.TrimRight(p.s[start:p.i], "%@*")
				p.state = ltxtWaitOperator
				return ltxtVal, it, 0, nil
			}
		case ltxtWaitOperator:
			switch r {
			case '&', '|':
				p.state = ltxtWaitOperand
				p.i++
				return ltxtOpr, it, byte(r), nil
			case ')':
				p.i++
				p.count--
				if p.count < 0 {
					return ltxtErr, it, 0, nil
				}
				return ltxtClose, it, 0, nil
			case 0:
				if p.count != 0 {
					return ltxtErr, it, 0, nil
				}
				return ltxtEnd, it, 0, nil
			case ' ':
			default:
				return ltxtErr, it, 0, nil
			}
		}
		p.i += size
	}
}

func (p *ltxtParser) push(n *ltxtNode) error {
	if n.op == 0 {
		// pushquery's checks, in its order: the operand's offset in the
		// operand text, then its length.
		if p.sumlen > 0xffff {
			return pgerr.New(pgerr.InvalidParameterValue, "value is too big")
		}
		if len(n.item.name) > 0xff {
			return pgerr.New(pgerr.InvalidParameterValue, "operand is too long")
		}
		p.sumlen += len(n.item.name) + 1
	}
	p.out = append(p.out, n)
	return nil
}

// makepol is makepol: the query in postfix order, '&' and '!' applied as
// soon as their operands are read, '|' when the next '|' or the end comes.
func (p *ltxtParser) makepol() error {
	var stack []byte
	popAndNot := func() error {
		for len(stack) > 0 && (stack[len(stack)-1] == '&' || stack[len(stack)-1] == '!') {
			op := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if err := p.push(&ltxtNode{op: op}); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		tok, it, op, err := p.token()
		if err != nil {
			return err
		}
		switch tok {
		case ltxtEnd:
			for len(stack) > 0 {
				op := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if err := p.push(&ltxtNode{op: op}); err != nil {
					return err
				}
			}
			return nil
		case ltxtVal:
			if err := p.push(&ltxtNode{item: it}); err != nil {
				return err
			}
			if err := popAndNot(); err != nil {
				return err
			}
		case ltxtOpr:
			if len(stack) > 0 && op == '|' {
				if err := p.push(&ltxtNode{op: op}); err != nil {
					return err
				}
			} else {
				if len(stack) == 32 {
					return pgerr.New(pgerr.InternalError, "stack too short")
				}
				stack = append(stack, op)
			}
		case ltxtOpen:
			if err := p.makepol(); err != nil {
				return err
			}
			if err := popAndNot(); err != nil {
				return err
			}
		case ltxtClose:
			for len(stack) > 0 {
				op := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if err := p.push(&ltxtNode{op: op}); err != nil {
					return err
				}
			}
			return nil
		default:
			return pgerr.New(pgerr.SyntaxError, "syntax error")
		}
	}
}

// ParseLtxtquery reads an ltxtquery as ltxtq_in does.
func ParseLtxtquery(s string) (*LtxtqueryExpr, error) {
	p := &ltxtParser{s: s, state: ltxtWaitOperand}
	if err := p.makepol(); err != nil {
		return nil, err
	}
	if len(p.out) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error").WithDetail("Empty query.")
	}
	// Build the tree from the postfix form.
	var st []*ltxtNode
	for _, n := range p.out {
		switch n.op {
		case 0:
		case '!':
			n.right, st = st[len(st)-1], st[:len(st)-1]
		default:
			n.left, n.right, st = st[len(st)-2], st[len(st)-1], st[:len(st)-2]
		}
		st = append(st, n)
	}
	return &LtxtqueryExpr{root: st[len(st)-1]}, nil
}

// String is ltxtq_out's text: infix, '|' parenthesized below the top.
func (q *LtxtqueryExpr) String() string { return string(appendLtxt(nil, q.root, true)) }

func appendLtxt(buf []byte, n *ltxtNode, first bool) []byte {
	switch n.op {
	case 0:
		return appendItem(buf, n.item)
	case '!':
		buf = append(buf, '!')
		if n.right.op != 0 {
			buf = append(buf, "( "...)
			buf = appendLtxt(buf, n.right, true)
			return append(buf, " )"...)
		}
		return appendLtxt(buf, n.right, false)
	}
	paren := n.op == '|' && !first
	if paren {
		buf = append(buf, "( "...)
	}
	buf = appendLtxt(buf, n.left, false)
	buf = append(buf, ' ', n.op, ' ')
	buf = appendLtxt(buf, n.right, false)
	if paren {
		buf = append(buf, " )"...)
	}
	return buf
}

// ParseLtxtqueryValue reads an ltxtquery's text into its value.
func ParseLtxtqueryValue(s string) (Value, error) {
	q, err := ParseLtxtquery(s)
	if err != nil {
		return Null, err
	}
	return NewLtxtquery(q.String()), nil
}

// Match is ltree @ ltxtquery (ltxtq_exec): an operand is true when some
// label of the path matches it.
func (q *LtxtqueryExpr) Match(path string) bool {
	return execLtxt(q.root, LtreeLabels(path))
}

func execLtxt(n *ltxtNode, labels []string) bool {
	switch n.op {
	case 0:
		for _, l := range labels {
			if matchItem(n.item, l) {
				return true
			}
		}
		return false
	case '!':
		return !execLtxt(n.right, labels)
	case '&':
		return execLtxt(n.left, labels) && execLtxt(n.right, labels)
	}
	return execLtxt(n.left, labels) || execLtxt(n.right, labels)
}

// LtxtqueryMatch is ltree @ ltxtquery over the values' texts.
func LtxtqueryMatch(path, query string) (bool, error) {
	q, err := ParseLtxtquery(query)
	if err != nil {
		return false, err
	}
	return q.Match(path), nil
}

// LtreeVersionedText is the binary form of the three types (ltree_send,
// lquery_send, ltxtq_send): a version byte, 1, then the text.
func LtreeVersionedText(buf []byte, v Value) []byte { return append(append(buf, 1), v.S...) }

// DecodeLtreeBinary reads the binary form of an ltree, lquery or
// ltxtquery (ltree_recv ...): version 1, then the text, parsed.
func DecodeLtreeBinary(t Type, src []byte) (Value, error) {
	if len(src) == 0 {
		return Null, pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
	}
	if src[0] != 1 {
		return Null, pgerr.New(pgerr.InternalError, "unsupported %s version number %d", infos[t.ID].name, src[0])
	}
	return ParseText(t, string(src[1:]))
}
