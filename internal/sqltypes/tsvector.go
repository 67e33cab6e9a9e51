package sqltypes

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Full-text search limits, PostgreSQL 15's (ts_type.h).
const (
	// TSMaxLexemeLen is MAXSTRLEN: a lexeme must be shorter.
	TSMaxLexemeLen = 1<<11 - 1
	// TSMaxStrPos is MAXSTRPOS: the most bytes of lexemes a tsvector holds.
	TSMaxStrPos = 1<<20 - 1
	// TSMaxEntryPos is MAXENTRYPOS: positions are capped below it.
	TSMaxEntryPos = 1 << 14
	// TSMaxNumPos is MAXNUMPOS: the most positions a lexeme keeps.
	TSMaxNumPos = 256
)

// TSPos is PostgreSQL's WordEntryPos: a position (low 14 bits) and a weight
// (high 2 bits: 3 = A, 2 = B, 1 = C, 0 = D).
type TSPos uint16

// MakeTSPos builds a position with a weight, capping the position as
// PostgreSQL's LIMITPOS does.
func MakeTSPos(pos int, weight int) TSPos {
	if pos >= TSMaxEntryPos {
		pos = TSMaxEntryPos - 1
	}
	return TSPos(weight&3)<<14 | TSPos(pos)
}

// Pos is the position.
func (p TSPos) Pos() int { return int(p & 0x3fff) }

// Weight is the weight: 3 = A, 2 = B, 1 = C, 0 = D.
func (p TSPos) Weight() int { return int(p >> 14) }

// TSLexeme is one lexeme of a tsvector with its positions (none when the
// tsvector was stripped or written without them).
type TSLexeme struct {
	Word string
	Pos  []TSPos
}

// TSVectorValue is a tsvector: its lexemes sorted by their bytes, one per word,
// each with its positions sorted and unique. Values are immutable once built.
type TSVectorValue struct {
	Lexemes []TSLexeme
}

// NewTSVector returns a tsvector value.
func NewTSVector(t *TSVectorValue) Value { return Value{K: KindTSVector, X: t} }

// TSVector returns the tsvector of a KindTSVector value (read-only).
func (v Value) TSVector() *TSVectorValue {
	t, _ := v.X.(*TSVectorValue)
	return t
}

// Words returns the tsvector's lexemes in order: what an inverted index
// keys a tsvector by.
func (t *TSVectorValue) Words() []string {
	out := make([]string, len(t.Lexemes))
	for i, l := range t.Lexemes {
		out[i] = l.Word
	}
	return out
}

// Find returns the index of word's lexeme, or -1.
func (t *TSVectorValue) Find(word string) int {
	i, ok := slices.BinarySearchFunc(t.Lexemes, word, func(l TSLexeme, w string) int { return strings.Compare(l.Word, w) })
	if !ok {
		return -1
	}
	return i
}

// MakeTSVector normalises lexemes as tsvectorin does: sorted by their
// bytes, duplicates merged with their positions, positions sorted, unique
// (the highest weight of a position kept) and at most TSMaxNumPos. The
// slice is sorted in place and kept.
func MakeTSVector(lex []TSLexeme) *TSVectorValue {
	slices.SortStableFunc(lex, func(a, b TSLexeme) int { return strings.Compare(a.Word, b.Word) })
	out := lex[:0]
	// owned is the entry of out whose positions are a slice of this
	// function's own, which later repeats of its word append to in place:
	// the first repeat copies the entry's positions out of the caller's
	// slice once (appending to it could write into a neighbour's), so a
	// word repeated n times costs O(n), not a copy of its positions at
	// every repeat (3M repeats of one word ran for minutes).
	owned := -1
	for _, l := range lex {
		if n := len(out); n > 0 && out[n-1].Word == l.Word {
			if len(l.Pos) > 0 {
				if owned != n-1 {
					out[n-1].Pos = slices.Clip(out[n-1].Pos)
					owned = n - 1
				}
				out[n-1].Pos = append(out[n-1].Pos, l.Pos...)
			}
			continue
		}
		out = append(out, l)
	}
	for i := range out {
		out[i].Pos = uniqueTSPos(out[i].Pos)
	}
	return &TSVectorValue{Lexemes: out}
}

// uniqueTSPos is uniquePos: positions sorted, one per position with the
// highest weight given it, cut at TSMaxNumPos or at the last position.
func uniqueTSPos(p []TSPos) []TSPos {
	if len(p) == 0 {
		return nil
	}
	p = slices.Clone(p)
	slices.SortStableFunc(p, func(a, b TSPos) int { return a.Pos() - b.Pos() })
	out := p[:1]
	for _, q := range p[1:] {
		last := &out[len(out)-1]
		if q.Pos() != last.Pos() {
			if len(out) >= TSMaxNumPos || last.Pos() == TSMaxEntryPos-1 {
				break
			}
			out = append(out, q)
		} else if q.Weight() > last.Weight() {
			*last = MakeTSPos(last.Pos(), q.Weight())
		}
	}
	return out
}

func tsvectorSyntaxError(s string) error {
	return pgerr.New(pgerr.SyntaxError, "syntax error in tsvector: \"%s\"", s)
}

// tsTokenizer is PostgreSQL's gettoken_tsvector, the lexer shared by
// tsvector input and the operands of tsquery input.
type tsTokenizer struct {
	src   string // the whole input, for errors
	s     string // the rest
	query bool   // tsquery operands: operators end a word, positions are not read
	web   bool   // websearch_to_tsquery: no quoting or escapes, '"' ends a word
	errf  func(string) error
}

func tsIsOperator(c byte) bool {
	return c == '!' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<'
}

// tsIsSpace is t_isspace: a Unicode space.
func tsIsSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

func (t *tsTokenizer) errSyntax() error { return t.errf(t.src) }

// next reads one word and (for tsvector input) its positions. ok is false
// at the end of the input.
func (t *tsTokenizer) next() (word string, pos []TSPos, ok bool, err error) {
	const (
		waitWord = iota
		waitEndWord
		waitNextChar
		waitEndCmplx
		waitCharCmplx
		waitPosInfo
		inPosInfo
		waitPosDelim
	)
	state, old := waitWord, 0
	var w strings.Builder
	s := t.s
	defer func() { t.s = s }()
	for {
		var c byte
		if s != "" {
			c = s[0]
		}
		n := 1
		if c >= utf8.RuneSelf {
			_, n = utf8.DecodeRuneInString(s)
		}
		switch state {
		case waitWord:
			switch {
			case s == "":
				return "", nil, false, nil
			case !t.web && c == '\'':
				state = waitEndCmplx
			case !t.web && c == '\\':
				state, old = waitNextChar, waitEndWord
			case t.query && tsIsOperator(c) || t.web && c == '"':
				return "", nil, false, t.errSyntax()
			case !tsIsSpace(s):
				w.WriteString(s[:n])
				state = waitEndWord
			}
		case waitNextChar:
			if s == "" {
				return "", nil, false, pgerr.New(pgerr.SyntaxError, "there is no escaped character: \"%s\"", t.src)
			}
			w.WriteString(s[:n])
			state = old
		case waitEndWord:
			switch {
			case c == '\\' && !t.web:
				state, old = waitNextChar, waitEndWord
			case s == "" || tsIsSpace(s) || t.query && tsIsOperator(c) || t.web && c == '"':
				if w.Len() == 0 {
					return "", nil, false, t.errSyntax()
				}
				return w.String(), nil, true, nil
			case c == ':':
				if w.Len() == 0 {
					return "", nil, false, t.errSyntax()
				}
				if t.query {
					return w.String(), nil, true, nil
				}
				state = inPosInfo
			default:
				w.WriteString(s[:n])
			}
		case waitEndCmplx:
			switch {
			case c == '\'':
				state = waitCharCmplx
			case c == '\\':
				state, old = waitNextChar, waitEndCmplx
			case s == "":
				return "", nil, false, t.errSyntax()
			default:
				w.WriteString(s[:n])
			}
		case waitCharCmplx:
			if c == '\'' {
				w.WriteByte('\'')
				state = waitEndCmplx
				break
			}
			if w.Len() == 0 {
				return "", nil, false, t.errSyntax()
			}
			if t.query {
				return w.String(), nil, true, nil
			}
			state = waitPosInfo
			continue // this character again
		case waitPosInfo:
			if c != ':' {
				return w.String(), nil, true, nil
			}
			state = inPosInfo
		case inPosInfo:
			if c < '0' || c > '9' {
				return "", nil, false, t.errSyntax()
			}
			v := 0
			for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
				if v < 1<<30 {
					v = v*10 + int(s[i]-'0')
				}
			}
			if v == 0 {
				return "", nil, false, pgerr.New(pgerr.SyntaxError, "wrong position info in tsvector: \"%s\"", t.src)
			}
			pos = append(pos, MakeTSPos(v, 0))
			state = waitPosDelim
		case waitPosDelim:
			last := &pos[len(pos)-1]
			weight := -1
			switch c {
			case ',':
				state = inPosInfo
			case 'a', 'A', '*':
				weight = 3
			case 'b', 'B':
				weight = 2
			case 'c', 'C':
				weight = 1
			case 'd', 'D':
				weight = 0
			default:
				if s == "" || tsIsSpace(s) {
					return w.String(), pos, true, nil
				}
				if c < '0' || c > '9' {
					return "", nil, false, t.errSyntax()
				}
			}
			if weight >= 0 {
				if last.Weight() != 0 {
					return "", nil, false, t.errSyntax()
				}
				*last = MakeTSPos(last.Pos(), weight)
			}
		}
		s = s[n:]
	}
}

// ParseTSVector reads tsvector's text form (tsvectorin).
func ParseTSVector(s string) (*TSVectorValue, error) {
	t := &tsTokenizer{src: s, s: s, errf: tsvectorSyntaxError}
	var lex []TSLexeme
	total := 0
	for {
		w, pos, ok, err := t.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(w) >= TSMaxLexemeLen {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "word is too long (%d bytes, max %d bytes)", len(w), TSMaxLexemeLen-1)
		}
		total += len(w)
		if total > TSMaxStrPos {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "string is too long for tsvector (%d bytes, max %d bytes)", total, TSMaxStrPos)
		}
		lex = append(lex, TSLexeme{Word: w, Pos: pos})
	}
	return MakeTSVector(lex), nil
}

// appendTSWord appends a lexeme quoted as tsvectorout and tsqueryout quote
// it: in single quotes, a quote or backslash doubled.
func appendTSWord(buf []byte, w string) []byte {
	buf = append(buf, '\'')
	for i := 0; i < len(w); i++ {
		if w[i] == '\'' || w[i] == '\\' {
			buf = append(buf, w[i])
		}
		buf = append(buf, w[i])
	}
	return append(buf, '\'')
}

// AppendTSVector appends tsvector's text form (tsvectorout).
func AppendTSVector(buf []byte, t *TSVectorValue) []byte {
	for i, l := range t.Lexemes {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = appendTSWord(buf, l.Word)
		for j, p := range l.Pos {
			if j == 0 {
				buf = append(buf, ':')
			} else {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(p.Pos()), 10)
			if w := p.Weight(); w > 0 {
				buf = append(buf, "DCBA"[w])
			}
		}
	}
	return buf
}

// AppendTSVectorBinary appends tsvectorsend's form: the lexeme count, then
// each lexeme NUL-terminated, its position count and positions (uint16
// with the weight in the top bits).
func AppendTSVectorBinary(buf []byte, t *TSVectorValue) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(t.Lexemes)))
	for _, l := range t.Lexemes {
		buf = append(buf, l.Word...)
		buf = append(buf, 0)
		buf = binary.BigEndian.AppendUint16(buf, uint16(len(l.Pos)))
		for _, p := range l.Pos {
			buf = binary.BigEndian.AppendUint16(buf, uint16(p))
		}
	}
	return buf
}

func errInsufficientData() error {
	return pgerr.New(pgerr.InvalidBinaryRepresentation, "insufficient data left in message")
}

// DecodeTSVectorBinary reads tsvectorrecv's form, with its checks:
// lexemes sorted and unique (sorted here if they are not), positions
// strictly increasing.
func DecodeTSVectorBinary(src []byte) (*TSVectorValue, error) {
	if len(src) < 4 {
		return nil, errInsufficientData()
	}
	n := binary.BigEndian.Uint32(src)
	src = src[4:]
	if n > TSMaxStrPos {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid size of tsvector")
	}
	lex := make([]TSLexeme, 0, min(int(n), len(src)/3))
	sorted := true
	for i := uint32(0); i < n; i++ {
		end := strings.IndexByte(string(src), 0)
		if end < 0 {
			return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid string in message")
		}
		w := string(src[:end])
		if !utf8.ValidString(w) {
			return nil, pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
		}
		src = src[end+1:]
		if len(w) > TSMaxLexemeLen {
			return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid tsvector: lexeme too long")
		}
		if len(src) < 2 {
			return nil, errInsufficientData()
		}
		np := int(binary.BigEndian.Uint16(src))
		src = src[2:]
		if np > TSMaxNumPos {
			return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "unexpected number of tsvector positions")
		}
		if len(src) < 2*np {
			return nil, errInsufficientData()
		}
		var pos []TSPos
		for j := 0; j < np; j++ {
			p := TSPos(binary.BigEndian.Uint16(src[2*j:]))
			if j > 0 && p.Pos() <= pos[j-1].Pos() {
				return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "position information is misordered")
			}
			pos = append(pos, p)
		}
		src = src[2*np:]
		if k := len(lex); k > 0 && lex[k-1].Word >= w {
			sorted = false
		}
		lex = append(lex, TSLexeme{Word: w, Pos: pos})
	}
	if len(src) != 0 {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format")
	}
	if !sorted {
		return MakeTSVector(lex), nil
	}
	return &TSVectorValue{Lexemes: lex}, nil
}

// tsvectorSize is the tsvector's VARSIZE in PostgreSQL, which its
// comparison looks at first.
func tsvectorSize(t *TSVectorValue) int {
	n := 0
	for _, l := range t.Lexemes {
		n += len(l.Word)
		if len(l.Pos) > 0 {
			n = (n+1)&^1 + 2 + 2*len(l.Pos)
		}
	}
	return 8 + 4*len(t.Lexemes) + n
}

// CompareTSVector is tsvector's btree order (silly_cmp_tsvector): by
// stored size, lexeme count, then lexeme by lexeme.
func CompareTSVector(a, b *TSVectorValue) int {
	if c := cmpInt(tsvectorSize(a), tsvectorSize(b)); c != 0 {
		return c
	}
	if c := cmpInt(len(a.Lexemes), len(b.Lexemes)); c != 0 {
		return c
	}
	for i := range a.Lexemes {
		x, y := a.Lexemes[i], b.Lexemes[i]
		if hx, hy := len(x.Pos) > 0, len(y.Pos) > 0; hx != hy {
			if hx {
				return -1
			}
			return 1
		}
		if c := strings.Compare(x.Word, y.Word); c != 0 {
			return c
		}
		if len(x.Pos) != len(y.Pos) {
			if len(x.Pos) > len(y.Pos) {
				return -1
			}
			return 1
		}
		for j := range x.Pos {
			if x.Pos[j].Pos() != y.Pos[j].Pos() {
				if x.Pos[j].Pos() > y.Pos[j].Pos() {
					return -1
				}
				return 1
			}
			if x.Pos[j].Weight() != y.Pos[j].Weight() {
				if x.Pos[j].Weight() > y.Pos[j].Weight() {
					return -1
				}
				return 1
			}
		}
	}
	return 0
}

func hashTSVector(h uint64, t *TSVectorValue) uint64 {
	for _, l := range t.Lexemes {
		h = hashString(hashUint64(h, uint64(len(l.Word))), l.Word)
		for _, p := range l.Pos {
			h = hashUint64(h, uint64(p))
		}
	}
	return h
}
