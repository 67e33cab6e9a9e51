// Package tsearch is zproxy's full-text search: PostgreSQL 15's default
// text parser, the simple and english configurations (the simple
// dictionary, and the Snowball English stemmer with PostgreSQL's stop
// words), and what is built on them: to_tsvector, the to_tsquery family,
// matching (@@), ranking and headlines. The tsvector and tsquery values
// themselves are in package sqltypes.
package tsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenType is a token type of the default parser, numbered as
// ts_token_type('default') numbers them.
type TokenType int

// The default parser's token types.
const (
	ASCIIWord TokenType = iota + 1
	Word
	NumWord
	Email
	URL
	Host
	SFloat
	Version
	HWordNumPart
	HWordPart
	HWordASCIIPart
	Blank
	Tag
	Protocol
	NumHWord
	ASCIIHWord
	HWord
	URLPath
	File
	Float
	Int
	UInt
	Entity
)

// TokenTypeInfo is a token type's alias and description, as
// ts_token_type reports them.
type TokenTypeInfo struct {
	Alias, Description string
}

// TokenTypes are the default parser's token types, indexed by TokenType-1.
var TokenTypes = []TokenTypeInfo{
	{"asciiword", "Word, all ASCII"},
	{"word", "Word, all letters"},
	{"numword", "Word, letters and digits"},
	{"email", "Email address"},
	{"url", "URL"},
	{"host", "Host"},
	{"sfloat", "Scientific notation"},
	{"version", "Version number"},
	{"hword_numpart", "Hyphenated word part, letters and digits"},
	{"hword_part", "Hyphenated word part, all letters"},
	{"hword_asciipart", "Hyphenated word part, all ASCII"},
	{"blank", "Space symbols"},
	{"tag", "XML tag"},
	{"protocol", "Protocol head"},
	{"numhword", "Hyphenated word, letters and digits"},
	{"asciihword", "Hyphenated word, all ASCII"},
	{"hword", "Hyphenated word, all letters"},
	{"url_path", "URL path"},
	{"file", "File or path name"},
	{"float", "Decimal notation"},
	{"int", "Signed integer"},
	{"uint", "Unsigned integer"},
	{"entity", "XML entity"},
}

// Alias is the token type's alias (asciiword, ...).
func (t TokenType) Alias() string { return TokenTypes[t-1].Alias }

// Token is one token of parsed text.
type Token struct {
	Type TokenType
	Text string
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isASCIIAlnum(c byte) bool  { return isASCIILetter(c) || isDigit(c) }

// isURLChar is p_isurlchar: printable ASCII but RFC 3986's excluded
// characters.
func isURLChar(c byte) bool {
	if c <= 0x20 || c >= 0x7f {
		return false
	}
	return !strings.ContainsRune("\"<>\\^`{|}", rune(c))
}

func isFileChar(c byte) bool {
	return isASCIIAlnum(c) || c == '.' || c == '_' || c == '-' || c == '/' || c == '~'
}

// letterAt reports whether a (Unicode) letter starts s[i:], and its size.
func letterAt(s string, i int) (bool, int) {
	if i >= len(s) {
		return false, 0
	}
	if s[i] < utf8.RuneSelf {
		return isASCIILetter(s[i]), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r), n
}

// Parse splits text into the default parser's tokens, as ts_parse
// ('default', text) does: words, hyphenated words and their parts,
// numbers, emails, URLs, hosts, file names, tags, entities, and the
// blanks between them.
func Parse(s string) []Token {
	p := &parser{s: s}
	p.run()
	return p.out
}

type parser struct {
	s     string
	out   []Token
	blank int // start of pending blank text
}

func (p *parser) emit(start int, toks ...Token) {
	if start > p.blank {
		p.out = append(p.out, Token{Blank, p.s[p.blank:start]})
	}
	p.out = append(p.out, toks...)
}

func (p *parser) run() {
	s := p.s
	i := 0
	for i < len(s) {
		if end, toks := p.token(i); end > i {
			p.emit(i, toks...)
			i = end
			p.blank = i
			continue
		}
		// A character that might have started a token (and did not)
		// begins a blank of its own, as the parser's states return.
		if strings.IndexByte("&+-<", s[i]) >= 0 && i > p.blank {
			p.out = append(p.out, Token{Blank, s[p.blank:i]})
			p.blank = i
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	if p.blank < len(s) {
		p.out = append(p.out, Token{Blank, s[p.blank:]})
	}
}

// token recognises a token starting at i: its end and the tokens it
// yields (a compound yields itself and its parts).
func (p *parser) token(i int) (int, []Token) {
	s := p.s
	c := s[i]
	switch {
	case i == 0 && (c == '.' || c == '~') && strings.HasPrefix(s[1:], "/"):
		// a relative or home path opening the text
		if end := fileEnd(s, 1); end > 2 {
			return end, []Token{{File, s[:end]}}
		}
		return i, nil
	case c == '<':
		if end := tagEnd(s, i); end > 0 {
			return end, []Token{{Tag, s[i:end]}}
		}
		return i, nil
	case c == '&':
		if end := entityEnd(s, i); end > 0 {
			return end, []Token{{Entity, s[i:end]}}
		}
		return i, nil
	case c == '/':
		if i+1 < len(s) && s[i+1] == '/' {
			return i, nil
		}
		if end := fileEnd(s, i); end > i+1 {
			return end, []Token{{File, s[i:end]}}
		}
		return i, nil
	case (c == '-' || c == '+') && i+1 < len(s) && isDigit(s[i+1]):
		if i > 0 && isASCIIAlnum(s[i-1]) && c == '+' {
			return i, nil
		}
		return p.number(i)
	case isDigit(c):
		if end, toks := p.email(i); end > i {
			return end, toks
		}
		if end, toks := p.hostOrURL(i); end > i {
			return end, toks
		}
		if end := fileEnd(s, i); end > i && strings.Contains(s[i:end], "/") {
			return end, []Token{{File, s[i:end]}}
		}
		return p.number(i)
	}
	if ok, _ := letterAt(s, i); ok || c == '_' {
		if isASCIILetter(c) {
			if j := protocolEnd(s, i); j > 0 {
				return j, []Token{{Protocol, s[i:j]}}
			}
		}
		if end, toks := p.email(i); end > i {
			return end, toks
		}
		if end, toks := p.hostOrURL(i); end > i {
			return end, toks
		}
		if c == '_' {
			return i, nil
		}
		if end := fileEnd(s, i); end > i && strings.ContainsAny(s[i:end], "./") {
			return end, []Token{{File, s[i:end]}}
		}
		return p.word(i)
	}
	return i, nil
}

// tagEnd is the end of an XML/HTML tag at i (<name ...>, </name>, <!...>,
// <?...?>), or 0.
func tagEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && (s[j] == '/' || s[j] == '!' || s[j] == '?') {
		j++
	}
	if j >= len(s) || !isASCIILetter(s[j]) {
		return 0
	}
	quote := byte(0)
	for ; j < len(s); j++ {
		switch {
		case quote != 0:
			if s[j] == quote {
				quote = 0
			}
		case s[j] == '"' || s[j] == '\'':
			quote = s[j]
		case s[j] == '<':
			return 0
		case s[j] == '>':
			return j + 1
		}
	}
	return 0
}

// entityEnd is the end of an entity (&name; &#123; &#x1F;) at i, or 0.
func entityEnd(s string, i int) int {
	j := i + 1
	switch {
	case j < len(s) && s[j] == '#':
		j++
		hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
		if hex {
			j++
		}
		k := j
		for k < len(s) && (isDigit(s[k]) || hex && strings.IndexByte("abcdefABCDEF", s[k]) >= 0) {
			k++
		}
		if k == j || k >= len(s) || s[k] != ';' {
			return 0
		}
		return k + 1
	case j < len(s) && isASCIILetter(s[j]):
		k := j
		for k < len(s) && isASCIIAlnum(s[k]) {
			k++
		}
		if k >= len(s) || s[k] != ';' {
			return 0
		}
		return k + 1
	}
	return 0
}

// protocolEnd is the end of a protocol head (letters then "://") at i
// when a host follows, or 0.
func protocolEnd(s string, i int) int {
	j := i
	for j < len(s) && isASCIILetter(s[j]) {
		j++
	}
	if !strings.HasPrefix(s[j:], "://") {
		return 0
	}
	return j + 3
}

// hostEnd is the end of a host name at i (labels of letters, digits, '_'
// and '-' joined by dots, the last of two or more letters), with a port,
// or 0.
func hostEnd(s string, i int) int {
	best := 0
	j := i
	labels := 0
	for {
		k := j
		for k < len(s) && (isASCIIAlnum(s[k]) || s[k] == '_' || s[k] == '-' && k > j) {
			k++
		}
		if k == j {
			break
		}
		if labels >= 1 {
			// this label as the last one: its leading letters, ending
			// the label or followed by a hyphen
			l := j
			for l < len(s) && isASCIILetter(s[l]) {
				l++
			}
			if l-j >= 2 && (l == k || s[l] == '-') {
				best = l
			}
		}
		labels++
		if k < len(s) && s[k] == '.' && k+1 < len(s) && isASCIIAlnum(s[k+1]) {
			j = k + 1
			continue
		}
		break
	}
	if best == 0 {
		return 0
	}
	if best < len(s) && s[best] == ':' {
		k := best + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k > best+1 {
			best = k
		}
	}
	return best
}

func (p *parser) hostOrURL(i int) (int, []Token) {
	s := p.s
	h := hostEnd(s, i)
	if h == 0 {
		return i, nil
	}
	host := Token{Host, s[i:h]}
	if h < len(s) && s[h] == '/' {
		k := h + 1
		for k < len(s) && isURLChar(s[k]) {
			k++
		}
		return k, []Token{{URL, s[i:k]}, host, {URLPath, s[h:k]}}
	}
	return h, []Token{host}
}

// email recognises local@host at i.
func (p *parser) email(i int) (int, []Token) {
	s := p.s
	j := i
	for j < len(s) && (isASCIIAlnum(s[j]) || s[j] == '.' || s[j] == '-') {
		j++
	}
	if j == i || j >= len(s) || s[j] != '@' || !isASCIIAlnum(s[j-1]) {
		return i, nil
	}
	h := hostEnd(s, j+1)
	if h == 0 {
		return i, nil
	}
	return h, []Token{{Email, s[i:h]}}
}

// fileEnd is the end of a path of file characters at i, not counting
// trailing dots and hyphens.
func fileEnd(s string, i int) int {
	j := i
	if s[j] != '/' {
		for j < len(s) && isASCIIAlnum(s[j]) {
			j++
		}
		if j >= len(s) || (s[j] != '.' && s[j] != '/') || j+1 >= len(s) || !isASCIIAlnum(s[j+1]) && s[j+1] != '/' && s[j+1] != '.' && s[j+1] != '_' {
			return i
		}
	}
	for j < len(s) && isFileChar(s[j]) {
		j++
	}
	for j > i+1 && (s[j-1] == '.' || s[j-1] == '-') {
		j--
	}
	return j
}

// number recognises an integer, a decimal, a scientific number, a
// version, or a word starting with digits, at i.
func (p *parser) number(i int) (int, []Token) {
	s := p.s
	j := i
	signed := s[j] == '-' || s[j] == '+'
	if signed {
		j++
	}
	k := j
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	dots := 0
	end := k
	for end < len(s) && s[end] == '.' && end+1 < len(s) && isDigit(s[end+1]) {
		m := end + 1
		for m < len(s) && isDigit(s[m]) {
			m++
		}
		dots++
		end = m
	}
	if dots >= 2 {
		if signed {
			return end, []Token{{Blank, s[i:j]}, {Version, s[j:end]}}
		}
		return end, []Token{{Version, s[j:end]}}
	}
	if e := exponentEnd(s, end); e > 0 {
		return e, []Token{{SFloat, s[i:e]}}
	}
	if dots == 1 {
		return end, []Token{{Float, s[i:end]}}
	}
	if !signed {
		if ok, _ := letterAt(s, k); ok {
			return p.word(i)
		}
		return k, []Token{{UInt, s[i:k]}}
	}
	return k, []Token{{Int, s[i:k]}}
}

// exponentEnd is the end of e[+-]digits at i, or 0.
func exponentEnd(s string, i int) int {
	if i >= len(s) || s[i] != 'e' && s[i] != 'E' {
		return 0
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	k := j
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k == j {
		return 0
	}
	return k
}

// wordPart reads a run of letters and digits at i: its end and what it
// holds.
func wordPart(s string, i int) (end int, letters, digits, nonASCII bool) {
	j := i
	for j < len(s) {
		if isDigit(s[j]) {
			digits = true
			j++
			continue
		}
		ok, n := letterAt(s, j)
		if !ok {
			break
		}
		letters = true
		if n > 1 || s[j] >= utf8.RuneSelf {
			nonASCII = true
		}
		j += n
	}
	return j, letters, digits, nonASCII
}

// word recognises a word or a hyphenated word at i.
func (p *parser) word(i int) (int, []Token) {
	s := p.s
	end, _, digits, nonASCII := wordPart(s, i)
	parts := []Token{{partType(digits, nonASCII), s[i:end]}}
	anyDigits, anyNonASCII := digits, nonASCII
	for end < len(s) && s[end] == '-' {
		e, l, d, n := wordPart(s, end+1)
		if !l {
			break
		}
		parts = append(parts, Token{partType(d, n), s[end+1 : e]})
		anyDigits, anyNonASCII = anyDigits || d, anyNonASCII || n
		end = e
	}
	if len(parts) == 1 {
		t := ASCIIWord
		switch {
		case digits:
			t = NumWord
		case nonASCII:
			t = Word
		}
		return end, []Token{{t, s[i:end]}}
	}
	t := ASCIIHWord
	switch {
	case anyDigits:
		t = NumHWord
	case anyNonASCII:
		t = HWord
	}
	toks := []Token{{t, s[i:end]}}
	for k, part := range parts {
		if k > 0 {
			toks = append(toks, Token{Blank, "-"})
		}
		toks = append(toks, part)
	}
	return end, toks
}

func partType(digits, nonASCII bool) TokenType {
	switch {
	case digits:
		return HWordNumPart
	case nonASCII:
		return HWordPart
	}
	return HWordASCIIPart
}
