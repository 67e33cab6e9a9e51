package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// tokKind classifies a Postgres lexical token.
type tokKind uint8

const (
	tkIdent  tokKind = iota + 1 // unquoted word; val is folded to lower case
	tkQIdent                    // "quoted identifier"; val is its exact name
	tkString                    // any string constant; val is its decoded content
	tkNumber                    // numeric constant, verbatim
	tkParam                     // $n; n holds the number
	tkOp                        // operator (PostgreSQL operator lexing rules)
	tkPunct                     // ( ) [ ] , ; . : and ::
	tkHint                      // /*+ optimizer hint */, passed to TiDB verbatim
)

// String-constant flavours, kept in token.str.
const (
	strPlain  = '\''
	strEscape = 'E'
	strDollar = '$'
	strBit    = 'B' // B'0101' and X'1F': passed through as written
	strNation = 'N'
	strUni    = 'U' // U&'...': val is decoded, emitted as a plain string
)

// token is one lexical token of the original query; [start, end) are byte
// offsets into it.
type token struct {
	kind  tokKind
	str   byte
	start int
	end   int
	val   string
	n     int // tkParam: the number; a U&'' string: where its UESCAPE is (0: none)
	// schema is the schema of OPERATOR(schema.op)'s operator token, when
	// one other than pg_catalog: a user-defined operator of that schema.
	schema string
	// opForm marks the operator token of OPERATOR(op) or
	// OPERATOR(schema.op): whatever the operator, it has the precedence
	// of PostgreSQL's "any other operator" (Op), as its grammar gives
	// OPERATOR.
	opForm bool
}

// is reports whether t is the unquoted word w (w in lower case) or the
// punctuation/operator w.
func (t *token) is(w string) bool {
	switch t.kind {
	case tkIdent, tkPunct, tkOp:
		return t.val == w
	}
	return false
}

// scanError builds a 42601 pointing at byte offset off of sql.
func scanError(sql string, off int, format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.SyntaxError, format, args...).WithPosition(charPos(sql, off))
}

// charPos converts a byte offset of s into a 1-based character position.
func charPos(s string, off int) int {
	if off > len(s) {
		off = len(s)
	}
	return utf8.RuneCountInString(s[:off]) + 1
}

// nearText is the token text Postgres quotes in "at or near" messages.
func nearText(sql string, start, end int) string {
	s := sql[start:end]
	if len(s) > 60 {
		s = s[:60]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentCont(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '$'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isOpChar(c byte) bool { return strings.IndexByte("+-*/<>=~!@#%^&|`?", c) >= 0 }

// lowerASCII folds ASCII letters only, as Postgres does for identifiers in
// UTF-8 databases.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// scan splits sql into tokens by PostgreSQL's lexical rules. Comments are
// dropped (they appear as gaps between tokens) except optimizer hints.
func scan(sql string) ([]token, error) {
	toks := make([]token, 0, len(sql)/4+1)
	i := 0
	for i < len(sql) {
		c := sql[i]
		switch {
		case isSpace(c):
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			i = lineCommentEnd(sql, i)
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end, ok := blockCommentEnd(sql, i)
			if !ok {
				return nil, scanError(sql, i, "unterminated /* comment at or near %q", nearText(sql, i, len(sql)))
			}
			if i+2 < len(sql) && sql[i+2] == '+' {
				toks = append(toks, token{kind: tkHint, start: i, end: end, val: sql[i:end]})
			}
			i = end
		case (c == 'e' || c == 'E') && i+1 < len(sql) && sql[i+1] == '\'':
			t, err := scanContinuedEString(sql, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case (c == 'b' || c == 'B' || c == 'x' || c == 'X') && i+1 < len(sql) && sql[i+1] == '\'':
			t, err := scanPlainString(sql, i+1)
			if err != nil {
				return nil, err
			}
			t.start, t.str, t.val = i, strBit, sql[i:t.end]
			toks = append(toks, t)
			i = t.end
		case (c == 'n' || c == 'N') && i+1 < len(sql) && sql[i+1] == '\'':
			t, err := scanPlainString(sql, i+1)
			if err != nil {
				return nil, err
			}
			t.start, t.str = i, strNation
			toks = append(toks, t)
			i = t.end
		case (c == 'u' || c == 'U') && i+2 < len(sql) && sql[i+1] == '&' && (sql[i+2] == '\'' || sql[i+2] == '"'):
			t, err := scanUnicode(sql, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case isIdentStart(c):
			j := i + 1
			for j < len(sql) && isIdentCont(sql[j]) {
				j++
			}
			toks = append(toks, token{kind: tkIdent, start: i, end: j, val: lowerASCII(sql[i:j])})
			i = j
		case isDigit(c) || c == '.' && i+1 < len(sql) && isDigit(sql[i+1]):
			j := scanNumber(sql, i)
			if j < len(sql) && isIdentStart(sql[j]) {
				k := j
				for k < len(sql) && isIdentCont(sql[k]) {
					k++
				}
				return nil, scanError(sql, i, "trailing junk after numeric literal at or near %q", nearText(sql, i, k))
			}
			toks = append(toks, token{kind: tkNumber, start: i, end: j, val: sql[i:j]})
			i = j
		case c == '$':
			t, err := scanDollar(sql, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case c == '\'':
			t, err := scanPlainString(sql, i)
			for err == nil {
				q, ok := continuationAt(sql, t.end)
				if !ok {
					break
				}
				var next token
				if next, err = scanPlainString(sql, q); err == nil {
					// Emitted as its value, re-quoted (see emit).
					t.val += next.val
					t.end = next.end
					t.str = strEscape
				}
			}
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case c == '"':
			t, err := scanQuotedIdent(sql, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case c == ':' && i+1 < len(sql) && sql[i+1] == ':':
			toks = append(toks, token{kind: tkPunct, start: i, end: i + 2, val: "::"})
			i += 2
		case strings.IndexByte("()[],;.:", c) >= 0:
			toks = append(toks, token{kind: tkPunct, start: i, end: i + 1, val: sql[i : i+1]})
			i++
		case isOpChar(c):
			j := scanOperator(sql, i)
			toks = append(toks, token{kind: tkOp, start: i, end: j, val: sql[i:j]})
			i = j
		default:
			_, size := utf8.DecodeRuneInString(sql[i:])
			return nil, scanError(sql, i, "syntax error at or near %q", nearText(sql, i, i+size))
		}
	}
	return toks, nil
}

// lineCommentEnd returns the end of the -- comment starting at i: its
// line's end.
func lineCommentEnd(sql string, i int) int {
	for i < len(sql) && sql[i] != '\n' && sql[i] != '\r' {
		i++
	}
	return i
}

// blockCommentEnd returns the end of the (nested, as in Postgres) block
// comment starting at i.
func blockCommentEnd(sql string, i int) (int, bool) {
	depth := 0
	for i+1 < len(sql) {
		switch {
		case sql[i] == '/' && sql[i+1] == '*':
			depth++
			i += 2
		case sql[i] == '*' && sql[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i, true
			}
		default:
			i++
		}
	}
	return len(sql), false
}

func scanNumber(sql string, i int) int {
	j := i
	for j < len(sql) && isDigit(sql[j]) {
		j++
	}
	// "1..5" is not a number followed by ".5"; keep Postgres' reading of
	// "1." as a complete numeric constant only when no second dot follows.
	if j < len(sql) && sql[j] == '.' && !(j+1 < len(sql) && sql[j+1] == '.') {
		j++
		for j < len(sql) && isDigit(sql[j]) {
			j++
		}
	}
	if j < len(sql) && (sql[j] == 'e' || sql[j] == 'E') {
		k := j + 1
		if k < len(sql) && (sql[k] == '+' || sql[k] == '-') {
			k++
		}
		if k < len(sql) && isDigit(sql[k]) {
			for k < len(sql) && isDigit(sql[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

// scanOperator applies Postgres' operator rules: the longest run of operator
// characters, cut before any comment start, and a multi-character operator
// may end in + or - only if it contains one of ~ ! @ # % ^ & | ` ?.
func scanOperator(sql string, i int) int {
	j := i
	for j < len(sql) && isOpChar(sql[j]) {
		if j > i && (sql[j-1] == '-' && sql[j] == '-' || sql[j-1] == '/' && sql[j] == '*') {
			j--
			break
		}
		j++
	}
	if j-i > 1 && !strings.ContainsAny(sql[i:j], "~!@#%^&|`?") {
		for j-i > 1 && (sql[j-1] == '+' || sql[j-1] == '-') {
			j--
		}
	}
	return j
}

// scanPlainString scans '...' with ” as the only escape.
func scanPlainString(sql string, i int) (token, error) {
	var b strings.Builder
	j := i + 1
	from := j
	for {
		k := strings.IndexByte(sql[j:], '\'')
		if k < 0 {
			return token{}, scanError(sql, i, "unterminated quoted string at or near %q", nearText(sql, i, len(sql)))
		}
		j += k
		if j+1 < len(sql) && sql[j+1] == '\'' {
			b.WriteString(sql[from : j+1])
			j += 2
			from = j
			continue
		}
		if from == i+1 {
			return token{kind: tkString, str: strPlain, start: i, end: j + 1, val: sql[from:j]}, nil
		}
		b.WriteString(sql[from:j])
		return token{kind: tkString, str: strPlain, start: i, end: j + 1, val: b.String()}, nil
	}
}

func scanQuotedIdent(sql string, i int) (token, error) {
	var b strings.Builder
	j := i + 1
	for {
		k := strings.IndexByte(sql[j:], '"')
		if k < 0 {
			return token{}, scanError(sql, i, "unterminated quoted identifier at or near %q", nearText(sql, i, len(sql)))
		}
		b.WriteString(sql[j : j+k])
		j += k
		if j+1 < len(sql) && sql[j+1] == '"' {
			b.WriteByte('"')
			j += 2
			continue
		}
		if b.Len() == 0 {
			return token{}, scanError(sql, i, "zero-length delimited identifier at or near %q", sql[i:j+1])
		}
		return token{kind: tkQIdent, start: i, end: j + 1, val: b.String()}, nil
	}
}

// MaxParamNumber is the highest $n PostgreSQL accepts (MaxAllocSize /
// sizeof(Oid)): a higher one is "there is no parameter $n".
const MaxParamNumber = 0x3fffffff / 4

// MaxBindParams is the most parameters a Parse message can declare and a
// Bind message can carry: their counts are 16-bit.
const MaxBindParams = 65535

// scanDollar scans $n placeholders and $tag$...$tag$ strings.
func scanDollar(sql string, i int) (token, error) {
	j := i + 1
	if j < len(sql) && isDigit(sql[j]) {
		for j < len(sql) && isDigit(sql[j]) {
			j++
		}
		if j < len(sql) && isIdentCont(sql[j]) {
			return token{}, scanError(sql, i, "trailing junk after parameter at or near %q", nearText(sql, i, j+1))
		}
		// PostgreSQL numbers parameters up to MaxAllocSize / sizeof(Oid);
		// one past 65535 is a statement it prepares (each $n of the text
		// gives its parameter a type) that no Bind can execute, as Bind's
		// parameter count is 16 bits. The binder refuses a number the
		// text and the declared types leave without a type, so a large
		// $n allocates nothing.
		n, err := strconv.Atoi(sql[i+1 : j])
		if err != nil || n < 1 || n > MaxParamNumber {
			return token{}, pgerr.New(pgerr.UndefinedParameter, "there is no parameter %s", sql[i:j]).WithPosition(charPos(sql, i))
		}
		return token{kind: tkParam, start: i, end: j, val: sql[i:j], n: n}, nil
	}
	for j < len(sql) && isIdentCont(sql[j]) && sql[j] != '$' {
		j++
	}
	if j >= len(sql) || sql[j] != '$' {
		return token{}, scanError(sql, i, "syntax error at or near %q", "$")
	}
	delim := sql[i : j+1]
	k := strings.Index(sql[j+1:], delim)
	if k < 0 {
		return token{}, scanError(sql, i, "unterminated dollar-quoted string at or near %q", nearText(sql, i, len(sql)))
	}
	body := sql[j+1 : j+1+k]
	return token{kind: tkString, str: strDollar, start: i, end: j + 1 + k + len(delim), val: body}, nil
}

// scanContinuedEString scans the E'...' string at i with the segments
// continuing it on later lines (continuationAt), which read its escapes.
func scanContinuedEString(sql string, i int) (token, error) {
	t, err := scanEString(sql, i)
	for err == nil {
		q, ok := continuationAt(sql, t.end)
		if !ok {
			break
		}
		var next token
		if next, err = scanEString(sql, q-1); err == nil {
			t.val += next.val
			t.end = next.end
		}
	}
	return t, err
}

// scanEString decodes an E'...' string: backslash escapes \b \f \n \r \t,
// \ooo octal, \xHH hex, \uXXXX and \UXXXXXXXX, any other \c is c; ” and \'
// are quotes. The decoded bytes must be valid UTF-8, as in a UTF-8 database.
func scanEString(sql string, start int) (token, error) {
	return scanEscaped(sql, start, start+1)
}

// scanEscaped decodes the string whose opening quote is at quote, with
// E'...”s escapes, as the token starting at start.
func scanEscaped(sql string, start, quote int) (token, error) {
	var b []byte
	j := quote + 1
	for {
		if j >= len(sql) {
			return token{}, scanError(sql, start, "unterminated quoted string at or near %q", nearText(sql, start, len(sql)))
		}
		c := sql[j]
		switch {
		case c == '\'':
			if j+1 < len(sql) && sql[j+1] == '\'' {
				b = append(b, '\'')
				j += 2
				continue
			}
			if !utf8.Valid(b) {
				// Named by its bytes, without a position, as the scanner's
				// pg_verifymbstr reports it.
				return token{}, pgerr.InvalidByteSequence(string(b[invalidRune(b):]))
			}
			return token{kind: tkString, str: strEscape, start: start, end: j + 1, val: string(b)}, nil
		case c == '\\':
			if j+1 >= len(sql) {
				j++
				continue
			}
			e := sql[j+1]
			j += 2
			switch e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v := int(e - '0')
				for n := 0; n < 2 && j < len(sql) && sql[j] >= '0' && sql[j] <= '7'; n++ {
					v = v*8 + int(sql[j]-'0')
					j++
				}
				b = append(b, byte(v))
			case 'x':
				v, n := 0, 0
				for ; n < 2 && j < len(sql) && isHex(sql[j]); n++ {
					v = v*16 + hexVal(sql[j])
					j++
				}
				if n == 0 {
					b = append(b, 'x')
				} else {
					b = append(b, byte(v))
				}
			case 'u', 'U':
				digits := 4
				if e == 'U' {
					digits = 8
				}
				v := 0
				for n := 0; n < digits; n++ {
					if j >= len(sql) || !isHex(sql[j]) {
						return token{}, pgerr.New(pgerr.InvalidEscapeSequence, "invalid Unicode escape").WithPosition(charPos(sql, j)).
							WithHint("Unicode escapes must be \\uXXXX or \\UXXXXXXXX.")
					}
					v = v*16 + hexVal(sql[j])
					j++
				}
				if v == 0 || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
					return token{}, pgerr.New(pgerr.InvalidEscapeSequence, "invalid Unicode escape value").WithPosition(charPos(sql, j))
				}
				b = utf8.AppendRune(b, rune(v))
			default:
				b = append(b, e)
			}
			if len(b) > 0 && b[len(b)-1] == 0 {
				return token{}, pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": 0x00")
			}
		default:
			b = append(b, c)
			j++
		}
	}
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// scanUnicode scans a Unicode-escape string U&'...' or identifier U&"..."
// at i, with the UESCAPE 'c' clause that may follow it (after blanks and
// comments), and decodes its escapes: c (default \) then four hex digits,
// or c+ then six, c c for c itself; surrogate pairs combine.
func scanUnicode(sql string, i int) (token, error) {
	var t token
	var err error
	if sql[i+2] == '\'' {
		t, err = scanPlainString(sql, i+2)
	} else {
		t, err = scanQuotedIdent(sql, i+2)
	}
	if err != nil {
		return token{}, err
	}
	body := sql[i+3 : t.end-1] // the escapes are decoded over the raw text
	for t.kind == tkString {
		q, ok := continuationAt(sql, t.end)
		if !ok {
			break
		}
		next, err := scanPlainString(sql, q)
		if err != nil {
			return token{}, err
		}
		body += sql[q+1 : next.end-1]
		t.end = next.end
	}
	esc := byte('\\')
	end := t.end
	if k, ok := uescapeAt(sql, t.end); ok {
		open := k + len("uescape")
		for open < len(sql) && isSpace(sql[open]) {
			open++
		}
		if open >= len(sql) || sql[open] != '\'' {
			return token{}, scanError(sql, open, "UESCAPE must be followed by a simple string literal at or near %q", nearText(sql, open, min(open+1, len(sql))))
		}
		lit, err := scanPlainString(sql, open)
		if err != nil {
			return token{}, err
		}
		if len(lit.val) != 1 {
			return token{}, scanError(sql, open, "invalid Unicode escape character at or near %q", sql[open:lit.end])
		}
		esc = lit.val[0]
		if isHexDigit(esc) || esc == '+' || esc == '\'' || esc == '"' || isSpace(esc) || esc >= 0x80 {
			return token{}, scanError(sql, open, "invalid Unicode escape character at or near %q", sql[open:lit.end])
		}
		end = lit.end
		t.n = k // where UESCAPE is (Normalize keeps the word)
	}
	quote := sql[i+2]
	// Doubled quotes are one quote in the raw text.
	body = strings.ReplaceAll(body, string([]byte{quote, quote}), string(quote))
	val, off, msg, hint := decodeUnicodeEscapes(body, esc)
	if msg != "" {
		// The offset is into the undoubled body; close enough to point
		// at the escape in all but strings with doubled quotes before it.
		e := pgerr.New(pgerr.SyntaxError, "%s", msg).WithPosition(charPos(sql, min(i+3+off, t.end-1)))
		if hint != "" {
			e = e.WithHint("%s", hint)
		}
		return token{}, e
	}
	t.start, t.end, t.val = i, end, val
	if t.kind == tkString {
		t.str = strUni
	}
	return t, nil
}

// uescapeAt finds the word UESCAPE after blanks and comments from i.
func uescapeAt(sql string, i int) (int, bool) {
	for i < len(sql) {
		switch {
		case isSpace(sql[i]):
			i++
		case strings.HasPrefix(sql[i:], "--"):
			i = lineCommentEnd(sql, i)
		case strings.HasPrefix(sql[i:], "/*"):
			end, ok := blockCommentEnd(sql, i)
			if !ok {
				return 0, false
			}
			i = end
		default:
			if len(sql)-i >= 7 && strings.EqualFold(sql[i:i+7], "uescape") && (i+7 == len(sql) || !isIdentCont(sql[i+7])) {
				return i, true
			}
			return 0, false
		}
	}
	return 0, false
}

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decodeUnicodeEscapes decodes s's escapes; a failure returns PostgreSQL's
// message (and hint) with the byte offset of the escape at fault.
func decodeUnicodeEscapes(s string, esc byte) (val string, off int, msg, hint string) {
	const badEscape = "invalid Unicode escape"
	const badHint = "Unicode escapes must be \\XXXX or \\+XXXXXX."
	var b strings.Builder
	var high rune // a pending high surrogate
	highAt := 0
	hex := func(h string) (rune, bool) {
		v, err := strconv.ParseUint(h, 16, 32)
		return rune(v), err == nil
	}
	for j := 0; j < len(s); {
		if s[j] != esc {
			if high != 0 {
				return "", highAt, "invalid Unicode surrogate pair", ""
			}
			b.WriteByte(s[j])
			j++
			continue
		}
		var r rune
		var ok bool
		start := j
		switch {
		case j+1 < len(s) && s[j+1] == esc:
			if high != 0 {
				return "", highAt, "invalid Unicode surrogate pair", ""
			}
			b.WriteByte(esc)
			j += 2
			continue
		case j+8 <= len(s) && s[j+1] == '+' && allHex(s[j+2:j+8]):
			r, ok = hex(s[j+2 : j+8])
			if !ok {
				return "", j, badEscape, badHint
			}
			j += 8
		case j+5 <= len(s) && allHex(s[j+1:j+5]):
			r, _ = hex(s[j+1 : j+5])
			j += 5
		default:
			return "", j, badEscape, badHint
		}
		at := start
		switch {
		case r == 0 || r > 0x10FFFF:
			return "", at, "invalid Unicode escape value", ""
		case r >= 0xD800 && r <= 0xDBFF:
			if high != 0 {
				return "", highAt, "invalid Unicode surrogate pair", ""
			}
			high, highAt = r, at
			continue
		case r >= 0xDC00 && r <= 0xDFFF:
			if high == 0 {
				return "", at, "invalid Unicode surrogate pair", ""
			}
			r = (high-0xD800)<<10 + (r - 0xDC00) + 0x10000
			high = 0
		case high != 0:
			return "", highAt, "invalid Unicode surrogate pair", ""
		}
		b.WriteRune(r)
	}
	if high != 0 {
		return "", len(s), "invalid Unicode surrogate pair", ""
	}
	return b.String(), 0, "", ""
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

// continuationAt finds the quote that continues a string literal ending at
// i: PostgreSQL joins 'a' and 'b' when only blanks and line comments stand
// between them and they include a newline ('a'<newline>'b' is 'ab'; 'a'
// 'b' on one line is a syntax error).
func continuationAt(sql string, i int) (int, bool) {
	newline := false
	for i < len(sql) {
		switch c := sql[i]; {
		case c == '\n' || c == '\r':
			newline = true
			i++
		case isSpace(c):
			i++
		case strings.HasPrefix(sql[i:], "--"):
			i = lineCommentEnd(sql, i)
		case c == '\'' && newline:
			return i, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// invalidRune is the offset of the first byte of b that starts no valid
// UTF-8 character (b is known not to be valid).
func invalidRune(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return 0
}
