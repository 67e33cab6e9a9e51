package sqltypes

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TSQueryOp is the kind of a tsquery node; the operators are numbered as
// PostgreSQL numbers them (OP_NOT 1 ... OP_PHRASE 4), which tsquerysend
// writes.
type TSQueryOp uint8

// The tsquery node kinds. TSStop is a stop word's placeholder while a
// query is built (QI_VALSTOP); no finished query holds one.
const (
	TSVal TSQueryOp = iota
	TSNot
	TSAnd
	TSOr
	TSPhrase
	TSStop
)

// tsPriority is tsearch_op_priority: NOT binds tightest, then phrase,
// AND, OR.
func tsPriority(op TSQueryOp) int {
	switch op {
	case TSNot:
		return 4
	case TSPhrase:
		return 3
	case TSAnd:
		return 2
	case TSOr:
		return 1
	}
	return 0
}

// The weight bits of a tsquery operand (QueryOperand.weight).
const (
	TSWeightA = 1 << 3
	TSWeightB = 1 << 2
	TSWeightC = 1 << 1
	TSWeightD = 1
)

// TSQueryNode is one node of a tsquery tree: an operand (TSVal: Word,
// Weight bits, Prefix) or an operator. NOT has its operand in Right, as
// PostgreSQL's trees do; the binary operators have both, and a phrase its
// Distance.
type TSQueryNode struct {
	Op          TSQueryOp
	Word        string
	Weight      uint8
	Prefix      bool
	Distance    int
	Left, Right *TSQueryNode
}

// TSQueryValue is a tsquery: a tree, nil for the empty query. Values are
// immutable once built.
type TSQueryValue struct {
	Root *TSQueryNode
}

// NewTSQuery returns a tsquery value.
func NewTSQuery(q *TSQueryValue) Value { return Value{K: KindTSQuery, X: q} }

// TSQuery returns the tsquery of a KindTSQuery value (read-only).
func (v Value) TSQuery() *TSQueryValue {
	q, _ := v.X.(*TSQueryValue)
	return q
}

// TSQueryMode selects how tsquery text is tokenised.
type TSQueryMode uint8

// The tsquery tokenisers of parse_tsquery.
const (
	// TSQueryStandard is tsquery input and to_tsquery: operators,
	// parentheses, quoted operands with weights and prefix marks.
	TSQueryStandard TSQueryMode = iota
	// TSQueryPlain is plainto_tsquery and phraseto_tsquery: the whole text
	// one operand.
	TSQueryPlain
	// TSQueryWeb is websearch_to_tsquery's syntax.
	TSQueryWeb
)

// TSQueryBuilder builds a tsquery in PostgreSQL's order: operands and
// operators pushed in postfix order, as parse_tsquery's pushValue,
// pushStop and pushOperator do. A PushValueFunc given to ParseTSQuery
// pushes an operand's lexemes through it.
type TSQueryBuilder struct {
	src   string
	stack []*TSQueryNode
	stops bool
}

// PushValue pushes an operand.
func (b *TSQueryBuilder) PushValue(word string, weight uint8, prefix bool) error {
	if len(word) >= TSMaxLexemeLen {
		return pgerr.New(pgerr.ProgramLimitExceeded, "operand is too long in tsquery: \"%s\"", b.src)
	}
	b.stack = append(b.stack, &TSQueryNode{Op: TSVal, Word: word, Weight: weight, Prefix: prefix})
	return nil
}

// PushStop pushes a stop word's placeholder, removed when the query is
// finished.
func (b *TSQueryBuilder) PushStop() {
	b.stops = true
	b.stack = append(b.stack, &TSQueryNode{Op: TSStop})
}

// PushOperator applies an operator to the operands on top of the stack.
func (b *TSQueryBuilder) PushOperator(op TSQueryOp, distance int) error {
	n := &TSQueryNode{Op: op, Distance: distance}
	k := len(b.stack)
	if op == TSNot {
		if k < 1 {
			return tsquerySyntaxError(b.src)
		}
		n.Right = b.stack[k-1]
		b.stack[k-1] = n
		return nil
	}
	if k < 2 {
		return tsquerySyntaxError(b.src)
	}
	n.Left, n.Right = b.stack[k-2], b.stack[k-1]
	b.stack = append(b.stack[:k-2], n)
	return nil
}

// PushValueFunc pushes one operand of the query text (with its weight
// bits and prefix mark) as lexemes and operators.
type PushValueFunc func(b *TSQueryBuilder, word string, weight uint8, prefix bool) error

// PushAsIs is tsqueryin's PushValueFunc: the operand as written.
func PushAsIs(b *TSQueryBuilder, word string, weight uint8, prefix bool) error {
	return b.PushValue(word, weight, prefix)
}

func tsquerySyntaxError(s string) error {
	return pgerr.New(pgerr.SyntaxError, "syntax error in tsquery: \"%s\"", s)
}

type tsqToken uint8

const (
	tsqEnd tsqToken = iota
	tsqVal
	tsqOpr
	tsqOpen
	tsqClose
	tsqErr
)

type tsqParser struct {
	src     string
	s       string
	mode    TSQueryMode
	operand bool // waiting for an operand
	first   bool // nothing read yet
	depth   int
	b       *TSQueryBuilder
	push    PushValueFunc
}

// ParseTSQuery parses tsquery text as parse_tsquery does, each operand
// pushed through push, and removes stop words' placeholders.
func ParseTSQuery(s string, mode TSQueryMode, push PushValueFunc) (*TSQueryValue, error) {
	p := &tsqParser{src: s, s: s, mode: mode, operand: true, first: true, b: &TSQueryBuilder{src: s}, push: push}
	if err := p.makepol(0); err != nil {
		return nil, err
	}
	b := p.b
	if len(b.stack) == 0 {
		return &TSQueryValue{}, nil
	}
	if len(b.stack) != 1 {
		return nil, tsquerySyntaxError(s)
	}
	root := b.stack[0]
	if b.stops {
		root, _, _ = cleanStopwords(root)
	}
	return &TSQueryValue{Root: root}, nil
}

// ParseTSQueryText is tsqueryin.
func ParseTSQueryText(s string) (*TSQueryValue, error) {
	return ParseTSQuery(s, TSQueryStandard, PushAsIs)
}

type tsqOpEntry struct {
	op       TSQueryOp
	distance int
}

// makepol is makepol: operators on a stack, applied by priority (NOT is
// right-associative).
func (p *tsqParser) makepol(level int) error {
	if level > 1000 {
		return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded")
	}
	var ops []tsqOpEntry
	clean := func(op TSQueryOp) error {
		prio := tsPriority(op)
		for len(ops) > 0 {
			top := ops[len(ops)-1]
			if op != TSNot && prio > tsPriority(top.op) || op == TSNot && prio >= tsPriority(top.op) {
				break
			}
			ops = ops[:len(ops)-1]
			if err := p.b.PushOperator(top.op, top.distance); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		tok, op, dist, word, weight, prefix, err := p.next()
		if err != nil {
			return err
		}
		switch tok {
		case tsqEnd:
			return clean(TSOr)
		case tsqVal:
			if err := p.push(p.b, word, weight, prefix); err != nil {
				return err
			}
		case tsqOpr:
			if err := clean(op); err != nil {
				return err
			}
			if len(ops) >= 32 {
				return pgerr.New(pgerr.InternalError, "tsquery stack too small")
			}
			ops = append(ops, tsqOpEntry{op, dist})
		case tsqOpen:
			if err := p.makepol(level + 1); err != nil {
				return err
			}
		case tsqClose:
			return clean(TSOr)
		default:
			return tsquerySyntaxError(p.src)
		}
	}
}

func (p *tsqParser) next() (tok tsqToken, op TSQueryOp, dist int, word string, weight uint8, prefix bool, err error) {
	switch p.mode {
	case TSQueryPlain:
		if p.s == "" {
			return tsqEnd, 0, 0, "", 0, false, nil
		}
		word, p.s = p.s, ""
		return tsqVal, 0, 0, word, 0, false, nil
	case TSQueryWeb:
		return p.nextWeb()
	}
	for {
		if p.operand {
			switch {
			case strings.HasPrefix(p.s, "!"):
				p.s = p.s[1:]
				p.operand, p.first = true, false
				return tsqOpr, TSNot, 0, "", 0, false, nil
			case strings.HasPrefix(p.s, "("):
				p.s = p.s[1:]
				p.operand, p.first = true, false
				p.depth++
				return tsqOpen, 0, 0, "", 0, false, nil
			case strings.HasPrefix(p.s, ":"):
				return tsqErr, 0, 0, "", 0, false, nil
			case p.s == "" || !tsIsSpace(p.s):
				t := &tsTokenizer{src: p.src, s: p.s, query: true, errf: tsquerySyntaxError}
				w, _, ok, err := t.next()
				if err != nil {
					return tsqErr, 0, 0, "", 0, false, err
				}
				p.s = t.s
				if ok {
					weight, prefix = p.modifiers()
					p.operand, p.first = false, false
					return tsqVal, 0, 0, w, weight, prefix, nil
				}
				if p.first {
					return tsqEnd, 0, 0, "", 0, false, nil
				}
				return tsqErr, 0, 0, "", 0, false, pgerr.New(pgerr.SyntaxError, "no operand in tsquery: \"%s\"", p.src)
			}
		} else {
			switch {
			case strings.HasPrefix(p.s, "&"):
				p.s = p.s[1:]
				p.operand = true
				return tsqOpr, TSAnd, 0, "", 0, false, nil
			case strings.HasPrefix(p.s, "|"):
				p.s = p.s[1:]
				p.operand = true
				return tsqOpr, TSOr, 0, "", 0, false, nil
			case strings.HasPrefix(p.s, "<"):
				p.operand = true
				d, rest, ok, err := parsePhraseOperator(p.s)
				if err != nil {
					return tsqErr, 0, 0, "", 0, false, err
				}
				if !ok {
					return tsqErr, 0, 0, "", 0, false, nil
				}
				p.s = rest
				return tsqOpr, TSPhrase, d, "", 0, false, nil
			case strings.HasPrefix(p.s, ")"):
				p.s = p.s[1:]
				p.depth--
				if p.depth < 0 {
					return tsqErr, 0, 0, "", 0, false, nil
				}
				return tsqClose, 0, 0, "", 0, false, nil
			case p.s == "":
				if p.depth != 0 {
					return tsqErr, 0, 0, "", 0, false, nil
				}
				return tsqEnd, 0, 0, "", 0, false, nil
			case !tsIsSpace(p.s):
				return tsqErr, 0, 0, "", 0, false, nil
			}
		}
		p.skip()
	}
}

// skip passes over one character (a space, or what the state passes
// over).
func (p *tsqParser) skip() {
	_, n := utf8.DecodeRuneInString(p.s)
	p.s = p.s[n:]
}

// modifiers reads an operand's ":ABCD*" (get_modifiers).
func (p *tsqParser) modifiers() (weight uint8, prefix bool) {
	if !strings.HasPrefix(p.s, ":") {
		return 0, false
	}
	i := 1
loop:
	for ; i < len(p.s); i++ {
		switch p.s[i] {
		case 'a', 'A':
			weight |= TSWeightA
		case 'b', 'B':
			weight |= TSWeightB
		case 'c', 'C':
			weight |= TSWeightC
		case 'd', 'D':
			weight |= TSWeightD
		case '*':
			prefix = true
		default:
			break loop
		}
	}
	p.s = p.s[i:]
	return weight, prefix
}

// parsePhraseOperator reads <-> or <N> (parse_phrase_operator).
func parsePhraseOperator(s string) (dist int, rest string, ok bool, err error) {
	if !strings.HasPrefix(s, "<") {
		return 0, s, false, nil
	}
	i := 1
	dist = 1
	switch {
	case i < len(s) && s[i] == '-':
		i++
	case i < len(s) && s[i] >= '0' && s[i] <= '9':
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		v, perr := strconv.ParseInt(s[i:j], 10, 64)
		if perr != nil || v > TSMaxEntryPos {
			return 0, s, false, pgerr.New(pgerr.InvalidParameterValue, "distance in phrase operator must be an integer value between zero and %d inclusive", TSMaxEntryPos)
		}
		dist, i = int(v), j
	default:
		return 0, s, false, nil
	}
	if i >= len(s) || s[i] != '>' || i+1 >= len(s) {
		return 0, s, false, nil
	}
	return dist, s[i+1:], true, nil
}

// nextWeb is gettoken_query_websearch.
func (p *tsqParser) nextWeb() (tok tsqToken, op TSQueryOp, dist int, word string, weight uint8, prefix bool, err error) {
	for {
		if p.operand {
			switch {
			case strings.HasPrefix(p.s, "-"):
				p.s = p.s[1:]
				p.first = false
				return tsqOpr, TSNot, 0, "", 0, false, nil
			case strings.HasPrefix(p.s, `"`):
				rest := p.s[1:]
				end := strings.IndexByte(rest, '"')
				if end < 0 {
					word, p.s = rest, ""
				} else {
					word, p.s = rest[:end], rest[end+1:]
				}
				p.operand, p.first = false, false
				return tsqVal, 0, 0, word, 0, false, nil
			case p.s != "" && tsIsOperator(p.s[0]):
				p.s = p.s[1:]
				p.first = false
				continue
			case p.s == "" || !tsIsSpace(p.s):
				t := &tsTokenizer{src: p.src, s: p.s, query: true, web: true, errf: tsquerySyntaxError}
				w, _, ok, err := t.next()
				if err != nil {
					return tsqErr, 0, 0, "", 0, false, err
				}
				p.s = t.s
				if ok {
					p.operand, p.first = false, false
					return tsqVal, 0, 0, w, 0, false, nil
				}
				if !p.first {
					p.b.PushStop()
				}
				return tsqEnd, 0, 0, "", 0, false, nil
			}
		} else {
			switch {
			case strings.HasPrefix(p.s, `"`):
				p.operand = true
				return tsqOpr, TSAnd, 0, "", 0, false, nil
			case webOrOperator(p.s):
				p.s = p.s[2:]
				p.operand = true
				return tsqOpr, TSOr, 0, "", 0, false, nil
			case p.s == "":
				return tsqEnd, 0, 0, "", 0, false, nil
			case !tsIsSpace(p.s) && !tsIsOperator(p.s[0]):
				// an implicit AND; operator characters are passed over
				// like spaces
				p.operand = true
				return tsqOpr, TSAnd, 0, "", 0, false, nil
			}
		}
		p.skip()
	}
}

// webOrOperator is parse_or_operator: "or" (any case) followed by
// something that is not part of a word, and an operand later.
func webOrOperator(s string) bool {
	if len(s) < 3 || !strings.EqualFold(s[:2], "or") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[2:])
	if r == '-' || r == '_' || isAlnumRune(r) {
		return false
	}
	return strings.TrimLeftFunc(s[2+utf8.RuneLen(r):], isSpaceRune) != ""
}

// cleanStopwords is clean_stopword_intree: stop words' placeholders
// removed, their operators with them, the phrase distances they spanned
// added to the phrases that remain. ladd and radd are the distances still
// to account for on the left and right of the result.
func cleanStopwords(n *TSQueryNode) (out *TSQueryNode, ladd, radd int) {
	switch n.Op {
	case TSVal:
		return n, 0, 0
	case TSStop:
		return nil, 0, 0
	case TSNot:
		r, l, rr := cleanStopwords(n.Right)
		if r == nil {
			return nil, l, rr
		}
		c := *n
		c.Right = r
		return &c, l, rr
	}
	left, lladd, lradd := cleanStopwords(n.Left)
	right, rladd, rradd := cleanStopwords(n.Right)
	phrase := n.Op == TSPhrase
	nd := 0
	if phrase {
		nd = n.Distance
	}
	switch {
	case left == nil && right == nil:
		if phrase {
			d := lladd + nd + rradd
			return nil, d, d
		}
		return nil, 0, 0
	case left == nil:
		if phrase {
			return right, lladd + nd + rladd, rradd
		}
		return right, rladd, rradd
	case right == nil:
		if phrase {
			return left, lladd, lradd + nd + rradd
		}
		return left, lladd, lradd
	}
	c := *n
	c.Left, c.Right = left, right
	if phrase {
		c.Distance += lradd + rladd
		return &c, lladd, rradd
	}
	return &c, 0, 0
}

// AppendTSQuery appends tsquery's text form (tsqueryout): operands quoted,
// parentheses where priorities need them.
func AppendTSQuery(buf []byte, q *TSQueryValue) []byte {
	if q == nil || q.Root == nil {
		return buf
	}
	return appendTSQueryNode(buf, q.Root, 0, false)
}

func appendTSQueryNode(buf []byte, n *TSQueryNode, parent int, rightPhrase bool) []byte {
	switch n.Op {
	case TSVal:
		buf = appendTSWord(buf, n.Word)
		if n.Weight != 0 || n.Prefix {
			buf = append(buf, ':')
			if n.Prefix {
				buf = append(buf, '*')
			}
			for i, c := range "ABCD" {
				if n.Weight&(TSWeightA>>i) != 0 {
					buf = append(buf, byte(c))
				}
			}
		}
		return buf
	case TSNot:
		prio := tsPriority(TSNot)
		if prio < parent {
			buf = append(buf, "( "...)
		}
		buf = append(buf, '!')
		buf = appendTSQueryNode(buf, n.Right, prio, false)
		if prio < parent {
			buf = append(buf, " )"...)
		}
		return buf
	}
	prio := tsPriority(n.Op)
	paren := prio < parent || n.Op == TSPhrase && rightPhrase
	if paren {
		buf = append(buf, "( "...)
	}
	buf = appendTSQueryNode(buf, n.Left, prio, false)
	switch n.Op {
	case TSOr:
		buf = append(buf, " | "...)
	case TSAnd:
		buf = append(buf, " & "...)
	case TSPhrase:
		if n.Distance != 1 {
			buf = append(buf, " <"...)
			buf = strconv.AppendInt(buf, int64(n.Distance), 10)
			buf = append(buf, "> "...)
		} else {
			buf = append(buf, " <-> "...)
		}
	}
	buf = appendTSQueryNode(buf, n.Right, prio, n.Op == TSPhrase)
	if paren {
		buf = append(buf, " )"...)
	}
	return buf
}

// TSQueryString is the tsquery's text form.
func TSQueryString(q *TSQueryValue) string { return string(AppendTSQuery(nil, q)) }

// Polish returns the query's nodes in PostgreSQL's storage order: each
// operator, then its right operand, then its left.
func (q *TSQueryValue) Polish() []*TSQueryNode {
	var out []*TSQueryNode
	var walk func(n *TSQueryNode)
	walk = func(n *TSQueryNode) {
		out = append(out, n)
		if n.Right != nil {
			walk(n.Right)
		}
		if n.Left != nil {
			walk(n.Left)
		}
	}
	if q != nil && q.Root != nil {
		walk(q.Root)
	}
	return out
}

// AppendTSQueryBinary appends tsquerysend's form: the node count, then
// each node in storage order: type 1 (operand) with weight, prefix and
// the NUL-terminated lexeme, or type 2 (operator) with its code and a
// phrase's distance.
func AppendTSQueryBinary(buf []byte, q *TSQueryValue) []byte {
	nodes := q.Polish()
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(nodes)))
	for _, n := range nodes {
		if n.Op == TSVal {
			buf = append(buf, 1, n.Weight, 0)
			if n.Prefix {
				buf[len(buf)-1] = 1
			}
			buf = append(buf, n.Word...)
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 2, byte(n.Op))
		if n.Op == TSPhrase {
			buf = binary.BigEndian.AppendUint16(buf, uint16(n.Distance))
		}
	}
	return buf
}

// DecodeTSQueryBinary reads tsqueryrecv's form.
func DecodeTSQueryBinary(src []byte) (*TSQueryValue, error) {
	if len(src) < 4 {
		return nil, errInsufficientData()
	}
	size := binary.BigEndian.Uint32(src)
	src = src[4:]
	if size > uint32(len(src)) {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid size of tsquery")
	}
	malformed := func() error {
		return pgerr.New(pgerr.InvalidBinaryRepresentation, "malformed tsquery: operand not found")
	}
	var read func() (*TSQueryNode, error)
	read = func() (*TSQueryNode, error) {
		if len(src) < 2 {
			return nil, errInsufficientData()
		}
		typ := src[0]
		switch typ {
		case 1:
			if len(src) < 3 {
				return nil, errInsufficientData()
			}
			weight, prefix := src[1], src[2]
			src = src[3:]
			end := strings.IndexByte(string(src), 0)
			if end < 0 {
				return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid string in message")
			}
			w := string(src[:end])
			src = src[end+1:]
			if weight > 0xF {
				return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid tsquery: invalid weight bitmap")
			}
			if len(w) > TSMaxLexemeLen {
				return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid tsquery: operand too long")
			}
			if !utf8.ValidString(w) {
				return nil, pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
			}
			return &TSQueryNode{Op: TSVal, Word: w, Weight: weight, Prefix: prefix != 0}, nil
		case 2:
			op := TSQueryOp(src[1])
			src = src[2:]
			n := &TSQueryNode{Op: op}
			switch op {
			case TSNot:
			case TSAnd, TSOr:
			case TSPhrase:
				if len(src) < 2 {
					return nil, errInsufficientData()
				}
				n.Distance = int(binary.BigEndian.Uint16(src))
				src = src[2:]
			default:
				return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "unrecognized operator type in tsquery: %d", op)
			}
			if size == 0 {
				return nil, malformed()
			}
			size--
			r, err := read()
			if err != nil {
				return nil, err
			}
			n.Right = r
			if op != TSNot {
				if size == 0 {
					return nil, malformed()
				}
				size--
				l, err := read()
				if err != nil {
					return nil, err
				}
				n.Left = l
			}
			return n, nil
		}
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "unrecognized tsquery node type: %d", typ)
	}
	if size == 0 {
		if len(src) != 0 {
			return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format")
		}
		return &TSQueryValue{}, nil
	}
	size--
	root, err := read()
	if err != nil {
		return nil, err
	}
	if size != 0 || len(src) != 0 {
		return nil, pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format")
	}
	return &TSQueryValue{Root: root}, nil
}

// CompareTSQuery orders tsqueries: by node count, then by text. (It is a
// total order consistent with equality; PostgreSQL's compares its stored
// trees, which agrees on equality.)
func CompareTSQuery(a, b *TSQueryValue) int {
	if c := cmpInt(len(a.Polish()), len(b.Polish())); c != 0 {
		return c
	}
	return strings.Compare(TSQueryString(a), TSQueryString(b))
}

func hashTSQuery(h uint64, q *TSQueryValue) uint64 { return hashString(h, TSQueryString(q)) }

func isAlnumRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isSpaceRune(r rune) bool { return unicode.IsSpace(r) }
