package sqltypes

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// The jsonpath type: PostgreSQL 15's SQL/JSON path language. A value is
// KindJSONPath with its canonical text (jsonpath_out's) in S and the parsed
// path in X; a value read back from a row or a spill run has only S and is
// parsed again when evaluated (Value.JSONPath). Equality and hashing go by
// the canonical text: PostgreSQL has no jsonpath comparison operators, so
// this serves DISTINCT and grouping only. The evaluator is package
// builtins' (jsonpath_exec.go): it needs the regular-expression translator
// that lives there.

// JSONPathKind is the kind of one item of a path.
type JSONPathKind uint8

// The items of a path, as PostgreSQL's JsonPathItemType names them.
const (
	JPNull JSONPathKind = iota
	JPString
	JPNumeric
	JPBool
	JPAnd
	JPOr
	JPNot
	JPIsUnknown
	JPEqual
	JPNotEqual
	JPLess
	JPGreater
	JPLessOrEqual
	JPGreaterOrEqual
	JPAdd
	JPSub
	JPMul
	JPDiv
	JPMod
	JPPlus
	JPMinus
	JPAnyArray
	JPAnyKey
	JPIndexArray
	JPAny
	JPKey
	JPCurrent
	JPRoot
	JPVariable
	JPFilter
	JPExists
	JPType
	JPSize
	JPAbs
	JPFloor
	JPCeiling
	JPDouble
	JPDatetime
	JPKeyValue
	JPLast
	JPStartsWith
	JPLikeRegex
)

// JSONPathAnyLast is the "last" bound of .**{...}: PostgreSQL's
// PG_UINT32_MAX.
const JSONPathAnyLast = ^uint32(0)

// The like_regex flags, in the order jsonpath_out prints them.
const (
	JPRegexICase = 1 << iota
	JPRegexDotAll
	JPRegexMLine
	JPRegexWSpace
	JPRegexQuote
)

// JSONPathItem is one item of a path. Accessor chains link through Next.
type JSONPathItem struct {
	Kind JSONPathKind
	// Str is a key, a string literal, a variable's name, a like_regex
	// pattern or a .datetime() template.
	Str  string
	Num  *apd.Decimal // JPNumeric
	Bool bool         // JPBool; JPDatetime: whether it has a template
	// Left and Right are an operator's operands; Left alone is the
	// argument of a unary operator, filter, exists, !, is unknown and
	// like_regex.
	Left, Right *JSONPathItem
	// Subs are an index array's subscripts (To nil: a single index).
	Subs []JSONPathSubscript
	// First and Last bound .**{First to Last} (JSONPathAnyLast: last).
	First, Last uint32
	Flags       int // JPLikeRegex: JPRegex* bits
	Next        *JSONPathItem
}

// JSONPathSubscript is one subscript of [...]: an index or a range.
type JSONPathSubscript struct{ From, To *JSONPathItem }

// JSONPathTree is a parsed path: its mode and its expression.
type JSONPathTree struct {
	Strict bool
	Expr   *JSONPathItem
}

// NewJSONPath returns a jsonpath value of a parsed path.
func NewJSONPath(p *JSONPathTree) Value {
	return Value{K: KindJSONPath, S: string(AppendJSONPath(nil, p)), X: p}
}

// JSONPath returns the path of a KindJSONPath value, parsing its text when
// the value came from storage without its tree.
func (v Value) JSONPath() (*JSONPathTree, error) {
	if p, ok := v.X.(*JSONPathTree); ok {
		return p, nil
	}
	return ParseJSONPath(v.S)
}

// JSONPathRegexCheck compiles a like_regex pattern with its flags and
// reports PostgreSQL's error for an invalid one. Package builtins installs
// it (its regular-expression translator is there, and it imports this
// package); PostgreSQL checks the pattern when the path is parsed.
var JSONPathRegexCheck func(pattern string, flags int) error

// ParseJSONPathValue is jsonpath_in: the text as a jsonpath value.
func ParseJSONPathValue(s string) (Value, error) {
	p, err := ParseJSONPath(s)
	if err != nil {
		return Null, err
	}
	return NewJSONPath(p), nil
}

// ParseJSONPath parses the SQL/JSON path language, PostgreSQL 15's
// jsonpath_gram.y and jsonpath_scan.l.
func ParseJSONPath(s string) (*JSONPathTree, error) {
	p := &jpParser{lx: jpLexer{s: s}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == jtEOF {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type jsonpath: \"%s\"", s)
	}
	path := &JSONPathTree{}
	if p.isKeyword("strict") || p.isKeyword("lax") {
		path.Strict = p.tok.text == "strict"
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != jtEOF {
		return nil, p.syntaxError()
	}
	if err := checkJSONPath(e, 0, false); err != nil {
		return nil, err
	}
	path.Expr = e
	return path, nil
}

// checkJSONPath refuses @ outside a filter and last outside a subscript,
// as PostgreSQL's flattenJsonPathParseItem does.
func checkJSONPath(it *JSONPathItem, filters int, inSubscript bool) error {
	for ; it != nil; it = it.Next {
		switch it.Kind {
		case JPCurrent:
			if filters <= 0 {
				return pgerr.New(pgerr.SyntaxError, "@ is not allowed in root expressions")
			}
		case JPLast:
			if !inSubscript {
				return pgerr.New(pgerr.SyntaxError, "LAST is allowed only in array subscripts")
			}
		}
		f := filters
		if it.Kind == JPFilter {
			f++
		}
		for _, c := range []*JSONPathItem{it.Left, it.Right} {
			if c != nil {
				if err := checkJSONPath(c, f, inSubscript); err != nil {
					return err
				}
			}
		}
		for _, s := range it.Subs {
			for _, c := range []*JSONPathItem{s.From, s.To} {
				if c != nil {
					if err := checkJSONPath(c, filters, true); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

type jpTokKind uint8

const (
	jtEOF jpTokKind = iota
	jtPunct
	jtInt
	jtNumeric
	jtString
	jtIdent // an unquoted name or keyword
	jtVariable
)

type jpToken struct {
	kind jpTokKind
	text string // punctuation, the name, the string's value, the number's digits
	src  string // the source text, for errors
}

type jpLexer struct {
	s string
	i int
}

// jpSpecial reports whether c ends an unquoted name (jsonpath_scan.l's
// special and blank characters, and the backslash and double quote).
func jpSpecial(c byte) bool {
	return strings.IndexByte("?%$.[]{}()|&!=<>@#,*:-+/\\\" \t\n\r\f", c) >= 0
}

func jpSyntaxErrorAt(near string) error {
	if near == "" {
		return pgerr.New(pgerr.SyntaxError, "syntax error at end of jsonpath input")
	}
	return pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\" of jsonpath input", near)
}

func (l *jpLexer) skip() error {
	for l.i < len(l.s) {
		switch c := l.s[l.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			l.i++
		case c == '/' && l.i+1 < len(l.s) && l.s[l.i+1] == '*':
			end := strings.Index(l.s[l.i+2:], "*/")
			if end < 0 {
				return pgerr.New(pgerr.SyntaxError, "unexpected end of comment at end of jsonpath input")
			}
			l.i += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

func (l *jpLexer) next() (jpToken, error) {
	if err := l.skip(); err != nil {
		return jpToken{}, err
	}
	if l.i >= len(l.s) {
		return jpToken{kind: jtEOF}, nil
	}
	start := l.i
	c := l.s[l.i]
	switch {
	case c >= '0' && c <= '9' || c == '.' && l.i+1 < len(l.s) && l.s[l.i+1] >= '0' && l.s[l.i+1] <= '9':
		return l.number()
	case c == '"':
		str, err := l.quoted()
		return jpToken{kind: jtString, text: str, src: l.s[start:l.i]}, err
	case c == '$':
		l.i++
		if l.i < len(l.s) && l.s[l.i] == '"' {
			name, err := l.quoted()
			return jpToken{kind: jtVariable, text: name, src: l.s[start:l.i]}, err
		}
		if l.i < len(l.s) && !jpSpecial(l.s[l.i]) {
			// An unquoted variable name takes no backslash escapes.
			for l.i < len(l.s) && !jpSpecial(l.s[l.i]) {
				l.i++
			}
			return jpToken{kind: jtVariable, text: l.s[start+1 : l.i], src: l.s[start:l.i]}, nil
		}
		return jpToken{kind: jtPunct, text: "$", src: "$"}, nil
	case c == '\\' || !jpSpecial(c):
		name, err := l.name()
		return jpToken{kind: jtIdent, text: name, src: l.s[start:l.i]}, err
	}
	for _, op := range []string{"**", "==", "!=", "<>", "<=", ">=", "&&", "||"} {
		if strings.HasPrefix(l.s[l.i:], op) {
			l.i += 2
			return jpToken{kind: jtPunct, text: op, src: op}, nil
		}
	}
	l.i++
	return jpToken{kind: jtPunct, text: l.s[start:l.i], src: l.s[start:l.i]}, nil
}

// number scans an integer, decimal or real literal; a name character right
// after one is PostgreSQL's "trailing junk".
func (l *jpLexer) number() (jpToken, error) {
	start := l.i
	kind := jtInt
	if l.s[l.i] == '0' {
		l.i++
	} else {
		for l.i < len(l.s) && isDigit(l.s[l.i]) {
			l.i++
		}
	}
	if l.i < len(l.s) && l.s[l.i] == '.' {
		kind = jtNumeric
		l.i++
		for l.i < len(l.s) && isDigit(l.s[l.i]) {
			l.i++
		}
	}
	junk := false
	if l.i < len(l.s) && (l.s[l.i] == 'e' || l.s[l.i] == 'E') {
		j := l.i + 1
		if j < len(l.s) && (l.s[j] == '+' || l.s[j] == '-') {
			j++
		}
		if j < len(l.s) && isDigit(l.s[j]) {
			for j < len(l.s) && isDigit(l.s[j]) {
				j++
			}
			// numeric_in refuses an exponent past INT_MAX/2 whatever the
			// digits (0e20000000000 too).
			digits := strings.TrimLeft(strings.TrimLeft(l.s[l.i+1:j], "+-"), "0")
			if len(digits) > 10 || len(digits) == 10 && digits >= "1073741823" {
				return jpToken{}, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
			}
			kind = jtNumeric
			l.i = j
		} else {
			junk = true
			l.i = j
		}
	}
	for l.i < len(l.s) && !jpSpecial(l.s[l.i]) {
		junk = true
		l.i++
	}
	if junk {
		return jpToken{}, pgerr.New(pgerr.SyntaxError, "trailing junk after numeric literal at or near \"%s\" of jsonpath input", l.s[start:l.i])
	}
	return jpToken{kind: kind, text: l.s[start:l.i], src: l.s[start:l.i]}, nil
}

// name scans an unquoted name, with its backslash escapes.
func (l *jpLexer) name() (string, error) {
	var b strings.Builder
	for l.i < len(l.s) {
		c := l.s[l.i]
		if c == '\\' {
			if err := l.escape(&b); err != nil {
				return "", err
			}
			continue
		}
		if jpSpecial(c) {
			break
		}
		b.WriteByte(c)
		l.i++
	}
	return b.String(), nil
}

// quoted scans a double-quoted string, l.i at its opening quote.
func (l *jpLexer) quoted() (string, error) {
	l.i++
	var b strings.Builder
	for {
		if l.i >= len(l.s) {
			return "", pgerr.New(pgerr.SyntaxError, "unexpected end of quoted string at end of jsonpath input")
		}
		c := l.s[l.i]
		switch c {
		case '"':
			l.i++
			return b.String(), nil
		case '\\':
			if err := l.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			l.i++
		}
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// escape reads one backslash escape, l.i at the backslash: the JSON ones,
// \v, \', \xNN, \uNNNN (surrogate pairs joined) and \u{N...}; any other
// escaped character stands for itself.
func (l *jpLexer) escape(b *strings.Builder) error {
	if l.i+1 >= len(l.s) {
		return pgerr.New(pgerr.SyntaxError, "unexpected end after backslash at end of jsonpath input")
	}
	c := l.s[l.i+1]
	l.i += 2
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte('\v')
	case 'x':
		if l.i+1 < len(l.s) && hexVal(l.s[l.i]) >= 0 && hexVal(l.s[l.i+1]) >= 0 {
			r := rune(hexVal(l.s[l.i])<<4 | hexVal(l.s[l.i+1]))
			l.i += 2
			if r == 0 {
				return pgerr.New(pgerr.UntranslatableCharacter, "unsupported Unicode escape sequence").WithDetail("\\u0000 cannot be converted to text.")
			}
			b.WriteRune(r)
			return nil
		}
		return pgerr.New(pgerr.SyntaxError, "invalid hexadecimal character sequence at or near \"%s\" of jsonpath input", l.s[l.i-2:min(l.i+2, len(l.s))])
	case 'u':
		r, err := l.unicode()
		if err != nil {
			return err
		}
		if utf16.IsSurrogate(r) {
			if r >= 0xDC00 || !strings.HasPrefix(l.s[l.i:], "\\u") {
				return pgerr.New(pgerr.SyntaxError, "invalid Unicode surrogate pair at or near \"%s\" of jsonpath input", l.s[max(0, l.i-6):l.i])
			}
			l.i += 2
			lo, err := l.unicode()
			if err != nil {
				return err
			}
			if lo < 0xDC00 || lo > 0xDFFF {
				return pgerr.New(pgerr.SyntaxError, "invalid Unicode surrogate pair at or near \"%s\" of jsonpath input", l.s[max(0, l.i-12):l.i])
			}
			r = utf16.DecodeRune(r, lo)
		}
		if r == 0 {
			return pgerr.New(pgerr.UntranslatableCharacter, "unsupported Unicode escape sequence").WithDetail("\\u0000 cannot be converted to text.")
		}
		b.WriteRune(r)
	default:
		// \" \' \\ \/ and any other character: itself.
		r, size := utf8.DecodeRuneInString(l.s[l.i-1:])
		b.WriteRune(r)
		l.i += size - 1
	}
	return nil
}

// unicode reads the digits of \uNNNN or \u{N...}, l.i after the u.
func (l *jpLexer) unicode() (rune, error) {
	start := l.i - 2
	bad := func() (rune, error) {
		return 0, pgerr.New(pgerr.SyntaxError, "invalid Unicode escape sequence at or near \"%s\" of jsonpath input", l.s[start:min(l.i+1, len(l.s))])
	}
	var r rune
	if l.i < len(l.s) && l.s[l.i] == '{' {
		l.i++
		n := 0
		for l.i < len(l.s) && hexVal(l.s[l.i]) >= 0 && n < 6 {
			r = r<<4 | rune(hexVal(l.s[l.i]))
			l.i++
			n++
		}
		if n == 0 || l.i >= len(l.s) || l.s[l.i] != '}' {
			return bad()
		}
		l.i++
	} else {
		if l.i+4 > len(l.s) {
			return bad()
		}
		for k := 0; k < 4; k++ {
			h := hexVal(l.s[l.i])
			if h < 0 {
				return bad()
			}
			r = r<<4 | rune(h)
			l.i++
		}
	}
	if r > utf8.MaxRune {
		return bad()
	}
	return r, nil
}

type jpParser struct {
	lx    jpLexer
	tok   jpToken
	depth int
}

// maxJSONPathDepth bounds the nesting of a path, so that hostile input
// cannot exhaust the stack of the parser, printer or evaluator
// (PostgreSQL stops at its stack depth limit).
const maxJSONPathDepth = 1000

func (p *jpParser) advance() error {
	t, err := p.lx.next()
	p.tok = t
	return err
}

func (p *jpParser) syntaxError() error { return jpSyntaxErrorAt(p.tok.src) }

func (p *jpParser) isPunct(s string) bool { return p.tok.kind == jtPunct && p.tok.text == s }

// isKeyword reports an unquoted keyword; jsonpath's keywords are lower case
// and case-sensitive.
func (p *jpParser) isKeyword(k string) bool {
	return p.tok.kind == jtIdent && p.tok.text == k && !strings.Contains(p.tok.src, "\\")
}

func (p *jpParser) expectPunct(s string) error {
	if !p.isPunct(s) {
		return p.syntaxError()
	}
	return p.advance()
}

// jpNode is a parse result with whether it is a predicate: a parenthesized
// one stays a predicate unless an accessor follows it.
type jpNode struct {
	it   *JSONPathItem
	pred bool
}

func (p *jpParser) or() (*JSONPathItem, error) {
	n, err := p.orNode()
	return n.it, err
}

func (p *jpParser) orNode() (jpNode, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxJSONPathDepth {
		return jpNode{}, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	l, err := p.andNode()
	if err != nil {
		return l, err
	}
	for p.isPunct("||") {
		if !l.pred {
			return l, p.syntaxError()
		}
		if err := p.advance(); err != nil {
			return l, err
		}
		r, err := p.andNode()
		if err != nil {
			return l, err
		}
		if !r.pred {
			return l, p.syntaxError()
		}
		l = jpNode{&JSONPathItem{Kind: JPOr, Left: l.it, Right: r.it}, true}
	}
	return l, nil
}

func (p *jpParser) andNode() (jpNode, error) {
	l, err := p.notNode()
	if err != nil {
		return l, err
	}
	for p.isPunct("&&") {
		if !l.pred {
			return l, p.syntaxError()
		}
		if err := p.advance(); err != nil {
			return l, err
		}
		r, err := p.notNode()
		if err != nil {
			return l, err
		}
		if !r.pred {
			return l, p.syntaxError()
		}
		l = jpNode{&JSONPathItem{Kind: JPAnd, Left: l.it, Right: r.it}, true}
	}
	return l, nil
}

func (p *jpParser) notNode() (jpNode, error) {
	if !p.isPunct("!") {
		return p.cmpNode()
	}
	if err := p.advance(); err != nil {
		return jpNode{}, err
	}
	// ! takes a delimited predicate: ( predicate ) or exists ( expr ).
	var arg *JSONPathItem
	switch {
	case p.isKeyword("exists"):
		n, err := p.primary()
		if err != nil {
			return n, err
		}
		arg = n.it
	case p.isPunct("("):
		if err := p.advance(); err != nil {
			return jpNode{}, err
		}
		n, err := p.orNode()
		if err != nil {
			return n, err
		}
		if !n.pred {
			return n, p.syntaxError()
		}
		if err := p.expectPunct(")"); err != nil {
			return n, err
		}
		arg = n.it
	default:
		return jpNode{}, p.syntaxError()
	}
	return jpNode{&JSONPathItem{Kind: JPNot, Left: arg}, true}, nil
}

var jpComparisons = map[string]JSONPathKind{"==": JPEqual, "!=": JPNotEqual, "<>": JPNotEqual, "<": JPLess, ">": JPGreater, "<=": JPLessOrEqual, ">=": JPGreaterOrEqual}

func (p *jpParser) cmpNode() (jpNode, error) {
	l, err := p.addNode()
	if err != nil || l.pred {
		return l, err
	}
	switch {
	case p.tok.kind == jtPunct && jpComparisons[p.tok.text] != 0:
		k := jpComparisons[p.tok.text]
		if err := p.advance(); err != nil {
			return l, err
		}
		r, err := p.addNode()
		if err != nil {
			return l, err
		}
		if r.pred {
			return l, p.syntaxError()
		}
		return jpNode{&JSONPathItem{Kind: k, Left: l.it, Right: r.it}, true}, nil
	case p.isKeyword("starts"):
		if err := p.advance(); err != nil {
			return l, err
		}
		if !p.isKeyword("with") {
			return l, p.syntaxError()
		}
		if err := p.advance(); err != nil {
			return l, err
		}
		var r *JSONPathItem
		switch p.tok.kind {
		case jtString:
			r = &JSONPathItem{Kind: JPString, Str: p.tok.text}
		case jtVariable:
			r = &JSONPathItem{Kind: JPVariable, Str: p.tok.text}
		default:
			return l, p.syntaxError()
		}
		if err := p.advance(); err != nil {
			return l, err
		}
		return jpNode{&JSONPathItem{Kind: JPStartsWith, Left: l.it, Right: r}, true}, nil
	case p.isKeyword("like_regex"):
		if err := p.advance(); err != nil {
			return l, err
		}
		if p.tok.kind != jtString {
			return l, p.syntaxError()
		}
		it := &JSONPathItem{Kind: JPLikeRegex, Left: l.it, Str: p.tok.text}
		if err := p.advance(); err != nil {
			return l, err
		}
		if p.isKeyword("flag") {
			if err := p.advance(); err != nil {
				return l, err
			}
			if p.tok.kind != jtString {
				return l, p.syntaxError()
			}
			for _, c := range p.tok.text {
				switch c {
				case 'i':
					it.Flags |= JPRegexICase
				case 's':
					it.Flags |= JPRegexDotAll
				case 'm':
					it.Flags |= JPRegexMLine
				case 'x':
					it.Flags |= JPRegexWSpace
				case 'q':
					it.Flags |= JPRegexQuote
				default:
					return l, pgerr.New(pgerr.SyntaxError, "invalid input syntax for type jsonpath").
						WithDetail("Unrecognized flag character \"%s\" in LIKE_REGEX predicate.", string(c))
				}
			}
			if err := p.advance(); err != nil {
				return l, err
			}
		}
		if it.Flags&JPRegexWSpace != 0 && it.Flags&JPRegexQuote == 0 {
			return l, pgerr.New(pgerr.FeatureNotSupported, "XQuery \"x\" flag (expanded regular expressions) is not implemented")
		}
		if JSONPathRegexCheck != nil {
			if err := JSONPathRegexCheck(it.Str, it.Flags); err != nil {
				return l, err
			}
		}
		return jpNode{it, true}, nil
	}
	return l, nil
}

func (p *jpParser) addNode() (jpNode, error) {
	l, err := p.mulNode()
	if err != nil {
		return l, err
	}
	for p.isPunct("+") || p.isPunct("-") {
		k := JPAdd
		if p.tok.text == "-" {
			k = JPSub
		}
		if l.pred {
			return l, p.syntaxError()
		}
		if err := p.advance(); err != nil {
			return l, err
		}
		r, err := p.mulNode()
		if err != nil {
			return l, err
		}
		if r.pred {
			return l, p.syntaxError()
		}
		l = jpNode{&JSONPathItem{Kind: k, Left: l.it, Right: r.it}, false}
	}
	return l, nil
}

func (p *jpParser) mulNode() (jpNode, error) {
	l, err := p.unaryNode()
	if err != nil {
		return l, err
	}
	for p.isPunct("*") || p.isPunct("/") || p.isPunct("%") {
		k := map[string]JSONPathKind{"*": JPMul, "/": JPDiv, "%": JPMod}[p.tok.text]
		if l.pred {
			return l, p.syntaxError()
		}
		if err := p.advance(); err != nil {
			return l, err
		}
		r, err := p.unaryNode()
		if err != nil {
			return l, err
		}
		if r.pred {
			return l, p.syntaxError()
		}
		l = jpNode{&JSONPathItem{Kind: k, Left: l.it, Right: r.it}, false}
	}
	return l, nil
}

func (p *jpParser) unaryNode() (jpNode, error) {
	if !p.isPunct("+") && !p.isPunct("-") {
		return p.accessorNode()
	}
	minus := p.tok.text == "-"
	if err := p.advance(); err != nil {
		return jpNode{}, err
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxJSONPathDepth {
		return jpNode{}, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	n, err := p.unaryNode()
	if err != nil {
		return n, err
	}
	if n.pred {
		return n, p.syntaxError()
	}
	// makeItemUnary: a sign before a bare number folds into it.
	if n.it.Kind == JPNumeric && n.it.Next == nil {
		if minus {
			d := new(apd.Decimal).Neg(n.it.Num)
			if d.IsZero() {
				d.Negative = false
			}
			n.it = &JSONPathItem{Kind: JPNumeric, Num: d}
		}
		return n, nil
	}
	k := JPPlus
	if minus {
		k = JPMinus
	}
	return jpNode{&JSONPathItem{Kind: k, Left: n.it}, false}, nil
}

// accessorNode is a primary followed by its accessors.
func (p *jpParser) accessorNode() (jpNode, error) {
	n, err := p.primary()
	if err != nil {
		return n, err
	}
	tail := n.it
	for tail.Next != nil {
		tail = tail.Next
	}
	for {
		var acc *JSONPathItem
		switch {
		case p.isPunct("."):
			if acc, err = p.dotAccessor(); err != nil {
				return n, err
			}
		case p.isPunct("["):
			if acc, err = p.arrayAccessor(); err != nil {
				return n, err
			}
		case p.isPunct("?"):
			if err := p.advance(); err != nil {
				return n, err
			}
			if err := p.expectPunct("("); err != nil {
				return n, err
			}
			f, err := p.orNode()
			if err != nil {
				return n, err
			}
			if !f.pred {
				return n, p.syntaxError()
			}
			if err := p.expectPunct(")"); err != nil {
				return n, err
			}
			acc = &JSONPathItem{Kind: JPFilter, Left: f.it}
		default:
			return n, nil
		}
		tail.Next = acc
		tail = acc
		n.pred = false
	}
}

var jpMethods = map[string]JSONPathKind{
	"type": JPType, "size": JPSize, "abs": JPAbs, "floor": JPFloor, "ceiling": JPCeiling,
	"double": JPDouble, "keyvalue": JPKeyValue, "datetime": JPDatetime,
}

func (p *jpParser) dotAccessor() (*JSONPathItem, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	switch {
	case p.isPunct("*"):
		return &JSONPathItem{Kind: JPAnyKey}, p.advance()
	case p.isPunct("**"):
		return p.anyPath()
	case p.tok.kind == jtString:
		it := &JSONPathItem{Kind: JPKey, Str: p.tok.text}
		return it, p.advance()
	case p.tok.kind == jtIdent:
		name := p.tok.text
		method, isMethod := jpMethods[name]
		isMethod = isMethod && !strings.Contains(p.tok.src, "\\")
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !isMethod || !p.isPunct("(") {
			return &JSONPathItem{Kind: JPKey, Str: name}, nil
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		it := &JSONPathItem{Kind: method}
		if method == JPDatetime && p.tok.kind == jtString {
			it.Str, it.Bool = p.tok.text, true
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		return it, p.expectPunct(")")
	}
	return nil, p.syntaxError()
}

// anyPath parses .** and its optional {level} or {level to level}.
func (p *jpParser) anyPath() (*JSONPathItem, error) {
	it := &JSONPathItem{Kind: JPAny, First: 0, Last: JSONPathAnyLast}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if !p.isPunct("{") {
		return it, nil
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	level := func() (uint32, error) {
		var v uint32
		switch {
		case p.isKeyword("last"):
			v = JSONPathAnyLast
		case p.tok.kind == jtInt:
			n, err := strconv.ParseInt(p.tok.text, 10, 32)
			if err != nil {
				return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type integer", p.tok.text)
			}
			v = uint32(n)
		default:
			return 0, p.syntaxError()
		}
		return v, p.advance()
	}
	var err error
	if it.First, err = level(); err != nil {
		return nil, err
	}
	it.Last = it.First
	if p.isKeyword("to") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if it.Last, err = level(); err != nil {
			return nil, err
		}
	}
	return it, p.expectPunct("}")
}

func (p *jpParser) arrayAccessor() (*JSONPathItem, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.isPunct("*") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		return &JSONPathItem{Kind: JPAnyArray}, p.expectPunct("]")
	}
	it := &JSONPathItem{Kind: JPIndexArray}
	for {
		from, err := p.addNode()
		if err != nil {
			return nil, err
		}
		if from.pred {
			return nil, p.syntaxError()
		}
		sub := JSONPathSubscript{From: from.it}
		if p.isKeyword("to") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			to, err := p.addNode()
			if err != nil {
				return nil, err
			}
			if to.pred {
				return nil, p.syntaxError()
			}
			sub.To = to.it
		}
		it.Subs = append(it.Subs, sub)
		if p.isPunct(",") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			continue
		}
		return it, p.expectPunct("]")
	}
}

// primary is path_primary, a parenthesized expression or predicate, or
// exists (...).
func (p *jpParser) primary() (jpNode, error) {
	t := p.tok
	var it *JSONPathItem
	switch t.kind {
	case jtString:
		it = &JSONPathItem{Kind: JPString, Str: t.text}
	case jtInt, jtNumeric:
		v, err := ParseNumeric(t.text)
		if err != nil {
			return jpNode{}, err
		}
		it = &JSONPathItem{Kind: JPNumeric, Num: v.Numeric()}
	case jtVariable:
		it = &JSONPathItem{Kind: JPVariable, Str: t.text}
	case jtPunct:
		switch t.text {
		case "$":
			it = &JSONPathItem{Kind: JPRoot}
		case "@":
			it = &JSONPathItem{Kind: JPCurrent}
		case "(":
			if err := p.advance(); err != nil {
				return jpNode{}, err
			}
			n, err := p.orNode()
			if err != nil {
				return n, err
			}
			if err := p.expectPunct(")"); err != nil {
				return n, err
			}
			if n.pred && p.isKeyword("is") {
				if err := p.advance(); err != nil {
					return n, err
				}
				if !p.isKeyword("unknown") {
					return n, p.syntaxError()
				}
				return jpNode{&JSONPathItem{Kind: JPIsUnknown, Left: n.it}, true}, p.advance()
			}
			// (expr) accessor: accessorNode extends the chain inside.
			return n, nil
		}
	case jtIdent:
		if strings.Contains(t.src, "\\") {
			break
		}
		switch t.text {
		case "true", "false":
			it = &JSONPathItem{Kind: JPBool, Bool: t.text == "true"}
		case "null":
			it = &JSONPathItem{Kind: JPNull}
		case "last":
			it = &JSONPathItem{Kind: JPLast}
		case "exists":
			if err := p.advance(); err != nil {
				return jpNode{}, err
			}
			if err := p.expectPunct("("); err != nil {
				return jpNode{}, err
			}
			n, err := p.orNode()
			if err != nil {
				return n, err
			}
			if n.pred {
				return n, p.syntaxError()
			}
			if err := p.expectPunct(")"); err != nil {
				return n, err
			}
			return jpNode{&JSONPathItem{Kind: JPExists, Left: n.it}, true}, nil
		}
	}
	if it == nil {
		return jpNode{}, p.syntaxError()
	}
	return jpNode{it, false}, p.advance()
}

// jpPriority is PostgreSQL's operationPriority: where jsonpath_out puts
// parentheses.
func jpPriority(k JSONPathKind) int {
	switch k {
	case JPOr:
		return 0
	case JPAnd:
		return 1
	case JPEqual, JPNotEqual, JPLess, JPGreater, JPLessOrEqual, JPGreaterOrEqual, JPStartsWith:
		return 2
	case JPAdd, JPSub:
		return 3
	case JPMul, JPDiv, JPMod:
		return 4
	case JPPlus, JPMinus:
		return 5
	}
	return 6
}

// JSONPathOperator is an operator's or method's name as PostgreSQL's
// jspOperationName spells it in jsonpath_out and in errors.
func JSONPathOperator(k JSONPathKind) string {
	switch k {
	case JPAnd:
		return "&&"
	case JPOr:
		return "||"
	case JPEqual:
		return "=="
	case JPNotEqual:
		return "!="
	case JPLess:
		return "<"
	case JPGreater:
		return ">"
	case JPLessOrEqual:
		return "<="
	case JPGreaterOrEqual:
		return ">="
	case JPPlus, JPAdd:
		return "+"
	case JPMinus, JPSub:
		return "-"
	case JPMul:
		return "*"
	case JPDiv:
		return "/"
	case JPMod:
		return "%"
	case JPStartsWith:
		return "starts with"
	case JPLikeRegex:
		return "like_regex"
	case JPType:
		return "type"
	case JPSize:
		return "size"
	case JPKeyValue:
		return "keyvalue"
	case JPDouble:
		return "double"
	case JPAbs:
		return "abs"
	case JPFloor:
		return "floor"
	case JPCeiling:
		return "ceiling"
	case JPDatetime:
		return "datetime"
	}
	return "?"
}

// AppendJSONPath appends jsonpath_out's text of a path.
func AppendJSONPath(buf []byte, p *JSONPathTree) []byte {
	if p.Strict {
		buf = append(buf, "strict "...)
	}
	return appendJSONPathItem(buf, p.Expr, false, true)
}

func appendJSONPathItem(buf []byte, it *JSONPathItem, inKey, brackets bool) []byte {
	sub := func(buf []byte, c *JSONPathItem) []byte {
		return appendJSONPathItem(buf, c, false, jpPriority(c.Kind) <= jpPriority(it.Kind))
	}
	switch it.Kind {
	case JPNull:
		buf = append(buf, "null"...)
	case JPKey:
		if inKey {
			buf = append(buf, '.')
		}
		buf = appendJSONString(buf, it.Str)
	case JPString:
		buf = appendJSONString(buf, it.Str)
	case JPVariable:
		buf = appendJSONString(append(buf, '$'), it.Str)
	case JPNumeric:
		if it.Next != nil {
			buf = append(buf, '(')
		}
		buf = AppendNumeric(buf, it.Num)
		if it.Next != nil {
			buf = append(buf, ')')
		}
	case JPBool:
		if it.Bool {
			buf = append(buf, "true"...)
		} else {
			buf = append(buf, "false"...)
		}
	case JPAnd, JPOr, JPEqual, JPNotEqual, JPLess, JPGreater, JPLessOrEqual, JPGreaterOrEqual,
		JPAdd, JPSub, JPMul, JPDiv, JPMod, JPStartsWith:
		if brackets {
			buf = append(buf, '(')
		}
		buf = sub(buf, it.Left)
		buf = append(append(append(buf, ' '), JSONPathOperator(it.Kind)...), ' ')
		buf = sub(buf, it.Right)
		if brackets {
			buf = append(buf, ')')
		}
	case JPLikeRegex:
		if brackets {
			buf = append(buf, '(')
		}
		buf = sub(buf, it.Left)
		buf = appendJSONString(append(buf, " like_regex "...), it.Str)
		if it.Flags != 0 {
			buf = append(buf, " flag \""...)
			for i, c := range "ismxq" {
				if it.Flags&(1<<i) != 0 {
					buf = append(buf, byte(c))
				}
			}
			buf = append(buf, '"')
		}
		if brackets {
			buf = append(buf, ')')
		}
	case JPPlus, JPMinus:
		if brackets {
			buf = append(buf, '(')
		}
		buf = append(buf, JSONPathOperator(it.Kind)...)
		buf = sub(buf, it.Left)
		if brackets {
			buf = append(buf, ')')
		}
	case JPFilter:
		buf = append(appendJSONPathItem(append(buf, "?("...), it.Left, false, false), ')')
	case JPNot:
		buf = append(appendJSONPathItem(append(buf, "!("...), it.Left, false, false), ')')
	case JPIsUnknown:
		buf = append(appendJSONPathItem(append(buf, '('), it.Left, false, false), ") is unknown"...)
	case JPExists:
		buf = append(appendJSONPathItem(append(buf, "exists ("...), it.Left, false, false), ')')
	case JPCurrent:
		buf = append(buf, '@')
	case JPRoot:
		buf = append(buf, '$')
	case JPLast:
		buf = append(buf, "last"...)
	case JPAnyArray:
		buf = append(buf, "[*]"...)
	case JPAnyKey:
		if inKey {
			buf = append(buf, '.')
		}
		buf = append(buf, '*')
	case JPIndexArray:
		buf = append(buf, '[')
		for i, s := range it.Subs {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONPathItem(buf, s.From, false, false)
			if s.To != nil {
				buf = appendJSONPathItem(append(buf, " to "...), s.To, false, false)
			}
		}
		buf = append(buf, ']')
	case JPAny:
		if inKey {
			buf = append(buf, '.')
		}
		level := func(buf []byte, v uint32) []byte {
			if v == JSONPathAnyLast {
				return append(buf, "last"...)
			}
			return strconv.AppendUint(buf, uint64(v), 10)
		}
		switch {
		case it.First == 0 && it.Last == JSONPathAnyLast:
			buf = append(buf, "**"...)
		case it.First == it.Last:
			buf = append(level(append(buf, "**{"...), it.First), '}')
		default:
			buf = append(level(append(level(append(buf, "**{"...), it.First), " to "...), it.Last), '}')
		}
	case JPDatetime:
		buf = append(buf, ".datetime("...)
		if it.Bool {
			buf = appendJSONString(buf, it.Str)
		}
		buf = append(buf, ')')
	default:
		buf = append(append(append(buf, '.'), JSONPathOperator(it.Kind)...), "()"...)
	}
	if it.Next != nil {
		buf = appendJSONPathItem(buf, it.Next, true, true)
	}
	return buf
}
